"""How cards and actions read on a person's screen and in ``p2pcards show``.

In English, codes (``KD``) are shown, the same for every deck; a deck whose card names differ
from the Italian ones the codes spell (the Spanish deck of Tute: ``KD`` is the Rey de Oros) gets
the names printed beside the codes. In Italian and Spanish (:mod:`p2pcards.i18n`) cards are
named as people say them, from the catalogs: ``settebello``, ``Re di bastoni``, ``asso di
coppe``, ``sota de oros``, ``Donna di cuori``, ``Jolly``; moves read ``gioca settebello``.
Typing a code still picks a move. Pure text functions; no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import (
    HIDDEN_SUIT,
    JOKER_SUIT,
    BadCardCode,
    Card,
    Deck,
    card,
    card_name,
    deck_family,
    name_cards,
)
from .games.base import Action
from .i18n import NP_, language, pgettext

__all__ = ["action_text", "card_label", "cards_label", "own_names", "spoken"]

FORTY = "card"
"""The catalog context of the 40-card decks' names (Italian and Spanish: the same shape)."""
FRENCH = "french card"
"""The catalog context of the French deck's names."""
_FORTY_RANKS = {1: NP_("card", "ace"), 8: NP_("card", "jack"), 9: NP_("card", "knight"),
                10: NP_("card", "king")}
_FORTY_SUITS = {"D": NP_("card", "coins"), "C": NP_("card", "cups"),
                "S": NP_("card", "swords"), "B": NP_("card", "clubs")}
_FRENCH_RANKS = {1: NP_("french card", "ace"), 11: NP_("french card", "jack"),
                 12: NP_("french card", "queen"), 13: NP_("french card", "king")}
_FRENCH_SUITS = {"H": NP_("french card", "hearts"), "D": NP_("french card", "diamonds"),
                 "C": NP_("french card", "clubs"), "S": NP_("french card", "spades")}


def spoken() -> bool:
    """Whether cards are named rather than shown as codes: in every language but English."""
    return language() != "en"


def own_names(deck: Deck | None) -> bool:
    """Whether cards of ``deck`` are named beside their codes in English: the decks whose
    names differ from the Italian ones the codes spell (the Spanish deck)."""
    return deck is not None and deck_family(deck) == "spanish"


def _catalog_name(c: Card, family: str) -> str:
    """``c`` named from the catalogs, in the words of its deck's ``family``."""
    if c.suit == HIDDEN_SUIT:
        return pgettext("card", "a hidden card")
    if c.suit == JOKER_SUIT:
        return pgettext("french card", "joker")
    if family == "french" or c.copy:
        rank = _FRENCH_RANKS.get(c.rank)
        rank_text = pgettext(FRENCH, rank) if rank else str(c.rank)
        suit = pgettext(FRENCH, _FRENCH_SUITS[c.suit])
        return pgettext("french card", "{rank} of {suit}").format(rank=rank_text, suit=suit)
    if family == "italian" and (c.rank, c.suit) == (7, "D"):
        return pgettext("card", "seven of coins (the settebello)")
    rank = _FORTY_RANKS.get(c.rank)
    rank_text = pgettext(FORTY, rank) if rank else str(c.rank)
    suit = pgettext(FORTY, _FORTY_SUITS[c.suit])
    return pgettext("card", "{rank} of {suit}").format(rank=rank_text, suit=suit)


def card_label(item: Card | str, deck: Deck | str | None = None) -> str:
    """One card as a person reads it: its name in Italian or Spanish (``settebello``, ``Re di
    bastoni``); in English its code, with the Spanish deck's name beside it (``KD Rey de
    Oros``). A text that is no card code is returned as it is."""
    try:
        c = item if isinstance(item, Card) else card(item)
    except BadCardCode:
        return str(item)
    if not spoken():
        if own_names(deck if isinstance(deck, Deck) else None) and c.suit != HIDDEN_SUIT:
            return name_cards([c], deck)
        return c.code
    return _catalog_name(c, deck_family(deck))


def cards_label(items: Iterable[Card | str], deck: Deck | str | None = None) -> str:
    """Several cards as a person reads them: names joined by commas in Italian and Spanish,
    codes joined by spaces in English (:func:`~p2pcards.cards.name_cards` for a deck with its
    own names)."""
    items = list(items)
    if not spoken():
        if own_names(deck if isinstance(deck, Deck) else None):
            return name_cards(items, deck)
        return " ".join(str(i) for i in items)
    return ", ".join(card_label(i, deck) for i in items)


def _value_text(value: str, deck: Deck | None) -> str:
    """An action's value word as a person reads it: a card's name for a card code (a
    Ziginette bet on ``3C``), else the word from the catalogs."""
    try:
        return card_label(card(value), deck)
    except BadCardCode:
        return pgettext("move", value)


def _spoken_action(action: Action, deck: Deck | None) -> str:
    """An action in words: ``gioca settebello [4 di denari, 3 di denari]``."""
    parts = [pgettext("move", action.kind)]
    if action.card is not None:
        parts.append(card_label(action.card, deck))
    if action.cards:
        parts.append("[" + cards_label(action.cards, deck) + "]")
    if action.value:
        parts.append(_value_text(action.value, deck))
    if action.amount:
        parts.append(str(action.amount))
    return " ".join(parts)


def action_text(action: Action, deck: Deck | None = None) -> str:
    """An action as a person reads it. In English: as typed (``declare [KD QD] veinte``),
    followed for a deck with its own names by the names of its cards (``(Rey de Oros, Caballo
    de Oros)``). In Italian and Spanish: in words, cards by name (``gioca settebello``)."""
    if spoken():
        return _spoken_action(action, deck)
    named: list[Card] = [c for c in (action.card, *action.cards) if c is not None]
    if not own_names(deck) or not named:
        return str(action)
    return f"{action} ({', '.join(card_name(c, deck) for c in named)})"
