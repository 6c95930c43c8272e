"""The Rumino rule-of-thumb bot.

In order of preference: a rumino (shown, or claimed out of turn through :meth:`RuminoBot.claim`)
whenever one is legal; a knock
whenever it is legal; the first rebuy when offered (later, dearer ones are declined); the upcard
when taking it lowers the deadwood the bot can keep after its discard, else the stock; the
discard that leaves the least deadwood, ties broken by keeping cards that work towards a rumino
and then by throwing the highest card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card, card
from ..games.base import Action
from ..games.rumino_melds import card_value, deadwood, is_joker

__all__ = ["RuminoBot"]


def _best_after_discard(hand: Sequence[Card], keep: Card | None = None) -> int:
    """The least deadwood of ``hand`` less one card (never ``keep``)."""
    return min(deadwood([c for j, c in enumerate(hand) if j != i])
               for i, d in enumerate(hand) if d != keep)


def _rumino_pull(c: Card, rest: Sequence[Card]) -> int:
    """How many other cards of ``rest`` share ``c``'s rank, or its suit within a span of seven."""
    if is_joker(c):
        return len(rest)
    same_rank = sum(1 for o in rest if not is_joker(o) and o.rank == c.rank)
    near = sum(1 for o in rest if not is_joker(o) and o.suit == c.suit
               and o.rank != c.rank and abs(o.rank - c.rank) < 7)
    return max(same_rank, near)


class RuminoBot:
    """Deterministic for a given seed; ties among equal choices are broken at random."""

    name = "smart"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        kinds = {a.kind for a in legal}
        for kind in ("claim", "rumino", "knock"):
            if kind in kinds:
                return min(a for a in legal if a.kind == kind)
        if "rebuy" in kinds:
            first = not observation.get("rebuys", [0] * 8)[observation.get("seat", 0)]
            return next(a for a in legal if a.kind == ("rebuy" if first else "decline"))
        hand = [card(code) for code in observation.get("hand", [])]
        if "draw" in kinds:
            return self._draw(observation, hand, legal)
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            return self._discard(hand, discards)
        return legal[self._rng.randrange(len(legal))]

    def claim(self, observation: Mapping[str, Any],
              claims: Sequence[Action]) -> Action | None:
        """An out-of-turn claim wins the match: always make one when it is open."""
        return min(claims) if claims else None

    def _draw(self, observation: Mapping[str, Any], hand: list[Card],
              legal: Sequence[Action]) -> Action:
        up = observation.get("upcard")
        by_value = {a.value: a for a in legal if a.kind == "draw"}
        if up is not None and "upcard" in by_value:
            upcard = card(up)
            if _best_after_discard([*hand, upcard], keep=upcard) < deadwood(hand):
                return by_value["upcard"]
        return by_value.get("stock") or by_value["upcard"]

    def _discard(self, hand: list[Card], options: Sequence[Action]) -> Action:
        def rank(action: Action) -> tuple[int, int, int, float]:
            assert action.card is not None
            rest = list(hand)
            rest.remove(action.card)
            return (deadwood(rest), _rumino_pull(action.card, rest),
                    -card_value(action.card), self._rng.random())
        return min(options, key=rank)
