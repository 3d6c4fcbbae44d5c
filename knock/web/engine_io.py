"""``knock engine``: the table protocol as JSON lines over standard input and output. Rules: PROTO-15, PROTO-11.

One controller drives every human seat of one game at a time, the way a chess program is driven over UCI: it
sends ``new``, then an ``act`` (with its seat) whenever a human seat is to act, and reads the answers — the
acknowledgement or refusal, then each human seat's frames. Bots move as soon as it is their turn. Every line
in, a blank one or ``quit`` included, is answered by its frames and then ``done`` (the end of that line's
answer); nothing ends the program but the end of its input or ``quit``, and no error closes anything. A session
byte for byte is spec/protocol-session.txt (PROTO-27).

>>> import io, json
>>> out = io.StringIO()
>>> lines = ['{"type": "new", "protocol": [1, 1], "seed": 3, "seats": [{"player": "human"}, {"player": "bot"}]}',
...          'not json', '', '{"type": "quit"}', '{"type": "log"}']
>>> run(io.StringIO("\\n".join(lines)), out)
0
>>> answers = [json.loads(x) for x in out.getvalue().splitlines()]
>>> [a["type"] for a in answers]
['started', 'view', 'done', 'error', 'done', 'error', 'done', 'done']
>>> [a.get("code") for a in answers if a["type"] == "error"], answers[-1]
(['bad_json', 'bad_json'], {'type': 'done', 'line': 4})
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Iterator
from typing import TextIO

from knock.web import protocol
from knock.web.game import Game, Outcome
from knock.web.protocol import Message, ProtocolError
from knock.web.tablespec import SpecError, TableSpec
from replay.verdict import judge

#: The table id ``knock engine`` gives its game.
TABLE = "engine"


class Engine:
    """One game at a time, answered message by message (``handle``)."""

    def __init__(self) -> None:
        self.table: Game | None = None
        self.log: list[bytes] = []

    def handle(self, line: str) -> tuple[list[Message], bool]:
        """The answers to one line (before its ``done``), and whether to go on."""
        if not line.strip():
            return [protocol.error(ProtocolError("bad_json", "an empty line is not a message"))], True
        try:
            message = protocol.decode(line, "knock engine")
        except ProtocolError as err:
            return [protocol.error(err, close=False)], True  # nothing closes on knock engine (PROTO-15)
        match message:
            case protocol.New():
                return self._new(message), True
            case protocol.Quit():
                return [], False
        table = self.table
        if table is None:
            return [protocol.error(ProtocolError("no_game", "start a game first: send new"))], True
        match message:
            case protocol.Act(seat=None):
                no = ProtocolError(
                    "bad_message", "act: 'seat' must be given on knock engine (the seat acting)", rule="PROTO-15"
                )
                return [protocol.error(no)], True
            case protocol.Act(seat=int(seat)) if seat not in table.humans:
                reason = f"p{seat} is not a human seat of this game" if seat < len(table.spec.seats) else "no such seat"
                return [protocol.refusal(seat, message.action, "PROTO-3", reason, table.record)], True
            case protocol.Act(seat=int(seat)):
                return self._answer(table.act(seat, message.action, message.record)), True
            case protocol.ClaimRequest(seat=None) | protocol.ClaimRequest(at=None):
                why = "claim: 'seat' and 'at' must be given on knock engine (the seat claiming, and the host's time)"
                no = ProtocolError("bad_message", why, rule="PROTO-15")
                return [protocol.error(no)], True
            case protocol.ClaimRequest(seat=int(seat), at=int(at)) if seat not in table.humans:
                reason = f"p{seat} is not a human seat of this game" if seat < len(table.spec.seats) else "no such seat"
                return [protocol.refusal(seat, f"claim p{message.against}", "PROTO-3", reason, table.record)], True
            case protocol.ClaimRequest(seat=int(seat), at=int(at)):
                return self._answer(table.claim(seat, message.against, message.record, at)), True
            case protocol.HostRequest(step=step):
                return self._answer(table.host(step)), True
            case protocol.ViewRequest(seat=seat):
                if seat is not None and seat not in table.humans:
                    no = ProtocolError(
                        "bad_message", f"view: p{seat} is not a human seat of this game", rule="PROTO-15"
                    )
                    return [protocol.error(no)], True
                return [table.full_view(seat)], True
            case protocol.LogRequest():
                return [self._log()], True
        raise AssertionError(message)  # every message is handled above

    def _new(self, message: protocol.New) -> list[Message]:
        seed = message.seed if message.seed is not None else secrets.randbits(63)
        try:
            spec = TableSpec(message.preset, message.options, message.seats, seed, commitments=message.commitments)
        except SpecError as err:  # a failed new is an error, whatever the reason (PROTO-15)
            return [protocol.error(ProtocolError("bad_table", err.message, rule=err.rule))]
        if len(spec.seats) != spec.rules.players:
            reason = f"{spec.rules.name} is played by {spec.rules.players}: give one seat each"
            return [protocol.error(ProtocolError("bad_table", reason, rule="PROTO-2"))]
        table, head = Game.new(TABLE, spec, secrets.token_bytes(32) if spec.commitments else None)
        table.clock = lambda: table.match.seen.clock  # the host's time is the controller's: its latest (PROTO-43)
        self.table, self.log = table, [head]
        self._bots()
        table.advance()
        for lens in table.lenses.values():  # each human seat is sent its whole hand so far
            lens.fresh.clear()
            lens.results.clear()
        out = [protocol.started(TABLE, spec.seats, spec.rules.to_dict())]
        out += [table.full_view(s) for s in table.humans]
        return [*out, self._offer()] if table.over else out

    def _answer(self, outcome: Outcome) -> list[Message]:
        """The answer to an action, a claim or a host's step: its refusal, or its ``ack`` and what followed."""
        if outcome.applied is None:
            return [outcome.reply]
        self.log.append(outcome.chunk)
        return [outcome.reply, *self._moved()]

    def _bots(self) -> None:
        """The bots' moves until a human seat is to act, or the game ends."""
        table = self.table
        assert table is not None
        while (seat := table.bot_to_move()) is not None:
            outcome = table.act(seat, table.bot_action(seat), table.record)
            assert outcome.applied is not None, outcome.reply  # a bot chooses among the legal actions
            self.log.append(outcome.chunk)

    def _moved(self) -> list[Message]:
        """After an action: the bots' moves, then every human seat's frames, then the offer. Rule: PROTO-28."""
        table = self.table
        assert table is not None
        self._bots()
        table.advance()
        out: list[Message] = []
        for seat in table.humans:
            out += table.frames(seat)
        spectators = table.lenses[None]
        spectators.fresh.clear()
        spectators.results.clear()
        if table.over:
            out.append(self._offer())
        return out

    def _offer(self) -> Message:
        data = b"".join(self.log)
        v = judge(data)
        return protocol.log_offered(None, len(data), v.record or 0, v.digest or bytes(32), v.kind)

    def _log(self) -> Message:
        data = b"".join(self.log)
        v = judge(data)
        return protocol.log(base64.b64encode(data).decode("ascii"), len(data), v.record or 0, v.digest, v.kind)


def lines(stdin: TextIO, limit: int = protocol.MAX_MESSAGE) -> Iterator[str | None]:
    """The input's lines, each read at most ``limit`` characters at a time: a longer line is None, the rest of it
    read and dropped a chunk at a time (its end found, or the input's), so no line holds more memory than the
    limit. Rule: PROTO-15."""
    while line := stdin.readline(limit + 1):
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        while (rest := stdin.readline(limit + 1)) and not rest.endswith("\n"):
            pass
        yield None


def run(stdin: TextIO, stdout: TextIO) -> int:
    """Answer every line of ``stdin`` on ``stdout`` until its end or ``quit``. Rule: PROTO-15."""
    engine = Engine()
    too_long = ProtocolError("bad_message", f"a line is at most {protocol.MAX_MESSAGE:,} characters (its newline not "
                             "counted): this one was not read", rule="PROTO-15")  # fmt: skip
    for number, line in enumerate(lines(stdin), 1):
        try:
            answers, go_on = engine.handle(line) if line is not None else ([protocol.error(too_long)], True)
        except Exception as err:  # a bug: still an answer, and the program goes on
            answers, go_on = [protocol.error(ProtocolError("internal", f"{type(err).__name__}: {err}"))], True
        for a in [*answers, protocol.done(number)]:
            stdout.write(protocol.encode(a) + "\n")
        stdout.flush()
        if not go_on:
            break
    return 0
