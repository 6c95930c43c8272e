"""The public bot of the meld games: Burraco and Rumino (protocol/BOTS.md §9, §10). Integer
keys only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card, card
from ..games import burraco_scoring, rumino_melds
from ..games.base import Action
from ..games.burraco_melds import is_wild_card
from .draws import DrawStream
from .order import Key, KeyOf

__all__ = ["burraco_keys", "rumino_keys", "rumino_pull"]

BURRACO_SIZE = 7
"""The cards of a burraco."""


def _has_wild(cards: Sequence[Card]) -> bool:
    return any(is_wild_card(c) for c in cards)


def _neighbours(c: Card, hand: Sequence[Card]) -> int:
    """3 for each other natural card of the hand of ``c``'s rank, 2 for each of its suit within
    two ranks of it."""
    count = 0
    for other in hand:
        if other == c or is_wild_card(other):
            continue
        if other.rank == c.rank:
            count += 3
        elif other.suit == c.suit and abs(other.rank - c.rank) <= 2:
            count += 2
    return count


def burraco_keys(observation: Mapping[str, Any], legal: Sequence[Action],
                 draws: DrawStream) -> KeyOf:
    """Take a pile of three cards or more, else draw; grow a meld to a burraco, grow a meld with
    natural cards, lay a natural meld, then a meld with a wild card; then discard the least
    useful card; a wild card added short of a burraco never."""
    side = int(observation.get("side", 0))
    ours = [[card(code) for code in meld] for meld in observation.get("melds", [[], []])[side]]
    hand = [card(code) for code in observation.get("hand", [])]
    pile = observation.get("discard_pile", [])

    def key_of(action: Action) -> Key:
        kind, size = action.kind, len(action.cards)
        if kind == "take":
            return (0, 0 if len(pile) >= 3 else 2)
        if kind == "draw":
            return (0, 1)
        if kind == "add":
            old = ours[action.amount - 1] if 1 <= action.amount <= len(ours) else []
            added = [c for c in action.cards if c not in old]
            if size >= BURRACO_SIZE:
                return (1, 0, -size)
            return (1, 1, -size) if not _has_wild(added) else (5, -size)
        if kind == "meld":
            return (2 if not _has_wild(action.cards) else 3, -size)
        if kind == "discard" and action.card is not None:
            c = action.card
            return (4, 1 if is_wild_card(c) else 0, _neighbours(c, hand),
                    -burraco_scoring.card_value(c))
        return (9,)
    return key_of


def rumino_pull(c: Card, rest: Sequence[Card]) -> int:
    """How strongly ``c`` works towards a rumino: every other card for a joker, else the larger
    of the count of ``rest`` of its rank and the count of ``rest`` of its suit within six ranks
    (another rank), jokers not counted."""
    if rumino_melds.is_joker(c):
        return len(rest)
    same_rank = sum(1 for o in rest if not rumino_melds.is_joker(o) and o.rank == c.rank)
    near = sum(1 for o in rest if not rumino_melds.is_joker(o) and o.suit == c.suit
               and o.rank != c.rank and abs(o.rank - c.rank) < 7)
    return max(same_rank, near)


def _without(hand: Sequence[Card], c: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(c)
    return rest


def rumino_keys(observation: Mapping[str, Any], legal: Sequence[Action],
                draws: DrawStream) -> KeyOf:
    """A rumino (or a claim) first, then a knock, the first rebuy, the upcard when it lowers
    the deadwood, else the stock, and the discard that leaves the least deadwood."""
    hand = [card(code) for code in observation.get("hand", [])]
    seat = int(observation.get("seat", 0))
    first_rebuy = not observation.get("rebuys", [0] * (seat + 1))[seat]
    upcard = observation.get("upcard")

    def upcard_deadwood() -> int:
        assert upcard is not None
        up = card(upcard)
        grown = [*hand, up]
        return min(rumino_melds.deadwood(_without(grown, c)) for c in hand)

    def key_of(action: Action) -> Key:
        kind = action.kind
        if kind in ("claim", "rumino"):
            return (0,)
        if kind == "knock":
            return (1,)
        if kind in ("rebuy", "decline"):
            return (2, 0 if (kind == "rebuy") == first_rebuy else 1)
        if kind == "draw":
            if action.value == "upcard" and upcard is not None and hand:
                return (3, upcard_deadwood())
            return (3, rumino_melds.deadwood(hand))
        if kind == "discard" and action.card is not None:
            rest = _without(hand, action.card)
            return (4, rumino_melds.deadwood(rest), rumino_pull(action.card, rest),
                    -rumino_melds.card_value(action.card))
        return (9,)
    return key_of
