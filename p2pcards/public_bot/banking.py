"""The public bot of the banking games: Seven and a Half and Ziginette (protocol/BOTS.md §11,
§12). Integer keys only; the bets are the only choices that use the generator."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import card
from ..games.base import Action
from ..games.sette_e_mezzo import TARGET, half_points
from .draws import DrawStream
from .order import Key, KeyOf

__all__ = ["sette_keys", "ziginette_keys", "limit_key"]

HIT_BELOW = 10
"""A total (half-points) below which the bot always hits."""
CHASE_BELOW = 13
"""The banker also hits below this total while a standing punter shows more."""
SEVEN = "two-card 7½"
"""The status of a punter that showed a two-card 7½."""


def limit_key(legal: Sequence[Action], action: Action) -> Key | None:
    """The key of a limit the banker announces (``minimum``: nearest ``max(1, ⌊cap/20⌋)``;
    ``maximum``: nearest ``max(low, ⌊cap/4⌋)``; ``cap`` and ``low`` the largest and smallest
    amounts offered for that kind), ``None`` for any other action."""
    if action.kind not in ("minimum", "maximum"):
        return None
    amounts = [a.amount for a in legal if a.kind == action.kind]
    cap = max(amounts)
    target = max(1, cap // 20) if action.kind == "minimum" else max(min(amounts), cap // 4)
    return (0, abs(action.amount - target), action.amount)


def _best_standing(observation: Mapping[str, Any]) -> int:
    """The highest lower bound of a standing punter's total: 16 if one showed a two-card 7½,
    else the half-points of its face-up cards plus one for each face-down card."""
    best = 0
    for seat, cards in enumerate(observation["cards"]):
        status = observation["status"].get(str(seat), "")
        if seat == observation["seat"] or status not in ("stood", SEVEN):
            continue
        if status == SEVEN:
            return TARGET + 1
        shown = sum(half_points(card(code)) for code in cards if code != "??")
        best = max(best, shown + sum(1 for code in cards if code == "??"))
    return best


def sette_keys(observation: Mapping[str, Any], legal: Sequence[Action],
               draws: DrawStream) -> KeyOf:
    """Limits as :func:`limit_key`; a bet nearest ``⌊balance·(5 + draw(11))/100⌋``; ``bust`` and
    ``seven-and-a-half`` whenever offered; hit below 10 half-points, and as banker also below 13
    while a standing punter shows more."""
    seat = int(observation["seat"])
    target = 0
    if any(a.kind == "bet" for a in legal):
        target = observation["balances"][seat] * (5 + draws.below(11)) // 100
    total = observation.get("total") or 0
    hit = total < HIT_BELOW
    if observation.get("banker") == seat and not hit:
        hit = total < CHASE_BELOW and total < _best_standing(observation)

    def key_of(action: Action) -> Key:
        limit = limit_key(legal, action)
        if limit is not None:
            return limit
        kind = action.kind
        if kind == "bet":
            return (0, abs(action.amount - target), action.amount)
        if kind in ("bust", "seven-and-a-half"):
            return (0,)
        if kind in ("hit", "stand"):
            return (1, 0 if (kind == "hit") == hit else 1)
        return (9,)
    return key_of


def ziginette_keys(observation: Mapping[str, Any], legal: Sequence[Action],
                   draws: DrawStream) -> KeyOf:
    """Limits as :func:`limit_key`; deal again while not behind the starting chips; bet on the
    board card with the fewest cards of its rank left among those with no more left than the
    banker's rank (and at least one of the banker's), nearest
    ``⌊balance·2·b·(5 + draw(11)) / (120·(b + l))⌋``; else ``done``."""
    seat = int(observation["seat"])
    balance = observation["balances"][seat]
    again = balance >= observation.get("start_chips", 0)
    choice = _ziginette_bet(observation, legal)
    target = 0
    if choice is not None:
        value, banker_left, left = choice
        target = (balance * 2 * banker_left * (5 + draws.below(11))
                  // (120 * (banker_left + left)))

    def key_of(action: Action) -> Key:
        limit = limit_key(legal, action)
        if limit is not None:
            return limit
        kind = action.kind
        if kind in ("deal-again", "pass-bank"):
            return (0, 0 if (kind == "deal-again") == again else 1)
        if kind == "bet" and choice is not None and action.value == choice[0]:
            return (0, abs(action.amount - target), action.amount)
        if kind == "done":
            return (1,)
        return (9,)
    return key_of


def _ziginette_bet(observation: Mapping[str, Any],
                   legal: Sequence[Action]) -> tuple[str, int, int] | None:
    """The board card the bot bets on, with the cards left of the banker's rank and of its
    own, or ``None``."""
    values = sorted({a.value for a in legal if a.kind == "bet"}, key=str.encode)
    if not values or observation.get("banker_card") is None:
        return None
    seen = Counter(card(code).rank for code in observation["turned"])
    banker_left = 4 - seen[card(observation["banker_card"]).rank]
    best: tuple[str, int, int] | None = None
    for value in values:
        left = 4 - seen[card(value).rank]
        if banker_left >= 1 and left <= banker_left and (best is None or left < best[2]):
            best = (value, banker_left, left)
    return best
