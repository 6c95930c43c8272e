"""What a Rumino match keeps to answer its queries without computing them again: the discard
pile's codes beside its cards (:class:`DiscardPile`), and per state the legal actions, the last
split asked, the melds followed from hand to hand and the hand facts of the observations
(:class:`KeptViews`).

Nothing here decides a rule: every kept answer is the one a fresh computation gives, and the
match forgets it at every change of what it depends on (:meth:`KeptViews.forget` at every state
change, :meth:`KeptViews.forget_facts` when a hand is dealt or ends, a rebuy is answered or the
match ends). Lists handed out are fresh copies, never the kept ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from operator import is_
from typing import Any

from ..cards import Card
from .base import Action
from .rumino_melds import MeldTracker, Split
from .rumino_view import HandFacts, RuminoView, facts_template, hand_facts

__all__ = ["DiscardPile", "KeptViews"]


class DiscardPile:
    """The discard pile, bottom first, with the codes of its cards kept beside them (what
    observations show). ``cards`` is read by the match; only :meth:`push` and :meth:`pop`
    change the pile."""

    __slots__ = ("_codes", "cards")

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self.cards: list[Card] = list(cards)
        self._codes: list[str] = [c.code for c in self.cards]

    def push(self, c: Card) -> None:
        """Put ``c`` on top."""
        self.cards.append(c)
        self._codes.append(c.code)

    def pop(self) -> Card:
        """Take the top card off and return it."""
        self._codes.pop()
        return self.cards.pop()

    def codes(self) -> list[str]:
        """The codes of the pile, bottom first (a fresh list)."""
        return list(self._codes)

    def copy(self) -> DiscardPile:
        """An independent copy."""
        other = DiscardPile()
        other.cards = list(self.cards)
        other._codes = list(self._codes)
        return other


class KeptViews:
    """What one match keeps of its current state: its legal actions, the best split last
    asked (with its seat), every seat's :class:`~.rumino_melds.MeldTracker` and the hand facts
    of its observations with their template. A copy of a match takes a new one
    (:meth:`fresh`): nothing kept is shared between two matches."""

    __slots__ = ("_facts", "_legal", "_players", "_split", "_split_seat", "_template",
                 "_trackers")

    def __init__(self, players: int) -> None:
        self._players = players
        self._legal: list[Action] | None = None
        self._split_seat = -1
        self._split: Split | None = None
        self._trackers = [MeldTracker() for _ in range(players)]
        self._facts: HandFacts | None = None
        self._template: dict[str, Any] = {}
        """The observations' :func:`~.rumino_view.facts_template` of ``_facts``."""

    def fresh(self) -> KeptViews:
        """A new, empty keeper for a copy of the match."""
        return KeptViews(self._players)

    def forget(self) -> None:
        """The state changes: forget its legal actions and the split last asked."""
        self._legal = None
        self._split_seat = -1

    def forget_facts(self) -> None:
        """A hand is dealt or ends, a rebuy is answered or the match ends: forget the hand
        facts."""
        self._facts = None
        self._template = {}

    def listed(self, action: Action) -> bool:
        """Whether ``action`` is one of the very objects of the legal actions kept for this
        state (never after :meth:`forget`): an action its listing has checked."""
        kept = self._legal
        return kept is not None and any(map(is_, kept, repeat(action)))

    def legal_actions(self, listing: Callable[[], list[Action]]) -> list[Action]:
        """A fresh copy of the legal actions of this state, listed by ``listing`` once."""
        kept = self._legal
        if kept is None:
            kept = self._legal = listing()
        return list(kept)

    def split(self, seat: int, hand: Sequence[Card | None]) -> Split | None:
        """The best split of ``seat``'s ``hand`` when every card of it is known (else
        ``None``), followed by the seat's tracker; kept until the state changes."""
        if self._split_seat == seat:
            return self._split
        split = self._trackers[seat].split_hand(hand)
        self._split_seat, self._split = seat, split
        return split

    def split_places(self, seat: int, places: Sequence[int]) -> Split:
        """The best split of ``seat``'s hand of known cards whose places are ``places``, kept
        for :meth:`split` until the state changes."""
        split = self._trackers[seat].split(places)
        self._split_seat, self._split = seat, split
        return split

    def facts(self, match: RuminoView) -> tuple[HandFacts, dict[str, Any]]:
        """The hand facts of ``match`` (:func:`~.rumino_view.hand_facts`) and their
        :func:`~.rumino_view.facts_template`, kept until :meth:`forget_facts`. The template
        is only ever copied, never handed out."""
        facts = self._facts
        if facts is None:
            facts = self._facts = hand_facts(match)
            self._template = facts_template(facts)
        return facts, self._template
