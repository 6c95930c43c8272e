"""Briscola for 2, 3 or 4 players (4 = two partnerships, side = seat % 2).

Rule texts: ``briscola.txt`` (preset ``classic``) and the Briscola part of
``italian-card-games.txt`` (preset ``italian``). Rules as implemented:

Deck
    The 40-card Italian deck for 2 and 4 players. With 3 players one 2 is removed and 39 cards
    are used: the 2 of Bastoni by default (briscola.txt); flag ``removed_two`` picks ``2B``, ``2D``,
    ``2C`` or ``2S`` ("one of the 2s, announced", italian-card-games.txt). The flag is part of the
    config, hence of the signed genesis; it has no effect with 2 or 4 players.

Seats and dealer
    Seats play in order 0, 1, 2, ... The first player of hand ``h`` (0-based) is seat
    ``h % players``; the dealer is the seat before it. (The texts' counter-clockwise direction only
    maps to this numbering.)

Deal (one CHANCE phase)
    Deck positions ``0 .. 3*players-1`` are dealt one at a time in seat order starting with the
    first player: position ``i`` goes face down to seat ``(first + i) % players``. Then the *last*
    deck position (``len(deck) - 1``, the bottom card as in briscola.txt) is turned face up for
    everyone (``Zone.TRUMP``): it fixes the trump suit (*briscola*). The stock is the rest,
    positions ``3*players .. len(deck) - 2``, drawn from the top (increasing positions).
    italian-card-games.txt turns up "the next card" and puts it under the stock instead: for
    a shuffled deck the two are the same thing, one position seen by all and taken last.

Play
    The leader plays any card, then each other seat in order plays any card: there is no
    obligation to follow suit. The highest trump wins the trick; if no trump was played, the
    highest card of the suit led wins; other cards never win. Rank order, high to low:
    A, 3, K, Q, J, 7, 6, 5, 4, 2. The winner takes the cards (partners share one pile) and leads
    the next trick.

Drawing (one CHANCE phase after each trick while the stock lasts)
    Every seat draws one card, the trick winner first, then in seat order. Each draw takes the
    next stock position (zone HAND, visible to the drawer only). The very last card to be drawn
    is the face-up trump card: it was revealed to all at the deal, so it gets **no** chance step;
    the engine moves it into the hand of the last seat to draw in the final round. Thus every deck
    position is revealed exactly once per hand. The stock always runs out at the end of a full
    round (40 - 6 = 34 = 17 x 2, 39 - 9 = 30 = 10 x 3, 40 - 12 = 28 = 7 x 4 cards). Then the last
    tricks are played from the hands.

Partners' look (flag ``partners_look``, 4 players only)
    italian-card-games.txt: when the stock runs out, partners look at each other's last three
    cards. Modelled as one CHANCE phase right after the final draw, before the next trick: one
    ``Zone.SHOW`` step per card of every hand, seat by seat (0..3), ``position`` = index in that
    seat's hand, ``seat`` = its owner, ``visible_to`` = {partner}. Off in ``classic``, on in
    ``italian``; ignored with 2 or 3 players.

Scoring
    Card points: A 11, 3 10, K 4, Q 3, J 2, others 0; 120 in every deck (a removed 2 is worth 0).
    With two sides, more than 60 wins the hand and 60-60 is a drawn hand. With 3 players the sole
    highest total wins the hand; a tie for the highest total is a drawn hand (nobody wins it).

Match (flag ``match``)
    ``first_to_3`` (briscola.txt): the first side to win 3 hands wins; drawn hands count for
    nobody. ``two_hands`` (italian-card-games.txt): card points are summed over the regular hands,
    two for 2 and 4 players, three for 3 players (each seat deals once); the highest total wins.
    On a tie for the highest total, tie-breaker hands are played, one at a time, until one of the
    tied sides scores more card points than the other tied sides in one of them; that side gets
    1 match point (its total is then the unique highest) and wins. Other sides play the
    tie-breaker but cannot win it.

Score breakdown (:meth:`BriscolaMatch.hand_result`)
    ``card points``: values = card points per side. ``hand won``: values = 1 for the winner of the
    hand (none on a draw). In ``first_to_3`` the hand points are the ``hand won`` values; in
    ``two_hands`` regular hands they are the card points; in a tie-breaker hand a third line
    ``tie-breaker`` (values = card points of the tied sides, ``None`` for the others) gives the
    single match point.

Actions
    Only ``Action("play", card)``, wire ``{"kind": "play", "card": "AD"}``. Every card in hand is
    legal. A card played from a hidden slot of a live view must be revealed by the caller; the live
    view checks that the card is not known to be anywhere else (played, the face-up trump still
    under the stock, another known hand) and removes one hidden slot. The full-information replay
    checks that the card really was in that hand.
"""

from __future__ import annotations

import copy as _copy
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import ITALIAN_40, Card, Deck, card, italian_39
from .base import (
    ALL_SEATS,
    Action,
    BadChance,
    BadPlayerCount,
    BadSeat,
    ChanceStep,
    GameError,
    GameSpec,
    HandResult,
    IllegalMove,
    MatchProgress,
    Phase,
    ScoreLine,
    UnknownFlag,
    UnknownHand,
    VariantConfig,
    WrongPhase,
    Zone,
    flags_of,
)
from .tricks import (
    BRISCOLA_ORDER,
    BRISCOLA_POINTS,
    PlayActions,
    action_card_order,
    all_known,
    card_points,
    index_in_hand,
    trick_winner,
)

__all__ = [
    "BadChance",
    "BadSeat",
    "BriscolaConfig",
    "BriscolaMatch",
    "HANDS_TO_WIN",
    "HAND_SIZE",
    "MATCH_FORMATS",
    "REMOVABLE_TWOS",
    "SPECS",
    "UnknownHand",
    "WrongPhase",
    "briscola_deck",
]

PLAYER_COUNTS = (2, 3, 4)
MATCH_FORMATS = ("first_to_3", "two_hands")
REMOVABLE_TWOS = ("2B", "2D", "2C", "2S")
HANDS_TO_WIN = 3
"""Hands a side must win to take a ``first_to_3`` match."""
HAND_SIZE = 3
"""Cards in each hand after the deal and after every draw."""


@dataclass(frozen=True)
class BriscolaConfig(VariantConfig):
    """The variant of a Briscola match; validated on construction."""

    players: int
    removed_two: str = field(
        default="2B",
        metadata={
            "doc": "with 3 players, the 2 taken out of the deck (39 cards); no effect otherwise",
            "choices": REMOVABLE_TWOS,
        },
    )
    match: str = field(
        default="first_to_3",
        metadata={
            "doc": "first_to_3: first to win 3 hands; two_hands: most card points over 2 hands "
            "(3 hands with 3 players), tie-breaker hands on a tie",
            "choices": MATCH_FORMATS,
        },
    )
    partners_look: bool = field(
        default=False,
        metadata={
            "doc": "with 4 players, partners see each other's last three cards when the stock "
            "runs out",
        },
    )

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or self.players not in PLAYER_COUNTS:
            raise BadPlayerCount(f"briscola is for 2, 3 or 4 players, not {self.players!r}")
        if self.removed_two not in REMOVABLE_TWOS:
            raise UnknownFlag(
                f"flag 'removed_two' of briscola takes one of {', '.join(REMOVABLE_TWOS)}, "
                f"not {self.removed_two!r}"
            )
        if self.match not in MATCH_FORMATS:
            raise UnknownFlag(
                f"flag 'match' of briscola takes one of {', '.join(MATCH_FORMATS)}, "
                f"not {self.match!r}"
            )
        if not isinstance(self.partners_look, bool):
            raise UnknownFlag(
                f"flag 'partners_look' of briscola takes a bool, not {self.partners_look!r}"
            )


def briscola_deck(config: BriscolaConfig) -> Deck:
    """The deck of every hand: 40 cards, or 39 without ``config.removed_two`` for 3 players."""
    return italian_39(config.removed_two) if config.players == 3 else ITALIAN_40


_PLAY = PlayActions()
_STEPS: dict[tuple[int, ...], tuple[ChanceStep, ...]] = {}
"""Chance steps already made, by what decides them (see :func:`_steps`): they are immutable, and
every hand asks for the same few deals and draws."""


def _hand_steps(key: tuple[int, ...]) -> tuple[ChanceStep, ...]:
    """The deal or draw steps ``key`` stands for, made once: ``(0, players, first, size)`` for
    the deal (hands from ``first`` on, then the face-up trump at the last position);
    ``(1, next_pos, face_down, trump_position, *seats)`` for a round of draws."""
    steps = _STEPS.get(key)
    if steps is None:
        steps = _STEPS[key] = _deal_steps(*key[1:]) if key[0] == 0 else _draw_steps(
            key[1], key[2], key[3], key[4:])
    return steps


def _deal_steps(n: int, first: int, size: int) -> tuple[ChanceStep, ...]:
    steps = [
        ChanceStep(i, Zone.HAND, (first + i) % n, frozenset({(first + i) % n}))
        for i in range(HAND_SIZE * n)
    ]
    steps.append(ChanceStep(size - 1, Zone.TRUMP, None, ALL_SEATS))
    return tuple(steps)


def _draw_steps(next_pos: int, face_down: int, trump_position: int,
                order: tuple[int, ...]) -> tuple[ChanceStep, ...]:
    steps = [
        ChanceStep(next_pos + k, Zone.HAND, seat, frozenset({seat}))
        for k, seat in enumerate(order[:face_down])
    ]
    if len(order) > face_down:
        # the last draw takes the face-up trump: a public card, already revealed to all
        steps.append(ChanceStep(trump_position, Zone.HAND, order[-1], ALL_SEATS))
    return tuple(steps)


def _where(step: ChanceStep) -> str:
    """Where a chance step puts its card, for an error message."""
    if step.zone is Zone.SHOW:
        return f"hand index {step.position} of seat {step.seat}"
    return f"deck position {step.position}"


class _Pending(enum.Enum):
    DEAL = "deal"
    DRAW = "draw"
    SHOW = "show"


def _as_card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else card(value)


class BriscolaMatch(MatchProgress):
    """A Briscola match (implements :class:`~p2pcards.games.base.MatchState`).

    Hands are lists in the order cards were received, which is increasing deck position (the
    trump card, at the last position, is always received last); a live view holds ``None`` for a
    card it cannot see. See the module docstring for the rules.
    """

    config: BriscolaConfig

    def __init__(self, config: BriscolaConfig) -> None:
        if not isinstance(config, BriscolaConfig):
            raise GameError(f"briscola needs a BriscolaConfig, got {type(config).__name__}")
        self.config = config
        self._n = config.players
        self._sides = 2 if self._n == 4 else self._n
        self._deck = briscola_deck(config)
        self._deck_set = frozenset(self._deck.cards)
        self._trump_position = len(self._deck) - 1
        self._look = config.partners_look and self._n == 4
        self._regular_hands = 3 if self._n == 3 else 2
        self._phase = Phase.SHUFFLE
        self._hand_number = 0
        self._match_scores = [0] * self._sides
        self._hands_won = [0] * self._sides
        self._winner: int | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        first = self._hand_number % self._n
        self._hands: list[list[Card | None]] = [[] for _ in range(self._n)]
        self._trump_card: Card | None = None
        self._trump_taken_by: int | None = None
        self._stock_left = 0
        self._next_pos = 0
        self._trick: list[tuple[int, Card]] = []
        self._last_trick: tuple[tuple[tuple[int, Card], ...], int] | None = None
        self._captured: list[list[Card]] = [[] for _ in range(self._sides)]
        self._points = [0] * self._sides
        """Card points of each side's pile, added up as tricks are taken."""
        self._pending: tuple[ChanceStep, ...] = ()
        self._pending_kind: _Pending | None = None
        self._draw_order: tuple[int, ...] = ()
        self._looked = False
        self._seen: set[Card] = set()
        self._leader = first
        self._to_act = first

    # ------------------------------------------------------------------ read-only state



    @property
    def deck(self) -> Deck:
        """The deck of every hand of this match, in canonical order."""
        return self._deck



    @property
    def first_player(self) -> int:
        """The seat that leads the first trick of the current hand: ``hand_number % players``."""
        return self._hand_number % self._n

    @property
    def trump_card(self) -> Card | None:
        """The face-up card fixing the trump suit (``None`` before the deal)."""
        return self._trump_card

    @property
    def trump_taken_by(self) -> int | None:
        """The seat that drew the face-up trump card, once the stock is exhausted."""
        return self._trump_taken_by

    @property
    def stock_size(self) -> int:
        """Face-down cards left in the stock (the face-up trump card not included)."""
        return self._stock_left

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)`` pairs in playing order."""
        return tuple(self._trick)

    @property
    def partners_looked(self) -> bool:
        """Whether the partners' look of this hand has happened."""
        return self._looked

    def side_of(self, seat: int) -> int:
        """Seat ``s`` plays for side ``s % 2`` with 4 players, for itself otherwise."""
        self._check_seat(seat)
        return seat % 2 if self._n == 4 else seat

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """Seat's hand in this view (``None`` for a card this view cannot see)."""
        self._check_seat(seat)
        return tuple(self._hands[seat])

    def hand_known(self, seat: int) -> bool:
        """Whether every card of seat's hand is known in this view."""
        self._check_seat(seat)
        return None not in self._hands[seat]

    def captured(self, side: int) -> tuple[Card, ...]:
        """The cards side has won in this hand."""
        if not 0 <= side < self._sides:
            raise BadSeat(f"side {side!r} is not a side of this {self._sides}-side briscola match")
        return tuple(self._captured[side])

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise BadSeat(f"seat {seat!r} is not a seat of this {self._n}-player briscola table")

    # ------------------------------------------------------------------ chance

    def begin_hand(self) -> None:
        """In SHUFFLE: a shuffled deck is ready; request the deal and the trump card."""
        self._need(Phase.SHUFFLE, "begin_hand")
        self._reset_hand()
        n, first = self._n, self._hand_number % self._n
        self._pending = _hand_steps((0, n, first, len(self._deck)))
        self._pending_kind = _Pending.DEAL
        self._next_pos = HAND_SIZE * n
        self._stock_left = len(self._deck) - HAND_SIZE * n - 1
        self._phase = Phase.CHANCE

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """In CHANCE: the deal (hands then trump), a round of draws, or the partners' look."""
        self._need(Phase.CHANCE, "pending_chance")
        return self._pending

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Fulfil :meth:`pending_chance`: one card per step, ``None`` where this view cannot see.

        Raises :class:`BadChance` (state unchanged) for a wrong count, a card not in the deck, a
        card already placed this hand, a hidden public card, or a shown card that contradicts the
        hand.
        """
        self._need(Phase.CHANCE, "complete_chance")
        cards_in = list(revealed)
        steps = self._pending
        if len(cards_in) != len(steps):
            raise BadChance(f"{len(cards_in)} cards given for {len(steps)} pending chance steps")
        fresh: set[Card] = set()
        for step, given in zip(steps, cards_in, strict=True):
            if given is None:
                if step.visible_to == ALL_SEATS:
                    raise BadChance(
                        f"the public card at {_where(step)} must be revealed, not None"
                    )
                continue
            if not isinstance(given, Card) or given not in self._deck_set:
                raise BadChance(
                    f"{given!r} at {_where(step)} is not a card of the {self._deck.name} deck"
                )
            if step.zone is Zone.SHOW:
                assert step.seat is not None
                slot = self._hands[step.seat][step.position]
                if slot is not None:
                    if slot != given:
                        raise BadChance(
                            f"{given.code} shown at {_where(step)} contradicts {slot.code} held "
                            "there"
                        )
                    continue
            if step.zone is Zone.HAND and step.position == self._trump_position:
                if given != self._trump_card:
                    raise BadChance(
                        f"{given.code} drawn at {_where(step)} is not the face-up trump card"
                    )
                continue
            if given in self._seen or given in fresh:
                raise BadChance(f"{given.code} at {_where(step)} was already placed this hand")
            fresh.add(given)
        self._seen |= fresh
        kind = self._pending_kind
        self._pending = ()
        self._pending_kind = None
        if kind is _Pending.DEAL:
            for step, given in zip(steps, cards_in, strict=True):
                if step.zone is Zone.TRUMP:
                    self._trump_card = given
                else:
                    assert step.seat is not None
                    self._hands[step.seat].append(given)
            self._start_trick()
        elif kind is _Pending.DRAW:
            face_down = 0
            for step, given in zip(steps, cards_in, strict=True):
                assert step.seat is not None
                if step.position == self._trump_position:
                    self._hands[step.seat].append(self._trump_card)
                    self._trump_taken_by = step.seat
                else:
                    self._hands[step.seat].append(given)
                    face_down += 1
            self._next_pos += face_down
            self._stock_left -= face_down
            self._draw_order = ()
            if self._trump_taken_by is not None and self._look:
                self._request_look()
            else:
                self._start_trick()
        else:
            for step, given in zip(steps, cards_in, strict=True):
                assert step.seat is not None
                if given is not None:
                    self._hands[step.seat][step.position] = given
            self._looked = True
            self._start_trick()

    def _request_look(self) -> None:
        self._pending = tuple(
            ChanceStep(index, Zone.SHOW, seat, frozenset({(seat + 2) % 4}))
            for seat in range(self._n)
            for index in range(len(self._hands[seat]))
        )
        self._pending_kind = _Pending.SHOW
        self._phase = Phase.CHANCE

    def _request_draws(self) -> None:
        order = tuple((self._leader + k) % self._n for k in range(self._n))
        face_down = min(self._stock_left, self._n)
        trump_left = 1 if self._trump_taken_by is None else 0
        order = order[: face_down + trump_left]
        self._draw_order = order
        self._pending = _hand_steps((1, self._next_pos, face_down, self._trump_position, *order))
        self._pending_kind = _Pending.DRAW
        self._phase = Phase.CHANCE

    def _start_trick(self) -> None:
        self._phase = Phase.ACTION
        self._to_act = self._leader

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Every card of ``to_act``'s hand, sorted; ``[]`` outside ACTION.

        Raises :class:`UnknownHand` when that hand is not fully known in this view.
        """
        if self._phase is not Phase.ACTION:
            return []
        hand = self._hands[self._to_act]
        if not all_known(hand):
            raise UnknownHand(
                f"seat {self._to_act}'s hand is not known in this view, so no legal actions"
            )
        return list(map(_PLAY, sorted(hand, key=action_card_order)))  # type: ignore[arg-type]

    def apply(self, action: Action) -> None:
        """Play ``to_act``'s card; raise :class:`IllegalMove` (state unchanged) otherwise.

        Rules: ``wrong-phase``, ``malformed-action``, ``unknown-action``, ``card-hidden``,
        ``card-not-in-deck``, ``card-not-in-hand``.
        """
        seat = self._to_act
        if self._phase is not Phase.ACTION:
            raise IllegalMove(
                "wrong-phase", f"no card can be played in phase {self._phase.value}", seat
            )
        if not isinstance(action, Action):
            raise IllegalMove(
                "malformed-action", f"an action must be an Action, not {action!r}", seat
            )
        if action.kind != "play":
            raise IllegalMove(
                "unknown-action", f"briscola has only 'play' actions, not {action.kind!r}", seat
            )
        if action.cards or action.value or action.amount:
            raise IllegalMove(
                "malformed-action", f"a briscola play names one card only, not {action}", seat
            )
        played = action.card
        if played is None:
            raise IllegalMove(
                "card-hidden", f"seat {seat} must reveal the card it plays in briscola", seat
            )
        hand = self._hands[seat]
        at = index_in_hand(hand, played)  # a card found in the hand is a card of the deck
        if at < 0 and played not in self._deck_set:
            raise IllegalMove(
                "card-not-in-deck", f"{played.code} is not in the {self._deck.name} deck", seat
            )
        if at >= 0:
            del hand[at]
        elif None in hand and played not in self._seen:
            hand.remove(None)
            self._seen.add(played)
        elif played in self._seen:
            raise IllegalMove(
                "card-not-in-hand",
                f"seat {seat} cannot play {played.code}: that card is known to be elsewhere",
                seat,
            )
        else:
            raise IllegalMove(
                "card-not-in-hand",
                f"seat {seat} cannot play {played.code}: it is not in that seat's hand",
                seat,
            )
        self._trick.append((seat, played))
        if len(self._trick) < self._n:
            self._to_act = (seat + 1) % self._n
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        assert self._trump_card is not None
        played = [c for _, c in self._trick]
        winner = self._trick[trick_winner(played, BRISCOLA_ORDER, self._trump_card.suit)][0]
        side = winner % 2 if self._n == 4 else winner
        self._captured[side] += played
        self._points[side] += card_points(played, BRISCOLA_POINTS)
        self._last_trick = (tuple(self._trick), winner)
        self._trick = []
        self._leader = winner
        self._to_act = winner
        if self._stock_left > 0 or self._trump_taken_by is None:
            self._request_draws()
        elif any(self._hands):
            self._start_trick()
        else:
            self._phase = Phase.HAND_OVER

    # ------------------------------------------------------------------ scoring

    def card_points(self) -> tuple[int, ...]:
        """Card points each side has captured so far in this hand."""
        return tuple(self._points)

    def hand_result(self) -> HandResult:
        """In HAND_OVER: card points, hand won, and (tie-breaker hands) tie-breaker lines."""
        self._need(Phase.HAND_OVER, "hand_result")
        points = self.card_points()
        zeros = (0,) * self._sides
        lines: tuple[ScoreLine, ...]
        best = max(points)
        top = [s for s in range(self._sides) if points[s] == best]
        won = tuple(1 if len(top) == 1 and s == top[0] else 0 for s in range(self._sides))
        if self.config.match == "first_to_3":
            lines = (ScoreLine("card points", points, zeros), ScoreLine("hand won", won, won))
            return HandResult(lines, won)
        if self._hand_number < self._regular_hands:
            lines = (ScoreLine("card points", points, points), ScoreLine("hand won", won, zeros))
            return HandResult(lines, points)
        leading = max(self._match_scores)
        tied = [s for s in range(self._sides) if self._match_scores[s] == leading]
        tied_best = max(points[s] for s in tied)
        tied_top = [s for s in tied if points[s] == tied_best]
        tb = tuple(
            1 if len(tied_top) == 1 and s == tied_top[0] else 0 for s in range(self._sides)
        )
        values = tuple(points[s] if s in tied else None for s in range(self._sides))
        lines = (
            ScoreLine("card points", points, zeros),
            ScoreLine("hand won", won, zeros),
            ScoreLine("tie-breaker", values, tb),
        )
        return HandResult(lines, tb)

    def next_hand(self) -> None:
        """In HAND_OVER: add the hand's points; then SHUFFLE, or MATCH_OVER with a winner."""
        result = self.hand_result()
        for side, pts in enumerate(result.points):
            self._match_scores[side] += pts
        for line in result.lines:
            if line.category == "hand won":
                for side, value in enumerate(line.values):
                    self._hands_won[side] += value or 0
        scores = self._match_scores
        if self.config.match == "first_to_3":
            leaders = [s for s in range(self._sides) if scores[s] >= HANDS_TO_WIN]
        elif self._hand_number + 1 >= self._regular_hands:
            top = max(scores)
            leaders = [s for s in range(self._sides) if scores[s] == top]
            leaders = leaders if len(leaders) == 1 else []
        else:
            leaders = []
        if leaders:
            self._winner = leaders[0]
            self._phase = Phase.MATCH_OVER
            return
        self._hand_number += 1
        self._reset_hand()
        self._phase = Phase.SHUFFLE

    @property
    def match_scores(self) -> tuple[int, ...]:
        """Hands won (``first_to_3``) or card points plus tie-breaker points (``two_hands``)."""
        return tuple(self._match_scores)

    @property
    def hands_won(self) -> tuple[int, ...]:
        """Hands each side has won so far (drawn hands count for nobody)."""
        return tuple(self._hands_won)

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees, as plain data (card codes as text).

        Keys: ``game``, ``seat``, ``side``, ``players``, ``phase``, ``hand_number``,
        ``first_player``, ``to_act`` (``None`` outside ACTION), ``hand`` (own known cards),
        ``hand_sizes``, ``trump_card``, ``trump_suit``, ``trump_taken_by``, ``stock_size``
        (face-down cards), ``trick`` (``[seat, code]`` pairs), ``last_trick``
        (``{"cards", "winner"}`` or ``None``), ``captured_cards`` and ``captured_points`` per side
        (piles are face down, but every captured card was played face up, so both are public),
        ``partner_hand`` (4 players, after the partners' look: the partner's remaining cards;
        else empty), ``match_format``, ``match_scores``, ``hands_won``, ``winner``.
        """
        self._check_seat(seat)
        partner_hand: list[str] = []
        if self._looked:
            partner = (seat + 2) % 4
            partner_hand = [c.code for c in self._hands[partner] if c is not None]
        last_trick = None
        if self._last_trick is not None:
            last_trick = {
                "cards": [[s, c.code] for s, c in self._last_trick[0]],
                "winner": self._last_trick[1],
            }
        trump = self._trump_card
        return {
            "game": "briscola",
            "seat": seat,
            "side": seat % 2 if self._n == 4 else seat,
            "players": self._n,
            "phase": self._phase.value,
            "hand_number": self._hand_number,
            "first_player": self._hand_number % self._n,
            "to_act": self._to_act if self._phase is Phase.ACTION else None,
            "hand": [c.code for c in self._hands[seat] if c is not None],
            "hand_sizes": [len(h) for h in self._hands],
            "trump_card": trump.code if trump is not None else None,
            "trump_suit": trump.suit if trump is not None else None,
            "trump_taken_by": self._trump_taken_by,
            "stock_size": self._stock_left,
            "trick": [[s, c.code] for s, c in self._trick],
            "last_trick": last_trick,
            "captured_cards": [len(pile) for pile in self._captured],
            "captured_points": list(self._points),
            "partner_hand": partner_hand,
            "match_format": self.config.match,
            "match_scores": list(self._match_scores),
            "hands_won": list(self._hands_won),
            "winner": self._winner,
        }

    def copy(self) -> BriscolaMatch:
        """An independent copy (explicit, no deepcopy)."""
        other = _copy.copy(self)
        other._hands = [list(h) for h in self._hands]
        other._trick = list(self._trick)
        other._captured = [list(p) for p in self._captured]
        other._points = list(self._points)
        other._seen = set(self._seen)
        other._match_scores = list(self._match_scores)
        other._hands_won = list(self._hands_won)
        return other

    def _need(self, phase: Phase, method: str) -> None:
        if self._phase is not phase:
            raise WrongPhase(
                f"{method} needs phase {phase.value}, but the match is in {self._phase.value}"
            )

    # ------------------------------------------------------------------ testing aid

    @classmethod
    def from_position(
        cls,
        config: BriscolaConfig,
        hands: Sequence[Iterable[Card | str]],
        trump: Card | str,
        *,
        stock_size: int = 0,
        trump_taken_by: int | None = None,
        leader: int = 0,
        trick: Iterable[Card | str] = (),
        captured: Sequence[Iterable[Card | str]] | None = None,
        hand_number: int = 0,
        match_scores: Sequence[int] | None = None,
    ) -> BriscolaMatch:
        """A testing aid: a match in ACTION in the middle of hand ``hand_number``.

        ``hands`` per seat (all known), the face-up ``trump`` card, ``stock_size`` face-down cards
        still to draw (at the deck positions just before the trump's), ``trump_taken_by`` the seat
        holding the trump card once the stock is gone (``None``: still under the stock),
        ``leader`` of the current trick and the cards already played to it (``trick``, by seats
        ``leader``, ``leader + 1``, ...), ``captured`` piles per side. Cards of the deck placed
        nowhere are out of play unless drawn. Raises :class:`GameError` naming an inconsistency.
        """
        state = cls(config)
        n = state._n
        state._hand_number = hand_number
        state._reset_hand()
        if match_scores is not None:
            if len(match_scores) != state._sides:
                raise GameError(f"match_scores needs {state._sides} values, not {match_scores}")
            state._match_scores = list(match_scores)
        if len(hands) != n:
            raise GameError(f"from_position needs {n} hands, got {len(hands)}")
        state._hands = [[_as_card(c) for c in h] for h in hands]
        trump_card = _as_card(trump)
        state._trump_card = trump_card
        state._leader = leader % n
        trick_cards = [_as_card(c) for c in trick]
        state._trick = [((leader + i) % n, c) for i, c in enumerate(trick_cards)]
        if captured is not None:
            if len(captured) != state._sides:
                raise GameError(f"from_position needs {state._sides} captured piles")
            state._captured = [[_as_card(c) for c in pile] for pile in captured]
            state._points = [card_points(pile, BRISCOLA_POINTS) for pile in state._captured]
        placed = [c for h in state._hands for c in h if c is not None] + trick_cards
        placed += [c for pile in state._captured for c in pile]
        for c in [*placed, trump_card]:
            if c not in state._deck_set:
                raise GameError(f"{c.code} is not in the {state._deck.name} deck")
        if len(set(placed)) != len(placed):
            raise GameError("from_position places some card twice")
        if (trump_taken_by is None) == (trump_card in placed):
            raise GameError(
                f"trump {trump_card.code} must be placed exactly when trump_taken_by is given"
            )
        if trump_taken_by is not None and stock_size:
            raise GameError("the trump card is only taken once the stock is empty")
        if (stock_size + (trump_taken_by is None)) % n:
            raise GameError(f"{stock_size} stock cards plus the trump do not make full draws")
        if len(state._deck) - len(placed) - (trump_taken_by is None) < stock_size:
            raise GameError(f"not enough cards left for a stock of {stock_size}")
        sizes = {len(h) + (1 if s in {seat for seat, _ in state._trick} else 0)
                 for s, h in enumerate(state._hands)}
        if len(sizes) != 1 or sizes == {0}:
            raise GameError("from_position hands must be equal in size, counting the trick")
        state._trump_taken_by = trump_taken_by
        state._stock_left = stock_size
        state._next_pos = len(state._deck) - 1 - stock_size
        state._seen = {*placed, trump_card}
        state._phase = Phase.ACTION
        state._to_act = (leader + len(trick_cards)) % n
        return state


SPEC = GameSpec(
    name="briscola",
    title="Briscola: trick-taking with a trump suit, 120 card points",
    rules_source="briscola.txt",
    player_counts=PLAYER_COUNTS,
    config_class=BriscolaConfig,
    presets={
        "classic": {"match": "first_to_3", "removed_two": "2B", "partners_look": False},
        "italian": {"match": "two_hands", "removed_two": "2B", "partners_look": True},
    },
    preset_docs={
        "classic": "briscola.txt: 3 players drop the 2 of Bastoni; first to win 3 hands",
        "italian": "italian-card-games.txt: sum of card points over two hands (three with 3 "
        "players), tie-breaker hand; 4 players' partners look at each other's last cards",
    },
    factory=BriscolaMatch,
    flags=flags_of(BriscolaConfig),
    default_preset="classic",
)

SPECS = (SPEC,)
