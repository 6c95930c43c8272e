"""The legal actions of a Calabrasella seat at each stage of a hand, listed from the cards
alone: bid or pass, the cards the declarer may call, give or deny, the card returned, every
discard of 1 to 4 cards, every take of as many widow cards, and the cards a seat may play.

No game state here: :class:`~p2pcards.games.calabrasella.CalabrasellaMatch` passes the stage
and the cards. Rule text: the Calabrasella part of ``italian-card-games.txt``, sections
"Bidding and exchanging cards" (the bid, the called card, the widow exchange) and "Play of the
hand" (follow suit when able).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import cast

from ..cards import ITALIAN_40, Card
from .base import Action, UnknownHand, actions_with_cards, sort_actions
from .calabrasella_config import WIDOW_SIZE, Stage
from .calabrasella_rules import callable_cards
from .combinations import combinations_in_order

__all__ = [
    "combinations_in_order",
    "discard_choices",
    "known_hand",
    "play_choices",
    "return_choices",
    "stage_actions",
    "take_choices",
    "trick_plays",
]


def stage_actions(stage: Stage, seat: int, hand: Sequence[Card | None], *, called: Card | None,
                  trick: Sequence[tuple[int, Card]], widow: Sequence[Card],
                  discarded: int) -> list[Action]:
    """Sorted legal actions of ``seat`` holding ``hand`` at ``stage``: ``called`` is the card
    the declarer called, ``trick`` the current trick, ``widow`` the widow once turned and
    ``discarded`` how many cards the declarer discarded. :class:`UnknownHand` when the choice
    depends on a hand this view cannot see."""
    if stage is Stage.TRICKS:
        if not all(hand):  # an unseen card (None) in the hand
            known_hand(seat, hand)
        return trick_plays(cast("Sequence[Card]", hand), trick)
    if stage is Stage.BIDDING:
        return sorted([Action("pass"), Action("bid")])
    known = known_hand(seat, hand)
    if stage is Stage.CALL:
        return sort_actions(Action("call", cards=(c,)) for c in callable_cards(known))
    if stage is Stage.ANSWER:
        assert called is not None
        if called in known:
            return [Action("give", card=called)]
        return [Action("deny")]
    if stage is Stage.RETURN:
        return return_choices(known)
    if stage is Stage.DISCARD:
        return discard_choices(known)
    if stage is Stage.TAKE:
        return take_choices(widow, discarded)
    led = trick[0][1].suit if trick else None
    follow = [c for c in known if c.suit == led]
    return play_choices(follow or known)


def trick_plays(hand: Sequence[Card], trick: Sequence[tuple[int, Card]]) -> list[Action]:
    """The plays of a seat holding ``hand`` (every card known) to ``trick``: its cards of the
    suit led when it holds any, else all its cards, in :func:`sort_actions` order."""
    if trick:
        led = trick[0][1].suit
        following = [c for c in hand if c.suit == led]
        if following:
            return play_choices(following)
    return play_choices(hand)


_PLAYS: dict[tuple[int, str, int], Action] = {}
"""``play`` actions by their card's rank, suit and copy, made once (actions are immutable)."""

_DECK_PLAYS: tuple[Action, ...] = tuple(
    Action("play", card=c) for c in sorted(ITALIAN_40.cards, key=lambda c: (c.rank, c.suit,
                                                                             c.copy)))
"""The ``play`` of every card of the deck, in :func:`sort_actions` order."""
_DECK_IN_ORDER: tuple[Card, ...] = tuple(cast(Card, a.card) for a in _DECK_PLAYS)
"""The deck's own card objects in their order (that of their plays)."""
_DECK_PLAY_AT: dict[int, int] = {id(a.card): i for i, a in enumerate(_DECK_PLAYS)}
"""By the identity of a deck card (``id`` of one of ``ITALIAN_40.cards``, which live as long
as the program), the position of its ``play`` in :data:`_DECK_PLAYS`."""


def play_choices(cards: Sequence[Card]) -> list[Action]:
    """``play`` of each of ``cards``, once each, in :func:`sort_actions` order: by the card's
    rank, suit and copy, the key the actions compare by."""
    try:  # the deck's own card objects: their plays' positions, sorted as plain numbers
        return list(map(_DECK_PLAYS.__getitem__,
                        sorted(set(map(_DECK_PLAY_AT.__getitem__, map(id, cards))))))
    except KeyError:  # a card made elsewhere (equal to a deck card or not)
        pass
    by_key = {(c.rank, c.suit, c.copy): c for c in cards}
    out = []
    for key in sorted(by_key):
        action = _PLAYS.get(key)
        if action is None:
            action = _PLAYS[key] = Action("play", card=by_key[key])
        out.append(action)
    return out


_DECK_RETURNS: tuple[Action, ...] = tuple(Action("return", card=a.card) for a in _DECK_PLAYS)
"""The ``return`` of every card of the deck, in :func:`sort_actions` order (that of
:data:`_DECK_PLAYS`)."""


def return_choices(cards: Sequence[Card]) -> list[Action]:
    """``return`` of each of ``cards``, once each, in :func:`sort_actions` order."""
    try:  # the deck's own card objects: their returns' positions, sorted as plain numbers
        return list(map(_DECK_RETURNS.__getitem__,
                        sorted(set(map(_DECK_PLAY_AT.__getitem__, map(id, cards))))))
    except KeyError:  # a card made elsewhere (equal to a deck card or not)
        return sort_actions({Action("return", card=c) for c in cards})


def known_hand(seat: int, hand: Sequence[Card | None]) -> list[Card]:
    """The cards of ``seat``'s ``hand``; :class:`UnknownHand` when one is unseen."""
    known = [c for c in hand if c is not None]
    if len(known) != len(hand):
        raise UnknownHand(
            f"seat {seat}'s hand is not known in this view, so no legal actions"
        )
    return known


def discard_choices(hand: list[Card]) -> list[Action]:
    """Every discard of 1..``WIDOW_SIZE`` cards, already in :func:`sort_actions` order
    (see :func:`combinations_in_order`), so that the ~800 actions need no sort."""
    return _cards_actions("discard", combinations_in_order(_sorted_distinct(hand), WIDOW_SIZE))


def _sorted_distinct(cards: Sequence[Card]) -> list[Card]:
    """``sorted(set(cards))``: the deck's own card objects put in order by their places in
    :data:`_DECK_PLAYS` (no card hashed or compared, each a Python call), other cards the
    plain way."""
    try:
        return list(map(_DECK_IN_ORDER.__getitem__,
                        sorted(set(map(_DECK_PLAY_AT.__getitem__, map(id, cards))))))
    except KeyError:  # a card made elsewhere (equal to a deck card or not)
        return sorted(set(cards))


def take_choices(widow: Sequence[Card], discarded: int) -> list[Action]:
    """Every take of as many widow cards as were discarded: combinations of one size of a
    sorted list come out in sorted order."""
    return _cards_actions("take", combinations(sorted(widow), discarded))


class _OpenAction:
    """An object laid out as :class:`Action` (the same slots, in the same order) but without
    its frozen guard, so that its fields are filled in with plain slot stores; assigning
    ``__class__ = Action`` then makes it an :class:`Action` like any other (Python allows the
    assignment between classes of the same layout, and checks that they are)."""

    __slots__ = ("kind", "card", "cards", "value", "amount")
    kind: str
    card: Card | None
    cards: tuple[Card, ...]
    value: str
    amount: int


def _fits_action() -> bool:
    """Whether an :class:`_OpenAction` can become an :class:`Action` equal to one made by the
    constructor: the same slots, which the ``__class__`` assignment also checks."""
    if Action.__slots__ != _OpenAction.__slots__:
        return False
    probe = _OpenAction()
    probe.kind, probe.card, probe.cards, probe.value, probe.amount = "discard", None, (), "", 0
    try:
        probe.__class__ = cast("type[_OpenAction]", Action)
    except TypeError:
        return False
    return cast(object, probe) == Action("discard")


def _open_actions(kind: str, combos: Iterable[tuple[Card, ...]]) -> list[Action]:
    """``[Action(kind, cards=c) for c in combos]``, each made as an :class:`_OpenAction` and
    turned into an :class:`Action`: about half the instructions of
    :func:`~p2pcards.games.base.actions_with_cards`, whose five guarded field assignments per
    action cost more than the object itself (the ~800 discards of every discard decision were
    over half the engine's work)."""
    out: list[Action] = []
    append = cast("Callable[[_OpenAction], None]", out.append)
    action_class = cast("type[_OpenAction]", Action)
    for combo in combos:
        action = _OpenAction()
        action.kind = kind
        action.card = None
        action.cards = combo
        action.value = ""
        action.amount = 0
        action.__class__ = action_class
        append(action)
    return out


_cards_actions = _open_actions if _fits_action() else actions_with_cards
"""How the discards and takes are made: as :class:`_OpenAction` objects turned into actions
when the layouts fit (always, unless :class:`Action` gains a field), else the plain way."""
