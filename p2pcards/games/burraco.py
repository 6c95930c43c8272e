"""Burraco for 4 players in two partnerships (side = seat % 2), 108 cards, two pozzetti.

Rule text: the Burraco part of ``italian-card-games.txt``. The text gives no 2- or 3-player
rules, so only 4 players are offered. Meld rules are in :mod:`.burraco_melds`, scoring in
:mod:`.burraco_scoring`, the plays of a turn and what its end demands in
:mod:`.burraco_turns`. Rules as implemented:

Deck and deal (one CHANCE batch)
    ``FRENCH_108``: two French decks and four jokers; a card's identity includes its copy. The
    first player of hand ``h`` is seat ``h % 4`` (the dealer is the seat before it). Deck
    positions ``0 .. 43`` are dealt one at a time in seat order from the first player: position
    ``i`` to seat ``(first + i) % 4``, seen by that seat only. Positions ``44 .. 54`` are the
    first pozzetto, ``55 .. 65`` the second, face down (nobody sees them). Position ``66`` is
    turned face up as the discard pile's first card. The stock is positions ``67 .. 107``
    (41 cards), drawn from the top (increasing positions). The text's cut is a physical ritual
    the shuffle replaces.

A turn (stages ``draw`` then ``play``; ``to_act`` stays the same seat)
    1. ``draw``: the top card of the stock (one CHANCE step, seen by the drawer only); or
       ``take``: the whole discard pile enters the hand (public cards, no chance step).
    2. Any number of ``meld`` (a new set or run from the hand) and ``add`` (cards from the hand
       added to one of the side's melds) actions, each one action.
    3. ``discard``: one card from the hand face up on the pile; the turn passes to the next
       seat. A card taken from a pile of exactly one card cannot be discarded in the same
       turn (the other copy of it can).

Pozzetto
    A player whose hand is emptied by a meld or addition takes the side's pozzetto at once (one
    CHANCE batch of its 11 positions, seen by that seat only) and goes on playing. A player who
    empties the hand by discarding takes it face down: its 11 positions are revealed to that
    seat at the start of its next turn (a CHANCE batch before it draws). The first side to take
    one takes the first pozzetto (positions 44..54); the other is left for the opponents. A side
    that has taken its pozzetto cannot empty a hand except by closing: a meld or addition must
    leave its player a legal discard (rule ``no-discard-left``).

Closing and the end of the hand
    A player closes by discarding the last card of the hand when the side has taken its
    pozzetto (by either partner) and has at least one burraco, and the card is not wild. The hand
    also ends after the turn in which the stock comes down to two cards, and after four
    consecutive turns (a stalemate) in each of which the player took a discard pile of exactly
    one card, made no meld or addition, and discarded. A pozzetto taken face down and never seen
    is turned face up when the hand ends (a CHANCE batch seen by all) and counts as its taker's
    hand.

Scoring (:mod:`.burraco_scoring`) and match
    Melds minus cards in hand, clean burraco 200, dirty 100, closing 100, pozzetto not taken
    -100. The match ends after the hand in which a side's total exceeds ``target`` (flag,
    default 2000) and one side has the higher total; equal totals play on.

Actions (wire forms in ``protocol/games/burraco.md``)
    ``draw``; ``take``; ``meld`` with ``cards`` = the new meld (a run from low to high as it
    lies, wild card in place); ``add`` with ``amount`` = the number of the side's meld (1 for
    the first laid, 2 for the next, ...; the screen shows them as ``#1``, ``#2``) and
    ``cards`` = the whole grown meld as it lies; ``discard`` with
    ``card``. :meth:`BurracoMatch.legal_actions` lists every draw, take and discard, every meld
    of exactly three cards and every addition of exactly one card, each with every legal
    arrangement of the wild card; :meth:`BurracoMatch.apply` also accepts a longer meld or an
    addition of several cards in one action. Every meld of any length is reached from the list
    by a three-card meld and single additions within one turn, and is the same position.
"""

from __future__ import annotations

import copy as _copy
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import FRENCH_108, Card, Deck, card, cards
from .base import (
    ALL_SEATS,
    Action,
    BadPlayerCount,
    BadSeat,
    CardUse,
    ChanceStep,
    GameError,
    GameSpec,
    HandResult,
    IllegalMove,
    MatchProgress,
    Phase,
    UnknownFlag,
    UnknownHand,
    VariantConfig,
    WrongPhase,
    Zone,
    flags_of,
)
from .burraco_melds import (
    Meld,
    MeldError,
    check_extension,
    hand_codes,
    read_meld,
    three_card_melds,
    with_code,
    without_codes,
)
from .burraco_plays import CARDS, ORDINAL, HandMelds, plays
from .burraco_scoring import SideTally, score_hand
from .burraco_turns import (
    TurnEnd,
    check_revealed,
    play_actions,
    take_from_hand,
)

__all__ = [
    "BurracoConfig",
    "BurracoMatch",
    "DISCARD_POSITION",
    "HAND_SIZE",
    "POZZETTO_POSITIONS",
    "SPEC",
    "SPECS",
    "STOCK_END",
    "STOCK_START",
]

PLAYERS = 4
HAND_SIZE = 11
POZZETTO_POSITIONS = (tuple(range(44, 55)), tuple(range(55, 66)))
"""Deck positions of the first and the second pozzetto taken."""
DISCARD_POSITION = 66
STOCK_START = 67
STOCK_END = 2
"""The hand ends after the turn in which the stock comes down to this many cards."""
STALEMATE_TURNS = 4
_DRAW = (Action("draw"),)
_DRAW_OR_TAKE = (Action("draw"), Action("take"))
"""The draw stage's actions, sorted (immutable, so made once)."""
_LAYS = frozenset(("meld", "add"))
"""The kinds of action that lay cards on the table."""
_DECK_SET = frozenset(FRENCH_108.cards)
_DECK_SIZE = len(FRENCH_108)
_PHASE_VALUES = {phase: phase.value for phase in Phase}
_DEALS: tuple[tuple[ChanceStep, ...], ...] = tuple(
    (*(ChanceStep(i, Zone.HAND, (first + i) % PLAYERS, frozenset({(first + i) % PLAYERS}))
       for i in range(HAND_SIZE * PLAYERS)),
     ChanceStep(DISCARD_POSITION, Zone.DISCARD, None, ALL_SEATS))
    for first in range(PLAYERS))
"""Per first player, the deal's chance steps (chance steps are immutable, so made once)."""
_DRAWS: tuple[tuple[tuple[ChanceStep, ...], ...], ...] = tuple(
    tuple((ChanceStep(position, Zone.HAND, seat, frozenset({seat})),) for seat in range(PLAYERS))
    for position in range(len(FRENCH_108)))
"""Per deck position and seat, the chance step of that seat drawing that position."""
_POZZETTI: tuple[tuple[tuple[ChanceStep, ...], ...], ...] = tuple(
    tuple(tuple(ChanceStep(p, Zone.HAND, seat, frozenset({seat})) for p in positions)
          for seat in range(PLAYERS))
    for positions in POZZETTO_POSITIONS)
"""Per pozzetto and seat, the chance steps of that seat taking it (seen by that seat only)."""


@dataclass(frozen=True)
class BurracoConfig(VariantConfig):
    """The variant of a Burraco match; validated on construction."""

    players: int
    target: int = field(
        default=2000,
        metadata={"doc": "the match ends when a side's total exceeds this many points (and "
                  "one side has the higher total)"},
    )

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or self.players != PLAYERS:
            raise BadPlayerCount(f"burraco is for 4 players, not {self.players!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or not (
                0 < self.target <= 100_000):
            raise UnknownFlag(f"flag 'target' of burraco takes a whole number from 1 to "
                              f"100000, not {self.target!r}")


class _Pending(enum.Enum):
    DEAL = "deal"
    DRAW = "draw"
    POZZETTO = "pozzetto"
    UNSEEN = "unseen"


def _as_card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else card(value)


class BurracoMatch(MatchProgress):
    """A Burraco match (implements :class:`~p2pcards.games.base.MatchState`).

    Hands are lists; a live view holds ``None`` for a card it cannot see. Melds are
    :class:`~p2pcards.games.burraco_melds.Meld` per side, in the order they were laid.
    """

    config: BurracoConfig

    def __init__(self, config: BurracoConfig) -> None:
        self._legal_memo: list[Action] | None = None
        self._hand_melds: dict[int, HandMelds] = {}
        """Per seat, its hand and the hand's three-card melds at its last play decision."""
        self._side_views: list[SideView | None] = [None, None]
        """Per side, its melds as codes and as text, ``None`` once its melds changed."""
        self._hand_views: list[list[str] | None] = [None] * PLAYERS
        """Per seat, :func:`hand_codes` of its hand, ``None`` once its hand changed."""
        if not isinstance(config, BurracoConfig):
            raise GameError(f"burraco needs a BurracoConfig, got {type(config).__name__}")
        self.config = config
        self._n = PLAYERS
        self._sides = 2
        self._deck = FRENCH_108
        self._deck_set = _DECK_SET
        self._phase = Phase.SHUFFLE
        self._hand_number = 0
        self._match_scores = [0, 0]
        self._winner: int | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        first = self._hand_number % self._n
        self._hands: list[list[Card | None]] = [[] for _ in range(self._n)]
        self._melds: list[list[Meld]] = [[], []]
        self._hand_views = [None] * PLAYERS
        self._side_views = [None, None]
        self._discard: list[Card] = []
        self._discard_codes: list[str] = []
        """The codes of ``_discard``, kept beside it (every observation shows them)."""
        self._stock_next = STOCK_START
        self._pozzetto_of: list[int | None] = [None, None]
        """Which pozzetto (0 or 1) each side took, ``None`` while not taken."""
        self._face_down: dict[int, int] = {}
        """seat -> pozzetto index taken by discarding and not yet seen."""
        self._stage = "draw"
        self._taken_single: Card | None = None
        self._melded = False
        self._took_single = False
        self._stalemate = 0
        self._closed_by: int | None = None
        self._end_reason = ""
        self._pending: tuple[ChanceStep, ...] = ()
        self._pending_kind: _Pending | None = None
        self._after_chance = Phase.ACTION
        self._seen: set[Card] = set()
        self._to_act = first

    # ------------------------------------------------------------------ read-only state

    @property
    def deck(self) -> Deck:
        """``FRENCH_108`` for every hand."""
        return self._deck

    @property
    def first_player(self) -> int:
        """The seat that plays first in the current hand: ``hand_number % 4``."""
        return self._hand_number % self._n

    @property
    def stage(self) -> str:
        """``draw`` (the seat to act must draw or take the pile) or ``play``."""
        return self._stage

    @property
    def stock_size(self) -> int:
        return _DECK_SIZE - self._stock_next

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """Bottom to top."""
        return tuple(self._discard)

    @property
    def end_reason(self) -> str:
        """``closing``, ``stock`` or ``stalemate`` once the hand is over; ``""`` before."""
        return self._end_reason

    def melds(self, side: int) -> tuple[Meld, ...]:
        """The side's melds in the order they were laid."""
        if side not in (0, 1):
            raise BadSeat(f"side {side!r} is not a side of a burraco table (0 or 1)")
        return tuple(self._melds[side])

    def side_of(self, seat: int) -> int:
        """Seat ``s`` plays for side ``s % 2``."""
        self._check_seat(seat)
        return seat % 2

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """Seat's hand in this view (``None`` for a card this view cannot see)."""
        self._check_seat(seat)
        return tuple(self._hands[seat])

    def pozzetto_taken(self, side: int) -> bool:
        """Whether the side has taken its pozzetto (seen or face down)."""
        return self._pozzetto_of[side] is not None

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise BadSeat(f"seat {seat!r} is not a seat of this 4-player burraco table")

    # ------------------------------------------------------------------ chance

    def begin_hand(self) -> None:
        """In SHUFFLE: a shuffled deck is ready; request the deal and the upcard."""
        self._legal_memo = None
        self._need(Phase.SHUFFLE, "begin_hand")
        self._reset_hand()
        self._request(_DEALS[self.first_player], _Pending.DEAL)

    def _request(self, steps: tuple[ChanceStep, ...], kind: _Pending,
                 after: Phase = Phase.ACTION) -> None:
        self._pending = steps
        self._pending_kind = kind
        self._after_chance = after
        self._phase = Phase.CHANCE

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """In CHANCE: the deal, a draw, a pozzetto, or an unseen pozzetto at the hand's end."""
        self._need(Phase.CHANCE, "pending_chance")
        return self._pending

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Fulfil :meth:`pending_chance`: one card per step, ``None`` where this view cannot see.

        Raises :class:`BadChance` (state unchanged) for a wrong count, a card not in the deck, a
        card already placed this hand, or a public card given as ``None``.
        """
        self._legal_memo = None
        if (self._pending_kind is _Pending.DRAW and type(revealed) is list
                and len(revealed) == 1 and self._phase is Phase.CHANCE
                and self._draw_card(revealed[0])):
            return
        self._need(Phase.CHANCE, "complete_chance")
        cards_in = list(revealed)
        steps = self._pending
        fresh = check_revealed(steps, cards_in, self._seen, self._deck_set)
        kind = self._pending_kind
        self._seen |= fresh
        self._pending = ()
        self._pending_kind = None
        for step, given in zip(steps, cards_in, strict=True):
            if step.zone is Zone.DISCARD:
                assert given is not None
                self._discard.append(given)
                self._discard_codes.append(given.code)
            else:
                assert step.seat is not None
                self._hands[step.seat].append(given)
                self._hand_views[step.seat] = None
        if kind is _Pending.DRAW:
            self._stock_next += 1
            self._stage = "play"
        elif kind is _Pending.UNSEEN:
            self._face_down.clear()
        self._phase = self._after_chance

    def _draw_card(self, given: Card | None) -> bool:
        """Complete the pending draw with ``given`` when it is a card of the deck not placed
        in this hand (what :func:`check_revealed` accepts, checked in fewer steps); ``False``
        (nothing changed) for anything else, which the general path checks."""
        if type(given) is not Card:
            return False
        o = ORDINAL.get(given.code)
        if o is None or CARDS[o] is not given or given in self._seen:
            return False
        seat = self._pending[0].seat
        assert seat is not None
        self._seen.add(given)
        self._pending = ()
        self._pending_kind = None
        self._hands[seat].append(given)
        view = self._hand_views[seat]
        if view is not None:
            self._hand_views[seat] = with_code(view, given.code)
        self._stock_next += 1
        self._stage = "play"
        self._phase = self._after_chance
        return True

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of ``to_act``; ``[]`` outside ACTION.

        Draw stage: ``draw`` and (pile not empty) ``take``. Play stage: every ``meld`` of
        exactly three cards, every ``add`` of exactly one card (each legal arrangement), every
        legal ``discard``. Raises :class:`UnknownHand` when the hand is not known in this view.

        The list is computed once per state change (every method that changes the state
        forgets it) and a copy is returned.
        """
        memo = self._legal_memo
        if memo is None:
            memo = self._legal_memo = self._list_legal_actions()
        return list(memo)

    def _list_legal_actions(self) -> list[Action]:
        """What :meth:`legal_actions` lists, computed afresh."""
        if self._phase is not Phase.ACTION:
            return []
        seat = self._to_act
        if self._stage == "draw":
            return list(_DRAW_OR_TAKE if self._discard else _DRAW)
        hand = self._hands[seat]
        known = [c for c in hand if c is not None]
        if len(known) != len(hand):
            raise UnknownHand(f"seat {seat}'s hand is not known in this view, so no legal "
                              "actions")
        listed = plays(known, self._melds[seat % 2], self._taken_single,
                       self._hand_melds.get(seat), self._pozzetto_of[seat % 2] is not None)
        if listed is not None:
            actions, self._hand_melds[seat] = listed
            return actions
        return play_actions(known, self._turn_end(seat), three_card_melds(known))

    def _turn_end(self, seat: int) -> TurnEnd:
        """What the end of ``seat``'s turn demands of the cards it keeps."""
        side = seat % 2
        return TurnEnd(seat, self._melds[side], self._pozzetto_of[side] is not None,
                       self._taken_single)

    def _rest_ok(self, seat: int, rest: list[Card], meld: Meld) -> bool:
        return self._turn_end(seat).rest_ok(rest, meld)

    def _discard_error(self, seat: int, c: Card, hand_size: int) -> IllegalMove | None:
        return self._turn_end(seat).discard_error(c, hand_size)

    # ------------------------------------------------------------------ actions

    def card_use(self, action: Action) -> CardUse:
        """``meld``: every card shown; ``add``: the cards not already in the meld, shown;
        ``discard``: the card shown; ``draw`` and ``take`` use no card of the hand."""
        if action.kind == "meld":
            return CardUse(shown=tuple(action.cards))
        if action.kind == "add":
            side = self._to_act % 2
            old: tuple[Card, ...] = ()
            if 1 <= action.amount <= len(self._melds[side]):
                old = self._melds[side][action.amount - 1].cards
            return CardUse(shown=tuple(c for c in action.cards if c not in old))
        if action.kind == "discard" and action.card is not None:
            return CardUse(shown=(action.card,))
        return CardUse()

    def apply(self, action: Action) -> None:
        """Apply ``to_act``'s action; raise :class:`IllegalMove` (state unchanged) otherwise.

        Rule ids are listed in ``protocol/games/burraco.md``.
        """
        listed = self._legal_memo
        self._legal_memo = None
        seat = self._to_act
        if listed and type(action) is Action and action.kind in _LAYS:
            for other in listed:  # one of the very actions listed for this state: legal
                if other is action:
                    self._lay_listed(seat, action)
                    return
        if self._phase is not Phase.ACTION:
            raise IllegalMove("wrong-phase", f"no action can be made in phase "
                              f"{self._phase.value}", seat)
        if not isinstance(action, Action):
            raise IllegalMove("malformed-action", f"an action must be an Action, not "
                              f"{action!r}", seat)
        kind = action.kind
        if kind not in ("draw", "take", "meld", "add", "discard"):
            raise IllegalMove("unknown-action", f"burraco has no action {kind!r} (draw, take, "
                              "meld, add, discard)", seat)
        if kind in ("draw", "take"):
            if action.card is not None or action.cards or action.value or action.amount:
                raise IllegalMove("malformed-action", f"{kind} names no card: {action}", seat)
            if self._stage != "draw":
                raise IllegalMove("already-drew", f"seat {seat} has already drawn this turn",
                                  seat)
            if kind == "draw":
                self._request(_DRAWS[self._stock_next][seat], _Pending.DRAW)
                return
            if not self._discard:
                raise IllegalMove("empty-discard-pile", "the discard pile is empty", seat)
            self._took_single = len(self._discard) == 1
            self._taken_single = self._discard[0] if self._took_single else None
            self._hands[seat].extend(self._discard)
            self._hand_views[seat] = None
            self._discard = []
            self._discard_codes = []
            self._stage = "play"
            return
        if self._stage != "play":
            raise IllegalMove("must-draw-first", f"seat {seat} must draw or take the discard "
                              "pile first", seat)
        if kind == "discard":
            self._apply_discard(seat, action)
        else:
            self._apply_meld(seat, action)

    def _take_from_hand(self, seat: int, cards: Sequence[Card]) -> list[Card | None]:
        """The hand without ``cards`` (checked: in the hand, or in an unknown slot). Cards that
        are the deck's own and in the hand are found by identity (a hand never holds two equal
        cards); anything else takes the general check."""
        hand = self._hands[seat]
        ids = list(map(id, hand))
        rest = hand[:]
        for c in cards:
            o = ORDINAL.get(c.code) if type(c) is Card else None
            if o is None or CARDS[o] is not c or id(c) not in ids:
                return take_from_hand(hand, seat, cards, seen=self._seen,
                                      deck_set=self._deck_set)
            i = ids.index(id(c))
            del ids[i]
            del rest[i]
        return rest

    def _without_card(self, seat: int, c: Card) -> list[Card | None]:
        """:meth:`_take_from_hand` of the one card ``c``: when ``c`` is the deck's own card and
        in the hand (found by identity: a hand never holds two equal cards), the hand without
        it with no further check."""
        hand = self._hands[seat]
        o = ORDINAL.get(c.code)
        if o is not None and CARDS[o] is c:
            try:
                i = list(map(id, hand)).index(id(c))
            except ValueError:
                pass
            else:
                rest = hand[:]
                del rest[i]
                return rest
        return self._take_from_hand(seat, (c,))

    def _apply_meld(self, seat: int, action: Action) -> None:
        side = seat % 2
        if action.card is not None or action.value:
            raise IllegalMove("malformed-action", f"a {action.kind} lists its cards in 'cards'"
                              f": {action}", seat)
        if len(set(action.cards)) != len(action.cards):
            raise IllegalMove("malformed-action", f"{action} names a card twice", seat)
        try:
            if action.kind == "meld":
                if action.amount:
                    raise IllegalMove("malformed-action", f"a new meld has no meld number: "
                                      f"{action}", seat)
                meld = read_meld(action.cards)
                from_hand: tuple[Card, ...] = meld.cards
                if meld.kind == "set" and any(m.kind == "set" and m.rank == meld.rank
                                              for m in self._melds[side]):
                    raise IllegalMove("one-set-per-rank", f"side {side} already has a set of "
                                      f"that rank: {meld}", seat)
                index = len(self._melds[side])
            else:
                index = action.amount - 1
                if not 0 <= index < len(self._melds[side]):
                    raise IllegalMove("no-such-meld", f"side {side} has no meld #"
                                      f"{action.amount}", seat)
                old = self._melds[side][index]
                meld = check_extension(old, action.cards)
                old_codes = old.codes
                from_hand = tuple([c for c in meld.cards if c.code not in old_codes])
                if len(from_hand) != len(meld.cards) - len(old_codes):
                    # a card whose code is not its identity (only a testing aid makes one)
                    from_hand = tuple(c for c in meld.cards if c not in old.cards)
        except MeldError as exc:
            raise IllegalMove(exc.rule, str(exc), seat) from None
        rest = self._take_from_hand(seat, from_hand)
        self._turn_end(seat).check_rest(rest, meld)
        self._lay(seat, meld, index, from_hand, rest)

    def _lay_listed(self, seat: int, action: Action) -> None:
        """Apply a ``meld`` or ``add`` that :meth:`legal_actions` listed for this very state
        (the same object), so legal: only its effect is worked out, as :meth:`_apply_meld`
        works it out."""
        melds = self._melds[seat % 2]
        meld = read_meld(action.cards)
        if action.kind == "meld":
            index = len(melds)
            from_hand: tuple[Card, ...] = meld.cards
        else:
            index = action.amount - 1
            old = melds[index]
            old_codes = old.codes
            from_hand = tuple([c for c in meld.cards if c.code not in old_codes])
            if len(from_hand) != len(meld.cards) - len(old_codes):
                from_hand = tuple(c for c in meld.cards if c not in old.cards)
        self._lay(seat, meld, index, from_hand, self._take_from_hand(seat, from_hand))

    def _lay(self, seat: int, meld: Meld, index: int, from_hand: tuple[Card, ...],
             rest: list[Card | None]) -> None:
        """``seat`` lays ``meld`` as its side's meld number ``index + 1`` (new, or grown) with
        ``from_hand`` from its hand, keeping ``rest``; an emptied hand takes the pozzetto."""
        side = seat % 2
        self._hands[seat] = rest
        view = self._hand_views[seat]
        if view is not None:
            self._hand_views[seat] = without_codes(view, [c.code for c in from_hand])
        self._seen.update(from_hand)
        if index == len(self._melds[side]):
            self._melds[side].append(meld)
        else:
            self._melds[side][index] = meld
        self._side_views[side] = None
        self._melded = True
        if not rest:
            self._take_pozzetto(seat, face_down=False)

    def _take_pozzetto(self, seat: int, *, face_down: bool) -> None:
        side = seat % 2
        index = 0 if self._pozzetto_of[1 - side] is None else 1
        self._pozzetto_of[side] = index
        if face_down:
            self._face_down[seat] = index
            return
        self._request(_POZZETTI[index][seat], _Pending.POZZETTO)

    def _apply_discard(self, seat: int, action: Action) -> None:
        c = action.card
        if action.cards or action.value or action.amount:
            raise IllegalMove("malformed-action", f"a discard names one card: {action}", seat)
        if c is None:
            raise IllegalMove("card-hidden", f"seat {seat} must show the card it discards",
                              seat)
        rest = self._without_card(seat, c)
        if self._taken_single is not None or not rest:
            error = self._discard_error(seat, c, len(rest) + 1)
            if error is not None:
                raise error
        side = seat % 2
        self._hands[seat] = rest
        view = self._hand_views[seat]
        if view is not None:
            self._hand_views[seat] = without_codes(view, (c.code,))
        self._seen.add(c)
        self._discard.append(c)
        self._discard_codes.append(c.code)
        if not rest:
            if self._pozzetto_of[side] is None:
                self._take_pozzetto(seat, face_down=True)
            else:
                self._closed_by = side
        stalemate_turn = self._took_single and not self._melded
        self._stalemate = self._stalemate + 1 if stalemate_turn else 0
        self._taken_single = None
        self._took_single = False
        self._melded = False
        if self._closed_by is not None:
            self._end_hand("closing")
        elif _DECK_SIZE - self._stock_next <= STOCK_END:
            self._end_hand("stock")
        elif self._stalemate >= STALEMATE_TURNS:
            self._end_hand("stalemate")
        else:
            self._next_turn((seat + 1) % self._n)

    def _next_turn(self, seat: int) -> None:
        self._to_act = seat
        self._stage = "draw"
        self._phase = Phase.ACTION
        index = self._face_down.pop(seat, None)
        if index is not None:
            self._request(_POZZETTI[index][seat], _Pending.POZZETTO)

    def _end_hand(self, reason: str) -> None:
        self._end_reason = reason
        self._phase = Phase.HAND_OVER
        if self._face_down:
            steps = []
            for seat, index in sorted(self._face_down.items()):
                steps += [ChanceStep(p, Zone.HAND, seat, ALL_SEATS)
                          for p in POZZETTO_POSITIONS[index]]
            self._request(tuple(steps), _Pending.UNSEEN, after=Phase.HAND_OVER)

    # ------------------------------------------------------------------ scoring

    def hand_result(self) -> HandResult:
        """In HAND_OVER: the lines of :func:`~.burraco_scoring.score_hand`.

        Raises :class:`UnknownHand` in a live view that cannot see every hand (the table
        scores from the full replay)."""
        self._need(Phase.HAND_OVER, "hand_result")
        tallies = []
        for side in (0, 1):
            held: list[Card] = []
            for seat in (side, side + 2):
                if any(c is None for c in self._hands[seat]):
                    raise UnknownHand(f"seat {seat}'s hand is not known in this view, so the "
                                      "hand cannot be scored")
                held += [c for c in self._hands[seat] if c is not None]
            tallies.append(SideTally(tuple(self._melds[side]), tuple(held),
                                     self._closed_by == side, self._pozzetto_of[side] is not None))
        return score_hand(tallies)

    def next_hand(self) -> None:
        """In HAND_OVER: add the hand's points; then SHUFFLE, or MATCH_OVER with a winner."""
        self._legal_memo = None
        result = self.hand_result()
        for side, pts in enumerate(result.points):
            self._match_scores[side] += pts
        a, b = self._match_scores
        if max(a, b) > self.config.target and a != b:
            self._winner = 0 if a > b else 1
            self._phase = Phase.MATCH_OVER
            return
        self._hand_number += 1
        self._reset_hand()
        self._phase = Phase.SHUFFLE

    @property
    def match_scores(self) -> tuple[int, ...]:
        """Each side's total over the hands played."""
        return tuple(self._match_scores)

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees, as plain data (card codes as text).

        Keys: ``game``, ``seat``, ``side``, ``players``, ``phase``, ``hand_number``,
        ``first_player``, ``to_act`` (``None`` outside ACTION), ``stage``, ``hand`` (own known
        cards sorted by suit and rank), ``hand_sizes``, ``melds`` (per side, each meld a list of
        codes as it lies), ``our_melds`` and ``their_melds`` (the same as numbered text),
        ``discard_pile`` (bottom to top), ``stock_size``, ``pozzetti`` (left in the middle),
        ``pozzetto_taken`` (per side), ``face_down_pozzetto`` (seats holding one unseen),
        ``cannot_discard`` (the card taken alone from the pile this turn, or ``None``),
        ``stalemate_turns``, ``end_reason``, ``target``, ``match_scores``, ``winner``.
        """
        if type(seat) is not int or not 0 <= seat < PLAYERS:
            self._check_seat(seat)
        side = seat % 2
        views = self._side_views
        ours = views[side] or self._side_view(side)
        theirs = views[1 - side] or self._side_view(1 - side)
        first, second = (ours, theirs) if side == 0 else (theirs, ours)
        hand = self._hand_views[seat]
        if hand is None:
            hand = self._hand_views[seat] = hand_codes(self._hands[seat])
        phase = self._phase
        pozzetto_of = self._pozzetto_of
        taken_single = self._taken_single
        number = self._hand_number
        return {
            "game": "burraco", "seat": seat, "side": side, "players": PLAYERS,
            "phase": _PHASE_VALUES[phase], "hand_number": number,
            "first_player": number % PLAYERS,
            "to_act": self._to_act if phase is Phase.ACTION else None, "stage": self._stage,
            "hand": hand[:], "hand_sizes": list(map(len, self._hands)),
            "melds": [[*map(list, first[0])], [*map(list, second[0])]],
            "our_melds": ours[1], "their_melds": theirs[1],
            "discard_pile": self._discard_codes[:], "stock_size": _DECK_SIZE - self._stock_next,
            "pozzetti": pozzetto_of.count(None),
            "pozzetto_taken": [pozzetto_of[0] is not None, pozzetto_of[1] is not None],
            "face_down_pozzetto": sorted(self._face_down) if self._face_down else [],
            "cannot_discard": taken_single.code if taken_single else None,
            "stalemate_turns": self._stalemate, "end_reason": self._end_reason,
            "target": self.config.target, "match_scores": self._match_scores[:],
            "winner": self._winner,
        }

    def _side_view(self, side: int) -> SideView:
        """The side's melds as codes and as :func:`meld_text`, kept until the melds change
        (every observation shows both sides'; every change of a side's melds forgets it)."""
        melds = self._melds[side]
        view = self._side_views[side] = (tuple([m.codes for m in melds]), meld_text(melds))
        return view

    def copy(self) -> BurracoMatch:
        """An independent copy (melds are immutable and shared)."""
        other = _copy.copy(self)
        other._hands = [list(h) for h in self._hands]
        other._melds = [list(ms) for ms in self._melds]
        other._discard = list(self._discard)
        other._discard_codes = list(self._discard_codes)
        other._pozzetto_of = list(self._pozzetto_of)
        other._face_down = dict(self._face_down)
        other._seen = set(self._seen)
        other._match_scores = list(self._match_scores)
        other._hand_melds = dict(self._hand_melds)
        other._side_views = list(self._side_views)
        other._hand_views = list(self._hand_views)
        return other

    def _need(self, phase: Phase, method: str) -> None:
        if self._phase is not phase:
            raise WrongPhase(f"{method} needs phase {phase.value}, but the match is in "
                             f"{self._phase.value}")

    # ------------------------------------------------------------------ testing aid

    @classmethod
    def from_position(
        cls,
        config: BurracoConfig,
        hands: Sequence[Iterable[Card | str]],
        *,
        melds: Sequence[Sequence[Sequence[Card | str] | str]] = ((), ()),
        discard: Iterable[Card | str] = (),
        stock_size: int = 41,
        pozzetti_taken: Sequence[bool] = (False, False),
        face_down: Iterable[int] = (),
        to_act: int = 0,
        stage: str = "play",
        taken_single: Card | str | None = None,
        hand_number: int = 0,
        match_scores: Sequence[int] | None = None,
    ) -> BurracoMatch:
        """A testing aid: a match in ACTION in the middle of hand ``hand_number``.

        ``hands`` per seat (all known), ``melds`` per side (each as it lies, cards or one text
        of codes; validated),
        ``discard`` bottom to top, ``stock_size`` cards left (drawn from the positions just
        before the deck's end), ``pozzetti_taken`` per side (the first side listed takes the
        first pozzetto), ``face_down`` seats holding their side's pozzetto unseen,
        ``taken_single`` the card ``to_act`` took alone from the pile this turn. Cards placed
        nowhere are out of play unless drawn. Raises :class:`GameError` naming an
        inconsistency.
        """
        state = cls(config)
        state._hand_number = hand_number
        state._reset_hand()
        if match_scores is not None:
            state._match_scores = list(match_scores)
        if len(hands) != 4:
            raise GameError(f"from_position needs 4 hands, got {len(hands)}")
        state._hands = [[_as_card(c) for c in h] for h in hands]
        for side in (0, 1):
            for raw in melds[side]:
                try:
                    seq = cards(raw) if isinstance(raw, str) else [_as_card(c) for c in raw]
                    state._melds[side].append(read_meld(seq))
                except MeldError as exc:
                    raise GameError(f"from_position meld of side {side}: {exc}") from None
        state._discard = [_as_card(c) for c in discard]
        state._discard_codes = [c.code for c in state._discard]
        if not 2 <= stock_size <= 41:
            raise GameError(f"a stock of {stock_size} cards cannot be in play")
        state._stock_next = len(state._deck) - stock_size
        taken_sides = [s for s in (0, 1) if pozzetti_taken[s]]
        for i, s in enumerate(taken_sides):
            state._pozzetto_of[s] = i
        for seat in face_down:
            index = state._pozzetto_of[seat % 2]
            if index is None:
                raise GameError(f"seat {seat} cannot hold a pozzetto its side did not take")
            state._face_down[seat] = index
        placed = [c for h in state._hands for c in h if c is not None] + state._discard
        placed += [c for ms in state._melds for m in ms for c in m.cards]
        if len(set(placed)) != len(placed):
            raise GameError("from_position places some card twice")
        state._seen = set(placed)
        if stage not in ("draw", "play"):
            raise GameError(f"stage is draw or play, not {stage!r}")
        state._stage = stage
        state._to_act = to_act
        if taken_single is not None:
            state._taken_single = _as_card(taken_single)
            state._took_single = True
        state._phase = Phase.ACTION
        state._hand_views = [None] * PLAYERS
        state._side_views = [None, None]
        return state


SideView = tuple[tuple[tuple[str, ...], ...], str]
"""A side's melds as codes (each as it lies) and as :func:`meld_text`."""


def meld_text(melds: Sequence[Meld]) -> str:
    """A side's melds as the screen shows them: ``#1 ...   #2 ... (clean burraco)``."""
    if not melds:
        return "—"
    return "   ".join([f"#{i} {m.shown}" for i, m in enumerate(melds, 1)])


SPEC = GameSpec(
    name="burraco",
    title="Burraco: sets and runs with wild cards, pozzetti, burraco bonuses, to 2000",
    rules_source="italian-card-games.txt",
    player_counts=(PLAYERS,),
    config_class=BurracoConfig,
    presets={
        "classic": {"target": 2000},
        "quick": {"target": 300},
    },
    preset_docs={
        "classic": "italian-card-games.txt: 4 players in partnerships, match to 2000 points",
        "quick": "the same rules, match to 300 points (about one hand)",
    },
    factory=BurracoMatch,
    flags=flags_of(BurracoConfig),
    default_preset="classic",
    legend="suits: H hearts, D diamonds, C clubs, S spades; A ace, T ten, J jack, Q queen, "
    "K king; X1-X4 jokers; the last digit is the copy (1 or 2); jokers and 2s are wild",
    screen=(
        ("our_melds", "our melds"),
        ("their_melds", "their melds"),
        ("discard_pile", "discard pile"),
        ("stock_size", "stock"),
        ("pozzetti", "pozzetti left"),
        ("hand_sizes", "cards in hand"),
        ("cannot_discard", "cannot discard"),
        ("match_scores", "match"),
    ),
)

SPECS = (SPEC,)
