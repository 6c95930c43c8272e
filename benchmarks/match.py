"""Wall time of ``p2pcards demo`` against the same match played in memory, printed as a table.

Run: ``python benchmarks/match.py [--game scopa] [--players 2 4] [--seeds 1 2 3]``.

For each player count and seed, the seeded demo (every seat a separate process, real loopback
TCP, the host forwarding every envelope, every peer writing its transcript) plays exactly the
match that :func:`p2pcards.local.run_in_memory` plays in one process with the same seed: same
genesis, same shuffles, same moves, same envelopes (``tests/test_demo.py`` checks this). The
ratio ``demo / in memory`` is what the processes, sockets, framing, forwarding and transcripts
cost; the target is below 1.30. The demo's own figure ("match wall time") runs from starting
the host process to the exit of the last process, so it includes interpreter start-up and the
handshake; the verification that follows is timed separately and excluded. "play s" is the part
from the host's "every seat is taken" line to its "match over" line: the network match proper,
without interpreter start-up.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from p2pcards.bots import make_bot
from p2pcards.local import make_tables, run_in_memory
from p2pcards.net.seats import bot_seed

_WALL = re.compile(r"match wall time ([\d.]+) s .*of which play ([\d.]+) s")


def demo_seconds(game: str, players: int, seed: int, home: str) -> tuple[float, float]:
    """The demo's reported match wall time (processes + handshake + play) and play time."""
    env = dict(os.environ, P2PCARDS_HOME=home)
    done = subprocess.run(
        [sys.executable, "-m", "p2pcards", "demo", "--game", game, "--players", str(players),
         "--seed", str(seed)], env=env, capture_output=True, text=True, check=False)
    found = _WALL.search(done.stdout)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"demo failed ({done.returncode}): {done.stdout}{done.stderr}")
    return float(found[1]), float(found[2])


def memory_seconds(game: str, players: int, seed: int) -> tuple[float, int]:
    """Seconds to set up and play the same match in one process, and its envelope count."""
    started = time.perf_counter()
    genesis, tables = make_tables(game, "", players, seed=seed)
    bots = [make_bot(game, "smart", bot_seed(i, seed)) for i in range(players)]
    run = run_in_memory(genesis, tables, bots)
    return time.perf_counter() - started, len(run.frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="scopa")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    print(f"{args.game}: p2pcards demo (one process per seat, loopback TCP) vs in memory, "
          f"seeds {args.seeds}, {os.cpu_count()} CPU(s)")
    print(f"{'players':>7} {'seed':>4} {'envelopes':>9} {'in memory s':>11} {'demo s':>7} "
          f"{'ratio':>6} {'play s':>7} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as home:
        for players in args.players:
            ratios, play_ratios = [], []
            for seed in args.seeds:
                memory, envelopes = memory_seconds(args.game, players, seed)
                demo, play = demo_seconds(args.game, players, seed, home)
                ratios.append(demo / memory)
                play_ratios.append(play / memory)
                print(f"{players:>7} {seed:>4} {envelopes:>9} {memory:>11.2f} {demo:>7.2f} "
                      f"{demo / memory:>6.2f} {play:>7.2f} {play / memory:>6.2f}")
            ratio = statistics.median(ratios)
            verdict = "within" if ratio < 1.30 else "ABOVE"
            print(f"{players:>7} median ratio {ratio:.2f} ({verdict} the 1.30 target); "
                  f"play only {statistics.median(play_ratios):.2f}")


if __name__ == "__main__":
    main()
