"""How cards, actions and events read on a person's screen (terminal and web page alike) and in
``p2pcards show``.

In English, codes (``KD``) are shown, the same for every deck; a deck whose card names differ
from the Italian ones the codes spell (the Spanish deck of Tute: ``KD`` is the Rey de Oros) gets
the names printed beside the codes. In Italian and Spanish (:mod:`p2pcards.i18n`) cards are
named as people say them, from the catalogs: ``settebello``, ``Re di bastoni``, ``asso di
coppe``, ``sota de oros``, ``Donna di cuori``, ``Jolly``; moves read ``gioca settebello``.
Typing a code still picks a move. One wording of a move (:func:`move_text`), of an event
(:func:`describe_event`) and of an observation's values (:func:`cards_text`), shared by every
face. Pure text functions; no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from ..cards import BadCardCode, Card, Deck, card, card_name
from ..games.base import ALL_SEATS, Action, Zone
from ..i18n import _, pgettext
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
from .card_names import card_label, cards_label, own_names, spoken
from .game_words import word
from .names import SeatNames

__all__ = ["SIGNAL_VALUES", "action_text", "card_label", "cards_label", "cards_text",
           "describe_event", "hand_heading", "move_text", "own_names", "signal_word", "spoken"]


def _value_text(value: str, deck: Deck | None) -> str:
    """An action's value word as a person reads it: a card's name for a card code (a
    Ziginette bet on ``3C``), else the word from the catalogs."""
    try:
        return card_label(card(value), deck)
    except BadCardCode:
        return pgettext("move", value)


def _spoken_action(action: Action, deck: Deck | None) -> str:
    """An action in words: ``gioca settebello [4 di denari, 3 di denari]``."""
    parts = [pgettext("move", action.kind)]
    if action.card is not None:
        parts.append(card_label(action.card, deck))
    if action.cards:
        parts.append("[" + cards_label(action.cards, deck) + "]")
    if action.value:
        parts.append(_value_text(action.value, deck))
    if action.amount:
        parts.append(str(action.amount))
    return " ".join(parts)


def action_text(action: Action, deck: Deck | None = None) -> str:
    """An action as a person reads it. In English: as typed (``declare [KD QD] veinte``),
    followed for a deck with its own names by the names of its cards (``(Rey de Oros, Caballo
    de Oros)``). In Italian and Spanish: in words, cards by name (``gioca settebello``)."""
    if spoken():
        return _spoken_action(action, deck)
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
        plain = Action("play", card=action.card)
        return _("{move} (signal: {signal})").format(move=action_text(plain, deck),
                                                      signal=signal_word(action))
    return action_text(action, deck)


def signal_word(action: Action) -> str:
    """A Tresette signal's word (``best``, ``count 3``) as a person reads it."""
    value = pgettext("move", action.value) if spoken() else action.value
    return f"{value} {action.amount}" if action.value == "count" else value


def hand_heading(event: HandStarted, begun: set[int]) -> str:
    """The line that opens a shuffle: ``— hand N begins`` the first time, and for a further
    shuffle within the same hand (a banking game's draw for the bank, a redeal) a line that
    says so; ``begun`` remembers the hands already opened."""
    if event.hand in begun:
        return _("— the cards are shuffled again (hand {number})").format(
            number=event.hand + 1)
    begun.add(event.hand)
    return _("— hand {number} begins").format(number=event.hand + 1)


def _dropout_text(event: SeatDropped | KeyRebuilt | BotSeated, name: str, mine: bool) -> str:
    """The line about a dropout (SPEC §9.13), for the dropped seat itself (``mine``: it came
    back or was only slow) or for the others, who see it named ``name``."""
    if isinstance(event, SeatDropped):
        if mine:
            return _("you stopped answering; the others publish their shares of your hand key")
        return _("{name} stopped answering; the others publish their shares of its hand "
                 "key").format(name=name)
    if isinstance(event, KeyRebuilt):
        if mine:
            text = _("your hand key is rebuilt from the others' shares")
        else:
            text = _("{name}'s hand key is rebuilt from the others' shares").format(name=name)
        if event.audited:
            text += _(" and the hand is checked with every card known")
        return text
    if mine:
        return _("you are played by the bot from now on, your cards shown to everyone; you may "
                 "watch the match to its end")
    return _("{name} is played by the bot from now on; its cards are shown to everyone").format(
        name=name)


def _reveal_label(step: Any, me: int | None, names: SeatNames) -> str:
    """Where a revealed card goes, for the person at ``me``."""
    if step.zone is Zone.HAND and step.seat == me:
        return _("you receive")
    if step.zone is Zone.TABLE and step.seat is not None:
        return _("in front of {name}").format(name=names.seat(step.seat))
    if step.zone is Zone.TABLE:
        return _("on the table")
    if step.zone is Zone.TRUMP:
        return word("trump")
    if step.zone is Zone.HAND and step.visible_to == ALL_SEATS:
        return _("shown to all, to {name}").format(name=names.seat(step.seat))
    return _("shown ({zone})").format(zone=word(step.zone.value))


def _match_over(event: MatchEnded, names: SeatNames) -> str:
    """The line that ends a match: who won, a draw, or a forfeit, with the match score."""
    match = "-".join(str(s) for s in event.match_scores)
    gave_up = ("" if event.forfeit is None
               else _("{name} forfeits by dropping out; ").format(
                   name=names.seat(event.forfeit)))
    if event.winner is None:
        if gave_up:
            return _("match over: {forfeit}no winner ({match})").format(forfeit=gave_up,
                                                                        match=match)
        return _("match over: a draw ({match})").format(match=match)
    sides = names.side_list(len(event.match_scores))
    return _("match over: {forfeit}{winner} won ({match})").format(
        forfeit=gave_up, winner=sides[event.winner], match=match)


def describe_event(event: Event, genesis: Genesis, me: int | None,
                   deck: Deck | None = None) -> str | None:
    """One line about ``event`` for the person at seat ``me`` (``None``: nothing to say); cards
    are shown as :func:`~p2pcards.faces.wording.cards_label` shows them (named in Italian and
    Spanish, and beside their codes for a deck with its own names)."""
    names = SeatNames(genesis, me)
    if isinstance(event, HandStarted):
        return _("— hand {number} begins").format(number=event.hand + 1)
    if isinstance(event, ActionPlayed):
        star = f"{STAR} " if starred(event) else ""
        return f"{star}{names.seat(event.seat)}: {move_text(event.action, deck)}"
    if isinstance(event, CardsRevealed):
        groups: dict[str, list[str]] = {}
        for step, seen in zip(event.steps, event.cards, strict=True):
            if seen is not None:
                groups.setdefault(_reveal_label(step, me, names), []).append(seen.code)
        return "; ".join(f"{label}: {cards_label(codes, deck)}"
                         for label, codes in groups.items()) or None
    if isinstance(event, HandScored):
        sides = names.side_list(len(event.result.points))
        points = ", ".join(f"{n} {p}" for n, p in zip(sides, event.result.points, strict=True))
        match = "-".join(str(s) for s in event.match_scores)
        return _("hand {number} scored: {points} (match {match})").format(
            number=event.hand + 1, points=points, match=match)
    if isinstance(event, SeatDropped | KeyRebuilt | BotSeated):
        return _dropout_text(event, names.seat(event.seat), event.seat == me)
    if isinstance(event, MatchEnded):
        return _match_over(event, names)
    return None


def cards_text(value: Any, deck: Deck | None = None) -> str:
    """A value of an observation as a person reads it: cards (by
    :func:`~p2pcards.faces.wording.card_label`), (seat, card) pairs, a trick with its winner, a
    per-seat mapping, or an engine's word (:func:`~p2pcards.faces.game_words.word`)."""
    if value and isinstance(value, list) and all(isinstance(v, dict) and "kind" in v
                                                 for v in value):
        return "  ".join(_declaration_text(v, deck) for v in value)
    if isinstance(value, list):
        if value and all(isinstance(v, list) and len(v) == 2 for v in value):
            return "  ".join(f"{card_label(c, deck)} ({s})" for s, c in value)
        if value and all(isinstance(v, dict) and "card" in v for v in value):
            return "  ".join(f"{card_label(v['card'], deck)} ({v.get('seat')})" for v in value)
        if not spoken():
            return " ".join(str(v) for v in value) or "—"
        return cards_label([str(v) for v in value], deck) or "—"
    if isinstance(value, dict) and "kind" in value and "cards" in value:
        return _declaration_text(value, deck)
    if isinstance(value, dict) and "cards" in value:
        return cards_text(value["cards"], deck) + "  → " + _("seat {seat}").format(
            seat=value.get("winner"))
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        return ", ".join(_("seat {seat}").format(seat=k) + f": {word(v)}"
                         for k, v in value.items()) or "—"
    if isinstance(value, str):
        return _words_or_cards(value, deck)
    return "—" if value is None else str(value)


def _declaration_text(declared: dict[str, Any], deck: Deck | None) -> str:
    """A declaration of the observation (Tute's ``{seat, kind, cards}``) as a person reads
    it: ``seat 2: cantar las cuarenta (rey de bastos, caballo de bastos)``."""
    kind = str(declared.get("kind", ""))
    words = pgettext("move", kind) if spoken() else kind
    cards = cards_label([str(c) for c in declared.get("cards", [])], deck)
    return _("seat {seat}").format(seat=declared.get("seat")) + f": {words} ({cards})"


LIMITS = re.compile(r"(\d+) to (\d+)")
"""The banking games' limits as their observation writes them (``2 to 12``)."""


def _words_or_cards(text: str, deck: Deck | None) -> str:
    """A text value: an engine's word translated (``bidding``), else each card code in it
    named (``3H1 3S1 X3``); anything else as it is."""
    try:
        return card_label(card(text), deck)
    except BadCardCode:
        pass
    limits = LIMITS.fullmatch(text)
    if limits:
        return _("{low} to {high}").format(low=limits[1], high=limits[2])
    translated = word(text)
    if translated != text or not spoken():
        return translated
    text = re.sub(r"\(([a-z][^)]*)\)", lambda m: f"({word(m[1])})", text)
    return " ".join(card_label(part, deck) if part[:1].isalnum() else part
                    for part in text.split(" "))
