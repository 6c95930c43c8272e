"""Burraco melds: what a set and a run are, where a wild card lies, and how a meld may grow.

Pure functions over cards of the French 108-card deck (``FRENCH_108``). The rules compare rank
and suit only; a card's copy number matters only as the identity of a physical card.

Vocabulary
    *Wild cards* are the four jokers and the eight 2s. A 2 is *natural* when it lies at
    position 2 of a run of its own suit; everywhere else it is wild.

    A *set* is three or more cards of one rank (never 2, never jokers), at most one wild card.
    Stored in canonical order: the naturals by suit (``H D C S``) and copy, the wild last.

    A *run* is three or more cards of one suit in consecutive positions, listed from low to
    high. Positions are 1 (ace low), 2 .. 13 (king), 14 (ace high); a run never holds both
    position 1 and position 14 (one ace per meld). It holds at most one wild card, which stands
    for the natural card of its position. The wild card's place: inside the run (standing for a
    missing inside card) or at the **low** end; at the high end only when the low end is
    impossible (the run starts at position 1, the ace low).

Additions (:func:`check_extension`)
    A meld grows by cards from one hand only: the new meld holds every card of the old one and
    is of the same kind (a set of the same rank, a run of the same suit). The new arrangement
    may move the wild card (a natural card takes its place, and the wild goes to the low end or
    into another gap; or it moves to the high end to stand for the next card up). A wild card
    cannot replace another wild card: if the old wild card stops being wild, the position it
    stood for cannot be taken by a new wild card.

Every error is a :class:`MeldError` with a stable ``rule`` id (the ids are listed in
``protocol/games/burraco.md``) and a one-sentence message naming the cards at fault.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Any

from ..cards import FRENCH_108, FRENCH_SUITS, JOKER_SUIT, Card

__all__ = [
    "Meld",
    "MeldError",
    "arrangements",
    "check_extension",
    "hand_codes",
    "is_wild_card",
    "may_extend",
    "one_card_extensions",
    "one_card_growths",
    "read_meld",
    "read_run",
    "read_set",
    "sort_key",
    "three_card_melds",
    "three_card_melds_of",
    "with_code",
    "without_codes",
]

_SUIT_ORDER = {s: i for i, s in enumerate((*FRENCH_SUITS, JOKER_SUIT))}
_RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


class MeldError(ValueError):
    """A sequence of cards that is not a valid meld (or not a valid growth of one)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


def is_wild_card(c: Card) -> bool:
    """Jokers and 2s: the cards that can be wild (a 2 may also be natural in a run)."""
    return c.suit == JOKER_SUIT or c.rank == 2


def sort_key(c: Card) -> tuple[int, int, int]:
    """Suit (hearts, diamonds, clubs, spades, jokers), then rank (ace first), then copy."""
    return (_SUIT_ORDER.get(c.suit, 9), c.rank, c.copy)


_SORTED_PLACE: dict[str, int] = {
    c.code: i for i, c in enumerate(sorted(FRENCH_108.cards, key=sort_key))}
_SET_PLACE: dict[str, int] = {
    code: len(_SORTED_PLACE) if is_wild_card(c) else _SORTED_PLACE[code]
    for code, c in ((c.code, c) for c in FRENCH_108.cards)}
"""Where a card of the deck lies in a set: naturals in :func:`sort_key` order, wild cards
after them all (one key for every wild card, so they keep their order)."""


def hand_codes(hand: Sequence[Card | None]) -> list[str]:
    """The codes of the known cards of ``hand`` in :func:`sort_key` order."""
    codes = [c.code for c in hand if c is not None]
    try:
        codes.sort(key=_SORTED_PLACE.__getitem__)
    except KeyError:  # a card of another deck, which only a testing aid can place
        return _UnplacedCodes(
            c.code for c in sorted((c for c in hand if c is not None), key=sort_key))
    return codes


class _UnplacedCodes(list[str]):
    """Codes of a hand that holds a card of another deck (only a testing aid places one):
    :func:`with_code` and :func:`without_codes` cannot place a code among them."""


def with_code(codes: list[str], code: str) -> list[str] | None:
    """A new list: ``codes`` (a hand's, as :func:`hand_codes` orders them) with ``code`` added
    in its place; ``None`` when a code is not of the deck (then :func:`hand_codes` is needed)."""
    if type(codes) is not list:
        return None
    out = codes[:]
    try:
        insort(out, code, key=_SORTED_PLACE.__getitem__)
    except KeyError:
        return None
    return out


def without_codes(codes: list[str], removed: Iterable[str]) -> list[str] | None:
    """A new list: ``codes`` (as :func:`hand_codes` orders them) less one of each of
    ``removed``; ``None`` when one is missing or a code is not of the deck."""
    if type(codes) is not list:
        return None
    out = codes[:]
    try:
        for code in removed:
            out.remove(code)
    except ValueError:
        return None
    return out


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def _kinds(cards: Iterable[Card]) -> tuple[tuple[int, str], ...]:
    return tuple((c.rank, c.suit) for c in cards)


@dataclass(frozen=True)
class Meld:
    """A valid meld. ``cards`` in their order on the table (see the module docstring).

    ``kind`` is ``"set"`` or ``"run"``; ``rank`` the set's rank, or the run's lowest position
    (1..12); ``suit`` the run's suit (``""`` for a set); ``wild`` the card used as wild (``None``
    if clean); ``wild_at`` the position a run's wild card stands for (``None`` otherwise).
    """

    kind: str
    cards: tuple[Card, ...]
    rank: int
    suit: str = ""
    wild: Card | None = None
    wild_at: int | None = None

    @property
    def high(self) -> int:
        """A run's highest position."""
        return self.rank + len(self.cards) - 1

    @property
    def clean(self) -> bool:
        """No card of the meld is used as wild (a natural 2 in a run is not wild)."""
        return self.wild is None

    @property
    def burraco(self) -> bool:
        """Seven cards or more."""
        return len(self.cards) >= 7

    def __str__(self) -> str:
        return self._text

    @cached_property
    def memo(self) -> dict[int, Any]:
        """Values derived from this meld alone, kept by the code that derives them (the fast
        enumeration of additions, :mod:`.burraco_plays`): never part of the meld's value."""
        return {}

    def __hash__(self) -> int:
        return self._hash

    @cached_property
    def pattern(self) -> tuple[tuple[int, ...], dict[str, int], dict[int, int]]:
        """A run's cards as :func:`_run_pattern` codes them, with the suit numbers and copy
        counts the coding reached (to code one more card the same way); computed once."""
        others: dict[str, int] = {}
        copies: dict[int, int] = {}
        return _run_pattern(self.cards, self.suit, others, copies), others, copies

    @cached_property
    def codes(self) -> tuple[str, ...]:
        """The cards' codes as they lie, computed once: observations show every meld at every
        decision."""
        return tuple([c.code for c in self.cards])

    @cached_property
    def shown(self) -> str:
        """The cards' codes and, for a burraco, whether it is clean or dirty: how a side's
        melds show it after its number (computed once)."""
        if len(self.cards) < 7:
            return self._text
        return f"{self._text} ({'clean' if self.wild is None else 'dirty'} burraco)"

    @cached_property
    def _text(self) -> str:
        """The cards' codes, computed once: observations show every meld at every decision."""
        return " ".join(self.codes)

    @cached_property
    def _hash(self) -> int:
        """The hash of the fields, as a frozen dataclass's, computed once: legal actions look
        a side's melds up at every decision."""
        return hash((self.kind, self.cards, self.rank, self.suit, self.wild, self.wild_at))


def _set_order(cards: Sequence[Card]) -> tuple[Card, ...]:
    naturals = sorted((c for c in cards if not is_wild_card(c)), key=sort_key)
    wilds = [c for c in cards if is_wild_card(c)]
    return (*naturals, *wilds)


def read_set(cards: Sequence[Card]) -> Meld:
    """``cards`` as a set (any order), or :class:`MeldError`."""
    if len(cards) < 3:
        raise MeldError("meld-too-short", f"a meld needs at least 3 cards, not {_codes(cards)}")
    wilds = [c for c in cards if is_wild_card(c)]
    naturals = [c for c in cards if not is_wild_card(c)]
    if not naturals:
        raise MeldError("set-of-wilds", f"there is no set of jokers or 2s: {_codes(cards)}")
    ranks = {c.rank for c in naturals}
    if len(ranks) > 1:
        raise MeldError("set-mixed-ranks", f"a set is of one rank: {_codes(cards)}")
    if len(wilds) > 1:
        raise MeldError(
            "one-wild-per-meld", f"a meld holds one wild card at most: {_codes(cards)}"
        )
    return Meld("set", _set_order(cards), naturals[0].rank, "", wilds[0] if wilds else None)


def _run_at(cards: Sequence[Card], low: int) -> Meld:
    """``cards`` as a run whose first card lies at position ``low``, or :class:`MeldError`."""
    n = len(cards)
    high = low + n - 1
    if low < 1 or high > 14:
        raise MeldError("run-out-of-range", f"a run lies between ace low and ace high: "
                        f"{_codes(cards)}")
    if low == 1 and high == 14:
        raise MeldError("one-ace-per-meld", f"a run holds one ace at most: {_codes(cards)}")
    suits = {c.suit for c in cards if not is_wild_card(c)}
    if len(suits) > 1:
        raise MeldError("run-mixed-suits", f"a run is of one suit: {_codes(cards)}")
    suit = suits.pop() if suits else next(c.suit for c in cards if c.rank == 2)
    wild_index: int | None = None
    for i, c in enumerate(cards):
        pos = low + i
        if c.suit == JOKER_SUIT or (c.rank == 2 and not (pos == 2 and c.suit == suit)):
            if wild_index is not None:
                raise MeldError("one-wild-per-meld",
                                f"a meld holds one wild card at most: {_codes(cards)}")
            wild_index = i
            continue
        if (1 if pos == 14 else pos) != c.rank:
            raise MeldError("run-not-consecutive",
                            f"{c.code} cannot lie at the place of the "
                            f"{_RANK_NAMES.get(pos, str(pos))} in {_codes(cards)}")
    if wild_index is None:
        return Meld("run", tuple(cards), low, suit)
    if wild_index == n - 1 and low > 1:
        raise MeldError("wild-position", "a wild card that stands for no inside card lies at "
                        f"the low end of the run: {_codes(cards)}")
    return Meld("run", tuple(cards), low, suit, cards[wild_index], low + wild_index)


def read_run(cards: Sequence[Card]) -> Meld:
    """``cards`` as a run listed from low to high, or :class:`MeldError`."""
    if len(cards) < 3:
        raise MeldError("meld-too-short", f"a meld needs at least 3 cards, not {_codes(cards)}")
    lows: list[int] = []
    for i, c in enumerate(cards):
        if is_wild_card(c):
            continue
        lows = [1 - i, 14 - i] if c.rank == 1 else [c.rank - i]
        break
    else:
        lows = [2 - i for i, c in enumerate(cards) if c.rank == 2]
    if not lows:
        raise MeldError("set-of-wilds", f"a meld needs natural cards: {_codes(cards)}")
    error: MeldError | None = None
    for low in lows:
        try:
            return _run_at(cards, low)
        except MeldError as exc:
            error = error or exc
    assert error is not None
    raise error


def read_meld(cards: Sequence[Card]) -> Meld:
    """``cards`` as a set (any order) or a run (low to high); :class:`MeldError` otherwise.

    The meld read from a tuple is kept by the tuple's identity (with the tuple, so that its
    identity is not reused while kept): an action listed as legal names the same tuple every
    time it is played, and a meld is an immutable value."""
    if type(cards) is tuple:
        kept = _READ.get(id(cards))
        if kept is not None and kept[0] is cards:
            return kept[1]
        meld = _read_meld(cards)
        if len(_READ) >= _READ_MOST:
            _READ.clear()
        _READ[id(cards)] = (cards, meld)
        return meld
    return _read_meld(tuple(cards))


_READ: dict[int, tuple[tuple[Card, ...], Meld]] = {}
"""Melds read from tuples of cards, by the tuple's identity (see :func:`read_meld`)."""
_READ_MOST = 1 << 12
"""Melds kept at most before :data:`_READ` starts afresh: a kept meld keeps its memo of
additions alive, so the bound is also what bounds those memos."""


def _read_meld(cards: tuple[Card, ...]) -> Meld:
    """:func:`read_meld` worked out."""
    if len(cards) < 3:
        raise MeldError("meld-too-short", f"a meld needs at least 3 cards, not {_codes(cards)}")
    naturals = {c.rank for c in cards if not is_wild_card(c)}
    if not naturals:  # at most one natural 2 and one wild card: never a meld
        raise MeldError("set-of-wilds", f"there is no set of jokers or 2s: {_codes(cards)}")
    if len(naturals) == 1:
        try:
            return read_set(cards)
        except MeldError as set_error:
            try:
                return read_run(cards)
            except MeldError:
                raise set_error from None
    return read_run(cards)


def arrangements(cards: Iterable[Card]) -> list[Meld]:
    """Every valid meld made of exactly ``cards`` (a set, or each valid order of a run),
    one per distinct sequence of ranks and suits. Usually one; empty when none."""
    pool = tuple(cards)
    if len(pool) < 3:
        return []
    out: dict[tuple[tuple[int, str], ...], Meld] = {}
    naturals = [c for c in pool if not is_wild_card(c)]
    if naturals and len({c.rank for c in naturals}) == 1:
        try:
            return [read_set(pool)]
        except MeldError:
            pass  # one natural rank may still make a run with a natural 2 (A 2 and a joker)
    candidates: list[Card | None] = [None]
    seen: set[tuple[int, str]] = set()
    for c in pool:
        if is_wild_card(c) and (c.rank, c.suit) not in seen:
            seen.add((c.rank, c.suit))
            candidates.append(c)
    for wild in candidates:
        rest = list(pool)
        if wild is not None:
            rest.remove(wild)
        for ace_high in (False, True):
            seq = _place(rest, wild, ace_high)
            if seq is None:
                continue
            try:
                meld = read_run(seq)
            except MeldError:
                continue
            if (meld.wild is None) != (wild is None):
                continue
            out.setdefault(_kinds(meld.cards), meld)
    return list(out.values())


def _place(naturals: list[Card], wild: Card | None, ace_high: bool) -> list[Card] | None:
    """The natural cards by position, with ``wild`` in the one gap, or at the low end (high end
    if the low end is impossible); ``None`` when that does not make a sequence."""
    by_pos: dict[int, Card] = {}
    for c in naturals:
        if c.suit == JOKER_SUIT:
            return None
        pos = 14 if c.rank == 1 and ace_high else c.rank
        if pos in by_pos:
            return None
        by_pos[pos] = c
    low, high = min(by_pos), max(by_pos)
    gaps = [p for p in range(low, high + 1) if p not in by_pos]
    if wild is None:
        if gaps:
            return None
    elif len(gaps) == 1:
        by_pos[gaps[0]] = wild
    elif gaps:
        return None
    elif low > 1:
        by_pos[low - 1] = wild
    else:
        by_pos[high + 1] = wild
    return [by_pos[p] for p in sorted(by_pos)]


def check_extension(old: Meld, new_cards: Sequence[Card]) -> Meld:
    """The meld ``old`` grown into ``new_cards`` (the whole new meld, in order), or
    :class:`MeldError`. The caller checks that the added cards come from the actor's hand."""
    new = read_meld(new_cards)
    added = list(new.cards)
    for c in old.cards:
        if c not in added:
            raise MeldError("meld-changed", f"an addition keeps every card of the meld "
                            f"{old}: {c.code} is missing from {new}")
        added.remove(c)
    if not added:
        raise MeldError("nothing-added", f"an addition to {old} adds at least one card")
    if new.kind != old.kind or (old.kind == "set" and new.rank != old.rank) or (
            old.kind == "run" and new.suit != old.suit):
        raise MeldError("meld-changed", f"{old} cannot become {new}: a set stays a set of its "
                        "rank and a run a run of its suit")
    if (old.kind == "run" and old.wild is not None and new.wild is not None
            and new.wild != old.wild and new.wild_at == old.wild_at):
        raise MeldError("wild-for-wild", f"a wild card cannot replace the wild "
                        f"{old.wild.code} of {old}: only the natural card can")
    return new


def three_card_melds(hand: Sequence[Card]) -> list[Meld]:
    """Every valid meld of exactly three cards of ``hand`` (cards distinct by identity; melds
    that differ only in which copy of a card they use are all listed).

    Order: the sets rank by rank (ranks in the order they first appear in ``hand``), each rank's
    three naturals before its two naturals and a wild card; then the runs suit by suit (suits in
    order of first appearance), lowest position first, at each position the three naturals, then
    a wild card standing for the low, the middle and the high card. The runs are built straight
    from the cards grouped by suit and rank: a wild card may stand for the low or the middle card,
    for the high one only above an ace low, and a 2 of the run's suit at position 2 is natural
    (that meld is listed once, as three naturals)."""
    return three_card_melds_of(hand)


def three_card_melds_of(hand: Sequence[Card], ranks: Container[int] | None = None,
                        suits: Container[str] | None = None) -> list[Meld]:
    """:func:`three_card_melds`, or with ``ranks`` and ``suits`` only the sets of those ranks
    and the runs of those suits (in the same order): what an incremental enumeration recomputes
    when natural cards of those ranks and suits come into a hand."""
    out: dict[tuple[Card, ...], Meld] = {}
    wilds = [c for c in hand if is_wild_card(c)]
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, dict[int, list[Card]]] = {}
    for c in hand:
        if c.suit == JOKER_SUIT:
            continue
        if c.rank != 2 and (ranks is None or c.rank in ranks):
            by_rank.setdefault(c.rank, []).append(c)
        if suits is None or c.suit in suits:
            by_suit.setdefault(c.suit, {}).setdefault(c.rank, []).append(c)
    for group in by_rank.values():
        if len(group) >= 3:
            for trio in combinations(group, 3):
                meld = read_set(trio)
                out.setdefault(meld.cards, meld)
        if wilds:
            for pair in combinations(group, 2):
                for w in wilds:
                    meld = read_set((*pair, w))
                    out.setdefault(meld.cards, meld)
    for suit, ranks in by_suit.items():
        for meld in _suit_runs(suit, ranks, wilds):
            out.setdefault(meld.cards, meld)
    return list(out.values())


_NONE: list[Card] = []


def _suit_runs(suit: str, ranks: dict[int, list[Card]], wilds: list[Card]) -> Iterable[Meld]:
    """The three-card runs of ``suit`` (see :func:`three_card_melds` for the order)."""
    empty = _NONE
    for low in range(1, 13):
        options = (ranks.get(low, empty), ranks.get(low + 1, empty),
                   ranks.get(1 if low == 12 else low + 2, empty))
        present = (1 if options[0] else 0) + (1 if options[1] else 0) + (1 if options[2] else 0)
        if present < 2:
            continue
        if present == 3:
            for a in options[0]:
                for b in options[1]:
                    for c in options[2]:
                        yield Meld("run", (a, b, c), low, suit)
        if not wilds:
            continue
        for hole in (0, 1, 2):
            if hole == 2 and low > 1:
                break  # a wild card lies at the high end only above an ace low
            first, second = [options[i] for i in (0, 1, 2) if i != hole]
            at = low + hole
            for x in first:
                for y in second:
                    for w in wilds:
                        if w in (x, y):
                            continue
                        if at == 2 and w.rank == 2 and w.suit == suit:
                            continue  # a natural 2: listed with the three naturals
                        seq = (w, x, y) if hole == 0 else (x, w, y) if hole == 1 else (x, y, w)
                        yield Meld("run", seq, low, suit, w, at)


def one_card_extensions(old: Meld, c: Card) -> tuple[Meld, ...]:
    """Every meld ``old`` grows into by adding the one card ``c``: each valid arrangement of the
    grown meld (:func:`arrangements`) that :func:`check_extension` accepts, in that order.

    A set that :func:`may_extend` lets ``c`` into grows into the one set of its cards and ``c``.
    A run's growths are memoized by the run's *pattern* (:func:`_run_pattern`), so that runs
    that differ only in their suit and the copies of their cards share one enumeration."""
    if not may_extend(old, c):
        return ()
    if old.kind == "run":
        return _run_extensions(old, c)
    return (read_set((*old.cards, c)),)


def one_card_growths(old: Meld, c: Card) -> tuple[tuple[int, ...], ...]:
    """How each meld :func:`one_card_extensions` gives (in its order) lies, without making the
    melds: the indices of its cards in ``(*old.cards, c)``. What a listing of additions needs."""
    if not may_extend(old, c):
        return ()
    if old.kind == "run":
        return tuple([growth[0] for growth in _growths(old, _grown_pattern(old, c))])
    pool = (*old.cards, c)
    try:
        places = [_SET_PLACE[x.code] for x in pool]
    except KeyError:  # a card of another deck, which only a testing aid can place
        keys = [(1, 0, 0, 0) if is_wild_card(x) else (0, *sort_key(x)) for x in pool]
        return (tuple(sorted(range(len(pool)), key=keys.__getitem__)),)
    return (tuple(sorted(range(len(pool)), key=places.__getitem__)),)


def _grown_pattern(old: Meld, c: Card) -> tuple[int, ...]:
    """:func:`_run_pattern` of the run ``old``'s cards and ``c``, from the run's own pattern."""
    pattern, others, copies = old.pattern
    s = c.suit
    if s == old.suit:
        i = 0
    elif s == JOKER_SUIT:
        i = 4
    else:
        i = others.get(s) or len(others) + 1
    base = c.rank * 32 + i * 4
    return (*pattern, base + copies.get(base, 0) + 1)


def may_extend(old: Meld, c: Card) -> bool:
    """A cheap necessary condition for ``c`` to grow ``old``: a set takes a natural card of its
    rank, or a wild card when it has none; a run takes a wild card, or a natural card of its
    suit no more than two places from its ends (the run and its one wild card may shift by one
    place, so two places is the farthest a grown run of one more card can reach)."""
    if c.suit == JOKER_SUIT or c.rank == 2:
        return old.kind == "run" or old.wild is None
    if old.kind == "set":
        return c.rank == old.rank
    if c.suit != old.suit:
        return False
    low, high = old.rank - 2, old.rank + len(old.cards) + 1
    return low <= c.rank <= high or (c.rank == 1 and high >= 14)


def _one_card_extensions(old: Meld, c: Card) -> tuple[Meld, ...]:
    """:func:`one_card_extensions` worked out from :func:`arrangements`."""
    out: list[Meld] = []
    for grown in arrangements((*old.cards, c)):
        try:
            out.append(check_extension(old, grown.cards))
        except MeldError:
            continue
    return tuple(out)


_CANONICAL_SUITS = (*FRENCH_SUITS, JOKER_SUIT)
"""A run's pattern names its suit ``H``, the other suits ``D C S`` as they first come, the
jokers ``X``."""
_PATTERN_CARDS: dict[int, Card] = {
    rank * 32 + i * 4 + copy: Card(rank, suit, copy)
    for i, suit in enumerate(_CANONICAL_SUITS)
    for rank in ((0,) if suit == JOKER_SUIT else range(1, 14))
    for copy in ((1, 2, 3, 4) if suit == JOKER_SUIT else (1, 2))}

Growth = tuple[tuple[int, ...], int, int, int | None]
"""A grown run as its pattern's growth: the indices of its cards in the old run's cards and the
card added (last), its lowest place, the index of its wild card (-1 if none), where the wild
card stands."""
_RUN_GROWTHS: dict[tuple[int, ...], tuple[Growth, ...]] = {}
_RUN_GROWTHS_MOST = 1 << 16


def _run_pattern(cards: Sequence[Card], suit: str, others: dict[str, int] | None = None,
                 copies: dict[int, int] | None = None) -> tuple[int, ...]:
    """The cards of a run of ``suit`` (and a card to add) with their suits and copies renamed
    in order of appearance: the run's suit is ``H`` and the others ``D``, ``C``, ``S``; copies
    are numbered 1, 2 per rank and suit; jokers 1..4. Each card is coded ``rank * 32 + suit
    index * 4 + copy``. The rules compare ranks, suits (with the run's suit, with jokers, with
    each other) and cards (equal or not) only, so runs of one pattern grow alike. ``others``
    and ``copies`` (fresh maps when not given) are left with the suit numbers and the copy
    counts per rank and suit."""
    others = {} if others is None else others
    copies = {} if copies is None else copies
    out = []
    for c in cards:
        s = c.suit
        if s == suit:
            i = 0
        elif s == JOKER_SUIT:
            i = 4
        else:
            i = others.get(s, 0)
            if not i:
                i = others[s] = len(others) + 1
        base = c.rank * 32 + i * 4
        copy = copies[base] = copies.get(base, 0) + 1
        out.append(base + copy)
    return tuple(out)


def _run_extensions(old: Meld, c: Card) -> tuple[Meld, ...]:
    """:func:`one_card_extensions` of a run, through its pattern."""
    pool = (*old.cards, c)
    return tuple(Meld("run", tuple([pool[i] for i in indices]), low, old.suit,
                      None if wild < 0 else pool[wild], wild_at)
                 for indices, low, wild, wild_at in _growths(old, _run_pattern(pool, old.suit)))


def _growths(old: Meld, pattern: tuple[int, ...]) -> tuple[Growth, ...]:
    """The growths of the run ``old`` by the last card of ``pattern`` (the pattern of its
    cards and that card), kept by the pattern."""
    growths = _RUN_GROWTHS.get(pattern)
    if growths is None:
        if len(_RUN_GROWTHS) >= _RUN_GROWTHS_MOST:
            _RUN_GROWTHS.clear()
        growths = _RUN_GROWTHS[pattern] = _pattern_growths(old, pattern)
    return growths


def _pattern_growths(old: Meld, pattern: tuple[int, ...]) -> tuple[Growth, ...]:
    """The growths of ``old`` by the last card of its ``pattern``, worked out on the pattern's
    own cards."""
    cards = [_PATTERN_CARDS[code] for code in pattern]
    wild = None if old.wild is None else cards[old.cards.index(old.wild)]
    renamed = Meld("run", tuple(cards[:-1]), old.rank, "H", wild, old.wild_at)
    out = []
    for grown in _one_card_extensions(renamed, cards[-1]):
        indices = tuple([cards.index(x) for x in grown.cards])
        wild_index = -1 if grown.wild is None else cards.index(grown.wild)
        out.append((indices, grown.rank, wild_index, grown.wild_at))
    return tuple(out)
