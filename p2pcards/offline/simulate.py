"""Full-information simulation of matches with the rules engines alone (no cryptography).

Used by the engine benchmarks, bot tests and anyone who wants to try a strategy quickly. The
deck is shuffled with ``random.Random(seed)``; this is a simulation tool, never used for play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..bots.base import Bot, choose_claim
from ..cards import Card
from ..games.base import Action, GameSpec, HandResult, MatchState, Phase, Zone

__all__ = ["RandomDealer", "SimulatedMatch", "fulfil_chance", "play_hand", "play_match",
           "shuffled_deck"]

_SHOW = Zone.SHOW


@dataclass
class SimulatedMatch:
    """The outcome of :func:`play_match`."""

    state: MatchState
    hands: list[HandResult]
    actions: int


def fulfil_chance(state: MatchState, shuffled: Sequence[Card]) -> list[Card]:
    """Complete the pending chance steps with full information from ``shuffled`` (this hand's
    deck order); a shown card (``Zone.SHOW``) is read from its owner's hand with
    :meth:`~p2pcards.games.base.MatchState.hand_card`. Returns the cards."""
    revealed: list[Card] = []
    append = revealed.append
    show = _SHOW
    for step in state.pending_chance():
        if step.zone is show:
            seat = step.seat
            assert seat is not None
            append(state.hand_card(seat, step.position))
        else:
            append(shuffled[step.position])
    state.complete_chance(list(revealed))
    return revealed


_SWAPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
"""Per deck length, ``random.shuffle``'s swaps: the position, the bound of the random index
drawn for it and that bound's bit length."""
_PLAIN_RANDBELOW: bool = (random.Random._randbelow  # type: ignore[attr-defined]
                          is random.Random._randbelow_with_getrandbits)  # type: ignore[attr-defined]
"""Whether ``random.Random`` draws an index below ``n`` as :func:`shuffled_deck` does."""


def shuffled_deck(rng: random.Random, cards: Sequence[Card]) -> list[Card]:
    """``cards`` in a new list shuffled by ``rng``, exactly as ``rng.shuffle`` would shuffle it
    (the same draws of ``rng.getrandbits``, so the same order and the same state of ``rng``
    after), without ``shuffle``'s call of ``_randbelow`` per card: a deck of 40 cards costs
    about half. An ``rng`` of a class that draws its own way is asked to ``shuffle``."""
    out = list(cards)
    if type(rng) is not random.Random or not _PLAIN_RANDBELOW:
        rng.shuffle(out)
        return out
    swaps = _SWAPS.get(len(out))
    if swaps is None:
        swaps = _SWAPS[len(out)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, len(out))))
    getrandbits = rng.getrandbits
    for i, bound, bits in swaps:
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        out[i], out[j] = out[j], out[i]
    return out


class RandomDealer:
    """Plays the steps of a simulated match that no seat decides: each hand's shuffle (with
    ``rng``), its chance steps with full information (:func:`fulfil_chance`) and the start of
    the next hand. A loop over random playouts asks it first and handles only the decisions::

        dealer = RandomDealer(rng)
        while not state.match_over:
            if not dealer.step(state):  # a seat must act
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.shuffled: list[Card] = []
        """The current hand's deck order (the cards the chance steps take by position)."""

    def step(self, state: MatchState) -> bool:
        """Play ``state``'s current step if no seat decides it, and say whether one was played:
        ``False`` at a decision (``Phase.ACTION``) and when the match is over."""
        phase = state.phase
        if phase is Phase.SHUFFLE:
            self.shuffled = shuffled_deck(self.rng, state.deck.cards)
            state.begin_hand()
        elif phase is Phase.CHANCE:
            fulfil_chance(state, self.shuffled)
        elif phase is Phase.HAND_OVER:
            state.next_hand()
        else:
            return False
        return True


def play_hand(state: MatchState, bots: Sequence[Bot], rng: random.Random, *,
              chance_log: list[list[Card]] | None = None,
              action_log: list[Action] | None = None) -> tuple[HandResult, int]:
    """From SHUFFLE to HAND_OVER (redeals included); returns the result and actions played.

    When given, ``chance_log`` receives the cards of every chance batch and ``action_log`` every
    action, in order: what a verifier needs to replay the hand.
    """
    actions = 0
    while True:
        phase = state.phase
        if phase is Phase.SHUFFLE:
            shuffled = list(state.deck.cards)
            rng.shuffle(shuffled)
            state.begin_hand()
        elif phase is Phase.CHANCE:
            revealed = fulfil_chance(state, shuffled)
            if chance_log is not None:
                chance_log.append(revealed)
        elif phase is Phase.ACTION:
            seat = state.to_act
            action = bots[seat].choose(state.observation(seat), state.legal_actions())
            state.apply(action)  # raises IllegalMove for a bot that breaks the rules
            if action_log is not None:
                action_log.append(action)
            actions += 1
            actions += _offer_claims(state, bots, seat, action_log)
        elif phase is Phase.HAND_OVER:
            return state.hand_result(), actions
        else:
            raise RuntimeError(f"play_hand called in phase {phase}")


def _offer_claims(state: MatchState, bots: Sequence[Bot], after: int,
                  action_log: list[Action] | None) -> int:
    """Out-of-turn claims (Rumino): each claimant with a claim open, in seat order from the seat
    after ``after``, is asked through :func:`~p2pcards.bots.base.choose_claim` (a bot without a
    ``claim`` method never claims); the first claim made is applied at once, as if it came first
    in the chain, before the next player's action. Returns the number of claims applied (0 or
    1)."""
    n = len(bots)
    for step in range(1, n + 1):
        seat = (after + step) % n
        if seat not in state.claimants():
            continue
        claims = state.claim_actions(seat)
        if not claims:
            continue
        choice = choose_claim(bots[seat], state.observation(seat), claims)
        if choice is not None:
            state.apply_claim(seat, choice)
            if action_log is not None:
                action_log.append(choice)
            return 1
    return 0


def play_match(spec: GameSpec, config: object, bots: Sequence[Bot], seed: int,
               max_hands: int = 200) -> SimulatedMatch:
    """Play a whole match with full information; ``bots[seat]`` chooses for each seat."""
    rng = random.Random(seed)
    state = spec.new_match(config)
    hands: list[HandResult] = []
    total = 0
    while not state.match_over:
        if len(hands) >= max_hands:
            raise RuntimeError(f"match did not end within {max_hands} hands")
        result, actions = play_hand(state, bots, rng)
        hands.append(result)
        total += actions
        state.next_hand()
    return SimulatedMatch(state, hands, total)
