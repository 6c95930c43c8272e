"""Pure rules of Tute: the playing obligations, the marriages and the card points.

No state here: every function takes the cards it needs. The state machine in
:mod:`p2pcards.games.tute` calls them; tests and bots may call them directly.

Ranking in every suit (high to low): A, 3, K (rey), Q (caballo), J (sota), 7, 6, 5, 4, 2, the
same order as Briscola (:data:`~p2pcards.games.tricks.BRISCOLA_ORDER`); card points A 11, 3 10,
K 4, Q 3, J 2, others 0 (120 in the deck).

Obligations of a seat playing to a trick whose first card has suit ``led``, with trump suit
``trump`` (:func:`play_error` names the first one broken):

1. ``must-follow-suit``: holding a card of ``led``, play one.
2. ``must-head``: following suit while no trump has beaten the trick (always when ``led`` is
   trumps), play a card of ``led`` higher than the best one in the trick, if one is held.
3. ``must-trump``: holding no card of ``led`` but a trump, play a trump.
4. ``must-overtrump``: trumping a trick that already holds a trump, play a higher trump than the
   best one in the trick, if one is held (otherwise any trump).

Only a seat with neither ``led`` nor trumps may play any card. With ``partner_relief`` a seat
whose partner's card is winning the trick keeps obligation 1 only (a house rule, off by default).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import ITALIAN_SUITS, Card
from .tricks import BRISCOLA_ORDER, BRISCOLA_POINTS, card_points, index_in_hand, trick_winner

__all__ = [
    "CUARENTA",
    "DECLARATION_KINDS",
    "KING",
    "LAST_TRICK_POINTS",
    "ORDER",
    "POINTS",
    "QUEEN",
    "TUTE",
    "VEINTE",
    "allowed_plays",
    "declaration_points",
    "marriage_error",
    "marriages_held",
    "play_error",
    "points_of",
    "trick_winner_seat",
]

ORDER = BRISCOLA_ORDER
"""A, 3, K, Q, J, 7, 6, 5, 4, 2."""
POINTS = BRISCOLA_POINTS
"""A 11, 3 10, K 4, Q 3, J 2."""
LAST_TRICK_POINTS = 10
KING = 10
QUEEN = 9
CUARENTA = "cuarenta"
VEINTE = "veinte"
TUTE = "tute"
DECLARATION_KINDS = (CUARENTA, VEINTE, TUTE)
_DECLARATION_POINTS = {CUARENTA: 40, VEINTE: 20, TUTE: 0}


def points_of(cards: Iterable[Card]) -> int:
    """Card points of ``cards``."""
    return card_points(cards, POINTS)


def declaration_points(kind: str) -> int:
    """40 for las cuarenta, 20 for las veinte, 0 for a tute (it wins the hand instead)."""
    return _DECLARATION_POINTS[kind]


def trick_winner_seat(trick: Sequence[tuple[int, Card]], trump: str) -> int:
    """The seat whose card wins ``trick`` (``(seat, card)`` pairs in playing order)."""
    return trick[trick_winner([c for _, c in trick], ORDER, trump)][0]


_STRENGTH = ORDER.strengths


def _best(trick: Sequence[tuple[int, Card]], suit: str) -> Card | None:
    """The strongest card of ``suit`` in ``trick`` (the first of equals), ``None`` if none."""
    best: Card | None = None
    for _, c in trick:
        if c.suit == suit and (best is None or _STRENGTH[c.rank] > _STRENGTH[best.rank]):
            best = c
    return best


def allowed_plays(hand: Sequence[Card], trick: Sequence[tuple[int, Card]], trump: str,
                  *, relieved: bool = False) -> list[Card]:
    """The cards of ``hand`` a seat may play to ``trick`` (every card when leading).

    ``relieved``: the seat's partner is winning the trick and the ``partner_relief`` rule is on,
    so only following suit is required.
    """
    if not trick:
        return list(hand)
    led = trick[0][1].suit
    of_led = [c for c in hand if c.suit == led]
    if of_led:
        if relieved:
            return of_led
        top_trump = _best(trick, trump)
        if led != trump and top_trump is not None:
            return of_led
        best = _best(trick, led)
        assert best is not None
        floor = _STRENGTH[best.rank]
        higher = [c for c in of_led if _STRENGTH[c.rank] > floor]
        return higher or of_led
    trumps = [c for c in hand if c.suit == trump]
    if not trumps or relieved:
        return list(hand)
    top_trump = _best(trick, trump)
    if top_trump is None:
        return trumps
    floor = _STRENGTH[top_trump.rank]
    higher = [c for c in trumps if _STRENGTH[c.rank] > floor]
    return higher or trumps


def play_error(hand: Sequence[Card], played: Card, trick: Sequence[tuple[int, Card]],
               trump: str, *, relieved: bool = False) -> str | None:
    """The rule id broken by playing ``played`` from ``hand`` (which holds it), or ``None``.

    Sound on part of a hand: if ``hand`` is only the cards known to be held (plus ``played``), a
    rule named here is broken by the whole hand too, since more cards only add obligations.
    """
    if not trick or index_in_hand(allowed_plays(hand, trick, trump, relieved=relieved),
                                  played) >= 0:
        return None
    led = trick[0][1].suit
    if any(c.suit == led for c in hand):
        return "must-follow-suit" if played.suit != led else "must-head"
    return "must-trump" if played.suit != trump else "must-overtrump"


def marriages_held(hand: Iterable[Card]) -> list[str]:
    """The suits (canonical order) of which ``hand`` holds both the K and the Q."""
    held = set(hand)
    return [s for s in ITALIAN_SUITS if Card(KING, s) in held and Card(QUEEN, s) in held]


def marriage_error(kind: str, cards: Sequence[Card], trump: str) -> str | None:
    """What is wrong with the shape of a declaration (``None`` if well formed): a cuarenta or
    veinte names the K then the Q of one suit (trumps for the cuarenta, another suit for the
    veinte); a tute names the four kings in canonical suit order."""
    if kind == TUTE:
        want = tuple(Card(KING, s) for s in ITALIAN_SUITS)
        if tuple(cards) != want:
            return "a tute names the four kings KD KC KS KB"
        return None
    if kind not in (CUARENTA, VEINTE):
        return f"{kind!r} is not a declaration (cuarenta, veinte or tute)"
    if len(cards) != 2 or cards[0].rank != KING or cards[1].rank != QUEEN or (
            cards[0].suit != cards[1].suit):
        return f"las {kind} names the K then the Q of one suit"
    if kind == CUARENTA and cards[0].suit != trump:
        return f"las cuarenta is the K and Q of trumps ({trump}), not of {cards[0].suit}"
    if kind == VEINTE and cards[0].suit == trump:
        return "the K and Q of trumps are las cuarenta, not las veinte"
    return None
