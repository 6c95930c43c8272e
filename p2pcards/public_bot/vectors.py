"""The public bot's vectors ``protocol/vectors/public_bot_<game>.json`` and
``protocol/vectors/public_bot_draws.json`` (protocol/BOTS.md §13).

``python -m p2pcards.public_bot.vectors`` writes them; ``--check`` regenerates them in memory and
exits with status 1 if a file differs byte for byte. :func:`build` is the pure part. Each game's
file holds decisions of a simulated match in which the public bot plays every seat: the bot's
inputs (the fields of BOTS.md §3 for that game), the legal actions in canonical order, the seed,
the draws the choice made and the move. The deck orders come from Python's ``random.Random``;
the files list every input, so nothing else depends on it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..cards import Card, card
from ..games import get_game
from ..games.base import Action, MatchState, Phase, Zone
from ..vector_files import vector_main
from . import GAMES, DrawStream, bot_seed, canonical_key
from .order import first_lowest

__all__ = ["INPUTS", "PLAYERS", "TABLE_ID", "build", "main", "draw_trace"]

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
TABLE_ID = hashlib.sha256(b"p2pcards test vector table").digest()
"""The table id every seed of the vectors is made with."""

PLAYERS: Mapping[str, int] = {
    "scopa": 4, "briscola": 4, "tressette": 4, "tresette": 4, "tute": 4, "calabrasella": 3,
    "burraco": 4, "rumino": 3, "sette-e-mezzo": 3, "ziginette": 3,
}
"""The seats of each game's simulated match (a table with a dropout policy has three or
more)."""

INPUTS: Mapping[str, tuple[str, ...]] = {
    "scopa": ("seat", "table"),
    "briscola": ("seat", "players", "trump_suit", "trick"),
    "tressette": ("seat", "hand_sizes", "trick"),
    "tresette": ("seat", "hand_sizes", "trick"),
    "tute": ("seat", "players", "trump_suit", "trick"),
    "calabrasella": ("seat", "players", "hand", "declarer", "bids", "trick"),
    "burraco": ("seat", "side", "melds", "hand", "discard_pile"),
    "rumino": ("seat", "hand", "rebuys", "upcard"),
    "sette-e-mezzo": ("seat", "balances", "banker", "total", "cards", "status"),
    "ziginette": ("seat", "balances", "start_chips", "banker_card", "turned"),
}
"""The observation fields each game's choice reads (BOTS.md §3)."""

CASES = 10
"""Cases per game file."""


class _Recording(DrawStream):
    """A generator that remembers its draws (``n`` and the result)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.trace: list[list[int]] = []

    def below(self, n: int) -> int:
        value = super().below(n)
        self.trace.append([n, value])
        return value


def _inputs(game: str, observation: Mapping[str, Any]) -> dict[str, Any]:
    return {name: observation.get(name) for name in INPUTS[game]}


def _decide(game: str, view: Mapping[str, Any], legal: Sequence[Action],
            seed: int) -> tuple[Action, list[list[int]]]:
    stream = _Recording(seed)
    return first_lowest(legal, GAMES[game](view, legal, stream)), stream.trace


def _fulfil(state: MatchState, deck: Sequence[Card]) -> None:
    cards = []
    for step in state.pending_chance():
        if step.zone is Zone.SHOW:
            assert step.seat is not None
            cards.append(card(state.observation(step.seat)["hand"][step.position]))
        else:
            cards.append(deck[step.position])
    state.complete_chance(cards)


def _decisions(game: str, limit: int = 400) -> list[dict[str, Any]]:
    """Every decision with a choice, in a simulated match of the public bot in every seat."""
    spec = get_game(game)
    state = spec.new_match(spec.preset(spec.default_preset, PLAYERS[game]))
    rng = random.Random(f"public bot {game}")
    out: list[dict[str, Any]] = []
    cycle, moves, deck = -1, 0, list[Card]()
    while state.phase is not Phase.MATCH_OVER and len(out) < limit:
        if state.phase is Phase.SHUFFLE:
            deck = list(state.deck.cards)
            rng.shuffle(deck)
            state.begin_hand()
            cycle, moves = cycle + 1, 0
        elif state.phase is Phase.CHANCE:
            _fulfil(state, deck)
        elif state.phase is Phase.HAND_OVER:
            state.next_hand()
        else:
            seat = state.to_act
            legal = sorted(state.legal_actions(), key=canonical_key)
            view = _inputs(game, state.observation(seat))
            seed = bot_seed(TABLE_ID, cycle, moves)
            move, trace = _decide(game, view, legal, seed)
            if len(legal) > 1:
                out.append({"cycle": cycle, "moves": moves, "seed": seed, "view": view,
                            "legal": [a.to_wire() for a in legal], "draws": trace,
                            "move": move.to_wire()})
            state.apply(move)
            moves += 1
    return out


def _pick(decisions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first decision of every set of action kinds and of every drawing one, then evenly
    spaced ones, up to :data:`CASES`, in match order."""
    chosen: list[int] = []
    seen: set[tuple[str, ...]] = set()
    for i, case in enumerate(decisions):
        kinds = tuple(sorted({a["kind"] for a in case["legal"]}))
        if kinds not in seen or (case["draws"] and not any(decisions[j]["draws"]
                                                            for j in chosen)):
            seen.add(kinds)
            chosen.append(i)
    step = max(1, len(decisions) // CASES)
    for i in range(0, len(decisions), step):
        if len(chosen) >= CASES:
            break
        if i not in chosen:
            chosen.append(i)
    return [decisions[i] for i in sorted(chosen[:max(CASES, len(seen))])]


def draw_trace(seed: int, bounds: Sequence[int]) -> dict[str, Any]:
    """The first four words of the stream of ``seed``, and ``below(n)`` for each bound in
    turn on a fresh stream."""
    words = DrawStream(seed)
    stream = DrawStream(seed)
    return {"seed": seed, "words": [words.word() for _ in range(4)],
            "below": [[n, stream.below(n)] for n in bounds]}


def build() -> dict[str, str]:
    """File name -> exact text of every public bot vector."""
    files: dict[str, str] = {}
    for game in GAMES:
        data = {
            "description": f"The public bot of {game} (protocol/BOTS.md): `view` holds the "
                           "inputs of the game's choice, `legal` the legal actions in canonical "
                           "order, `seed` the move's seed (SPEC §9.13.7, made from the table id "
                           "SHA-256(\"p2pcards test vector table\"), `cycle` and `moves`), "
                           "`draws` each draw [n, result] the choice made, and `move` the "
                           "bot's action.",
            "game": game, "players": PLAYERS[game], "cases": _pick(_decisions(game)),
        }
        files[f"public_bot_{game}.json"] = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    seeds = [0, 1, bot_seed(TABLE_ID, 0, 0), 2 ** 64 - 1]
    bounds = [1, 2, 11, 40, 2 ** 63 + 1, 2 ** 64 - 1]
    draws = {
        "description": "The public bot's generator (protocol/BOTS.md §2): for each seed the "
                       "first four 8-byte words of the SHA-256 counter-mode stream, and "
                       "below(n) for each n in turn on a fresh stream of that seed.",
        "cases": [draw_trace(seed, bounds) for seed in seeds],
    }
    files["public_bot_draws.json"] = json.dumps(draws, indent=1) + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    """Write or check the vectors."""
    return vector_main(build, VECTOR_DIR, "python -m p2pcards.public_bot.vectors", __doc__,
                       argv)


if __name__ == "__main__":
    raise SystemExit(main())
