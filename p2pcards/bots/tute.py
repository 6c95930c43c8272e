"""The Tute rule-of-thumb bot.

Every action it is offered is legal already (the engine applies the obligations to follow, head,
trump and overtrump), so it only ranks them with a few habits of the game:

- declare whenever it may: a tute first, then las cuarenta, then las veinte;
- leading: cash a plain-suit card that is the highest still out (an ace, or a 3 once its ace is
  gone), draw trumps with a high trump when long in them, else lead its cheapest plain card and
  keep kings and caballos that may still marry;
- following: give points to a partner who is winning, win tricks worth taking as cheaply as it
  can, and otherwise throw its cheapest card, sparing trumps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card, card
from ..games.base import Action
from ..games.tute_rules import KING, ORDER, POINTS, QUEEN, declaration_points
from .heuristic import ScoringBot, follow_score, partner_winning, trick_cards

__all__ = ["TuteBot"]


def _points(c: Card) -> int:
    return POINTS.get(c.rank, 0)


def _top_outstanding(c: Card, gone: set[Card]) -> bool:
    """Whether ``c`` outranks every card of its suit not yet played (other than itself)."""
    return all(not ORDER.beats(Card(rank, c.suit), c) or Card(rank, c.suit) in gone
               for rank in ORDER.high_to_low if rank != c.rank)


class TuteBot(ScoringBot):
    """See the module docstring."""

    def score(self, observation: Mapping[str, Any], action: Action) -> float:
        if action.kind == "declare":
            return 10_000.0 if action.value == "tute" else 1000.0 + declaration_points(
                action.value)
        assert action.card is not None
        mine = action.card
        trump = observation.get("trump_suit")
        trick = trick_cards(observation)
        if trick:
            partner = partner_winning(observation, trick, ORDER, trump)
            return follow_score(trick, mine, ORDER, trump, _points, partner)
        hand = [card(code) for code in observation.get("hand", [])]
        gone = {card(code) for code in observation.get("played", [])}
        if mine.suit != trump and _top_outstanding(mine, gone):
            return 50.0 + _points(mine)
        trumps = [c for c in hand if c.suit == trump]
        if mine.suit == trump:
            if len(trumps) >= 5 and _top_outstanding(mine, gone):
                return 40.0
            return -20.0 - ORDER.strength(mine.rank)
        value = -2.0 * _points(mine) - 0.1 * ORDER.strength(mine.rank)
        partner_rank = QUEEN if mine.rank == KING else KING if mine.rank == QUEEN else None
        if partner_rank is not None and Card(partner_rank, mine.suit) not in gone:
            value -= 6.0
        return value
