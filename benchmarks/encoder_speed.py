"""The environment's observation encoder alone, on real sequences of decisions, against the
encoder of an earlier commit loaded beside it.

Run from the repository root::

    python benchmarks/encoder_speed.py [--baseline REV] [--decisions N] [--passes P]
                                       [--games burraco rumino] [--only new|old|none]

(needs the ``rl`` extra). For every game and every player count of its default preset, the
benchmark plays ``N`` decisions of ``raw_env`` with env_speed's random policy and records the
acting seat's observation dict and seat at each one: real sequences, in which a seat's
decisions follow one another as in the environment (timing one observation again and again
would flatter any memo). Then it encodes that sequence, in order, with the current code's
``ObservationEncoder.encode`` and with that of commit ``REV`` (its ``env.py`` loaded as a
module of this package), alternating ``P`` passes of each (which goes first alternates too),
each pass with a new encoder (so what an encoder keeps between calls starts empty, as in a
new environment), and prints the median CPU microseconds per vector of both and their ratio.
Every vector of both is compared bit for bit first: a difference is an error.

With ``--only new`` (or ``old``, or ``none`` for neither) it records the sequences and runs
``P`` passes of that encoder alone, printing nothing but a count: for counting instructions
with ``valgrind --tool=cachegrind``, which the machine's load does not change (the count of
``none`` is the recording's, to subtract).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BASELINE_REF = "dedb3af"
"""The commit the encoder is compared with by default."""


def record(game: str, players: int, decisions: int) -> tuple[Any, list[tuple[Any, int]]]:
    """The environment's layout and ``decisions`` (observation, seat) pairs of the acting seat,
    from env_speed's loop (a random index among the legal actions, seeds 0, 1, ...)."""
    from p2pcards.offline.env import raw_env

    e = raw_env(game, players)
    rng = random.Random(0)
    seed = 0
    e.reset(seed=seed)
    out: list[tuple[Any, int]] = []
    while len(out) < decisions:
        _, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            if not e.agents:
                seed += 1
                e.reset(seed=seed)
            continue
        out.append((info["observation"], e.possible_agents.index(e.agent_selection)))
        e.step(rng.randrange(len(info["legal_actions"])))
    return e, out


def load_baseline(rev: str, into: Path) -> ModuleType:
    """Commit ``rev``'s ``p2pcards/offline/env.py``, loaded as a module of this package."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:p2pcards/offline/env.py"],
                          check=True, capture_output=True, text=True).stdout
    path = into / "env_baseline.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("p2pcards.offline.env_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def one_pass(make: Any, sequence: list[tuple[Any, int]]) -> float:
    """CPU microseconds per vector of one pass of a new encoder over the sequence."""
    encoder = make()
    encode = encoder.encode
    clock = time.process_time
    start = clock()
    for observation, seat in sequence:
        encode(observation, seat)
    return (clock() - start) / len(sequence) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default=BASELINE_REF)
    parser.add_argument("--decisions", type=int, default=1500)
    parser.add_argument("--passes", type=int, default=9)
    parser.add_argument("--games", nargs="*")
    parser.add_argument("--only", choices=["new", "old", "none"])
    args = parser.parse_args()
    from p2pcards.games import all_games
    from p2pcards.offline.env import ObservationEncoder

    with tempfile.TemporaryDirectory() as tmp:
        old_module = load_baseline(args.baseline, Path(tmp))
    print(f"baseline: {args.baseline}; {args.decisions} decisions per row, {args.passes} passes"
          f" of each encoder, CPU time (time.process_time)")
    print(f"{'game':<14}{'players':>8}{'new us':>9}{'old us':>9}{'new/old':>9}")
    ratios: list[float] = []
    for spec in all_games():
        if args.games and spec.name not in args.games:
            continue
        for players in spec.preset_players(spec.default_preset):
            e, sequence = record(spec.name, players, args.decisions)
            listed = e._encoder.listed
            layout = e.layout
            old_layout = old_module.ObservationLayout(**vars(layout))

            new = functools.partial(ObservationEncoder, layout, listed)
            old = functools.partial(old_module.ObservationEncoder, old_layout, listed)
            if args.only:
                for _ in range(args.passes if args.only != "none" else 0):
                    one_pass(new if args.only == "new" else old, sequence)
                print(f"{spec.name} {players}: {len(sequence)} decisions", flush=True)
                continue
            fresh_new, fresh_old = new(), old()
            for observation, seat in sequence:
                if (fresh_new.encode(observation, seat).tobytes()
                        != fresh_old.encode(observation, seat).tobytes()):
                    raise SystemExit(f"{spec.name} {players}: the vectors differ")
            times: dict[str, list[float]] = {"new": [], "old": []}
            for round_ in range(args.passes):  # alternating which goes first
                order = ("new", "old") if round_ % 2 == 0 else ("old", "new")
                for which in order:
                    times[which].append(one_pass(new if which == "new" else old, sequence))
            new_us, old_us = statistics.median(times["new"]), statistics.median(times["old"])
            ratios.append(new_us / old_us)
            print(f"{spec.name:<14}{players:>8}{new_us:>9.1f}{old_us:>9.1f}{new_us / old_us:>9.2f}",
                  flush=True)
    if ratios:
        print(f"geometric mean of new/old: {statistics.geometric_mean(ratios):.2f}")


if __name__ == "__main__":
    main()
