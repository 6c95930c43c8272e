"""The order in which a face lists a hand and the legal moves: by suit, then by the game's rank.

A person finds a card faster in a sorted hand, and the moves are numbered in the same order as
the hand, so that the first card of the hand is the first move. The engine's own order of
:meth:`~p2pcards.table.Table.legal_actions` stays what it is (it is part of the protocol's
deterministic replay); a face shows the moves in :func:`display_order` and sends back the
engine's index of the move chosen.

Ranks are listed from the strongest down in the trick-taking games (Tressette, Tresette and
Calabrasella: 3 2 A K Q J 7 6 5 4; Briscola and Tute: A 3 K Q J 7 6 5 4 2) and in natural order
elsewhere (A 2 3 ... K). Suits follow the deck's own order (denari, coppe, spade, bastoni; hearts,
diamonds, clubs, spades), jokers last. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import FRENCH_SUITS, HIDDEN_CODE, ITALIAN_SUITS, JOKER_SUIT, Card, card
from ..games.base import Action

__all__ = ["rank_order", "card_key", "sort_hand", "display_order"]

_TRESSETTE = (3, 2, 1, 10, 9, 8, 7, 6, 5, 4)
_BRISCOLA = (1, 3, 10, 9, 8, 7, 6, 5, 4, 2)
_RANKS_BY_GAME = {
    "tressette": _TRESSETTE,
    "tresette": _TRESSETTE,
    "calabrasella": _TRESSETTE,
    "briscola": _BRISCOLA,
    "tute": _BRISCOLA,
}
_ITALIAN = {suit: i for i, suit in enumerate(ITALIAN_SUITS)}
_FRENCH = {suit: i for i, suit in enumerate(FRENCH_SUITS)}


def rank_order(game: str) -> tuple[int, ...]:
    """The ranks of ``game`` as a face lists them (an empty tuple: natural order)."""
    return _RANKS_BY_GAME.get(game, ())


def card_key(c: Card, game: str) -> tuple[int, int, int, int]:
    """Sort key of a card in a hand of ``game``: suit, then rank, then copy; jokers and hidden
    cards last."""
    if c.code == HIDDEN_CODE:
        return (2, 0, 0, 0)
    if c.suit == JOKER_SUIT:
        return (1, 0, 0, c.copy)
    ranks = rank_order(game)
    rank = ranks.index(c.rank) if c.rank in ranks else c.rank
    suits = _FRENCH if c.copy else _ITALIAN  # only the French double deck numbers its copies
    return (0, suits.get(c.suit, len(suits)), rank, c.copy)


def sort_hand(codes: Sequence[str], game: str) -> list[str]:
    """The card codes of a hand sorted for a person (codes that are not cards keep their place
    at the end)."""
    known: list[tuple[tuple[int, int, int, int], str]] = []
    other: list[str] = []
    for code in codes:
        try:
            known.append((card_key(card(code), game), code))
        except ValueError:
            other.append(code)
    return [code for _, code in sorted(known)] + other


def display_order(legal: Sequence[Action], game: str) -> list[int]:
    """The engine indices of ``legal`` in the order a face lists them: kinds of move in the
    order the engine first lists them, within a kind by the card played (as the hand is
    sorted), then as the engine orders them (a plain play before the same play with a
    signal)."""
    first_of_kind: dict[str, int] = {}
    for i, action in enumerate(legal):
        first_of_kind.setdefault(action.kind, i)

    def key(i: int) -> tuple[int, tuple[int, int, int, int], int]:
        action = legal[i]
        played = action.card if action.card is not None else (
            action.cards[0] if action.cards else None)
        card_order = card_key(played, game) if played is not None else (0, 0, 0, 0)
        return (first_of_kind[action.kind], card_order, i)

    return sorted(range(len(legal)), key=key)
