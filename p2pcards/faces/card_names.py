"""How a card is named on a person's screen: its code in English (with the Spanish deck's
names beside the codes, ``KD Rey de Oros``), its name as people say it in Italian and Spanish
(``settebello``, ``Re di bastoni``, ``sota de oros``, ``Donna di cuori``, ``Jolly``), from the
catalogs (:mod:`p2pcards.i18n`). Apart from :mod:`.wording` so that the smaller text modules
(announcements, screen texts) name cards without importing the wording of events. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import HIDDEN_SUIT, JOKER_SUIT, BadCardCode, Card, Deck, card, deck_family, name_cards
from ..i18n import NP_, language, pgettext

__all__ = ["card_label", "cards_label", "own_names", "spoken"]


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
