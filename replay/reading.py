"""What the two readings of a log share: the handlers of the records a full log and a seat's view hold alike.

A full log is read strictly (``replay.replayer.Strict``: the engine re-applies every action) and a per-seat view
in public mode (``replay.public.Public``: the rules as far as the seat can see). They differ in what they can see
(the deck and every hand, or one seat's cards), not in what the records around the play mean: the draw's rounds
before the first hand (MATCH-2, MATCH-3, MATCH-7, LOG-13), a fair hand's commitment, seeds and reveal (LOG-20,
LOG-21, DEAL-9, DEAL-10), the checkpoint that seals a hand (LOG-6, LOG-10) and the trailer. ``Reading`` holds
those handlers once; each reading says where it differs through four small hooks: whether the game has started,
whether the game is over (another hand may not start), whether a hand's salt is still to be revealed, and
what it keeps of a record it has taken.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from engine import draw
from engine.cards import Card
from engine.errors import InvalidDeal
from engine.rules import RuleSet
from replay.fair import FairCheck, FairError
from replay.grammar import At, Kind, Row
from replay.log import Entry, LogError

#: A record's handler: takes the record (the grammar accepted it at the row's state) and returns the next state.
Handler = Callable[[Row, Entry], At]


class Reading(ABC):
    """The handlers a full log's reading and a view's share (see the module). A reading sets ``rules``,
    ``fair`` and ``cuts`` and gives the hooks; ``error`` is the error it raises, ``noun`` what it reads."""

    error: type[LogError] = LogError
    noun = "log"
    rules: RuleSet
    fair: FairCheck
    cuts: list[Entry]  #: the draw's rounds before the first hand (at most 52 cards: MATCH-7)

    # --- where the readings differ -----------------------------------------------------------------------

    @property
    @abstractmethod
    def started(self) -> bool:
        """Whether the first hand has begun."""

    @abstractmethod
    def check_going_on(self, entry: Entry) -> None:
        """Refuse ``entry`` if the game is over: its end comes next, not another hand."""

    @abstractmethod
    def salt_pending(self) -> bool:
        """Whether the hand that just ended has a commitment whose salt is not yet revealed (LOG-10)."""

    def keep(self, entry: Entry) -> None:  # noqa: B027 -- a hook with a default: a view keeps nothing
        """Keep a record taken here (a strict reading keeps each for its states; a view keeps none)."""

    # --- the shared handlers ------------------------------------------------------------------------------

    def shared_handlers(self) -> dict[Kind, Handler]:
        """The handlers of the records both readings take alike."""
        return {
            Kind.CUT: self.take_cut,
            Kind.FAIR_COMMIT: self.take_fair_record,
            Kind.SEEDS: self.take_fair_record,
            Kind.SEAT_COMMITS: self.take_fair_record,
            Kind.STATEMENT: self.take_fair_record,
            Kind.FAIR_REVEAL: self.take_fair_reveal,
            Kind.CHECKPOINT: self.take_checkpoint,
            Kind.TRAILER: self.take_trailer,
        }

    def check_fair(self, entry: Entry, check: Callable[[], None]) -> None:
        """Run a fair-deal check (``replay.fair``) of ``entry``; its refusal names the record."""
        try:
            check()
        except FairError as err:
            raise self.error(err.rule, entry.index, err.reason) from None

    def take_cut(self, row: Row, entry: Entry) -> At:
        """A round of the draw, judged as it comes (LOG-13: the record where the draw goes wrong is named)."""
        if self.started:  # a fair hand's seeds lead to its hand record (LOG-20): the draw is long over
            raise self.error("LOG-4", entry.index, f"a cut record where the {self.noun} has the next hand next")
        self.check_fair(entry, lambda: self.fair.cut(entry.record[2]))  # a fair log's draw comes from its seeds
        self.cuts.append(entry)
        self.keep(entry)
        self.draw_due(entry)
        return row.next[0]

    def take_fair_record(self, row: Row, entry: Entry) -> At:
        """A fair hand's server commitment, its seats' commitments or its seeds (LOG-20, LOG-21, LOG-25): public, so
        a view shows them."""
        self.check_going_on(entry)
        if row.kind is Kind.FAIR_COMMIT:
            self.check_fair(entry, lambda: self.fair.commit(entry.record, self.started, len(self.cuts)))
        elif row.kind is Kind.SEAT_COMMITS:
            self.check_fair(entry, lambda: self.fair.take_commitments(entry.record))
        elif row.kind is Kind.STATEMENT:
            self.check_fair(entry, lambda: self.fair.take_statement(entry.record))
        else:
            self.check_fair(entry, lambda: self.fair.take_seeds(entry.record))
        self.keep(entry)
        return row.next[0]

    def take_fair_reveal(self, row: Row, entry: Entry) -> At:
        """The server's seed after the hand's result: every deal, and every card a view was shown, must follow
        from the seeds (DEAL-9, DEAL-10, LOG-22)."""
        self.check_fair(entry, lambda: self.fair.reveal(entry.record, self.fair.number == 1))
        self.keep(entry)
        return At.REVEALED

    def draw_due(self, entry: Entry) -> tuple[int, ...] | None:
        """The seats still to draw after the rounds read so far (None: the draw is decided), judged as the
        engine judges the draw (``engine.draw``); a round that breaks the draw's rules is refused at ``entry``.
        Rules: MATCH-2, MATCH-3, MATCH-7."""
        rounds = [(c.record[1], tuple(Card.from_index(b) for b in c.record[2])) for c in self.cuts]
        try:
            return draw.due(self.rules, rounds)
        except InvalidDeal as err:
            raise self.error(err.rule, entry.index, err.reason) from None

    def check_drawn(self, entry: Entry) -> None:
        """Before the first hand (its commitment or its hand record, ``entry``) the draw must be decided (LOG-13)."""
        if not self.started:
            seats = self.draw_due(entry)
            if seats is not None:
                rule = "MATCH-3" if self.cuts else "MATCH-2"
                raise self.error(rule, entry.index, f"{', '.join(f'p{s}' for s in seats)} must draw (again) "
                                 "before the first hand")  # fmt: skip

    def take_checkpoint(self, row: Row, entry: Entry) -> At:
        """The checkpoint after a hand's result (the reader checked its digest, LOG-6): the hand's salt revealed
        first (LOG-10), a fair hand's seeds too (LOG-22)."""
        if self.salt_pending():
            raise self.error("LOG-10", entry.index, "the hand ends without revealing its salt")
        self.check_fair(entry, self.fair.sealed)
        self.keep(entry)
        return At.ROTATE

    def take_trailer(self, row: Row, entry: Entry) -> At:
        self.keep(entry)
        return At.END
