"""Shared pieces of the Italian trick-taking games (Briscola, Tressette): rank orders, the winner of
a trick, and card point tables.

Pure functions over :class:`~p2pcards.cards.Card`; no game state. Ranks use the project's numbering
(1 = Asso, 2..7, 8 = Fante, 9 = Cavallo, 10 = Re).

- :data:`BRISCOLA_ORDER`: A, 3, K, Q, J, 7, 6, 5, 4, 2 (high to low).
- :data:`TRESSETTE_ORDER`: 3, 2, A, K, Q, J, 7, 6, 5, 4 (high to low).
- :data:`BRISCOLA_POINTS`: A 11, 3 10, K 4, Q 3, J 2, others 0 (120 in a 40-card deck).
- :data:`TRESSETTE_THIRDS`: A 3 thirds (one point), 2, 3, K, Q, J one third each, others 0
  (32 thirds in a 40-card deck, before any last-trick bonus).

:func:`trick_winner` decides a trick: the highest trump if any trump was played, else the highest
card of the suit led; cards of any other suit never win.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType

from ..cards import Card
from .base import Action

__all__ = [
    "BRISCOLA_ORDER",
    "BRISCOLA_POINTS",
    "TRESSETTE_ORDER",
    "TRESSETTE_THIRDS",
    "PlayActions",
    "RankOrder",
    "action_card_order",
    "all_known",
    "card_points",
    "cards_of_suit",
    "index_in_hand",
    "trick_winner",
]


@dataclass(frozen=True)
class RankOrder:
    """The capturing strength of ranks within a suit, listed from highest to lowest.

    ``strength(rank)`` is larger for stronger ranks; ranks must be distinct.
    """

    name: str
    high_to_low: tuple[int, ...]
    _strength: Mapping[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(set(self.high_to_low)) != len(self.high_to_low) or not self.high_to_low:
            raise ValueError(f"rank order {self.name!r} must list distinct ranks, at least one")
        count = len(self.high_to_low)
        table = {rank: count - i for i, rank in enumerate(self.high_to_low)}
        object.__setattr__(self, "_strength", MappingProxyType(table))

    def strength(self, rank: int) -> int:
        """How strong ``rank`` is (higher wins); ``ValueError`` naming the rank if not listed."""
        try:
            return self._strength[rank]
        except KeyError:
            raise ValueError(f"rank {rank} is not in the {self.name} rank order") from None

    def beats(self, challenger: Card, holder: Card) -> bool:
        """Whether ``challenger`` outranks ``holder`` (ranks only; suits are the caller's job)."""
        return self.strength(challenger.rank) > self.strength(holder.rank)

    @property
    def strengths(self) -> Mapping[int, int]:
        """Every listed rank's :meth:`strength`, as a read-only map (for hot loops)."""
        return self._strength


BRISCOLA_ORDER = RankOrder("briscola", (1, 3, 10, 9, 8, 7, 6, 5, 4, 2))
"""Briscola: Asso, 3, Re, Cavallo, Fante, 7, 6, 5, 4, 2."""

TRESSETTE_ORDER = RankOrder("tressette", (3, 2, 1, 10, 9, 8, 7, 6, 5, 4))
"""Tressette: 3, 2, Asso, Re, Cavallo, Fante, 7, 6, 5, 4."""

BRISCOLA_POINTS: Mapping[int, int] = MappingProxyType({1: 11, 3: 10, 10: 4, 9: 3, 8: 2})
"""Card points of Briscola by rank; ranks not listed are worth 0."""

TRESSETTE_THIRDS: Mapping[int, int] = MappingProxyType(
    {1: 3, 2: 1, 3: 1, 10: 1, 9: 1, 8: 1}
)
"""Card values of Tressette in thirds of a point by rank; ranks not listed are worth 0."""


def trick_winner(played: Sequence[Card], order: RankOrder, trump: str | None = None) -> int:
    """The index in ``played`` (in playing order, ``played[0]`` led) of the card that wins.

    The highest card of suit ``trump`` wins if any was played; otherwise the highest card of the
    suit led. ``trump=None`` means a game without trumps (Tressette). Raises ``ValueError`` for an
    empty trick.
    """
    if not played:
        raise ValueError("a trick needs at least one card to have a winner")
    strength = order.strengths
    best = 0
    best_card = played[0]
    try:
        for index in range(1, len(played)):
            challenger = played[index]
            if challenger.suit == best_card.suit:
                if strength[challenger.rank] > strength[best_card.rank]:
                    best, best_card = index, challenger
            elif trump is not None and challenger.suit == trump:
                # the first trump on a non-trump card always takes the lead of the trick
                best, best_card = index, challenger
    except KeyError as missing:  # the error RankOrder.strength gives for an unlisted rank
        raise ValueError(
            f"rank {missing.args[0]} is not in the {order.name} rank order"
        ) from None
    return best


def card_points(cards: Iterable[Card], table: Mapping[int, int]) -> int:
    """The sum of ``table[rank]`` over ``cards`` (ranks not in ``table`` count 0).

    Summed over a list rather than a generator: a third cheaper, and the environments count
    every side's pile for every observation."""
    get = table.get
    return sum([get(c.rank, 0) for c in cards])


def cards_of_suit(hand: Iterable[Card | None], suit: str) -> list[Card]:
    """The known cards of ``hand`` in ``suit``, in hand order (for must-follow-suit rules)."""
    return [c for c in hand if c is not None and c.suit == suit]


action_card_order = attrgetter("rank", "suit", "copy")
"""Sort key of cards in :class:`~p2pcards.games.base.Action`'s order (rank, suit, copy), read
in C: sorting a hand with it lists its plays in the order ``sort_actions`` would give them."""

_NONE_TYPE = type(None)


def all_known(hand: Iterable[Card | None]) -> bool:
    """Whether no card of ``hand`` is unknown (``None``). Same answer as ``None not in hand``,
    but compares the cards' types in C instead of calling each card's ``__eq__`` with ``None``."""
    return _NONE_TYPE not in map(type, hand)


def index_in_hand(hand: Sequence[Card | None], wanted: Card) -> int:
    """The index of ``wanted`` in ``hand`` (cards distinct), or -1 if no card there equals it.

    The same card object is looked for first (by identity, in C): the engines' own actions
    carry the very cards dealt; an equal card that is another object (parsed from a message)
    is then found by equality, as ``hand.index`` finds it."""
    ids = list(map(id, hand))
    try:
        return ids.index(id(wanted))
    except ValueError:
        pass
    try:
        return hand.index(wanted)
    except ValueError:
        return -1


class PlayActions:
    """``Action("play", c)`` for a card ``c``, made the first time and then shared: actions are
    immutable, so every state of a game can list the same objects (by card code: at most one per
    card of the deck). Each game keeps its own, so the actions hold that game's card objects."""

    def __init__(self) -> None:
        self._by_code: dict[str, Action] = {}

    def __call__(self, c: Card) -> Action:
        action = self._by_code.get(c.code)
        if action is None:
            action = self._by_code[c.code] = Action("play", c)
        return action
