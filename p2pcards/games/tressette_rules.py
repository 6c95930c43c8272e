"""Pure rules of Tressette and Tresette: ranking, card values, combinations, signals, scoring.

No state here: every function takes the cards it needs and returns a value. The state machine in
:mod:`p2pcards.games.tressette` calls these functions; tests and bots may call them directly.

Ranking (both rule texts agree once their card names are mapped to Italian ranks): in each suit
3 > 2 > Asso > Re (10) > Cavallo (9) > Fante (8) > 7 > 6 > 5 > 4. tressette.txt lists it as
"3, 2, 1, 10, 9, 8, 7, 6, 5, 4"; the Tresette text's "3, 2, A, K, J, Q, 7 ..." names the cards of
a French-suited 40-card pack, in which the Jack takes the place of 9 and the Queen of 8, so it is
the same order. Project codes: ``K`` = Re, ``Q`` = Cavallo, ``J`` = Fante.

Card values are counted in *thirds*: an Asso is 3 thirds, a 3, 2, Re, Cavallo or Fante 1 third,
a 7, 6, 5 or 4 nothing (32 thirds in the deck; the 4 of Bastoni removed for three players is
worth nothing).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from ..cards import ITALIAN_SUITS, Card
from .base import ScoreLine
from .tricks import action_card_order, all_known

__all__ = [
    "CAPTURE_ORDER",
    "COMBINATION_KINDS",
    "COUNT_SIGNALS",
    "MELD_PARTS",
    "NAPOLI",
    "SIGNALS",
    "already_declared",
    "announcement_fault",
    "announcement_of",
    "buongioco_fault",
    "announcement_points",
    "card_thirds",
    "combination_error",
    "combination_points",
    "combinations_held",
    "good_play_fault",
    "holds_combination",
    "parse_announcement",
    "score_lines",
    "signal_fault",
    "signal_true",
    "strength",
    "suit_counts",
    "thirds_to_points",
    "trick_winner",
    "true_signals",
]

CAPTURE_ORDER: tuple[int, ...] = (3, 2, 1, 10, 9, 8, 7, 6, 5, 4)
"""Ranks from the strongest to the weakest capture value."""

_STRENGTH = {rank: len(CAPTURE_ORDER) - i for i, rank in enumerate(CAPTURE_ORDER)}
_THIRDS = {1: 3, 2: 1, 3: 1, 8: 1, 9: 1, 10: 1}

NAPOLI = "napoli"
"""Asso, 2 and 3 of one suit (the *napoletana*)."""

_KIND_RANKS = {"aces": 1, "twos": 2, "threes": 3}
COMBINATION_KINDS: tuple[str, ...] = ("aces", "twos", "threes", NAPOLI)
"""The kinds of Buongioco combination (and of Tresette meld)."""

_PART_WORDS = {3: "three", 4: "four"}
MELD_PARTS: tuple[str, ...] = (
    "three-aces",
    "four-aces",
    "three-twos",
    "four-twos",
    "three-threes",
    "four-threes",
    NAPOLI,
)
"""The parts of a Tresette announcement, in canonical order."""
_PART_POINTS = {part: (4 if part.startswith("four") else 3) for part in MELD_PARTS}
_PART_ORDER = {part: i for i, part in enumerate(MELD_PARTS)}

COUNT_SIGNALS: dict[str, int] = {"two": 2, "one": 1, "none": 0}
"""Signals "I hold exactly this many cards of some suit" (the suit is not named)."""
SIGNALS: tuple[str, ...] = ("best", "count", *COUNT_SIGNALS)
"""Every signal value a play may carry (Tresette table talk)."""


def strength(c: Card) -> int:
    """Capture value of a card within its suit: 10 for a 3 down to 1 for a 4."""
    return _STRENGTH[c.rank]


def card_thirds(c: Card) -> int:
    """Value of a captured card in thirds of a point: Asso 3; 3, 2, Re, Cavallo, Fante 1; else 0."""
    return _THIRDS.get(c.rank, 0)


def trick_winner(trick: Sequence[tuple[int, Card]]) -> int:
    """The seat whose card wins a complete trick: the strongest card of the suit led.

    ``trick`` lists ``(seat, card)`` in playing order; the first entry is the lead.
    """
    led = trick[0][1].suit
    best_seat, best_card = trick[0]
    for seat, c in trick[1:]:
        if c.suit == led and strength(c) > strength(best_card):
            best_seat, best_card = seat, c
    return best_seat


def thirds_to_points(thirds: int, mode: str) -> int:
    """Thirds to whole points: ``round`` to the nearest (a third is never exactly half a point,
    so no tie rule is needed) or ``truncate`` (remainder dropped)."""
    return (thirds + 1) // 3 if mode == "round" else thirds // 3


def suit_counts(hand: Iterable[Card]) -> dict[str, int]:
    """Number of cards of each Italian suit (every suit present, zero included)."""
    counts = dict.fromkeys(ITALIAN_SUITS, 0)
    for c in hand:
        counts[c.suit] += 1
    return counts


# -- Buongioco combinations and Tresette melds -------------------------------------------------


def combination_error(kind: str, cards: Sequence[Card]) -> str | None:
    """Why ``cards`` do not form a combination of ``kind``, or ``None`` if they do.

    ``aces`` / ``twos`` / ``threes``: three or four distinct cards of that rank. ``napoli``: the
    Asso, 2 and 3 of one suit. The shape is public: it is checked without knowing any hand.
    """
    if kind not in COMBINATION_KINDS:
        return f"{kind!r} is not a combination (one of {', '.join(COMBINATION_KINDS)})"
    if len(set(cards)) != len(cards):
        return f"the {kind} combination names a card twice"
    if kind == NAPOLI:
        suits = {c.suit for c in cards}
        if len(cards) != 3 or len(suits) != 1 or sorted(c.rank for c in cards) != [1, 2, 3]:
            return "a napoli is the Asso, 2 and 3 of one suit"
        return None
    rank = _KIND_RANKS[kind]
    if len(cards) not in (3, 4) or any(c.rank != rank for c in cards):
        return f"{kind} must be three or four cards of rank {rank}"
    return None


def combination_points(kind: str, cards: Sequence[Card]) -> int:
    """Points of a well-formed combination: 4 for four of a kind, otherwise 3."""
    return 4 if kind != NAPOLI and len(cards) == 4 else 3


def combinations_held(hand: Iterable[Card]) -> list[tuple[str, tuple[Card, ...]]]:
    """Every combination in a hand: each rank kind with all the cards of that rank held (three or
    four), then one napoli per suit holding Asso, 2 and 3. Cards may serve in several."""
    # only aces, 2s and 3s matter: they are sorted (by rank, suit, copy) and grouped in one pass
    low = sorted({c for c in hand if c.rank in (1, 2, 3)}, key=action_card_order)
    by_rank: dict[int, list[Card]] = {1: [], 2: [], 3: []}
    by_suit: dict[str, list[Card]] = {}
    for c in low:
        by_rank[c.rank].append(c)
        by_suit.setdefault(c.suit, []).append(c)
    out: list[tuple[str, tuple[Card, ...]]] = []
    for kind, rank in _KIND_RANKS.items():
        if len(by_rank[rank]) >= 3:
            out.append((kind, tuple(by_rank[rank])))
    for suit in ITALIAN_SUITS:
        nap = by_suit.get(suit)
        if nap is not None and len(nap) == 3:
            out.append((NAPOLI, tuple(nap)))
    return out


def holds_combination(hand: Iterable[Card], kind: str, cards: Sequence[Card]) -> bool:
    """Whether a fully known hand makes the claim true.

    A napoli claim is true when the hand holds its three cards. A three- or four-of-a-kind claim
    names every card of that rank the seat holds (declaring three aces states which one is
    missing), so it is true when the hand's cards of that rank are exactly ``cards``.
    """
    held = set(hand)
    if kind == NAPOLI:
        return all(c in held for c in cards)
    rank = _KIND_RANKS[kind]
    return {c for c in held if c.rank == rank} == set(cards)


def announcement_of(hand: Iterable[Card]) -> str:
    """The complete, canonical Tresette announcement of a hand's melds: parts joined by ``+``
    in :data:`MELD_PARTS` order (``"three-aces+napoli"``); ``""`` when it holds no meld."""
    parts = []
    for kind, cards in combinations_held(hand):
        parts.append(NAPOLI if kind == NAPOLI else f"{_PART_WORDS[len(cards)]}-{kind}")
    return "+".join(sorted(parts, key=_PART_ORDER.__getitem__))


def parse_announcement(value: str) -> tuple[str, ...]:
    """The parts of an announcement; :class:`ValueError` naming the fault unless ``value`` is a
    non-empty canonical announcement (known parts, canonical order, one part per rank, at most
    four napoli)."""
    parts = tuple(value.split("+")) if value else ()
    if not parts:
        raise ValueError("an announcement names at least one meld")
    for part in parts:
        if part not in _PART_ORDER:
            raise ValueError(f"{part!r} is not a meld (one of {', '.join(MELD_PARTS)})")
    if list(parts) != sorted(parts, key=_PART_ORDER.__getitem__):
        raise ValueError(f"announcement {value!r} is not in canonical order")
    ranks = [p.split("-")[1] for p in parts if p != NAPOLI]
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"announcement {value!r} names the same rank twice")
    if parts.count(NAPOLI) > len(ITALIAN_SUITS):
        raise ValueError(f"announcement {value!r} names more napoli than there are suits")
    return parts


def announcement_points(value: str) -> int:
    """Points of a canonical announcement: 4 per four of a kind, 3 per other meld."""
    return sum(_PART_POINTS[p] for p in parse_announcement(value))


# -- Claims: the checks of a declaration and of an announcement ---------------------------------

Declared = tuple[int, str, tuple[Card, ...]]
"""A Buongioco declaration made: the seat, the kind and the cards named."""


def already_declared(declared: Iterable[Declared], seat: int, kind: str,
                     cards: Sequence[Card]) -> bool:
    """Whether ``seat`` already declared the combination ``kind`` of ``cards`` (well formed):
    a napoli of the same suit, or the same rank kind."""
    for s, k, cs in declared:
        if s == seat and k == kind and (kind != NAPOLI or cs[0].suit == cards[0].suit):
            return True
    return False


def good_play_fault(seat: int, value: str, cards: Sequence[Card], plays: int, declared: bool,
                    hand: Sequence[Card | None]) -> tuple[str, str] | None:
    """Why ``seat`` may not declare good play with an action of ``value`` and ``cards``, as
    ``(rule, sentence)``, or ``None`` if it may: ``plays`` is the cards it played this hand,
    ``declared`` whether it already declared good play, ``hand`` its hand (``None``: an unknown
    card; holding a meld is checked only when every card is known)."""
    if value != "good-play" or cards:
        return ("bad-declaration",
                f"the only declaration is 'good-play' without cards, not {value!r}")
    if plays > 0:
        return ("declaration-too-late",
                f"seat {seat} may declare good play only before its first card")
    if declared:
        return "duplicate-declaration", f"seat {seat} already declared good play"
    if None not in hand and not announcement_of(c for c in hand if c is not None):
        return "false-declaration", f"seat {seat} declared good play holding no meld"
    return None


def buongioco_fault(seat: int, kind: str, cards: Sequence[Card], plays: int,
                    declared: Sequence[Declared], hands: Sequence[Sequence[Card | None]],
                    played: Collection[Card]) -> tuple[str, str] | None:
    """Why ``seat`` may not declare the Buongioco combination ``kind`` of ``cards``, as
    ``(rule, sentence)``, or ``None`` if it may: its shape, ``plays`` (the cards it played this
    hand: at most one), the declarations made so far, and its truth. A named card known to be
    elsewhere (among ``played`` or in another seat's hand) makes it false; the whole claim is
    checked against the seat's hand when every card of it is known."""
    problem = combination_error(kind, cards)
    if problem is not None:
        return "bad-declaration", f"seat {seat}'s declaration: {problem}"
    if plays >= 2:
        return ("declaration-too-late",
                f"seat {seat} may declare {kind} only before playing its second card")
    if already_declared(declared, seat, kind, cards):
        return "duplicate-declaration", f"seat {seat} already declared these {kind}"
    hand = hands[seat]
    others = [h for s, h in enumerate(hands) if s != seat]
    elsewhere = any(c in played or any(c in h for h in others) for c in cards)
    if elsewhere or (
        None not in hand
        and not holds_combination([c for c in hand if c is not None], kind, cards)
    ):
        codes = " ".join(c.code for c in cards)
        return ("false-declaration",
                f"seat {seat} declared {kind} {codes} but does not hold exactly those cards")
    return None


def announcement_fault(seat: int, value: str,
                       dealt: Sequence[Card | None]) -> tuple[str, str] | None:
    """Why ``seat``'s announcement ``value`` is wrong, as ``(rule, sentence)``, or ``None``:
    not a canonical announcement, or (when every card of its ``dealt`` hand is known) not the
    announcement of that hand's melds."""
    try:
        parse_announcement(value)
    except ValueError as exc:
        return "bad-announcement", f"seat {seat}: {exc}"
    if None not in dealt:
        truth = announcement_of(c for c in dealt if c is not None)
        if truth != value:
            return ("false-announcement",
                    f"seat {seat} announced {value!r} but held {truth or 'no meld'!r}")
    return None


# -- Signals ----------------------------------------------------------------------------------


_COUNTS_IN_ORDER = tuple(sorted(COUNT_SIGNALS.items()))
"""The count signals by name (``none``, ``one``, ``two``): their order among a card's plays."""

_SIGNAL_SETS: dict[tuple[str | int | None, ...], tuple[tuple[str, int], ...]] = {}
"""The signals a play may carry, by the suit led and the hand's count of each suit (in
``ITALIAN_SUITS`` order): what they are depends on nothing else, and a hand of at most 13 cards
has a few hundred such keys."""


def true_signals(hand: Sequence[Card], led: str | None) -> tuple[tuple[str, int], ...]:
    """The signals a play from a fully known ``hand`` may carry when ``led`` is the suit led
    (``None``: a lead), as ``(value, amount)`` in :class:`~.base.Action` order: no signal,
    ``best`` (a lead) or ``count`` with the cards held of the suit led (a follow), then each of
    ``none``, ``one``, ``two`` that is true of the hand."""
    suits = [c.suit for c in hand]
    key = (led, *map(suits.count, ITALIAN_SUITS))  # the suit counts, counted in C
    signals = _SIGNAL_SETS.get(key)
    if signals is None:
        counts = suit_counts(hand)
        held = set(counts.values())
        first = ("best", 0) if led is None else ("count", counts[led])
        signals = _SIGNAL_SETS[key] = (
            ("", 0), first, *((name, 0) for name, n in _COUNTS_IN_ORDER if n in held))
    return signals


def signal_fault(
    seat: int, value: str, amount: int, card: Card, led: str | None,
    hand: Sequence[Card | None], allowed: bool,
) -> tuple[str, str] | None:
    """Why ``seat``'s play of ``card`` may not carry signal ``value`` (``""``: none) with
    ``amount``, as ``(rule, sentence)``, or ``None`` if it may. ``led`` is the suit led
    (``None``: a lead), ``hand`` the seat's hand before the play (``None``: an unknown card),
    ``allowed`` whether the variant has signals. The form and the public facts are always
    checked, the signal's truth only when every card of ``hand`` is known."""
    if not value:
        return ("bad-signal", "an amount needs the 'count' signal") if amount else None
    fault = _signal_form_fault(value, amount, card, led, allowed)
    if fault is not None:
        return "bad-signal" if allowed else "signals-not-allowed", fault
    if value == "count" and (not 0 <= amount <= len(hand) or (card.suit == led) != (amount >= 1)):
        return ("false-signal",
                f"seat {seat} played {card.code} but signalled {amount} card(s) of suit {led}")
    if value == "two" and len(hand) < 2:
        return "false-signal", f"seat {seat} signalled 'two' holding {len(hand)} card(s)"
    if all_known(hand):
        known = [h for h in hand if h is not None]
        if not signal_true(known, value, amount, led):
            what = f"{value} {amount}" if value == "count" else value
            return "false-signal", f"seat {seat}'s signal {what!r} with {card.code} is false"
    return None


def _signal_form_fault(
    value: str, amount: int, card: Card, led: str | None, allowed: bool
) -> str | None:
    """Why a signal is malformed whatever the hand (no signals in the variant, an unknown
    value, a ``best`` on a follow or a ``count`` on a lead, a wrong amount), or ``None``."""
    if not allowed:
        return f"signal {value!r} on {card.code}: this variant has none"
    if value not in SIGNALS:
        return f"{value!r} is not a signal (one of {', '.join(SIGNALS)})"
    if value == "best" and led is not None:
        return f"only a lead may ask 'best', not {card.code}"
    if value == "count" and led is None:
        return f"the lead {card.code} cannot carry a 'count'"
    if value != "count" and amount:
        return f"signal {value!r} takes no amount"
    if amount < 0:
        return f"a count of {amount} cards is negative"
    return None


def signal_true(hand: Sequence[Card], value: str, amount: int, led: str | None) -> bool:
    """Whether a signal is true of a fully known hand *before* its card is played.

    ``best`` is a request, always true. ``count``: ``amount`` is the number of cards of the led
    suit ``led`` held (the card being played included). ``two`` / ``one`` / ``none``: some suit
    is held exactly 2 / 1 / 0 times.
    """
    counts = suit_counts(hand)
    if value == "count":
        return led is not None and counts[led] == amount
    if value in COUNT_SIGNALS:
        return COUNT_SIGNALS[value] in counts.values()
    return value == "best"


# -- Scoring ------------------------------------------------------------------------------------


def score_lines(
    piles: Sequence[Sequence[Card]],
    last_side: int,
    declared: Sequence[int],
    *,
    thirds: str,
    last_trick: str,
) -> tuple[tuple[ScoreLine, ...], tuple[int, ...]]:
    """The breakdown of a hand and each side's total.

    - ``card points``: values = thirds counted per side (captured cards, plus the last trick's
      third when ``last_trick == "third"``); points = those thirds turned into points by
      :func:`thirds_to_points`.
    - ``last trick``: values = 1 for the side that took it; points = 1 for it when
      ``last_trick == "point"`` (0 otherwise: the third is already in ``card points``).
    - ``declarations``: Buongioco or meld points, added after the rounding.
    - ``total``: values and points = the hand total of each side.
    """
    sides = len(piles)
    took_last = tuple(int(side == last_side) for side in range(sides))
    counted = tuple(
        sum(card_thirds(c) for c in piles[side]) + (took_last[side] if last_trick == "third" else 0)
        for side in range(sides)
    )
    card_points = tuple(thirds_to_points(t, thirds) for t in counted)
    last_points = took_last if last_trick == "point" else (0,) * sides
    totals = tuple(card_points[s] + last_points[s] + declared[s] for s in range(sides))
    lines = (
        ScoreLine("card points", counted, card_points),
        ScoreLine("last trick", took_last, last_points),
        ScoreLine("declarations", tuple(declared), tuple(declared)),
        ScoreLine("total", totals, totals),
    )
    return lines, totals
