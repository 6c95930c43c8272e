"""The public bot of Scopa (protocol/BOTS.md §8). Integer keys only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card, card
from ..games.base import Action
from .draws import DrawStream
from .order import Key, KeyOf

__all__ = ["scopa_keys", "card_worth"]

PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
"""The primiera values by rank."""
SWEEP_BONUS = 400
"""Added to a capture that takes every card of the table."""
SWEEP_RISK = 50
"""Added to a trail that leaves the table at 10 or less."""


def card_worth(c: Card) -> int:
    """What a card is worth to the bot: 10, plus its primiera value, plus 30 for a Denari,
    plus 200 for the settebello."""
    worth = 10 + PRIMIERA[c.rank]
    if c.suit == "D":
        worth += 30
    if c.code == "7D":
        worth += 200
    return worth


def scopa_keys(observation: Mapping[str, Any], legal: Sequence[Action],
               draws: DrawStream) -> KeyOf:
    """The most valuable capture, a sweep above all; else the trail of the least valuable card,
    avoiding a table of 10 or less."""
    table = [card(code) for code in observation.get("table", [])]

    def key_of(action: Action) -> Key:
        if action.kind != "play" or action.card is None:
            return (9,)
        if action.cards:
            gain = sum(card_worth(c) for c in (action.card, *action.cards))
            if len(action.cards) == len(table):
                gain += SWEEP_BONUS
            return (0, -gain)
        left = sum(c.rank for c in table) + action.card.rank
        return (1, card_worth(action.card) + (SWEEP_RISK if left <= 10 else 0))
    return key_of
