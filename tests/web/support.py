"""What the web tests share: the protocol's schema as a validator, and clients whose every frame is checked."""

from __future__ import annotations

import json
from typing import Any

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

    def view(self) -> Message:
        """The next view."""
        return self.until("view")


def lines(text: str) -> list[Message]:
    return [valid(json.loads(line)) for line in text.splitlines() if line.strip()]
