"""How cards and actions read on a person's screen and in ``p2pcards show``.

Codes (``KD``) are the same for every deck; a deck whose card names differ from the Italian ones
the codes spell (the Spanish deck of Tute: ``KD`` is the Rey de Oros) gets the names printed beside
the codes. Pure text functions; no I/O.
"""

from __future__ import annotations

from .cards import Card, Deck, card_name, deck_family
from .games.base import Action

__all__ = ["action_text", "own_names"]


def own_names(deck: Deck | None) -> bool:
    """Whether cards of ``deck`` are named beside their codes: the decks whose names differ from
    the Italian ones the codes spell (the Spanish deck)."""
    return deck is not None and deck_family(deck) == "spanish"


def action_text(action: Action, deck: Deck | None = None) -> str:
    """An action as typed (``declare [KD QD] veinte``), followed for a deck with its own names by
    the names of its cards (``(Rey de Oros, Caballo de Oros)``)."""
    named: list[Card] = [c for c in (action.card, *action.cards) if c is not None]
    if not own_names(deck) or not named:
        return str(action)
    return f"{action} ({', '.join(card_name(c, deck) for c in named)})"
