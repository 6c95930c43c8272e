"""Announcements: the moments of a game a player must not miss, as one starred line each.

A scopa, a trick's winner, a declaration or an announcement, a knock: the event log says what
each seat played, but whether that play swept the table or won the trick is only visible by
comparing the seat's observation before and after. :class:`Announcer` does that comparison for
one seat and returns the lines (``★ Bob [1] made a scopa``); every face prints them in its log.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..i18n import _
from ..table import ActionPlayed, Event
from .card_names import cards_label

__all__ = ["Announcer", "STAR", "ANNOUNCED_KINDS", "starred"]

STAR = "★"
ANNOUNCED_KINDS = frozenset({"declare", "announce", "knock", "call"})
"""Kinds of action every seat is told about with a star, besides the ordinary log line."""


class Announcer:
    """Compares one seat's successive observations; see the module docstring.

    ``seat_name(seat)`` and ``side_name(side)`` name a seat and a scoring side for the reader
    (``you``, ``Bob [1] (partner)``, ``you + Carl [2]``...).
    """

    def __init__(self, seat_name: Callable[[int], str], side_name: Callable[[int], str]) -> None:
        self.seat_name = seat_name
        self.side_name = side_name
        self._before: dict[str, Any] = {}

    def update(self, observation: dict[str, Any], events: Sequence[Event]) -> list[str]:
        """The announcements between the last observation and ``observation`` (the first call
        only records it). A declaration needs no comparison: its own log line is starred
        (:func:`starred`)."""
        before, self._before = self._before, observation
        lines: list[str] = []
        if not before:
            return lines
        lines.extend(self._scope(before, observation))
        lines.extend(self._trick(before, observation))
        return lines

    def _scope(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        old, new = before.get("scope"), after.get("scope")
        if not (isinstance(old, list) and isinstance(new, list) and len(old) == len(new)):
            return []
        return [f"{STAR} " + _("{side}: scopa!").format(side=self.side_name(side))
                for side, (a, b)
                in enumerate(zip(old, new, strict=True)) if isinstance(a, int)
                and isinstance(b, int) and b > a]

    def _trick(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        old, new = before.get("last_trick"), after.get("last_trick")
        if not new or new == old:
            return []
        winner: Any = None
        cards: list[str] = []
        if isinstance(new, dict):  # {"cards": [[seat, card], ...], "winner": seat}
            winner = new.get("winner")
            cards = [str(c[1]) for c in new.get("cards", []) if isinstance(c, list | tuple)]
        elif isinstance(new, list):  # [{"seat": s, "card": c}, ...]: the winner leads next
            winner = after.get("leader")
            cards = [str(c.get("card")) for c in new if isinstance(c, dict)]
        if not isinstance(winner, int):
            return []
        return [f"{STAR} " + _("trick to {name} ({cards})").format(
            name=self.seat_name(winner), cards=cards_label(cards))]


def starred(event: Event) -> bool:
    """Whether the log line of ``event`` carries a star: a declaration, an announcement, a
    knock or a call, which every seat must notice."""
    return isinstance(event, ActionPlayed) and event.action.kind in ANNOUNCED_KINDS
