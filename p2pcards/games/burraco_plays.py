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
- the melds of one *part* of a hand (its naturals of one rank, or its cards at three places of
  a suit) are worked out once per process for each subset of the part's cards, as melds of
  three naturals and *frames* (two naturals with, per wild card, the meld it completes), so a
  decision looks them up instead of enumerating;
- a three-card meld's entry (its sort key, its action, its mask) is made once per process:
  there are about ten thousand;
- the additions of one card to one meld are memoized on the meld (:attr:`Meld.memo`), per card
  and meld number, and so are all the additions from the hand's cards that may grow the meld
  (only those are tried), so a meld that stays on the table costs one lookup per decision.

Everything memoized is a function of immutable values (a meld, a card, a hand's cards), so no
memo can outlive a change of a match's state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from operator import attrgetter, itemgetter
from typing import Any, cast

from ..cards import FRENCH_108, FRENCH_SUITS, JOKER_SUIT, Card
from .base import Action, actions_with_cards
from .burraco_melds import Meld, may_extend, one_card_growths, sort_key

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
_CODE = attrgetter("code")
_SECOND = itemgetter(1)
_REACH = -1
"""The key of a meld's memo under which it keeps the mask of the cards that may grow it (the
additions are kept under ``index << 7 | ordinal`` per card, and under
``-2 - (candidates << 8 | index)`` per mask of candidate cards)."""
_ORDINALS = -2
"""The key of a meld's memo under which it keeps its cards' ordinals as they lie (the keys of
the lists of additions are below ``-2 - 256``, as a mask of candidates is never 0)."""

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
          before: HandMelds | None, pozzetto_taken: bool = False
          ) -> tuple[list[Action], HandMelds] | None:
    """The sorted plays of a seat holding ``known`` once it has drawn, its side's ``melds`` on
    the table, ``taken_single`` the card it took alone from the pile this turn and
    ``pozzetto_taken`` whether its side has taken its pozzetto, as
    :func:`~.burraco_turns.play_actions` lists them, and the hand's three-card melds (give them
    back as ``before`` at the seat's next decision; ``None`` lists them afresh). ``None`` when a
    card is not of the deck (only a testing aid can place one): the general path lists those.

    A hand of :data:`FAST_HAND_SIZE` cards or more keeps at least two after any play but a
    discard, so only the card taken alone is refused; a smaller hand's plays are then held to
    what the end of the turn demands (:func:`_tight_plays`)."""
    ordinal = ORDINAL
    found = list(map(ordinal.get, map(_CODE, known)))
    if None in found:
        return None
    ordinals = cast("list[int]", found)
    hand = sum(map(_POWERS.__getitem__, ordinals))
    threes = hand_melds(hand, before)
    adds: list[AddEntry] = []
    set_ranks = set()
    for index, old in enumerate(melds):
        if old.kind == "set":
            set_ranks.add(old.rank)
        memo = old.memo
        reach = memo.get(_REACH)
        if reach is not None:  # the kept lists, looked up here (what most decisions find)
            candidates = hand & reach
            if not candidates:
                continue
            listed = memo.get(-2 - (candidates << 8 | index))
            if listed is not None:
                adds += listed
                continue
        adds += _additions(old, index, hand)
    ordinals.sort()
    refused = -1 if taken_single is None else ordinal.get(taken_single.code, -1)
    if len(ordinals) < FAST_HAND_SIZE:
        return _tight_plays(ordinals, melds, refused, pozzetto_taken, adds, threes), threes
    if refused >= 0:
        ordinals = [o for o in ordinals if o != refused]
    if adds:
        adds.sort()
        out = list(map(_SECOND, adds))
        out += map(_DISCARDS.__getitem__, ordinals)
    else:
        out = list(map(_DISCARDS.__getitem__, ordinals))
    if set_ranks:
        out += [entry[1] for entry in threes[1] if entry[3] not in set_ranks]
    else:
        out += map(_SECOND, threes[1])
    return out, threes


def _tight_plays(ordinals: list[int], melds: Sequence[Meld], refused: int,
                 pozzetto_taken: bool, adds: list[AddEntry], threes: HandMelds) -> list[Action]:
    """The plays of a hand of fewer than :data:`FAST_HAND_SIZE` cards (``ordinals``, sorted),
    its additions and three-card melds listed, held to what the end of the turn demands
    (:meth:`~.burraco_turns.TurnEnd.check_rest` and :meth:`~.TurnEnd.discard_error`): a card
    to keep that may be discarded, or, once the side has its pozzetto, a last card that closes
    (a natural card, not the one taken alone, with a burraco on the side's table)."""
    size = len(ordinals)
    has_burraco = any([len(m.cards) >= 7 for m in melds])
    set_ranks = {m.rank for m in melds if m.kind == "set"}

    def closes(last: int, burraco: bool) -> bool:
        """Whether a hand left with the one card ``last`` can end the turn."""
        if last == refused:
            return False
        return not pozzetto_taken or (burraco and not _WILD_MASK >> last & 1)

    out: list[Action] = []
    adds.sort()
    for key, action in adds:
        if size > 2:
            out.append(action)
        elif size == 1:
            if not pozzetto_taken:
                out.append(action)
        else:
            grown = key[0]
            last = ordinals[1] if ordinals[0] in grown else ordinals[0]
            if closes(last, has_burraco or len(grown) >= 7):
                out.append(action)
    for o in ordinals:
        if o == refused:
            continue
        if size == 1 and pozzetto_taken and not (has_burraco and not _WILD_MASK >> o & 1):
            continue
        out.append(_DISCARDS[o])
    for entry in threes[1]:
        if entry[3] in set_ranks:
            continue
        if size == 3:
            if pozzetto_taken:
                continue
        elif size == 4:
            bits = entry[2]
            last = next(o for o in ordinals if not bits >> o & 1)
            if not closes(last, has_burraco):
                continue
        out.append(entry[1])
    return out


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
    no particular order: the same melds as :func:`~.burraco_melds.three_card_melds` lists.

    A set of a rank depends only on the hand's naturals of that rank and its wild cards, a run
    on the hand's cards at three places of a suit (a *window*) and its wild cards; the melds of
    each such part of a hand are kept per part (:class:`_Part`), so a decision only looks them
    up and picks those with an added card."""
    wild_bits = hand & _WILD_MASK
    wilds = [_WILD_INDEX[o] for o in _bit_ordinals(wild_bits)] if wild_bits else []
    added_wilds = added & _WILD_MASK
    if added_wilds:
        parts: Iterable[_Part] = _ALL_PARTS
        new_wilds = [_WILD_INDEX[o] for o in _bit_ordinals(added_wilds)]
    else:
        parts = _touched_parts(added)
        new_wilds = []
    out: list[MeldEntry] = []
    for part in parts:
        cards = hand & part.mask
        if not cards & (cards - 1):  # fewer than two cards: no meld
            continue
        found = part.melds.get(cards)
        if found is None:
            found = part.melds[cards] = part.enumerate(cards)
        naturals, frames = found
        for entry in naturals:
            if entry[2] & added:
                out.append(entry)
        if not wilds:
            continue
        for bits, by_wild in frames:
            for w in (wilds if bits & added else new_wilds):
                completed = by_wild[w]
                if completed is not None:
                    out.append(completed)
    return out


def _bit_ordinals(bits: int) -> list[int]:
    """The ordinals of the cards of a mask, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        out.append(low.bit_length() - 1)
    return out


Frame = tuple[int, tuple[MeldEntry | None, ...]]
"""Two natural cards a wild card completes into a meld: their mask, and per wild card (by its
index in :data:`_WILDS`) the meld's entry, ``None`` where that wild card may not complete it."""


class _Part:
    """A set rank or a run window: the mask of the cards it looks at and, per hand's cards
    among them, the melds of three naturals and the frames (kept as they are met)."""

    __slots__ = ("mask", "melds", "rank", "suit", "low")

    def __init__(self, mask: int, rank: int, suit: str, low: int) -> None:
        self.mask = mask
        self.rank = rank
        """The set's rank, 0 for a run window."""
        self.suit = suit
        self.low = low
        """The window's lowest place (1 .. 12), 0 for a set."""
        self.melds: dict[int, tuple[tuple[MeldEntry, ...], tuple[Frame, ...]]] = {}

    def enumerate(self, cards: int) -> tuple[tuple[MeldEntry, ...], tuple[Frame, ...]]:
        """The melds of three naturals and the frames of the part's ``cards`` (a mask)."""
        combos: list[tuple[int, ...]] = []
        frames: list[Frame] = []
        if self.rank:
            naturals = _SET_SUBSETS[self.rank][1][cards]
            if len(naturals) >= 3:
                combos += combinations(naturals, 3)
            if len(naturals) >= 2:
                frames += [_frame(x, y, 2, self.rank) for x, y in combinations(naturals, 2)]
            return tuple(_entry(combo, self.rank) for combo in combos), tuple(frames)
        low = self.low
        a, b, c = (_PLACE_SUBSETS[self.suit][p][1][cards & _PLACE_SUBSETS[self.suit][p][0]]
                   for p in (low, low + 1, low + 2))
        present = (1 if a else 0) + (1 if b else 0) + (1 if c else 0)
        if present == 3:
            combos += [(x, y, z) for x in a for y in b for z in c]
        if present >= 2:
            natural_2 = _NATURAL_2[self.suit]
            for hole in ((0, 1, 2) if low == 1 else (0, 1)):
                first, second = (b, c) if hole == 0 else (a, c) if hole == 1 else (a, b)
                refused = natural_2 if low + hole == 2 else _NO_CARDS
                frames += [_frame(x, y, hole, 0, refused) for x in first for y in second]
        return tuple(_entry(combo, 0) for combo in combos), tuple(frames)


_NO_CARDS: frozenset[int] = frozenset()


def _frame(x: int, y: int, hole: int, rank: int, refused: frozenset[int] = _NO_CARDS) -> Frame:
    """The frame of naturals ``x`` and ``y`` (as they lie) that a wild card completes, lying
    below them (``hole`` 0), between them (1) or above them (2, as in a set); no wild card
    that is ``x`` or ``y`` (a 2 of a run's suit lying as natural) or in ``refused``."""
    by_wild: list[MeldEntry | None] = []
    for w in _WILDS:
        if w in (x, y) or w in refused:
            by_wild.append(None)
        else:
            by_wild.append(_entry((w, x, y) if hole == 0 else (x, w, y) if hole == 1
                                  else (x, y, w), rank))
    return _POWERS[x] | _POWERS[y], tuple(by_wild)


def _entry(combo: tuple[int, ...], rank: int) -> MeldEntry:
    """The entry of the three-card meld ``combo`` (ordinals as it lies), made once."""
    entry = _ENTRIES.get(combo)
    if entry is None:
        x, y, z = combo
        meld = actions_with_cards("meld", [(CARDS[x], CARDS[y], CARDS[z])])[0]
        entry = _ENTRIES[combo] = (combo, meld,
                                   _POWERS[x] | _POWERS[y] | _POWERS[z], rank)
    return entry


_SET_PARTS: tuple[_Part, ...] = tuple(_Part(_SET_SUBSETS[r][0], r, "", 0) for r in _SET_RANKS)
_RUN_PARTS: dict[tuple[str, int], _Part] = {
    (s, low): _Part(_PLACE_SUBSETS[s][low][0] | _PLACE_SUBSETS[s][low + 1][0]
                    | _PLACE_SUBSETS[s][low + 2][0], 0, s, low)
    for s in _SUITS for low in range(1, 13)}
_ALL_PARTS: tuple[_Part, ...] = (*_SET_PARTS, *_RUN_PARTS.values())
_WILD_INDEX: dict[int, int] = {o: i for i, o in enumerate(_WILDS)}


def _parts_of(o: int) -> tuple[_Part, ...]:
    """The parts a natural card (ordinal ``o``) lies in: its rank's set and the windows of its
    suit that hold its place (an ace: place 1 and place 14)."""
    rank, suit = _RANK_OF[o], _SUIT_OF[o]
    lows: dict[int, None] = {}
    for p in ((1, 14) if rank == 1 else (rank,)):
        lows.update((x, None) for x in (p - 2, p - 1, p) if 1 <= x <= 12)
    sets = [part for part in _SET_PARTS if part.rank == rank]
    return (*sets, *(_RUN_PARTS[suit, low] for low in lows))


_PARTS_OF: dict[int, tuple[_Part, ...]] = {
    o: _parts_of(o) for o in range(len(CARDS)) if not _WILD_MASK >> o & 1}


def _touched_parts(added: int) -> Iterable[_Part]:
    """The parts the natural cards ``added`` lie in, each once."""
    low = added & -added
    if low == added:
        return _PARTS_OF[low.bit_length() - 1]
    parts: dict[_Part, None] = {}
    for o in _bit_ordinals(added):
        parts.update(dict.fromkeys(_PARTS_OF[o]))
    return parts


def _additions(old: Meld, index: int, hand: int) -> tuple[AddEntry, ...]:
    """The additions of one card of ``hand`` to ``old``, the side's meld number ``index + 1``,
    memoized on the meld: per card, and per the hand's cards that may grow it."""
    memo = old.memo
    reach = memo.get(_REACH)
    if reach is None:
        reach = memo[_REACH] = _reach(old)
    candidates = hand & reach
    if not candidates:
        return ()
    listed_key = -2 - (candidates << 8 | index)
    listed: tuple[AddEntry, ...] | None = memo.get(listed_key)
    if listed is not None:
        return listed
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
    listed = memo[listed_key] = tuple(out)
    return listed


def _add_entries(old: Meld, index: int, c: Card) -> tuple[AddEntry, ...]:
    """The additions of ``c`` to ``old``, the side's meld number ``index + 1``."""
    layouts = one_card_growths(old, c)
    if not layouts:
        return ()
    memo = old.memo
    known = memo.get(_ORDINALS)
    if known is None:
        known = memo[_ORDINALS] = tuple([ORDINAL[x.code] for x in old.cards])
    ordinals = (*known, ORDINAL[c.code])
    pool = (*old.cards, c)
    number = index + 1
    out = []
    for layout in layouts:
        pick = _PICKERS.get(layout)
        if pick is None:
            if len(_PICKERS) >= _PICKERS_MOST:
                _PICKERS.clear()
            pick = _PICKERS[layout] = itemgetter(*layout)
        out.append(((pick(ordinals), number),
                    actions_with_cards("add", (pick(pool),), number)[0]))
    return tuple(out)


_PICKERS: dict[tuple[int, ...], itemgetter[Any]] = {}
"""Per layout of a grown meld (at least four indices), the getter of its items in order."""
_PICKERS_MOST = 1 << 12


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
