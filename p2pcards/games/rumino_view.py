"""What one seat of a Rumino match sees, as plain data: the observation that faces, bots and
the PettingZoo environment read.

Built from the public queries of a match only (:class:`RuminoView`, which
:class:`~p2pcards.games.rumino.RuminoMatch` implements), so it shows nothing the seat may not
see: its own cards with the best split of them into melds and deadwood, the sizes of the other
hands, the upcard and the discard pile, the scores, the stake and the pool, a rumino once shown.
Rule text: the Rumino part of ``italian-card-games.txt`` ("Game play": melds kept in the hand,
the deadwood count; "Ending the game": the pool and the rebuys); ``protocol/games/rumino.md``
is normative.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..cards import Card
from .base import Phase
from .rumino_config import RuminoConfig, rebuy_price
from .rumino_melds import Split, rumino_kind

__all__ = ["RuminoView", "observation", "shown_rumino"]


class RuminoView(Protocol):
    """The queries of a Rumino match an observation is built from."""

    config: RuminoConfig

    @property
    def phase(self) -> Phase: ...
    @property
    def to_act(self) -> int: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def dealer(self) -> int: ...
    @property
    def playing(self) -> tuple[int, ...]: ...
    @property
    def in_game(self) -> tuple[bool, ...]: ...
    @property
    def drawn(self) -> bool: ...
    @property
    def upcard(self) -> Card | None: ...
    @property
    def discards(self) -> tuple[Card, ...]: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def paid(self) -> tuple[int, ...]: ...
    @property
    def pool(self) -> int: ...
    @property
    def rebuys(self) -> tuple[int, ...]: ...
    @property
    def payout(self) -> tuple[int, ...]: ...
    @property
    def offering(self) -> bool: ...
    @property
    def knocker(self) -> int | None: ...
    @property
    def rumino_seat(self) -> int | None: ...
    @property
    def rumino_cards(self) -> tuple[Card, ...]: ...
    @property
    def rumino_claimed(self) -> bool: ...
    @property
    def hand_sizes(self) -> list[int]: ...
    def hand(self, seat: int) -> tuple[Card | None, ...]: ...
    def split(self, seat: int) -> Split | None: ...
    def claimants(self) -> frozenset[int]: ...


def observation(match: RuminoView, seat: int) -> dict[str, Any]:
    """What ``seat`` sees, as plain data (card codes as text).

    Keys: ``game``, ``seat``, ``players``, ``phase``, ``hand_number``, ``dealer``,
    ``playing`` (seats dealt in, in playing order), ``in_game`` (1 per seat in the game, 0
    per seat out), ``out`` (the seats out of the game), ``to_act`` (``None``
    outside ACTION), ``drawn`` (``to_act`` has drawn this turn), ``hand`` (own cards, known
    ones), ``hand_sizes``, ``melds``, ``melds_text`` (``"7D1 7H1 7S1 | 8C1 9C1 TC1"``) and
    ``deadwood`` (own best split, when the hand is known), ``upcard``, ``discards`` (bottom
    first), ``stock_size``, ``claimants``, ``scores``, ``stake``, ``paid``, ``pool``,
    ``rebuys``, ``rebuy_price`` (the price offered to ``seat`` now, else ``None``),
    ``rumino`` (``{"seat", "cards", "kind", "claimed"}`` once shown), ``knocker``,
    ``payout``, ``winner``.
    """
    n = match.config.players
    own = match.hand(seat)
    known = [c for c in own if c is not None]
    melds: list[list[str]] = []
    dead: int | None = None
    split = match.split(seat) if own else None
    if split is not None:
        melds = [[c.code for c in m] for m in split.melds]
        dead = split.deadwood
    offered = (match.phase is Phase.ACTION and match.offering
               and match.to_act == seat)
    upcard = match.upcard
    in_game = match.in_game
    return {
        "game": "rumino",
        "seat": seat,
        "players": n,
        "phase": match.phase.value,
        "hand_number": match.hand_number,
        "dealer": match.dealer,
        "playing": list(match.playing),
        "in_game": [int(x) for x in in_game],
        "out": [s for s in range(n) if not in_game[s]],
        "to_act": match.to_act if match.phase is Phase.ACTION else None,
        "drawn": match.drawn,
        "hand": [c.code for c in known],
        "hand_sizes": match.hand_sizes,
        "melds": melds,
        "melds_text": " | ".join(" ".join(m) for m in melds) or None,
        "deadwood": dead,
        "upcard": upcard.code if upcard is not None else None,
        "discards": [c.code for c in match.discards],
        "stock_size": match.stock_size,
        "claimants": sorted(match.claimants()),
        "scores": list(match.scores),
        "stake": match.config.stake,
        "paid": list(match.paid),
        "pool": match.pool,
        "rebuys": list(match.rebuys),
        "rebuy_price": rebuy_price(match.config.stake, match.rebuys[seat]) if offered
        else None,
        "rumino": shown_rumino(match.rumino_seat, match.rumino_cards, match.rumino_claimed),
        "knocker": match.knocker,
        "payout": list(match.payout),
        "winner": match.winner,
    }


def shown_rumino(seat: int | None, cards: Sequence[Card],
                 claimed: bool) -> dict[str, Any] | None:
    """The ``rumino`` entry of an observation: ``None`` until a seat shows one."""
    if seat is None:
        return None
    return {"seat": seat, "cards": [c.code for c in cards], "kind": rumino_kind(cards),
            "claimed": claimed}
