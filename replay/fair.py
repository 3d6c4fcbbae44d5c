"""A fair log's own records (LOG-20 .. LOG-22): each hand's server commitment and seats' seeds before it, the
server's seed after its result, and every deal recomputed from them (DEAL-5 .. DEAL-10).

One checker serves the full replay (``replay.replayer``) and a view's (``replay.public``): seeds and commitments
are public, so a view holds them as the full log does, and its reader checks every card it was shown against
the deck the seeds give. It holds only the current hand's seeds, its deck as far as the records show it and,
for the first hand, the draw's cards (LOG-15).
"""

from __future__ import annotations

from typing import Any

from engine import fairdeal
from engine.errors import InvalidDeal
from replay.codec import UNKNOWN
from replay.ed25519_verify import is_public_key, verify


def statement_verifies(key: bytes, set_digest: bytes, seat: int, seed: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``seat``'s statement, by ``key``, that it revealed ``seed`` for the set whose hash is
    ``set_digest``: a key and a signature as LOG-17 and LOG-18 take them, verifying DEAL-12's message. The one
    judge of a statement, for the server that takes it and the reader that reads it. Rule: DEAL-12."""
    return (len(key) == 32 and len(signature) == 64 and is_public_key(key)
            and verify(key, fairdeal.statement_message(set_digest, seat, seed), signature))  # fmt: skip


class FairError(Exception):
    """A fair record refused: the rule and the reason (the reader adds the record's number)."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


class FairCheck:
    """The current hand's fair records as a reader meets them, for a log whose header is ``fair`` (or not).
    Each method raises ``FairError`` for the record it is given."""

    def __init__(self, fair: bool, players: int, version: tuple[int, int] = (2, 0)) -> None:
        self.fair = fair
        self.players = players
        self.ordered = version[0] >= 3  # the seats commit before the seeds (LOG-25): version 3.0 on
        self.committed: bytes | None = None  # the pending commitment, until its reveal
        self.commitments: tuple[bytes, ...] | None = None  # the hand's seats' commitments (DEAL-11)
        #: whether the log's hands hold their seats' commitments (LOG-25): all or none, as the first hand decides
        self.hands_ordered: bool | None = None
        #: the seat of the hand's last statement read (-1: none yet); None once the hand's draw or hand began
        self.last_signed: int | None = -1
        self.revealed_by: dict[int, int] = {}  # seat -> the seeds it sent (not supplied), over the log
        self.signed_by: dict[int, int] = {}  # seat -> its statements that verified, over the log (LOG-26)
        self.seeds: tuple[bytes, ...] | None = None
        self.supplied: tuple[int, ...] = ()
        self.number = 0  # the hand the seeds are for
        self.dealt: bytes | None = None  # the deal's codes (255 for a card a view does not show)
        self.drawn: list[int] = []  # the first hand's draw rounds' cards, in order
        self.seen: dict[int, int] = {}  # a view's stock draws: deck position -> the card shown
        # a view's other seats: the deck positions each was dealt or drew from, the cards it took from the pile,
        # and the cards it showed in melds and layoffs (DEAL-10: they must be among the first two)
        self.places: dict[int, set[int]] = {}
        self.took: dict[int, set[int]] = {}
        self.showed: dict[int, set[int]] = {}
        self.revealed = False

    def _declared(self, what: str) -> None:
        if not self.fair:
            raise FairError("LOG-20", f"{what} in a log whose header does not declare fair dealing")

    def commit(self, record: Any, started: bool, cuts: int) -> None:
        """A hand's server commitment: after the previous hand's reveal, and before the draw of the first hand."""
        self._declared("a server commitment")
        if self.committed is not None:
            raise FairError("LOG-20", "a second commitment before the hand's seed is revealed")
        if not started and cuts:
            raise FairError("LOG-20", "the first hand's commitment and seeds come before the draw")
        self.committed = record[1]
        self.seeds, self.dealt, self.revealed, self.seen, self.commitments = None, None, False, {}, None
        self.places, self.took, self.showed = {}, {}, {}

    def take_commitments(self, record: Any) -> None:
        """The seats' commitments (one a seat of the game, in seat order), before the seeds: in a log of version
        3.0 only (LOG-25)."""
        self._declared("seats' commitments")
        if not self.ordered:
            raise FairError("LOG-25", "seats' commitments in a log of version 2.0: they came with version 3.0")
        if self.hands_ordered is False:
            raise FairError("LOG-25", "seats' commitments for a hand after a hand without them: all hands or none")
        commitments = record[1]
        if len(commitments) != self.players or any(len(c) != fairdeal.SEED_SIZE for c in commitments):
            raise FairError("DEAL-5", f"a fair hand takes one {fairdeal.SEED_SIZE}-byte commitment from each of the "
                            f"{self.players} seats")  # fmt: skip
        self.commitments = tuple(commitments)

    def take_seeds(self, record: Any) -> None:
        """The seats' seeds (one a seat of the game, in seat order) and the seats whose seed the server supplied;
        in a log of version 3.0, each matching its seat's commitment (LOG-25, DEAL-11)."""
        self._declared("seats' seeds")
        if self.hands_ordered and self.commitments is None:
            raise FairError("LOG-25", "seeds without the seats' commitments, after a hand with them: all hands or none")
        self.hands_ordered = self.commitments is not None
        self.last_signed = -1
        seeds, supplied = record[1], record[2]
        if len(seeds) != self.players:
            raise FairError("DEAL-5", f"a fair deal takes one seed from each of the {self.players} seats, not "
                            f"{len(seeds)}")  # fmt: skip
        short = next((i for i, seed in enumerate(seeds) if len(seed) != fairdeal.SEED_SIZE), None)
        if short is not None:
            raise FairError("DEAL-5", f"p{short}'s seed is {len(seeds[short])} bytes, not {fairdeal.SEED_SIZE}")
        if list(supplied) != sorted(set(supplied)) or any(s >= self.players for s in supplied):
            raise FairError("LOG-21", "the seats whose seed the server supplied are listed once each, in seat order")
        if self.commitments is not None:
            assert self.committed is not None
            try:
                fairdeal.check_commitments(self.committed, self.number + 1, seeds, self.commitments)
            except InvalidDeal as err:
                raise FairError(err.rule, err.reason) from None
        self.seeds, self.supplied = tuple(seeds), tuple(supplied)
        for seat in range(self.players):
            if seat not in self.supplied:
                self.revealed_by[seat] = self.revealed_by.get(seat, 0) + 1

    def take_statement(self, record: Any) -> None:
        """A seat's signed statement of what it saw (LOG-26, DEAL-12): right after its hand's seeds, in seat order,
        of a seat that revealed its own seed, in a hand whose seats committed first; its signature verified."""
        self._declared("a seat's statement")
        seat, key, signature = record[1], record[2], record[3]
        if self.commitments is None or self.seeds is None or self.committed is None or self.last_signed is None:
            raise FairError("LOG-26", "a statement comes right after the seeds of a hand whose seats committed first")
        if seat >= self.players or seat in self.supplied or seat <= self.last_signed:
            raise FairError("LOG-26", f"a statement of p{seat}: a seat of the game that sent its own seed, after the "
                            "seats before it")  # fmt: skip
        digest = fairdeal.set_hash(self.number + 1, self.committed, self.commitments)
        if not statement_verifies(key, digest, seat, self.seeds[seat], signature):
            raise FairError("DEAL-12", f"p{seat}'s statement does not verify with the key it names")
        self.last_signed = seat
        self.signed_by[seat] = self.signed_by.get(seat, 0) + 1

    @property
    def seats_signed(self) -> tuple[int, ...]:
        """The seats that signed every seed of their own the log holds (LOG-26)."""
        return tuple(s for s, n in sorted(self.revealed_by.items()) if self.signed_by.get(s, 0) == n)

    def cut(self, cards: bytes) -> None:
        """A round of the draw: in a fair log only after the first hand's commitment and seeds (its cards follow
        from them, DEAL-8), so a log that begins with one is refused there, not left unfinished."""
        if self.fair and self.seeds is None:
            raise FairError("LOG-20", "a round of the draw before the first hand's server commitment and seeds")
        self.last_signed = None
        self.drawn.extend(cards)

    def hand(self, number: int) -> None:
        """A hand record: in a fair log its commitment and seeds came before it."""
        if self.fair and (self.committed is None or self.seeds is None):
            raise FairError("LOG-20", "a hand without its server commitment and seats' seeds")
        self.last_signed = None
        self.number = number

    def deal(self, codes: Any) -> None:
        self.dealt = codes if type(codes) is bytes else None

    def dealt_to(self, dealer: int, seats: tuple[int, ...], viewer: int | None) -> None:
        """A view's deal: the deck positions of the seats other than the viewer's (DEAL-3: the non-dealer's the
        even ones from 0, the dealer's the odd ones)."""
        if self.fair:
            self.places = {s: set(range(1 if s == dealer else 0, 20, 2)) for s in seats if s != viewer}
            self.took, self.showed = {s: set() for s in self.places}, {s: set() for s in self.places}

    def other_draw(self, seat: int, position: int) -> None:
        """Another seat's stock draw, its card unseen: the card at deck ``position``."""
        if seat in self.places and 0 <= position < 52:
            self.places[seat].add(position)

    def other_took(self, seat: int, card: int) -> None:
        if seat in self.took:
            self.took[seat].add(card)

    def other_showed(self, seat: int, cards: Any) -> None:
        """Cards another seat showed in its melds or laid off, at the showdown."""
        if seat in self.showed:
            self.showed[seat].update(c.index for c in cards)

    def stock_draw(self, position: int, card: int) -> None:
        """A view's own stock draw: the card at deck ``position`` (21 onwards) as the seat saw it."""
        if self.fair and 0 <= position < 52:
            self.seen[position] = card

    def reveal(self, record: Any, first: bool) -> None:
        """The server's seed after the hand's result: the commitment, the supplied seeds, then every card shown."""
        self._declared("a server seed revealed")
        if self.committed is None or self.seeds is None:
            raise FairError("LOG-20", "a server seed is revealed only after its hand's result")
        try:
            deck = fairdeal.check(self.seeds, self.supplied, record[1], self.committed, self.number)
        except InvalidDeal as err:
            raise FairError(err.rule, err.reason) from None
        dealt = self.dealt or b""
        wrong = [i for i, c in enumerate(dealt) if c != UNKNOWN and c != deck[i]]
        wrong += [i for i, c in self.seen.items() if c != deck[i]]
        if wrong:
            raise FairError("DEAL-10", f"hand {self.number}'s deck does not follow from its seeds (first at deck "
                            f"position {min(wrong)})")  # fmt: skip
        for seat, cards in self.showed.items():
            held = {deck[i] for i in self.places[seat]} | self.took[seat]
            if not cards <= held:
                raise FairError("DEAL-10", f"p{seat} shows cards the seeds neither dealt it nor let it draw in hand "
                                f"{self.number}")  # fmt: skip
        if first and self.drawn:
            draw = fairdeal.draw_codes(record[1], self.seeds)
            if list(draw[: len(self.drawn)]) != self.drawn:
                raise FairError("DEAL-10", "the draw's cards do not follow from the first hand's seeds")
            self.drawn = []
        self.committed, self.revealed = None, True

    def sealed(self) -> None:
        """The hand's checkpoint: in a fair log the server's seed was revealed before it."""
        if self.fair and self.committed is not None:
            raise FairError("LOG-20", "the hand ends without revealing the server's seed")
