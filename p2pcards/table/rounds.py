"""The protocol's rounds and message kinds (SPEC §9.2-§9.8, §9.13).

A match is one linear chain of messages, one speaker at a time: a :class:`Round` is ``kind``
messages from its speakers in order. :data:`KINDS` lists every message kind; for each the
table holds one :class:`Kind` row (the transitions as data): how a received message of that kind
is checked and applied, how the local seat makes its automatic one, and what follows once the
round is complete. :func:`for_phase` says which round the engine's phase opens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..games.base import MatchState, Phase
from .cycle import DeckCycle
from .errors import Violation
from .events import Event, SeatAccepted

KINDS = ("accept", "key", "shuffle", "tokens", "action", "reveal", "result", "recover",
         "complain")
"""Every message kind of protocol version 1, in the order they first appear (``recover`` and
``complain`` only at a table that shares its hand keys, SPEC §9.13)."""

HUB_SEAT = 0
"""The host's seat: the hub that relays every envelope (SPEC §11.5), whose own liveness and
timers say when a seat is gone, and so the only seat that may begin a recovery (SPEC
§9.13.5)."""

Machine = TypeVar("Machine")


@dataclass
class Round:
    """A protocol round: ``kind`` messages from ``speakers`` in order."""

    kind: str
    speakers: list[int]
    done: int = 0

    @property
    def complete(self) -> bool:
        return self.done >= len(self.speakers)

    @property
    def current(self) -> int:
        return self.speakers[self.done]


@dataclass(frozen=True)
class Kind(Generic[Machine]):
    """One message kind's row: ``check(machine, seat, body, index)`` validates a message of
    the expected seat and applies it (the events it produced, ``None`` for none; a violation
    changes nothing);
    ``make(machine)`` is the local seat's automatic body (``None``: the kind is never
    automatic, as an ``action`` the player decides); ``after(machine)`` opens what follows a
    complete round."""

    check: Callable[[Machine, int, dict[str, Any], int], list[Event] | None]
    make: Callable[[Machine], dict[str, Any]] | None
    after: Callable[[Machine], list[Event]]


def for_phase(engine: MatchState, cycle: DeckCycle | None, players: int,
              bot_seat: int | None) -> Round | None:
    """The round the live ``engine``'s phase calls for, or ``None`` when it calls for a new
    deck (SPEC §9.2): a dealt deck's ``reveal``, the ``tokens`` of a chance step (noted in
    ``cycle``), the ``action`` of the seat to act, or the hand's ``result``."""
    phase = engine.phase
    if phase is Phase.SHUFFLE:
        if cycle is not None and cycle.shuffled and not cycle.audited:
            return Round("reveal", cycle.unrevealed())
        return None
    assert cycle is not None
    if phase is Phase.CHANCE:
        steps = engine.pending_chance()
        cycle.pending = steps
        cycle.pending_positions = tuple(cycle.deck_position(s) for s in steps)
        return Round("tokens", [s for s in range(players) if cycle.duties(s)])
    if phase is Phase.ACTION:
        return Round("action", [engine.to_act])
    if phase is Phase.HAND_OVER:
        if not cycle.audited:
            return Round("reveal", cycle.unrevealed())
        return Round("result", [s for s in range(players) if s != bot_seat])
    raise AssertionError(f"unexpected engine phase {phase}")


def check_accept(seat: int, body: dict[str, Any], index: int) -> list[Event]:
    """Check ``seat``'s ``accept`` (envelope ``index``): its body is empty (SPEC §9.2)."""
    if body:
        raise Violation("bad-body", "an accept message has an empty body", seat=seat,
                        index=index)
    return [SeatAccepted(seat)]
