"""Helpers of the banking-game tests: drive an engine with chosen deck orders, and run a match with
one full-information engine plus one live view per seat (unseen cards as ``None``)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from p2pcards.bots.base import Bot
from p2pcards.cards import ITALIAN_40, Card, card
from p2pcards.games.base import Action, MatchState, Phase, Zone


class Dealer:
    """Feeds an engine: each SHUFFLE takes the next deck order (``decks``: card codes for the
    first positions; the rest of the deck follows in canonical order)."""

    def __init__(self, state: MatchState, decks: Iterable[Sequence[str]]) -> None:
        self.state = state
        self._decks = iter(decks)
        self.deck: list[Card] = []
        self.run()

    def _next_deck(self) -> list[Card]:
        head = [card(c) for c in next(self._decks)]
        assert len(set(head)) == len(head)
        return head + [c for c in ITALIAN_40.cards if c not in head]

    def run(self) -> None:
        """Fulfil chance steps and shuffles until an action (or the hand's end) is due."""
        state = self.state
        while state.phase in (Phase.SHUFFLE, Phase.CHANCE):
            if state.phase is Phase.SHUFFLE:
                self.deck = self._next_deck()
                state.begin_hand()
                continue
            cards: list[Card | None] = []
            for step in state.pending_chance():
                if step.zone is Zone.SHOW:
                    assert step.seat is not None
                    cards.append(card(state.observation(step.seat)["hand"][step.position]))
                else:
                    cards.append(self.deck[step.position])
            state.complete_chance(cards)

    def act(self, *actions: Action | str) -> None:
        """Apply actions (``"bet 10"`` text or :class:`Action`) in order, dealing as needed."""
        for a in actions:
            self.state.apply(parse(a) if isinstance(a, str) else a)
            self.run()


def parse(text: str) -> Action:
    """``"bet 10"``, ``"bet 3C 10"`` (Ziginette), ``"hit"``, ``"minimum 5"``."""
    parts = text.split()
    kind = parts[0]
    amount = int(parts[-1]) if len(parts) > 1 and parts[-1].isdigit() else 0
    value = parts[1] if len(parts) == 3 else ""
    return Action(kind, value=value, amount=amount)


def live_and_full(state: MatchState, bots: Sequence[Bot], seed: int,
                  max_steps: int = 20_000) -> list[dict[str, Any]]:
    """Play ``state`` to its end with full information while one live view per seat receives
    only what that seat may see. After every step each seat's observation in its live view must
    equal its observation in the full engine, and the legal actions of the seat to act must
    agree and be sorted; every hand's result must agree too. Returns the full engine's hand
    results."""
    rng = random.Random(seed)
    n = len(bots)
    views = [state.copy() for _ in range(n)]
    total = sum(state.match_scores)
    results: list[dict[str, Any]] = []
    deck: list[Card] = []
    for _ in range(max_steps):
        for s in range(n):
            assert views[s].observation(s) == state.observation(s), f"seat {s} view differs"
        assert sum(state.match_scores) == total
        phase = state.phase
        if phase is Phase.MATCH_OVER:
            return results
        if phase is Phase.SHUFFLE:
            deck = list(ITALIAN_40.cards)
            rng.shuffle(deck)
            for v in [state, *views]:
                v.begin_hand()
        elif phase is Phase.CHANCE:
            steps = state.pending_chance()
            full: list[Card | None] = []
            for step in steps:
                if step.zone is Zone.SHOW:
                    assert step.seat is not None
                    full.append(card(state.observation(step.seat)["hand"][step.position]))
                else:
                    full.append(deck[step.position])
            state.complete_chance(full)
            for s, v in enumerate(views):
                v.complete_chance([c if step.visible(s) else None
                                   for step, c in zip(steps, full, strict=True)])
        elif phase is Phase.ACTION:
            seat = state.to_act
            legal = state.legal_actions()
            assert views[seat].legal_actions() == legal == sorted(legal)
            action = bots[seat].choose(state.observation(seat), legal)
            for v in [state, *views]:
                v.apply(action)
        else:
            result = state.hand_result()
            for v in views:
                assert v.hand_result() == result
            results.append(result.to_wire())
            for v in [state, *views]:
                v.next_hand()
    raise AssertionError("the match did not end")


def record_match(state: MatchState, bots: Sequence[Bot], seed: int) -> dict[str, Any]:
    """Play a whole match with full information and record it as a replay vector: the deck
    order of every cycle, every action with its seat, every hand result and the final scores."""
    rng = random.Random(seed)
    cycles: list[list[str]] = []
    actions: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    deck: list[Card] = []
    while not state.match_over:
        if state.phase is Phase.SHUFFLE:
            deck = list(ITALIAN_40.cards)
            rng.shuffle(deck)
            cycles.append([c.code for c in deck])
            state.begin_hand()
        elif state.phase is Phase.CHANCE:
            state.complete_chance([
                card(state.observation(s.seat)["hand"][s.position])
                if s.zone is Zone.SHOW and s.seat is not None else deck[s.position]
                for s in state.pending_chance()])
        elif state.phase is Phase.ACTION:
            seat = state.to_act
            action = bots[seat].choose(state.observation(seat), state.legal_actions())
            actions.append({"seat": seat, "action": action.to_wire()})
            state.apply(action)
        else:
            results.append(state.hand_result().to_wire())
            state.next_hand()
    return {"config": state.config.to_wire(), "cycles": cycles, "actions": actions,
            "results": results, "scores": list(state.match_scores), "winner": state.winner}


def replay_vector(state: MatchState, vector: dict[str, Any]) -> None:
    """Replay a vector of :func:`record_match` and assert every result, the scores and the
    winner are reproduced exactly."""
    cycles = iter(vector["cycles"])
    actions = iter(vector["actions"])
    results = iter(vector["results"])
    deck: list[Card] = []
    while not state.match_over:
        if state.phase is Phase.SHUFFLE:
            deck = [card(c) for c in next(cycles)]
            state.begin_hand()
        elif state.phase is Phase.CHANCE:
            state.complete_chance([
                card(state.observation(s.seat)["hand"][s.position])
                if s.zone is Zone.SHOW and s.seat is not None else deck[s.position]
                for s in state.pending_chance()])
        elif state.phase is Phase.ACTION:
            entry = next(actions)
            assert entry["seat"] == state.to_act
            state.apply(Action.from_wire(entry["action"]))
        else:
            assert state.hand_result().to_wire() == next(results)
            state.next_hand()
    assert next(cycles, None) is None and next(actions, None) is None
    assert next(results, None) is None
    assert list(state.match_scores) == vector["scores"] and state.winner == vector["winner"]
