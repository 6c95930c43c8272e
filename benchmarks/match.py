"""Wall time of ``p2pcards demo`` against the same match played in memory, printed as a table.

Run: ``python benchmarks/match.py [--game scopa] [--players 2 4] [--seeds 1 2 3] [--no-spawn]``.

For each player count and seed, the seeded demo (every seat a separate OS process, real loopback
TCP, the host forwarding every envelope, every peer writing its transcript) plays exactly the
match that :func:`p2pcards.offline.memory.run_in_memory` plays in one process with the same seed:
same genesis, same shuffles, same moves, same envelopes (``tests/test_demo.py`` checks this). The
ratio ``demo / in memory`` is what the processes, sockets, framing, forwarding and transcripts
cost; the target is below 1.30.

"demo s" is the demo's own figure ("match wall time"): from the moment the demo starts the peer
processes to the exit of the last one, so it holds the seating handshake, the match and every
process's exit; the verification that follows is timed separately and excluded. Where it can
(POSIX but macOS), the demo forks its peers from itself after importing the code they run, so
the figure holds no interpreter start-up and no imports, just as "in memory s" (the match's
set-up and play, timed after this script has imported everything and warmed up) holds none.
"play s" is the part from the host's "every seat is taken" line to its "match over" line, the
network match proper. "spawned s" is the demo's figure when its peers are started as ``python
-m p2pcards host|join`` instead (``P2PCARDS_DEMO_START=spawn``, the fallback where there is no
fork): that one also pays for every peer's interpreter start-up and imports (run in parallel).
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from p2pcards.bots import make_bot  # noqa: E402
from p2pcards.net.seats import bot_seed  # noqa: E402
from p2pcards.offline.memory import make_tables, run_in_memory  # noqa: E402

_WALL = re.compile(r"match wall time ([\d.]+) s .*of which play ([\d.]+) s")
_HOW = re.compile(r"each in its own process \(([^)]*)\)")
TARGET = 1.30


def demo_seconds(game: str, players: int, seed: int, home: str,
                 start: str = "auto") -> tuple[float, float, str]:
    """The demo's match wall time and play time, and how its peers started."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, P2PCARDS_HOME=home, P2PCARDS_DEMO_START=start, PYTHONPATH=path)
    done = subprocess.run(
        [sys.executable, "-m", "p2pcards", "demo", "--game", game, "--players", str(players),
         "--seed", str(seed)], env=env, capture_output=True, text=True, check=False)
    found, how = _WALL.search(done.stdout), _HOW.search(done.stdout)
    if done.returncode != 0 or found is None or how is None:
        raise SystemExit(f"demo failed ({done.returncode}): {done.stdout}{done.stderr}")
    return float(found[1]), float(found[2]), how[1]


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
    parser.add_argument("--spawn", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the demo with spawned peers (default: yes)")
    args = parser.parse_args()
    for players in args.players:  # warm-up: first-use imports stay out of the in-memory figure
        make_tables(args.game, "", players, seed=0)
    print(f"{args.game}: p2pcards demo (one process per seat, loopback TCP) vs in memory, "
          f"seeds {args.seeds}, {os.cpu_count()} CPU(s)")
    print(f"{'players':>7} {'seed':>4} {'envelopes':>9} {'in memory s':>11} {'demo s':>7} "
          f"{'ratio':>6} {'play s':>7} {'ratio':>6}"
          + (f" {'spawned s':>9} {'ratio':>6}" if args.spawn else ""))
    methods: set[str] = set()
    with tempfile.TemporaryDirectory() as home:
        for players in args.players:
            ratios, play_ratios, spawn_ratios = [], [], []
            for seed in args.seeds:
                memory, envelopes = memory_seconds(args.game, players, seed)
                demo, play, how = demo_seconds(args.game, players, seed, home)
                methods.add(how)
                ratios.append(demo / memory)
                play_ratios.append(play / memory)
                row = (f"{players:>7} {seed:>4} {envelopes:>9} {memory:>11.2f} {demo:>7.2f} "
                       f"{demo / memory:>6.2f} {play:>7.2f} {play / memory:>6.2f}")
                if args.spawn:
                    spawned = demo_seconds(args.game, players, seed, home, "spawn")[0]
                    spawn_ratios.append(spawned / memory)
                    row += f" {spawned:>9.2f} {spawned / memory:>6.2f}"
                print(row, flush=True)
            ratio = statistics.median(ratios)
            verdict = "within" if ratio < TARGET else "ABOVE"
            tail = (f"; spawned peers {statistics.median(spawn_ratios):.2f}"
                    if spawn_ratios else "")
            print(f"{players:>7} median ratio {ratio:.2f} ({verdict} the {TARGET:.2f} target); "
                  f"play only {statistics.median(play_ratios):.2f}{tail}")
    print(f"demo peers: {', '.join(sorted(methods))}")


if __name__ == "__main__":
    main()
