"""What one seat sees, computed once and drawn by every face (terminal and web page alike).

:class:`SeatPresenter` folds the table's events (:mod:`p2pcards.table`) into a log of sentences
and the latest hand result, and builds a :class:`SeatView` on demand: a snapshot of the table as
the seat may see it (its hand, the public zones of its observation, who is to move, the legal
moves numbered as a person chooses them, the scores, the log). A view holds only what the seat's
own observation and the public events hold, so a face that draws it can never show a card the
seat may not see. :meth:`SeatView.to_json` is the JSON-able form a web page receives.

This module is pure: no trio, no sockets, no clocks. The network layer's waiting status (whom
the table waits for, how many seconds are left) reaches it through :meth:`SeatPresenter.waiting`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..cards import HIDDEN_CODE, BadCardCode, Card, Deck, card, deck_family
from ..games.base import Action, HandResult
from ..seating.genesis import Genesis
from ..table import Event, HandScored, HandStarted, MatchEnded, Table
from .announce import Announcer
from .game_words import word
from .names import SeatNames
from .order import display_order, sort_hand
from .screen_text import presented, result_row
from .wording import cards_text, describe_event, hand_heading, move_text

__all__ = ["SeatInfo", "MoveChoice", "ZoneView", "ResultView", "SeatView", "SeatPresenter",
           "LOG_LINES"]

LOG_LINES = 200
"""How many log sentences a presenter keeps (the oldest are dropped first)."""


@dataclass(frozen=True)
class SeatInfo:
    """One seat of the table as the viewer sees it.

    ``label`` is ``you``, ``partner``, ``opponent`` or (in a game with no sides) the seat's name;
    ``hand_size`` is ``None`` when the observation does not tell it; ``public_bot``: the seat
    dropped out and the public bot plays it (``--dropout bot``, SPEC §9.13.7).
    """

    seat: int
    name: str
    label: str
    side: int
    hand_size: int | None
    to_move: bool
    public_bot: bool = False


@dataclass(frozen=True)
class MoveChoice:
    """A legal move as a person chooses it.

    ``number`` is what the person types or clicks (1-based, in the order the face lists the
    moves); ``index`` is the move's position in the engine's ``table.legal_actions()``, the one
    thing a face sends back: ``table.legal_actions()[choice.index]``.
    """

    number: int
    index: int
    text: str
    kind: str
    card: str | None
    cards: tuple[str, ...]
    amount: int


@dataclass(frozen=True)
class ZoneView:
    """A public zone of the observation (table, trick, trump, stock...): ``cards`` when the value
    is a list of card codes or a single card code, and ``text`` always (how a terminal prints
    it)."""

    key: str
    label: str
    text: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class ResultView:
    """A hand's score breakdown: one row per category, ``values``/``points`` one per side."""

    hand: int
    sides: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...], tuple[int, ...]], ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class SeatView:
    """A snapshot of the table for one seat (see the module docstring); ``deck`` is the deck's
    family (``italian``, ``spanish`` or ``french``: which card faces to draw). ``hand`` is
    sorted by suit and rank and ``moves`` are in the same order
    (:mod:`p2pcards.faces.order`)."""

    game: str
    deck: str
    me: int | None
    hand_number: int
    seats: tuple[SeatInfo, ...]
    hand: tuple[str, ...]
    zones: tuple[ZoneView, ...]
    moves: tuple[MoveChoice, ...]
    your_turn: bool
    to_move: tuple[int, ...]
    waiting_for: tuple[int, ...]
    seconds_left: float | None
    sides: tuple[str, ...]
    match_scores: tuple[int, ...]
    log: tuple[str, ...]
    last_result: ResultView | None
    over: bool
    outcome: str | None
    observation: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON-able values (tuples become lists)."""
        out = asdict(self)
        out["observation"] = _jsonable(self.observation)
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _card_codes(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) and 2 <= len(value) <= 3 and _is_card(value):
        return (value,)
    if (isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
            and all(_is_card(v) for v in value)):
        return tuple(value)
    return ()


def _is_card(code: str) -> bool:
    """Whether ``code`` is a card code (``you``, a seat named in a zone, is not)."""
    try:
        card(code)
    except BadCardCode:
        return code == HIDDEN_CODE
    return True


class SeatPresenter:
    """Folds a seat's events into what its faces draw; one per seat (``seat=None``: observer)."""

    def __init__(self, genesis: Genesis, seat: int | None) -> None:
        self.genesis = genesis
        self.seat = seat
        self.log: list[str] = []
        self.last_result: ResultView | None = None
        self.outcome: str | None = None
        self._begun: set[int] = set()
        self._waiting: tuple[int, ...] = ()
        self._seconds_left: float | None = None
        self.names = SeatNames(genesis, seat)
        self.announcer = Announcer(self.names.seat, self.names.side)
        self._side_of = self.names.side_of
        self._sides = self.names.sides

    # ------------------------------------------------------------------ names

    def seat_name(self, seat: int | None) -> str:
        """``you``, the seat's chosen name with its number (and ``(partner)``), or
        ``the table``."""
        return self.names.seat(seat)

    def side_names(self, sides: int | None = None) -> list[str]:
        """Labels of the scoring sides: seats, or teams of seats joined by ``+``."""
        return self.names.side_list(sides)

    def _label(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        if self.seat is not None and self._sides < len(self.genesis.seats):
            return "partner" if self._side_of[seat] == self._side_of[self.seat] else "opponent"
        return self.names.plain(seat)

    # ------------------------------------------------------------------ input

    def update(self, events: Sequence[Event], deck: Deck | None = None,
               observation: dict[str, Any] | None = None) -> None:
        """Fold new events into the log and the latest result; with the seat's
        ``observation`` after them, also the announcements (a scopa, a trick's winner) that
        only a comparison with the previous observation shows."""
        for event in events:
            if isinstance(event, HandScored):
                self.last_result = self._result(event.hand, event.result)
            text = (hand_heading(event, self._begun) if isinstance(event, HandStarted)
                    else describe_event(event, self.genesis, self.seat, deck))
            if isinstance(event, MatchEnded) and text:
                self.outcome = text
            if text:
                self.log.append(text)
        if observation is not None:
            self.log.extend(self.announcer.update(observation, events))
        del self.log[:-LOG_LINES]

    def waiting(self, seats: Sequence[int], seconds_left: float | None) -> None:
        """Record whom the table waits for and how long is left before the timeout."""
        self._waiting = tuple(seats)
        self._seconds_left = seconds_left

    def _result(self, hand: int, result: HandResult) -> ResultView:
        rows = tuple(
            (word(category), tuple(values), tuple(line.points))
            for category, values, line in (
                (*result_row(line.category, line.values), line) for line in result.lines))
        return ResultView(hand + 1, tuple(self.side_names(len(result.points))), rows,
                          tuple(result.points))

    # ------------------------------------------------------------------ output

    def view(self, table: Table) -> SeatView:
        """The snapshot of ``table`` for this seat now."""
        spec = self.genesis.spec
        deck = table.engine.deck
        observation = table.observation()
        shown = presented(self.genesis.game, observation, self.names)
        expected = table.expected
        to_move = tuple(sorted(table.speakers)) if expected and expected[1] == "action" else ()
        sizes = observation.get("hand_sizes")
        seats = tuple(
            SeatInfo(s, self.genesis.seats[s].name or f"seat {s}", self._label(s),
                     self._side_of[s], _size(sizes, s), s in to_move, s == table.bot_seat)
            for s in range(len(self.genesis.seats)))
        zones = tuple(
            ZoneView(key, word(label), _text(shown[key]), _card_codes(shown[key]))
            for key, label in (spec.screen or _GENERIC) if key in shown)
        legal = table.legal_actions()
        order = display_order(legal, self.genesis.game)
        moves = tuple(_choice(number, i, legal[i], deck) for number, i in enumerate(order, 1))
        scores = observation.get("match_scores")
        match_scores = tuple(int(s) for s in scores) if isinstance(scores, list | tuple) else ()
        return SeatView(
            game=self.genesis.game, deck=deck_family(deck), me=self.seat,
            hand_number=table.engine.hand_number + 1, seats=seats,
            hand=tuple(sort_hand(_card_codes(observation.get("hand", [])), self.genesis.game)),
            zones=zones, moves=moves,
            your_turn=bool(moves), to_move=to_move, waiting_for=self._waiting,
            seconds_left=self._seconds_left, sides=tuple(self.side_names()),
            match_scores=match_scores, log=tuple(self.log), last_result=self.last_result,
            over=table.finished, outcome=self.outcome, observation=observation)


_GENERIC = (
    ("table", "table"), ("trick", "trick"), ("last_trick", "last trick"),
    ("trump_card", "trump"), ("stock", "stock"), ("stock_size", "stock"),
    ("captured_counts", "captured"), ("captured_points", "card points"), ("scope", "scope"),
)


def _size(sizes: Any, seat: int) -> int | None:
    if isinstance(sizes, list | tuple) and seat < len(sizes) and isinstance(sizes[seat], int):
        return int(sizes[seat])
    if isinstance(sizes, dict):
        value = sizes.get(seat, sizes.get(str(seat)))
        return int(value) if isinstance(value, int) else None
    return None


def _text(value: Any) -> str:
    return cards_text(value)


def _choice(number: int, index: int, action: Action, deck: Deck | None) -> MoveChoice:
    return MoveChoice(number, index, move_text(action, deck), action.kind,
                      action.card.code if action.card is not None else None,
                      tuple(c.code for c in action.cards), action.amount)
