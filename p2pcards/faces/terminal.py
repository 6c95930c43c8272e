"""Terminal play: what a person at a seat sees and types, and the progress lines of a bot seat.

:class:`PersonUI` draws, with ``rich``, the table state from the seat's observation (its hand,
the table or trick, the trump, captured piles, scores), what the others did (from the table's
events), and when it is the person's turn the legal moves numbered; it reads the choice, a
number or a card code, one line at a time from a :class:`LineSource` (standard input read in a
worker thread, so a test can drive it through a pipe). An invalid choice re-prompts; end of input
or ``q`` leaves the table (:class:`~p2pcards.net.session.PlayerQuit`). Hand results show their
score breakdown (:attr:`HandResult.lines`).

:class:`BotLog` prints one plain line per hand start, hand result and match end: the progress of
a seat played by a bot, which ``p2pcards demo`` relays. Neither needs a terminal: without one,
``rich`` prints plain text.

:func:`parse_choice` and :func:`describe_event` are pure and carry the logic worth testing.
"""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import trio
from rich.console import Console
from rich.table import Table as RichTable

from ..card_text import action_text, own_names
from ..cards import Deck, name_cards
from ..games.base import ALL_SEATS, Action, HandResult, Zone
from ..genesis import Genesis
from ..net.session import Player, PlayerQuit
from ..table import (
    ActionPlayed,
    CardsRevealed,
    Event,
    HandScored,
    HandStarted,
    MatchEnded,
    ProposalDropped,
    Table,
)

__all__ = [
    "LineSource",
    "StdinLines",
    "PersonUI",
    "BotLog",
    "parse_choice",
    "move_lines",
    "action_text",
    "describe_event",
    "own_names",
    "side_names",
    "result_table",
    "SUIT_LEGEND",
]

SUIT_LEGEND = "suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K re"


class LineSource:
    """Where a person's typed lines come from; ``None`` means end of input."""

    async def readline(self) -> str | None:
        raise NotImplementedError


class StdinLines(LineSource):
    """Standard input, one line per call, read by a daemon thread so no typed line is lost.

    Must be used inside one Trio run (the thread hands lines to that run).
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdin
        self._send, self._receive = trio.open_memory_channel[str | None](math.inf)
        self._started = False

    def _pump(self, token: trio.lowlevel.TrioToken) -> None:
        try:
            while True:
                line = self._stream.readline()
                token.run_sync_soon(self._send.send_nowait, line or None)
                if not line:
                    return
        except (trio.RunFinishedError, OSError, ValueError):
            return

    async def readline(self) -> str | None:
        if not self._started:
            self._started = True
            token = trio.lowlevel.current_trio_token()
            threading.Thread(target=self._pump, args=(token,), daemon=True,
                             name="p2pcards-stdin").start()
        line: str | None = await self._receive.receive()
        if line is None:
            self._send.send_nowait(None)  # stay at end of input
        return line


def parse_choice(text: str, legal: Sequence[Action]) -> Action | str:
    """The action ``text`` designates among ``legal``, or a sentence saying what is wrong.

    Accepted: a move number (1-based, as listed), a card code (``7d`` = ``7D``) when exactly one
    legal move plays that card, or a move written out as listed (``play 7D [4D 3D]``).
    """
    text = text.strip()
    if not text:
        return "type a move number"
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return f"{number} is not a move number (1 to {len(legal)})"
    upper = text.upper()
    written = [a for a in legal if str(a).upper() == upper]
    if len(written) == 1:
        return written[0]
    loose = [a for a in legal if _words(str(a)) == _words(text)]
    if len(loose) == 1:
        return loose[0]
    by_card = [a for a in legal if a.card is not None and a.card.code == upper]
    if len(by_card) == 1:
        return by_card[0]
    if by_card:
        numbers = ", ".join(str(legal.index(a) + 1) for a in by_card)
        return f"several moves play {upper}: choose by number ({numbers})"
    return f"{text!r} is neither a move number nor a card you can play"


def _words(text: str) -> tuple[str, tuple[str, ...]]:
    """A move as typed, loosely: its first word and the rest in any order, brackets ignored
    (``discard QD JD`` matches ``discard [JD QD]``)."""
    words = text.upper().replace("[", " ").replace("]", " ").split()
    return (words[0] if words else "", tuple(sorted(words[1:])))


LONG_LIST = 40
"""Above this many legal moves the screen shows each kind of move once, with an example."""


def move_lines(legal: Sequence[Action], deck: Deck | None = None) -> list[str]:
    """The lines listing ``legal`` for a person. A run of moves that differ only by consecutive
    ``amount`` values (a bet of 1 to 50 chips) is one line with its range of numbers and amounts,
    e.g. ``   3-52. bet 1 … bet 50``; either a number in the range or the move written out selects
    one. When more than :data:`LONG_LIST` lines remain (a Calabrasella discard has over a
    thousand moves) there is one line per kind of move, with a count and an example. Cards of a
    ``deck`` with its own names are named beside their codes
    (:func:`~p2pcards.card_text.action_text`)."""
    out: list[str] = []
    i = 0
    while i < len(legal):
        j = i
        while (j + 1 < len(legal) and legal[j + 1].amount == legal[j].amount + 1
               and legal[j].amount > 0
               and (legal[j + 1].kind, legal[j + 1].card, legal[j + 1].cards, legal[j + 1].value)
               == (legal[j].kind, legal[j].card, legal[j].cards, legal[j].value)):
            j += 1
        if j - i >= 2:
            out.append(f"  {i + 1}-{j + 1}. {action_text(legal[i], deck)} … "
                       f"{action_text(legal[j], deck)}")
        else:
            out.extend(f"  {k + 1:>2}. {action_text(legal[k], deck)}" for k in range(i, j + 1))
        i = j + 1
    if len(out) <= LONG_LIST:
        return out
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    lines = [f"  {len(legal)} moves: type one written out, cards in any order"]
    for kind, actions in by_kind.items():
        lines.append(f"  {kind}: {len(actions)} moves, e.g. {action_text(actions[0], deck)}")
    return lines


def side_names(genesis: Genesis, sides: int, me: int | None = None) -> list[str]:
    """Labels of the scoring sides: seats, or teams of seats when sides < seats."""
    players = len(genesis.seats)

    def name(seat: int) -> str:
        return "you" if seat == me else f"{genesis.seats[seat].name or 'seat'} [{seat}]"

    if sides == players:
        return [name(s) for s in range(players)]
    engine = genesis.spec.new_match(genesis.game_config())
    return [" + ".join(name(s) for s in range(players) if engine.side_of(s) == side)
            for side in range(sides)]


def _seat_name(genesis: Genesis, seat: int | None, me: int | None) -> str:
    if seat is None:
        return "the table"
    if seat == me:
        return "you"
    return f"{genesis.seats[seat].name or 'seat'} [{seat}]"


def describe_event(event: Event, genesis: Genesis, me: int | None,
                   deck: Deck | None = None) -> str | None:
    """One line about ``event`` for the person at seat ``me`` (``None``: nothing to say); cards of
    a ``deck`` with its own names (:func:`own_names`) are named beside their codes."""
    if isinstance(event, HandStarted):
        return f"— hand {event.hand + 1} begins"
    if isinstance(event, ActionPlayed):
        return f"{_seat_name(genesis, event.seat, me)}: {action_text(event.action, deck)}"
    if isinstance(event, CardsRevealed):
        groups: dict[str, list[str]] = {}
        for step, seen in zip(event.steps, event.cards, strict=True):
            if seen is None:
                continue
            if step.zone is Zone.HAND and step.seat == me:
                label = "you receive"
            elif step.zone is Zone.TABLE and step.seat is not None:
                label = f"in front of {_seat_name(genesis, step.seat, me)}"
            elif step.zone is Zone.TABLE:
                label = "on the table"
            elif step.zone is Zone.TRUMP:
                label = "trump"
            elif step.zone is Zone.HAND and step.visible_to == ALL_SEATS:
                label = f"shown to all, to {_seat_name(genesis, step.seat, me)}"
            else:
                label = f"shown ({step.zone.value})"
            groups.setdefault(label, []).append(seen.code)
        if own_names(deck):
            return "; ".join(f"{label}: {name_cards(codes, deck)}"
                             for label, codes in groups.items()) or None
        return "; ".join(f"{label}: {' '.join(codes)}" for label, codes in groups.items()) or None
    if isinstance(event, HandScored):
        names = side_names(genesis, len(event.result.points), me)
        points = ", ".join(f"{n} {p}" for n, p in zip(names, event.result.points, strict=True))
        match = "-".join(str(s) for s in event.match_scores)
        return f"hand {event.hand + 1} scored: {points} (match {match})"
    if isinstance(event, MatchEnded):
        match = "-".join(str(s) for s in event.match_scores)
        if event.winner is None:
            return f"match over: a draw ({match})"
        names = side_names(genesis, len(event.match_scores), me)
        return f"match over: {names[event.winner]} won ({match})"
    return None


def result_table(result: HandResult, names: Sequence[str]) -> RichTable:
    """The score breakdown of a hand: one row per category, values and points per side."""
    grid = RichTable(title="hand result", show_lines=False)
    grid.add_column("category")
    for name in names:
        grid.add_column(name, justify="right")
    for line in result.lines:
        cells = [
            f"{'-' if v is None else v} → {p}" for v, p in zip(line.values, line.points,
                                                               strict=True)
        ]
        grid.add_row(line.category, *cells)
    grid.add_row("points", *(str(p) for p in result.points))
    return grid


def cards_text(value: Any) -> str:
    """A value of an observation as a person reads it: card codes, (seat, card) pairs, a
    trick with its winner, or a per-seat mapping."""
    if isinstance(value, list):
        if value and all(isinstance(v, list) and len(v) == 2 for v in value):
            return "  ".join(f"{c} ({s})" for s, c in value)
        if value and all(isinstance(v, dict) and "card" in v for v in value):
            return "  ".join(f"{v['card']} ({v.get('seat')})" for v in value)
        return " ".join(str(v) for v in value) or "—"
    if isinstance(value, dict) and "cards" in value:
        return cards_text(value["cards"]) + f"  → seat {value.get('winner')}"
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return ", ".join(f"seat {k}: {v}" for k, v in value.items()) or "—"
    return "—" if value is None else str(value)


_SHOWN = (
    ("table", "table"), ("trick", "trick"), ("last_trick", "last trick"),
    ("trump_card", "trump"), ("hand_sizes", "cards in hand"), ("stock", "stock"),
    ("stock_size", "stock"), ("captured", "captured"), ("captured_cards", "captured"),
    ("captured_counts", "captured"), ("captured_points", "card points"), ("scope", "scope"),
    ("match_scores", "match"),
)


def state_table(observation: dict[str, Any], title: str,
                shown: Sequence[tuple[str, str]] = (), deck: Deck | None = None) -> RichTable:
    """The observation as a two-column table, hand last: the keys ``shown`` (a game's own
    :attr:`~p2pcards.games.base.GameSpec.screen`), or the generic list when empty. With a
    ``deck`` that has its own names (:func:`own_names`) the hand and a single card (the trump)
    are named beside their codes."""
    grid = RichTable(title=title, show_header=False)
    grid.add_column("what", style="bold")
    grid.add_column("")
    named = own_names(deck)
    for key, label in shown or _SHOWN:
        if key in observation:
            value = observation[key]
            single = named and isinstance(value, str)
            text = name_cards([value], deck) if single else cards_text(value)
            grid.add_row(label, text)
    hand = observation.get("hand", [])
    grid.add_row("your hand", name_cards(hand, deck) if named and hand else cards_text(hand))
    return grid


class PersonUI:
    """The terminal of a person at one seat (see the module docstring)."""

    def __init__(self, genesis: Genesis, seat: int, lines: LineSource,
                 console: Console | None = None) -> None:
        self.genesis = genesis
        self.seat = seat
        self.lines = lines
        self.console = console or Console(highlight=False, soft_wrap=True)
        self._legend_shown = False

    def player(self) -> Player:
        return Player(self.decide, self.show, person=True, claim=self.claim)

    async def claim(self, table: Table) -> Action | None:
        """Offer the out-of-turn claims open to this seat; Enter lets the window pass."""
        claims = table.claim_actions()
        self.console.print("you may claim out of turn:")
        for number, action in enumerate(claims, 1):
            self.console.print(f"  {number:>2}. {action}")
        while True:
            self.console.print("your claim (number, Enter to let it pass, q to leave): ", end="")
            line = await self.lines.readline()
            if line is None or line.strip().lower() in ("q", "quit", "exit"):
                self.console.print()
                raise PlayerQuit()
            if not line.strip():
                return None
            choice = parse_choice(line, claims)
            if isinstance(choice, Action):
                return choice
            self.console.print(choice)

    def show(self, table: Table, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, ProposalDropped):
                self.console.print("another seat's move came first: yours was not played")
                continue
            if isinstance(event, HandScored):
                names = side_names(self.genesis, len(event.result.points), self.seat)
                self.console.print(result_table(event.result, names))
            text = describe_event(event, self.genesis, self.seat, table.engine.deck)
            if text:
                self.console.print(text)

    async def decide(self, table: Table) -> Action:
        legal = table.legal_actions()
        spec = self.genesis.spec
        if not self._legend_shown:
            self._legend_shown = True
            self.console.print(spec.legend or SUIT_LEGEND)
        title = f"{self.genesis.game} — hand {table.engine.hand_number + 1} — your turn"
        deck = table.engine.deck
        self.console.print(state_table(table.observation(), title, spec.screen, deck))
        for move in move_lines(legal, deck):
            self.console.print(move)
        while True:
            self.console.print("your move (number or card, q to leave): ", end="")
            line = await self.lines.readline()
            if line is None or line.strip().lower() in ("q", "quit", "exit"):
                self.console.print()
                raise PlayerQuit()
            choice = parse_choice(line, legal)
            if isinstance(choice, Action):
                return choice
            self.console.print(choice)


class BotLog:
    """Plain progress lines for a seat played by a bot."""

    def __init__(self, genesis: Genesis, seat: int,
                 write: Callable[[str], None] | None = None) -> None:
        self.genesis = genesis
        self.seat = seat
        self.write = write or (lambda text: print(text, flush=True))

    def show(self, table: Table, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, HandStarted | HandScored | MatchEnded):
                text = describe_event(event, self.genesis, None, table.engine.deck)
                if text:
                    self.write(text)
