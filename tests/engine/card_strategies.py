"""Hypothesis strategies for holdings and deals, biased towards hands rich in melds."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.cards import DECK, Card


@st.composite
def holdings(draw: st.DrawFn, min_size: int = 10, max_size: int = 10) -> frozenset[Card]:
    """Distinct cards drawn from a window of consecutive ranks (sometimes the whole deck), so that sets,
    runs and cards shared between them are common."""
    size = draw(st.integers(min_size, max_size))
    width = draw(st.integers(max(3, -(-size // 4)), 13))
    low = draw(st.integers(1, 14 - width))
    pool = [c for c in DECK if low <= c.rank < low + width]
    return frozenset(draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)))


@st.composite
def deals(draw: st.DrawFn) -> tuple[frozenset[Card], frozenset[Card]]:
    """Two disjoint ten-card hands (knocker, defender), mostly from a narrow window of ranks so that the
    defender often holds cards that fit the knocker's melds."""
    width = draw(st.sampled_from([5, 5, 6, 6, 7, 8, 10, 13]))
    low = draw(st.integers(1, 14 - width))
    pool = [c for c in DECK if low <= c.rank < low + width]
    both = draw(st.lists(st.sampled_from(pool), min_size=20, max_size=20, unique=True))
    knocker = frozenset(draw(st.lists(st.sampled_from(both), min_size=10, max_size=10, unique=True)))
    return knocker, frozenset(both) - knocker
