"""Steering bots for Rumino: three seats that play so that seat 0 soon holds six cards of a
rumino (one rank, jokers wild) and seat 1 then discards the seventh, which opens a real claim
window to seat 0 (the next player, seat 2, has not acted yet).

Seat 0 keeps the cards of its most frequent rank and the jokers (useful cards) and takes a useful
upcard; seat 2, whom seat 0 follows, discards its useful cards to feed seat 0; seat 1 keeps its
useful cards until seat 0 holds six, then discards one. Nobody knocks or shows a rumino. Every
choice is one of the legal moves the seat's own table lists.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from p2pcards.cards import card
from p2pcards.games.base import Action

CLAIMANT, FINISHER, FEEDER = 0, 1, 2
SIX = 6


@dataclass
class Plan:
    """What the three seats share: the rank seat 0 collects, and how many useful cards it
    keeps after its last discard."""

    rank: int | None = None
    kept: int = 0

    def useful(self, code: str) -> bool:
        return code.startswith("X") or card(code).rank == self.rank


class Steer:
    """The steering bot of one seat (see the module docstring)."""

    name = "steer"

    def __init__(self, seat: int, plan: Plan) -> None:
        self.seat, self.plan = seat, plan

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        plan = self.plan
        hand = [str(c) for c in observation.get("hand", [])]
        naturals = [card(c).rank for c in hand if not c.startswith("X")]
        if plan.rank is None and self.seat == CLAIMANT and naturals:
            plan.rank = Counter(naturals).most_common(1)[0][0]
        kinds = {a.kind for a in legal}
        if "draw" in kinds:
            return self._draw(observation, legal)
        discards = [a for a in legal if a.kind == "discard" and a.card is not None]
        if discards and plan.rank is not None:
            return self._discard(hand, discards)
        calm = [a for a in legal if a.kind not in ("knock", "rumino", "rebuy")]
        return (discards or calm or list(legal))[0]

    def _draw(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        upcard = observation.get("upcard")
        take = (self.seat == CLAIMANT and isinstance(upcard, str) and self.plan.rank is not None
                and self.plan.useful(upcard))
        wanted = "upcard" if take else "stock"
        draws = [a for a in legal if a.kind == "draw"]
        return next((a for a in draws if a.value == wanted), draws[0])

    def _discard(self, hand: list[str], discards: list[Action]) -> Action:
        plan = self.plan
        good = [a for a in discards if a.card is not None and plan.useful(a.card.code)]
        bad = [a for a in discards if a not in good]
        if self.seat == FEEDER and good and plan.kept < SIX:
            return good[0]
        if self.seat == FINISHER and good and plan.kept >= SIX:
            return good[0]
        choice = (bad or discards)[0]
        if self.seat == CLAIMANT and choice.card is not None:
            plan.kept = sum(plan.useful(c) for c in hand if c != choice.card.code)
        return choice
