"""How a face writes a game's own observation keys for one person, in the style of every game.

The engines' observations carry seats by number (the bank, the chips and bets of the banking
games as ``[1] 100``, Calabrasella's dealer, declarer, bids and answers) and Seven and a Half's
totals in half-points (15), which is what the protocol and the verifier count in. A person reads
names and 7½: :func:`presented` rewrites those keys of an observation with the seats' names
(:class:`~p2pcards.faces.names.SeatNames`: ``you``, ``Bob [1]``) and the totals as points and a
half; :func:`result_row` does the same for a row of a hand's score breakdown. Every other key,
and every other game's observation, is returned as it is. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..i18n import _
from .card_names import cards_label
from .game_words import word
from .names import SeatNames

__all__ = ["BANKING_GAMES", "points_and_a_half", "presented", "result_row"]

BANKING_GAMES = frozenset({"sette-e-mezzo", "ziginette"})
HALF_POINTS_CATEGORY = "total (half-points)"
"""Seven and a Half's score line of the best totals, counted in half-points by the engine."""


def points_and_a_half(half_points: int) -> str:
    """A total in half-points as a person says it: ``7½`` for 15, ``½`` for 1, ``4`` for 8."""
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def presented(game: str, observation: dict[str, Any], names: SeatNames) -> dict[str, Any]:
    """``observation`` with the game's own texts written for a person (a new dict; the same
    one for a game that has none)."""
    if game == "calabrasella":
        return {**observation, **_calabrasella_texts(observation, names)}
    if game not in BANKING_GAMES:
        return observation
    shown = dict(observation)
    banker = observation.get("banker")
    if isinstance(banker, int):
        shown["bank"] = names.plain(banker)
    balances = observation.get("balances")
    if isinstance(balances, list):
        shown["chips"] = _per_seat(names, enumerate(balances))
    if game == "sette-e-mezzo":
        shown.update(_sette_texts(observation, names))
    else:
        shown.update(_ziginette_texts(observation, names))
    return shown


def _per_seat(names: SeatNames, values: Any) -> str:
    return " · ".join(f"{names.plain(int(seat))} {value}" for seat, value in values) or "—"


def _sette_texts(observation: dict[str, Any], names: SeatNames) -> dict[str, Any]:
    """Bets, the table (each dealt seat's cards, bet and status) and the own total."""
    out: dict[str, Any] = {}
    bets = observation.get("bets")
    if isinstance(bets, list):
        out["bets_text"] = _per_seat(names, ((s, b) for s, b in enumerate(bets) if b))
    cards, status = observation.get("cards"), observation.get("status")
    if isinstance(cards, list) and isinstance(status, dict) and isinstance(bets, list):
        rows = []
        for seat_text, state in status.items():
            seat = int(seat_text)
            role = (word("bank") if seat == observation.get("banker")
                    else _("bet {amount}").format(amount=bets[seat] if seat < len(bets) else 0))
            rows.append(f"{names.plain(seat)}: {cards_label(cards[seat])} ({role}, "
                        f"{word(state)})")
        out["table_text"] = "   ".join(rows) or "—"
    total = observation.get("total")
    if isinstance(total, int):
        out["total"] = points_and_a_half(total)
    return out


def _ziginette_texts(observation: dict[str, Any], names: SeatNames) -> dict[str, Any]:
    """The board with each card's bets by name."""
    board = observation.get("board")
    if not isinstance(board, list):
        return {}
    texts = []
    for spot in board:
        bets = spot.get("bets", {}) if isinstance(spot, dict) else {}
        named = _per_seat(names, sorted((int(s), a) for s, a in bets.items())) if bets else ""
        spot_name = cards_label([str(spot.get("card"))])
        texts.append(f"{spot_name}: " + (named or _("no bets")))
    shown = {"board_text": "   ".join(texts) or "—"}
    event = observation.get("event")
    if isinstance(event, str):
        shown["event"] = ziginette_event(event)
    return shown


def _named(code: str) -> str:
    return cards_label([code])


_ZIGINETTE_EVENTS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"hand over: (.+); the banker deals again or passes the bank"),
     lambda m: _("hand over: {why}; the banker deals again or passes the bank").format(
         why=word(m[1]))),
    (re.compile(r"playette \((.*)\): the cards are shuffled and dealt again"),
     lambda m: _("playette ({cards}): the cards are shuffled and dealt again").format(
         cards=cards_label(m[1].split()))),
    (re.compile(r"(\S+) matches the banker's card: the bank pays every bet"),
     lambda m: _("{card} matches the banker's card: the bank pays every bet").format(
         card=_named(m[1]))),
    (re.compile(r"(\S+) matches (\S+): the bank collects its bets"),
     lambda m: _("{card} matches {board}: the bank collects its bets").format(
         card=_named(m[1]), board=_named(m[2]))),
    (re.compile(r"(\S+) is dead"), lambda m: _("{card} is dead").format(card=_named(m[1]))),
    (re.compile(r"(\S+) is a new board card"),
     lambda m: _("{card} is a new board card").format(card=_named(m[1]))),
)


def ziginette_event(text: str) -> str:
    """Ziginette's last event (an engine's sentence, ``5S is a new board card``) in the
    language in use, its cards named; a sentence of no known form is returned as it is."""
    for pattern, say in _ZIGINETTE_EVENTS:
        found = pattern.fullmatch(text)
        if found:
            return say(found)
    return text


def _calabrasella_texts(observation: dict[str, Any], names: SeatNames) -> dict[str, Any]:
    """The dealer and the declarer by name, the bids and answers as ``name: word``, the two
    piles' card points with whose they are."""
    out: dict[str, Any] = {}
    for key in ("dealer", "declarer"):
        if isinstance(observation.get(key), int):
            out[key] = names.plain(observation[key])
    for key in ("bids", "answers"):
        said = observation.get(key)
        if isinstance(said, dict):
            out[key] = " · ".join(f"{names.plain(int(seat))}: {word(said_word)}"
                                  for seat, said_word in sorted(said.items(),
                                                                key=lambda i: int(i[0])))
    piles = observation.get("piles")
    if isinstance(piles, list) and len(piles) == 2:
        out["piles"] = _("declarer {declarer} · defenders {defenders}").format(
            declarer=piles[0], defenders=piles[1])
    return out


def result_row(category: str, values: Sequence[object]) -> tuple[str, list[str]]:
    """A score-breakdown row's category and values as a person reads them: Seven and a Half's
    half-point totals become ``total`` with values like ``7½``; ``-`` where a value is
    missing."""
    if category == HALF_POINTS_CATEGORY:
        return "total", ["-" if not isinstance(v, int) else points_and_a_half(v)
                         for v in values]
    return category, ["-" if v is None else str(v) for v in values]
