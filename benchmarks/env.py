"""Steps per second of the PettingZoo environments, printed as a plain table.

Run from the repository root: ``python benchmarks/env.py [--seconds S]`` (needs the ``rl``
extra: ``pip install -e '.[rl]'``).

For every game and every player count of its default preset, an agent loop runs the way a
training loop does: ``last()`` (the observation vector, the action mask, reward and flags), a
uniformly random index among the masked actions (``np.flatnonzero`` of the mask, then
``random.Random.randrange``, as cheap a policy as the engine loop's), ``step(index)``; a
finished match is reset with the next seed. A *step* is one ``step`` call with a real action
(the calls that retire finished agents are not counted). Printed: steps per second, microseconds
per step, and, in the same run, the engine alone on the same games (``legal_actions`` +
``apply`` with the same random policy, chance steps and scoring included) so the cost of the
environment layer shows as a ratio. The issue's target is 20,000 steps per second for Scopa.

Nothing here asserts on a time.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from p2pcards.games import all_games  # noqa: E402
from p2pcards.games.base import Phase  # noqa: E402
from p2pcards.offline.env import raw_env  # noqa: E402
from p2pcards.offline.simulate import fulfil_chance  # noqa: E402


def env_steps(game: str, players: int, seconds: float) -> float:
    """Steps per second of the environment with a random masked policy."""
    e = raw_env(game, players)
    rng = random.Random(0)
    seed = 0
    e.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        agent = e.agent_selection
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            if all(e.terminations.values()) and len(e.agents) == 1:
                e.step(None)
                seed += 1
                e.reset(seed=seed)
                if time.perf_counter() > deadline:
                    break
                continue
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if steps % 512 == 0 and time.perf_counter() > deadline:
            break
        del agent
    return steps / (time.perf_counter() - start)


def engine_steps(game: str, players: int, seconds: float) -> float:
    """Actions per second of the engine alone with the same random policy."""
    spec = next(s for s in all_games() if s.name == game)
    config = spec.preset(players=players)
    rng = random.Random(0)
    state = spec.new_match(config)
    shuffled: list[object] = []
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        phase = state.phase
        if phase is Phase.SHUFFLE:
            shuffled = list(state.deck.cards)
            rng.shuffle(shuffled)
            state.begin_hand()
        elif phase is Phase.CHANCE:
            fulfil_chance(state, shuffled)  # type: ignore[arg-type]
        elif phase is Phase.ACTION:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
            if steps % 512 == 0 and time.perf_counter() > deadline:
                break
        elif phase is Phase.HAND_OVER:
            state.hand_result()
            state.next_hand()
        else:
            state = spec.new_match(config)
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{args.seconds:g} s per measurement")
    print(f"{'game':<16}{'players':>8}{'env steps/s':>14}{'µs/step':>10}"
          f"{'engine steps/s':>16}{'env/engine':>12}")
    for spec in all_games():
        for players in spec.preset_players(spec.default_preset):
            env_rate = env_steps(spec.name, players, args.seconds)
            engine_rate = engine_steps(spec.name, players, args.seconds)
            print(f"{spec.name:<16}{players:>8}{env_rate:>14,.0f}{1e6 / env_rate:>10.1f}"
                  f"{engine_rate:>16,.0f}{env_rate / engine_rate:>12.2f}")


if __name__ == "__main__":
    main()
