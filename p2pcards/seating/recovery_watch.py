"""A seat's own check of a recovery of itself (SPEC §9.13.5): was it begun while the seat was
connected and answering?

Only the hub begins a recovery, and only when its own liveness and timers say that the awaited
seat is gone or past its time (SPEC §9.13.5, §11.7.1). No other seat can check that word: the
transcript cannot prove a silence. The seat itself can, in part: if the hub's first ``recover``
naming it arrives on the very connection that was live when its turn began, well before its own
limit ran out by its own clock, the seat was there to answer and the hub began the recovery of
a live seat. The seat then says so, naming the hub, and stops (the session does that).

This module is pure: the caller gives the times (its own clock's readings, in seconds) and an
object that stands for the connection; it never reads a clock.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .genesis import Genesis

__all__ = ["SLACK_SECONDS", "Turn", "answered_message", "turn_limit", "wrongful_elapsed",
           "wrongful_message"]

SLACK_SECONDS = 12.0
"""How much sooner than its limit a seat's own clock may see a recovery of itself without
calling it wrongful: the envelope that opened its turn reached it later than the hub accepted
it, so the seat's clock starts late. It is the silence after which a connection is dead (SPEC
§11.7.1): a link that stays live delivers what the hub sends sooner than that."""


@dataclass(frozen=True)
class Turn:
    """The local ``seat``'s turn to send its ``kind`` message at chain ``position``: it began
    at ``began`` (this peer's clock) while ``connection`` was the live connection to the hub
    (``None``: there was none, the seat was away)."""

    seat: int
    kind: str
    position: int
    began: float
    connection: object | None


def turn_limit(genesis: Genesis, kind: str, seat: int, bots: Collection[int]) -> int:
    """The seconds the hub waits for ``seat``'s ``kind`` message (SPEC §9.10): the ``action``
    limit for a person's action, the ``step`` limit for anything else and for a bot's action
    (``bots``: the seats the host announced as bots)."""
    person = kind == "action" and seat not in bots
    return genesis.timeouts["action" if person else "step"]


def wrongful_elapsed(turn: Turn | None, *, seat: int, position: int, now: float, limit: float,
                     connection: object) -> float | None:
    """The seconds ``turn`` had run when the hub's ``recover`` naming ``seat`` at chain
    ``position`` arrived at ``now`` through ``connection``, if that recovery was begun while
    the seat was connected and answering; ``None`` when the hub may have been right.

    Wrongful means all of: ``turn`` is that seat's turn at that position; the connection that
    was live when it began is the one that delivered the ``recover`` (it never went down in
    between: a new connection means the seat was away); and less than ``limit`` minus
    :data:`SLACK_SECONDS` had passed on this peer's clock."""
    if turn is None or (turn.seat, turn.position) != (seat, position):
        return None
    if turn.connection is None or turn.connection is not connection:
        return None
    elapsed = max(0.0, now - turn.began)
    return elapsed if elapsed < limit - SLACK_SECONDS else None


def wrongful_message(hub: str, turn: Turn, elapsed: float, limit: float) -> str:
    """The one sentence a seat says when the hub (``hub``: its label, e.g. ``seat 0 Alice
    (ABCD-...)``) began a recovery of it while it was answering."""
    return (f"the hub ({hub}) began a recovery of this seat while it was connected and "
            f"answering: its {turn.kind!r} message at envelope {turn.position} was due for "
            f"{elapsed:.0f} of its {limit:g} seconds and its connection never went down; the "
            "match is compromised for this seat, which stops here with its transcript ending "
            "at the hub's recover")


def answered_message(hub: str, position: int) -> str:
    """The one sentence a seat says when the hub's ``recover`` of it claims chain ``position``,
    where the seat's own envelope already is: it had answered."""
    return (f"the hub ({hub}) began a recovery of this seat after it had answered: envelope "
            f"{position} is this seat's own message, and the hub's recover claims that place "
            "(kept as evidence); the match is compromised for this seat, which stops here")
