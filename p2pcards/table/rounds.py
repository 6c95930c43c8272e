"""The protocol's rounds and message kinds (SPEC §9.2-§9.8, §9.13).

A match is one linear chain of messages, one speaker at a time: a :class:`Round` is ``kind``
messages from its speakers in order. :data:`KINDS` lists every message kind; for each the
table holds one :class:`Kind` row (the transitions as data): how a received message of that kind
is checked and applied, how the local seat makes its automatic one, and what follows once the
round is complete.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .events import Event

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
    the expected seat and applies it (the events it produced; a violation changes nothing);
    ``make(machine)`` is the local seat's automatic body (``None``: the kind is never
    automatic, as an ``action`` the player decides); ``after(machine)`` opens what follows a
    complete round."""

    check: Callable[[Machine, int, dict[str, Any], int], list[Event]]
    make: Callable[[Machine], dict[str, Any]] | None
    after: Callable[[Machine], list[Event]]
