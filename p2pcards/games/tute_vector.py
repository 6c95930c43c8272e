"""The Tute engine vector ``protocol/vectors/games/tute_hand.json``: one whole hand with full
information, for a second implementation of the rules.

``python -m p2pcards.games.tute_vector`` writes it; ``--check`` regenerates it in memory and exits
with status 1 if the file differs byte for byte. :func:`build` is the pure part. The file holds
the shuffled deck (card codes by deck position), every action in order with its seat, the rule
id each illegal play must raise at its moment, and the hand result; see
``protocol/games/tute.md`` §8.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ..vector_files import vector_main
from .base import Action, IllegalMove, Phase
from .tute import SPEC, TuteMatch

__all__ = ["FILE_NAME", "SEED", "build", "main"]

FILE_NAME = "tute_hand.json"
SEED = 206
"""Seeds Python's ``random.Random`` for the deck order and the moves (the first declaration
offered, else a random legal action); the file lists the results, so nothing else depends on
Python's generator."""
VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "games"


def _probes(state: TuteMatch) -> list[dict[str, Any]]:
    """Every illegal play of the seat to act (card order), with the rule it breaks."""
    hand = sorted(c for c in state.hand(state.to_act) if c is not None)
    legal = set(state.legal_actions())
    out = []
    for c in hand:
        action = Action("play", c)
        if action in legal:
            continue
        trial = state.copy()
        try:
            trial.apply(action)
        except IllegalMove as exc:
            out.append({"action": action.to_wire(), "rule": exc.rule})
    return out


def build() -> dict[str, str]:
    """File name -> JSON text of the vector."""
    rng = random.Random(SEED)
    deck = list(SPEC.new_match(SPEC.preset("classic", players=4)).deck.cards)
    rng.shuffle(deck)
    config = SPEC.preset("classic", players=4)
    state = SPEC.new_match(config)
    assert isinstance(state, TuteMatch)
    state.begin_hand()
    state.complete_chance(deck)
    actions: list[dict[str, Any]] = []
    while state.phase is Phase.ACTION:
        seat = state.to_act
        entry: dict[str, Any] = {"index": len(actions), "seat": seat}
        probes = _probes(state)
        legal = state.legal_actions()
        declares = [a for a in legal if a.kind == "declare"]
        action = declares[0] if declares else legal[rng.randrange(len(legal))]
        entry["action"] = action.to_wire()
        if probes:
            entry["illegal"] = probes
        actions.append(entry)
        state.apply(action)
    data = {
        "description": "One Tute hand (hand 0, preset classic) with full information: deal "
                       "deck[i] to seat i % 4 (deck[39] is the dealer's, seat 3, shown to all: "
                       "its suit is trumps); apply the actions in order; before an action, "
                       "each of its 'illegal' plays (if any) must be refused with its rule id; "
                       "then the hand result must equal 'result'.",
        "game": "tute",
        "config": config.to_wire(),
        "deck": [c.code for c in deck],
        "trump": deck[39].code,
        "actions": actions,
        "declarations": [d.to_wire() for d in state.declarations],
        "result": state.hand_result().to_wire(),
    }
    return {FILE_NAME: json.dumps(data, indent=1, sort_keys=True) + "\n"}


def main(argv: list[str] | None = None) -> int:
    """Write the vector files, or with ``--check`` compare them; returns the exit status."""
    return vector_main(build, VECTOR_DIR, "python -m p2pcards.games.tute_vector",
                       __doc__.splitlines()[0] if __doc__ else None, argv)


if __name__ == "__main__":
    raise SystemExit(main())
