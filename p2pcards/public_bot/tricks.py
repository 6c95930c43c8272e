"""The public bot of the trick games: Briscola, Tressette and Tresette, Tute, Calabrasella
(protocol/BOTS.md §4–§7). Integer keys only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import ITALIAN_SUITS, Card, card
from ..games import calabrasella_rules, tute_rules
from ..games.base import Action
from ..games.tricks import (
    BRISCOLA_ORDER,
    BRISCOLA_POINTS,
    TRESSETTE_ORDER,
    TRESSETTE_THIRDS,
    RankOrder,
    trick_winner,
)
from .draws import DrawStream
from .order import Key, KeyOf

__all__ = ["briscola_keys", "tressette_keys", "tute_keys", "calabrasella_keys", "TrickRules"]


@dataclass(frozen=True)
class TrickRules:
    """What the trick rule of BOTS.md §4 needs of a game: its rank order, card points (in the
    game's smallest unit) and trump suit (``None`` without trumps)."""

    order: RankOrder
    points: Mapping[int, int]
    trump: str | None

    def p(self, c: Card) -> int:
        """The card's points."""
        return self.points.get(c.rank, 0)

    def s(self, c: Card) -> int:
        """The card's strength, 1 (weakest) to 10 (strongest)."""
        return self.order.strength(c.rank)

    def t(self, c: Card) -> int:
        """1 for a trump, else 0."""
        return 1 if self.trump is not None and c.suit == self.trump else 0


def _trick(observation: Mapping[str, Any]) -> list[tuple[int, Card]]:
    """The current trick as (seat, card) in playing order, whichever form the engine writes."""
    out = []
    for item in observation.get("trick", []):
        if isinstance(item, Mapping):
            out.append((int(item["seat"]), card(item["card"])))
        else:
            out.append((int(item[0]), card(item[1])))
    return out


def play_key(rules: TrickRules, trick: Sequence[tuple[int, Card]], partner: int | None,
             c: Card) -> Key:
    """The trick rule (BOTS.md §4) for playing ``c`` on ``trick``; ``partner`` is the seat whose
    winning trick the bot feeds, or ``None``."""
    if not trick:
        return (0, rules.t(c), rules.p(c), rules.s(c))
    cards = [played for _, played in trick]
    winner_seat = trick[trick_winner(cards, rules.order, rules.trump)][0]
    if partner is not None and winner_seat == partner:
        return (0, rules.t(c), -rules.p(c), rules.s(c))
    stake = sum(rules.p(played) for played in cards)
    wins = trick_winner([*cards, c], rules.order, rules.trump) == len(cards)
    if wins and (stake + rules.p(c) > 0 or rules.t(c) == 0):
        return (0, rules.t(c), 0, rules.s(c))
    return (1, rules.t(c), rules.p(c), rules.s(c))


def _pair_partner(observation: Mapping[str, Any], players: int) -> int | None:
    """The partner in a four-seat partnership game (seat + 2), else ``None``."""
    if players != 4:
        return None
    return (int(observation["seat"]) + 2) % 4


def _plays(rules: TrickRules, observation: Mapping[str, Any], partner: int | None,
           other: KeyOf) -> KeyOf:
    trick = _trick(observation)

    def key_of(action: Action) -> Key:
        if action.kind == "play" and action.card is not None:
            signal = 1 if action.value or action.amount else 0
            return (1, signal, *play_key(rules, trick, partner, action.card))
        return other(action)
    return key_of


def _last(action: Action) -> Key:
    return (9,)


def briscola_keys(observation: Mapping[str, Any], legal: Sequence[Action],
                  draws: DrawStream) -> KeyOf:
    """Briscola: the trick rule, partner as in BOTS.md §4."""
    rules = TrickRules(BRISCOLA_ORDER, BRISCOLA_POINTS, observation.get("trump_suit"))
    players = int(observation.get("players", len(observation.get("hand_sizes", []))))
    return _plays(rules, observation, _pair_partner(observation, players), _last)


def tressette_keys(observation: Mapping[str, Any], legal: Sequence[Action],
                   draws: DrawStream) -> KeyOf:
    """Tressette and Tresette: every declaration and announcement first, then the trick rule
    without signals."""
    rules = TrickRules(TRESSETTE_ORDER, TRESSETTE_THIRDS, None)
    players = len(observation.get("hand_sizes", []))

    def other(action: Action) -> Key:
        return (0,) if action.kind in ("declare", "announce") else (9,)
    return _plays(rules, observation, _pair_partner(observation, players), other)


def tute_keys(observation: Mapping[str, Any], legal: Sequence[Action],
              draws: DrawStream) -> KeyOf:
    """Tute: a tute first, then las cuarenta, then las veinte, then the trick rule."""
    rules = TrickRules(tute_rules.ORDER, tute_rules.POINTS, observation.get("trump_suit"))
    players = int(observation.get("players", len(observation.get("hand_sizes", []))))

    def other(action: Action) -> Key:
        if action.kind != "declare":
            return (9,)
        if action.value == tute_rules.TUTE:
            return (0, 0, 0)
        return (0, 1, -tute_rules.declaration_points(action.value))
    return _plays(rules, observation, _pair_partner(observation, players), other)


def _c_points(c: Card) -> int:
    return calabrasella_rules.POINTS.get(c.rank, 0)


def _c_strength(c: Card) -> int:
    return calabrasella_rules.ORDER.strength(c.rank)


def hand_strength(hand: Sequence[Card]) -> int:
    """BOTS.md §7: a suit's unbroken run from the 3 down counts ``2·(3 + p)`` a card, its other
    cards ``p``; a suit with such a run and at least four cards adds ``2·(length − 3)``."""
    total = 0
    for suit in ITALIAN_SUITS:
        cards = sorted((c for c in hand if c.suit == suit), key=lambda c: -_c_strength(c))
        top = 0
        for c in cards:
            if _c_strength(c) == 10 - top:
                total += 2 * (3 + _c_points(c))
                top += 1
            else:
                total += _c_points(c)
        if top and len(cards) >= 4:
            total += 2 * (len(cards) - 3)
    return total


BID_STRENGTH = 34
"""The strength from which the bot bids."""
DEALER_STRENGTH = 30
"""The strength from which the last speaker bids after two passes."""


def calabrasella_keys(observation: Mapping[str, Any], legal: Sequence[Action],
                      draws: DrawStream) -> KeyOf:
    """Calabrasella: bidding, the call, the return, the discard and the take by BOTS.md §7,
    the play by the trick rule (the other defender is a defender's partner)."""
    hand = [card(code) for code in observation.get("hand", [])]
    seat, declarer = int(observation["seat"]), observation.get("declarer")
    partner = None
    if declarer is not None and seat != declarer:
        players = int(observation.get("players", 3))
        partner = next(s for s in range(players) if s not in (seat, declarer))
    rules = TrickRules(calabrasella_rules.ORDER, calabrasella_rules.POINTS, None)

    def length(c: Card) -> int:
        return sum(1 for h in hand if h.suit == c.suit)

    def discard_score(c: Card) -> int:
        if _c_points(c):
            return -(200 + 40 * _c_points(c) + 6 * _c_strength(c))
        return 40 - 2 * _c_strength(c) - length(c)

    def other(action: Action) -> Key:
        kind = action.kind
        if kind in ("bid", "pass"):
            need = DEALER_STRENGTH if len(observation.get("bids", {})) == 2 else BID_STRENGTH
            wants = hand_strength(hand) >= need
            return (0, 0 if (kind == "bid") == wants else 1)
        if kind == "call":
            same = [c for c in hand if c.suit == action.cards[0].suit]
            return (0, -(len(same) + sum(_c_points(c) for c in same)))
        if kind == "return" and action.card is not None:
            c = action.card
            return (0, 60 * _c_points(c) + 9 * _c_strength(c) + 5 * length(c))
        if kind == "discard":
            return (0, -sum(discard_score(c) for c in action.cards))
        if kind == "take":
            return (0, -sum(20 * _c_points(c) + 3 * _c_strength(c) for c in action.cards))
        if kind in ("give", "deny"):
            return (0,)
        return (9,)
    return _plays(rules, observation, partner, other)
