"""A recorded match as frames the page steps through (``p2pcards show TRANSCRIPT --web``).

:class:`ReplayRecorder` is the ``on_events`` hook of :func:`p2pcards.verify.replay_transcript`:
after every envelope that changed what a person sees (a deal, a move, a hand's result) it takes a
frame, the public :class:`~p2pcards.faces.view.SeatView` of an observer. Once a deck's keys are
revealed (the audit at the end of its hand) every seat's cards are known, and each frame of that
deck also gets ``hands``: what each seat held at that moment (the cards dealt to it so far, less
those it played). Before the audit, or when a deck is never revealed, ``hands`` stays empty: the
replay never shows more than the transcript proves.

:class:`ReplayPage` is the page for the server: it pushes one ``replay`` message with every frame,
the transcript's path and the verifier's verdict; the page steps through them by itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from ...cards import Card
from ...games.base import Zone
from ...seating.genesis import Genesis
from ...table import (
    ActionPlayed,
    CardsRevealed,
    Event,
    HandScored,
    MatchEnded,
    Table,
    revealed_cards,
)
from ..view import SeatPresenter
from .server import Visitors, json_text

__all__ = ["ReplayRecorder", "ReplayPage", "REPLAY_LOG_LINES"]

REPLAY_LOG_LINES = 60
"""How many of the latest log sentences each frame carries."""


@dataclass
class _Deck:
    """What one deck cycle dealt and what was played from the hands, in order."""

    dealt: list[tuple[int, int]] = field(default_factory=list)  # (seat, deck position)
    played: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)  # (seat, codes)
    cards: list[Card] | None = None


class ReplayRecorder:
    """Collects the frames of a replay (see the module docstring)."""

    def __init__(self, genesis: Genesis) -> None:
        self.genesis = genesis
        self.presenter = SeatPresenter(genesis, None)
        self.frames: list[dict[str, Any]] = []
        self._where: list[tuple[int, int, int]] = []  # per frame: cycle, dealt, played so far
        self._decks: dict[int, _Deck] = {}
        self._cycles: dict[int, Any] = {}
        self._batches: dict[int, int] = {}

    def on_events(self, table: Table, index: int, events: Sequence[Event]) -> None:
        """The hook for :func:`~p2pcards.verify.replay_transcript`."""
        cycle = table.cycle
        for number, known in list(self._cycles.items()):  # a finished deck may be revealed now
            deck = self._decks[number]
            if deck.cards is None:
                deck.cards = revealed_cards(table, known)
        if cycle is not None:
            self._cycles[cycle.number] = cycle
            deck = self._decks.setdefault(cycle.number, _Deck())
        shown = False
        for event in events:
            if isinstance(event, CardsRevealed) and cycle is not None:
                batch = self._batches.get(cycle.number, 0)
                self._batches[cycle.number] = batch + 1
                positions = cycle.chance_positions[batch]
                for step, position in zip(event.steps, positions, strict=True):
                    if step.zone is Zone.HAND and step.seat is not None:
                        deck.dealt.append((step.seat, position))
                shown = True
            elif isinstance(event, ActionPlayed) and cycle is not None:
                codes = [c.code for c in (event.action.card, *event.action.cards)
                         if c is not None]
                deck.played.append((event.seat, tuple(codes)))
                shown = True
            elif isinstance(event, HandScored | MatchEnded):
                shown = True
        self.presenter.update(events, table.engine.deck)
        if cycle is not None and self._decks[cycle.number].cards is None:
            self._decks[cycle.number].cards = revealed_cards(table, cycle)
        if shown:
            number = cycle.number if cycle is not None else -1
            deck = self._decks.get(number, _Deck())
            view = self.presenter.view(table).to_json()
            view["log"] = view["log"][-REPLAY_LOG_LINES:]
            self.frames.append({"index": index, "view": view, "hands": {}})
            self._where.append((number, len(deck.dealt), len(deck.played)))

    def finish(self) -> list[dict[str, Any]]:
        """The frames, each with the hands its deck's audit revealed."""
        for frame, (number, dealt, played) in zip(self.frames, self._where, strict=True):
            deck = self._decks.get(number)
            if deck is None or deck.cards is None:
                continue
            hands: dict[int, list[str]] = {s: [] for s in range(len(self.genesis.seats))}
            for seat, position in deck.dealt[:dealt]:
                hands[seat].append(deck.cards[position].code)
            for seat, codes in deck.played[:played]:
                for code in codes:
                    if code in hands[seat]:
                        hands[seat].remove(code)
            frame["hands"] = {str(s): cards for s, cards in hands.items()}
        return self.frames


class ReplayPage(Visitors):
    """The page of a recorded match: one ``replay`` message with every frame."""

    def __init__(self, frames: list[dict[str, Any]], path: str, status: str,
                 verdict: str) -> None:
        self.message = json_text({"type": "replay", "frames": frames, "path": path,
                                  "status": status, "verdict": verdict})
        super().__init__()

    def subscribe(self) -> trio.MemoryReceiveChannel[str]:
        send, receive = trio.open_memory_channel[str](math.inf)
        send.send_nowait(self.message)
        self.opened()
        return receive

    def handle(self, text: str) -> str | None:
        return json_text({"type": "error",
                          "message": "this is a recorded match: there is nothing to play"})
