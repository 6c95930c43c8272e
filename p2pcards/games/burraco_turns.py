"""The plays of a Burraco turn: what the end of a turn demands of the cards a seat keeps, the
melds, additions and discards a seat may make, and the checks of the cards an action names.

No match state here: :class:`TurnEnd` holds the little a seat's turn depends on (its side's
melds, whether the side took its pozzetto, the card taken alone from the pile), and
:class:`~p2pcards.games.burraco.BurracoMatch` passes it with the hand. Rule text: the Burraco
part of ``italian-card-games.txt``, sections "Game play" (draw or take the whole pile, meld,
discard; one set per rank for a partnership), "Taking a pozzetto" (a player who runs out of
cards takes it) and "Ending the hand" (going out needs a burraco and a discard);
``protocol/games/burraco.md`` is normative and lists the rule ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import JOKER_SUIT, Card
from .base import (
    ALL_SEATS,
    Action,
    BadChance,
    ChanceStep,
    IllegalMove,
    actions_with_cards,
    sort_actions,
)
from .burraco_melds import Meld, is_wild_card, one_card_extensions

__all__ = [
    "TurnEnd",
    "additions",
    "check_revealed",
    "new_melds",
    "play_actions",
    "take_from_hand",
    "without",
]

@dataclass(frozen=True)
class TurnEnd:
    """What the end of ``seat``'s turn demands of the cards it keeps, from its side's
    ``melds``, whether the side has ``pozzetto_taken``, and the card ``taken_single`` alone
    from the discard pile this turn (which it may not discard)."""

    seat: int
    melds: Sequence[Meld]
    pozzetto_taken: bool
    taken_single: Card | None

    def check_rest(self, rest: list[Card | None], meld: Meld) -> None:
        """Raise ``no-discard-left`` unless ``rest``, the hand left after laying ``meld``, can
        still end the turn: a card to discard, or (pozzetto taken) a last card that closes."""
        seat = self.seat
        side = seat % 2
        if not self.pozzetto_taken:
            if len(rest) == 1 and rest[0] is not None and rest[0] == self.taken_single:
                raise IllegalMove("no-discard-left", f"seat {seat} would keep only "
                                  f"{rest[0].code}, which it cannot discard this turn", seat)
            return
        if not rest:
            raise IllegalMove("no-discard-left", f"seat {seat} must keep a card to discard: "
                              f"side {side} has taken its pozzetto", seat)
        if len(rest) > 1 or rest[0] is None:
            return
        last = rest[0]
        burraco = meld.burraco or any(m.burraco for m in self.melds)
        if last == self.taken_single or is_wild_card(last) or not burraco:
            raise IllegalMove("no-discard-left", f"seat {seat} would keep only {last.code} "
                              "and could not close with it", seat)

    def rest_ok(self, rest: list[Card], meld: Meld) -> bool:
        """Whether :meth:`check_rest` accepts ``rest`` after ``meld``."""
        try:
            self.check_rest(list[Card | None](rest), meld)
        except IllegalMove:
            return False
        return True

    def discard_error(self, c: Card, hand_size: int) -> IllegalMove | None:
        """Why discarding ``c`` from a hand of ``hand_size`` cards is refused, or ``None``."""
        seat = self.seat
        if self.taken_single is not None and c == self.taken_single:
            return IllegalMove("discard-taken-card", f"seat {seat} took {c.code} as the only "
                               "card of the discard pile and cannot discard it this turn", seat)
        if hand_size > 1:
            return None
        side = seat % 2
        if not self.pozzetto_taken:
            return None  # the pozzetto is taken face down
        if not any(m.burraco for m in self.melds):
            return IllegalMove("no-burraco", f"seat {seat} cannot close: side {side} has no "
                               "burraco yet, so the last card cannot be discarded", seat)
        if is_wild_card(c):
            return IllegalMove("wild-closing-discard", f"seat {seat} cannot close by "
                               f"discarding the wild card {c.code}", seat)
        return None


def play_actions(known: list[Card], end: TurnEnd, candidates: list[Meld]) -> list[Action]:
    """Sorted plays of a seat holding ``known`` once it has drawn: every ``meld`` of three
    cards among ``candidates`` (the hand's three-card melds), every ``add`` of one card to a
    meld of its side, every legal ``discard``."""
    actions = actions_with_cards("meld", [meld.cards
                                          for meld in new_melds(known, end, candidates)])
    actions += additions(known, end)
    size = len(known)
    actions += [Action("discard", c) for c in known
                if end.discard_error(c, size) is None]
    return sort_actions(actions)


def new_melds(known: list[Card], end: TurnEnd, candidates: list[Meld]) -> Iterable[Meld]:
    """The three-card melds the seat may lay: no second set of a rank, and a legal hand
    left (only a hand of at most one card left can break that rule)."""
    set_ranks = {m.rank for m in end.melds if m.kind == "set"}
    tight = len(known) - 3 <= 1
    for meld in candidates:
        if meld.kind == "set" and meld.rank in set_ranks:
            continue
        if tight and not end.rest_ok(without(known, meld.cards), meld):
            continue
        yield meld


def additions(known: list[Card], end: TurnEnd) -> list[Action]:
    """Every addition of one card of ``known`` to one of the side's melds."""
    out: list[Action] = []
    tight = len(known) - 1 <= 1
    for index, old in enumerate(end.melds):
        kind, rank, suit = old.kind, old.rank, old.suit
        for c in known:
            if not (c.suit == JOKER_SUIT or c.rank == 2
                    or (c.rank == rank if kind == "set" else c.suit == suit)):
                continue
            grown = one_card_extensions(old, c)
            if not grown:
                continue
            rest = without(known, (c,)) if tight else known
            for new in grown:
                if not tight or end.rest_ok(rest, new):
                    out.append(Action("add", cards=new.cards, amount=index + 1))
    return out


def take_from_hand(hand: Sequence[Card | None], seat: int, cards: Sequence[Card], *,
                   seen: set[Card], deck_set: frozenset[Card]) -> list[Card | None]:
    """``seat``'s ``hand`` without ``cards`` (checked: in the hand, or in an unknown slot for
    a card not ``seen``)."""
    rest = list(hand)
    for c in cards:
        if c not in deck_set:
            raise IllegalMove("card-not-in-deck", f"{c.code} is not a card of the "
                              "french108 deck", seat)
        if c in rest:
            rest.remove(c)
        elif None in rest and c not in seen:
            rest.remove(None)
        else:
            raise IllegalMove("card-not-in-hand", f"seat {seat} does not hold {c.code}",
                              seat)
    return rest


def check_revealed(steps: Sequence[ChanceStep], given: Sequence[Card | None], seen: set[Card],
                   deck_set: frozenset[Card]) -> set[Card]:
    """The cards ``given`` for ``steps``, once checked (else :class:`BadChance`): one per step,
    a card of the deck (``deck_set``) not ``seen`` in this hand nor given twice, ``None`` only
    where this view cannot see."""
    if len(given) != len(steps):
        raise BadChance(f"{len(given)} cards given for {len(steps)} pending chance steps")
    fresh: set[Card] = set()
    for step, c in zip(steps, given, strict=True):
        if c is None:
            if step.visible_to == ALL_SEATS:
                raise BadChance(f"the public card at deck position {step.position} must be "
                                "revealed, not None")
            continue
        if not isinstance(c, Card) or c not in deck_set:
            raise BadChance(f"{c!r} at deck position {step.position} is not a card of "
                            "the french108 deck")
        if c in seen or c in fresh:
            raise BadChance(f"{c.code} at deck position {step.position} is already "
                            "placed in this hand")
        fresh.add(c)
    return fresh


def without(cards: Sequence[Card], removed: Iterable[Card]) -> list[Card]:
    """``cards`` less one copy of each of ``removed``."""
    out = list(cards)
    for c in removed:
        out.remove(c)
    return out
