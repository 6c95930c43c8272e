"""Terminal play: what a person at a seat sees and types, and the progress lines of a bot seat.

:class:`PersonUI` draws, with ``rich``, the table state from the seat's observation (its hand,
the table or trick, the trump, captured piles, scores), what the others did (from the table's
events), and when it is the person's turn the legal moves numbered; it reads the choice, a
number or a card code, one line at a time from a :class:`LineSource` (standard input read in a
worker thread, so a test can drive it through a pipe). An invalid choice re-prompts; end of input
or ``q`` leaves the table (:class:`~p2pcards.net.player.PlayerQuit`). Hand results show their
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

from ..cards import Deck
from ..games.base import Action, HandResult
from ..i18n import N_, _
from ..net.player import Player, PlayerQuit
from ..seating.genesis import Genesis
from ..table import (
    BotSeated,
    Event,
    HandScored,
    HandStarted,
    KeyRebuilt,
    MatchEnded,
    ProposalDropped,
    SeatDropped,
    Table,
)
from .announce import Announcer
from .card_names import cards_label, own_names, spoken
from .game_words import word
from .help import help_lines, signal_lines
from .names import SeatNames
from .order import sort_hand
from .screen_text import presented, result_row
from .typed_melds import meld_steps, typed_meld
from .view import SeatPresenter
from .wording import (
    SIGNAL_VALUES,
    cards_text,
    describe_event,
    hand_heading,
    move_text,
    signal_word,
)

__all__ = [
    "LineSource",
    "StdinLines",
    "PersonUI",
    "BotLog",
    "parse_choice",
    "move_lines",
    "side_names",
    "result_table",
    "SUIT_LEGEND",
]

SUIT_LEGEND = N_("suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K re")


class LineSource:
    """Where a person's typed lines come from; ``None`` means end of input."""

    async def readline(self) -> str | None:
        raise NotImplementedError


class StdinLines(LineSource):
    """Standard input, one line per call, read by a daemon thread so no typed line is lost.

    Must be used inside one Trio run (the thread hands lines to that run). :meth:`question`
    takes the next line typed before any :meth:`readline` already waiting (the answer to
    "leave the match?" asked over a move prompt).
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdin
        self._send, self._receive = trio.open_memory_channel[str | None](math.inf)
        self._started = False
        self._questions: list[trio.MemorySendChannel[str | None]] = []
        self._ended = False

    def _pump(self, token: trio.lowlevel.TrioToken) -> None:
        try:
            while True:
                line = self._stream.readline()
                token.run_sync_soon(self._deliver, line or None)
                if not line:
                    return
        except (trio.RunFinishedError, OSError, ValueError):
            return

    def _deliver(self, line: str | None) -> None:
        """Hand a typed line to the oldest open question, else to the readers."""
        self._ended = line is None
        while self._questions:
            answer = self._questions.pop(0)
            try:
                answer.send_nowait(line)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                continue  # that question was cancelled before its line came
            if line is not None:
                return
        self._send.send_nowait(line)

    def _start(self) -> None:
        if not self._started:
            self._started = True
            token = trio.lowlevel.current_trio_token()
            threading.Thread(target=self._pump, args=(token,), daemon=True,
                             name="p2pcards-stdin").start()

    async def question(self) -> str | None:
        """The next line typed from now on, taken before any waiting :meth:`readline`;
        ``None`` at end of input."""
        self._start()
        if self._ended:
            return None
        send, receive = trio.open_memory_channel[str | None](1)
        self._questions.append(send)
        with receive:
            return await receive.receive()

    async def readline(self) -> str | None:
        self._start()
        line: str | None = await self._receive.receive()
        if line is None:
            self._send.send_nowait(None)  # stay at end of input
        return line


def parse_choice(text: str, legal: Sequence[Action]) -> Action | str:
    """The action ``text`` designates among ``legal``, or a sentence saying what is wrong.

    Accepted: what :func:`move_labels` lists for a move (its number, 1-based; an amount in a
    menu of amounts, ``5`` for ``bet 5``), a card code (``7d`` = ``7D``) when exactly one legal
    move plays that card, or a move written out as listed (``play 7D [4D 3D]``).
    """
    text = text.strip()
    if not text:
        return _("type a move number")
    labels = move_labels(legal)
    if text.lower() in labels:
        return legal[labels.index(text.lower())]
    run = amount_run(legal)
    if text.isdigit() and run is not None:
        low, high = legal[run[0]].amount, legal[run[1]].amount
        return _("{text} is not one of the amounts listed ({low} to {high})").format(
            text=text, low=low, high=high)
    numbered = labels == [str(n) for n in range(1, len(legal) + 1)]
    if text.isdigit() and not numbered:
        return _("{text} is not a move number (1 to {last})").format(
            text=text, last=labels[-1].rstrip("abcdefgh"))
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return _("{text} is not a move number (1 to {last})").format(
            text=number, last=len(legal))
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
        return _("several moves play {card}: choose by number ({numbers})").format(
            card=upper, numbers=numbers)
    return _("{text} is neither a move number nor a card you can play").format(
        text=repr(text))


def _words(text: str) -> tuple[str, tuple[str, ...]]:
    """A move as typed, loosely: its first word and the rest in any order, brackets ignored
    (``discard QD JD`` matches ``discard [JD QD]``)."""
    words = text.upper().replace("[", " ").replace("]", " ").split()
    return (words[0] if words else "", tuple(sorted(words[1:])))


LONG_LIST = 40
"""Above this many legal moves the screen shows each kind of move once, with an example."""


def typed(text: str) -> str:
    """A text a person types as it is (a move written out, ``pass``): in a language other
    than English it is set between backquotes, so that it reads as typed, not as words."""
    return f"`{text}`" if spoken() else text


def _same_but_amount(a: Action, b: Action) -> bool:
    return (a.kind, a.card, a.cards, a.value) == (b.kind, b.card, b.cards, b.value)


def amount_run(legal: Sequence[Action]) -> tuple[int, int] | None:
    """``(first, last)``, the indexes in ``legal`` of a menu of amounts (``bet 2`` ... ``bet
    13``), when the amounts can be typed as themselves: every move with an amount is in one run
    of at least three consecutive amounts of one kind of move, and every other move is told
    apart by its words (``pass``). ``None`` otherwise."""
    with_amount = [i for i, a in enumerate(legal) if a.amount > 0]
    if len(with_amount) < 3 or with_amount != list(range(with_amount[0], with_amount[-1] + 1)):
        return None
    first, last = with_amount[0], with_amount[-1]
    for i in range(first, last):
        here, after = legal[i], legal[i + 1]
        if after.amount != here.amount + 1 or not _same_but_amount(here, after):
            return None
    others = [str(a).lower() for i, a in enumerate(legal) if not first <= i <= last]
    if len(set(others)) != len(others) or any(o.isdigit() for o in others):
        return None
    return first, last


def _signal_labels(legal: Sequence[Action]) -> list[str]:
    """``1``, ``2``... in order, except that the plays of one card with a Tresette signal share
    the plain play's number with a letter (``5``, ``5b``, ``5c``)."""
    labels: list[str] = []
    number = 0
    previous: Action | None = None
    letter = 0
    for action in legal:
        variant = (previous is not None and action.kind == "play" == previous.kind
                   and action.card == previous.card and action.value in SIGNAL_VALUES)
        if variant:
            letter += 1
            labels.append(f"{number}{chr(ord('a') + letter)}")
        else:
            number += 1
            letter = 0
            labels.append(str(number))
            previous = action
    return labels


def move_labels(legal: Sequence[Action]) -> list[str]:
    """What a person types for each of ``legal``: ``1``, ``2``... in order, except that

    - the plays of one card with a Tresette signal share the plain play's number with a letter
      (``5`` plays AC, ``5b`` plays AC with the first signal listed, ``5c`` with the next);
    - in a menu of amounts (:func:`amount_run`) each amount is typed as itself (``5`` bets 5)
      and every other move as its words (``pass``)."""
    labels = _signal_labels(legal)
    if not all(label.isdigit() for label in labels):
        return labels
    run = amount_run(legal)
    if run is not None:
        return [str(a.amount) if run[0] <= i <= run[1] else str(a).lower()
                for i, a in enumerate(legal)]
    return labels


def _signal_lines(legal: Sequence[Action], labels: Sequence[str],
                  deck: Deck | None) -> list[str]:
    """One line per card: the plain play, then its signal variants by label
    (``  5. play AC — with a signal: 5b best · 5c one``)."""
    out: list[str] = []
    variants: list[str] = []

    def flush() -> None:
        if variants:
            out[-1] += _(" — with a signal: ") + " · ".join(variants)
            variants.clear()

    for action, label in zip(legal, labels, strict=True):
        if label.isdigit():
            flush()
            out.append(f"  {label:>2}. {move_text(action, deck)}")
        else:
            variants.append(f"{label} {signal_word(action)}")
    flush()
    return out


def _amount_lines(legal: Sequence[Action], run: tuple[int, int],
                  deck: Deck | None) -> list[str]:
    """A menu of amounts: the run on one line, typed by amount (``  bet 2 … bet 13: type the
    amount, 5 for bet 5``), then each other move typed as its words (``  pass: type pass``)."""
    first, last = legal[run[0]], legal[run[1]]
    example = legal[(run[0] + run[1]) // 2]
    out = ["  " + _("{first} … {last}: type the amount, {amount} for {example}").format(
        first=move_text(first, deck), last=move_text(last, deck), amount=example.amount,
        example=move_text(example, deck))]
    out.extend("  " + _("{move}: type {typed}").format(move=move_text(a, deck),
                                                        typed=typed(str(a).lower()))
               for i, a in enumerate(legal) if not run[0] <= i <= run[1])
    return out


def move_lines(legal: Sequence[Action], deck: Deck | None = None) -> list[str]:
    """The lines listing ``legal`` for a person. A menu of amounts (:func:`amount_run`) is typed
    by amount (``  bet 2 … bet 13: type the amount, 7 for bet 7``). Otherwise a run of moves
    that differ only by consecutive ``amount`` values is one line with its range of numbers and
    amounts, e.g. ``   3-52. bet 3C 1 … bet 3C 50``; either a number in the range or the move
    written out selects one. When more than :data:`LONG_LIST` lines remain (a Calabrasella
    discard has over a thousand moves) there is one line per kind of move, with a count and an
    example. Cards of a ``deck`` with its own names are named beside their codes
    (:func:`~p2pcards.faces.wording.action_text`)."""
    labels = _signal_labels(legal)
    if not all(label.isdigit() for label in labels):
        return _signal_lines(legal, labels, deck)  # signals share numbers: one line per card
    run = amount_run(legal)
    if run is not None:
        return _amount_lines(legal, run, deck)
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
            out.append(f"  {i + 1}-{j + 1}. {move_text(legal[i], deck)} … "
                       f"{move_text(legal[j], deck)}")
        else:
            out.extend(f"  {k + 1:>2}. {move_text(legal[k], deck)}" for k in range(i, j + 1))
        i = j + 1
    if len(out) <= LONG_LIST:
        return out
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    lines = ["  " + _("{count} moves: type one written out, cards in any order").format(
        count=len(legal))]
    for kind, actions in by_kind.items():
        lines.append("  " + _("{kind}: {count} moves, e.g. {example}").format(
            kind=typed(kind), count=len(actions),
            example=typed(str(actions[0])) if spoken() else move_text(actions[0], deck)))
    return lines


def side_names(genesis: Genesis, sides: int, me: int | None = None) -> list[str]:
    """Labels of the scoring sides: seats, or teams of seats when sides < seats."""
    return SeatNames(genesis, me).side_list(sides)


def result_table(result: HandResult, names: Sequence[str]) -> RichTable:
    """The score breakdown of a hand: one row per category, values and points per side."""
    grid = RichTable(title=_("hand result"), show_lines=False)
    grid.add_column(_("category"))
    for name in names:
        grid.add_column(name, justify="right")
    for line in result.lines:
        category, values = result_row(line.category, line.values)
        cells = [f"{v} → {p}" for v, p in zip(values, line.points, strict=True)]
        grid.add_row(word(category), *cells)
    grid.add_row(word("points"), *(str(p) for p in result.points))
    return grid


_SHOWN = (
    ("table", N_("table")), ("trick", N_("trick")), ("last_trick", N_("last trick")),
    ("trump_card", N_("trump")), ("hand_sizes", N_("cards in hand")), ("stock", N_("stock")),
    ("stock_size", N_("stock")), ("captured", N_("captured")),
    ("captured_cards", N_("captured")), ("captured_counts", N_("captured")),
    ("captured_points", N_("card points")), ("scope", N_("scope")),
    ("match_scores", N_("match")),
)


ALWAYS_SHOWN = frozenset({"table"})
"""Keys shown even when empty: an empty table is news (a scopa just swept it)."""


def _nothing_yet(key: str, value: Any) -> bool:
    """Whether a row would say nothing (no value yet, or an empty one): every game's screen
    leaves such rows out rather than print a column of dashes."""
    if key in ALWAYS_SHOWN:
        return False
    return value is None or value in ("", "—") or (isinstance(value, list | dict) and not value)


def state_table(observation: dict[str, Any], title: str,
                shown: Sequence[tuple[str, str]] = (), deck: Deck | None = None,
                names: SeatNames | None = None, game: str | None = None) -> RichTable:
    """The observation as a two-column table, hand last: the keys ``shown`` (a game's own
    :attr:`~p2pcards.games.base.GameSpec.screen`), or the generic list when empty; a row with
    nothing in it yet is left out (:func:`_nothing_yet`). Labels are translated
    (:func:`~p2pcards.faces.game_words.word`) and cards shown by :func:`cards_text`. With
    ``names``, a list of one number per seat or per side is written with whose each number is
    (``you 3 · Bob [1] 2``); with ``game``, the hand is sorted by suit and rank
    (:func:`~p2pcards.faces.order.sort_hand`)."""
    grid = RichTable(title=title, show_header=False)
    grid.add_column("what", style="bold")
    grid.add_column("")
    for key, label in shown or _SHOWN:
        if key in observation and not _nothing_yet(key, observation[key]):
            value = observation[key]
            labelled = None
            if (names is not None and isinstance(value, list) and value
                    and all(isinstance(v, int | float) for v in value)):
                labelled = names.per_seat_or_side(value)
            grid.add_row(word(label), labelled or cards_text(value, deck))
    hand = observation.get("hand", [])
    if game is not None and isinstance(hand, list):
        hand = sort_hand([str(c) for c in hand], game)
    shown_hand = (cards_label(hand, deck) if hand and (spoken() or own_names(deck))
                  else cards_text(hand, deck))
    grid.add_row(word("your hand"), shown_hand)
    return grid


QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "help", "h"})
YES_WORDS = frozenset({"y", "yes", "s", "si", "sì", "sí"})
"""The answers that confirm a question, in every language of the faces."""
WAIT_QUIET_SECONDS = 3.0
"""A wait for another seat shorter than this is not announced (automatic steps are quick)."""
WAIT_REMINDERS = (300.0, 60.0, 30.0, 10.0)
"""Seconds left at which a running wait is announced again."""


def clock(seconds: float) -> str:
    """``9:58`` for 598 seconds (rounded up, so 0:00 is never shown while time is left)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


class PersonUI:
    """The terminal of a person at one seat (see the module docstring).

    Besides the table and the numbered moves it says whose turn it is after every change, whom
    the table waits for and how long is left (told by the session's ``status`` hook), the
    announcements of :class:`~p2pcards.faces.announce.Announcer` (a scopa, a trick's winner, a
    declaration), the help of the game on ``?``, and asks before ``q`` leaves the match.
    """

    def __init__(self, genesis: Genesis, seat: int, lines: LineSource,
                 console: Console | None = None) -> None:
        self.genesis = genesis
        self.seat = seat
        self.lines = lines
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.names = SeatNames(genesis, seat)
        self.presenter = SeatPresenter(genesis, seat)
        self.announcer = Announcer(self.names.seat, self.names.side)
        self._legend_shown = False
        self._signals_shown = False
        self._begun: set[int] = set()
        self._to_move: tuple[int, ...] = ()
        self._waiting: tuple[int, ...] = ()
        self._wait_total: float | None = None
        self._wait_said: float | None = None
        self._queued: list[Action] = []
        self._sides_said = False

    def player(self) -> Player:
        return Player(self.decide, self.show, person=True, claim=self.claim, status=self.status)

    # ------------------------------------------------------------------ reading

    async def _read(self, prompt: str) -> str:
        """The next line typed after ``prompt``; ``?`` prints the help and asks again, ``q``
        asks for confirmation; end of input or a confirmed ``q`` raises :class:`PlayerQuit`."""
        while True:
            self.console.print(prompt, end="", markup=False)
            try:
                line = await self.lines.readline()
            except trio.Cancelled:  # the match went on or ended without an answer:
                self.console.print()  # what follows starts on a line of its own
                raise
            if line is None:
                self.console.print()
                raise PlayerQuit()
            word = line.strip().lower()
            if word in HELP_WORDS:
                self.print_help()
                continue
            if word in QUIT_WORDS:
                if await self._confirm_quit():
                    self.console.print(_("leaving the table"))
                    raise PlayerQuit()
                continue
            return line

    async def _confirm_quit(self) -> bool:
        """Ask before leaving; at a table with a dropout policy the others may go on without
        this seat (SPEC §11.7.6), elsewhere the match ends for everyone."""
        if self.genesis.shares_keys:
            question = _("leave the table? the others go on without you if the table's dropout "
                         "policy allows, and you cannot come back [y/N] ")
        else:
            question = _("leave the table? the match ends for everyone and cannot be resumed "
                         "[y/N] ")
        self.console.print(question, end="", markup=False)
        try:
            answer = await self.lines.readline()
        except trio.Cancelled:
            self.console.print()
            raise
        if answer is None:
            self.console.print()
            return True
        return answer.strip().lower() in YES_WORDS

    def print_help(self) -> None:
        """The game's help (:func:`~p2pcards.faces.help.help_lines`)."""
        signals = bool(getattr(self.genesis.game_config(), "signals", False))
        for line in help_lines(self.genesis.game, signals=signals):
            self.console.print(line, markup=False)

    # ------------------------------------------------------------------ hooks

    async def claim(self, table: Table) -> Action | None:
        """Offer the out-of-turn claims open to this seat; Enter lets the window pass."""
        claims = table.claim_actions()
        self.console.print(_("you may claim out of turn:"))
        for number, action in enumerate(claims, 1):
            self.console.print(f"  {number:>2}. {move_text(action, table.engine.deck)}")
        while True:
            line = await self._read(_("your claim (number, Enter to let it pass, ? for help, "
                                      "q to leave): "))
            if not line.strip():
                return None
            choice = parse_choice(line, claims)
            if isinstance(choice, Action):
                return choice
            self.console.print(choice)

    def sides_line(self) -> str | None:
        """In a game of partnerships, who plays with whom, said before the first hand:
        ``sides: you + Carl [2] against Bob [1] + Dan [3]``; ``None`` in a game without
        sides."""
        if not self.names.partnerships:
            return None
        sides = self.names.side_list()
        mine = self.names.side_of[self.seat]
        others = [name for side, name in enumerate(sides) if side != mine]
        return _("sides: {mine} against {others}").format(
            mine=sides[mine], others=_(" and ").join(others))

    def show(self, table: Table, events: Sequence[Event]) -> None:
        deck = table.engine.deck
        if not self._sides_said:
            self._sides_said = True
            line = self.sides_line()
            if line is not None:
                self.console.print(line, markup=False)
        for event in events:
            if isinstance(event, ProposalDropped):
                self.console.print(_("another seat's move came first: yours was not played"))
                continue
            if isinstance(event, HandScored):
                names = self.names.side_list(len(event.result.points))
                self.console.print(result_table(event.result, names))
            text = (hand_heading(event, self._begun) if isinstance(event, HandStarted)
                    else describe_event(event, self.genesis, self.seat, deck))
            if text:
                self.console.print(text)
        for line in self.announcer.update(table.observation(), events):
            self.console.print(line, markup=False)
        self._say_turn(table)

    def _say_turn(self, table: Table) -> None:
        """``→ Bob [1] to play`` whenever the seats to move change and it is not this seat."""
        expected = table.expected
        to_move = (tuple(sorted(table.speakers))
                   if expected is not None and expected[1] == "action" and not table.finished
                   else ())
        if to_move != self._to_move:
            self._to_move = to_move
            if to_move and self.seat not in to_move:
                who = ", ".join(self.names.seat(s) for s in to_move)
                self.console.print(_("→ {who} to play").format(who=who), markup=False)

    def status(self, seats: tuple[int, ...], seconds_left: float | None) -> None:
        """Whom the table waits for: said once the wait has lasted a few seconds, then again at
        5 minutes, 1 minute, 30 and 10 seconds left (:data:`WAIT_REMINDERS`)."""
        if seats != self._waiting:
            self._waiting, self._wait_total, self._wait_said = seats, seconds_left, None
            return
        if not seats or seconds_left is None or self._wait_total is None:
            return
        who = ", ".join(self.names.seat(s) for s in seats)
        if self._wait_said is None:
            if self._wait_total - seconds_left >= WAIT_QUIET_SECONDS:
                self._wait_said = seconds_left
                self.console.print(_("waiting for {who}: {time} left before the timeout")
                                   .format(who=who, time=clock(seconds_left)), markup=False)
            return
        for mark in WAIT_REMINDERS:
            if seconds_left <= mark < self._wait_said:
                self._wait_said = seconds_left
                self.console.print(_("still waiting for {who}: {time} left").format(
                    who=who, time=clock(seconds_left)), markup=False)
                return

    async def decide(self, table: Table) -> Action:
        queued = self._next_queued(table)
        if queued is not None:
            return queued
        legal = self.draw_turn(table)
        while True:
            line = await self._read(_("your move (number or card, ? for help, q to leave): "))
            choice = parse_choice(line, legal)
            if isinstance(choice, Action):
                return choice
            meld = typed_meld(line)
            if meld is not None:
                steps = meld_steps(table.engine, meld)
                if steps is not None:
                    self._queued = steps[1:]
                    return steps[0]
                choice = _("{cards} is not a meld you can lay now: a set of one rank or a run "
                           "of one suit, from your hand").format(
                    cards=" ".join(c.code for c in meld))
            self.console.print(choice)

    def draw_turn(self, table: Table) -> list[Action]:
        """Print the screen of this seat's turn (the legend and the signals the first time,
        the table, the numbered moves) and return the legal moves in the order listed."""
        engine_legal = table.legal_actions()
        view = self.presenter.view(table)  # the moves in the order every face lists them
        legal = [engine_legal[move.index] for move in view.moves]
        spec = self.genesis.spec
        if not self._legend_shown:
            self._legend_shown = True
            self.console.print(word(spec.legend or SUIT_LEGEND), markup=False)
            self.console.print(_("type ? for the moves and card values of this game"))
        if not self._signals_shown and any(
                a.kind == "play" and a.value in SIGNAL_VALUES for a in legal):
            self._signals_shown = True
            for line in signal_lines():
                self.console.print(line, markup=False)
        title = _("{game} — hand {number} — your turn").format(game=self.genesis.game,
                                                               number=view.hand_number)
        deck = table.engine.deck
        observation = presented(self.genesis.game, table.observation(), self.names)
        self.console.print(state_table(observation, title, spec.screen, deck, self.names,
                                       self.genesis.game))
        for move in move_lines(legal, deck):
            self.console.print(move, markup=False)
        return legal

    def _next_queued(self, table: Table) -> Action | None:
        """The next step of a long meld typed in one line (:mod:`.typed_melds`), while it is
        still a legal move; otherwise the rest of the steps is dropped."""
        if not self._queued:
            return None
        step = self._queued.pop(0)
        if step in table.legal_actions():
            return step
        self._queued.clear()
        return None


class BotLog:
    """Plain progress lines for a seat played by a bot: hands begun and scored, a dropout and
    its recovery, the end of the match."""

    def __init__(self, genesis: Genesis, seat: int,
                 write: Callable[[str], None] | None = None) -> None:
        self.genesis = genesis
        self.seat = seat
        self.write = write or (lambda text: print(text, flush=True))
        self._begun: set[int] = set()

    def show(self, table: Table, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, HandStarted):
                self.write(hand_heading(event, self._begun))
            elif isinstance(event, HandScored | MatchEnded | SeatDropped | KeyRebuilt
                            | BotSeated):
                text = describe_event(event, self.genesis, None, table.engine.deck)
                if text:
                    self.write(text)
