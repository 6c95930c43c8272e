"""Setting up tables and running whole matches in memory (no sockets).

:func:`make_genesis` makes the agreed table (a seat's secrets come from
:func:`p2pcards.seating.secrets.new_seat`);
:func:`run_in_memory` routes every envelope from each peer to every other peer, as a hub would,
asking bots for decisions. Used by the tests, the benchmarks and the in-process demo parts.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import Bot, choose_claim
from ..crypto import DeterministicRandomness, Randomness, SystemRandomness
from ..games import get_game
from ..seating.genesis import DEFAULT_TIMEOUTS, Genesis, SeatInfo
from ..seating.secrets import new_seat
from ..table import Event, Table, Violation

__all__ = ["make_genesis", "make_tables", "run_in_memory", "MatchRun"]


def make_genesis(game: str, preset: str, seats: Sequence[SeatInfo],
                 flags: Mapping[str, object] | None = None,
                 timeouts: Mapping[str, int] | None = None,
                 dropout: str | None = None) -> Genesis:
    """The genesis of a table of ``game`` with preset ``preset`` and these seats in order
    (``dropout``: the genesis dropout policy, SPEC §9.13)."""
    spec = get_game(game)
    preset = preset or spec.default_preset
    config = spec.preset(preset, players=len(seats), **dict(flags or {}))
    return Genesis(spec.name, preset, config.to_wire(), tuple(seats),
                   dict(timeouts or DEFAULT_TIMEOUTS), dropout=dropout)


def make_tables(game: str, preset: str, players: int, seed: int | None = None,
                flags: Mapping[str, object] | None = None,
                dropout: str | None = None) -> tuple[Genesis, list[Table]]:
    """A genesis and one seated :class:`Table` per seat; deterministic when ``seed`` is given."""
    def rng_for(i: int) -> Randomness:
        if seed is None:
            return SystemRandomness()
        return DeterministicRandomness(f"p2pcards-local-{seed}-{i}".encode())

    secrets = [new_seat(rng_for(i)) for i in range(players)]
    genesis = make_genesis(game, preset, [s.info(f"seat{i}") for i, s in enumerate(secrets)],
                           flags, dropout=dropout)
    tables = [
        Table(genesis, seat=i, identity=s.identity, x25519_private=s.x25519_private,
              rng=rng_for(100 + i) if seed is not None else SystemRandomness())
        for i, s in enumerate(secrets)
    ]
    return genesis, tables


@dataclass
class MatchRun:
    """What :func:`run_in_memory` produced."""

    genesis: Genesis
    tables: list[Table]
    frames: list[bytes]
    events: list[list[Event]] = field(default_factory=list)

    @property
    def match_scores(self) -> tuple[int, ...]:
        return tuple(self.tables[0].engine.match_scores)

    @property
    def winner(self) -> int | None:
        return self.tables[0].engine.winner


def run_in_memory(genesis: Genesis, tables: Sequence[Table], bots: Sequence[Bot],
                  max_messages: int = 1_000_000) -> MatchRun:
    """Run the match to its end, delivering each envelope to every other table in order.

    The queue plays the hub: its order is the chain order. A claim-window proposal
    (:attr:`Table.proposal`) goes to its sender's table too, which accepts it then; one that lost
    the race (``lost-race``) is dropped by every table. Bots are offered each claim window once
    (:func:`~p2pcards.bots.base.choose_claim`) before the expected seat decides.
    """
    queue: deque[tuple[int, bytes]] = deque()
    events: list[list[Any]] = [[] for _ in tables]
    for i, table in enumerate(tables):
        step = table.start()
        events[i].extend(step.events)
        queue.extend((i, data) for data in step.outgoing)
    delivered = 0
    offered: set[tuple[int, int]] = set()
    while not all(t.finished for t in tables):
        if queue:
            sender, data = queue.popleft()
            delivered += 1
            if delivered > max_messages:
                raise RuntimeError("the match did not end within the message budget")
            for i, table in enumerate(tables):
                if i != sender or (table.proposal is not None and table.proposal == data):
                    try:
                        step = table.receive(data)
                    except Violation as exc:
                        if exc.rule == "lost-race":
                            continue
                        raise
                    events[i].extend(step.events)
                    queue.extend((i, out) for out in step.outgoing)
            continue
        claimed = False
        for i, table in enumerate(tables):
            key = (i, table.chain.next_seq)
            claims = table.claim_actions()
            if claims and key not in offered:
                offered.add(key)
                choice = choose_claim(bots[i], table.observation(), claims)
                if choice is not None:
                    step = table.claim(choice)
                    events[i].extend(step.events)
                    queue.extend((i, out) for out in step.outgoing)
                    claimed = True
        deciding = [i for i, t in enumerate(tables) if t.needs_decision]
        if not deciding:
            if claimed:
                continue
            raise RuntimeError("no table can make progress (protocol stuck)")
        i = deciding[0]
        table = tables[i]
        action = bots[i].choose(table.observation(), table.legal_actions())
        step = table.decide(action)
        events[i].extend(step.events)
        queue.extend((i, out) for out in step.outgoing)
    return MatchRun(genesis, list(tables), list(tables[0].frames), events)


def seed_bytes() -> bytes:
    """32 fresh random bytes (a table nonce)."""
    return os.urandom(32)
