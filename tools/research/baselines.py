"""Published baselines: train each method for a stated CPU budget over several training seeds, evaluate it on
seeds disjoint from training over paired hands and games against the built-in bots, write learning curves
(PNG, matplotlib's Agg backend) and a table (docs/baselines.md).

    .venv/bin/python tools/research/baselines.py --minutes 2 --seeds 3      # one process (nice -n 10)
    .venv/bin/python tools/research/baselines.py --jobs 2 --resume           # the published run: two at a time; goes on
                                                                    # after a stop
    .venv/bin/python tools/research/baselines.py --quick --out out/baselines --doc out/baselines/baselines.md

Methods: ``maskable-ppo`` (sb3-contrib's MaskablePPO on the Gymnasium environment, the learner's seat drawn per
episode, against a pool of ``random``, ``heuristic`` and its own snapshots, ENV-17) and ``ppo-selfplay`` (the
reference PPO of ``knock.envs.ppo`` over the AEC environment, pure self-play), each trained for ``--minutes`` CPU
minutes per seed, one thread. Evaluation: the standard rules; a *paired hand* is a seed played twice, the trained
policy in seat 0 then in seat 1 against the same bot, the same deal (the arena's pairing, ``knock.arena``); the
score of a pair is its wins over two (a dead hand a half), and the interval is over pairs, the pairs of all
training seeds together; games likewise, to 100. Evaluation seeds start at 10⁹ + 10⁶ (``EVAL_SEED``); training
resets are seeded from the training seed only. ``mccfr`` is OpenSpiel's external-sampling MCCFR on the reduced
deck of the suite's smoke (3 ranks x 2 suits, one card each), measured by NashConv.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))  # measuring, also when the tests load this file by its path

import measuring  # noqa: E402

from knock.arena import ACCEPTANCE_SEED, mean_interval  # noqa: E402
from knock.bots import BOT_NAMES  # noqa: E402
from knock.envs import gym_env, self_play_env  # noqa: E402
from knock.envs.opponents import OpponentPool, Policy  # noqa: E402
from knock.envs.policy import NetPolicy, SB3Policy  # noqa: E402

EVAL_SEED = ACCEPTANCE_SEED + 10**6
SEARCH_LEVELS = ("easy", "medium", "hard", "expert")
OPPONENTS = ("random", "heuristic", "simple", *[b for b in SEARCH_LEVELS if b in BOT_NAMES][:1])
#: A game longer than this many learner steps counts as drawn (policies can trade cards forever); ``--quick``: 500.
GAME_STEPS = [20_000]


TARGET = [100]  #: the games' target (``--quick``: 10)


def play(policy: Policy, bot: str, seat: int, seed: int, episode: str = "hand") -> tuple[float, float]:
    """One hand (or game) of ``policy`` at ``seat`` against ``bot``: its score (1, 0.5, 0) and its points."""
    env = gym_env(opponent=bot, seat=seat, episode=episode, target=TARGET[0])
    obs, _ = env.reset(seed=seed)
    total, done, steps = 0.0, False, 0
    while not done and steps < GAME_STEPS[0]:
        obs, reward, terminated, truncated, _ = env.step(policy(obs["observation"], obs["action_mask"]))
        total += float(reward)
        done, steps = terminated or truncated, steps + 1
    if episode == "game":
        winner = env.episode.game.winner
        return (0.5 if winner is None else float(winner == seat)), total
    return (0.5 if total == 0 else float(total > 0)), total


def paired(policy: Policy, bot: str, seeds: range, episode: str = "hand") -> list[tuple[float, float]]:
    """Per seed pair: the mean score and mean points of ``policy`` over its two seats."""
    out = []
    for s in seeds:
        a, b = play(policy, bot, 0, s, episode), play(policy, bot, 1, s, episode)
        out.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    return out


class Clock:
    """CPU seconds of this process since it was made."""

    def __init__(self) -> None:
        self.start = time.process_time()

    def __call__(self) -> float:
        return time.process_time() - self.start


Curve = list[tuple[float, int, float, float]]  #: (CPU s, steps, win rate vs random, vs heuristic) over 2 x n hands


def checkpoint_eval(policy: Policy, pairs: int, seed: int) -> tuple[float, float]:
    return tuple(
        float(np.mean([p[0] for p in paired(policy, b, range(seed, seed + pairs))])) for b in ("random", "heuristic")
    )  # type: ignore[return-value]


def train_maskable(seed: int, seconds: float, points: int, pairs: int, quick: bool) -> tuple[Policy, Curve]:
    from knock.envs.sb3 import Snapshots, maskable_ppo

    pool = OpponentPool(["random", "heuristic"])
    env = self_play_env("standard", pool, normalise=True)
    n_steps = 128 if quick else 2048
    model = maskable_ppo(env, seed=seed, n_steps=n_steps, batch_size=64 if quick else 256)  # else: its defaults
    clock, curve, snaps = Clock(), [], Snapshots(pool, every=n_steps * 8)
    for k in range(1, points + 1):
        while clock() < seconds * k / points:
            model.learn(n_steps, reset_num_timesteps=False, callback=snaps)
        curve.append((clock(), model.num_timesteps, *checkpoint_eval(SB3Policy(model.policy), pairs, EVAL_SEED)))
    return SB3Policy(model.policy), curve


def train_ppo(seed: int, seconds: float, points: int, pairs: int, quick: bool) -> tuple[Policy, Curve]:
    from knock.envs.ppo import Config, train

    cfg = Config(rollout=256, minibatch=64) if quick else Config()
    clock, curve = Clock(), []
    marks = iter(seconds * k / points for k in range(1, points + 1))
    mark = next(marks)

    def callback(steps: int, net: Any, _stats: dict[str, float]) -> None:
        nonlocal mark
        if clock() >= mark:
            curve.append((clock(), steps, *checkpoint_eval(NetPolicy(net), pairs, EVAL_SEED)))
            net.train()
            mark = next(marks, math.inf)

    net = train("standard", steps=10**9, seed=seed, config=cfg, callback=callback, seconds=seconds)
    if len(curve) < points:
        curve.append((clock(), curve[-1][1] if curve else 0, *checkpoint_eval(NetPolicy(net), pairs, EVAL_SEED)))
    return NetPolicy(net), curve


METHODS: dict[str, Callable[[int, float, int, int, bool], tuple[Policy, Curve]]] = {
    "maskable-ppo": train_maskable,
    "ppo-selfplay": train_ppo,
}


def mccfr(seed: int, iterations: int, points: int) -> list[tuple[int, float]]:
    import pyspiel
    from open_spiel.python.algorithms import exploitability
    from open_spiel.python.algorithms import external_sampling_mccfr as es

    import knock.envs.openspiel  # noqa: F401 -- registers the game

    params = {"deck_ranks": 3, "deck_suits": 2, "hand_size": 1, "options": "max_consecutive_discard_pickups:1"}
    game = pyspiel.load_game("python_knock_gin", params)
    np.random.seed(seed)
    solver, curve = es.ExternalSamplingSolver(game, es.AverageType.SIMPLE), []
    for k in range(1, iterations + 1):
        solver.iteration()
        if k % max(1, iterations // points) == 0:
            curve.append((k, float(exploitability.nash_conv(game, solver.average_policy()))))
    return curve


def plot(curves: dict[str, list[Curve]], spiel: list[list[tuple[int, float]]], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    for method, runs in curves.items():
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for i, run in enumerate(runs):
            xs = [c[0] / 60 for c in run]
            ax.plot(xs, [c[2] for c in run], "o-", color="tab:blue", alpha=0.7, label="vs random" if i == 0 else None)
            ax.plot(xs, [c[3] for c in run], "s-", color="tab:red", alpha=0.7, label="vs heuristic" if i == 0 else None)
        ax.set(
            xlabel="training CPU minutes",
            ylabel="paired-hand win rate",
            title=f"{method} ({len(runs)} seeds)",
            ylim=(0, 1),
        )
        ax.axhline(0.5, color="grey", lw=0.5)
        ax.legend()
        fig.tight_layout()
        paths.append(out / f"{method}.png")
        fig.savefig(paths[-1], dpi=90)
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for points in spiel:
        ax.plot([c[0] for c in points], [c[1] for c in points], "o-", alpha=0.7)
    ax.set(xlabel="MCCFR iterations", ylabel="NashConv", title="OpenSpiel MCCFR, python_knock_gin 3x2 deck")
    fig.tight_layout()
    paths.append(out / "mccfr.png")
    fig.savefig(paths[-1], dpi=90)
    plt.close(fig)
    return paths


def cell(rows: list[tuple[float, float]]) -> str:
    mean, lo, hi = mean_interval([r[0] for r in rows])
    return f"{100 * mean:.1f}% [{100 * max(lo, 0):.1f}, {100 * min(hi, 1):.1f}] (n={len(rows)})"


Unit = dict[str, Any]  #: a unit's result: ``curve`` (``Curve``) and ``rows`` ({"BOT hands"|"BOT games": pairs})


def unit(method: str, seed: int, minutes: float, hand_pairs: int, game_pairs: int, seeds: int, quick: bool) -> Unit:
    """One method trained with one seed and evaluated: its learning curve, its rows by opponent and episode."""
    torch.set_num_threads(1)
    if quick:
        TARGET[0], GAME_STEPS[0] = 10, 500
    points, pairs = (1, 1) if quick else (4, 10)
    policy, curve = METHODS[method](seed, minutes * 60, points, pairs, quick)
    per_h, per_g = math.ceil(hand_pairs / seeds), math.ceil(game_pairs / seeds)
    rows: dict[str, list[tuple[float, float]]] = {}
    for b in OPPONENTS:
        base = EVAL_SEED + 10_000 + 100_000 * seed
        rows[f"{b} hands"] = paired(policy, b, range(base, base + per_h))
        rows[f"{b} games"] = paired(policy, b, range(base + 50_000, base + 50_000 + per_g), "game")
    print(f"{method} seed {seed}: {curve[-1][1]} steps", flush=True)
    return {"curve": curve, "rows": rows}


def units(args: argparse.Namespace) -> dict[tuple[str, int], Unit]:
    """Every (method, seed) unit: read from ``OUT/units/`` when ``--resume`` finds it made with the same settings,
    else run, ``--jobs`` at a time (each in its own process, one torch thread), and saved there as it ends."""
    folder = args.out / "units"
    folder.mkdir(parents=True, exist_ok=True)
    settings = [args.minutes, args.hand_pairs, args.game_pairs, args.seeds, args.quick, list(OPPONENTS)]
    done: dict[tuple[str, int], Unit] = {}
    todo = []
    for method in METHODS:
        for seed in range(1, args.seeds + 1):
            path = folder / f"{method}-{seed}.json"
            if args.resume and path.exists() and (saved := json.loads(path.read_text()))["settings"] == settings:
                done[method, seed] = saved
            else:
                todo.append((method, seed))
    call = (args.minutes, args.hand_pairs, args.game_pairs, args.seeds, args.quick)

    def keep(key: tuple[str, int], result: Unit) -> None:
        done[key] = {"settings": settings, "commit": measuring.commit(), **result}
        (folder / f"{key[0]}-{key[1]}.json").write_text(json.dumps(done[key]))

    if args.jobs <= 1:
        for key in todo:
            keep(key, unit(*key, *call))
    else:
        with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            running = {pool.submit(unit, *key, *call): key for key in todo}
            for future in as_completed(running):
                keep(running[future], future.result())
    return done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a tiny budget (the suite's run)")
    ap.add_argument("--minutes", type=float, default=2.0, help="training CPU minutes per method and seed")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--hand-pairs", type=int, default=1002, help="paired hands per method and opponent (all seeds)")
    ap.add_argument("--game-pairs", type=int, default=102, help="paired games per method and opponent (all seeds)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "baselines")
    ap.add_argument("--doc", type=Path, default=ROOT / "docs" / "baselines.md")
    ap.add_argument("--jobs", type=int, default=1, help="methods and seeds trained and evaluated at once (processes)")
    ap.add_argument("--resume", action="store_true", help="keep the units OUT/units/ holds from a run of the same "
                    "settings (a run stopped part way goes on where it stopped)")  # fmt: skip
    args = ap.parse_args(argv)
    if args.quick:
        args.minutes, args.seeds, args.hand_pairs, args.game_pairs = 0.015, 1, 2, 1
        TARGET[0], GAME_STEPS[0] = 10, 500
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    curves: dict[str, list[Curve]] = {}
    table: list[str] = []
    wall = time.time()
    done = units(args)
    for method in METHODS:
        rows: dict[str, list[tuple[float, float]]] = {f"{b} {e}": [] for b in OPPONENTS for e in ("hands", "games")}
        for seed in range(1, args.seeds + 1):
            curves.setdefault(method, []).append([tuple(c) for c in done[method, seed]["curve"]])
            for key, pairs_of in done[method, seed]["rows"].items():
                rows[key] += [tuple(r) for r in pairs_of]
        steps = int(np.mean([c[-1][1] for c in curves[method]]))
        for b in OPPONENTS:
            hands, games = rows[f"{b} hands"], rows[f"{b} games"]
            points_per_hand = float(np.mean([h[1] for h in hands]))
            table.append(f"| {method} | {b} | {cell(hands)} | {points_per_hand:+.1f} | {cell(games)} | {steps:,} |")
    iterations = 2 if args.quick else 300
    spiel = [mccfr(seed, iterations, 1 if args.quick else 3) for seed in range(1, args.seeds + 1)]
    paths = plot(curves, spiel, args.out)
    write_doc(args, table, spiel, paths, time.time() - wall, done)
    print(f"wrote {args.doc} and {', '.join(str(p) for p in paths)}")
    return 0


def write_doc(args: argparse.Namespace, table: list[str], spiel: list[list[tuple[int, float]]], paths: list[Path],
              wall: float, done: dict[tuple[str, int], Unit]) -> None:  # fmt: skip
    command = "tools/research/baselines.py " + (
        "--quick"
        if args.quick
        else f"--minutes {args.minutes:g} --seeds {args.seeds} --hand-pairs {args.hand_pairs} "
        f"--game-pairs {args.game_pairs}"
    )
    if args.jobs > 1:
        command += f" --jobs {args.jobs}"
    processes = "one process" if args.jobs <= 1 else f"{args.jobs} processes at once"
    made = sorted({f"{m} at {u.get('commit') or 'an unrecorded commit'}" for (m, _), u in done.items()})
    commit = f"; the units made {', '.join(made)}" if made else ""
    levels = [b for b in SEARCH_LEVELS if b in BOT_NAMES]
    search = f"`{OPPONENTS[-1]}`" if levels else "none: no search-bot level is in `BOT_NAMES` on this branch"
    lines = [
        "# Baselines",
        "",
        f"Command: `nice -n 10 .venv/bin/python {command}` — {processes}, one torch thread each. Budget: "
        f"{args.minutes:g} CPU minutes of training per method and seed, {args.seeds} training seeds "
        f"({2 * args.minutes * args.seeds:g} CPU minutes of training in all; evaluation and plots on top, "
        f"{wall / 60:.0f} minutes of wall time for this invocation, units kept by `--resume` not counted{commit}). "
        f"Machine: {platform.machine()}, "
        f"{platform.python_implementation()} {platform.python_version()}, torch {torch.__version__}, a shared "
        "2-core machine. Evaluation on seeds disjoint from training (10⁹ + 10⁶ and up), standard rules; the win "
        "rate is over paired hands (the same deal with the seats swapped, a dead hand a half) and paired games "
        f"to {TARGET[0]}, with a 95% interval over the pairs of all training seeds; points are per hand, the "
        f"learner's. Search-bot level: {search}.",
        *(
            []
            if args.hand_pairs >= 1000 and args.game_pairs >= 100
            else [
                "",
                f"**A small run**: {args.hand_pairs} paired hands and {args.game_pairs} paired games per method and "
                "opponent, below the sizes the baselines are meant to have (1,000 paired hands, 200 games); the "
                "default sizes of the command give those.",
            ]
        ),
        "",
        "`n` counts seed pairs (two hands or two games each), over the training seeds together; `steps` is the "
        "mean number of the learner's training steps; the learning curves evaluate 10 paired hands a point.",
        "",
        "| method | opponent | paired hands: win rate [95%] | points / hand | paired games: win rate [95%] | steps |",
        "|---|---|---|---|---|---|",
        *table,
        "",
        "OpenSpiel's external-sampling MCCFR on `python_knock_gin` (3 ranks x 2 suits, one card each, one pickup "
        "in a row: perfect-recall information states), NashConv by iterations, per seed (the uniform policy: "
        "4.758):",
        "",
        *(f"- seed {i + 1}: " + ", ".join(f"{k}: {v:.3f}" for k, v in run) for i, run in enumerate(spiel)),
        "",
        *(f"![{p.stem}]({p.relative_to(args.doc.parent) if p.is_relative_to(args.doc.parent) else p})" for p in paths),
        "",
    ]
    args.doc.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
