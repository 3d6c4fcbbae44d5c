"""The twin-state check: a seat sees only its own view. Rules: VIS-1, VIS-2, THREE-8.

Two states that differ only in cards a seat may not see must give that seat identical outputs. A twin is
made from a played hand: the cards the seat never saw during the whole of it (``hidden_cards``: every card its
``SeatLens`` view of the events does not name) are swapped in the deck order (``twin_swap``: one card of
another seat's hand for one of the stock when there are such, so that the twins differ where it matters),
and the same moves are played again, a card id mapped by the swap. Since the seat never sees those cards,
its view is the same at every step of the twin, and so must be everything it is given. A replay the rules
refuse (another seat's knock that the swap makes illegal) is no twin and is passed over.

``Twins`` drives any table through an adapter: the environments (``tests.envs``) compare observations, masks,
infos, strings and tensors; the bots can compare their choices the same way.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import HandStarted
from engine.rules import RuleSet
from engine.visibility import SeatLens

CARD_IDS = range(4, 108)  #: the action ids that name a card: discard 4 + i, knock 56 + i (ENV-2)


def named_cards(value: object) -> Iterator[Card]:
    """Every card a value names, however deep (events, melds, layoffs, results)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from named_cards(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type) and not isinstance(value, RuleSet):
        for f in dataclasses.fields(value):
            yield from named_cards(getattr(value, f.name))


def seat_view(rules: RuleSet, events: Iterable[object], seat: int) -> list[object]:
    """The events as ``seat`` saw them (its ``SeatLens``): the oracle of what it may know. ``events`` of a bare
    hand (no ``HandStarted``) are seen as the hand of a two-player game."""
    lens = SeatLens(rules, seat)
    events = list(events)
    if events and not any(isinstance(e, HandStarted) for e in events):
        lens.see(HandStarted(1, getattr(events[0], "dealer", 0), (0, 1), None))
    return [lens.see(e) for e in events]  # type: ignore[arg-type]


def hidden_cards(rules: RuleSet, events: Iterable[object], seat: int, deck: Sequence[Card]) -> list[Card]:
    """The cards of ``deck`` that ``seat`` never saw in ``events`` (its view names them nowhere), in deck order."""
    seen = set(named_cards(seat_view(rules, events, seat)))
    return [c for c in deck if c not in seen]


def twin_swap(hidden: Sequence[Card], held: set[Card], rng: random.Random) -> dict[Card, Card] | None:
    """Two hidden cards to swap (a mapping both ways): one held by another seat and one not, when there are such."""
    inside = [c for c in hidden if c in held]
    outside = [c for c in hidden if c not in held]
    if inside and outside:
        a, b = rng.choice(inside), rng.choice(outside)
    elif len(hidden) >= 2:
        a, b = rng.sample(list(hidden), 2)
    else:
        return None
    return {a: b, b: a}


def swapped_id(action_id: int, swap: dict[Card, Card]) -> int:
    """An action id with its card (if any) swapped."""
    if action_id not in CARD_IDS:
        return action_id
    base = 4 if action_id < 56 else 56
    card = Card.from_index(action_id - base)
    return base + swap.get(card, card).index


class Table(Protocol):
    """What the check needs of a game in play, built from a deck order (see the adapters in the tests)."""

    def seat_to_act(self) -> int | None: ...
    def legal_ids(self) -> Sequence[int]: ...
    def act(self, action_id: int) -> None: ...
    def outputs(self, seat: int) -> tuple[Any, ...]: ...  #: everything the seat is given now, comparable by ==
    def refusals(self, seat: int) -> tuple[str, ...]: ...  #: what each masked-out id of the seat to act answers
    def events(self) -> list[object]: ...
    def held(self, seat: int) -> set[Card]: ...  #: cards that seats other than ``seat`` hold now
    def hint(self) -> int | None: ...  #: the id a bot would play now (None: no opinion)


@dataclass
class Report:
    """What a twin check covered: hands played, twins made, comparisons, and the differences found."""

    hands: int = 0
    twins: int = 0
    differing: int = 0  #: twins whose other seats' hands differ from the original's at some step
    compared: int = 0  #: (step, seat) pairs compared
    refusals: int = 0  #: refused ids compared
    refused_replays: int = 0  #: swaps after which the rules refused another seat's move (no twin)
    seen_apart: int = 0  #: swaps the seat's view shows (a result's deadwood): no twin
    failures: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (f"{self.hands} hands, {self.twins} twins ({self.differing} with another hand changed; "
                f"{self.refused_replays} swaps refused, {self.seen_apart} seen), {self.compared} views and "
                f"{self.refusals} refusals compared, {len(self.failures)} differences")  # fmt: skip


def _choose(table: Table, rng: random.Random) -> int:
    """A legal id: mostly what a bot would play (so that hands reach the showdown), else any legal one."""
    ids = list(table.legal_ids())
    hint = table.hint()
    if hint is not None and rng.random() < 0.7:
        assert hint in ids, (hint, ids)
        return hint
    return rng.choice(ids)


def check_twins(
    make: Callable[[Sequence[Card]], Table],
    deck: Sequence[Card],
    seats: Sequence[int],
    rules: RuleSet,
    rng: random.Random,
    report: Report,
    *,
    refuse_every: int = 5,
    max_steps: int = 300,
) -> None:
    """Play one random hand from ``deck``, then for each of ``seats`` its twin, comparing the seat's outputs
    at every step, and what its masked-out ids answer at every ``refuse_every``-th step it is to act."""
    original = make(deck)
    outputs: list[dict[int, tuple[Any, ...]]] = []
    refused: dict[int, tuple[str, ...]] = {}  #: step -> the refusals of the seat to act then
    holdings: list[dict[int, set[Card]]] = []  #: per step and seat: the cards the other seats hold
    played: list[int] = []
    while True:
        step = len(played)
        outputs.append({s: original.outputs(s) for s in seats})
        holdings.append({s: original.held(s) for s in seats})
        to_act = original.seat_to_act()
        if to_act is None or step >= max_steps:
            break
        if to_act in seats and step % refuse_every == 0:
            refused[step] = original.refusals(to_act)
        action = _choose(original, rng)
        original.act(action)
        played.append(action)
    report.hands += 1
    events = original.events()
    for seat in seats:
        ever_held = set().union(*(h[seat] for h in holdings))
        swap = twin_swap(hidden_cards(rules, events, seat, deck), ever_held, rng)
        if swap is not None:
            view = seat_view(rules, events, seat)
            _compare(make, rules, deck, swap, played, seat, view, outputs, holdings, refused, report)


def _compare(
    make: Callable[[Sequence[Card]], Table],
    rules: RuleSet,
    deck: Sequence[Card],
    swap: dict[Card, Card],
    played: Sequence[int],
    seat: int,
    view: list[object],
    outputs: Sequence[dict[int, tuple[Any, ...]]],
    holdings: Sequence[dict[int, set[Card]]],
    refused: dict[int, tuple[str, ...]],
    report: Report,
) -> None:
    """Replay ``played`` on the twin; if it is one (the rules accept the moves and the seat's view of the events
    is the same: a swap can change what it sees, a result's deadwood for one), compare what the seat is given."""
    twin = make([swap.get(c, c) for c in deck])
    given: list[tuple[Any, ...]] = []
    answers: dict[int, tuple[str, ...]] = {}
    differs = False
    for step in range(len(played) + 1):
        if step:
            try:
                twin.act(swapped_id(played[step - 1], swap))
            except IllegalAction:
                report.refused_replays += 1
                return  # the swap made another seat's move illegal: no twin
        given.append(twin.outputs(seat))
        differs = differs or twin.held(seat) != holdings[step][seat]
        if step in refused and twin.seat_to_act() == seat:
            answers[step] = twin.refusals(seat)
    if seat_view(rules, twin.events(), seat) != [_swapped_view(v, swap) for v in view]:
        report.seen_apart += 1
        return  # the seat saw the difference (in a result): no twin
    report.twins += 1
    report.differing += differs
    for step, out in enumerate(given):
        report.compared += 1
        if out != outputs[step][seat]:
            report.failures.append(f"p{seat}, swap {swap}: outputs differ after moves {list(played[:step])}")
            return
        if step in answers:
            report.refusals += len(answers[step])
            if answers[step] != refused[step]:
                report.failures.append(f"p{seat}, swap {swap}: refusals differ after moves {list(played[:step])}")
                return


def _swapped_view(seen: object, swap: dict[Card, Card]) -> object:
    """A seen event with swapped cards: the seat never sees them, so this is the identity (asserted)."""
    assert not any(c in swap for c in named_cards(seen))
    return seen
