"""A rule-of-thumb Calabrasella bot: deterministic for a seed, legal by construction (it only
picks from the legal list it is given).

Habits:

- bids when its hand is strong (:func:`hand_strength` at least :data:`BID_STRENGTH`; the dealer,
  speaking last after two passes, a little less), otherwise passes;
- calls the 3 of the suit where it would help most (its longest suit with the 2 and the Asso);
- gives back its worst card (the lowest worthless card of its shortest suit);
- discards its worthless low cards (up to four, at least one) and takes the best widow cards;
- in play: leads a card no unplayed card can beat when it has one, else low from its longest suit;
  wins a trick with points as cheaply as it can; a defender feeds points to its partner when the
  partner is winning, and throws its cheapest card otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import ITALIAN_SUITS, Card, card
from ..games.base import Action
from ..games.calabrasella_rules import ORDER, POINTS
from ..games.tricks import trick_winner

__all__ = ["BID_STRENGTH", "CalabrasellaBot", "hand_strength"]

BID_STRENGTH = 17.0
"""The strength from which the bot plays alone."""
DEALER_STRENGTH = 15.0
"""The dealer's threshold after two passes (else the deal is void)."""


def _points(c: Card) -> int:
    return POINTS.get(c.rank, 0)


def _value(c: Card) -> float:
    """How much a card is worth keeping: its points plus its strength in the suit."""
    return _points(c) * 2 + ORDER.strength(c.rank) * 0.3


def hand_strength(hand: Sequence[Card]) -> float:
    """A rough count of what a hand can win alone: top cards by rank, length behind them."""
    total = 0.0
    for suit in ITALIAN_SUITS:
        cards = sorted((c for c in hand if c.suit == suit),
                       key=lambda c: -ORDER.strength(c.rank))
        top = 0
        for c in cards:
            if ORDER.strength(c.rank) == 10 - top:  # an unbroken run from the 3 down
                total += 3 + _points(c)
                top += 1
            else:
                total += _points(c) * 0.5
        if top and len(cards) >= 4:
            total += len(cards) - 3
    return total


class CalabrasellaBot:
    """Scores every legal action with the habits above; ties broken by a seeded choice."""

    name = "smart"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        hand = [card(c) for c in observation.get("hand", [])]
        scored = [(self._score(observation, hand, a), i) for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        ties = [legal[i] for s, i in scored if s == best]
        return ties[self._rng.randrange(len(ties))]

    def _score(self, obs: Mapping[str, Any], hand: list[Card], action: Action) -> float:
        kind = action.kind
        if kind in ("bid", "pass"):
            strength = hand_strength(hand)
            dealer_last = len(obs.get("bids", [])) == 2
            wants = strength >= (DEALER_STRENGTH if dealer_last else BID_STRENGTH)
            return 1.0 if (kind == "bid") == wants else 0.0
        if kind == "call":
            called = action.cards[0]
            same = [c for c in hand if c.suit == called.suit]
            return len(same) + sum(_points(c) for c in same)
        if kind == "return":
            assert action.card is not None
            return -self._keep_value(hand, action.card)
        if kind == "discard":
            return self._discard_score(hand, action.cards)
        if kind == "take":
            return sum(_value(c) for c in action.cards)
        if kind == "play":
            assert action.card is not None
            return self._play_score(obs, hand, action.card)
        return 0.0

    @staticmethod
    def _keep_value(hand: list[Card], c: Card) -> float:
        length = sum(1 for h in hand if h.suit == c.suit)
        return _value(c) * 3 + length * 0.5

    def _discard_score(self, hand: list[Card], cards: Sequence[Card]) -> float:
        score = 0.0
        for c in cards:
            if _points(c):
                score -= 10 + _value(c)
            else:
                # a low card of a short suit is the most useless
                length = sum(1 for h in hand if h.suit == c.suit)
                score += 2.0 - ORDER.strength(c.rank) * 0.1 - length * 0.05
        return score

    def _play_score(self, obs: Mapping[str, Any], hand: list[Card], mine: Card) -> float:
        trick = [card(code) for _, code in obs.get("trick", [])]
        seats = [s for s, _ in obs.get("trick", [])]
        played = {card(c) for c in obs.get("played", [])}
        seat, declarer = obs["seat"], obs.get("declarer")
        if not trick:
            if self._master(mine, hand, played):
                return 20 + _points(mine)
            length = sum(1 for h in hand if h.suit == mine.suit)
            return length - _value(mine)
        at_stake = sum(_points(c) for c in trick)
        lead_winner = seats[trick_winner(trick, ORDER)]
        partner_wins = (seat != declarer and lead_winner != declarer
                        and lead_winner != seat)
        if partner_wins:
            last_to_play = len(trick) == 2
            safe = last_to_play or self._master(trick[trick_winner(trick, ORDER)], [], played)
            return _points(mine) * (3 if safe else -1) - ORDER.strength(mine.rank) * 0.05
        if trick_winner([*trick, mine], ORDER) == len(trick):
            return 10 + at_stake + _points(mine) - ORDER.strength(mine.rank) * 0.2
        return -_value(mine)

    @staticmethod
    def _master(c: Card, hand: list[Card], played: set[Card]) -> bool:
        """Whether no card still out (not played, not in ``hand``) outranks ``c`` in its suit."""
        for rank in ORDER.high_to_low:
            if ORDER.strength(rank) <= ORDER.strength(c.rank):
                return True
            other = Card(rank, c.suit)
            if other not in played and other not in hand:
                return False
        return True
