"""Rumino's end of a hand: how it ended, what each player adds to its score, and whether the
match is over, who won it and how the pool is paid out.

Pure functions over the cards in the hands and the running scores; :class:`~p2pcards.games.
rumino.RuminoMatch` calls them when a hand is over. Rule text: the Rumino part of
``italian-card-games.txt``, sections "Going out" (knock, gin, deadwood added to the scores,
the rumino) and "Ending the game" (out at 100, the last player under 100 takes the pool);
``protocol/games/rumino.md`` is normative:

- after a rumino nobody scores, and its holder wins the match at once;
- after a knock, or when the stock runs out, every player of the hand adds the deadwood of its
  best split (with ``exhausted="void"`` an exhausted stock scores nothing); a knocker with no
  deadwood goes gin: -10 instead of 0;
- the match is over when at most one player in the game stays under 100: the last one wins;
  when nobody does, the lowest score wins, a tie for it is a drawn match; the pool goes to the
  winner, split equally on a draw (any remainder to the lowest seats first).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from ..cards import Card
from .base import ScoreLine, UnknownHand
from .rumino_melds import best_split

__all__ = [
    "ELIMINATION",
    "GIN_POINTS",
    "HandEnd",
    "deadwoods",
    "hand_points",
    "match_outcome",
]

GIN_POINTS = -10
"""What a knocker with no deadwood scores."""
ELIMINATION = 100
"""A player at this score or more is out of the game."""


class HandEnd(enum.Enum):
    """How a hand of Rumino ended."""

    KNOCK = "knock"
    RUMINO = "rumino"
    EXHAUSTED = "exhausted"


def deadwoods(hands: Sequence[Sequence[Card | None]],
              playing: Sequence[int]) -> list[int | None]:
    """Each seat's deadwood in this hand (``None`` for seats not dealt in); needs every hand
    of the hand known (the full-information replay)."""
    out: list[int | None] = [None] * len(hands)
    for s in playing:
        hand = hands[s]
        if None in hand:
            raise UnknownHand(f"seat {s}'s hand is not known in this view, so the hand "
                              "cannot be scored")
        out[s] = best_split([c for c in hand if c is not None]).deadwood
    return out


def hand_points(end: HandEnd | None, hands: Sequence[Sequence[Card | None]],
                playing: Sequence[int], *, rumino_seat: int | None, knocker: int | None,
                exhausted: str) -> tuple[list[int], list[ScoreLine]]:
    """What each seat adds to its score for a hand that ended as ``end``, with the lines that
    explain it (``rumino``; or ``knock`` / ``stock exhausted``, ``deadwood`` and after a knock
    ``gin``). ``exhausted`` is the variant's flag of that name."""
    n = len(hands)
    zeros = (0,) * n
    lines: list[ScoreLine] = []
    if end is HandEnd.RUMINO:
        assert rumino_seat is not None
        marks = tuple(1 if s == rumino_seat else None for s in range(n))
        lines.append(ScoreLine("rumino", marks, zeros))
        return [0] * n, lines
    dead = deadwoods(hands, playing)
    scoring = not (end is HandEnd.EXHAUSTED and exhausted == "void")
    gin_seat: int | None = None
    if end is HandEnd.KNOCK:
        assert knocker is not None
        marks = tuple(1 if s == knocker else None for s in range(n))
        lines.append(ScoreLine("knock", marks, zeros))
        if dead[knocker] == 0:
            gin_seat = knocker
    else:
        marks = tuple(1 if s in playing else None for s in range(n))
        lines.append(ScoreLine("stock exhausted", marks, zeros))
    added = tuple(0 if not scoring or d is None or s == gin_seat else d
                  for s, d in enumerate(dead))
    lines.append(ScoreLine("deadwood", tuple(dead), added))
    gin_points = tuple(GIN_POINTS if s == gin_seat else 0 for s in range(n))
    if end is HandEnd.KNOCK:
        gin = tuple(1 if s == gin_seat else None for s in range(n))
        lines.append(ScoreLine("gin", gin, gin_points))
    points = [a + g for a, g in zip(added, gin_points, strict=True)]
    return points, lines


def match_outcome(end: HandEnd | None, points: Sequence[int], *, rumino_seat: int | None,
                  scores: Sequence[int], in_game: Sequence[bool],
                  paid: Sequence[int]) -> tuple[bool, int | None, list[int]]:
    """(match over, winner, payout) once ``points`` are added to ``scores`` after a hand that
    ended as ``end``: ``rumino_seat`` is the seat that showed the rumino, ``in_game`` the seats
    still in the game, ``paid`` what each seat paid into the pool."""
    n = len(scores)
    if end is HandEnd.RUMINO:
        assert rumino_seat is not None
        winners = [rumino_seat]
    else:
        after = [scores[s] + points[s] for s in range(n)]
        live = [s for s in range(n) if in_game[s] and after[s] < ELIMINATION]
        if len(live) >= 2:
            return False, None, [0] * n
        if len(live) == 1:
            winners = live
        else:
            playing = [s for s in range(n) if in_game[s]]
            low = min(after[s] for s in playing)
            winners = [s for s in playing if after[s] == low]
    payout = [0] * n
    pool = sum(paid)
    share, extra = divmod(pool, len(winners))
    for i, s in enumerate(sorted(winners)):
        payout[s] = share + (1 if i < extra else 0)
    return True, winners[0] if len(winners) == 1 else None, payout
