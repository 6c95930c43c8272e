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

from bisect import insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..cards import FRENCH_108, JOKER_SUIT, Card

__all__ = [
    "DECK_ORDER",
    "MELD_SIZES",
    "MeldTracker",
    "RUMINO_SIZE",
    "Split",
    "best_split",
    "card_value",
    "deadwood",
    "hand_places",
    "is_joker",
    "is_meld",
    "is_rumino",
    "is_run",
    "is_set",
    "may_hold_rumino_at",
    "rumino_completions",
    "rumino_kind",
    "rumino_subsets",
    "split_at",
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
    or a suit make at least seven cards (so never with fewer than seven cards). Such a group
    leaves room for few other ranks or suits, which is checked first."""
    if len(cards) < RUMINO_SIZE:
        return False
    suits = [c.suit for c in cards if c.suit != JOKER_SUIT]
    need = RUMINO_SIZE - (len(cards) - len(suits))
    if need <= 0:
        return True
    kinds = len(suits) - need + 1
    held = set(suits)
    if len(held) <= kinds and any(suits.count(s) >= need for s in held):
        return True
    ranks = [c.rank for c in cards if c.suit != JOKER_SUIT]
    held_ranks = set(ranks)
    return len(held_ranks) <= kinds and any(ranks.count(r) >= need for r in held_ranks)


def may_hold_rumino_at(places: Sequence[int]) -> bool:
    """A quick necessary condition for a rumino in the hand whose :func:`hand_places` are
    ``places``: seven cards or more whose naturals show few enough suits or ranks for seven
    of them with the jokers to share one. When it fails, :func:`rumino_subsets` is empty."""
    held = len(places)
    if held < RUMINO_SIZE:
        return False
    kinds = held - RUMINO_SIZE + 1
    naturals = [p for p in places if _SUIT[p] != JOKER_SUIT]
    if held - len(naturals) >= RUMINO_SIZE:
        return True
    return (len({_SUIT[p] for p in naturals}) <= kinds
            or len({_RANK[p] for p in naturals}) <= kinds)


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
    the last hands seen are kept, keyed by the sorted hand's places in the deck's order (see
    :func:`hand_places`), or by its card codes when it holds a card of another deck.
    """
    given = list(hand)
    places = hand_places(given)
    if places is None:
        return _split_off_deck(given)
    return split_at(places)


def hand_places(hand: Iterable[Card]) -> list[int] | None:
    """The places of ``hand``'s cards in the French deck sorted in the cards' own order (rank,
    suit, copy; the jokers first), in increasing order: the hand sorted, as numbers. ``None``
    when a card is not of the French deck."""
    try:
        return sorted([_PLACE[c.code] for c in hand])
    except KeyError:
        return None


def split_at(places: Sequence[int]) -> Split:
    """:func:`best_split` of the hand whose :func:`hand_places` are ``places``."""
    key = tuple(places)
    found = _SPLITS.get(key)
    if found is None:
        found = _remember(key, _melds_of(key))
    return found[0]


class MeldTracker:
    """The melds of one seat's hand followed from one state to the next: a hand asked for
    with at most two cards more (and any cards less) than the last one asked for gets its
    melds from that hand's (those without the cards gone, plus the melds holding each new
    card, found among the cards of its rank, of its suit and the jokers) instead of a search
    of the whole hand. Every other hand is searched afresh. When the cards gone and the cards
    new lie in no meld, the melds are the last hand's and so is the choice among them: only
    the loose cards change. The answer is the :func:`split_at` of the same places, found the
    same way."""

    __slots__ = ("_key", "_melds", "_split")

    def __init__(self) -> None:
        self._key: tuple[int, ...] = ()
        self._melds: list[tuple[int, ...]] | None = []
        self._split: Split | None = None
        """The split of the hand at ``_key`` (``None`` before the first ask)."""

    def split(self, places: Sequence[int]) -> Split:
        """:func:`split_at` of ``places``, remembering its melds for the next hand."""
        key = tuple(places)
        found = _SPLITS.get(key)
        if found is None:
            melds = self._followed(key)
            if melds is None:
                found = _remember(key, _melds_of(key))
            elif melds is self._melds and melds and self._split is not None:
                found = _keep(key, _same_melds(self._split, key), melds)
            else:
                found = _remember(key, melds)
        self._key, self._melds, self._split = key, found[1], found[0]
        return found[0]

    def split_hand(self, hand: Sequence[Card | None]) -> Split | None:
        """The best split of ``hand`` when every card of it is known (else ``None``):
        :meth:`split` of its places, or :func:`best_split` when it holds a card of another
        deck."""
        known = [c for c in hand if c is not None]
        if len(known) != len(hand):
            return None
        places = hand_places(known)
        if places is None:
            return best_split(known)
        return self.split(places)

    def _followed(self, key: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        """The melds of ``key`` from the last hand's, when at most two of its cards are new
        (``None`` otherwise, or when a hand holds a card twice): the last hand's very list
        when they are the same melds."""
        last, melds = self._key, self._melds
        if melds is None:
            return None
        held = set(key)
        if len(held) != len(key):
            return None
        if len(key) == len(last) - 1:
            gone = set(last).difference(held)
            if len(gone) == 1:
                (place,) = gone
                kept = [meld for meld in melds if place not in meld]
                return melds if len(kept) == len(melds) else kept
        added = held.difference(last)
        if len(added) == 1 and len(key) == len(last) + 1:
            new = _melds_holding(key, *added)
            return sorted(melds + new) if new else melds
        return _followed_apart(last, melds, key, held, added)


def _followed_apart(last: tuple[int, ...], melds: list[tuple[int, ...]], key: tuple[int, ...],
                    held: set[int], added: set[int]) -> list[tuple[int, ...]] | None:
    """The melds of the hand at ``key`` (whose places are ``held``, none twice) from those of
    the hand at ``last``, when at most two of its cards (``added``) are new; else ``None``.
    The list is ``melds`` itself when no meld is gone and none is new."""
    if len(added) > _NEW_CARDS_FOLLOWED:
        return None
    followed = melds
    if len(held) - len(added) != len(last):
        gone = set(last).difference(held)
        kept = [meld for meld in melds if gone.isdisjoint(meld)]
        if len(kept) != len(melds):
            followed = kept
    if not added:
        return followed
    hand = [place for place in key if place not in added]
    new: list[tuple[int, ...]] = []
    for place in sorted(added):
        insort(hand, place)
        new += _melds_holding(tuple(hand), place)
    return sorted(followed + new) if new else followed


def _remember(key: tuple[int, ...], melds: list[tuple[int, ...]] | None
              ) -> tuple[Split, list[tuple[int, ...]] | None]:
    """Keep and return the split of the hand at ``key`` (whose melds are ``melds``)."""
    return _keep(key, _split_with(key, melds), melds)


def _keep(key: tuple[int, ...], split: Split, melds: list[tuple[int, ...]] | None
          ) -> tuple[Split, list[tuple[int, ...]] | None]:
    """Keep and return ``split``, the split of the hand at ``key`` whose melds are ``melds``."""
    if len(_SPLITS) >= _SPLITS_KEPT:
        _SPLITS.clear()
    found = _SPLITS[key] = (split, melds)
    return found


def _same_melds(split: Split, key: tuple[int, ...]) -> Split:
    """The split of the hand at ``key`` whose melds are those of the hand ``split`` was made
    of (the cards gone and the cards new lie in no meld). The search runs over the cards in
    melds only and adds the others' value at the end, so it lays the same melds: only the
    loose cards and the deadwood change."""
    laid = {_PLACE[c.code] for meld in split.melds for c in meld}
    loose = [i for i in key if i not in laid]
    return Split(split.melds, tuple(map(DECK_ORDER.__getitem__, loose)),
                 sum(map(_VALUE.__getitem__, loose)))


def _melds_of(key: tuple[int, ...]) -> list[tuple[int, ...]] | None:
    """Every meld of the hand at ``key`` as a tuple of places, in increasing order (the order
    of their index tuples in the hand); ``None`` when the hand holds a card twice."""
    if len(set(key)) != len(key):
        return None
    combos = _meld_candidates([_RANK[i] for i in key], [_SUIT[i] for i in key])
    return [tuple([key[i] for i in combo]) for combo in combos]


def _melds_holding(key: tuple[int, ...], place: int) -> list[tuple[int, ...]]:
    """The melds of the hand at ``key`` (no card twice) that hold the card at ``place``, as
    sorted tuples of places, each once. A natural card's sets lie among the other cards of its
    rank and the jokers, its runs among the cards of its suit within three ranks of it and the
    jokers; a joker's melds are searched in the whole hand."""
    if _SUIT[place] == JOKER_SUIT:
        melds = _melds_of(key) or []
        return [meld for meld in melds if place in meld]
    rank, suit = _RANK[place], _SUIT[place]
    jokers: list[int] = []
    kin: list[int] = []
    suited: list[int] = []
    for i in key:
        other_suit = _SUIT[i]
        if other_suit == JOKER_SUIT:
            jokers.append(i)
        elif i != place:
            other_rank = _RANK[i]
            if other_rank == rank:
                kin.append(i)
            elif other_suit == suit and -3 <= other_rank - rank <= 3:
                suited.append(i)
    found: list[tuple[int, ...]] = []
    partners = kin + jokers
    if len(partners) >= 2:
        found.extend(tuple(sorted((place, *others))) for others in combinations(partners, 2))
        found.extend(tuple(sorted((place, *others))) for others in combinations(partners, 3))
    partners = suited + jokers
    if len(partners) >= 2:
        for size in (2, 3):
            found.extend(tuple(sorted((place, *others)))
                         for others in combinations(partners, size)
                         if _run_with(rank, others))
    if len(jokers) > 1:
        return list(set(found))
    return found


def _run_with(rank: int, others: tuple[int, ...]) -> bool:
    """Whether a natural card of ``rank`` with the cards at ``others`` (jokers and naturals of
    its suit, none of its rank) is a run: distinct natural ranks spanning no more places than
    there are cards."""
    low = high = rank
    seen = 1 << rank
    for i in others:
        if _SUIT[i] == JOKER_SUIT:
            continue
        other_rank = _RANK[i]
        bit = 1 << other_rank
        if seen & bit:
            return False
        seen |= bit
        if other_rank < low:
            low = other_rank
        elif other_rank > high:
            high = other_rank
    return high - low < len(others) + 1


def _split_with(key: tuple[int, ...], melds: list[tuple[int, ...]] | None) -> Split:
    """The best split of the hand at ``key`` whose melds are ``melds`` (``None``: not known,
    search them)."""
    if not melds:
        cards = tuple([DECK_ORDER[i] for i in key])
        values = [_VALUE[i] for i in key]
        if melds is None:
            return _split(cards, [_RANK[i] for i in key], [_SUIT[i] for i in key], values)
        return Split((), cards, sum(values))
    laid: set[int] = set()
    count = 0
    for meld in melds:
        laid.update(meld)
        count += len(meld)
    if len(laid) == count:
        return _all_melds(key, melds, laid)
    index = {place: i for i, place in enumerate(key)}
    melds_with: list[list[int]] = [[] for _ in key]
    for meld in melds:
        mask = 0
        for place in meld:
            mask |= 1 << index[place]
        melds_with[index[meld[0]]].append(mask)
    return _search(tuple([DECK_ORDER[i] for i in key]), [_VALUE[i] for i in key], melds_with)


def _all_melds(key: tuple[int, ...], melds: list[tuple[int, ...]], laid: set[int]) -> Split:
    """The best split of the hand at ``key`` when no two of its ``melds`` share a card (the
    cards of the melds are ``laid``): every meld laid (each card is worth at least 1, so
    leaving one out would leave more deadwood), in the order of their lowest cards, which is
    how :func:`_search` finds them."""
    loose = [i for i in key if i not in laid]
    return Split(tuple([tuple([DECK_ORDER[i] for i in meld]) for meld in melds]),
                 tuple([DECK_ORDER[i] for i in loose]), sum([_VALUE[i] for i in loose]))


def _split_off_deck(given: list[Card]) -> Split:
    """:func:`best_split` of a hand holding a card that is not of the French deck."""
    cards = tuple(sorted(given, key=_card_order))
    key = tuple([c.code for c in cards])
    found = _SPLITS.get(key)
    if found is None:
        if len(_SPLITS) >= _SPLITS_KEPT:
            _SPLITS.clear()
        found = _SPLITS[key] = (_split(cards, [c.rank for c in cards], [c.suit for c in cards],
                                       [card_value(c) for c in cards]), None)
    return found[0]


_SPLITS: dict[tuple[int, ...] | tuple[str, ...],
              tuple[Split, list[tuple[int, ...]] | None]] = {}
"""Recent hands' best splits with their melds as places (``None`` for a hand of another deck or
holding a card twice), forgotten all at once when full."""
_SPLITS_KEPT = 8192
_NEW_CARDS_FOLLOWED = 2
"""A tracker follows a hand with at most this many new cards; more are searched afresh."""


def _card_order(c: Card) -> tuple[int, str, int]:
    """The cards' own order (rank, suit, copy), as a plain tuple: cheaper to compare."""
    return (c.rank, c.suit, c.copy)


DECK_ORDER: tuple[Card, ...] = tuple(sorted(FRENCH_108.cards, key=_card_order))
"""The French deck in the cards' own order (the jokers first): a hand sorted by its cards'
places here is the hand sorted."""
_PLACE: dict[str, int] = {c.code: i for i, c in enumerate(DECK_ORDER)}
_RANK: tuple[int, ...] = tuple(c.rank for c in DECK_ORDER)
_SUIT: tuple[str, ...] = tuple(c.suit for c in DECK_ORDER)
_VALUE: tuple[int, ...] = tuple(card_value(c) for c in DECK_ORDER)


def _split(cards: tuple[Card, ...], ranks: list[int], suits: list[str],
           values: list[int]) -> Split:
    """The best split of the sorted ``cards``, given each card's rank, suit and value."""
    melds_with = _melds_by_first_card(ranks, suits)
    if melds_with is None:
        return Split((), cards, sum(values))
    return _search(cards, values, melds_with)


def _search(cards: tuple[Card, ...], values: list[int], melds_with: list[list[int]]) -> Split:
    """The best split of the sorted ``cards`` (worth ``values``) whose melds, as masks of
    indices, are listed under their lowest index in increasing order of their index tuples.

    Cards in no meld are deadwood whatever the split, and adding their value to every choice
    changes none of the comparisons: the search runs over the cards in melds only and adds
    the others' value at the end."""
    n = len(cards)
    in_melds = 0
    for masks in melds_with:
        for meld in masks:
            in_melds |= meld
    memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def solve(mask: int) -> tuple[int, tuple[int, ...]]:
        """The least deadwood of the cards in ``mask`` and the melds laid for it: the lowest
        card is deadwood or lies in one of the melds starting at it that fit (the first of
        equal answers kept). Lowest cards no meld fits are deadwood at once."""
        found = memo.get(mask)
        if found is not None:
            return found
        skipped = 0
        rest = mask
        while True:
            low = (rest & -rest).bit_length() - 1
            starts = melds_with[low]
            if starts:
                fitting = [meld for meld in starts if meld & rest == meld]
                if fitting:
                    break
            skipped += values[low]
            rest ^= 1 << low
            if not rest:
                memo[mask] = (skipped, ())
                return skipped, ()
        rest_value, rest_melds = solve(rest ^ 1 << low)
        best = (values[low] + rest_value, rest_melds)
        for meld in fitting:
            value, chosen = solve(rest & ~meld)
            if value < best[0]:
                best = (value, (meld, *chosen))
        if skipped:
            best = (best[0] + skipped, best[1])
        memo[mask] = best
        return best

    value, chosen = solve(in_melds)
    value += sum([values[i] for i in range(n) if not in_melds >> i & 1])
    used = 0
    for meld in chosen:
        used |= meld
    melds = tuple(tuple(cards[i] for i in range(n) if meld >> i & 1) for meld in chosen)
    loose = tuple(cards[i] for i in range(n) if not used >> i & 1)
    return Split(melds, loose, value)


def _melds_by_first_card(ranks: list[int], suits: list[str]) -> list[list[int]] | None:
    """Every meld among the cards of ``ranks`` and ``suits`` as a bit mask of their indices,
    listed under its lowest index, each list in increasing order of the melds' index tuples;
    ``None`` when there is no meld."""
    combos = _meld_candidates(ranks, suits)
    if not combos:
        return None
    melds_with: list[list[int]] = [[] for _ in ranks]
    for combo in combos:
        mask = 0
        for i in combo:
            mask |= 1 << i
        melds_with[combo[0]].append(mask)
    return melds_with


def _meld_candidates(ranks: list[int], suits: list[str]) -> list[tuple[int, ...]]:
    """Every meld among the cards of ``ranks`` and ``suits`` (sorted by rank, then suit) as
    sorted index tuples, each once, in increasing order.

    A meld's natural cards share a rank (a set) or a suit (a run), so it lies inside one group:
    the naturals of one rank plus the jokers, or the naturals of one suit plus the jokers. Every
    3 or 4 cards of a rank's group (or of the jokers alone) are a set; a suit's group is
    searched for runs only. With at most one joker every meld holds two naturals, so no meld
    is found twice; with more, the duplicates are dropped."""
    if JOKER_SUIT not in suits:
        return _natural_melds(ranks, suits)
    jokers = [i for i, s in enumerate(suits) if s == JOKER_SUIT]
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str, list[int]] = {}
    for i, s in enumerate(suits):
        if s != JOKER_SUIT:
            by_rank.setdefault(ranks[i], []).append(i)
            by_suit.setdefault(s, []).append(i)
    short = 3 - len(jokers)
    found: list[tuple[int, ...]] = []
    if short <= 0:
        found.extend(combinations(jokers, 3))
        found.extend(combinations(jokers, 4))
    for group in by_rank.values():
        if len(group) >= short:
            members = sorted(group + jokers)
            found.extend(combinations(members, 3))
            found.extend(combinations(members, 4))
    for group in by_suit.values():
        if len(group) >= short:
            members = sorted(group + jokers)
            for size in MELD_SIZES:
                found.extend(combo for combo in combinations(members, size)
                             if _fits_a_run(combo, ranks, suits))
    if len(jokers) > 1:
        return sorted(set(found))
    found.sort()
    return found


def _natural_melds(ranks: list[int], suits: list[str]) -> list[tuple[int, ...]]:
    """:func:`_meld_candidates` of a hand without jokers: sets are three or four cards of a
    rank (adjacent, the hand being sorted by rank), runs lie in a suit holding three
    consecutive ranks."""
    found: list[tuple[int, ...]] = []
    n = len(ranks)
    i = 0
    while i < n - 2:
        if ranks[i] == ranks[i + 2]:
            end = i + 3
            while end < n and ranks[end] == ranks[i]:
                end += 1
            found.extend(combinations(range(i, end), 3))
            found.extend(combinations(range(i, end), 4))
            i = end
        else:
            i += 1
    held: dict[str, int] = {}
    for i, s in enumerate(suits):
        held[s] = held.get(s, 0) | 1 << ranks[i]
    for suit, bits in held.items():
        if bits & bits >> 1 & bits >> 2:
            members = [i for i, s in enumerate(suits) if s == suit]
            for size in MELD_SIZES:
                found.extend(combo for combo in combinations(members, size)
                             if _fits_a_run(combo, ranks, suits))
    found.sort()
    return found


def _fits_a_run(combo: tuple[int, ...], ranks: list[int], suits: list[str]) -> bool:
    """Whether the cards at ``combo`` (naturals of one suit and jokers) are a run: distinct
    natural ranks spanning no more places than there are cards."""
    low = high = 0
    seen = 0
    for i in combo:
        if suits[i] == JOKER_SUIT:
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
