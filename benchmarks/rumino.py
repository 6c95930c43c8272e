"""Rumino at a 6-seat table, in memory: the cost of a hand's shuffle phase and of a turn.

Run: ``python benchmarks/rumino.py [--players 6] [--hands 2] [--seed 1]``.

Every seat is a :class:`p2pcards.table.Table` in this one process, with full mental poker, driven
like :func:`p2pcards.offline.memory.run_in_memory`: each envelope is delivered to every other table
in chain order. The time to deliver an envelope (every receiving table checking it, and the replies
it triggers being produced) is charged to that envelope's kind. Printed per hand:

- ``shuffle phase``: the ``key`` and ``shuffle`` rounds of the 108-card deck (each seat's shuffle
  proof made once and checked by every other seat);
- ``deal``: the first ``tokens`` round (every seat's tokens for the 7 × seats cards and the upcard);
- ``turn``: the mean time of one turn, its ``action`` envelopes (draw, discard) and, after a
  draw from the stock, the ``tokens`` round dealing that card to the drawer (one token from each
  other seat); the number of turns is shown;
- ``end``: the key reveal, the full replay and the signed results.

Times are CPU seconds of this process (``time.process_time``), so a loaded machine does not
inflate them. One process does the work of all seats one after the other, so these are the summed
CPU costs of the table; over a network the seats check each message at the same time, and a
seat's own share is about this divided by the number of seats.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict, deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from p2pcards.bots import make_bot  # noqa: E402
from p2pcards.offline.memory import make_tables  # noqa: E402
from p2pcards.table import HandScored  # noqa: E402
from p2pcards.wire import PublicIdentity, open_envelope  # noqa: E402


def measure(players: int, hands: int, seed: int) -> list[dict[str, float]]:
    """Per hand: seconds by phase, and the number of turns."""
    genesis, tables = make_tables("rumino", "classic", players, seed=seed)
    keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
    bots = [make_bot("rumino", "smart", seed * 10 + i) for i in range(players)]
    queue: deque[tuple[int, bytes]] = deque()
    for i, table in enumerate(tables):
        queue.extend((i, data) for data in table.start().outgoing)
    out: list[dict[str, float]] = []
    spent: dict[str, float] = defaultdict(float)
    dealt = False
    while len(out) < hands and not all(t.finished for t in tables):
        if not queue:
            i = next(i for i, t in enumerate(tables) if t.needs_decision)
            started = time.process_time()
            action = bots[i].choose(tables[i].observation(), tables[i].legal_actions())
            queue.extend((i, data) for data in tables[i].decide(action).outgoing)
            spent["turn"] += time.process_time() - started
            if action.kind == "draw":
                spent["turns"] += 1
            continue
        sender, data = queue.popleft()
        _, payload = open_envelope(data, keys)
        started = time.process_time()
        scored = False
        for i, table in enumerate(tables):
            if i == sender and table.proposal != data:   # a proposal comes back to its sender
                continue
            step = table.receive(data)
            queue.extend((i, reply) for reply in step.outgoing)
            # seat 0 scores a hand when the last seat's result arrives (once per hand)
            scored = scored or (i == 0 and any(isinstance(e, HandScored) for e in step.events))
        elapsed = time.process_time() - started
        if payload.kind in ("key", "shuffle"):
            spent["shuffle phase"] += elapsed
            dealt = False
        elif payload.kind == "tokens" and not dealt:
            spent["deal"] += elapsed
        elif payload.kind in ("tokens", "action"):
            dealt = True
            spent["turn"] += elapsed
        else:
            spent["end"] += elapsed
        if payload.kind == "action":
            dealt = True
        if scored:
            out.append(dict(spent))
            spent.clear()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = measure(args.players, args.hands, args.seed)
    print(f"rumino, {args.players} seats, in memory (all seats' work in one process)")
    print("hand  shuffle phase s  deal s  turns  s/turn  end s")
    for n, row in enumerate(rows, 1):
        turns = int(row.get("turns", 0))
        per_turn = row.get("turn", 0.0) / turns if turns else 0.0
        print(f"{n:>4}  {row.get('shuffle phase', 0.0):>15.2f}  {row.get('deal', 0.0):>6.2f}  "
              f"{turns:>5}  {per_turn:>6.3f}  {row.get('end', 0.0):>5.2f}")


if __name__ == "__main__":
    main()
