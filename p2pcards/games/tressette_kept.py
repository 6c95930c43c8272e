"""What a Tressette match keeps to answer its observations without building them again
(:class:`KeptViews`): the parts every seat's observation shares, the claims, each seat's hand
codes and hand size, and the wire forms of the current and last trick's plays.

Nothing here decides a rule: every kept answer is the one a fresh computation from the match's
state gives, and the match tells its keeper of every change of what an answer depends on
(:meth:`KeptViews.played`, :meth:`KeptViews.trick_closed`, :meth:`KeptViews.forget` and
:meth:`KeptViews.forget_claims`; a new keeper for every hand and every copy). Observations hand
out fresh copies of what is kept, never the kept objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any, NamedTuple

from ..cards import Card
from .base import Phase
from .tricks import all_known

__all__ = ["ClaimsView", "KeptViews", "Played", "SharedView"]

_code = attrgetter("code")
"""A card's code, read in C (for ``map`` over a hand)."""

_ACTION = Phase.ACTION


class Played(NamedTuple):
    """One card of the current or last trick, with the signal it carried (a named tuple: one is
    made at every play)."""

    seat: int
    card: Card
    signal: str = ""
    amount: int = 0

    def to_wire(self) -> dict[str, Any]:
        """The play as an observation shows it: seat, card code, and its signal if any (with
        the amount of a ``count``)."""
        out: dict[str, Any] = {"seat": self.seat, "card": self.card.code}
        if self.signal:
            out["signal"] = self.signal
        if self.signal == "count":
            out["amount"] = self.amount
        return out


SharedView = tuple[str, bool, tuple[int, ...], tuple[int, ...]]
"""The parts of every seat's observation that change only with the phase, a closed trick or the
match scores: the phase's text, whether a seat is to act, the captured counts and the match
scores. A plain tuple of immutable values, unpacked in one step."""

ClaimsView = tuple[tuple[tuple[int, str, tuple[str, ...]], ...], tuple[int, ...], dict[str, str]]
"""The claims every seat sees, which change only with a declaration or an announcement: the
declarations (seat, kind, card codes), the good-play seats and the announcements (a private map,
handed out only as copies)."""


class KeptViews:
    """The kept parts of one hand's observations. ``view`` and ``claims`` are ``None`` until
    built (:meth:`shared`, :meth:`claims_of`); ``codes[seat]`` is the codes of that seat's hand
    once read with every card of it known (:meth:`hand_codes`), else ``None``; ``sizes`` and
    the wire lists are kept in step with the plays. The match reads these attributes and changes
    them only through the methods."""

    __slots__ = ("claims", "codes", "last_wire", "sizes", "trick_wire", "view")

    def __init__(self, players: int) -> None:
        self.view: SharedView | None = None
        self.claims: ClaimsView | None = None
        self.codes: list[list[str] | None] = [None] * players
        self.sizes = [0] * players
        self.trick_wire: list[dict[str, Any]] = []
        self.last_wire: tuple[dict[str, Any], ...] = ()

    def copy(self) -> KeptViews:
        """An independent keeper for a copy of the match: lists are copied, the hand codes
        read again on demand (the kept ones follow the original's hands)."""
        other = KeptViews(len(self.sizes))
        other.view = self.view
        other.claims = self.claims
        other.sizes = list(self.sizes)
        other.trick_wire = list(self.trick_wire)
        other.last_wire = self.last_wire
        return other

    def dealt(self, hands: Sequence[Sequence[Card | None]]) -> None:
        """The hands are dealt (or set): take their sizes, forget the codes and the view."""
        self.sizes = list(map(len, hands))
        self.codes = [None] * len(hands)
        self.view = None

    def played(self, seat: int, slot: int, play: Played) -> None:
        """``seat`` played ``play`` from its hand's ``slot``: its size, its kept codes and the
        trick's wire forms follow."""
        self.sizes[seat] -= 1
        codes = self.codes[seat]
        if codes is not None:
            del codes[slot]
        self.trick_wire.append(play.to_wire())

    def trick_closed(self) -> None:
        """The trick is taken: it becomes the last trick; the piles change (and the phase, if
        the hand ends), so the shared view is forgotten."""
        self.last_wire = tuple(self.trick_wire)
        self.trick_wire = []
        self.view = None

    def forget(self) -> None:
        """The phase or the match scores change: forget the shared view."""
        self.view = None

    def forget_claims(self) -> None:
        """A declaration or an announcement may change the claims (and an announcement may end
        the hand): forget them and the shared view."""
        self.claims = None
        self.view = None

    def shared(self, phase: Phase, piles: Sequence[Sequence[Card]],
               scores: Sequence[int]) -> SharedView:
        """Build and keep :attr:`view` from the phase, the sides' piles and the match scores."""
        view = self.view = (
            phase._value_, phase is _ACTION, (*map(len, piles),), (*scores,))
        return view

    def claims_of(self, declared: Sequence[tuple[int, str, tuple[Card, ...]]],
                  good_play: list[bool], announced: Sequence[str]) -> ClaimsView:
        """Build and keep :attr:`claims` from the declarations, each seat's good-play flag
        and each seat's announcement (``""``: none)."""
        claims: ClaimsView = (
            tuple([(s, k, tuple(map(_code, cs))) for s, k, cs in declared]),
            tuple([s for s, on in enumerate(good_play) if on]) if True in good_play else (),
            {str(s): v for s, v in enumerate(announced) if v} if any(announced) else {},
        )
        self.claims = claims
        return claims

    def hand_codes(self, seat: int, hand: Sequence[Card | None]) -> list[str]:
        """The codes of the known cards of ``seat``'s ``hand``, in hand order; kept in
        :attr:`codes` when the whole hand is known (then :meth:`played` keeps them in step)."""
        if all_known(hand):
            codes = self.codes[seat] = list(map(_code, hand))
            return codes
        return [c.code for c in hand if c is not None]
