"""Rule-of-thumb bots: simple, deterministic, better than random.

Each scores every legal action with a few well-known habits of the game and plays the best,
breaking ties with a seeded random choice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import Card, card
from ..games.base import Action
from ..games.tricks import (
    BRISCOLA_ORDER,
    BRISCOLA_POINTS,
    TRESSETTE_ORDER,
    TRESSETTE_THIRDS,
    RankOrder,
    trick_winner,
)

__all__ = ["ScopaBot", "BriscolaBot", "TressetteBot"]

_PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


class ScoringBot:
    name = "smart"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        scored = [(self.score(observation, a), i) for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        ties = [legal[i] for s, i in scored if s == best]
        return ties[self._rng.randrange(len(ties))]

    def score(self, observation: Mapping[str, Any], action: Action) -> float:
        raise NotImplementedError


def _scopa_value(c: Card) -> float:
    value = 1.0 + _PRIMIERA[c.rank] / 21
    if c.suit == "D":
        value += 1.5
    if c.code == "7D":
        value += 10
    return value


class ScopaBot(ScoringBot):
    """Captures the most valuable cards, sweeps when it can, trails its least useful card."""

    def score(self, observation: Mapping[str, Any], action: Action) -> float:
        assert action.card is not None
        table = observation.get("table", [])
        if action.cards:
            gain = sum(_scopa_value(c) for c in (action.card, *action.cards))
            if len(action.cards) == len(table):
                gain += 20
            return 100 + gain
        left = sum(card(code).rank for code in table) + action.card.rank
        risk = 5.0 if left <= 10 else 0.0
        return -_scopa_value(action.card) - risk


def trick_cards(observation: Mapping[str, Any]) -> list[Card]:
    out = []
    for item in observation.get("trick", []):
        code = item["card"] if isinstance(item, Mapping) else item[1]
        out.append(card(code))
    return out


def follow_score(trick: list[Card], mine: Card, order: RankOrder, trump: str | None,
                  points: Callable[[Card], int], partner_winning: bool) -> float:
    if not trick:
        return -points(mine) * 2 - order.strength(mine.rank) * 0.1 - (5 if mine.suit == trump
                                                                        else 0)
    at_stake = sum(points(c) for c in trick)
    wins = trick_winner([*trick, mine], order, trump) == len(trick)
    if partner_winning:
        return points(mine) * 1.5 - (3 if mine.suit == trump else 0)
    if wins:
        return 10 + at_stake + points(mine) - order.strength(mine.rank) * 0.1 - (
            4 if mine.suit == trump and at_stake < 10 else 0)
    return -points(mine) * 2 - (5 if mine.suit == trump else 0)


def partner_winning(observation: Mapping[str, Any], trick: list[Card], order: RankOrder,
                     trump: str | None) -> bool:
    players = observation.get("players", len(observation.get("hand_sizes", [])))
    items = observation.get("trick", [])
    if players != 4 or not trick:
        return False
    seats = [it["seat"] if isinstance(it, Mapping) else it[0] for it in items]
    winner_seat = seats[trick_winner(trick, order, trump)]
    return bool(winner_seat % 2 == observation["seat"] % 2)


class BriscolaBot(ScoringBot):
    """Takes tricks with points cheaply, throws worthless cards otherwise, saves trumps."""

    def score(self, observation: Mapping[str, Any], action: Action) -> float:
        assert action.card is not None
        trump = observation.get("trump_suit")
        trick = trick_cards(observation)
        partner = partner_winning(observation, trick, BRISCOLA_ORDER, trump)
        return follow_score(trick, action.card, BRISCOLA_ORDER, trump,
                             lambda c: BRISCOLA_POINTS.get(c.rank, 0), partner)


class TressetteBot(ScoringBot):
    """Declares what it holds, then wins tricks with points, else discards its cheapest card."""

    def score(self, observation: Mapping[str, Any], action: Action) -> float:
        if action.kind != "play" or action.card is None:
            return 1000.0 if action.kind in ("declare", "announce") else -1000.0
        if action.value:
            return -500.0  # signals are optional; this bot does not talk
        trick = trick_cards(observation)
        partner = partner_winning(observation, trick, TRESSETTE_ORDER, None)
        return follow_score(trick, action.card, TRESSETTE_ORDER, None,
                             lambda c: TRESSETTE_THIRDS.get(c.rank, 0), partner)
