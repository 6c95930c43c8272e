"""The Burraco game vector: one whole hand, for second implementations of the rules.

``python -m p2pcards.games.burraco_vectors`` writes ``protocol/vectors/games/burraco_hand.json``;
``--check`` rebuilds it in memory and exits with status 1 if the file differs. The hand is played
by the rule-of-thumb bots on a deck shuffled by ``random.Random(SEED)``; the file holds the deck
(card codes by position), every chance batch and every action in order, and the hand result.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ..cards import FRENCH_108
from ..vector_files import vector_main
from .base import ALL_SEATS, Phase
from .burraco import SPEC, BurracoMatch

__all__ = ["SEED", "VECTOR_FILE", "build", "main"]

SEED = 20261123
VECTOR_FILE = (Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "games"
               / "burraco_hand.json")


def build(seed: int = SEED) -> dict[str, Any]:
    """The vector as a plain dict (see the module docstring)."""
    from ..bots.burraco import BurracoBot

    rng = random.Random(seed)
    deck = list(FRENCH_108.cards)
    rng.shuffle(deck)
    config = SPEC.preset("classic", players=4)
    state = SPEC.new_match(config)
    assert isinstance(state, BurracoMatch)
    bots = [BurracoBot(seed + s) for s in range(4)]
    state.begin_hand()
    events: list[dict[str, Any]] = []
    while state.phase is not Phase.HAND_OVER:
        if state.phase is Phase.CHANCE:
            steps = state.pending_chance()
            revealed = [deck[s.position] for s in steps]
            events.append({"chance": [
                {"position": s.position, "zone": s.zone.value, "seat": s.seat,
                 "visible_to": "all" if s.visible_to == ALL_SEATS else sorted(s.visible_to),
                 "card": c.code}
                for s, c in zip(steps, revealed, strict=True)]})
            state.complete_chance(revealed)
            continue
        seat = state.to_act
        action = bots[seat].choose(state.observation(seat), state.legal_actions())
        use = state.card_use(action)
        events.append({"seat": seat, "action": action.to_wire(),
                       "shown": [c.code for c in use.shown]})
        state.apply(action)
    return {
        "description": "one Burraco hand (preset classic, hand 0): the shuffled deck by "
        "position, every chance batch and action in order, and the hand result",
        "game": "burraco",
        "config": config.to_wire(),
        "deck": [c.code for c in deck],
        "events": events,
        "end_reason": state.end_reason,
        "result": state.hand_result().to_wire(),
    }


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the vector file, or with ``--check`` compare it; returns the exit status."""
    return vector_main(lambda: {VECTOR_FILE.name: _text(build())}, VECTOR_FILE.parent,
                       "python -m p2pcards.games.burraco_vectors",
                       __doc__.splitlines()[0] if __doc__ else None, argv)


if __name__ == "__main__":
    raise SystemExit(main())
