"""Helpers of the language tests: a pseudo catalog that marks every translated text, and a
person's whole terminal screen rendered along a real match (real tables, real crypto, bots
deciding for the others).

The pseudo catalog (:func:`pseudo_translations`) is made from the template the source's marked
texts are extracted into: each translation is its English text with every ASCII letter turned
into its full-width form, ``{placeholders}`` and backquoted typed text left as they are. A screen
rendered with it shows no plain ASCII word except what may stay as it is in every language
(:func:`untranslated_words`): card codes, typed text between backquotes, the seats' names and
the game's name. Any other plain word on screen is a text that does not go through the catalogs.
"""

from __future__ import annotations

import functools
import io
import random
import re
import sys
from collections.abc import Callable, Iterator
from gettext import GNUTranslations
from pathlib import Path

import trio
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from rich.console import Console

from p2pcards.bots.base import make_bot
from p2pcards.faces.terminal import LineSource, PersonUI, move_labels, result_table
from p2pcards.faces.wording import describe_event
from p2pcards.games import get_game
from p2pcards.games.base import HandResult
from p2pcards.offline.memory import make_tables
from p2pcards.offline.simulate import play_hand
from p2pcards.seating.genesis import Genesis
from p2pcards.table import BotSeated, KeyRebuilt, MatchEnded, SeatDropped, Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import catalogs  # noqa: E402

FULL_WIDTH = {c: chr(ord(c) - 0x21 + 0xFF01) for c in
              "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"}
_KEPT = re.compile(r"(\{[^}]*\}|`[^`]*`)")


def pseudo(text: str) -> str:
    """``text`` with its letters full-width, placeholders and backquoted text kept."""
    return "".join(part if _KEPT.fullmatch(part) else "".join(FULL_WIDTH.get(c, c) for c in part)
                   for part in _KEPT.split(text))


def pseudo_translations() -> GNUTranslations:
    """The pseudo catalog of every text of the template (see the module docstring)."""
    template = catalogs.extract()
    marked = Catalog(locale="it")
    for message in template:
        if message.id:
            marked.add(message.id, pseudo(str(message.id)), context=message.context)
    out = io.BytesIO()
    write_mo(out, marked)
    out.seek(0)
    return GNUTranslations(out)


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][DCSBH][12]?|X[1-4]|\?\?)(?![A-Za-z0-9])")
BACKQUOTED = re.compile(r"`[^`]*`")
PLAIN_WORD = re.compile(r"[A-Za-z]{2,}")


def untranslated_words(screen: str, game: str, seat_names: list[str]) -> list[str]:
    """The lines of ``screen`` that still show a plain ASCII word, each with its words."""
    found = []
    for line in screen.splitlines():
        rest = BACKQUOTED.sub(" ", line)
        for name in sorted(seat_names, key=len, reverse=True):
            rest = rest.replace(name, " ")
        rest = rest.replace(game, " ")
        rest = CARD_CODE.sub(" ", rest)
        words = PLAIN_WORD.findall(rest)
        if words:
            found.append(f"{line.strip()!r}: {' '.join(words)}")
    return found


class Answers(LineSource):
    """What the person types at each turn: ``?`` (the help), a word that is no move (an
    error), ``q`` then ``n`` (the confirmation, declined), then the bot's move by its label."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    async def readline(self) -> str | None:
        return self.lines.pop(0) if self.lines else None


FirstTurn = Callable[[Genesis, Table], None]
"""What :func:`play_and_render` calls at seat 0's first turn, before the person answers."""


def play_and_render(game: str, players: int, hands: int = 1, seed: int = 5,
                    budget: int = 12, at_first_turn: FirstTurn | None = None,
                    ) -> tuple[str, list[str]]:
    """A person's terminal at seat 0 along a real match of ``game``: every event shown, and at
    its first turns the whole exchange of :class:`Answers`; the other seats and the person's
    later moves are the game's bot. Stops after ``hands`` hands are scored or ``budget``
    decisions of seat 0. Then the lines a short run may not reach: the score breakdown of a
    whole hand (played by the engine alone, without the crypto), the dropout and end-of-match
    lines. Returns the screen and the seats' names. ``at_first_turn(genesis, table)`` runs at
    seat 0's first turn (with :func:`turn_screen`, say, to draw that turn in another
    language)."""
    spec = get_game(game)
    genesis, tables = make_tables(game, spec.default_preset, players, seed=seed)
    out = io.StringIO()
    answers = Answers()
    ui = PersonUI(genesis, 0, answers, Console(file=out, width=400, color_system=None))
    bots = [make_bot(game, "smart", seed=seed + i) for i in range(players)]
    names = [seat.name for seat in genesis.seats]
    first_turn = functools.partial(at_first_turn, genesis) if at_first_turn else None
    trio.run(_drive, ui, tables, bots, answers, hands, budget, first_turn)
    result = _engine_hand(game, players, seed)
    ui.console.print(result_table(result, ui.names.side_list(len(result.points))))
    for event in _rare_events(players):
        for me in (0, 1):
            line = describe_event(event, genesis, me)
            if line:
                out.write(line + "\n")
    ui.print_help()
    out.write((ui.sides_line() or "") + "\n")
    ui.status((1,), 600.0)
    ui.status((1,), 590.0)
    ui.status((1,), 50.0)
    return out.getvalue(), names


def _engine_hand(game: str, players: int, seed: int) -> HandResult:
    """The result of one whole hand of ``game`` played by its bots on the engine alone."""
    spec = get_game(game)
    state = spec.new_match(spec.preset(spec.default_preset, players=players))
    bots = [make_bot(game, "smart", seed=seed + i) for i in range(players)]
    result, _ = play_hand(state, bots, random.Random(seed))
    return result


def _rare_events(players: int) -> Iterator[object]:
    yield SeatDropped(seat=1, kind="timeout", by=0)
    yield KeyRebuilt(seat=1, audited=True)
    yield BotSeated(seat=1)
    yield MatchEnded(match_scores=tuple(range(players)), winner=1)
    yield MatchEnded(match_scores=tuple(range(players)), winner=None)
    yield MatchEnded(match_scores=tuple(range(players)), winner=None, forfeit=1)


def turn_screen(genesis: Genesis, table: Table) -> str:
    """The screen of seat 0's turn at ``table`` (the table and the numbered moves), as a
    person's terminal draws it in the current language."""
    out = io.StringIO()
    ui = PersonUI(genesis, 0, Answers(), Console(file=out, width=400, color_system=None))
    ui.draw_turn(table)
    return out.getvalue()


async def _drive(ui: PersonUI, tables: list, bots: list, answers: Answers, hands: int,
                 budget: int, first_turn: Callable[[Table], None] | None = None) -> None:
    from collections import deque

    from p2pcards.table import HandScored

    queue: deque[tuple[int, bytes]] = deque()
    scored = 0
    turns = 0

    def deliver(i: int, step: object) -> None:
        nonlocal scored
        if i == 0:
            ui.show(tables[0], step.events)  # type: ignore[attr-defined]
            scored += sum(isinstance(e, HandScored) for e in step.events)  # type: ignore[attr-defined]
        queue.extend((i, out) for out in step.outgoing)  # type: ignore[attr-defined]

    for i, table in enumerate(tables):
        deliver(i, table.start())
    while scored < hands and turns < budget and not tables[0].finished:
        if queue:
            sender, data = queue.popleft()
            for i, table in enumerate(tables):
                if i != sender:
                    deliver(i, table.receive(data))
            continue
        deciding = [i for i, t in enumerate(tables) if t.needs_decision]
        if not deciding:
            raise RuntimeError("no table can make progress")
        i = deciding[0]
        table = tables[i]
        action = bots[i].choose(table.observation(), table.legal_actions())
        if i == 0:
            turns += 1
            if turns == 1 and first_turn is not None:
                first_turn(table)
            view = ui.presenter.view(table)
            listed = [table.legal_actions()[move.index] for move in view.moves]
            label = move_labels(listed)[listed.index(action)]
            answers.lines = (["?", "0", "q", "n", label] if turns <= 2 else [label])
            action = await ui.decide(table)
        deliver(i, table.decide(action))
