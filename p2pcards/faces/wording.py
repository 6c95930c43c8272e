"""How cards, actions and events read on a person's screen (terminal and web page alike) and in
``p2pcards show``.

Codes (``KD``) are the same for every deck; a deck whose card names differ from the Italian ones
the codes spell (the Spanish deck of Tute: ``KD`` is the Rey de Oros) gets the names printed beside
the codes. One wording of a move (:func:`move_text`), of an event (:func:`describe_event`) and of
an observation's values (:func:`cards_text`), shared by every face. Pure text functions; no I/O.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, Deck, card_name, deck_family, name_cards
from ..games.base import ALL_SEATS, Action, Zone
from ..seating.genesis import Genesis
from ..table import (
    ActionPlayed,
    BotSeated,
    CardsRevealed,
    Event,
    HandScored,
    HandStarted,
    KeyRebuilt,
    MatchEnded,
    SeatDropped,
)
from .announce import STAR, starred
from .names import SeatNames

__all__ = ["SIGNAL_VALUES", "action_text", "cards_text", "describe_event", "hand_heading",
           "move_text", "own_names"]


def own_names(deck: Deck | None) -> bool:
    """Whether cards of ``deck`` are named beside their codes: the decks whose names differ from
    the Italian ones the codes spell (the Spanish deck)."""
    return deck is not None and deck_family(deck) == "spanish"


def action_text(action: Action, deck: Deck | None = None) -> str:
    """An action as typed (``declare [KD QD] veinte``), followed for a deck with its own names by
    the names of its cards (``(Rey de Oros, Caballo de Oros)``)."""
    named: list[Card] = [c for c in (action.card, *action.cards) if c is not None]
    if not own_names(deck) or not named:
        return str(action)
    return f"{action} ({', '.join(card_name(c, deck) for c in named)})"


SIGNAL_VALUES = frozenset({"best", "count", "two", "one", "none"})
"""The signals a Tresette play may carry (:attr:`Action.value` of a ``play``)."""


def move_text(action: Action, deck: Deck | None = None) -> str:
    """An action as a person reads it: :func:`action_text`, except that a play carrying a
    Tresette signal reads ``play AS (signal: best)`` (``count 3`` with its number)."""
    if action.kind == "play" and action.value in SIGNAL_VALUES and action.card is not None:
        signal = f"{action.value} {action.amount}" if action.value == "count" else action.value
        plain = Action("play", card=action.card)
        return f"{action_text(plain, deck)} (signal: {signal})"
    return action_text(action, deck)


def hand_heading(event: HandStarted, begun: set[int]) -> str:
    """The line that opens a shuffle: ``— hand N begins`` the first time, and for a further
    shuffle within the same hand (a banking game's draw for the bank, a redeal) a line that
    says so; ``begun`` remembers the hands already opened."""
    if event.hand in begun:
        return f"— the cards are shuffled again (hand {event.hand + 1})"
    begun.add(event.hand)
    return f"— hand {event.hand + 1} begins"


def _dropout_text(event: SeatDropped | KeyRebuilt | BotSeated, name: str, mine: bool) -> str:
    """The line about a dropout (SPEC §9.13), for the dropped seat itself (``mine``: it came
    back or was only slow) or for the others, who see it named ``name``."""
    who, whose, owner = ("you", "your", "your") if mine else (name, "its", f"{name}'s")
    if isinstance(event, SeatDropped):
        return (f"{who} stopped answering; the others publish their shares of {whose} hand "
                "key")
    if isinstance(event, KeyRebuilt):
        checked = " and the hand is checked with every card known" if event.audited else ""
        return f"{owner} hand key is rebuilt from the others' shares{checked}"
    if mine:
        return ("you are played by the bot from now on, your cards shown to everyone; you may "
                "watch the match to its end")
    return f"{name} is played by the bot from now on; its cards are shown to everyone"


def describe_event(event: Event, genesis: Genesis, me: int | None,
                   deck: Deck | None = None) -> str | None:
    """One line about ``event`` for the person at seat ``me`` (``None``: nothing to say); cards of
    a ``deck`` with its own names (:func:`own_names`) are named beside their codes."""
    names = SeatNames(genesis, me)
    if isinstance(event, HandStarted):
        return f"— hand {event.hand + 1} begins"
    if isinstance(event, ActionPlayed):
        star = f"{STAR} " if starred(event) else ""
        return f"{star}{names.seat(event.seat)}: {move_text(event.action, deck)}"
    if isinstance(event, CardsRevealed):
        groups: dict[str, list[str]] = {}
        for step, seen in zip(event.steps, event.cards, strict=True):
            if seen is None:
                continue
            if step.zone is Zone.HAND and step.seat == me:
                label = "you receive"
            elif step.zone is Zone.TABLE and step.seat is not None:
                label = f"in front of {names.seat(step.seat)}"
            elif step.zone is Zone.TABLE:
                label = "on the table"
            elif step.zone is Zone.TRUMP:
                label = "trump"
            elif step.zone is Zone.HAND and step.visible_to == ALL_SEATS:
                label = f"shown to all, to {names.seat(step.seat)}"
            else:
                label = f"shown ({step.zone.value})"
            groups.setdefault(label, []).append(seen.code)
        if own_names(deck):
            return "; ".join(f"{label}: {name_cards(codes, deck)}"
                             for label, codes in groups.items()) or None
        return "; ".join(f"{label}: {' '.join(codes)}" for label, codes in groups.items()) or None
    if isinstance(event, HandScored):
        sides = names.side_list(len(event.result.points))
        points = ", ".join(f"{n} {p}" for n, p in zip(sides, event.result.points, strict=True))
        match = "-".join(str(s) for s in event.match_scores)
        return f"hand {event.hand + 1} scored: {points} (match {match})"
    if isinstance(event, SeatDropped | KeyRebuilt | BotSeated):
        return _dropout_text(event, names.seat(event.seat), event.seat == me)
    if isinstance(event, MatchEnded):
        match = "-".join(str(s) for s in event.match_scores)
        gave_up = ("" if event.forfeit is None
                   else f"{names.seat(event.forfeit)} forfeits by dropping out; ")
        if event.winner is None:
            return f"match over: {gave_up}no winner ({match})" if gave_up else \
                f"match over: a draw ({match})"
        sides = names.side_list(len(event.match_scores))
        return f"match over: {gave_up}{sides[event.winner]} won ({match})"
    return None


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
