#!/usr/bin/env python3
"""Write the table protocol's JSON Schema (spec/protocol.schema.json and its shipped copy in knock/web/).

    .venv/bin/python tools/protocol_schema.py           # write both files
    .venv/bin/python tools/protocol_schema.py --check   # fail if either differs from what this writes

The messages are spec/protocol.md's tables; this is their exact shape, written here once as data. Leaf values
(cards, seats, record numbers) are inlined rather than referenced, which keeps validation quick.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGETS = (ROOT / "spec" / "protocol.schema.json", ROOT / "knock" / "web" / "protocol.schema.json")
#: The protocol version the schema describes (PROTO-20); ``knock.web.protocol.PROTOCOL`` must be the same.
VERSION = (1, 4)


def build() -> dict[str, Any]:
    card = {"type": "string", "pattern": "^[A2-9TJQK][cdhs]$"}
    D: dict[str, Any] = {}
    INLINE = {"card", "seat", "record", "count", "cards", "meld", "melds", "action", "version", "table_id"}

    def ref(n: str) -> dict[str, Any]:
        if n in INLINE and n in D:
            inline: dict[str, Any] = D[n]
            return inline
        return {"$ref": f"#/$defs/{n}"}

    def nullable(x: dict[str, Any]) -> dict[str, Any]:
        if isinstance(x.get("type"), str) and x["type"] != "object":
            return {**x, "type": [x["type"], "null"]}
        return {"anyOf": [x, {"type": "null"}]}

    def obj(props: dict[str, Any], required: list[str] | None = None, extra: bool = False) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": props,
            "required": list(props) if required is None else required,
            "additionalProperties": extra,
        }

    D["card"] = card
    D["cards"] = {"type": "array", "items": ref("card"), "maxItems": 52}
    D["meld"] = {"type": "array", "items": ref("card"), "minItems": 3, "maxItems": 13}
    D["melds"] = {"type": "array", "items": ref("meld"), "maxItems": 4}
    D["seat"] = {"type": "integer", "minimum": 0, "maximum": 2}
    D["record"] = {"type": "integer", "minimum": 0, "maximum": 2**53}
    D["count"] = {"type": "integer", "minimum": 0}
    D["version"] = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
    D["table_id"] = {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z0-9_-]+$"}
    D["action"] = {"type": "string", "minLength": 1, "maxLength": 1024}
    D["rules"] = {"type": "object", "description": "a rule set as a log header's rules map (LOG-1, RULES-2)"}
    D["seat_spec"] = {
        "oneOf": [
            obj(
                {"player": {"const": "human"}, "name": {"type": "string", "minLength": 1, "maxLength": 64}},
                ["player"],
                True,
            ),
            obj(
                {
                    "player": {"const": "bot"},
                    "bot": {"enum": ["heuristic", "greedy", "random", "easy", "medium", "hard", "expert"]},
                    "name": {"type": "string", "minLength": 1, "maxLength": 64},
                },
                ["player"],
                True,
            ),
        ]
    }
    D["seat_info"] = obj(
        {
            "seat": ref("seat"),
            "name": {"type": "string"},
            "player": {"enum": ["human", "bot"]},
            "bot": nullable({"type": "string"}),
        }
    )
    D["result"] = obj(
        {
            "kind": {"enum": ["gin", "big_gin", "knock", "undercut", "tie", "dead"]},
            "winner": nullable(ref("seat")),
            "points": ref("count"),
            "knocker": nullable(ref("seat")),
            "seats": {"type": "array", "items": ref("seat"), "minItems": 2, "maxItems": 2},
            "deadwood": nullable({"type": "array", "items": ref("count"), "minItems": 2, "maxItems": 2}),
            "multiplier": {"type": "integer", "minimum": 1},
            "reason": {"type": "string"},
        }
    )
    D["spread"] = obj(
        {"seat": ref("seat"), "melds": ref("melds"), "deadwood_cards": ref("cards"), "deadwood": ref("count")}
    )
    D["layoff"] = obj({"card": ref("card"), "onto": ref("meld")})
    D["defence"] = obj(
        {
            "seat": ref("seat"),
            "melds": ref("melds"),
            "layoffs": {"type": "array", "items": ref("layoff"), "maxItems": 16},
            "deadwood_cards": ref("cards"),
            "deadwood": ref("count"),
        }
    )
    ints = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 3}
    D["column"] = obj(
        {"points": ints, "boxes": ints, "running": ints, "closed_by": nullable(ref("seat")), "totals": ints}
    )
    D["sheet_line"] = obj({"hand": {"type": "integer", "minimum": 1}, "result": ref("result")})
    D["sheet"] = obj(
        {
            "results": {"type": "array", "items": ref("sheet_line")},
            "columns": {"type": "array", "items": ref("column"), "minItems": 1, "maxItems": 3},
            "totals": ints,
            "winner": nullable(ref("seat")),
        }
    )
    D["player_state"] = obj({"seat": ref("seat"), "cards": nullable(ref("count")), "known": nullable(ref("cards"))})
    D["advice"] = obj({"seat": ref("seat"), "action": nullable(ref("action"))})
    D["view"] = obj(
        {
            "hand": {"type": "integer", "minimum": 1},
            "phase": {"type": "string"},
            "to_act": nullable(ref("seat")),
            "you": nullable(ref("seat")),
            "role": {"enum": ["dealer", "non_dealer", "box", "captain", "sitter", "spectator"]},
            "roles": {
                "type": "object",
                "additionalProperties": ref("seat"),
                "propertyNames": {"enum": ["dealer", "non_dealer", "box", "captain", "sitter"]},
            },
            "dealer": ref("seat"),
            "seats": {"type": "array", "items": ref("seat"), "minItems": 2, "maxItems": 2},
            "sitter": nullable(ref("seat")),
            "scores": ints,
            "target": {"type": "integer", "minimum": 1},
            "cards": ref("cards"),
            "melds": nullable(ref("melds")),
            "deadwood_cards": nullable(ref("cards")),
            "deadwood": nullable(ref("count")),
            "discard_pile": ref("cards"),
            "discard_top": nullable(ref("card")),
            "stock": ref("count"),
            "upcard": ref("card"),
            "knock_limit": ref("count"),
            "players": {"type": "array", "items": ref("player_state"), "minItems": 2, "maxItems": 2},
            "taken": nullable(ref("card")),
            "must_knock": {"type": "boolean"},
            "stock_only": {"type": "boolean"},
            "knocker": nullable(ref("seat")),
            "knock_discard": nullable(ref("card")),
            "spread": nullable(ref("spread")),
            "defence": nullable(ref("defence")),
            "result": nullable(ref("result")),
            "advice": nullable(ref("advice")),
            "sheet": ref("sheet"),
            "over": {"type": "boolean"},
            "winner": nullable(ref("seat")),
        }
    )
    D["draw_round"] = obj(  # 1.4: a round of the draw for the deal: the seats drawing and their cards (MATCH-2)
        {
            "seats": {"type": "array", "items": ref("seat"), "minItems": 1, "maxItems": 3},
            "cards": {"type": "array", "items": ref("card"), "minItems": 1, "maxItems": 3},
        }
    )
    D["event"] = obj(
        {
            "hand": {"type": "integer", "minimum": 0},
            "kind": {"type": "string", "pattern": "^[a-z_]+$"},
            "seat": nullable(ref("seat")),
            "text": {"type": "string"},
            "draw": ref("draw_round"),  # 1.4: a cut_drawn event's round in fields (PROTO-37, PROTO-39)
        },
        ["hand", "kind", "seat", "text"],
    )

    def msg(t: str, props: dict[str, Any], required: list[str] | None = None, extra: bool = False) -> dict[str, Any]:
        p = {"type": {"const": t}, **props}
        req = ["type", *(list(props) if required is None else required)]
        return obj(p, req, extra)

    hex32 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
    hex64 = {"type": "string", "pattern": "^[0-9a-f]{128}$"}  # an Ed25519 signature (DEAL-12, PROTO-47)
    fair_seats = {"type": "array", "items": hex32, "minItems": 2, "maxItems": 3}
    supplied = {"type": "array", "items": ref("seat"), "maxItems": 3, "uniqueItems": True}
    hand_no = {"type": "integer", "minimum": 1}
    fair = {"hand": hand_no, "commitment": hex32, "seeds": fair_seats, "supplied": supplied,
            "commitments": nullable(fair_seats)}  # fmt: skip
    host_time = {"type": "integer", "minimum": 0, "maximum": 10**15 - 1}  # whole seconds since 1970 (END-4)
    # client messages: extra keys allowed (PROTO-1)
    C = {
        "hello": msg(
            "hello",
            {
                "protocol": ref("version"),
                "table": ref("table_id"),
                "token": {"type": "string", "minLength": 1, "maxLength": 256},
                "spectate": {"type": "boolean"},
                "key": hex32,  # 1.4: the seat's statement key at a fair table (PROTO-47)
            },
            ["protocol", "table"],
            True,
        ),
        "act": msg(
            "act", {"action": ref("action"), "record": ref("record"), "seat": ref("seat")}, ["action", "record"], True
        ),
        "view_request": msg("view", {"seat": nullable(ref("seat"))}, [], True),
        "new": msg(
            "new",
            {
                "protocol": ref("version"),
                "preset": {"enum": ["standard", "oklahoma", "three_handed"]},
                "options": {"type": "object"},
                "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
                "seats": {"type": "array", "items": ref("seat_spec"), "minItems": 2, "maxItems": 3},
                "commitments": {"type": "boolean"},
            },
            ["protocol", "seats"],
            True,
        ),
        "log_request": msg("log", {}, [], True),
        "quit": msg("quit", {}, [], True),
        "rematch": msg("rematch", {}, [], True),  # 1.2 (PROTO-29)
        "seed": msg(  # 1.3 (PROTO-37); "set" 1.4 (PROTO-45)
            "seed",
            {"hand": {"type": "integer", "minimum": 1}, "seed": nullable(hex32), "set": hex32, "statement": hex64},
            ["hand", "seed"],
            True,
        ),
        "commit": msg(  # 1.4 (PROTO-45)
            "commit",
            {"hand": {"type": "integer", "minimum": 1}, "commitment": nullable(hex32)},
            ["hand", "commitment"],
            True,
        ),
        "claim": msg(  # 1.4 (PROTO-42)
            "claim",
            {"against": ref("seat"), "record": ref("record"), "seat": ref("seat"), "at": host_time},
            ["against", "record"],
            True,
        ),
        "host": msg("host", {"step": ref("action")}, ["step"], True),  # 1.4, knock engine (PROTO-43)
    }
    digest = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
    rule_id = {"type": "string", "pattern": "^[A-Z]+-[0-9]+$"}
    verdict = {"enum": ["pass", "unfinished", "fail"]}
    games = {"type": "integer", "minimum": 1}
    totals = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 3}
    series = obj({"previous": ref("table_id"), "games": games, "totals": totals})
    S = {
        "welcome": msg(
            "welcome",
            {
                "protocol": ref("version"),
                "server": {"type": "string"},
                "table": ref("table_id"),
                "seat": nullable(ref("seat")),
                "players": {"type": "array", "items": {"type": "string"}},
                "seats": {"type": "array", "items": ref("seat_info")},
                "rules": ref("rules"),
                "turn_timeout": nullable({"type": "number", "exclusiveMinimum": 0}),
                "series": nullable(series),  # 1.2 (PROTO-31)
                "fair": {"type": "boolean"},  # 1.3 (PROTO-35)
                "receipts": nullable(hex32),  # 1.4 (PROTO-47)
            },
        ),
        "fair_commit": msg(  # 1.3 (PROTO-36)
            "fair_commit",
            {
                "table": ref("table_id"),
                "hand": hand_no,
                "commitment": hex32,
                "timeout": {"type": "number", "exclusiveMinimum": 0},
                "left": nullable({"type": "number", "minimum": 0}),
            },
        ),
        "seed_taken": msg(  # 1.3 (PROTO-37)
            "seed_taken", {"hand": hand_no, "seat": ref("seat"), "seed": nullable(hex32), "receipt": nullable(hex64)}
        ),
        "commit_taken": msg(  # 1.4 (PROTO-45, PROTO-47)
            "commit_taken",
            {"hand": hand_no, "seat": ref("seat"), "commitment": nullable(hex32), "receipt": nullable(hex64)},
        ),
        "fair_set": msg(  # 1.4 (PROTO-45)
            "fair_set",
            {
                "table": ref("table_id"),
                "hand": hand_no,
                "commitment": hex32,
                "commitments": fair_seats,
                "set": hex32,
                "timeout": {"type": "number", "exclusiveMinimum": 0},
                "left": nullable({"type": "number", "minimum": 0}),
            },
        ),
        "fair_reveal": msg("fair_reveal", {"seat": nullable(ref("seat")), **fair, "server": hex32}),  # 1.3 (PROTO-39)
        "rematch": msg("rematch", {"table": ref("table_id"), "games": games, "totals": totals}),  # 1.2 (PROTO-30)
        "started": msg(
            "started",
            {
                "protocol": ref("version"),
                "server": {"type": "string"},
                "table": ref("table_id"),
                "players": {"type": "array", "items": {"type": "string"}},
                "seats": {"type": "array", "items": ref("seat_info")},
                "rules": ref("rules"),
            },
        ),
        "view": msg(
            "view",
            {
                "table": ref("table_id"),
                "seat": nullable(ref("seat")),
                "record": ref("record"),
                "view": ref("view"),
                "legal": {"type": "array", "items": ref("action")},
                "events": {"type": "array", "items": ref("event")},
                "defences": {  # 1.2 (PROTO-32)
                    "type": "array",
                    "items": obj({"action": ref("action"), "deadwood": {"type": "integer", "minimum": 0}}),
                },
                "turn_left": nullable({"type": "number", "minimum": 0}),  # 1.2 (PROTO-33)
                "discards": {  # 1.2 (PROTO-34)
                    "type": "array",
                    "items": obj({"card": ref("card"), "seat": nullable(ref("seat")), "taken": nullable(ref("seat"))}),
                },
                "fair": nullable(obj({**fair, "server": nullable(hex32)})),  # 1.3 (PROTO-39)
                "draw": {"type": "array", "items": ref("draw_round"), "maxItems": 64},  # 1.4 (PROTO-39)
                "endings": {  # 1.4 (PROTO-43)
                    "type": "array",
                    "items": {"type": "string", "pattern": "^(resign|abort|claim p[0-2])$"},
                    "maxItems": 4,
                },
                "away": {  # 1.4 (PROTO-43)
                    "type": "array",
                    "items": obj(
                        {
                            "seat": ref("seat"),
                            "since": host_time,
                            "claim_in": nullable({"type": "integer", "minimum": 0}),
                        }
                    ),
                    "maxItems": 3,
                },
            },
        ),
        "ack": msg(
            "ack",
            {
                "seat": nullable(ref("seat")),  # 1.4: null for a host's step of no seat (knock engine, PROTO-43)
                "action": ref("action"),
                "record": ref("record"),
                "next": ref("record"),
                "duplicate": {"type": "boolean"},
            },
        ),
        "refusal": msg(
            "refusal",
            {
                "seat": nullable(ref("seat")),
                "action": {"type": "string"},
                "rule": rule_id,
                "reason": {"type": "string"},
                "record": ref("record"),
            },
        ),
        "timed_out": msg("timed_out", {"seat": ref("seat"), "action": nullable(ref("action"))}),
        "hand_result": msg(
            "hand_result",
            {
                "seat": nullable(ref("seat")),
                "hand": {"type": "integer", "minimum": 1},
                "result": ref("result"),
                "spread": nullable(ref("spread")),
                "defence": nullable(ref("defence")),
                "scores": ints,
            },
        ),
        "game_result": msg(
            "game_result",
            {
                "seat": nullable(ref("seat")),
                "winner": nullable(ref("seat")),  # 1.4: null after an abort (END-2)
                "totals": ints,
                "hands": {"type": "integer", "minimum": 1},
                "sheet": ref("sheet"),
                "ending": nullable(  # 1.4 (PROTO-43): how the game ended before the target
                    obj(
                        {
                            "kind": {"enum": ["resign", "abort", "forfeit", "claim", "abandon"]},
                            "seat": nullable(ref("seat")),  # null: the host abandoned the game (END-6)
                            "against": nullable(ref("seat")),
                            "reason": nullable({"enum": ["timeout", "no_reveal", "absent"]}),
                        }
                    )
                ),
            },
        ),
        "log_offered": msg(
            "log_offered",
            {
                "url": nullable({"type": "string"}),
                "bytes": ref("count"),
                "records": ref("count"),
                "digest": digest,
                "verdict": verdict,
            },
        ),
        "log": msg(
            "log",
            {
                "data": {"type": "string", "contentEncoding": "base64"},
                "bytes": ref("count"),
                "records": ref("count"),
                "digest": nullable(digest),
                "verdict": verdict,
            },
        ),
        "error": msg(
            "error",
            {
                "code": {
                    "enum": [
                        "bad_json",
                        "bad_message",
                        "unknown_type",
                        "unsupported_protocol",
                        "hello_first",
                        "bad_token",
                        "no_such_table",
                        "replaced",
                        "rate_limited",
                        "binary_frame",
                        "too_many_errors",
                        "no_game",
                        "table_failed",
                        "bad_table",
                        "internal",
                        "bad_seed",
                        "too_many_connections",  # 1.4 (PROTO-17)
                    ]
                },
                "message": {"type": "string"},
                "rule": rule_id,
                "close": {"type": "boolean"},
            },
        ),
        "done": msg("done", {"line": {"type": "integer", "minimum": 1}}),
    }
    for k, v in C.items():
        D["client_" + k] = v
    for k, v in S.items():
        D["server_" + k] = v
    D["client_message"] = {"oneOf": [ref("client_" + k) for k in C]}
    D["server_message"] = {"oneOf": [ref("server_" + k) for k in S]}
    D["protocol_version"] = {
        "description": "the protocol version this schema describes, [major, minor] (PROTO-20)",
        "const": list(VERSION),
    }
    http(D, ref, obj, nullable, digest, verdict, rule_id)
    major, minor = VERSION
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://knock-gin.invalid/protocol/{major}.{minor}/schema.json",
        "title": f"The Knock table protocol, version {major}.{minor} (spec/protocol.md)",
        "description": "A message is a client_message (to the server) or a server_message (from it); an HTTP "
        "body is one of the http_ definitions (PROTO-2, PROTO-16 .. PROTO-18, PROTO-23).",
        "anyOf": [ref("client_message"), ref("server_message")],
        "$defs": D,
    }


def http(D: dict[str, Any], ref: Any, obj: Any, nullable: Any, digest: Any, verdict: Any, rule_id: Any) -> None:
    """The HTTP API's bodies (PROTO-23): what ``POST /api/tables`` takes, and what every route answers."""
    seconds = {"type": "number"}
    D["http_table_request"] = obj(
        {
            "preset": {"enum": ["standard", "oklahoma", "three_handed"]},
            "options": {"type": "object"},
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
            "seats": {"type": "array", "items": ref("seat_spec"), "minItems": 2, "maxItems": 3},
            "turn_timeout": nullable({**seconds, "minimum": 1, "maximum": 86_400}),
            "bot_delay": {**seconds, "minimum": 0, "maximum": 10},
            "commitments": {"type": "boolean"},
            "executor": {"enum": ["library", "compiled"]},
            "fair": {"type": "boolean"},  # 1.3 (PROTO-35)
            "seed_timeout": {**seconds, "minimum": 1, "maximum": 300},
            "timeout_forfeits": {"type": "boolean"},  # 1.4 (PROTO-43)
        },
        ["seats"],
        True,
    )
    text = {"type": "string"}
    D["http_table_created"] = obj(
        {
            "table": ref("table_id"),
            "seats": {
                "type": "array",
                "minItems": 2,
                "maxItems": 3,
                "items": obj(
                    {
                        "seat": ref("seat"),
                        "name": text,
                        "player": {"enum": ["human", "bot"]},
                        "bot": nullable(text),
                        "token": nullable({"type": "string", "minLength": 43}),
                        "link": nullable({"type": "string", "pattern": "^/#table=[A-Za-z0-9_-]+&seat=[0-2]&token="}),
                    }
                ),
            },
            "spectate": {"type": "string", "pattern": "^/#table=[A-Za-z0-9_-]+&spectate=1$"},
            "seed": nullable({"type": "integer", "minimum": 0, "maximum": 2**63 - 1}),  # 1.4: null unless chosen
        }
    )
    D["http_error"] = obj(
        {
            "error": obj(
                {
                    "code": {
                        "enum": [
                            "bad_json",
                            "bad_query",
                            "bad_table",
                            "bad_token",
                            "origin",
                            "no_such_table",
                            "not_over",
                            "too_big",
                            "bad_content_type",
                            "busy",
                            "rate_limited",
                            "too_many_bot_tables",
                            "bots_busy",
                            "too_many_tables",
                        ]
                    },
                    "message": text,
                    "rule": rule_id,
                }
            )
        }
    )
    D["http_api"] = obj(
        {
            "protocol": ref("version"),
            "server": text,
            "bots": {"type": "array", "items": text},
            "presets": {"type": "object", "additionalProperties": ref("rules")},
            "options": {
                "type": "object",
                "additionalProperties": obj({"default": {}, "choices": nullable({"type": "array"})}),
            },
        }
    )
    count = {"type": "integer", "minimum": 0}
    live = {
        "table": ref("table_id"),
        "preset": text,
        "rules": ref("rules"),
        "seats": {"type": "array", "items": ref("seat_info"), "minItems": 2, "maxItems": 3},
        "hand": count,
        "scores": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 3},
        "over": {"type": "boolean"},
        "winner": nullable(ref("seat")),
        "record": count,
        "turn_timeout": nullable(seconds),
    }
    final = {"log_bytes": count, "digest": digest, "verdict": verdict}
    D["http_table_summary"] = {
        "anyOf": [
            obj({**live, **final}, [*live], False),
            obj({"table": ref("table_id"), "failed": text}),
        ]
    }
    D["http_table_list"] = obj(
        {
            "tables": {"type": "array", "items": ref("http_table_summary"), "maxItems": 200},
            "start": count,
            "total": count,
            "next": nullable(count),
        }
    )
    any_object = {"type": "object"}
    D["http_replay"] = obj(
        {
            "format": {"const": "knock-transcript"},
            "version": ref("version"),
            "name": text,
            "bytes": count,
            "sha256": digest,
            "verdict": obj(
                {
                    "verdict": verdict,
                    "record": nullable(count),
                    "rule": nullable(text),
                    "message": text,
                    "digest": nullable(digest),
                    "view": nullable(ref("seat")),
                    "hands": count,
                    "scores": {"type": "array", "items": {"type": "integer"}},
                    "winner": nullable(ref("seat")),
                    "internal": {"type": "boolean"},
                    # 1.4: how far a signed log is signed, and what a signed view names (LOG-13, LOG-18, LOG-23)
                    "signer": nullable(digest),
                    "signed_through": nullable(count),
                    "table": nullable(text),
                    "made": nullable(count),
                    "seats_committed": nullable({"type": "boolean"}),  # 1.4: a fair log's seats committed first
                    "seats_signed": nullable({"type": "array", "items": ref("seat")}),  # 1.4: LOG-26
                    "summary": text,
                }
            ),
            "digest": nullable(digest),
            "header": nullable(any_object),
            "perspectives": {
                "type": "array",
                "items": obj({"key": text, "seat": nullable(ref("seat")), "label": text}),
            },
            "perspective": nullable(text),
            "start": count,
            "total": count,
            "steps": {"type": "array", "items": any_object, "maxItems": 4000},
            "views": {"type": "array"},
            "sheets": {"type": "array"},
            "truncated": {"type": "boolean"},
            "max_steps": count,
            "problem": nullable(text),
        }
    )


def main(argv: list[str]) -> int:
    text = json.dumps(build(), indent=1) + "\n"
    if argv[:1] == ["--check"]:
        stale = [str(p.relative_to(ROOT)) for p in TARGETS if p.read_text(encoding="utf-8") != text]
        if stale:
            print(f"out of date: {', '.join(stale)} (run tools/protocol_schema.py)")
            return 1
        return 0
    for p in TARGETS:
        p.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
