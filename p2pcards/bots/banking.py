"""Rule-of-thumb bots of the banking games: they bet within the limits (they only choose among
the legal actions, which the engines restrict to the limits and the cover rules) and play sensibly.

- As banker: a minimum of about 1/20 and a maximum of about 1/4 of what the bank can pay.
- Seven and a Half punter: bets about a tenth of its chips, hits below 5, stands from 5 on.
  Banker: hits below 5, and below 6 1/2 while a standing punter's face-up cards already beat it.
- Ziginette punter: bets on a board card only when the banker's rank has at least as many cards
  left in the deck as the card's rank (so the bet is at least even), more when the odds are
  better. Banker: deals again while it is not behind its starting chips.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import card
from ..games.base import Action
from ..games.sette_e_mezzo import TARGET, half_points

__all__ = ["SetteBot", "ZiginetteBot"]


def _nearest(options: Sequence[Action], target: float) -> Action:
    return min(options, key=lambda a: (abs(a.amount - target), a.amount))


def _limits(legal: Sequence[Action]) -> Action | None:
    """A limit choice when the banker is announcing limits, else ``None``."""
    kinds = {a.kind for a in legal}
    if kinds == {"minimum"}:
        cap = max(a.amount for a in legal)
        return _nearest(legal, max(1, cap // 20))
    if kinds == {"maximum"}:
        cap = max(a.amount for a in legal)
        low = min(a.amount for a in legal)
        return _nearest(legal, max(low, cap // 4))
    return None


class SetteBot:
    """Seven and a Half bot (see the module docstring)."""

    name = "smart"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        limit = _limits(legal)
        if limit is not None:
            return limit
        bets = [a for a in legal if a.kind == "bet"]
        if bets or any(a.kind == "pass" for a in legal):
            if not bets:
                return legal[0]
            seat = observation["seat"]
            target = observation["balances"][seat] / 10 * (0.5 + self._rng.random())
            return _nearest(bets, target)
        if len(legal) == 1:
            return legal[0]
        kinds = {a.kind: a for a in legal}
        total = observation.get("total") or 0
        hit = kinds.get("hit")
        if hit is None:
            return kinds["stand"]
        if observation.get("banker") == observation["seat"]:
            if total < 10:
                return hit
            if total < 13 and total < self._best_standing(observation):
                return hit
            return kinds["stand"]
        return hit if total < 10 else kinds["stand"]

    @staticmethod
    def _best_standing(observation: Mapping[str, Any]) -> int:
        """The highest lower bound of a standing punter's total, from its face-up cards."""
        best = 0
        for seat, cards in enumerate(observation["cards"]):
            status = observation["status"].get(str(seat), "")
            if seat == observation["seat"] or status not in ("stood", "two-card 7½"):
                continue
            if status == "two-card 7½":
                return TARGET + 1
            shown = [card(c) for c in cards if c != "??"]
            hidden = sum(1 for c in cards if c == "??")
            lower = sum(half_points(c) for c in shown) + hidden
            best = max(best, lower)
        return best


class ZiginetteBot:
    """Ziginette bot (see the module docstring)."""

    name = "smart"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        limit = _limits(legal)
        if limit is not None:
            return limit
        kinds = {a.kind for a in legal}
        if "deal-again" in kinds:
            seat = observation["seat"]
            again = observation["balances"][seat] >= observation.get("start_chips", 0)
            return next(a for a in legal if a.kind == ("deal-again" if again else "pass-bank"))
        bets = [a for a in legal if a.kind == "bet"]
        done = next(a for a in legal if a.kind == "done")
        if not bets or observation.get("banker_card") is None:
            return done
        seen = Counter(card(c).rank for c in observation["turned"])
        banker_rank = card(observation["banker_card"]).rank
        banker_left = 4 - seen[banker_rank]
        best: tuple[float, str] | None = None
        for value in sorted({a.value for a in bets}):
            left = 4 - seen[card(value).rank]
            odds = banker_left / (banker_left + left)
            if odds >= 0.5 and (best is None or odds > best[0]):
                best = (odds, value)
        if best is None:
            return done
        seat = observation["seat"]
        target = observation["balances"][seat] / 12 * (best[0] * 2) * (0.5 + self._rng.random())
        return _nearest([a for a in bets if a.value == best[1]], target)
