"""Claim windows and the races they hold (SPEC §9.2).

While a seat is due to act, the engine's claimants may send a claim instead; the hub's order
decides which envelope the chain holds, and the one that came second lost the race: harmless,
refused everywhere with the rule ``lost-race``. :class:`ClaimWindows` remembers, for every
chain index accepted while a window was open, who could have spoken there.
"""

from __future__ import annotations

from ..wire import Chain, Payload


class ClaimWindows(dict[int, tuple[frozenset[int], bytes]]):
    """Chain index -> (seats that could speak there, the ``prev`` hash) for every index
    accepted while a claim window was open."""

    def lost_race(self, payload: Payload, table_id: bytes, chain: Chain) -> bool:
        """Whether ``payload`` is an eligible seat's message for a chain index of a window that
        another eligible seat's envelope took first (a later envelope that lost the race)."""
        window = self.get(payload.seq)
        if window is None or payload.table_id != table_id:
            return False
        seats, prev = window
        return (payload.seat in seats and payload.prev == prev
                and payload.seat != chain.seat_of(payload.seq))
