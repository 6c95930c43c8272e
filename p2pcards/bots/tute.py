"""The Tute rule-of-thumb bot: declares the most valuable marriage it may, then plays like the
Briscola bot (wins tricks with points cheaply, saves trumps, gives points to a winning partner).

Every action it is offered is legal already (the engine applies the obligations to follow, head,
trump and overtrump), so it only ranks them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games.base import Action
from ..games.tute_rules import ORDER, POINTS, declaration_points
from .heuristic import _follow_score, _partner_winning, _ScoringBot, _trick_cards

__all__ = ["TuteBot"]


class TuteBot(_ScoringBot):
    """A tute first, then las cuarenta, then las veinte; otherwise the best-looking card."""

    def score(self, observation: Mapping[str, Any], action: Action) -> float:
        if action.kind == "declare":
            return 10_000.0 if action.value == "tute" else 1000.0 + declaration_points(
                action.value)
        assert action.card is not None
        trump = observation.get("trump_suit")
        trick = _trick_cards(observation)
        partner = _partner_winning(observation, trick, ORDER, trump)
        value = _follow_score(trick, action.card, ORDER, trump,
                              lambda c: POINTS.get(c.rank, 0), partner)
        if not trick and action.card.rank in (9, 10):
            value -= 3  # keep kings and caballos for marriages
        return value
