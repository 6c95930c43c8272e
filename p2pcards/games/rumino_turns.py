"""Rumino's deal and turns as pure functions: the seat order, the deal's chance steps, the
checks of revealed cards, the actions a seat may take, the shape of an action, the cards an
action takes out of a hand, and the six cards an out-of-turn claim shows.

No game state here: every function takes what it needs, and
:class:`~p2pcards.games.rumino.RuminoMatch` keeps the state. Rule text: the Rumino part of
``italian-card-games.txt``, sections "Game play" (seven cards each, the upcard, draw the upcard
or the top of the stock, then discard) and "Going out" (knock at seven or less before drawing,
the rumino, the claim of a discard that completes one); ``protocol/games/rumino.md`` is
normative.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from ..cards import Card, Deck
from .base import (
    ALL_SEATS,
    Action,
    BadChance,
    ChanceStep,
    IllegalMove,
    UnknownHand,
    Zone,
    actions_with_cards,
    sort_actions,
)
from .rumino_config import HAND_SIZE, KNOCK_LIMIT
from .rumino_melds import (
    DECK_ORDER,
    RUMINO_SIZE,
    Split,
    best_split,
    hand_places,
    is_rumino,
    may_hold_rumino_at,
    rumino_completions,
    rumino_subsets,
    split_at,
)

__all__ = [
    "check_revealed",
    "check_shape",
    "claim_options",
    "claimed_six",
    "deal_steps",
    "draw_steps",
    "is_shared_discard",
    "next_seat",
    "take_from_hand",
    "turn_actions",
]


def next_seat(seat: int, among: Iterable[int], players: int) -> int:
    """The first seat after ``seat`` (cyclically, not ``seat`` itself unless alone) in
    ``among``."""
    members = set(among)
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if candidate in members:
            return candidate
    raise AssertionError("no seat to move to")


def deal_steps(order: Sequence[int]) -> tuple[ChanceStep, ...]:
    """The deal to the seats of ``order``: deck position ``i < 7k`` face down to the
    ``i % k``-th of them, then the upcard face up for everyone. Made once per order and
    shared (the steps are immutable)."""
    return _deal_steps(tuple(order))


def draw_steps(position: int, seat: int) -> tuple[ChanceStep, ...]:
    """The draw of deck ``position`` by ``seat`` from the stock, seen by ``seat`` only. Made
    once per position and seat and shared (the step is immutable)."""
    return _draw_steps(position, seat)


@lru_cache(maxsize=4096)
def _draw_steps(position: int, seat: int) -> tuple[ChanceStep, ...]:
    """:func:`draw_steps`, made afresh."""
    return (ChanceStep(position, Zone.HAND, seat, frozenset({seat})),)


@lru_cache(maxsize=4096)
def _deal_steps(order: tuple[int, ...]) -> tuple[ChanceStep, ...]:
    """:func:`deal_steps`, made afresh."""
    k = len(order)
    steps = [
        ChanceStep(i, Zone.HAND, order[i % k], frozenset({order[i % k]}))
        for i in range(HAND_SIZE * k)
    ]
    steps.append(ChanceStep(HAND_SIZE * k, Zone.DISCARD, None, ALL_SEATS))
    return tuple(steps)


def check_revealed(steps: Sequence[ChanceStep], given: Sequence[Card | None],
                   placed: set[Card], deck: Deck, deck_set: frozenset[Card],
                   held: frozenset[str] | set[str] = frozenset()) -> None:
    """Raise :class:`BadChance` unless ``given`` fulfils ``steps``: one card per step, a card
    of ``deck`` (whose cards are ``deck_set``) not in ``placed`` (nor among the cards whose
    codes are ``held``) nor twice, and ``None`` only where this view cannot see."""
    if len(given) != len(steps):
        raise BadChance(f"{len(given)} cards given for {len(steps)} pending chance steps")
    fresh: set[Card] = set()
    for step, c in zip(steps, given, strict=True):
        where = f"deck position {step.position}"
        if c is None:
            if step.visible_to == ALL_SEATS:
                raise BadChance(f"the public card at {where} must be revealed, not None")
            continue
        if not isinstance(c, Card) or c not in deck_set:
            raise BadChance(f"{c!r} at {where} is not a card of the {deck.name} deck")
        if c in placed or c.code in held or c in fresh:
            raise BadChance(f"{c.code} at {where} was already placed in this hand")
        fresh.add(c)


def turn_actions(seat: int, hand: Sequence[Card | None], *, drawn: bool, stock_size: int,
                 upcard: bool, taken: Card | None,
                 split: Callable[[Sequence[int]], Split] = split_at) -> list[Action]:
    """Sorted legal actions of ``seat`` holding ``hand`` on its turn: before drawing ``draw``
    (from the stock while it holds cards, the upcard when there is one), ``knock`` at a
    deadwood of 7 or less; after drawing a ``discard`` of any card but ``taken`` (the upcard
    just taken); ``rumino`` whenever seven cards of the hand are one. Raises
    :class:`UnknownHand` when ``hand`` is not fully known.

    Without a rumino in the hand the actions come out in order as they are listed (the draws,
    then the knock; or the discards in the order of the cards), each built once per card.
    ``split`` gives the best split of the hand's places (:func:`~.rumino_melds.split_at`, or a
    seat's :class:`~.rumino_melds.MeldTracker`)."""
    known = [c for c in hand if c is not None]
    if len(known) != len(hand):
        raise UnknownHand(
            f"seat {seat}'s hand is not known in this view, so no legal actions")
    places = hand_places(known)
    subsets = rumino_subsets(known) if places is None or may_hold_rumino_at(places) else []
    if places is None or subsets:
        return _actions_sorted(known, subsets, drawn=drawn, stock_size=stock_size,
                               upcard=upcard, taken=taken)
    if not drawn:
        out = [_DRAW_STOCK] if stock_size > 0 else []
        if upcard:
            out.append(_DRAW_UPCARD)
        if split(places).deadwood <= KNOCK_LIMIT:
            out.append(_KNOCK)
        return out
    skip = _PLACE_OF_CODE.get(taken.code) if taken is not None else None
    discards = _DISCARD_AT
    out = []
    last = None
    for place in places:
        if place != last and place != skip:
            out.append(discards[place])
        last = place
    return out


def _actions_sorted(known: list[Card], subsets: list[tuple[Card, ...]], *, drawn: bool,
                    stock_size: int, upcard: bool, taken: Card | None) -> list[Action]:
    """:func:`turn_actions` listed and then sorted: a hand holding a rumino, or a card of
    another deck."""
    out: list[Action] = actions_with_cards("rumino", subsets)
    if not drawn:
        if stock_size > 0:
            out.append(Action("draw", value="stock"))
        if upcard:
            out.append(Action("draw", value="upcard"))
        if best_split(known).deadwood <= KNOCK_LIMIT:
            out.append(Action("knock"))
    else:
        out.extend(Action("discard", c) for c in set(known)
                   if taken is None or c != taken)
    return sort_actions(out)


_DRAW_STOCK = Action("draw", value="stock")
_DRAW_UPCARD = Action("draw", value="upcard")
_KNOCK = Action("knock")
_DISCARD_AT: tuple[Action, ...] = tuple(Action("discard", c) for c in DECK_ORDER)
"""The discard of each card, by its place in :data:`~.rumino_melds.DECK_ORDER`."""
_PLACE_OF_CODE: dict[str, int] = {c.code: i for i, c in enumerate(DECK_ORDER)}


def is_shared_discard(action: Action) -> bool:
    """Whether ``action`` is the discard :func:`turn_actions` lists for a card of the French
    deck in a hand of its cards with no rumino (one object per card, shared by every state)."""
    card = action.card
    if card is None:
        return False
    place = _PLACE_OF_CODE.get(card.code)
    return place is not None and _DISCARD_AT[place] is action


def check_shape(action: Action, seat: int, *, card: bool = False, cards: bool = False,
                value: bool = False, amount: bool = False) -> None:
    """Refuse an action carrying fields its kind does not have (or missing one it needs)."""
    wrong = ((action.card is not None) != card or bool(action.cards) != cards
             or bool(action.value) != value or bool(action.amount) != amount)
    if wrong:
        raise IllegalMove("malformed-action", f"a rumino {action.kind!r} action cannot be "
                          f"{action}", seat)


def take_from_hand(hands: Sequence[Sequence[Card | None]], seat: int, wanted: Sequence[Card],
                   *, seen: set[Card], deck: Deck,
                   deck_set: frozenset[Card]) -> list[Card | None]:
    """The hand of ``seat`` less ``wanted`` (known cards, else hidden slots), or raise
    :class:`IllegalMove`; ``seen`` are the cards every seat has seen leave the hands. A card is
    found in the hand by its code (equal cards have equal codes)."""
    if len(set(wanted)) != len(wanted):
        raise IllegalMove("malformed-action", f"seat {seat} names a card twice", seat)
    hand = list(hands[seat])
    for c in wanted:
        if c not in deck_set:
            raise IllegalMove("card-not-in-deck",
                              f"{c.code} is not a card of the {deck.name} deck", seat)
        codes = [None if held is None else held.code for held in hand]
        if c.code in codes:
            del hand[codes.index(c.code)]
        elif c in seen or any(c in h for h in hands):
            raise IllegalMove("card-not-in-hand", f"seat {seat} cannot use {c.code}: that "
                              "card is known to be elsewhere", seat)
        elif None in hand:
            hand.remove(None)
        else:
            raise IllegalMove("card-not-in-hand", f"seat {seat} does not hold {c.code}",
                              seat)
    return hand


def claim_options(seat: int, hand: Sequence[Card | None],
                  discards: Sequence[Card]) -> list[Action]:
    """The sorted claims ``seat`` holding ``hand`` can make on the top of ``discards``: one per
    six cards of the hand that the discard completes to a rumino. Raises
    :class:`UnknownHand` when ``hand`` is not fully known."""
    if None in hand:
        raise UnknownHand(f"seat {seat}'s hand is not known in this view, so no claims")
    top = discards[-1]
    known = [c for c in hand if c is not None]
    return sort_actions(Action("claim", top, six) for six in rumino_completions(known, top))


def claimed_six(seat: int, action: Action, discards: Sequence[Card]) -> tuple[Card, ...]:
    """The six cards of ``seat``'s claim ``action`` on the top of ``discards``, once the claim
    is seen to be one: a ``claim`` of that card whose six cards complete it to a rumino. Raises
    :class:`IllegalMove` (``malformed-action``, ``wrong-card``, ``not-a-rumino``)."""
    if not isinstance(action, Action) or action.kind != "claim":
        raise IllegalMove("malformed-action", f"an out-of-turn action must be a claim, not "
                          f"{action}", seat)
    check_shape(action, seat, card=True, cards=True)
    top = discards[-1]
    if action.card != top:
        shown = action.card.code if action.card is not None else "nothing"
        raise IllegalMove("wrong-card", f"seat {seat} claims {shown}, but the discard is "
                          f"{top.code}", seat)
    six = tuple(action.cards)
    if len(six) != RUMINO_SIZE - 1 or not is_rumino((*six, top)):
        raise IllegalMove("not-a-rumino", f"{top.code} with {' '.join(c.code for c in six)} "
                          "is not a rumino", seat)
    return six
