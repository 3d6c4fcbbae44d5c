"""The protocol's messages: their schema, versions and the one validation path of what a client sends."""

from __future__ import annotations

import json
import re
import subprocess
import typing
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from knock.web import protocol
from knock.web.protocol import Act, Hello, LogRequest, New, ProtocolError, decode, seat_specs
from knock.web.tablespec import SpecError, table_spec
from tests.helpers import tool_check
from tests.web.support import BASE, CLIENT, SCHEMA, ajv, valid

HTTP_REQUEST = Draft202012Validator({**BASE, "$ref": "#/$defs/http_table_request"})

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "spec" / "protocol.md").read_text(encoding="utf-8")


@pytest.mark.rule("PROTO-1")
def test_the_schema_is_valid_and_shipped_as_specified() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    shipped = (ROOT / "knock" / "web" / "protocol.schema.json").read_text(encoding="utf-8")
    assert (ROOT / "spec" / "protocol.schema.json").read_text(encoding="utf-8") == shipped
    assert tuple(SCHEMA["$defs"]["protocol_version"]["const"]) == protocol.PROTOCOL
    major, minor = protocol.PROTOCOL
    assert SCHEMA["$id"].endswith(f"/protocol/{major}.{minor}/schema.json")
    assert f"version {major}.{minor}" in SPEC.splitlines()[0] and protocol.PROTOCOL == (1, 4)
    assert f"now `[{major}, {minor}]`" in SPEC


@pytest.mark.rule("PROTO-1")
def test_every_message_of_the_spec_is_in_the_schema() -> None:
    tables = SPEC.split("Client to server")[1].split("An example exchange")[0]
    messages = set(re.findall(r"^\| `(\w+)` \|", tables, flags=re.M))
    defs = SCHEMA["$defs"]
    types = {d["properties"]["type"]["const"] for k, d in defs.items() if k.startswith(("client_", "server_"))
             and "properties" in d}  # fmt: skip
    assert messages == types and len(messages) == 26  # view, log and rematch go both ways


@pytest.mark.rule("PROTO-1", "PROTO-11")
@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('"act"', "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ('{"type": "shout"}', "unknown_type"),
        ('{"type": 7}', "unknown_type"),
        ("{}", "unknown_type"),
        ('{"type": "act", "action": "draw"}', "bad_message"),
        ('{"type": "act", "action": "draw", "record": -1}', "bad_message"),
        ('{"type": "act", "action": "draw", "record": true}', "bad_message"),
        ('{"type": "act", "action": "", "record": 3}', "bad_message"),
        ('{"type": "act", "action": "draw", "record": 3, "seat": 7}', "bad_message"),
        ('{"type": "hello", "protocol": [1, 0], "table": "t"}', "bad_message"),
        ('{"type": "hello", "protocol": "1.0", "table": "t", "token": "x"}', "bad_message"),
        ('{"type": "hello", "protocol": [2, 0], "table": "t", "token": "x"}', "unsupported_protocol"),
        ('{"type": "new", "protocol": [1, 0], "seats": [{"player": "cat"}]}', "bad_message"),
        (
            '{"type": "new", "protocol": [1, 0], "seats": [{"player": "bot", "bot": "oracle"}, {"player": "human"}]}',
            "bad_message",
        ),
        ("[" * 100_000, "bad_message"),
    ],
)
def test_what_is_not_a_message_is_an_error_with_its_code(frame: str | bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(frame)
    assert caught.value.code == code
    valid(protocol.error(caught.value))


@pytest.mark.rule("PROTO-1")
def test_messages_read_with_unknown_keys_ignored() -> None:
    assert decode('{"type": "act", "action": "discard Kh", "record": 12, "later": 1}') == Act("discard Kh", 12)
    hello = decode('{"type": "hello", "protocol": [1, 3], "table": "abc", "spectate": true}')
    assert hello == Hello((1, 3), "abc", None, True)
    new = decode(
        '{"type": "new", "protocol": [1, 0], "preset": "three_handed", "seed": 9, '
        '"seats": [{"player": "human", "name": "ann"}, {"player": "bot"}, {"player": "bot", "bot": "random"}]}'
    )
    assert isinstance(new, New) and [s.player for s in new.seats] == ["human", "bot", "bot"]
    assert new.seats[2].bot == "random" and new.seats[0].name == "ann"
    for text in ('{"type": "act", "action": "pass", "record": 0}', '{"type": "log"}', '{"type": "quit"}'):
        assert not list(CLIENT.iter_errors(json.loads(text)))


@pytest.mark.rule("PROTO-1")
def test_a_server_message_is_one_line() -> None:
    text = protocol.encode(protocol.refusal(0, "discard\nKh", "TURN-1", "not an action:\n'x'", 3))
    assert "\n" not in text and json.loads(text)["action"] == "discard\nKh"


@pytest.mark.rule("PROTO-1")
def test_the_schema_files_are_what_the_tool_writes() -> None:
    tool_check("protocol_schema.py")


def _table_after(heading: str) -> str:
    """The first Markdown table after ``heading`` in the spec."""
    rest = SPEC.split(heading, 1)[1]
    lines = rest.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("|"))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip().startswith("|"))
    return "\n".join(lines[start:end])


@pytest.mark.rule("PROTO-21")
def test_every_error_code_is_described_once_and_the_schema_has_exactly_them() -> None:
    frames = re.findall(r"^\s*\| `(\w+)` \| (PROTO-\d+)", _table_after("The codes of the messages' errors"), re.M)
    described = {code: rule for code, rule in frames}
    assert len(frames) == len(described) == len(typing.get_args(protocol.ErrorCode))
    enum = SCHEMA["$defs"]["server_error"]["properties"]["code"]["enum"]
    assert set(described) == set(typing.get_args(protocol.ErrorCode)) == set(enum)
    assert described == {c: protocol.ERROR_RULES[c] for c in described}  # each under the rule the code gives it
    http = _table_after("The HTTP API's codes")
    codes = {c for cell in re.findall(r"^\s*\| \d{3} \| ([^|]+)\|", http, re.M) for c in re.findall(r"`(\w+)`", cell)}
    assert codes == set(SCHEMA["$defs"]["http_error"]["properties"]["error"]["properties"]["code"]["enum"])
    used = set()
    for path in (ROOT / "knock" / "web").glob("*.py"):
        used |= set(re.findall(r'(?:HttpRefusal\(|_error\()\d{3}, "([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert used == codes  # the code answers no HTTP code the spec does not describe, and describes none unused


@pytest.mark.rule("PROTO-25")
@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "act", "action": "draw", "record": 9007199254740993}',
        '{"type": "act", "action": "' + "x" * 1025 + '", "record": 1}',
        '{"type": "act", "action": "draw", "record": 1.5}',
        '{"type": "act", "action": "draw", "record": 1, "seat": 3}',
        '{"type": "hello", "protocol": [1, 1], "table": "' + "t" * 65 + '", "spectate": true}',
        '{"type": "hello", "protocol": [1, 1], "table": "t", "token": "' + "k" * 257 + '"}',
        '{"type": "hello", "protocol": [1, -1], "table": "t", "spectate": true}',
        '{"type": "new", "protocol": [1, 1], "seed": 9223372036854775808, "seats": [{"player": "human"}, '
        '{"player": "bot"}]}',
        '{"type": "new", "protocol": [1, 1], "seats": [{"player": "human", "name": ""}, {"player": "bot"}]}',
        '{"type": "new", "protocol": [1, 1], "seats": [{"player": "human"}]}',
        '{"type": "new", "protocol": [1, 1], "seats": [{"player": "human"}, {"player": "human"}, '
        '{"player": "human"}, {"player": "human"}]}',
    ],
)
def test_a_value_out_of_its_range_is_a_bad_message(frame: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(frame)
    assert caught.value.code == "bad_message"
    assert list(CLIENT.iter_errors(json.loads(frame)))  # and the schema says so too


@pytest.mark.rule("PROTO-25", "PROTO-2")
@pytest.mark.parametrize(
    ("request_body", "rule"),
    [
        ({"turn_timeout": 0.5}, "PROTO-2"),
        ({"turn_timeout": 86_401}, "PROTO-2"),
        ({"bot_delay": 10.5}, "PROTO-2"),
        ({"executor": "fast"}, "PROTO-2"),
        ({"preset": "rummy"}, "RULES-1"),
        ({"options": {"target": 0}}, "RULES-2"),
    ],
)
def test_a_table_out_of_range_is_refused_naming_its_rule(request_body: dict[str, object], rule: str) -> None:
    two = [{"player": "human"}, {"player": "bot"}]
    with pytest.raises(SpecError) as caught:
        table_spec({"seats": two, **request_body})
    assert caught.value.rule == rule
    if rule == "PROTO-2":
        assert list(HTTP_REQUEST.iter_errors({"seats": two, **request_body}))
    made = table_spec({"seats": two, "turn_timeout": 1, "bot_delay": 10, "seed": 2**63 - 1})
    assert made.turn_timeout == 1.0 and not list(HTTP_REQUEST.iter_errors({"seats": two, "turn_timeout": 1}))


@pytest.mark.rule("PROTO-1", "PROTO-20")
def test_the_schema_compiles_under_ajv_strict_mode_and_agrees_with_jsonschema(tmp_path: Path) -> None:
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout
    assert int(node.lstrip("v").split(".")[0]) >= 20
    good = [
        ("server_message", protocol.error(ProtocolError("bad_json", "not JSON"))),
        ("server_message", protocol.done(3)),
        ("server_message", protocol.refusal(None, "pass", "PROTO-3", "a spectator cannot act", 4)),
        ("client_message", {"type": "act", "action": "pass", "record": 4, "later": True}),
        ("protocol_version", list(protocol.PROTOCOL)),
        ("http_error", {"error": {"code": "bad_query", "message": "no", "rule": "PROTO-17"}}),
    ]
    bad = [
        ("server_message", {**protocol.done(3), "extra": 1}),  # a server message has exactly its keys
        ("server_message", {"type": "error", "code": "oops", "message": "", "rule": "PROTO-11", "close": False}),
        ("client_message", {"type": "act", "action": "", "record": 4}),
        ("protocol_version", [1, 0]),
        ("http_table_request", {"seats": [{"player": "human"}], "turn_timeout": 0}),
    ]
    answers = ajv(good + bad)
    assert answers[: len(good)] == ["ok"] * len(good) and all(a != "ok" for a in answers[len(good) :]), answers
    for (name, value), answer in zip(good + bad, answers, strict=True):
        python = Draft202012Validator({**BASE, "$ref": f"#/$defs/{name}"})
        assert python.is_valid(value) == (answer == "ok"), (name, value, answer)
    broken = tmp_path / "broken.schema.json"
    broken.write_text(json.dumps({**SCHEMA, "version": [1, 1]}), encoding="utf-8")  # 1.0's root keyword
    with pytest.raises(AssertionError, match="unknown keyword"):
        ajv([], broken)


@pytest.mark.rule("PROTO-21", "PROTO-22")
def test_a_message_of_the_other_transport_is_unknown_whatever_its_fields() -> None:
    """The type is checked against the transport before the fields (PROTO-22, step 2), so a malformed ``new``
    on a WebSocket is ``unknown_type`` as PROTO-21 says, not ``bad_message``; ``hello_first`` comes later."""
    for text, transport in [
        ('{"type": "new"}', "knock serve"),
        ('{"type": "log"}', "knock serve"),
        ('{"type": "quit", "x": 1}', "knock serve"),
        ('{"type": "hello"}', "knock engine"),
    ]:
        with pytest.raises(ProtocolError) as refused:
            decode(text, transport)
        assert refused.value.code == "unknown_type", text
        assert "logrequest" not in str(refused.value)
    with pytest.raises(ProtocolError) as fields:
        decode('{"type": "new"}', "knock engine")
    assert fields.value.code == "bad_message"
    assert isinstance(decode('{"type": "log"}', "knock engine"), LogRequest)


@pytest.mark.rule("PROTO-5", "PROTO-20")
def test_the_event_kinds_table_is_every_event_the_views_can_carry() -> None:
    """protocol.md's table of event kinds names every kind a view's ``events`` can hold, and its ``seat`` column
    says null exactly for the events that are about no one seat (they have no ``seat``)."""
    import dataclasses

    from engine import events, visibility
    from knock.web.views import _CAMEL

    text = (Path(__file__).resolve().parents[2] / "spec" / "protocol.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| [^|]+ \| ([^|]+) \|$", text.split("| kind | what happened")[1]
                           .split("A kind a client")[0], re.M))  # fmt: skip
    seen = [c for c in vars(events).values() if isinstance(c, type) and c.__module__ == "engine.events"]
    seen += [visibility.HiddenDraw, visibility.HiddenKnock, visibility.HiddenAdvice]
    kinds = {_CAMEL.sub("_", c.__name__).lower(): c for c in seen if dataclasses.is_dataclass(c)}
    assert set(rows) == set(kinds)
    for kind, cls in kinds.items():
        has_seat = "seat" in {f.name for f in dataclasses.fields(cls)}
        assert (rows[kind].strip() != "null") == has_seat, kind


@pytest.mark.rule("PROTO-25", "PROTO-2")
def test_a_seats_name_keeps_no_control_or_direction_characters() -> None:
    """A name with a right-to-left override would turn the table's text around it; one of controls only would show
    as nothing: the first is kept without them, the second refused."""
    seats = seat_specs([{"player": "human", "name": "eve\u202e nilc\u2066 \n"}, {"player": "human"}], _bad)
    assert seats[0].name == "eve nilc" and seats[1].name == "p1"
    with pytest.raises(ValueError, match=r"seats\[0\]\.name"):
        seat_specs([{"player": "human", "name": "\u202e\u200f \t"}, {"player": "human"}], _bad)


def _bad(name: str, what: str) -> ValueError:
    return ValueError(f"{name}: {what}")
