"""The page of one seat: what its WebSocket pushes and what it accepts back.

:class:`SeatPage` is both the seat's :class:`~p2pcards.net.player.Player` (its ``decide``,
``show``, ``claim`` and ``status`` hooks) and the :class:`~p2pcards.faces.web.server.Page` the
server hands each WebSocket to. Every message it pushes is built from the seat's
:class:`~p2pcards.faces.view.SeatView` (the seat's own observation and the public events, so
nothing another seat holds ever reaches the page) and is one JSON object with a ``type``:

- ``seating``: the table is not seated yet (``text`` says what is going on);
- ``view``: ``view`` is :meth:`SeatView.to_json`, ``prompt`` is ``null`` or what the seat is
  asked now (``{"kind": "move" | "claim", "seconds": left, "claims": [...]}``);
- ``status``: whom the table waits for (``waiting_for``, ``names``, ``seconds_left``);
- ``end``: the transcript's ``path`` and the verifier's ``status`` and ``verdict``;
- ``links``: how this peer is connected, ``links`` a list with one ``connection:`` line per link
  (its ``text`` in the person's language and the fields of ``--json``'s ``connection`` event),
  the latest of each link; a later change replaces that link's line;
- ``notice``: ``text``, the peer's latest other notice (seating, a rematch answer awaited...);
- ``series``: the tally after each match of a series (``text``, and the fields of ``--json``'s
  ``series`` event: ``played``, ``sides``, ``wins``, ``points``), kept on the page while the
  next match is played;
- ``again``: ``open`` is whether the page is asked to play again now.
- ``error``: ``message``, one sentence, the answer to a bad message from the page.

The page sends back ``{"type": "move", "index": N}`` (``N`` is the move's index in
``table.legal_actions()``, :attr:`MoveChoice.index`), ``{"type": "claim", "index": N}`` (an
index into ``table.claim_actions()``, or ``null`` to let the claim window pass) or, when asked,
``{"type": "again", "answer": true | false}`` (play another match, or not).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import trio

from ...games.base import Action
from ...net.notices import ConnectionFacts, SeriesFacts, facts_of
from ...net.player import Player
from ...seating.genesis import Genesis
from ...table import Event, Table
from ..view import SeatPresenter
from ..wording import move_text
from .server import Visitors, json_text

__all__ = ["SeatPage", "claim_choices"]


@dataclass
class _Prompt:
    kind: str
    count: int
    answers: trio.MemorySendChannel[int | None]
    deadline: float | None


def claim_choices(claims: Sequence[Action], table: Table) -> list[dict[str, Any]]:
    """The out-of-turn claims as the page lists them (``index`` into ``claims``)."""
    deck = table.engine.deck
    return [{"index": i, "text": move_text(a, deck), "kind": a.kind,
             "card": a.card.code if a.card is not None else None,
             "cards": [c.code for c in a.cards]} for i, a in enumerate(claims)]


class SeatPage(Visitors):
    """The page of one local seat (see the module docstring).

    ``write`` is told each new log sentence (the terminal keeps printing the log); ``clock``
    gives the current time in seconds (Trio's clock by default) for the seat's own countdown.
    """

    def __init__(self, write: Callable[[str], None] | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__()
        self.write = write
        self.clock = clock or trio.current_time
        self.genesis: Genesis | None = None
        self.seat: int | None = None
        self.presenter: SeatPresenter | None = None
        self.table: Table | None = None
        self.pushed: list[str] = []  # every text pushed, kept only when ``record`` is set
        self.record = False
        self._subscribers: list[trio.MemorySendChannel[str]] = []
        self._view: dict[str, Any] | None = None
        self._prompt: _Prompt | None = None
        self._claims: list[dict[str, Any]] = []
        self._status: dict[str, Any] | None = None
        self._end: dict[str, Any] | None = None
        self._seating = "waiting for the table to be seated"
        self._logged = 0
        self._links: dict[int | None, dict[str, Any]] = {}
        self._notice: str | None = None
        self._series: dict[str, Any] | None = None
        self._again: trio.MemorySendChannel[bool] | None = None

    # ------------------------------------------------------------------ the seat

    def attach(self, genesis: Genesis, seat: int) -> Player:
        """Seat the page at ``seat`` of ``genesis``; returns the seat's player."""
        self.genesis, self.seat = genesis, seat
        self.presenter = SeatPresenter(genesis, seat)
        self._prompt, self._status, self._end = None, None, None  # a new match of a series
        return Player(self.decide, self.show, person=True, claim=self.claim,
                      status=self.status)

    def seating(self, text: str) -> None:
        """Say what happens before the table is seated (an invite printed, seats filling)."""
        self._seating = text
        if self.presenter is None:
            self._push(self._seating_message())

    def notice(self, text: str) -> None:
        """A notice of the peer: a ``connection:`` line becomes its link's line in the page's
        status line (``links``); any other sentence is the page's latest ``notice``."""
        facts = facts_of(text)
        if isinstance(facts, ConnectionFacts):
            self._links[facts.seat] = {"text": str(text), **facts.event()}
            self._push(self._links_message())
            return
        if isinstance(facts, SeriesFacts):
            self._series = {"type": "series", "text": str(text), **facts.event()}
            self._push(json_text(self._series))
            return
        self._notice = str(text)
        self._push(json_text({"type": "notice", "text": self._notice}))

    def _links_message(self) -> str:
        return json_text({"type": "links", "links": list(self._links.values())})

    def show(self, table: Table, events: Sequence[Event]) -> None:
        """Fold ``events`` into the view and push it."""
        assert self.presenter is not None
        self.table = table
        self.presenter.update(events, table.engine.deck, table.observation())
        self._write_log()
        self._view = self.presenter.view(table).to_json()
        self._push(self._view_message())

    def status(self, seats: tuple[int, ...], seconds_left: float | None) -> None:
        """Whom the table waits for, pushed as a small ``status`` message."""
        if self.presenter is None:
            return
        self.presenter.waiting(seats, seconds_left)
        names = [self.presenter.seat_name(s) for s in seats]
        self._status = {"type": "status", "waiting_for": list(seats), "names": names,
                        "seconds_left": seconds_left}
        self._push(json_text(self._status))

    async def decide(self, table: Table) -> Action:
        """Wait for the page to click one of ``table.legal_actions()``."""
        legal = table.legal_actions()
        index = await self._ask(table, "move", len(legal))
        assert index is not None
        return legal[index]

    async def claim(self, table: Table) -> Action | None:
        """Offer the out-of-turn claims; the page clicks one or lets the window pass."""
        claims = table.claim_actions()
        self._claims = claim_choices(claims, table)
        try:
            index = await self._ask(table, "claim", len(claims))
        finally:
            self._claims = []
        return None if index is None else claims[index]

    async def _ask(self, table: Table, kind: str, count: int) -> int | None:
        assert self.genesis is not None and self.presenter is not None
        send, receive = trio.open_memory_channel[int | None](math.inf)
        limit = self.genesis.timeouts.get("action")
        deadline = self.clock() + limit if limit else None
        self._prompt = _Prompt(kind, count, send, deadline)
        self.table = table
        self._view = self.presenter.view(table).to_json()
        self._push(self._view_message())
        try:
            return await receive.receive()
        finally:
            self._prompt = None
            self._push(self._view_message())

    async def again(self, table: Table) -> bool:
        """Ask the page whether to play another match (its "play again" and "no thanks"
        buttons); the answer it clicks."""
        send, receive = trio.open_memory_channel[bool](1)
        self._again = send
        self._push(self._again_message())
        try:
            return await receive.receive()
        finally:
            self._again = None
            self._push(self._again_message())

    def _again_message(self) -> str:
        return json_text({"type": "again", "open": self._again is not None})

    def finish(self, path: str | None, status: str, verdict: str) -> None:
        """The match is over (or stopped): the transcript's path and the verifier's verdict."""
        self._end = {"type": "end", "path": path, "status": status, "verdict": verdict}
        self._push(json_text(self._end))

    def _write_log(self) -> None:
        assert self.presenter is not None
        log = self.presenter.log
        if self._logged > len(log):  # the oldest lines were dropped
            self._logged = len(log)
        if self.write is not None:
            for line in log[self._logged:]:
                self.write(line)
        self._logged = len(log)

    # ------------------------------------------------------------------ messages

    def _seating_message(self) -> str:
        return json_text({"type": "seating", "text": self._seating})

    def _view_message(self) -> str:
        prompt: dict[str, Any] | None = None
        if self._prompt is not None:
            left = (None if self._prompt.deadline is None
                    else max(0.0, self._prompt.deadline - self.clock()))
            prompt = {"kind": self._prompt.kind, "seconds": left, "claims": self._claims}
        return json_text({"type": "view", "view": self._view, "prompt": prompt})

    def _current(self) -> list[str]:
        texts = self._standing()
        if self._view is None:
            texts.append(self._seating_message())
        else:
            texts.append(self._view_message())
            if self._status is not None:
                texts.append(json_text(self._status))
        if self._end is not None:
            texts.append(json_text(self._end))
        return texts

    def _standing(self) -> list[str]:
        """What stays on the page from one match to the next: the links and latest notice."""
        texts = [self._links_message()] if self._links else []
        if self._notice is not None:
            texts.append(json_text({"type": "notice", "text": self._notice}))
        if self._series is not None:
            texts.append(json_text(self._series))
        if self._again is not None:
            texts.append(self._again_message())
        return texts

    def _push(self, text: str) -> None:
        if self.record:
            self.pushed.append(text)
        for channel in list(self._subscribers):
            try:
                channel.send_nowait(text)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._subscribers.remove(channel)

    # ------------------------------------------------------------------ the server's side

    def subscribe(self) -> trio.MemoryReceiveChannel[str]:
        """A new WebSocket: the current state first, then every change."""
        send, receive = trio.open_memory_channel[str](math.inf)
        for text in self._current():
            send.send_nowait(text)
        self._subscribers.append(send)
        self.opened()
        return receive

    def handle(self, text: str) -> str | None:
        """One message from the page; the answer is an ``error`` message or ``None``."""
        problem = self._accept(text)
        return None if problem is None else json_text({"type": "error", "message": problem})

    def _accept(self, text: str) -> str | None:
        try:
            message = json.loads(text)
        except ValueError:
            return "that message is not JSON"
        if isinstance(message, dict) and message.get("type") == "again":
            return self._answer_again(message.get("answer"))
        if not isinstance(message, dict) or message.get("type") not in ("move", "claim"):
            return 'a message from the page must be {"type": "move" or "claim", "index": N}'
        prompt = self._prompt
        kind = message["type"]
        if prompt is None or prompt.kind != kind:
            return f"no {kind} is asked of this seat now"
        index = message.get("index")
        if index is None and kind == "claim":
            prompt.answers.send_nowait(None)
            self._prompt = None
            return None
        if isinstance(index, bool) or not isinstance(index, int):
            return f"the {kind} must be given by its index, a whole number"
        if not 0 <= index < prompt.count:
            return (f"{kind} {index} is not one of the {prompt.count} possible now "
                    f"(0 to {prompt.count - 1})")
        prompt.answers.send_nowait(index)
        self._prompt = None
        return None

    def _answer_again(self, answer: object) -> str | None:
        """The page's answer to "play again?"; a sentence when none is asked or it is not
        a yes or a no."""
        if self._again is None:
            return "no one asks this seat to play again now"
        if not isinstance(answer, bool):
            return 'the answer to "play again?" must be true or false'
        self._again.send_nowait(answer)
        self._again = None
        return None
