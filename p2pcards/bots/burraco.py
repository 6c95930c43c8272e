"""A rule-of-thumb Burraco bot: it melds, grows melds toward a burraco, closes when it can and
discards the card least useful to itself and to the next opponent.

Habits, in order of preference:

1. close (discard the last card when that ends the hand with the closing bonus);
2. add a natural card to a meld, most of all one that makes a burraco (seven cards);
3. lay a new meld, natural cards before wild ones;
4. add a wild card only when it makes a burraco at once;
5. discard: never a wild card while another will do; not a card that fits an opponent's meld;
   keep pairs and near-runs; among equals, the highest card value (it would count against the
   side at the end).

In the draw stage it takes the discard pile when it holds three cards or more, or when its top
card fits one of the side's melds or makes a meld with two cards of the hand; otherwise it
draws from the stock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card, card
from ..games.base import Action
from ..games.burraco_melds import (
    Meld,
    MeldError,
    arrangements,
    check_extension,
    is_wild_card,
    read_meld,
    three_card_melds,
)
from ..games.burraco_scoring import card_value

__all__ = ["BurracoBot"]


def _melds(raw: Sequence[Sequence[str]]) -> list[Meld]:
    out = []
    for codes in raw:
        try:
            out.append(read_meld([card(c) for c in codes]))
        except MeldError:  # not expected from an honest observation
            continue
    return out


def _fits(c: Card, melds: Sequence[Meld]) -> bool:
    """Whether ``c`` alone can be added to one of ``melds``."""
    for old in melds:
        for grown in arrangements((*old.cards, c)):
            try:
                check_extension(old, grown.cards)
            except MeldError:
                continue
            return True
    return False


class BurracoBot:
    """Scores every legal action with the habits above and plays the best (seeded ties)."""

    name = "smart"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        context = _Context(observation)
        scored = [(context.score(a), i) for i, a in enumerate(legal)]
        best = max(s for s, _ in scored)
        ties = [legal[i] for s, i in scored if s == best]
        return ties[self._rng.randrange(len(ties))]


class _Context:
    def __init__(self, observation: Mapping[str, Any]) -> None:
        side = int(observation.get("side", 0))
        melds = observation.get("melds", [[], []])
        self.ours = _melds(melds[side])
        self.theirs = _melds(melds[1 - side])
        self.hand = [card(c) for c in observation.get("hand", [])]
        self.pile = [card(c) for c in observation.get("discard_pile", [])]
        self.pozzetto = bool(observation.get("pozzetto_taken", [False, False])[side])

    def score(self, action: Action) -> float:
        if action.kind == "draw":
            return 1.0
        if action.kind == "take":
            return 2.0 if self._pile_useful() else 0.0
        if action.kind == "add":
            return self._score_add(action)
        if action.kind == "meld":
            wild = any(is_wild_card(c) for c in action.cards) and not (
                len({c.suit for c in action.cards if not is_wild_card(c)}) == 1
                and any(c.rank == 2 for c in action.cards))
            return 60.0 - (25.0 if wild else 0.0) + sum(card_value(c) for c in action.cards) / 10
        assert action.card is not None
        return self._score_discard(action.card)

    def _pile_useful(self) -> bool:
        if len(self.pile) >= 3:
            return True
        if not self.pile:
            return False
        top = self.pile[-1]
        if len(self.pile) == 1 and is_wild_card(top):
            return True
        if _fits(top, self.ours):
            return True
        return any(top in m.cards for m in three_card_melds([*self.hand, top]))

    def _score_add(self, action: Action) -> float:
        index = action.amount - 1
        old = self.ours[index] if 0 <= index < len(self.ours) else None
        added = [c for c in action.cards if old is None or c not in old.cards]
        size = len(action.cards)
        burraco = 200.0 if size == 7 else 0.0
        if any(is_wild_card(c) for c in added):
            try:
                new = read_meld(action.cards)
            except MeldError:
                return -50.0
            if new.wild is not None and new.wild in added:
                return 10.0 + burraco if burraco else -20.0
        return 70.0 + burraco + size

    def _score_discard(self, c: Card) -> float:
        if len(self.hand) == 1:
            return 1000.0  # a legal discard of the last card: closing or the pozzetto
        useful = 0.0
        if is_wild_card(c):
            useful += 300.0
        if _fits(c, self.theirs):
            useful += 60.0
        if _fits(c, self.ours):
            useful += 40.0
        for other in self.hand:
            if other is c or is_wild_card(other):
                continue
            if other.rank == c.rank:
                useful += 12.0
            elif other.suit == c.suit and abs(other.rank - c.rank) <= 2:
                useful += 8.0
        return -useful + card_value(c) / 5
