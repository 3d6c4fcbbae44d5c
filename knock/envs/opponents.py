"""Opponents you plug into the Gymnasium environment: a bot by name, a policy callable, a saved checkpoint,
or a pool of frozen opponents drawn per episode. Rules: ENV-15, ENV-16, ENV-17.

Every opponent answers one question, ``choose(episode, seat)``: the action id (ENV-2) the seat to act plays
now, from that seat's own view only (VIS-2): a bot gets the seat's hand observation and the legal actions, a
policy the seat's observation vector and mask (ENV-3). ``reset(seed)`` starts an episode, so that a seeded
reset of the environment reproduces the opponents' play exactly (ENV-7).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from engine.fsm import Phase
from knock.bots import BOT_NAMES, Bot, make_bot
from knock.envs import encoding
from knock.envs import spaces as T
from knock.envs.episode import Episode

#: A policy: the seat's observation vector and action mask -> an action id (ENV-15).
Policy = Callable[[encoding.Vector, encoding.Mask], int]
CHECKPOINT_SUFFIXES = (".pt", ".zip")  #: a torch state-dict file (``knock.envs.policy``), an SB3 MaskablePPO zip


@runtime_checkable
class Opponent(Protocol):
    """A player of the seats the learner does not hold."""

    name: str

    def reset(self, seed: int) -> None:
        """A new episode; ``seed`` comes from the environment's generator."""
        ...

    def choose(self, episode: Episode, seat: int) -> int:
        """The id ``seat`` (the seat to act) plays now, from its own view."""
        ...


class BotOpponent:
    """A bot of ``knock.bots`` by name (any of ``BOT_NAMES``), seeded at each reset. A bot in the sitter's
    seat never advises; in the showdown a choice beyond the offered options becomes the one of least deadwood.
    """

    def __init__(self, name: str) -> None:
        make_bot(name)  # an unknown name is refused now, not at the first reset
        self.name = name
        self.bot: Bot = make_bot(name)

    def reset(self, seed: int) -> None:
        self.bot = make_bot(self.name, seed)

    def choose(self, episode: Episode, seat: int) -> int:
        m = episode.game
        if seat == m.sitter:
            return T.NO_ADVICE
        hand = m.hand
        assert hand is not None
        legal = episode.legal()
        choice = self.bot.choose(m.seat_observation(seat), m.legal_actions())
        ids = [i for i, a in legal.items() if a == choice]
        if not ids:
            assert hand.phase in (Phase.KNOCK, Phase.LAYOFF), (choice, legal)
            return next(iter(legal))  # beyond the offered options: the one of least deadwood (ENV-6)
        return ids[0]


class PolicyOpponent:
    """A policy callable: it is given the seat's observation vector and mask, and answers an action id. In
    the sitter's seat it is asked too, with the sitter's mask (it may advise, ENV-11)."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def reset(self, seed: int) -> None:
        reset = getattr(self.policy, "reset", None)
        if callable(reset):
            reset(seed)

    def choose(self, episode: Episode, seat: int) -> int:
        return int(self.policy(episode.observe(seat), episode.mask(seat)))


OpponentSpec = str | os.PathLike[str] | Policy | Opponent  #: what ``opponent`` makes an opponent of


class OpponentPool:
    """Frozen opponents, one drawn per episode (uniformly, from the reset's seed); ``add`` puts in another one
    (a snapshot of the learner, say) for the episodes after it. Rule: ENV-17."""

    name = "pool"

    def __init__(self, members: Sequence[OpponentSpec] = ()) -> None:
        self.members: list[Opponent] = [opponent(m) for m in members]
        self.current: Opponent | None = None

    def add(self, member: OpponentSpec) -> Opponent:
        made = opponent(member)
        self.members.append(made)
        return made

    def __len__(self) -> int:
        return len(self.members)

    def reset(self, seed: int) -> None:
        if not self.members:
            raise ValueError("ENV-17: the opponent pool is empty")
        rng = random.Random(seed)
        self.current = self.members[int(rng.random() * len(self.members))]
        self.current.reset(rng.getrandbits(31))

    def choose(self, episode: Episode, seat: int) -> int:
        assert self.current is not None, "reset() first"
        return self.current.choose(episode, seat)


def opponent(spec: OpponentSpec) -> Opponent:
    """An opponent from a bot name (``BOT_NAMES``), a checkpoint path (``.pt``: a torch state-dict file of
    ``knock.envs.policy``; ``.zip``: a MaskablePPO saved by Stable-Baselines3), a policy callable, or an
    opponent itself. Rules: ENV-15, ENV-16.

    Raises:
        ValueError: (ENV-15) none of these.
    """
    if isinstance(spec, Opponent):
        return spec
    if isinstance(spec, str) and spec in BOT_NAMES:
        return BotOpponent(spec)
    if isinstance(spec, str | os.PathLike):
        path = Path(spec)
        if path.suffix in CHECKPOINT_SUFFIXES:
            return PolicyOpponent(load_checkpoint(path), name=path.name)
        raise ValueError(f"ENV-15: unknown opponent {str(spec)!r}; bots: {', '.join(BOT_NAMES)}, or a .pt or .zip file")
    if callable(spec):
        return PolicyOpponent(spec)
    raise ValueError(f"ENV-15: an opponent is a bot name, a checkpoint path or a policy callable, not {spec!r}")


def load_checkpoint(path: str | os.PathLike[str]) -> Policy:
    """A saved checkpoint as a policy (the masked arg-max of its action scores). Needs the ``train`` extra.
    Rule: ENV-16."""
    path = Path(path)
    if path.suffix == ".zip":
        from knock.envs.policy import sb3_policy

        return sb3_policy(path)
    from knock.envs.policy import load_policy

    return load_policy(path)


__all__ = ["BotOpponent", "Opponent", "OpponentPool", "OpponentSpec", "Policy", "PolicyOpponent", "opponent"]
