"""The checks of a Calabrasella action that public information allows at once: the shape of
an action, the cards revealed for a chance step, the card called, the discard and the take, a
play against the suit led and against the call's public evidence.

No game state here: every function takes what it needs and raises :class:`IllegalMove` (or
:class:`BadChance`) naming the rule and the seat; :class:`~p2pcards.games.calabrasella.
CalabrasellaMatch` calls them before it changes anything. Rule text: the Calabrasella part of
``italian-card-games.txt``, sections "Bidding and exchanging cards" (a 3 the declarer does not
hold, a 2 when it holds all four 3s; the discard and the widow) and "Play of the hand" (follow
suit when able).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from ..cards import HIDDEN, Card, Deck
from .base import ALL_SEATS, Action, BadChance, ChanceStep, IllegalMove
from .calabrasella_config import MAX_CALL_LEVEL, WIDOW_SIZE
from .calabrasella_rules import CALL_LEVELS, call_level

__all__ = [
    "called_card",
    "check_called_play",
    "check_discard",
    "check_follows",
    "check_revealed",
    "check_shape",
    "taken_cards",
]


def check_shape(seat: int, action: Action, *, card_: bool, cards: bool) -> None:
    """Refuse an action whose fields do not fit its kind: one card in ``card`` (``card_``),
    cards in ``cards`` (``cards``), or no card at all; never a value or an amount."""
    bad = (
        (action.card is not None) != card_
        or (bool(action.cards) and not cards)
        or bool(action.value)
        or bool(action.amount)
    )
    if bad or (cards and not action.cards):
        what = "one card in 'card'" if card_ else "cards in 'cards'" if cards else "no card"
        raise IllegalMove(
            "malformed-action", f"a calabrasella {action.kind} carries {what}, not {action}",
            seat,
        )


def check_revealed(steps: Sequence[ChanceStep], given: Sequence[Card | None],
                   placed: Collection[Card], deck: Deck) -> None:
    """Raise :class:`BadChance` unless ``given`` fulfils ``steps``: one card per step, a card
    of ``deck`` not in ``placed`` nor twice, ``None`` only where this view cannot see."""
    if len(given) != len(steps):
        raise BadChance(f"{len(given)} cards given for {len(steps)} chance steps")
    fresh: set[Card] = set()
    for step, c in zip(steps, given, strict=True):
        if c is None:
            if step.visible_to == ALL_SEATS:
                raise BadChance(f"the widow card at deck position {step.position} must be "
                                f"revealed, not None")
            continue
        if not isinstance(c, Card) or c not in deck:
            raise BadChance(f"{c!r} at deck position {step.position} is not a card of the "
                            f"{deck.name} deck")
        if c in fresh or c in placed:
            raise BadChance(f"{c.code} at deck position {step.position} is already placed")
        fresh.add(c)


def called_card(seat: int, action: Action, hand: Sequence[Card | None], deck: Deck,
                known_elsewhere: Callable[[Card], bool]) -> Card:
    """The card declarer ``seat`` (holding ``hand``) calls with ``action``, once it is a card
    it may call: a card of the rank :func:`~.calabrasella_rules.call_level` gives, or, while
    the hand is not fully known, no card of a higher call rank ``known_elsewhere``."""
    check_shape(seat, action, card_=False, cards=True)
    if len(action.cards) != 1:
        raise IllegalMove("malformed-action", "a call names exactly one card", seat)
    called = action.cards[0]
    if called not in deck:
        raise IllegalMove("card-not-in-deck", f"{called.code} is not in the "
                          f"{deck.name} deck", seat)
    if called.rank not in CALL_LEVELS[:MAX_CALL_LEVEL + 1]:
        raise IllegalMove("wrong-call", f"seat {seat} must call a 3 (or a 2 holding all "
                          f"four 3s), not {called.code}", seat)
    if called in hand:
        raise IllegalMove("called-held-card",
                          f"declarer {seat} called {called.code}, a card it holds", seat)
    level = CALL_LEVELS.index(called.rank)
    above = [Card(r, s) for r in CALL_LEVELS[:level] for s in "DCSB"]
    if None not in hand:
        required = call_level([c for c in hand if c is not None])
        if called.rank != required:
            raise IllegalMove(
                "wrong-call",
                f"declarer {seat} must call a card of rank {Card(required, 'D').code[:-1]}, "
                f"not {called.code}",
                seat,
            )
    else:
        elsewhere = next((c for c in above if known_elsewhere(c)), None)
        if elsewhere is not None:
            raise IllegalMove(
                "wrong-call",
                f"declarer {seat} called {called.code} but does not hold {elsewhere.code}, "
                f"so it must call a card of that rank",
                seat,
            )
    return called


def check_discard(seat: int, action: Action) -> list[Card]:
    """The cards of the declarer's discard ``action`` (:data:`HIDDEN` where unseen): 1 to 4,
    none named twice."""
    cards = list(action.cards)
    if not 1 <= len(cards) <= WIDOW_SIZE:
        raise IllegalMove("discard-count", f"the declarer discards 1 to {WIDOW_SIZE} cards, "
                          f"not {len(cards)}", seat)
    check_shape(seat, action, card_=False, cards=True)
    known = [c for c in cards if c != HIDDEN]
    if len(set(known)) != len(known):
        raise IllegalMove("malformed-action", "a discard names a card twice", seat)
    return cards


def taken_cards(seat: int, action: Action, discarded: int, widow: Sequence[Card]) -> list[Card]:
    """The widow cards the declarer takes with ``action``: as many as it ``discarded``, each
    once, each in the ``widow``."""
    check_shape(seat, action, card_=False, cards=True)
    cards = list(action.cards)
    if len(cards) != discarded:
        raise IllegalMove("take-count", f"the declarer discarded {discarded} and "
                          f"must take as many widow cards, not {len(cards)}", seat)
    if len(set(cards)) != len(cards):
        raise IllegalMove("malformed-action", "a take names a widow card twice", seat)
    stray = next((c for c in cards if c not in widow), None)
    if stray is not None:
        raise IllegalMove("not-in-widow", f"{stray.code} is not in the widow "
                          f"({' '.join(c.code for c in widow)})", seat)
    return cards


def check_follows(seat: int, c: Card, led: str | None, hand: Sequence[Card | None],
                  void: Collection[str]) -> None:
    """Refuse ``seat`` playing ``c`` to a trick led in suit ``led`` when it holds a card of
    that suit in ``hand``, or when ``c``'s suit is one it showed ``void`` in earlier."""
    if c.suit in void:
        raise IllegalMove("must-follow-suit", f"seat {seat} plays {c.code} after failing to "
                          f"follow suit {c.suit} earlier", seat)
    if led is not None and c.suit != led:
        held = next((h for h in hand if h is not None and h.suit == led), None)
        if held is not None:
            raise IllegalMove("must-follow-suit", f"seat {seat} must follow suit {led} (it "
                              f"holds {held.code}) but played {c.code}", seat)


def check_called_play(seat: int, c: Card, *, called: Card | None,
                      answers: Sequence[tuple[int, str]], declarer: int | None,
                      holder: int | None, widow: Collection[Card]) -> None:
    """Public evidence about the call: a denier playing the called card lied; a declarer
    playing it when nobody passed it and the widow did not hold it called its own card."""
    if c != called:
        return
    if any(s == seat and kind == "deny" for s, kind in answers):
        raise IllegalMove("false-denial", f"seat {seat} denied holding {c.code} and now "
                          f"plays it", seat)
    if seat == declarer and holder is None and c not in widow:
        raise IllegalMove("called-held-card", f"declarer {seat} called {c.code}, which "
                          f"nobody passed and the widow did not hold, and now plays it", seat)
