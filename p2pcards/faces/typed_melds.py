"""A meld of four or more cards typed in one line (``meld 7H1 8H1 9H2 TH1``).

Burraco's move list offers every new meld of three cards and every addition of one
card (SPEC: every longer meld is reached from the list by a three-card meld and single
additions within one turn, and is the same position). A person who types a longer meld means
those steps: :func:`meld_steps` finds them by trying them on a copy of the seat's own engine,
so that each step sent is a move of the list and the table checks it as any other. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import BadCardCode, Card, card
from ..games.base import Action, GameError, MatchState

__all__ = ["typed_meld", "meld_steps", "MIN_TYPED"]

MIN_TYPED = 4
"""A typed meld of this many cards or more is split into steps (three are in the list)."""


def typed_meld(text: str) -> tuple[Card, ...] | None:
    """The cards of ``text`` when it is ``meld`` followed by :data:`MIN_TYPED` or more card
    codes (brackets and case ignored), else ``None``."""
    words = text.replace("[", " ").replace("]", " ").split()
    if len(words) < 1 + MIN_TYPED or words[0].lower() != "meld":
        return None
    try:
        found = tuple(card(word.upper()) for word in words[1:])
    except BadCardCode:
        return None
    return found if len(set(found)) == len(found) else None


def meld_steps(engine: MatchState, wanted: Sequence[Card]) -> list[Action] | None:
    """The moves of the list, a ``meld`` of three of ``wanted`` then one ``add`` per other
    card, that lay exactly ``wanted`` as one new meld now; ``None`` when no order of them
    does (the cards are not in the hand, or they make no legal meld). ``engine`` is the
    seat's engine: it is copied, never changed."""
    goal = frozenset(wanted)
    for first in engine.legal_actions():
        if first.kind != "meld" or not set(first.cards) <= goal:
            continue
        trial = engine.copy()
        try:
            trial.apply(first)
        except GameError:
            continue
        rest = _grow(trial, frozenset(first.cards), goal)
        if rest is not None:
            return [first, *rest]
    return None


def _grow(engine: MatchState, laid: frozenset[Card], goal: frozenset[Card]) -> list[Action] | None:
    """Single additions that grow the meld ``laid`` into ``goal``, depth first."""
    if laid == goal:
        return []
    for move in engine.legal_actions():
        grown = frozenset(move.cards)
        if move.kind != "add" or not laid < grown <= goal or len(grown) != len(laid) + 1:
            continue
        trial = engine.copy()
        try:
            trial.apply(move)
        except GameError:
            continue
        rest = _grow(trial, grown, goal)
        if rest is not None:
            return [move, *rest]
    return None
