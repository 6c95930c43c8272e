"""Scoring of a Scopa hand: the categories, the tie rules and the match target.

Pure functions over the cards each side captured; :mod:`p2pcards.games.scopa` calls
:func:`score_hand` when a hand is over. The rules (see ``docs/games/scopa.md``):

- **cards**: most cards captured; **denari**: most Denari (or, with ``denari_needs_six``, 6 or
  more of the 10 Denari); **settebello**: the 7 of Denari; **primiera**: highest sum of the best
  card of each suit (7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, J/Q/K=10); **scope**: one point
  each; **napola** (flag): A-2-3 of Denari and the run of Denari that follows, one point per card
  of the run (3 to 10); **rebello** (flag): the King of Denari.
- A "most" category goes to the unique best side. Several sides tied for the best: with
  ``ties="each"`` each of them gets the point, with ``ties="none"`` nobody does. A side whose
  value is 0 (or, for primiera, that is not eligible) never gets the point.
- With ``stop_at_target`` the awards are added to the match score one by one in the order cards,
  denari, settebello, primiera, each scopa in the order it was made, napola, rebello; counting stops
  at the first award after which one side alone leads with at least ``target`` points. The hand's
  points (and each line's points) are then the points actually counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card
from .base import HandResult, ScoreLine
from .scopa_config import ScopaConfig

__all__ = [
    "PRIMIERA_VALUES",
    "award_best",
    "leader_at_target",
    "napola_run",
    "nominal_lines",
    "primiera",
    "score_hand",
]

PRIMIERA_VALUES: dict[int, int] = {
    7: 21,
    6: 18,
    1: 16,
    5: 15,
    4: 14,
    3: 13,
    2: 12,
    8: 10,
    9: 10,
    10: 10,
}
"""Primiera value of each rank (1 = Asso, 8/9/10 = Fante/Cavallo/Re)."""

SUITS = ("D", "C", "S", "B")
SETTEBELLO = Card(7, "D")
REBELLO = Card(10, "D")


def primiera(captured: Iterable[Card], needs_all_suits: bool) -> int | None:
    """The primiera total of a pile: the sum over suits of the best primiera value held in that
    suit. A suit the pile lacks adds 0, or, when ``needs_all_suits``, makes the pile ineligible
    (``None``)."""
    best = dict.fromkeys(SUITS, 0)
    for c in captured:
        value = PRIMIERA_VALUES[c.rank]
        if value > best[c.suit]:
            best[c.suit] = value
    if needs_all_suits and not all(best.values()):
        return None
    return sum(best.values())


def napola_run(captured: Iterable[Card]) -> int:
    """Length of the run of Denari from the Asso (A, 2, 3, 4, ...) in a pile, or 0 when the pile
    lacks any of A, 2, 3 of Denari (no napola). Ranges over 0 and 3..10."""
    ranks = {c.rank for c in captured if c.suit == "D"}
    run = 0
    while run + 1 in ranks:
        run += 1
    return run if run >= 3 else 0


def award_best(values: Sequence[int | None], ties: str) -> tuple[int, ...]:
    """One point to the side with the strictly highest value; when several sides share the highest
    value, a point to each of them (``ties="each"``) or to none (``ties="none"``). ``None`` (not
    eligible) and 0 never earn the point."""
    present = [v for v in values if v is not None]
    top = max(present, default=0)
    if top <= 0:
        return tuple(0 for _ in values)
    best = [v == top for v in values]
    if sum(best) > 1 and ties == "none":
        return tuple(0 for _ in values)
    return tuple(int(b) for b in best)


def leader_at_target(scores: Sequence[int], target: int) -> int | None:
    """The side that wins the match with these scores: the one side with the highest score, if
    that score reaches ``target``; ``None`` when nobody reached it or the top is shared."""
    top = max(scores)
    if top < target or scores.count(top) > 1:
        return None
    return scores.index(top)


def _denari_line(piles: Sequence[Sequence[Card]], config: ScopaConfig) -> ScoreLine:
    counts = tuple(sum(1 for c in pile if c.suit == "D") for pile in piles)
    if config.denari_needs_six:
        points = tuple(int(n >= 6) for n in counts)
    else:
        points = award_best(counts, config.ties)
    return ScoreLine("denari", counts, points)


def _holder_line(category: str, piles: Sequence[Sequence[Card]], wanted: Card) -> ScoreLine:
    held = tuple(int(wanted in pile) for pile in piles)
    return ScoreLine(category, held, held)


def nominal_lines(
    piles: Sequence[Sequence[Card]], scope: Sequence[int], config: ScopaConfig
) -> tuple[ScoreLine, ...]:
    """Every category line with the points it is worth, before any stop at the target.
    ``piles[side]`` is what the side captured, ``scope[side]`` how many scope it made."""
    counts = tuple(len(pile) for pile in piles)
    prim = tuple(primiera(pile, config.primiera_needs_all_suits) for pile in piles)
    lines = [
        ScoreLine("cards", counts, award_best(counts, config.ties)),
        _denari_line(piles, config),
        _holder_line("settebello", piles, SETTEBELLO),
        ScoreLine("primiera", prim, award_best(prim, config.ties)),
        ScoreLine("scope", tuple(scope), tuple(scope)),
    ]
    if config.napola:
        runs = tuple(napola_run(pile) for pile in piles)
        lines.append(ScoreLine("napola", runs, runs))
    if config.rebello:
        lines.append(_holder_line("rebello", piles, REBELLO))
    return tuple(lines)


def score_hand(
    piles: Sequence[Sequence[Card]],
    scope_log: Sequence[int],
    match_scores: Sequence[int],
    config: ScopaConfig,
) -> HandResult:
    """The :class:`HandResult` of a finished hand.

    ``piles[side]`` are the cards each side captured (leftovers included), ``scope_log`` the side
    of each scopa in the order they were made, ``match_scores`` the scores before this hand (used
    only with ``stop_at_target``).
    """
    sides = len(piles)
    scope = [0] * sides
    for side in scope_log:
        scope[side] += 1
    lines = nominal_lines(piles, scope, config)
    if not config.stop_at_target:
        totals = tuple(sum(ln.points[s] for ln in lines) for s in range(sides))
        return HandResult(lines, totals)
    return _counted_until_target(lines, scope_log, match_scores, config.target)


def _counted_until_target(
    lines: tuple[ScoreLine, ...],
    scope_log: Sequence[int],
    match_scores: Sequence[int],
    target: int,
) -> HandResult:
    """Add the awards one by one (each scopa separately, in order) and stop as soon as one side
    alone leads with ``target`` or more; lines keep their values but show the points counted."""
    sides = len(match_scores)
    running = list(match_scores)
    counted: list[list[int]] = [[0] * sides for _ in lines]
    awards: list[tuple[int, tuple[int, ...]]] = []
    for index, line in enumerate(lines):
        if line.category == "scope":
            awards.extend(
                (index, tuple(int(s == side) for s in range(sides))) for side in scope_log
            )
        elif any(line.points):
            awards.append((index, line.points))
    for index, points in awards:
        for side in range(sides):
            running[side] += points[side]
            counted[index][side] += points[side]
        if leader_at_target(running, target) is not None:
            break
    new_lines = tuple(
        ScoreLine(ln.category, ln.values, tuple(counted[i])) for i, ln in enumerate(lines)
    )
    totals = tuple(running[s] - match_scores[s] for s in range(sides))
    return HandResult(new_lines, totals)
