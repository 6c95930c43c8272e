"""Notices that carry their facts: a ``connection:`` line and a series tally.

A peer tells its person what happens through ``notice(text)``, one sentence a line. Two of those
sentences are also facts a program or a page wants without parsing words in some language:
how each link is connected (SPEC §11.9, §11.10) and the running tally of a series (SPEC §11.8).
They are made as :class:`TypedNotice` values: a ``str`` (so every ``notice`` takes them as it
takes any line, and prints the sentence) that also holds its fields, which ``--json`` writes as
one JSON event and the browser page shows in its own places. Pure: no trio, no sockets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = ["TypedNotice", "ConnectionFacts", "SeriesFacts", "facts_of"]


@dataclass(frozen=True)
class ConnectionFacts:
    """How one link is connected, as a ``connection:`` line says it.

    ``seat`` is the joiner's seat on the host's lines and ``None`` on a joiner's (its one link
    goes to the host); ``path`` is ``direct`` or ``relay``; ``how`` the kind of a direct link
    (``lan``, ``ipv6``, ``mapped``, ``public``, ``observed``, ``punched``, or ``None`` when it
    cannot be told); ``where`` the other end's ``HOST:PORT`` (the relay's, for a relay link,
    when known); ``why`` why a relay link is not direct."""

    path: Literal["direct", "relay"]
    how: str | None = None
    where: str | None = None
    why: str | None = None
    seat: int | None = None

    def event(self) -> dict[str, Any]:
        """The ``--json`` event: ``{"event": "connection", "seat", "path", "how", "where",
        "why"}``."""
        return {"event": "connection", **asdict(self)}


@dataclass(frozen=True)
class SeriesFacts:
    """The tally of a series after ``played`` matches: each scoring side's name, the matches it
    won, and its match scores added up over the series (``points``; ``None`` when not kept)."""

    played: int
    sides: Sequence[str]
    wins: Sequence[int]
    points: Sequence[int] | None = None

    def event(self) -> dict[str, Any]:
        """The ``--json`` event: ``{"event": "series", "played", "sides", "wins",
        "points"}``."""
        return {"event": "series", "played": self.played, "sides": list(self.sides),
                "wins": list(self.wins),
                "points": None if self.points is None else list(self.points)}


Facts = ConnectionFacts | SeriesFacts


class TypedNotice(str):
    """A notice's sentence that also holds its :attr:`facts`."""

    facts: Facts

    def __new__(cls, text: str, facts: Facts) -> TypedNotice:
        made = super().__new__(cls, text)
        made.facts = facts
        return made


def facts_of(text: str) -> Facts | None:
    """The facts a notice carries, ``None`` for a plain sentence."""
    return text.facts if isinstance(text, TypedNotice) else None
