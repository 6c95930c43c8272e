"""How a face names the seats and the scoring sides for the person at one seat.

``you`` for the viewer, ``Bob [1]`` for another seat, with ``(partner)`` in a game of
partnerships; a side is its seats joined by ``+`` (``you + Carl [2]``). Every face and every
log line use these names, so that each column and each sentence says whose it is. Pure.
"""

from __future__ import annotations

from ..i18n import _
from ..seating.genesis import Genesis

__all__ = ["SeatNames"]


class SeatNames:
    """The names of one table's seats and sides as seen from seat ``me`` (``None``: an
    observer, who is nobody's partner)."""

    def __init__(self, genesis: Genesis, me: int | None) -> None:
        self.genesis = genesis
        self.me = me
        engine = genesis.spec.new_match(genesis.game_config())
        self.players = len(genesis.seats)
        self.side_of = [engine.side_of(s) for s in range(self.players)]
        self.sides = max(self.side_of) + 1
        self.partnerships = self.sides < self.players

    def plain(self, seat: int) -> str:
        """``you`` or ``Name [seat]``."""
        if seat == self.me:
            return _("you")
        name = self.genesis.seats[seat].name or _("seat")
        return f"{name} [{seat}]"

    def seat(self, seat: int | None) -> str:
        """The seat's name, with ``(partner)`` for the viewer's partner; ``the table`` for
        ``None``."""
        if seat is None:
            return _("the table")
        name = self.plain(seat)
        if (self.partnerships and self.me is not None and seat != self.me
                and self.side_of[seat] == self.side_of[self.me]):
            return _("{name} (partner)").format(name=name)
        return name

    def side_list(self, count: int | None = None) -> list[str]:
        """The scoring sides' names: one per seat when there are as many sides as seats, else
        each side's seats joined by ``+``."""
        count = self.sides if count is None else count
        if count == self.players:
            return [self.plain(s) for s in range(self.players)]
        return [" + ".join(self.plain(s) for s in range(self.players) if self.side_of[s] == side)
                for side in range(count)]

    def side(self, side: int) -> str:
        """One side's name (see :meth:`side_list`)."""
        names = self.side_list()
        return names[side] if 0 <= side < len(names) else _("side {side}").format(side=side)

    def per_seat_or_side(self, values: list[object]) -> str | None:
        """A list with one value per seat or per side, each value labelled
        (``you 3 · Bob [1] 2``); ``None`` when the list is neither."""
        if len(values) == self.players:
            names = [self.plain(s) for s in range(self.players)]
        elif len(values) == self.sides:
            names = self.side_list()
        else:
            return None
        return " · ".join(f"{n} {v}" for n, v in zip(names, values, strict=True))
