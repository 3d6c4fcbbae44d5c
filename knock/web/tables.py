"""A table: one game, its seats, its log as it is written, and what each seat is sent. Rules: PROTO-2, PROTO-5,
PROTO-7, PROTO-8, PROTO-10, PROTO-14.

A ``ServerTable`` knows nothing of sockets, processes or databases: ``knock serve`` (``knock.web.app``, through
``knock.web.hub``) and ``knock engine`` (``knock.web.engine_io``) both drive it. ``act`` is the one way an action
reaches the game: it checks the record number the action expects, reads the action in the seat's name, applies it
through the engine's one validation path and returns the log's new bytes for the caller to store before it
acknowledges. ``advance`` then shows every seat (and the spectators) what happened, through each one's ``SeatLens``,
and ``frames`` writes a seat's messages: its view, the results of hands that ended, the game's result."""

from __future__ import annotations

import hashlib
import io
import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from engine.actions import Advise, parse_match_action
from engine.errors import InvalidRules, KnockError, NotationError, RuleViolation
from engine.events import CutDrawn, GameOver, HandEnded, HandStarted
from engine.fairdeal import FairSeeds
from engine.fsm import ExecutorName
from engine.kernel import NOT_AN_ACTION
from engine.match import Match
from engine.rules import RuleSet
from engine.visibility import SeatLens, Seen, advice_shown, blind_advice, observe_spectator
from knock.bots import HeuristicBot, RandomBot, make_bot
from knock.web import protocol, views
from knock.web.fairtable import SEED_TIMEOUT, SEED_TIMEOUT_RANGE, TableChance, fair_info, fair_reveal
from knock.web.protocol import Message, SeatSpec
from replay.log import LogWriter
from replay.narration import Voice
from replay.signing import SigningKey

#: A recipient of frames: a seat, or None for the spectators.
Key: TypeAlias = int | None


class SpecError(KnockError, ValueError):
    """A table that cannot be made as asked: ``rule`` is the rule it breaks (RULES-1, RULES-2, PROTO-2)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}", rule=rule)
        self.message = message


@dataclass(frozen=True, slots=True)
class TableSpec:
    """How a table was asked for, all of it needed to rebuild it: rules, seats, seed and timings. Rule: PROTO-2."""

    preset: str
    options: Mapping[str, Any]
    seats: tuple[SeatSpec, ...]
    seed: int
    turn_timeout: float | None = None
    bot_delay: float = 0.0
    commitments: bool = False
    executor: ExecutorName = "library"
    #: For a table made by a rematch (PROTO-31): the table before it, the games of the series over before this
    #: one and each seat's points summed over them. Kept with the spec in the store: it survives restarts.
    series: Mapping[str, Any] | None = None
    #: Fair dealing (PROTO-35): every deck from the server's committed seed and every seat's, and the seconds a
    #: seat has to send its seed before the server supplies it (PROTO-37).
    fair: bool = False
    seed_timeout: float = SEED_TIMEOUT
    rules: RuleSet = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", rules_of(self.preset, self.options))

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset, "options": dict(self.options),
            "seats": [{"player": s.player, "name": s.name, "bot": s.bot} for s in self.seats], "seed": self.seed,
            "turn_timeout": self.turn_timeout, "bot_delay": self.bot_delay, "commitments": self.commitments,
            "executor": self.executor, **({"series": dict(self.series)} if self.series is not None else {}),
            **({"fair": True, "seed_timeout": self.seed_timeout} if self.fair else {}),
        }  # fmt: skip

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TableSpec:
        seats = tuple(SeatSpec(s["player"], s["name"], s.get("bot")) for s in data["seats"])
        return TableSpec(
            data["preset"], data["options"], seats, data["seed"], data.get("turn_timeout"),
            data.get("bot_delay", 0.0), data.get("commitments", False), data.get("executor", "library"),
            data.get("series"), data.get("fair", False), data.get("seed_timeout", SEED_TIMEOUT),
        )  # fmt: skip

    def rematch(self, previous: str, totals: Sequence[int]) -> TableSpec:
        """The spec of the next game of this table's series (PROTO-29): the same but the seed (the next one,
        derived, so that a seeded series is reproducible) and the series, ``totals`` the running totals."""
        games = (self.series["games"] if self.series is not None else 0) + 1
        series = {"previous": previous, "games": games, "totals": list(totals)}
        digest = hashlib.sha256(f"knock-rematch:{self.seed}:{games}".encode()).digest()
        return replace(self, seed=int.from_bytes(digest[:8], "big") >> 1, series=series)

    def human(self, seat: int) -> bool:
        return self.seats[seat].player == "human"


def rules_of(preset: str, options: Mapping[str, Any]) -> RuleSet:
    """The rule set of a preset with options, as a log header spells them. Rules: RULES-1, RULES-2, RULES-3.

    Raises:
        SpecError: an unknown preset or option, a value out of range, a reduced deck.
    """
    try:
        rules = RuleSet.preset(preset, **dict(options))
    except InvalidRules as err:
        raise SpecError(err.rule, err.reason) from None
    except TypeError as err:
        raise SpecError("RULES-2", str(err)) from None
    if rules.reduced:
        raise SpecError("RULES-3", "a reduced deck is for analysing single hands; a table plays the standard deck")
    return rules


def table_spec(data: object, *, bot_delay: float = 0.5, commitments: bool = True, fair: bool = False) -> TableSpec:
    """A table from a request (``POST /api/tables``'s body), every field checked; ``fair`` the server's default
    (``knock serve --fair``). Rules: PROTO-2, PROTO-25, PROTO-35.

    Raises:
        SpecError: naming the rule the request breaks.
    """
    if type(data) is not dict:
        raise SpecError("PROTO-2", "a table is asked for with a JSON object")

    def bad(name: str, what: str) -> SpecError:
        return SpecError("PROTO-2", f"{name!r} must be {what}")

    preset = data.get("preset", "standard")
    options = data.get("options", {})
    if type(preset) is not str or type(options) is not dict:
        raise bad("preset", "a preset name, and 'options' an object of rule-set options")
    seed = data.get("seed")
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int or not 0 <= seed < 2**63:
        raise bad("seed", "a number 0 .. 2**63 - 1")
    rules = rules_of(preset, options)
    seats = protocol.seat_specs(data.get("seats"), bad)
    if len(seats) != rules.players:
        raise SpecError("PROTO-2", f"{rules.name} is played by {rules.players}: give one seat each")
    timeout = _seconds(data.get("turn_timeout"), 1.0, 86_400.0, bad, "turn_timeout")
    delay = _seconds(data.get("bot_delay", bot_delay), 0.0, 10.0, bad, "bot_delay")
    dealt_fair = data.get("fair", fair)
    if type(dealt_fair) is not bool:
        raise SpecError("PROTO-35", "'fair' must be true or false")
    commit = data.get("commitments", commitments and not dealt_fair)
    if type(commit) is not bool:
        raise bad("commitments", "true or false")
    if commit and dealt_fair:
        raise SpecError("PROTO-35", "a fair table commits to each hand's server seed: it takes no 'commitments'")
    low, high = SEED_TIMEOUT_RANGE
    seeding = data.get("seed_timeout", SEED_TIMEOUT)
    if not isinstance(seeding, int | float) or isinstance(seeding, bool) or not low <= seeding <= high:
        raise SpecError("PROTO-35", f"'seed_timeout' must be a number of seconds, {low:g} .. {high:g}")
    executor = data.get("executor", "library")
    if executor not in ("library", "compiled"):
        raise bad("executor", "'library' or 'compiled'")
    return TableSpec(preset, options, seats, seed, timeout, delay or 0.0, commit, executor, None, dealt_fair,
                     float(seeding))  # fmt: skip


def _seconds(value: object, low: float, high: float, bad: Any, name: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise bad(name, f"null or a number of seconds, {low:g} .. {high:g}")
    if not low <= value <= high:
        raise bad(name, f"null or a number of seconds, {low:g} .. {high:g}")
    return float(value)


@dataclass(frozen=True, slots=True)
class Applied:
    """An action applied: who, its text (canonical), and the record numbers before and after (PROTO-7)."""

    seat: int
    action: str
    record: int
    after: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What ``act`` did: the reply for the actor, and, when applied, the log bytes to store before sending it."""

    reply: Message
    applied: Applied | None = None
    chunk: bytes = b""


class Sink(io.BytesIO):
    """A table's log stream: it keeps the bytes written since they were last taken (for the store)."""

    def take(self) -> bytes:
        data = self.getvalue()
        self.seek(0)
        self.truncate()
        return data


def players_of(spec: TableSpec) -> list[str]:
    return [s.name for s in spec.seats]


def meta_of(table: str, spec: TableSpec) -> dict[str, Any]:
    """The log's free metadata (LOG-1): the seed (a view never carries it, LOG-11) and where the game was played."""
    return {"seed": spec.seed, "tool": "knock serve", "table": table}


def commit_key_of(secret: bytes | None, spec: TableSpec) -> bytes | None:
    return secret if spec.commitments and not spec.fair else None


class Lens:
    """What one recipient (a seat, or the spectators) has seen of the game: its ``SeatLens``, the current hand's
    events as it saw them, and those not yet sent."""

    def __init__(self, rules: RuleSet, key: Key) -> None:
        self.lens = SeatLens(rules, key)
        self.voice = Voice(seats=rules.players)  #: how its events are told (seats by number, cards with symbols)
        self.hand = 0
        self.seen: list[Seen] = []  #: the current hand's events as seen (the draw's before the first hand)
        self.fresh: list[Message] = []  #: events not sent yet, as messages
        self.results: list[Message] = []  #: hand and game results not sent yet


class ServerTable:
    """One game at one table (see the module's docstring)."""

    def __init__(
        self, table: str, spec: TableSpec, match: Match, writer: LogWriter, sink: Sink, fair: TableChance | None = None
    ) -> None:
        self.id = table
        self.spec = spec
        self.fair = fair  #: a fair table's chance: each hand's seeds (PROTO-35)
        self.match = match
        self.writer = writer
        self.sink = sink
        self.applied: dict[int, Applied] = {}  #: by the record number each action expected (PROTO-7)
        self.lenses: dict[Key, Lens] = {k: Lens(spec.rules, k) for k in (*self.humans, None)}
        self._fed = 0
        self._pub: tuple[int, views.Public] | None = None
        #: The game's draw for the deal, public: each round's seats and cards, in every view (1.4, PROTO-39)
        self.draw: list[Message] = []
        self.advance()
        for lens in self.lenses.values():  # a fresh connection is sent the whole hand; nothing is pending
            lens.fresh.clear()

    @classmethod
    def new(
        cls,
        table: str,
        spec: TableSpec,
        secret: bytes | None = None,
        key: SigningKey | None = None,
        seeds: FairSeeds | None = None,
    ) -> tuple[ServerTable, bytes]:
        """A table's game dealt from its seed, and the log's first bytes (header, draw, first deal) to store;
        with ``key``, the log is signed (LOG-17). A fair table's (``spec.fair``) is dealt from the first hand's
        ``seeds``, its server seeds from ``secret`` (PROTO-35, PROTO-40)."""
        sink = Sink()
        chance = None
        if spec.fair:
            assert secret is not None and seeds is not None and seeds.number == 1
            chance = TableChance(spec.rules.players, secret)
            chance.settle(seeds)
            match = Match(spec.rules, chance, executor=spec.executor)
        else:
            match = Match.new(spec.rules, seed=spec.seed, executor=spec.executor)
        writer = LogWriter(sink, match, players=players_of(spec), meta=meta_of(table, spec),
                           commit_key=commit_key_of(secret, spec), key=key, fair=chance)  # fmt: skip
        return cls(table, spec, match, writer, sink, chance), sink.take()

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.spec.seats)) if self.spec.human(i))

    @property
    def record(self) -> int:
        """The game's record number: the records in its log after the header (PROTO-7)."""
        return self.writer.records

    @property
    def over(self) -> bool:
        return self.match.is_over

    @property
    def awaiting_seeds(self) -> int | None:
        """At a fair table between hands: the number of the hand whose seeds the deal waits for. Rule: PROTO-36."""
        m = self.match
        return m.number + 1 if self.fair is not None and not m.is_over and m.awaiting_deck else None

    def deal(self, seeds: FairSeeds) -> bytes:
        """Deal the hand ``seeds`` are for (the one awaited), and return the log's new bytes to store. Rule:
        PROTO-37."""
        assert self.fair is not None and self.awaiting_seeds == seeds.number
        self.fair.settle(seeds)
        deck = self.fair.deck()
        assert deck is not None
        self.match.add_deck(deck)
        self.writer.sync()
        return self.sink.take()

    def fair_view(self) -> Message | None:
        """A view's ``fair``: the current hand's seeds, and its server seed once the hand has its result. Rule:
        PROTO-39."""
        m = self.match
        if self.fair is None:
            return None
        seeds = self.fair.hands.get(m.number)
        assert seeds is not None
        return fair_info(seeds, m.hand is not None and m.hand.result is not None)

    # --- acting ------------------------------------------------------------------------------------

    def act(self, seat: int, text: str, record: int) -> Outcome:
        """Apply ``text`` as ``seat``'s action if the game is at ``record``. Rules: PROTO-7, PROTO-8.

        The checks run in PROTO-22's order: the game is not over (MATCH-1); the record number (a resend of an
        action already applied at ``record`` is acknowledged again, ``duplicate``, and not applied; any other
        record number is stale, PROTO-7); the text is an action (spec/notation.md); it is the seat's own
        (PROTO-3); a blind sitter's advice names no card (THREE-8); then the engine's rules.
        """
        if self.over:
            return Outcome(protocol.refusal(seat, text, "MATCH-1", "the game is over", self.record))
        if record != self.record:
            done = self.applied.get(record)
            if done is not None and done.seat == seat and _same(text, seat, done.action):
                return Outcome(protocol.ack(seat, done.action, done.record, done.after, duplicate=True))
            reason = f"the action expects record {record}, the game is at record {self.record} (act on the newest view)"
            return Outcome(protocol.refusal(seat, text, "PROTO-7", reason, self.record))
        try:
            action = parse_match_action(text, seat)
        except NotationError as err:
            rule = err.rule if err.rule[:1].isalpha() and "-" in err.rule else NOT_AN_ACTION
            return Outcome(protocol.refusal(seat, text, rule, str(err).split(": ", 1)[-1], self.record))
        except RuleViolation as err:  # cards written as a meld that make none (MELD-1, MELD-2)
            return Outcome(protocol.refusal(seat, text, err.rule, err.reason, self.record))
        if action.seat != seat:
            reason = f"a seat acts only for itself: p{seat} cannot act as p{action.seat}"
            return Outcome(protocol.refusal(seat, text, "PROTO-3", reason, self.record))
        if isinstance(action, Advise) and blind_advice(self.match, action):
            reason = "the sitter does not see the captain's cards and may advise only actions that name none"
            return Outcome(protocol.refusal(seat, text, "THREE-8", reason, self.record))
        try:
            self.match.apply(action)
        except RuleViolation as err:  # an illegal action, or cards that are no meld
            return Outcome(protocol.refusal(seat, text, err.rule, err.reason, self.record))
        self.writer.sync()
        done = Applied(seat, str(action), record, self.record)
        self.applied[record] = done
        return Outcome(protocol.ack(seat, done.action, record, done.after), done, self.sink.take())

    def bot_action(self, seat: int, *, stand_in: bool = False) -> str:
        """The action the seat's bot (or, ``stand_in``, the heuristic bot standing in for a person whose turn
        timed out) chooses now, from the seat's own observation alone. Rules: VIS-2, PROTO-12, PROTO-14."""
        hand = self.match.hand
        assert hand is not None and self.match.to_act == seat
        name = "heuristic" if stand_in else self.spec.seats[seat].bot or "heuristic"
        bot = RandomBot(bot_seed(self.spec.seed, seat, self.record)) if name == "random" else make_bot(name)
        if stand_in:
            bot = HeuristicBot()
        return str(bot.choose(self.match.seat_observation(seat), self.match.legal_actions()))

    def bot_to_move(self) -> int | None:
        """The bot seat to act now, if any."""
        seat = self.match.to_act
        return seat if seat is not None and not self.spec.human(seat) else None

    def legal(self, key: Key) -> list[str]:
        """What ``key`` may do now, as text: the seat to act's legal actions, the sitter's advice, in the engine's
        order (PROTO-26). Rules: PROTO-5, PROTO-26."""
        m = self.match
        if key is None or m.to_act is None:
            return []
        if key == m.to_act:
            return [str(a) for a in m.legal_actions()]
        return [str(a) for a in advice_shown(m, key)]

    # --- what each recipient is sent ---------------------------------------------------------------

    def advance(self) -> None:
        """Show every recipient the events since the last call, through its lens. Rule: PROTO-5."""
        events = self.match.events
        new = events[self._fed :]
        self._fed = len(events)
        self.draw += [
            {"seats": list(e.seats), "cards": [str(c) for c in e.cards]} for e in new if isinstance(e, CutDrawn)
        ]
        for lens in self.lenses.values():
            for e in new:
                seen = lens.lens.see(e)
                if isinstance(e, HandStarted):
                    lens.hand = e.number
                    lens.seen = []
                lens.seen.append(seen)
                lens.fresh.append(views.event(lens.hand, seen, lens.voice))
                if isinstance(e, HandEnded):
                    done = views.hand_result(lens.seen, e.number)
                    if done is not None:
                        lens.results.append(done)
                    if self.fair is not None:  # the server's seed, once the hand has its result (PROTO-39)
                        lens.results.append(fair_reveal(self.fair.seeds(e.number)))
                elif isinstance(e, GameOver):
                    lens.results.append(self.game_result())

    def view(self, key: Key, events: Sequence[Message], turn_left: float | None = None) -> Message:
        """``key``'s view now, with ``events`` and the seconds left of the turn by the hub's timer (``turn_left``).
        Rules: PROTO-5, PROTO-6, PROTO-33, PROTO-34."""
        m = self.match
        lens = self.lenses[key]
        pub = self._public()
        if key is None:
            body = views.spectator_view(observe_spectator(m), pub, lens.seen)
        else:
            body = views.seat_view(m.observation(key), pub, lens.seen)
        legal = self.legal(key)
        ranked = views.defences(legal, body["cards"], key) if body["role"] != "sitter" else []
        seen = views.discards(lens.seen)
        return protocol.view(self.id, key, self.record, body, legal, events, ranked, turn_left, seen, self.fair_view(),
                             self.draw)  # fmt: skip

    def _public(self) -> views.Public:
        """What every view shares (the roles, the sheet), made once per change of the game."""
        m = self.match
        if self._pub is None or self._pub[0] != len(m.events):
            self._pub = (len(m.events), views.Public(m.rules, m.roles(), _numbered(m), m.standings(), m.is_over))
        return self._pub[1]

    def frames(self, key: Key, turn_left: float | None = None) -> list[Message]:
        """What ``key`` is sent after a change: the results of hands (and the game) that ended, then its view
        with the events since its last. Rule: PROTO-10."""
        lens = self.lenses[key]
        out = [addressed(r, key) for r in lens.results]
        out.append(self.view(key, lens.fresh, turn_left))
        lens.results, lens.fresh = [], []
        return out

    def full_view(self, key: Key, turn_left: float | None = None) -> Message:
        """``key``'s view with the whole current hand's events: for a connection that has just (re)joined."""
        lens = self.lenses[key]
        return self.view(key, [views.event(lens.hand, s, lens.voice) for s in lens.seen], turn_left)

    def game_result(self, key: Key = None) -> Message:
        """The ``game_result`` message for ``key`` (a seat, None for the spectators). Rule: PROTO-10."""
        m = self.match
        st = m.standings()
        assert st.winner is not None
        sheet = views.sheet(list(_numbered(m)), st)
        return {"type": "game_result", "seat": key, "winner": st.winner, "totals": list(st.totals),
                "hands": m.number, "sheet": sheet}  # fmt: skip

    def summary(self) -> Message:
        """What anyone may know of the table (``GET /api/tables``): rules, seats, progress. Rule: PROTO-2."""
        m = self.match
        return {
            "table": self.id, "preset": self.spec.preset, "rules": m.rules.to_dict(),
            "seats": protocol.seat_info(self.spec.seats), "hand": m.number, "scores": list(m.scores),
            "over": m.is_over, "winner": m.winner, "record": self.record, "turn_timeout": self.spec.turn_timeout,
        }  # fmt: skip


def addressed(message: Message, key: Key) -> Message:
    """A result message with the seat it is sent to (None: a spectator) after its type (PROTO-10)."""
    return {"type": message["type"], "seat": key, **{k: v for k, v in message.items() if k not in ("type", "seat")}}


def _numbered(m: Match) -> list[tuple[int, Any]]:
    """Each recorded hand result with its hand's number (every deal counts)."""
    numbers = [e.number for e in m.events if isinstance(e, HandEnded)]
    return list(zip(numbers, m.results, strict=True))


def _same(text: str, seat: int, applied: str) -> bool:
    """Whether ``text`` is, in ``seat``'s name, the action applied (its canonical text)."""
    try:
        action = parse_match_action(text, seat)
    except NotationError:
        return False
    return str(action) == applied and (not isinstance(action, Advise) or action.seat == seat)


def bot_seed(seed: int, seat: int, record: int) -> int:
    """The random bot's seed for one choice: from the table's seed, the seat and the record number alone, so a
    game rebuilt after a restart goes on as it would have (PROTO-14). SHA-256: the same in every process."""
    digest = hashlib.sha256(f"knock-bot:{seed}:{seat}:{record}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256 (PROTO-3)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat's token: 256 random bits (PROTO-3)."""
    return secrets.token_urlsafe(32)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)
