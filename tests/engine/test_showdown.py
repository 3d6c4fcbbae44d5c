"""Sections 6 and 8 of the spec: the knocker's spread, the defender's melds and layoffs, and their best
choices, checked against hand-worked cases from the rules brief (items A4, E24 .. E29) and a brute-force
oracle."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from engine.cards import Card, cards, to_mask
from engine.errors import InvalidMeld
from engine.kernel import check_defence, check_spread
from engine.melds import Meld, MeldKind, best_arrangement
from engine.rules import RuleSet
from engine.scoring import ResultKind, score_hand
from engine.showdown import Layoff, best_defence, layoff_options
from tests.engine.card_strategies import deals, holdings
from tests.support import oracle

Arrangement = frozenset[frozenset[Card]]


def spread(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(t) for t in texts)


def layoffs(text: str) -> tuple[Layoff, ...]:
    """Layoffs written ``"3s>4s-5s-6s-7s 8s>4s-5s-6s-7s"``."""
    return tuple(Layoff.parse(t) for t in text.split())


def mask(text: str) -> int:
    held = cards(text)
    assert len(set(held)) == len(held), f"a card written twice in {text!r}"
    return to_mask(held)


def as_sets(melds: tuple[Meld, ...]) -> Arrangement:
    return frozenset(frozenset(m.cards) for m in melds)


def meld_cards(text: str) -> frozenset[Card]:
    return frozenset(Meld.parse(text).cards)


def ordered(arrangements: Iterable[Arrangement]) -> list[Arrangement]:
    """Arrangements in a fixed order, so that hypothesis can draw one reproducibly."""
    return sorted(arrangements, key=lambda a: sorted(sorted(c.index for c in m) for m in a))


def draw_spread(data: st.DataObject, knocker: frozenset[Card]) -> tuple[Meld, ...]:
    """A spread the knocker could lay: any arrangement of his cards with at least one meld, if he has one."""
    options = ordered([a for a in oracle.arrangements_of(knocker) if a]) or [frozenset()]
    return tuple(Meld.of(m) for m in data.draw(st.sampled_from(options), label="spread"))


# --- KNOCK-4: the knocker's spread --------------------------------------------------------------


@pytest.mark.rule("KNOCK-4")
def test_a_spread_need_not_be_the_minimum_arrangement() -> None:
    held = mask("4c 5c 6c 7c Kd Kh Ks 2h 3h 4h")
    best = check_spread(spread("4c-5c-6c-7c", "Kd-Kh-Ks", "2h-3h-4h"), held, 10)
    assert best.deadwood == 0
    # Brief A4: keeping 7c out of the run leaves 7, within the limit, and is his choice to make.
    shorter = check_spread(spread("4c-5c-6c", "Kd-Kh-Ks", "2h-3h-4h"), held, 10)
    assert shorter.deadwood_cards == cards("7c")
    assert shorter.deadwood == 7
    assert check_spread(spread("Kd-Kh-Ks", "2h-3h-4h"), held, 22).deadwood_cards == cards("4c 5c 6c 7c")


@pytest.mark.rule("KNOCK-4")
def test_a_spread_over_the_knock_limit_is_rejected() -> None:
    held = mask("4c 5c 6c 7c Kd Kh Ks 2h 3h 4h")
    with pytest.raises(InvalidMeld) as err:
        check_spread(spread("4c-5c-6c", "Kd-Kh-Ks", "2h-3h-4h"), held, 6)
    assert err.value.rule == "KNOCK-4"
    assert check_spread(spread("4c-5c-6c", "Kd-Kh-Ks", "2h-3h-4h"), held, 7).deadwood == 7
    with pytest.raises(InvalidMeld, match="KNOCK-4"):
        check_spread((), held, 10)


@pytest.mark.rule("KNOCK-4", "MELD-3")
@pytest.mark.parametrize(
    "melds",
    [
        ("4c-5c-6c-7c", "7c-7d-7h"),  # 7c twice
        ("4c-5c-6c-7c", "Kc-Kd-Kh"),  # Kc not held
    ],
)
def test_a_spread_of_overlapping_melds_or_cards_not_held_is_rejected(melds: tuple[str, ...]) -> None:
    with pytest.raises(InvalidMeld) as err:
        check_spread(spread(*melds), mask("4c 5c 6c 7c 7d 7h Kd Kh 2h 3h"), 10)
    assert err.value.rule == "MELD-3"


@pytest.mark.rule("KNOCK-4")
@pytest.mark.parametrize(
    ("held", "chosen", "left"),
    [
        # Tc-Td-Th and Th-Jh-Qh both leave 20; the set can take only Ts, the run 9h and Kh.
        ("Tc Td Th Jh Qh As 2s 3s 4s 5s", "As-2s-3s-4s-5s Tc-Td-Th", "Jh Qh"),
        # The same with Qc-Qd-Qh, which comes after Th-Jh-Qh in canonical order: the targets decide.
        ("Qc Qd Qh Th Jh As 2s 3s 4s 5s", "As-2s-3s-4s-5s Qc-Qd-Qh", "Th Jh"),
        # Both leave 8, with two targets each: nothing goes below the ace, so Ah-2h-3h takes only 4h, as
        # 2d-2h-2s takes only 2c (4c-4h-4s takes 4d). The tie goes to the first in canonical order, the run.
        ("Ad Ah 2d 2h 2s 3c 3h 4c 4h 4s", "Ah-2h-3h 4c-4h-4s", "Ad 2d 2s 3c"),
        # Both leave 27: the set of four takes nothing, so it beats 7c-8c-9c-Tc with 7d-7h-7s.
        ("7c 7d 7h 7s 8c 8d 9c 9s Tc Th", "7c-7d-7h-7s 8c-9c-Tc", "8d 9s Th"),
    ],
)
def test_the_automatic_spread_leaves_the_fewest_layoff_targets_among_minimum_arrangements(
    held: str, chosen: str, left: str
) -> None:
    arr = best_arrangement(mask(held))
    assert as_sets(arr.melds) == as_sets(spread(*chosen.split()))
    assert arr.deadwood_cards == cards(left)


@pytest.mark.rule("KNOCK-4", "MELD-4")
def test_the_automatic_spread_has_minimum_deadwood_before_anything_else() -> None:
    # The set of four would take no layoff at all but leaves Js Qs 9h (29); Kc-Kd-Kh and Js-Qs-Ks leave 9h.
    arr = best_arrangement(mask("Kc Kd Kh Ks Qs Js 2c 3c 4c 9h"))
    assert arr.deadwood_cards == cards("9h")
    assert as_sets(arr.melds) == {meld_cards("Kc-Kd-Kh"), meld_cards("Js-Qs-Ks"), meld_cards("2c-3c-4c")}


@pytest.mark.rule("KNOCK-4")
@given(holdings(10, 10))
def test_the_automatic_spread_matches_the_oracle(held: frozenset[Card]) -> None:
    arr = best_arrangement(to_mask(held))
    chosen = as_sets(arr.melds)
    everything = list(oracle.arrangements_of(held))
    assert chosen in set(everything)
    assert frozenset(arr.deadwood_cards) == oracle.leftover(held, chosen)
    least = oracle.min_deadwood(held)
    assert arr.deadwood == least
    minimal = [a for a in everything if oracle.points(oracle.leftover(held, a)) == least]
    fewest = min(sum(oracle.open_targets(m) for m in a) for a in minimal)
    assert sum(oracle.open_targets(m) for m in chosen) == fewest


@pytest.mark.rule("KNOCK-4", "MELD-3")
@given(holdings(10, 10), st.integers(0, 10), st.data())
def test_any_arrangement_within_the_limit_is_a_legal_spread(
    held: frozenset[Card], limit: int, data: st.DataObject
) -> None:
    chosen = data.draw(st.sampled_from(ordered(list(oracle.arrangements_of(held)))))
    melds = tuple(Meld.of(m) for m in chosen)
    left = oracle.leftover(held, chosen)
    if oracle.points(left) <= limit:
        arr = check_spread(melds, to_mask(held), limit)
        assert frozenset(arr.deadwood_cards) == left
    else:
        with pytest.raises(InvalidMeld) as err:
            check_spread(melds, to_mask(held), limit)
        assert err.value.rule == "KNOCK-4"


# --- LAY-3, LAY-4: what fits onto a meld --------------------------------------------------------


@pytest.mark.rule("LAY-4")
def test_a_run_takes_chains_of_cards_at_either_end() -> None:
    run = Meld.parse("4s-5s-6s-7s")
    options = layoff_options(run, mask("2s 3s 8s 9s Js 3h"))
    expected = [cards(t) for t in ["", "3s", "2s 3s", "8s", "8s 9s", "3s 8s", "3s 8s 9s", "2s 3s 8s", "2s 3s 8s 9s"]]
    assert sorted(options) == sorted(to_mask(cs) for cs in expected)
    assert len(options) == len(set(options))


@pytest.mark.rule("LAY-4", "CARD-2")
def test_nothing_goes_past_the_king_or_below_the_ace() -> None:
    assert layoff_options(Meld.parse("Js-Qs-Ks"), mask("As 2s Ts 9s")) == [0, mask("Ts"), mask("9s Ts")]
    assert sorted(layoff_options(Meld.parse("As-2s-3s"), mask("Ks Qs 4s"))) == [0, mask("4s")]


@pytest.mark.rule("LAY-3")
def test_a_set_of_three_takes_its_fourth_card_only() -> None:
    three = Meld.parse("7s-7h-7d")
    assert sorted(layoff_options(three, mask("7c 6c 8c 8s"))) == [0, mask("7c")]
    assert layoff_options(three, mask("6c 8c 8s")) == [0]


@pytest.mark.rule("LAY-3")
def test_a_set_of_four_takes_nothing() -> None:
    four = Meld.parse("7c-7d-7h-7s")
    assert layoff_options(four, (1 << 52) - 1) == [0]
    assert not four.fits(cards("6c"))
    assert not four.fits(cards("8s"))


@pytest.mark.rule("LAY-3", "LAY-4")
@given(deals(), st.data())
def test_layoff_options_are_every_subset_that_fits(
    deal: tuple[frozenset[Card], frozenset[Card]], data: st.DataObject
) -> None:
    knocker, defender = deal
    for meld in draw_spread(data, knocker):
        found = layoff_options(meld, to_mask(defender))
        assert len(found) == len(set(found))
        expected = {to_mask(s) for s in oracle.layoffs_onto(frozenset(meld.cards), defender)}
        assert set(found) == expected


@pytest.mark.rule("LAY-5")
def test_a_layoff_is_written_card_then_target() -> None:
    layoff = Layoff.parse("7c>4c-5c-6c")
    assert layoff == Layoff(Card.parse("7c"), Meld.parse("4c-5c-6c"))
    assert str(layoff) == "7c>4c-5c-6c"


# --- LAY-5: the defender's answer, validated as a whole -----------------------------------------

# A knocker with 6 deadwood and a defender who can lay off 3s, 8s and 9s onto the run.
CHAIN_SPREAD = spread("4s-5s-6s-7s", "Kc-Kd-Kh")  # knocker: 4s 5s 6s 7s Kc Kd Kh, deadwood Ac 2d 3h
CHAIN_DEFENDER = "3s 8s 9s Qc Qd Qh 2c 3c 4c Td"
CHAIN_MELDS = spread("Qc-Qd-Qh", "2c-3c-4c")


@pytest.mark.rule("LAY-4", "LAY-5")
def test_chained_layoffs_at_both_ends_of_a_run() -> None:
    held = mask(CHAIN_DEFENDER)
    answer = check_defence(
        CHAIN_SPREAD, False, held, CHAIN_MELDS, layoffs("3s>4s-5s-6s-7s 8s>4s-5s-6s-7s 9s>4s-5s-6s-7s")
    )
    assert answer.deadwood_cards == cards("Td")
    # Submitted as a whole, so the order of the layoffs does not matter.
    reordered = check_defence(
        CHAIN_SPREAD, False, held, CHAIN_MELDS, layoffs("9s>4s-5s-6s-7s 3s>4s-5s-6s-7s 8s>4s-5s-6s-7s")
    )
    assert reordered == answer
    best = best_defence(CHAIN_SPREAD, held)
    assert set(best.layoffs) == set(layoffs("3s>4s-5s-6s-7s 8s>4s-5s-6s-7s 9s>4s-5s-6s-7s"))
    assert as_sets(best.melds) == as_sets(CHAIN_MELDS)
    assert best.deadwood == 10
    assert oracle.defender_deadwood(as_sets(CHAIN_SPREAD), frozenset(cards(CHAIN_DEFENDER))) == 10
    result = score_hand(RuleSet(), knocker=0, knocker_deadwood=6, defender_deadwood=best.deadwood)
    assert (result.kind, result.winner, result.points) == (ResultKind.KNOCK, 0, 4)


@pytest.mark.rule("LAY-4")
@pytest.mark.parametrize(
    "laid",
    [
        "9s>4s-5s-6s-7s",  # 8s missing in between
        "3s>4s-5s-6s-7s 9s>4s-5s-6s-7s",
        "Td>4s-5s-6s-7s",  # another suit
        "3c>4s-5s-6s-7s",
    ],
)
def test_a_layoff_that_does_not_extend_the_run_is_rejected(laid: str) -> None:
    with pytest.raises(InvalidMeld) as err:
        check_defence(CHAIN_SPREAD, False, mask("3s 8s 9s 3c Td Qc Qd Qh 2c 4c"), (), layoffs(laid))
    assert err.value.rule == "LAY-4"


@pytest.mark.rule("LAY-3")
def test_a_set_of_three_takes_its_missing_card() -> None:
    held = mask("Ks Qs 8s Qc Qd Qh 2c 3c 4c Td")
    answer = check_defence(CHAIN_SPREAD, False, held, spread("Qc-Qd-Qh"), layoffs("Ks>Kc-Kd-Kh"))
    assert answer.deadwood_cards == cards("2c 3c 4c 8s Td Qs")


@pytest.mark.rule("LAY-3")
@pytest.mark.parametrize(
    ("melds", "laid"),
    [
        ((), "Qc>Kc-Kd-Kh"),  # another rank
        ((), "Ks>Kc-Kd-Kh 8s>Kc-Kd-Kh"),  # a set of three takes one card
        (("Qc-Qd-Qh",), "Ks>Kc-Kd-Kh Qs>Kc-Kd-Kh"),
    ],
)
def test_a_layoff_that_does_not_complete_the_set_is_rejected(melds: tuple[str, ...], laid: str) -> None:
    held = mask("Ks Qs 8s Qc Qd Qh 2c 3c 4c Td")
    with pytest.raises(InvalidMeld) as err:
        check_defence(CHAIN_SPREAD, False, held, spread(*melds), layoffs(laid))
    assert err.value.rule == "LAY-3"


@pytest.mark.rule("LAY-3")
def test_nothing_can_be_laid_off_onto_a_set_of_four() -> None:
    four = spread("2c-2d-2h-2s", "5s-6s-7s")  # knocker: 2c 2d 2h 2s 5s 6s 7s, deadwood Ac Ad 3h
    held = mask("3s 3c 4s 8s 9d Td Jd Qd Kd Kh")
    for card in ["3s", "3c", "Kh"]:
        with pytest.raises(InvalidMeld) as err:
            check_defence(four, False, held, (), layoffs(f"{card}>2c-2d-2h-2s"))
        assert err.value.rule == "LAY-3"
    best = best_defence(four, held)
    assert set(best.layoffs) == set(layoffs("3s>5s-6s-7s 4s>5s-6s-7s 8s>5s-6s-7s"))


@pytest.mark.rule("LAY-1", "LAY-5")
@pytest.mark.parametrize(
    ("melds", "laid", "rule"),
    [
        ((), "3s>5s-6s-7s", "LAY-1"),  # not one of the knocker's melds
        ((), "3s>Qc-Qd-Qh", "LAY-1"),  # the defender's own meld
        ((), "2s>4s-5s-6s-7s", "LAY-5"),  # not held
        ((), "8s>4s-5s-6s-7s 8s>4s-5s-6s-7s", "LAY-5"),  # laid off twice
        (("8s-9s-Ts",), "8s>4s-5s-6s-7s", "LAY-5"),  # melded and laid off
        (("8s-9s-Ts", "9s-Ts-Js"), "", "LAY-5"),  # his own melds overlap
        (("Jc-Qc-Kc",), "", "LAY-5"),  # not his cards
    ],
)
def test_an_invalid_answer_names_the_rule_it_breaks(melds: tuple[str, ...], laid: str, rule: str) -> None:
    held = mask("3s 8s 9s Ts Js Qc Qd Qh 5c 5d")
    with pytest.raises(InvalidMeld) as err:
        check_defence(CHAIN_SPREAD, False, held, spread(*melds), layoffs(laid))
    assert err.value.rule == rule
    assert str(err.value).startswith(rule + ":")


@pytest.mark.rule("LAY-5")
def test_a_card_that_fits_two_melds_goes_where_the_defender_says() -> None:
    # Brief E27 (S05). Knocker: 4c 5c 6c 7s 7h 7d Jd Qd Kd 8h, deadwood 8h.
    knocker = spread("4c-5c-6c", "7d-7h-7s", "Jd-Qd-Kd")
    held = mask("7c 8c 2s 3s 4s 9h 9s 9d Ah 5h")
    own = spread("2s-3s-4s", "9d-9h-9s")
    onto_run = check_defence(knocker, False, held, own, layoffs("7c>4c-5c-6c 8c>4c-5c-6c"))
    assert onto_run.deadwood_cards == cards("Ah 5h")
    onto_set = check_defence(knocker, False, held, own, layoffs("7c>7d-7h-7s"))
    assert onto_set.deadwood_cards == cards("Ah 5h 8c")
    with pytest.raises(InvalidMeld) as err:  # with 7c on the set, 8c no longer touches the run
        check_defence(knocker, False, held, own, layoffs("7c>7d-7h-7s 8c>4c-5c-6c"))
    assert err.value.rule == "LAY-4"

    best = best_defence(knocker, held)
    assert set(best.layoffs) == set(layoffs("7c>4c-5c-6c 8c>4c-5c-6c"))
    assert best.deadwood == 6
    assert oracle.defender_deadwood(as_sets(knocker), frozenset(cards("7c 8c 2s 3s 4s 9h 9s 9d Ah 5h"))) == 6
    # The choice decides the hand: undercut by 12, or a knock worth 6.
    good = score_hand(RuleSet(), knocker=0, knocker_deadwood=8, defender_deadwood=onto_run.deadwood)
    assert (good.kind, good.winner, good.points) == (ResultKind.UNDERCUT, 1, 12)
    bad = score_hand(RuleSet(), knocker=0, knocker_deadwood=8, defender_deadwood=onto_set.deadwood)
    assert (bad.kind, bad.winner, bad.points) == (ResultKind.KNOCK, 0, 6)


@pytest.mark.rule("LAY-5")
def test_the_defender_may_break_his_own_meld_to_lay_off() -> None:
    # Brief E28. Knocker: 2s 3s 4s 9c 9d 9h 6h 7h 8h 6d, deadwood 6d.
    knocker = spread("2s-3s-4s", "9c-9d-9h", "6h-7h-8h")
    defender = "5c 5d 5s 3c 4c 6s Kc Kd Kh Ks"
    held = mask(defender)
    kept = check_defence(knocker, False, held, spread("5c-5d-5s", "Kc-Kd-Kh-Ks"), ())
    assert kept.deadwood_cards == cards("3c 4c 6s")
    broken = check_defence(knocker, False, held, spread("3c-4c-5c", "Kc-Kd-Kh-Ks"), layoffs("5s>2s-3s-4s 6s>2s-3s-4s"))
    assert broken.deadwood_cards == cards("5d")

    best = best_defence(knocker, held)
    assert best.deadwood == 5
    assert set(best.layoffs) == set(layoffs("5s>2s-3s-4s 6s>2s-3s-4s"))
    assert meld_cards("3c-4c-5c") in as_sets(best.melds)
    assert oracle.defender_deadwood(as_sets(knocker), frozenset(cards(defender))) == 5
    # Breaking the set turns a knock worth 7 into an undercut worth 11.
    assert score_hand(RuleSet(), knocker=0, knocker_deadwood=6, defender_deadwood=kept.deadwood).points == 7
    result = score_hand(RuleSet(), knocker=0, knocker_deadwood=6, defender_deadwood=best.deadwood)
    assert (result.kind, result.winner, result.points) == (ResultKind.UNDERCUT, 1, 11)


@pytest.mark.rule("LAY-5")
def test_the_defender_may_decline_a_layoff_that_fits() -> None:
    # Brief E28. Knocker: 6s 7s 8s 3h 4h 5h Jc Jd Jh Ad, deadwood Ad.
    knocker = spread("6s-7s-8s", "3h-4h-5h", "Jc-Jd-Jh")
    defender = "9s 9h 9d Ts 2c 3c 4c Qd Qh Qc"
    held = mask(defender)
    laid = check_defence(knocker, False, held, spread("2c-3c-4c", "Qc-Qd-Qh"), layoffs("9s>6s-7s-8s Ts>6s-7s-8s"))
    assert laid.deadwood == 18  # 9h 9d
    best = best_defence(knocker, held)
    assert best.layoffs == ()
    assert best.deadwood_cards == cards("Ts")
    assert as_sets(best.melds) == as_sets(spread("9d-9h-9s", "2c-3c-4c", "Qc-Qd-Qh"))
    assert oracle.defender_deadwood(as_sets(knocker), frozenset(cards(defender))) == 10
    assert laid.deadwood - best.deadwood == 8


@pytest.mark.rule("LAY-2")
def test_no_layoffs_after_gin() -> None:
    gin = spread("4s-5s-6s-7s", "Kc-Kd-Kh", "Ac-2c-3c")
    held = mask("3s 8s 9s Ks 4c Qd Qh Qs 5d 5h")
    with pytest.raises(InvalidMeld) as err:
        check_defence(gin, True, held, spread("Qd-Qh-Qs"), layoffs("8s>4s-5s-6s-7s"))
    assert err.value.rule == "LAY-2"
    # The same layoff is fine after a knock without gin.
    assert check_defence(gin, False, held, spread("Qd-Qh-Qs"), layoffs("8s>4s-5s-6s-7s")).deadwood == 44 - 8
    answer = check_defence(gin, True, held, spread("Qd-Qh-Qs"), ())
    assert answer.deadwood == 3 + 8 + 9 + 10 + 4 + 5 + 5
    best = best_arrangement(held)  # after gin he lays nothing off (LAY-2): his best arrangement
    assert best.deadwood == oracle.min_deadwood(frozenset(cards("3s 8s 9s Ks 4c Qd Qh Qs 5d 5h"))) == 44
    # Without gin he could lay off 3s 8s 9s, Ks and 4c, leaving 5d 5h.
    assert best_defence(gin, held).deadwood == 10


# --- LAY-6: the defender's deadwood ------------------------------------------------------------


@pytest.mark.rule("LAY-6")
def test_the_defender_counts_only_cards_neither_melded_nor_laid_off() -> None:
    held = mask(CHAIN_DEFENDER)
    answer = check_defence(CHAIN_SPREAD, False, held, spread("Qc-Qd-Qh"), layoffs("8s>4s-5s-6s-7s"))
    assert answer.deadwood_cards == cards("2c 3c 3s 4c 9s Td")
    assert answer.deadwood == 2 + 3 + 3 + 4 + 9 + 10


@pytest.mark.rule("LAY-6", "SCORE-3")
def test_laying_off_everything_is_not_gin() -> None:
    knocker = spread("4s-5s-6s-7s", "Kc-Kd-Kh")  # deadwood Ac 2d 3h: 6
    held = mask("3s 8s 9s Ks Qc Qd Qh 2c 3c 4c")
    best = best_defence(knocker, held)
    assert best.deadwood_cards == ()
    result = score_hand(RuleSet(), knocker=0, knocker_deadwood=6, defender_deadwood=best.deadwood)
    assert (result.kind, result.winner, result.points) == (ResultKind.UNDERCUT, 1, 16)


# --- The defender's automatic answer against the brute force -----------------------------------


def check_answer_independently(
    knocker_melds: tuple[Meld, ...], defender: frozenset[Card], melds: tuple[Meld, ...], laid: tuple[Layoff, ...]
) -> frozenset[Card]:
    """The cards left over by an answer, after checking it by the oracle's definitions."""
    used: set[Card] = set()
    for m in melds:
        assert oracle.is_meld(m.cards)
        assert set(m.cards) <= defender
        assert not set(m.cards) & used
        used |= set(m.cards)
    per_target: dict[Meld, set[Card]] = {}
    for lo in laid:
        assert lo.card in defender
        assert lo.card not in used
        used.add(lo.card)
        assert lo.onto in knocker_melds
        per_target.setdefault(lo.onto, set()).add(lo.card)
    for target, extra in per_target.items():
        assert oracle.fits(frozenset(target.cards), extra)
    return defender - used


@pytest.mark.rule("LAY-3", "LAY-4", "LAY-5", "LAY-6")
@given(deals(), st.data())
def test_best_defence_matches_the_brute_force(
    deal: tuple[frozenset[Card], frozenset[Card]], data: st.DataObject
) -> None:
    knocker, defender = deal
    knocker_melds = draw_spread(data, knocker)
    best = best_defence(knocker_melds, to_mask(defender))
    event(f"{min(len(best.layoffs), 3)}+ layoffs" if best.layoffs else "no layoff")
    assert best.deadwood == oracle.defender_deadwood(as_sets(knocker_melds), defender)
    left = check_answer_independently(knocker_melds, defender, best.melds, best.layoffs)
    assert left == frozenset(best.deadwood_cards)
    answer = check_defence(knocker_melds, False, to_mask(defender), best.melds, best.layoffs)
    assert frozenset(answer.deadwood_cards) == left


@pytest.mark.rule("LAY-2", "MELD-4")
@given(deals(), st.data())
def test_best_defence_after_gin_is_the_minimum_deadwood(
    deal: tuple[frozenset[Card], frozenset[Card]], data: st.DataObject
) -> None:
    knocker, defender = deal
    answer = check_defence(
        draw_spread(data, knocker), True, to_mask(defender), best_arrangement(to_mask(defender)).melds, ()
    )
    assert answer.deadwood == best_arrangement(to_mask(defender)).deadwood == oracle.min_deadwood(defender)


@pytest.mark.rule("LAY-3", "LAY-4", "LAY-5")
@given(deals(), st.data())
def test_check_defence_accepts_exactly_the_layoffs_that_fit(
    deal: tuple[frozenset[Card], frozenset[Card]], data: st.DataObject
) -> None:
    knocker, defender = deal
    knocker_melds = draw_spread(data, knocker)
    assume(knocker_melds)
    # Mostly cards that could touch a target (its rank or its suit), so that many answers are legal.
    near = sorted(
        c for c in defender if any(c.rank == m.cards[0].rank or c.suit == m.cards[-1].suit for m in knocker_melds)
    )
    use_near: bool = data.draw(st.booleans(), label="near")
    pool = near if near and use_near else sorted(defender)
    laid_cards = data.draw(st.lists(st.sampled_from(pool), unique=True, max_size=5), label="laid")
    laid = tuple(Layoff(c, data.draw(st.sampled_from(knocker_melds), label=f"onto {c}")) for c in laid_cards)
    per_target: dict[Meld, set[Card]] = {}
    for lo in laid:
        per_target.setdefault(lo.onto, set()).add(lo.card)
    misfits = {t.kind for t, extra in per_target.items() if not oracle.fits(frozenset(t.cards), extra)}
    event("rejected" if misfits else "accepted")
    if not misfits:
        answer = check_defence(knocker_melds, False, to_mask(defender), (), laid)
        assert frozenset(answer.deadwood_cards) == defender - set(laid_cards)
    else:
        with pytest.raises(InvalidMeld) as err:
            check_defence(knocker_melds, False, to_mask(defender), (), laid)
        assert err.value.rule in {"LAY-3" if kind is MeldKind.SET else "LAY-4" for kind in misfits}
