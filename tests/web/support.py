"""What the web tests share: the protocol's schema as a validator, and clients whose every frame is checked."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator

from knock.web.client import Client
from knock.web.protocol import Message, schema

SCHEMA = schema()
BASE = {k: v for k, v in SCHEMA.items() if k != "anyOf"}
SERVER = Draft202012Validator({**BASE, "$ref": "#/$defs/server_message"})
CLIENT = Draft202012Validator({**BASE, "$ref": "#/$defs/client_message"})
#: The server message of each type, to validate a frame against its own definition at once (the same check as
#: ``SERVER``'s ``oneOf``, which tries every definition, only faster).
BY_TYPE = {
    d["properties"]["type"]["const"]: Draft202012Validator({**BASE, "$ref": f"#/$defs/{name}"})
    for name, d in SCHEMA["$defs"].items()
    if name.startswith("server_") and "properties" in d
}


def valid(frame: Message) -> Message:
    """``frame``, once the schema says it is a server message (PROTO-1)."""
    validator = BY_TYPE.get(frame.get("type"), SERVER) if isinstance(frame, dict) else SERVER
    errors = sorted(validator.iter_errors(frame), key=str)
    assert not errors, f"{frame.get('type')} frame not valid: {errors[0].message} at {list(errors[0].path)}"
    return frame


class Seat(Client):
    """A client whose every frame received is validated against the schema."""

    def recv(self, timeout: float | None = None) -> Message:
        return valid(super().recv(timeout))

    def act(self, action: str, record: int, **extra: Any) -> Message:
        """Send an act; the answer (ack or refusal), the frames before it kept in ``frames``."""
        self.send({"type": "act", "action": action, "record": record, **extra})
        while True:
            frame = self.recv()
            if frame["type"] in ("ack", "refusal", "error"):
                return frame

    def hello_as(self, version: list[int], table: str, *, token: str | None, spectate: bool = False) -> Message:
        """Say hello in ``version`` (any minor or major), with a token and/or spectate; the first answer."""
        msg: dict[str, Any] = {"type": "hello", "protocol": version, "table": table}
        msg.update({"token": token} if token is not None else {})
        msg.update({"spectate": True} if spectate else {})
        self.send(msg)
        return self.recv()

    def view(self) -> Message:
        """The next view."""
        return self.until("view")


def lines(text: str) -> list[Message]:
    return [valid(json.loads(line)) for line in text.splitlines() if line.strip()]


#: Each HTTP answer's definition in the schema, by method, route and whether it succeeded (PROTO-23).
_ROUTES = [
    ("GET", re.compile(r"^/api$"), "http_api"),
    ("GET", re.compile(r"^/api/tables$"), "http_table_list"),
    ("POST", re.compile(r"^/api/tables$"), "http_table_created"),
    ("GET", re.compile(r"^/api/tables/[^/]+$"), "http_table_summary"),
    ("POST", re.compile(r"^/api/replay$"), "http_replay"),
]
_HTTP = {name: Draft202012Validator({**BASE, "$ref": f"#/$defs/{name}"}) for name in SCHEMA["$defs"]
         if name.startswith("http_")}  # fmt: skip
CHECKED: list[str] = []  #: the definition of every HTTP body validated (for the test that the hook runs)


def valid_body(method: str, url: str, status: int, data: bytes, sent: bytes | None = None) -> None:
    """An HTTP answer of the API (and, when a table was made, its request) checked against the schema's
    definition for it (PROTO-23): every refusal an ``http_error``. A log's bytes and the client's files are not
    JSON and are not checked."""
    path = urlsplit(url).path if "://" in url else url.split("?", 1)[0]
    if not path.startswith("/api") or (path.endswith("/log") and status == 200):
        return
    name = "http_error" if status >= 400 else next((d for m, r, d in _ROUTES if m == method and r.match(path)), None)
    if name is None or (status >= 400 and status in (404, 405) and not data.startswith(b"{")):
        return  # a route that is not the API's (a plain 404 or 405, PROTO-23)
    body = json.loads(data)
    pairs = [(name, body)]
    if name == "http_table_created" and sent is not None:
        pairs.append(("http_table_request", json.loads(sent)))
    for definition, value in pairs:
        errors = sorted(_HTTP[definition].iter_errors(value), key=str)
        assert not errors, f"{method} {path} {status}: not {definition}: {errors[0].message} at {list(errors[0].path)}"
        CHECKED.append(definition)


ROOT = Path(__file__).resolve().parents[2]
#: The Node package that compiles the schema with Ajv in strict mode (installed by ``tools/dev.py`` with npm ci).
AJV = ROOT / "tests" / "protocol" / "js"


def ajv(pairs: Iterable[tuple[str, object]], schema: Path = ROOT / "spec" / "protocol.schema.json") -> list[str]:
    """Ajv's answers (strict mode, draft 2020-12) for each (definition, value): "ok" or its first error; raises
    when the schema does not compile."""
    node = shutil.which("node")
    assert node is not None, "the schema's test needs Node 20 (python3 tools/dev.py test installs its packages)"
    assert (AJV / "node_modules" / "ajv").is_dir(), "Ajv is not installed: run python3 tools/dev.py setup"
    text = "".join(json.dumps([name, value]) + "\n" for name, value in pairs)
    run = subprocess.run([node, str(AJV / "check.mjs"), str(schema)], input=text, capture_output=True, text=True,
                         timeout=60, check=False)  # fmt: skip
    lines = run.stdout.splitlines()
    assert run.returncode == 0 and lines[:1] == ["compiled"], f"Ajv: {run.stdout}{run.stderr}"
    return lines[1:]
