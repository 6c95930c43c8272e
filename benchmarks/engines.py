"""Speed of the rules engines alone (no cryptography), printed as a plain table.

Run from the repository root: ``python benchmarks/engines.py [--quick] [--seconds S]``.

Two measurements:

1. **Random playouts.** For every game and every player count of its default preset, whole hands
   are played with full information by :class:`~p2pcards.bots.RandomBot` seats, the way
   :func:`p2pcards.offline.simulate.play_hand` does it (shuffle, fulfil every chance step, ask the
   acting seat's bot with its observation and the legal actions, apply, score the hand); an illegal
   action raises the engine's ``IllegalMove``; a match that ends is replaced by a new one.
   Printed: hands per second, actions per hand, microseconds per action.
2. **Full-information replay of one 2-player Scopa hand.** A hand is played and recorded (the card
   given to every chance step and every action), then replayed into a fresh engine (new match,
   ``begin_hand``, ``complete_chance`` with the recorded cards, ``apply`` of every action,
   ``hand_result``); that is the engine part of what a verifier does after the keys of a hand are
   revealed. Printed: the median replay time over many repetitions, and its ratio to 5 ms.

Nothing here asserts on a time; a wrong replay (another result than the recorded one) or an
illegal action is an error.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# Benchmark the checkout this file is in, whatever copy of the package is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2pcards.bots import RandomBot  # noqa: E402
from p2pcards.cards import Card  # noqa: E402
from p2pcards.games import all_games, get_game  # noqa: E402
from p2pcards.games.base import Action, GameSpec, HandResult, MatchState, Phase  # noqa: E402
from p2pcards.offline.simulate import play_hand  # noqa: E402

REPLAY_TARGET_S = 0.005
"""The target of the issue for replaying one 2-player Scopa hand with full information."""


@dataclass
class RecordedHand:
    """One hand as a verifier would get it: every chance batch's cards, every action, the result."""

    chance: list[list[Card]]
    actions: list[Action]
    result: HandResult


def play_recorded_hand(state: MatchState, bots: list[RandomBot],
                       rng: random.Random) -> RecordedHand:
    """From SHUFFLE to HAND_OVER with random bots (an illegal action raises), recorded."""
    chance: list[list[Card]] = []
    actions: list[Action] = []
    result, _ = play_hand(state, bots, rng, chance_log=chance, action_log=actions)
    return RecordedHand(chance, actions, result)


def replay_hand(spec: GameSpec, config: object, hand: RecordedHand) -> HandResult:
    """Replay the first hand of a match into a fresh engine with full information."""
    state = spec.new_match(config)
    state.begin_hand()
    batches = iter(hand.chance)
    actions = iter(hand.actions)
    while True:
        phase = state.phase
        if phase is Phase.CHANCE:
            state.complete_chance(next(batches))
        elif phase is Phase.ACTION:
            state.apply(next(actions))
        elif phase is Phase.HAND_OVER:
            return state.hand_result()
        else:
            raise RuntimeError(f"the replay stopped in phase {phase}")


@dataclass
class PlayoutFigures:
    game: str
    preset: str
    players: int
    hands: int
    actions: int
    seconds: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def us_per_action(self) -> float:
        return self.seconds / self.actions * 1e6


def measure_playouts(spec: GameSpec, players: int, budget: float, seed: int) -> PlayoutFigures:
    """Play hands for about ``budget`` seconds (at least 3 hands)."""
    config = spec.preset(spec.default_preset, players=players)
    rng = random.Random(seed)
    bots = [RandomBot(seed * 10 + s) for s in range(players)]
    state = spec.new_match(config)
    hands = actions = 0
    elapsed = 0.0
    while elapsed < budget or hands < 3:
        t0 = time.perf_counter()
        if state.match_over:
            state = spec.new_match(config)
        recorded = play_recorded_hand(state, bots, rng)
        state.next_hand()
        elapsed += time.perf_counter() - t0
        hands += 1
        actions += len(recorded.actions)
    return PlayoutFigures(spec.name, spec.default_preset, players, hands, actions, elapsed)


def measure_replay(repeat: int, seed: int) -> tuple[float, float, RecordedHand]:
    """Median and minimum seconds to replay one recorded 2-player Scopa hand."""
    spec = get_game("scopa")
    config = spec.preset(spec.default_preset, players=2)
    recorded = play_recorded_hand(spec.new_match(config), [RandomBot(seed), RandomBot(seed + 1)],
                                  random.Random(seed))
    if replay_hand(spec, config, recorded) != recorded.result:
        raise RuntimeError("the replay of the recorded hand gave another result")
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        replay_hand(spec, config, recorded)
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs), min(runs), recorded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Speed of the rules engines (no cryptography).")
    parser.add_argument("--quick", action="store_true", help="a short run (about 0.2 s per row)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="playout time per game and player count (default 2, quick 0.2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    budget = args.seconds if args.seconds is not None else (0.2 if args.quick else 2.0)
    repeat = 50 if args.quick else 500

    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{budget:g} s of random playouts per row")
    print()
    header = (f"{'game':<10} {'preset':<8} {'players':>7} {'hands':>7} {'hands/s':>9} "
              f"{'actions/hand':>12} {'µs/action':>10}")
    print(header)
    print("-" * len(header))
    for spec in all_games():
        for players in spec.preset_players(spec.default_preset):
            fig = measure_playouts(spec, players, budget, args.seed)
            print(f"{fig.game:<10} {fig.preset:<8} {fig.players:>7} {fig.hands:>7} "
                  f"{fig.hands_per_second:>9.0f} {fig.actions / fig.hands:>12.1f} "
                  f"{fig.us_per_action:>10.1f}")
    print()
    print("hands/s includes shuffling, chance steps, one observation and legal_actions() per")
    print("decision, the random choice, apply() (checking it), hand_result(), next_hand().")
    print()
    median, best, recorded = measure_replay(repeat, args.seed)
    print(f"Full-information replay of one 2-player Scopa hand "
          f"({len(recorded.chance)} chance batches, {len(recorded.actions)} actions), "
          f"{repeat} runs:")
    print(f"  median {median * 1000:.3f} ms, best {best * 1000:.3f} ms; "
          f"median / 5 ms target = {median / REPLAY_TARGET_S:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
