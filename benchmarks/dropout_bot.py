"""What the public bot of ``--dropout bot`` costs each table, against the match it plays in.

Run: ``python benchmarks/dropout_bot.py [--games scopa:3,burraco:4,...] [--seed N]``. For each
game an in-memory match of real tables (every seat's table, real cryptography) is played with
the ``bot`` dropout policy; seat 1 falls silent at its first move and seat 0 begins its
recovery, so that the public bot plays seat 1 for the rest of the match. Every table computes
each of the bot's moves itself (SPEC §9.13.7): it replays the deck's play so far with the public
cards (``Table._view``), asks the game's rule-of-thumb bot and locates the cards. The script
times that work at every table (``Table._bot_move``) against the whole match's time at all
tables, in the same run, and prints the share and the time per bot move.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from attacks import Driver  # noqa: E402  (the in-memory match driver of the test suite)

from p2pcards.table import Table  # noqa: E402


def measure(game: str, players: int, seed: int) -> tuple[float, float, int]:
    """(seconds in the bot's moves at every table, seconds of the whole match, bot moves)."""
    spent = [0.0]
    moves = [0]
    original = Table._bot_move

    def timed(self: Table, cycle: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return original(self, cycle)
        finally:
            spent[0] += time.perf_counter() - t0
            if self.seat == 0:
                moves[0] += 1

    Table._bot_move = timed  # type: ignore[method-assign]
    try:
        t0 = time.perf_counter()
        driver = Driver.new(game, "classic", players, seed=seed, dropout="bot")
        driver.run_until(lambda d: d.expected() == (1, "action"))
        driver.detach(1)
        driver.silent.add(1)
        driver.recover(0, 1)
        driver.run_out()
        total = time.perf_counter() - t0
    finally:
        Table._bot_move = original  # type: ignore[method-assign]
    if driver.violations or not driver.tables[0].finished:
        raise SystemExit(f"{game}: the match did not end cleanly: {driver.violations}")
    return spent[0], total, moves[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="scopa:3,briscola:4,calabrasella:3,burraco:4")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<16}{'seats':>6}{'bot moves':>11}{'per move, per table':>22}"
          f"{'share of match':>16}")
    for item in args.games.split(","):
        game, seats = item.split(":")
        spent, total, moves = measure(game, int(seats), args.seed)
        tables = int(seats) - 1  # the silent seat's table is not driven
        per_move = spent / max(moves, 1) / tables
        print(f"{game:<16}{seats:>6}{moves:>11}{per_move * 1000:>19.1f} ms"
              f"{100 * spent / total:>15.1f}%")


if __name__ == "__main__":
    main()
