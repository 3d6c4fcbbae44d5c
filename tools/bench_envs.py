#!/usr/bin/env python3
"""Environment steps per second, side by side: Knock's PettingZoo AEC environment, PettingZoo's RLCard-backed
``gin_rummy_v4`` and OpenSpiel's ``gin_rummy`` through its Python API, in one run.

    .venv/bin/python tools/bench_envs.py --setup        # once: .venv-pz with pettingzoo[classic]==1.26.1
    .venv/bin/python tools/bench_envs.py [--repeats 7] [--steps 4000]
    .venv/bin/python tools/bench_envs.py --baseline main  # and Knock at another revision, in the same run

A step is what a learner's loop does for one move: read the acting agent's observation and action mask,
pick a legal action uniformly at random (one ``random.Random``, the same code for all three), and apply it;
episodes are reset when they end. Each environment runs with its framework's default wrappers: Knock's
``aec_env`` (``knock.envs.aec.OrderEnforcing``: PettingZoo's ``OrderEnforcingWrapper``, its checks, reading the
environment directly at each step), ``gin_rummy_v4.env()`` (``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper`` and ``TerminateIllegalWrapper``); OpenSpiel's state is driven directly
(``observation_tensor``, ``legal_actions_mask``, ``legal_actions``, ``apply_action``; chance nodes sampled, not
counted as steps).
PettingZoo 1.26.1 is the last release with ``gin_rummy_v4``; it needs pygame and RLCard, so it lives in its own
virtual environment (``.venv-pz``) and runs in a subprocess of this script (``--pz-worker``), which times its
own runs. The three environments' runs are interleaved, so that a busy machine slows them alike.
``--baseline REV`` measures Knock at revision REV too (a temporary git worktree imported through
``PYTHONPATH``, in a worker of its own, ``--knock-worker``), its runs interleaved with the others; the line
"Knock/baseline" is the median of the per-repeat ratios (``--baseline HEAD`` is the A/A check).

The figures are medians of ``--repeats`` runs of ``--steps`` steps each, timed in the measuring thread's own
CPU time under the conditions of ``tools/measuring.py`` (one BLAS thread, this process and PettingZoo's worker
pinned to one core, both importing numpy; stated in the header, with a warning for any other busy thread); the
ratios are the medians of the ratios within each repeat (the runs of a repeat follow one another, so a busy
machine's mood cancels out of them). The line "observation encoder" times Knock's encoder
(``knock.envs.encoding``: the vector and the mask) and the engine's view it reads
(``engine.visibility.observe_bits``: ``Hand.observation`` with its cards as bitmasks) inside one more run of
the same loop, as shares of the whole step (the timers add a little to the step).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import measuring
from measuring import clock

ROOT = Path(__file__).resolve().parent.parent
PZ_VENV = ROOT / ".venv-pz"
PZ_PYTHON = PZ_VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
PZ_REQUIREMENT = "pettingzoo[classic]==1.26.1"


def aec_steps(env: Any, steps: int, seed: int) -> float:
    """Random legal play through a PettingZoo AEC environment for ``steps`` steps; steps per second."""
    import numpy as np

    rng = random.Random(seed)
    done = 0
    episode = seed
    start = clock()
    while done < steps:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            env.step(int(ids[int(rng.random() * len(ids))]))
            done += 1
            if done >= steps:
                break
    return done / (clock() - start)


def openspiel_steps(steps: int, seed: int) -> float:
    """Random legal play through OpenSpiel's gin_rummy with its observation tensor and mask; steps per second."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    done = 0
    start = clock()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            player = state.current_player()
            np.asarray(state.observation_tensor(player), np.float32)
            np.asarray(state.legal_actions_mask(player), np.int8)
            legal = state.legal_actions(player)
            state.apply_action(legal[int(rng.random() * len(legal))])
            done += 1
    return done / (clock() - start)


def knock_steps(steps: int, seed: int) -> float:
    from knock.envs import aec_env

    return aec_steps(aec_env("standard"), steps, seed)


def pz_worker(steps: int) -> None:
    """Run inside .venv-pz: PettingZoo's gin_rummy_v4, one run per line read ("run"), its rate printed."""
    import warnings

    warnings.filterwarnings("ignore")
    import pettingzoo
    import rlcard
    from pettingzoo.classic import gin_rummy_v4

    env = gin_rummy_v4.env()
    print(json.dumps({"pettingzoo": pettingzoo.__version__, "rlcard": rlcard.__version__}), flush=True)
    watch = measuring.Threads()
    for i, line in enumerate(sys.stdin):
        if line.strip() == "done":
            break
        print(aec_steps(env, steps, 1000 * i), flush=True)
    print(json.dumps(watch.report()), flush=True)


def knock_worker(steps: int) -> None:
    """Run with a baseline revision on PYTHONPATH: Knock's AEC env, one run per line read ("run"), its rate printed."""
    import knock

    print(json.dumps({"knock": str(Path(knock.__file__).resolve().parent.parent)}), flush=True)
    watch = measuring.Threads()
    for i, line in enumerate(sys.stdin):
        if line.strip() == "done":
            break
        print(knock_steps(steps, 1000 * i), flush=True)
    print(json.dumps(watch.report()), flush=True)


class Worker:
    """An environment in a process of its own (PettingZoo's in its virtual environment, or Knock at a baseline
    revision), one run at a time (so that the environments' runs interleave and a busy machine slows them
    alike)."""

    def __init__(self, cmd: list[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        self.versions = json.loads(self.stdout.readline())

    def run(self) -> float:
        self.stdin.write("run\n")
        self.stdin.flush()
        return float(self.stdout.readline())

    def close(self) -> dict[str, Any]:
        """Stop the worker; its threads' report."""
        self.stdin.write("done\n")
        self.stdin.flush()
        threads: dict[str, Any] = json.loads(self.stdout.readline())
        self.stdin.close()
        self.proc.wait()
        return threads


def encoder_share(steps: int) -> tuple[float, float, float]:
    """Knock's step time (µs) and the shares of the encoder (vector and mask) and of the engine's view it reads."""
    from engine import visibility
    from knock.envs import aec_env, encoding

    spent = {"encode": 0.0, "view": 0.0}

    def timed(fn: Callable[..., Any], key: str) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t = clock()
            out = fn(*args, **kwargs)
            spent[key] += clock() - t
            return out

        return wrapper

    encode, mask_of, observation = encoding.encode_bits, encoding.mask_of, visibility.observe_bits
    encoding.encode_bits = timed(encode, "encode")
    encoding.mask_of = timed(mask_of, "encode")
    visibility.observe_bits = timed(observation, "view")
    try:
        rate = aec_steps(aec_env("standard"), steps, 1)
    finally:
        encoding.encode_bits, encoding.mask_of, visibility.observe_bits = encode, mask_of, observation
    total = steps / rate
    return 1e6 / rate, spent["encode"] / total, spent["view"] / total


def setup() -> int:
    """Create .venv-pz with PettingZoo 1.26.1 and its classic games (RLCard, pygame)."""
    import venv

    if not PZ_PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(PZ_VENV)
    cmd = [str(PZ_PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q", PZ_REQUIREMENT]
    print("+", " ".join(cmd), flush=True)
    return subprocess.call(cmd)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", action="store_true", help=f"create {PZ_VENV.name} with {PZ_REQUIREMENT}")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--baseline", metavar="REV", help="also measure Knock at revision REV (a git worktree)")
    parser.add_argument("--pz-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--knock-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.setup:
        return setup()
    measuring.setup(pin=True)  # the workers inherit the conditions and the core
    if args.pz_worker:
        pz_worker(args.steps // 4)  # about four times slower: a run takes about as long as the others'
        return 0
    if args.knock_worker:
        knock_worker(args.steps)
        return 0
    with tempfile.TemporaryDirectory(prefix="knock-bench-envs-") as tmp:
        base: tuple[Worker, str] | None = None
        tree: Path | None = None
        if args.baseline:
            tree, short = measuring.baseline_worktree(args.baseline, Path(tmp))
            cmd = [sys.executable, str(Path(__file__).resolve()), "--knock-worker", "--steps", str(args.steps)]
            base = Worker(cmd, {**os.environ, "PYTHONPATH": str(tree)}), short
            assert base[0].versions["knock"] == str(tree.resolve()), base[0].versions  # the baseline's code
        try:
            return measure(args, base)
        finally:
            if tree is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                               capture_output=True, check=False)  # fmt: skip


def measure(args: argparse.Namespace, base: tuple[Worker, str] | None) -> int:
    """The interleaved runs and the report."""
    import numpy
    import pyspiel

    watch = measuring.Threads()

    pz: Worker | None = None
    if PZ_PYTHON.exists():
        pz = Worker([str(PZ_PYTHON), str(Path(__file__).resolve()), "--pz-worker", "--steps", str(args.steps)])
    else:
        print(f"no {PZ_VENV.name}: run `tools/bench_envs.py --setup` for PettingZoo's gin_rummy_v4", file=sys.stderr)
    runs: dict[str, list[float]] = {"knock": [], "spiel": [], "pz": [], "base": []}
    for r in range(args.repeats):  # interleaved
        runs["knock"].append(knock_steps(args.steps, 1000 * r))
        runs["spiel"].append(openspiel_steps(args.steps, 1000 * r))
        if pz is not None:
            runs["pz"].append(pz.run())
        if base is not None:
            runs["base"].append(base[0].run())
    knock, spiel = statistics.median(runs["knock"]), statistics.median(runs["spiel"])

    def paired(other: list[float]) -> float:  # the median of the ratios within each repeat
        return statistics.median(k / o for k, o in zip(runs["knock"], other, strict=True))

    step_us, enc, view = encoder_share(args.steps)
    threads: dict[str, dict[str, Any]] = {"this process (Knock, OpenSpiel)": watch.report()}
    if pz is not None:
        threads["PettingZoo's worker"] = pz.close()
    if base is not None:
        threads[f"Knock@{base[1]}'s worker"] = base[0].close()
    for label, report in threads.items():
        measuring.warn_busy(label, report["busy"])
    versions = {"OpenSpiel": measuring.version("open_spiel"), "numpy": numpy.__version__,
                "PettingZoo (Knock's)": measuring.version("pettingzoo")}  # fmt: skip
    if pz is not None:
        versions.update(
            {"PettingZoo (.venv-pz)": pz.versions["pettingzoo"], "RLCard (.venv-pz)": pz.versions["rlcard"]}
        )
    processes = "; ".join(f"{label}: {r['threads']} threads, {len(r['busy'])} busy others, numpy "
                          f"{'imported' if r['numpy'] else 'not'}" for label, r in threads.items())  # fmt: skip
    print(measuring.header(processes=f"{processes}; {measuring.pinning()}", versions=versions))
    print(f"environment steps/s, random legal play with observations and masks, medians of {args.repeats}:")
    print(f"  Knock AEC (knock.envs.aec_env)            {knock:>10,.0f}")
    if pz is not None:
        pz_rate = statistics.median(runs["pz"])
        print(f"  PettingZoo gin_rummy_v4 {pz.versions['pettingzoo']} (RLCard {pz.versions['rlcard']}) {pz_rate:>8,.0f}"
              f"   Knock/PettingZoo {paired(runs['pz']):.2f}x (target >= 5)")  # fmt: skip
    print(f"  OpenSpiel gin_rummy {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}"
          f"                 {spiel:>10,.0f}   Knock/OpenSpiel {paired(runs['spiel']):.2f}x"
          " (target >= 1.5)")  # fmt: skip
    if base is not None:
        base_rate = statistics.median(runs["base"])
        base_spiel = statistics.median(b / o for b, o in zip(runs["base"], runs["spiel"], strict=True))
        print(f"  Knock AEC at {base[1]} (--baseline)          {base_rate:>10,.0f}   Knock/baseline "
              f"{paired(runs['base']):.2f}x (baseline/OpenSpiel {base_spiel:.2f}x)")  # fmt: skip
    print(f"observation encoder: {enc:.0%} of Knock's step ({step_us:.1f} µs per step, timed);"
          f" the engine's view it reads (observe_bits): {view:.0%}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
