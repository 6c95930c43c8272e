"""The keeper port: where a seat keeps a secret before it first uses it on the wire (SPEC
§11.7.4), so that a crashed seat can resume its table from the transcript.

The table needs only this port and the names of what it keeps (its hand and inbox keys of a
deck, its claim-window proposal, the count of its signed envelopes). The files that keep them
are :mod:`p2pcards.records.secret_store`'s; :class:`MemoryKeeper` keeps them in memory.
"""

from __future__ import annotations

import re
from typing import Protocol

PROPOSAL = "proposal"
"""The name of a seat's claim-window proposal (an envelope signed, not yet placed in the chain)."""


SIGNED = "signed"
"""The name of the count of the seat's own envelopes its transcript holds (kept each time the
transcript gains one, before the envelope leaves this process): a resume from a transcript
holding fewer would sign a second envelope for a place the seat already signed."""


_NAME = re.compile(r"^[a-z][a-z0-9]{0,31}$")


def hand_name(cycle: int) -> str:
    """The name of the hand key of deck cycle ``cycle``."""
    return f"hand{cycle}"


def inbox_name(cycle: int) -> str:
    """The name of the inbox key of deck cycle ``cycle`` (tables that share hand keys: the
    secret that opens the key shares the other seats deal to this seat, SPEC §9.13)."""
    return f"inbox{cycle}"


def spent_names(cycle: int) -> tuple[str, str]:
    """The names of the secrets of deck cycle ``cycle`` that are deleted once every holder's key
    of that cycle is known from the transcript (the cycle is spent): its hand and inbox keys."""
    return hand_name(cycle), inbox_name(cycle)


def encode_count(count: int) -> bytes:
    """A kept count (:data:`SIGNED`): 8 bytes, big-endian."""
    return count.to_bytes(8, "big")


def decode_count(data: bytes) -> int | None:
    """The count kept by :func:`encode_count`, or ``None`` if ``data`` is not 8 bytes."""
    return int.from_bytes(data, "big") if len(data) == 8 else None


class Keeper(Protocol):
    """One seat's secrets of one table, by name (``hand3``, ``proposal``)."""

    def keep(self, name: str, data: bytes) -> None:
        """Store ``data`` under ``name`` durably before returning (replacing any old value)."""
        ...

    def load(self, name: str) -> bytes | None:
        """The value kept under ``name``, or ``None``."""
        ...

    def drop(self, name: str) -> None:
        """Delete ``name`` (nothing if absent)."""
        ...


class MemoryKeeper:
    """:class:`Keeper` in a dictionary (``items`` is the dictionary)."""

    def __init__(self) -> None:
        self.items: dict[str, bytes] = {}

    def keep(self, name: str, data: bytes) -> None:
        check_name(name)
        self.items[name] = bytes(data)

    def load(self, name: str) -> bytes | None:
        return self.items.get(name)

    def drop(self, name: str) -> None:
        self.items.pop(name, None)


def check_name(name: str) -> None:
    """:class:`ValueError` unless ``name`` is a valid secret name (a lower-case letter, then up to
    31 lower-case letters and digits)."""
    if not _NAME.match(name):
        raise ValueError(f"secret name {name!r} is not lower-case letters and digits")
