"""The Tute engine vector ``protocol/vectors/games/tute_hand.json``: one whole hand with full
information, for a second implementation of the rules.

``python -m p2pcards.games.tute_vector`` writes it; ``--check`` regenerates it in memory and exits
with status 1 if the file differs byte for byte. :func:`build` is the pure part. The file holds
the shuffled deck (card codes by deck position), every action in order with its seat, the rule
id each illegal play must raise at its moment, and the hand result; see
``protocol/games/tute.md`` §8.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

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
    parser = argparse.ArgumentParser(prog="python -m p2pcards.games.tute_vector",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true",
                        help="compare with the file instead of writing it")
    parser.add_argument("--dir", type=Path, default=VECTOR_DIR, help="vector directory")
    args = parser.parse_args(argv)
    files = build()
    if args.check:
        bad = [name for name, text in files.items()
               if not (args.dir / name).is_file()
               or (args.dir / name).read_text(encoding="utf-8") != text]
        for name in bad:
            print(f"{args.dir / name}: differs from the regenerated vector", file=sys.stderr)
        if not bad:
            print(f"{len(files)} vector file(s) match")
        return 1 if bad else 0
    args.dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.dir / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} vector file(s) to {args.dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
