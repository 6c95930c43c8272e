"""A Burraco seat's plays listed fast: the hand as the bits of one integer.

:func:`~.burraco_turns.play_actions` states what a seat may play once it has drawn. For a hand
of five cards or more nothing about the hand left after a meld or an addition can be refused,
and a discard is refused only for the card taken alone from the pile; for those hands
:func:`plays` lists exactly the same actions in the same order, with less work per decision:

- every card of ``FRENCH_108`` has an *ordinal*, its place in the order of
  :class:`~p2pcards.cards.Card` (rank, suit, copy), which is the order the actions sort their
  cards in; a hand is the integer with its cards' bits set (``1 << ordinal``);
- a seat keeps its hand's three-card melds from its previous decision (:data:`HandMelds`),
  drops those that lost a card and lists only the melds that use a card new to the hand
  (:func:`three_card_entries`): the sets of its rank and the runs through its place, or, for a
  new wild card, every set and run it can complete;
- a three-card meld's entry (its sort key, its action, its mask) is made once per process:
  there are about ten thousand;
- the additions of one card to one meld are memoized on the meld (:attr:`Meld.memo`), per card
  and meld number, and only the cards that may grow the meld are tried.

Everything memoized is a function of immutable values (a meld, a card, a hand's cards), so no
memo can outlive a change of a match's state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from ..cards import FRENCH_108, FRENCH_SUITS, JOKER_SUIT, Card
from .base import Action
from .burraco_melds import Meld, may_extend, one_card_extensions, sort_key

__all__ = [
    "CARDS",
    "FAST_HAND_SIZE",
    "HandMelds",
    "ORDINAL",
    "hand_mask",
    "plays",
    "three_card_entries",
]

FAST_HAND_SIZE = 5
"""The least hand for which :func:`plays` applies (smaller hands take the general path)."""

CARDS: tuple[Card, ...] = tuple(sorted(FRENCH_108.cards))
"""The deck's cards in the order of :class:`Card`: a card's index here is its ordinal."""
ORDINAL: dict[str, int] = {c.code: i for i, c in enumerate(CARDS)}
"""Card code -> ordinal (codes, not cards, as keys: a code's hash is kept by the string)."""
_POWERS: tuple[int, ...] = tuple(1 << i for i in range(len(CARDS)))
_WILD_MASK = sum(_POWERS[i] for i, c in enumerate(CARDS) if c.rank == 2 or c.suit == JOKER_SUIT)
_SET_RANKS = (1, *range(3, 14))
_SUITS = FRENCH_SUITS


def _ordinals_where(test: object) -> tuple[int, ...]:
    """The ordinals of the cards ``test`` accepts, in the order of :func:`sort_key`."""
    assert callable(test)
    return tuple(ORDINAL[c.code] for c in sorted(CARDS, key=sort_key) if test(c))


_SET_NATURALS: dict[int, tuple[int, ...]] = {
    r: _ordinals_where(lambda c, r=r: c.rank == r and c.suit != JOKER_SUIT) for r in _SET_RANKS}
"""Per rank of a set, its natural cards in the order a set lists them (by suit, then copy)."""
_RANK_OF: tuple[int, ...] = tuple(c.rank for c in CARDS)
_SUIT_OF: tuple[str, ...] = tuple(c.suit for c in CARDS)
_PLACES: dict[str, tuple[tuple[int, ...], ...]] = {
    s: ((), *(_ordinals_where(lambda c, s=s, p=p: c.suit == s and c.rank == (1 if p == 14 else p))
              for p in range(1, 15)))
    for s in _SUITS}
"""Per suit, per place in a run (1 ace low .. 14 ace high), the cards that lie there as
naturals (a 2 of the suit lies at place 2)."""
_NATURAL_2: dict[str, frozenset[int]] = {s: frozenset(_PLACES[s][2]) for s in _SUITS}

Subsets = tuple[int, dict[int, tuple[int, ...]]]
"""A few cards' mask, and for each part of it (a hand's cards among them) their ordinals in
the order given."""


def _subsets(ordinals: tuple[int, ...]) -> Subsets:
    table: dict[int, tuple[int, ...]] = {}
    for bits in range(1 << len(ordinals)):
        chosen = tuple(o for i, o in enumerate(ordinals) if bits >> i & 1)
        table[sum(_POWERS[o] for o in chosen)] = chosen
    return sum(_POWERS[o] for o in ordinals), table


_SET_SUBSETS: dict[int, Subsets] = {r: _subsets(_SET_NATURALS[r]) for r in _SET_RANKS}
_PLACE_SUBSETS: dict[str, tuple[Subsets, ...]] = {
    s: tuple(_subsets(cards) for cards in _PLACES[s]) for s in _SUITS}
_WILDS: tuple[int, ...] = _ordinals_where(lambda c: c.rank == 2 or c.suit == JOKER_SUIT)

_DISCARDS: tuple[Action, ...] = tuple(Action("discard", c) for c in CARDS)
_REACH = -1
"""The key of a meld's memo under which it keeps the mask of the cards that may grow it."""

MeldEntry = tuple[tuple[int, ...], Action, int, int]
"""A three-card meld as listed: its cards' ordinals as it lies (its sort key), its ``meld``
action, the mask of its cards, the rank of a set (0 for a run)."""
AddEntry = tuple[tuple[tuple[int, ...], int], Action]
"""An addition as listed: its sort key (the grown meld's ordinals, the meld number), its action."""
HandMelds = tuple[int, tuple[MeldEntry, ...]]
"""A hand's mask and its three-card melds, sorted."""

_ENTRIES: dict[tuple[int, ...], MeldEntry] = {}
"""Every three-card meld's entry made so far, by its ordinals (about ten thousand at most)."""


def hand_mask(known: Iterable[Card]) -> int:
    """The bits of ``known``'s cards (:class:`KeyError` for a card that is not of the deck)."""
    ordinal, powers = ORDINAL, _POWERS
    return sum([powers[ordinal[c.code]] for c in known])


def plays(known: list[Card], melds: Sequence[Meld], taken_single: Card | None,
          before: HandMelds | None) -> tuple[list[Action], HandMelds] | None:
    """The sorted plays of a seat holding ``known`` (at least :data:`FAST_HAND_SIZE` cards)
    once it has drawn, its side's ``melds`` on the table and ``taken_single`` the card it took
    alone from the pile this turn, as :func:`~.burraco_turns.play_actions` lists them, and the
    hand's
    three-card melds (give them back as ``before`` at the seat's next decision; ``None`` lists
    them afresh). ``None`` when a card is not of the deck (only a testing aid can place one):
    the general path lists those."""
    ordinal = ORDINAL
    ordinals = [ordinal.get(c.code, -1) for c in known]
    if -1 in ordinals:
        return None
    powers = _POWERS
    hand = sum([powers[o] for o in ordinals])
    threes = hand_melds(hand, before)
    adds: list[AddEntry] = []
    set_ranks = set()
    for index, old in enumerate(melds):
        if old.kind == "set":
            set_ranks.add(old.rank)
        adds += _additions(old, index, hand)
    adds.sort()
    ordinals.sort()
    refused = -1 if taken_single is None else ordinal[taken_single.code]
    discards = _DISCARDS
    out = [action for _, action in adds]
    out += [discards[o] for o in ordinals if o != refused]
    if set_ranks:
        out += [entry[1] for entry in threes[1] if entry[3] not in set_ranks]
    else:
        out += [entry[1] for entry in threes[1]]
    return out, threes


def hand_melds(hand: int, before: HandMelds | None) -> HandMelds:
    """The three-card melds of ``hand`` (a mask), sorted, from those of the hand ``before``:
    the melds that lost no card are kept, the melds with a card new to the hand are added."""
    if before is None:
        kept: tuple[MeldEntry, ...] = ()
        added = hand
    else:
        old_hand, old_melds = before
        if old_hand == hand:
            return before
        gone = old_hand & ~hand
        kept = tuple([e for e in old_melds if not e[2] & gone]) if gone else old_melds
        added = hand & ~old_hand
    if not added:
        return hand, kept
    melds = [*kept, *three_card_entries(hand, added)]
    melds.sort()
    return hand, tuple(melds)


def three_card_entries(hand: int, added: int) -> list[MeldEntry]:
    """The three-card melds of ``hand`` (a mask) that use at least one card of ``added``, in
    no particular order: the same melds as :func:`~.burraco_melds.three_card_melds` lists."""
    ranks: Iterable[int]
    places: dict[str, Iterable[int]]
    if added & _WILD_MASK:
        ranks, places = _SET_RANKS, dict.fromkeys(_SUITS, range(1, 13))
    else:
        ranks, places = _touched(added)
    out: list[MeldEntry] = []
    wilds = [o for o in _WILDS if hand >> o & 1]
    for rank in ranks:
        out += _sets(rank, hand, added, wilds)
    for suit, lows in places.items():
        out += _runs(suit, lows, hand, added, wilds)
    return out


def _touched(added: int) -> tuple[set[int], dict[str, Iterable[int]]]:
    """For natural cards ``added``: the ranks of the sets and, per suit, the lowest places of
    the runs they may be part of."""
    ranks = set()
    places: dict[str, set[int]] = {}
    while added:
        low = added & -added
        added ^= low
        o = low.bit_length() - 1
        rank = _RANK_OF[o]
        ranks.add(rank)
        lows = places.setdefault(_SUIT_OF[o], set())
        for p in ((1, 14) if rank == 1 else (rank,)):
            lows.update(x for x in (p - 2, p - 1, p) if 1 <= x <= 12)
    return ranks, dict(places)


def _sets(rank: int, hand: int, added: int, wilds: list[int]) -> list[MeldEntry]:
    """The sets of ``rank`` in ``hand`` that use a card of ``added``."""
    mask, subsets = _SET_SUBSETS[rank]
    naturals = subsets[hand & mask]
    if len(naturals) < 2:
        return []
    out: list[tuple[int, ...]] = []
    if len(naturals) >= 3:
        out += combinations(naturals, 3)
    for pair in combinations(naturals, 2):
        out += [(*pair, w) for w in wilds]
    return _entries(out, added, rank)


def _runs(suit: str, lows: Iterable[int], hand: int, added: int,
          wilds: list[int]) -> list[MeldEntry]:
    """The three-card runs of ``suit`` in ``hand`` at the lowest places ``lows`` that use a card
    of ``added``: three naturals, or two and a wild card standing for the low or the middle one
    (for the high one only above an ace low); a 2 of the suit at place 2 is natural."""
    places = [subsets[hand & mask] for mask, subsets in _PLACE_SUBSETS[suit]]
    natural_2 = _NATURAL_2[suit]
    out: list[tuple[int, ...]] = []
    for low in lows:
        a, b, c = places[low], places[low + 1], places[low + 2]
        present = (1 if a else 0) + (1 if b else 0) + (1 if c else 0)
        if present < 2:
            continue
        if present == 3:
            out += [(x, y, z) for x in a for y in b for z in c]
        if not wilds:
            continue
        for hole in ((0, 1, 2) if low == 1 else (0, 1)):
            first, second = (b, c) if hole == 0 else (a, c) if hole == 1 else (a, b)
            skip_natural_2 = low + hole == 2
            for x in first:
                for y in second:
                    for w in wilds:
                        if w in (x, y) or (skip_natural_2 and w in natural_2):
                            continue
                        out.append((w, x, y) if hole == 0 else (x, w, y) if hole == 1
                                   else (x, y, w))
    return _entries(out, added, 0)


def _entries(combos: list[tuple[int, ...]], added: int, rank: int) -> list[MeldEntry]:
    """The entries of the melds ``combos`` (ordinals as they lie) that use a card of ``added``."""
    powers, memo = _POWERS, _ENTRIES
    out = []
    for combo in combos:
        x, y, z = combo
        mask = powers[x] | powers[y] | powers[z]
        if not mask & added:
            continue
        entry = memo.get(combo)
        if entry is None:
            entry = memo[combo] = (combo, Action("meld", cards=(CARDS[x], CARDS[y], CARDS[z])),
                                   mask, rank)
        out.append(entry)
    return out


def _additions(old: Meld, index: int, hand: int) -> list[AddEntry]:
    """The additions of one card of ``hand`` to ``old``, the side's meld number ``index + 1``,
    memoized on the meld."""
    memo = old.memo
    reach = memo.get(_REACH)
    if reach is None:
        reach = memo[_REACH] = _reach(old)
    candidates = hand & reach
    out: list[AddEntry] = []
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        o = low.bit_length() - 1
        key = index << 7 | o
        entries = memo.get(key)
        if entries is None:
            entries = memo[key] = _add_entries(old, index, CARDS[o])
        out += entries
    return out


def _add_entries(old: Meld, index: int, c: Card) -> tuple[AddEntry, ...]:
    ordinal = ORDINAL
    number = index + 1
    return tuple(((tuple([ordinal[x.code] for x in new.cards]), number),
                  Action("add", cards=new.cards, amount=number))
                 for new in one_card_extensions(old, c))


def _reach(old: Meld) -> int:
    """The mask of the cards that :func:`may_extend` lets try to grow ``old``: a superset of
    the cards that do. It depends only on the meld's kind, rank, suit, length and whether it
    holds a wild card, so it is kept per those."""
    shape = (old.kind, old.rank, old.suit, len(old.cards), old.wild is None)
    reach = _REACH_BY_SHAPE.get(shape)
    if reach is None:
        powers = _POWERS
        reach = _REACH_BY_SHAPE[shape] = sum([powers[i] for i, c in enumerate(CARDS)
                                              if may_extend(old, c)])
    return reach


_REACH_BY_SHAPE: dict[tuple[str, int, str, int, bool], int] = {}
