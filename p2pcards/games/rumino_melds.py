"""Rumino's card arithmetic: meld tests, the best meld split, deadwood and the rumino.

Pure functions over :class:`~p2pcards.cards.Card` values of the 108-card French deck. Only rank
and suit matter: the two copies of a card are interchangeable here (``7H1`` and ``7H2`` are both
"seven of hearts"). Jokers (suit ``X``) are wild in every meld and in the rumino.

Definitions (italian-card-games.txt, Rumino):

- **set**: 3 or 4 cards of one rank, any suits (copies of one card may sit in one set);
- **run**: 3 or 4 cards of one suit in sequence, aces low (``A 2 3`` is a run, ``Q K A`` is
  not), no rank twice;
- a joker stands for any card a meld needs; a meld may hold any number of jokers;
- **deadwood value**: ace 1, 2 to 10 face value, J Q K and jokers 10;
- **rumino**: 7 cards that are one set of seven (seven of a kind) or one run of seven (seven of
  one suit in sequence), jokers wild.

The best split of a hand is a set of disjoint melds leaving the least deadwood; it is computed,
never claimed. Among splits of equal deadwood the one found first in a fixed search order is
returned, so the result is deterministic for a given hand order (:func:`best_split` sorts).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..cards import JOKER_SUIT, Card

__all__ = [
    "MELD_SIZES",
    "RUMINO_SIZE",
    "Split",
    "best_split",
    "card_value",
    "deadwood",
    "is_joker",
    "is_meld",
    "is_rumino",
    "is_run",
    "is_set",
    "rumino_completions",
    "rumino_kind",
    "rumino_subsets",
]

MELD_SIZES = (3, 4)
"""A meld has 3 or 4 cards."""
RUMINO_SIZE = 7
"""A rumino has 7 cards."""
TOP_RANK = 13
"""The king; aces are low (rank 1), so a run ends at the king at the latest."""


def is_joker(c: Card) -> bool:
    """Whether ``c`` is one of the four jokers."""
    return c.suit == JOKER_SUIT


def card_value(c: Card) -> int:
    """Deadwood value: ace 1, 2..10 face value, J Q K and jokers 10."""
    if is_joker(c):
        return 10
    return min(c.rank, 10)


def is_set(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` (any number) are all of one rank, jokers wild."""
    ranks = {c.rank for c in cards if not is_joker(c)}
    return len(ranks) <= 1


def is_run(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` form one suit in sequence (aces low, no rank twice), jokers wild.

    The natural cards must share one suit, have distinct ranks and fit in a window of
    ``len(cards)`` consecutive ranks inside ``A .. K``; jokers fill the gaps and the ends.
    """
    naturals = [c for c in cards if not is_joker(c)]
    if len({c.suit for c in naturals}) > 1:
        return False
    ranks = [c.rank for c in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    if len(cards) > TOP_RANK:
        return False
    if not ranks:
        return True
    return max(ranks) - min(ranks) + 1 <= len(cards)


def is_meld(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` are a meld: 3 or 4 cards forming a set or a run."""
    return len(cards) in MELD_SIZES and (is_set(cards) or is_run(cards))


def rumino_kind(cards: Sequence[Card]) -> str | None:
    """``"kind"`` (seven of a kind), ``"sequence"`` (seven of one suit in sequence) or ``None``.

    Seven jokers cannot occur (the deck has four), so every rumino has a natural card; a hand that
    is both (impossible with at most four jokers and seven cards) would read as ``kind``.
    """
    if len(cards) != RUMINO_SIZE:
        return None
    if is_set(cards):
        return "kind"
    if is_run(cards):
        return "sequence"
    return None


def is_rumino(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` are exactly seven cards forming a rumino."""
    return rumino_kind(cards) is not None


def _may_hold_rumino(cards: Sequence[Card]) -> bool:
    """A quick necessary condition: the jokers plus the largest group of naturals sharing a rank
    or a suit make at least seven cards."""
    jokers = 0
    ranks: dict[int, int] = {}
    suits: dict[str, int] = {}
    for c in cards:
        if c.suit == JOKER_SUIT:
            jokers += 1
        else:
            ranks[c.rank] = ranks.get(c.rank, 0) + 1
            suits[c.suit] = suits.get(c.suit, 0) + 1
    if not ranks:
        return jokers >= RUMINO_SIZE
    return jokers + max(max(ranks.values()), max(suits.values())) >= RUMINO_SIZE


def rumino_subsets(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every 7-card subset of ``hand`` that is a rumino, sorted, each sorted."""
    if not _may_hold_rumino(hand):
        return []
    out = {tuple(sorted(sub)) for sub in combinations(hand, RUMINO_SIZE) if is_rumino(sub)}
    return sorted(out)


def rumino_completions(hand: Sequence[Card], extra: Card) -> list[tuple[Card, ...]]:
    """Every 6-card subset of ``hand`` that ``extra`` completes to a rumino, sorted."""
    if not _may_hold_rumino((*hand, extra)):
        return []
    out = {
        tuple(sorted(six))
        for six in combinations(hand, RUMINO_SIZE - 1)
        if is_rumino((*six, extra))
    }
    return sorted(out)


@dataclass(frozen=True)
class Split:
    """A hand broken into melds and deadwood.

    ``melds`` are disjoint melds of the hand (each sorted, in search order), ``loose`` the cards in
    no meld (sorted) and ``deadwood`` the sum of their values.
    """

    melds: tuple[tuple[Card, ...], ...]
    loose: tuple[Card, ...]
    deadwood: int


def best_split(hand: Iterable[Card]) -> Split:
    """The split of ``hand`` with the least deadwood (any hand size; Rumino uses 7 or 8).

    Search: with the hand sorted, the first card still unplaced is either deadwood or belongs to
    one of the melds (3 or 4 cards, all still unplaced) containing it; memoized over the set of
    unplaced cards. Exact: every partition into melds and deadwood is reachable. The splits of
    the last hands seen are kept, keyed by the sorted hand's card codes.
    """
    cards = tuple(sorted(hand, key=_card_order))
    key = tuple([c.code for c in cards])
    found = _SPLITS.get(key)
    if found is None:
        if len(_SPLITS) >= _SPLITS_KEPT:
            del _SPLITS[next(iter(_SPLITS))]
        found = _SPLITS[key] = _best(cards)
    return found


_SPLITS: dict[tuple[str, ...], Split] = {}
"""Recent hands' best splits, oldest first."""
_SPLITS_KEPT = 8192


def _card_order(c: Card) -> tuple[int, str, int]:
    """The cards' own order (rank, suit, copy), as a plain tuple: cheaper to compare."""
    return (c.rank, c.suit, c.copy)


def _best(cards: tuple[Card, ...]) -> Split:
    n = len(cards)
    full = (1 << n) - 1
    melds_with: list[list[int]] = [[] for _ in range(n)]
    for combo in _meld_candidates(cards):
        mask = 0
        for i in combo:
            mask |= 1 << i
        melds_with[combo[0]].append(mask)
    memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def solve(mask: int) -> tuple[int, tuple[int, ...]]:
        found = memo.get(mask)
        if found is not None:
            return found
        low = (mask & -mask).bit_length() - 1
        rest_value, rest_melds = solve(mask & ~(1 << low))
        best = (card_value(cards[low]) + rest_value, rest_melds)
        for meld in melds_with[low]:
            if meld & mask == meld:
                value, chosen = solve(mask & ~meld)
                if value < best[0]:
                    best = (value, (meld, *chosen))
        memo[mask] = best
        return best

    value, chosen = solve(full)
    used = 0
    for meld in chosen:
        used |= meld
    melds = tuple(tuple(cards[i] for i in range(n) if meld >> i & 1) for meld in chosen)
    loose = tuple(cards[i] for i in range(n) if not used >> i & 1)
    return Split(melds, loose, value)


def _meld_candidates(cards: tuple[Card, ...]) -> list[tuple[int, ...]]:
    """Every meld among ``cards`` as sorted index tuples, each once, in increasing order.

    A meld's natural cards share a rank (a set) or a suit (a run), so it lies inside one group:
    the naturals of one rank plus the jokers, or the naturals of one suit plus the jokers. Every
    3 or 4 cards of a rank's group (or of the jokers alone) are a set; a suit's group is
    searched for runs only."""
    jokers = [i for i, c in enumerate(cards) if c.suit == JOKER_SUIT]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str, list[int]] = {}
    for i, c in enumerate(cards):
        if c.suit != JOKER_SUIT:
            by_rank.setdefault(c.rank, []).append(i)
            by_suit.setdefault(c.suit, []).append(i)
    found: set[tuple[int, ...]] = set()
    for group in (*by_rank.values(), jokers):
        members = sorted(group + jokers) if group is not jokers else jokers
        for size in MELD_SIZES:
            found.update(combinations(members, size))
    ranks = [c.rank for c in cards]
    for group in by_suit.values():
        members = sorted(group + jokers)
        for size in MELD_SIZES:
            for combo in combinations(members, size):
                if combo not in found and _fits_a_run(combo, ranks, cards):
                    found.add(combo)
    return sorted(found)


def _fits_a_run(combo: tuple[int, ...], ranks: list[int], cards: tuple[Card, ...]) -> bool:
    """Whether the cards at ``combo`` (naturals of one suit and jokers) are a run: distinct
    natural ranks spanning no more places than there are cards."""
    low = high = 0
    seen = 0
    for i in combo:
        if cards[i].suit == JOKER_SUIT:
            continue
        rank = ranks[i]
        bit = 1 << rank
        if seen & bit:
            return False
        seen |= bit
        if not low or rank < low:
            low = rank
        if rank > high:
            high = rank
    return not seen or high - low + 1 <= len(combo)


def deadwood(hand: Iterable[Card]) -> int:
    """The deadwood count of ``hand`` under its best split."""
    return best_split(hand).deadwood
