"""Readable test notation: deals and plays written in card text."""

from __future__ import annotations

from engine.cards import DECK, Card, cards
from engine.hand import Hand
from engine.rules import RuleSet
from knock.bots import Bot, make_bot


def deal(
    p0: str,
    p1: str,
    upcard: str,
    stock: str = "",
    *,
    dealer: int = 0,
    rules: RuleSet | None = None,
) -> Hand:
    """A prearranged hand. ``stock`` lists the top of the stock first; the cards not named anywhere follow
    it in deck order, so a test names only the stock cards it draws.
    """
    named = [*cards(p0), *cards(p1), Card.parse(upcard), *cards(stock)]
    rest = [c for c in DECK if c not in set(named)]
    return Hand.from_deal(
        rules,
        dealer=dealer,
        hands=(cards(p0), cards(p1)),
        upcard=Card.parse(upcard),
        stock=(*cards(stock), *rest),
    )


def play(hand: Hand, *actions: str) -> None:
    """Apply actions written as ``"p0 discard Kh"``."""
    hand.play(*actions)


def tool_check(name: str, *args: str) -> None:
    """Run ``tools/NAME --check [ARGS]`` (the files it generates are up to date) and fail with its output if not."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, str(root / "tools" / name), "--check", *args]
    done = subprocess.run(command, capture_output=True, text=True, cwd=root, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def quick_bot(name: str, seed: int = 0) -> Bot:
    """``make_bot(name, seed)``, but a search level (``knock.bots.search.LEVELS``) with a tiny budget: its code
    paths at a fraction of its cost (its strength is measured in the arena, not in the suite)."""
    from knock.bots.search import LEVELS, SearchBot

    if name in LEVELS:
        level = LEVELS[name]
        return SearchBot(min(2, level.budget), 1, seed, name=name, margin=level.margin)
    return make_bot(name, seed)
