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
from typing import Any, NamedTuple, Protocol

from ..cards import Card
from .base import Phase
from .rumino_config import RuminoConfig, rebuy_price
from .rumino_melds import Split, rumino_kind

__all__ = [
    "HandFacts",
    "RuminoView",
    "facts_template",
    "hand_facts",
    "observation",
    "observed",
    "seat_observation",
    "shown_rumino",
]


_PHASE_VALUES: dict[Phase, str] = {phase: phase.value for phase in Phase}
"""Each phase's value, read without the enum's property."""


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
    def discard_codes(self) -> list[str]: ...
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
    def hand_codes(self, seat: int) -> list[str]: ...
    def split(self, seat: int) -> Split | None: ...
    def claimants(self) -> frozenset[int]: ...


class HandFacts(NamedTuple):
    """The parts of every seat's observation that change only between hands, when a hand ends
    and with a rebuy (see :func:`hand_facts`)."""

    players: int
    hand_number: int
    dealer: int
    playing: tuple[int, ...]
    in_game: tuple[int, ...]
    out: tuple[int, ...]
    scores: tuple[int, ...]
    stake: int
    paid: tuple[int, ...]
    pool: int
    rebuys: tuple[int, ...]
    rumino_seat: int | None
    rumino_cards: tuple[Card, ...]
    rumino_claimed: bool
    knocker: int | None
    payout: tuple[int, ...]
    winner: int | None


def hand_facts(match: RuminoView) -> HandFacts:
    """The :class:`HandFacts` of ``match`` now. A match may keep them until a hand is dealt or
    ends, a rebuy is answered or the match ends (nothing else changes them)."""
    n = match.config.players
    in_game = match.in_game
    return HandFacts(
        players=n, hand_number=match.hand_number, dealer=match.dealer,
        playing=tuple(match.playing), in_game=tuple([int(x) for x in in_game]),
        out=tuple([s for s in range(n) if not in_game[s]]), scores=match.scores,
        stake=match.config.stake, paid=match.paid, pool=match.pool, rebuys=match.rebuys,
        rumino_seat=match.rumino_seat, rumino_cards=tuple(match.rumino_cards),
        rumino_claimed=match.rumino_claimed, knocker=match.knocker, payout=match.payout,
        winner=match.winner)


def observation(match: RuminoView, seat: int, facts: HandFacts | None = None) -> dict[str, Any]:
    """What ``seat`` sees, as plain data (card codes as text); ``facts`` are the match's
    :func:`hand_facts` when it keeps them (else they are read afresh).

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
    if facts is None:
        facts = hand_facts(match)
    return observed(match, seat, facts, facts_template(facts))


def facts_template(facts: HandFacts) -> dict[str, Any]:
    """Every key of an observation in order, holding the values of ``facts`` that are not
    lists (the others are filled by :func:`observed`). A match may keep it with ``facts``; it
    is only ever copied, never handed out."""
    return {
        "game": "rumino", "seat": None, "players": facts.players, "phase": None,
        "hand_number": facts.hand_number, "dealer": facts.dealer, "playing": None,
        "in_game": None, "out": None, "to_act": None, "drawn": None, "hand": None,
        "hand_sizes": None, "melds": None, "melds_text": None, "deadwood": None,
        "upcard": None, "discards": None, "stock_size": None, "claimants": None,
        "scores": None, "stake": facts.stake, "paid": None, "pool": facts.pool, "rebuys": None,
        "rebuy_price": None, "rumino": None, "knocker": facts.knocker, "payout": None,
        "winner": facts.winner,
    }


def observed(match: RuminoView, seat: int, facts: HandFacts,
             template: dict[str, Any]) -> dict[str, Any]:
    """:func:`observation` of ``seat`` from the match's ``facts`` and their
    :func:`facts_template`: a copy of the template with fresh lists and this state's parts."""
    obs = template.copy()
    obs["seat"] = seat
    phase = match.phase
    obs["phase"] = _PHASE_VALUES[phase]
    obs["playing"] = list(facts.playing)
    obs["in_game"] = list(facts.in_game)
    obs["out"] = list(facts.out)
    acting = phase is Phase.ACTION
    to_act = match.to_act
    if acting:
        obs["to_act"] = to_act
    obs["drawn"] = match.drawn
    own = match.hand_codes(seat)
    obs["hand"] = own
    obs["hand_sizes"] = match.hand_sizes
    split = match.split(seat) if own else None
    if split is None:
        obs["melds"] = []
    else:
        melds = [[c.code for c in m] for m in split.melds]
        obs["melds"] = melds
        if melds:
            obs["melds_text"] = " | ".join([" ".join(m) for m in melds])
        obs["deadwood"] = split.deadwood
    discards = match.discard_codes
    if discards:
        obs["upcard"] = discards[-1]
    obs["discards"] = discards
    obs["stock_size"] = match.stock_size
    obs["claimants"] = sorted(match.claimants())
    obs["scores"] = list(facts.scores)
    obs["paid"] = list(facts.paid)
    rebuys = facts.rebuys
    obs["rebuys"] = list(rebuys)
    if acting and match.offering and to_act == seat:
        obs["rebuy_price"] = rebuy_price(facts.stake, rebuys[seat])
    if facts.rumino_seat is not None:
        obs["rumino"] = shown_rumino(facts.rumino_seat, facts.rumino_cards,
                                     facts.rumino_claimed)
    obs["payout"] = list(facts.payout)
    return obs


def seat_observation(seat: int, facts: HandFacts, template: dict[str, Any], *, phase: Phase,
                     to_act: int, drawn: bool, own: list[str], split: Split | None,
                     hand_sizes: list[int], discards: list[str], stock_size: int,
                     claimants: frozenset[int], offering: bool) -> dict[str, Any]:
    """:func:`observed`, from the parts of the state a match hands over at once instead of
    asking its queries one by one: ``own`` is a fresh list of the codes of ``seat``'s known
    cards and ``split`` their best split (``None`` when ``own`` is empty or the hand is not
    all known), ``hand_sizes`` and ``discards`` fresh lists, the rest as the queries of
    :class:`RuminoView` give them. Equal to :func:`observed` key for key, value for value."""
    obs = template.copy()
    obs["seat"] = seat
    obs["phase"] = _PHASE_VALUES[phase]
    obs["playing"] = [*facts.playing]
    obs["in_game"] = [*facts.in_game]
    obs["out"] = [*facts.out]
    acting = phase is Phase.ACTION
    if acting:
        obs["to_act"] = to_act
    obs["drawn"] = drawn
    obs["hand"] = own
    obs["hand_sizes"] = hand_sizes
    if split is None:
        obs["melds"] = []
    else:
        melds = [[c.code for c in meld] for meld in split.melds]
        obs["melds"] = melds
        if melds:
            obs["melds_text"] = " | ".join([" ".join(meld) for meld in melds])
        obs["deadwood"] = split.deadwood
    if discards:
        obs["upcard"] = discards[-1]
    obs["discards"] = discards
    obs["stock_size"] = stock_size
    obs["claimants"] = sorted(claimants)
    obs["scores"] = [*facts.scores]
    obs["paid"] = [*facts.paid]
    rebuys = facts.rebuys
    obs["rebuys"] = [*rebuys]
    if acting and offering and to_act == seat:
        obs["rebuy_price"] = rebuy_price(facts.stake, rebuys[seat])
    if facts.rumino_seat is not None:
        obs["rumino"] = shown_rumino(facts.rumino_seat, facts.rumino_cards,
                                     facts.rumino_claimed)
    obs["payout"] = [*facts.payout]
    return obs


def shown_rumino(seat: int | None, cards: Sequence[Card],
                 claimed: bool) -> dict[str, Any] | None:
    """The ``rumino`` entry of an observation: ``None`` until a seat shows one."""
    if seat is None:
        return None
    return {"seat": seat, "cards": [c.code for c in cards], "kind": rumino_kind(cards),
            "claimed": claimed}
