"""The score of a Calabrasella hand: each side's points, the lines of the hand result and the
chips paid.

Pure functions over the two piles (the declarer's, the defenders' shared one), the winner of
the last trick and the set-aside cards; :class:`~p2pcards.games.calabrasella.CalabrasellaMatch`
calls them when the twelfth trick is closed. Rule text: the Calabrasella part of
``italian-card-games.txt``, section "Play of the hand" (the scoring cards, the last trick,
the declarer's total against the defenders' joint total, each defender paying or paid the
difference, doubled at 35-0). The set-aside cards score for nobody or, with
``set_aside="last-trick"``, for the side that wins the last trick.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from .base import HandResult, ScoreLine, UnknownHand
from .calabrasella_config import CalabrasellaConfig
from .calabrasella_rules import LAST_TRICK_BONUS, card_points, chip_deltas, settle

__all__ = ["score_hand", "side_totals"]


def side_totals(config: CalabrasellaConfig, piles: Sequence[Sequence[Card]],
                declarer: int | None, last_winner: int | None,
                aside: Sequence[Card | None]) -> tuple[int, int]:
    """The declarer's and the defenders' points so far (card points, the last trick and, with
    ``set_aside="last-trick"`` at the hand's end, the set-aside cards ``aside``).
    :class:`UnknownHand` when the set-aside cards count but are not all known in this view."""
    totals = [card_points(piles[0]), card_points(piles[1])]
    if last_winner is not None:
        side = 0 if last_winner == declarer else 1
        totals[side] += LAST_TRICK_BONUS
        if config.set_aside == "last-trick":
            if None in aside:
                raise UnknownHand("the discards are not known in this view, so the hand "
                                  "cannot be scored before the audit")
            totals[side] += card_points(c for c in aside if c is not None)
    return totals[0], totals[1]


def score_hand(config: CalabrasellaConfig, piles: Sequence[Sequence[Card]], declarer: int,
               winner: int, aside: Sequence[Card | None], chips: Sequence[int]) -> HandResult:
    """The hand result once ``winner`` took the last trick: ``card points``, ``last trick``,
    (``set aside``), ``hand total``, ``chips`` (points = chips won or paid) and ``balance``
    (the ``chips`` balances after paying)."""
    n = len(chips)
    dec_total, def_total = side_totals(config, piles, declarer, winner, aside)

    def per_seat(for_declarer: int, for_defenders: int) -> tuple[int, ...]:
        return tuple(for_declarer if s == declarer else for_defenders for s in range(n))

    zeros = (0,) * n
    last_side_declarer = winner == declarer
    bonus = (LAST_TRICK_BONUS if last_side_declarer else 0,
             0 if last_side_declarer else LAST_TRICK_BONUS)
    lines = [
        ScoreLine("card points", per_seat(card_points(piles[0]),
                                          card_points(piles[1])), zeros),
        ScoreLine("last trick", per_seat(*bonus), zeros),
    ]
    if config.set_aside == "last-trick":
        points_aside = card_points(c for c in aside if c is not None)
        lines.append(ScoreLine("set aside", per_seat(points_aside if last_side_declarer else 0,
                                                     0 if last_side_declarer else points_aside),
                               zeros))
    lines.append(ScoreLine("hand total", per_seat(dec_total, def_total), zeros))
    deltas = chip_deltas(declarer, n, dec_total, def_total, config.double)
    after = settle(chips, deltas)
    lines.append(ScoreLine("chips", deltas, deltas))
    lines.append(ScoreLine("balance", after, zeros))
    return HandResult(tuple(lines), deltas)
