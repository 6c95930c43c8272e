"""Finding a game by name: one game's module alone, the same specs as the full listing."""

from __future__ import annotations

import json
import subprocess
import sys

from p2pcards.games import GAME_MODULES, all_games

_PROBE = """
import json, sys
from p2pcards.games import get_game, all_games
first = get_game(sys.argv[1])
loaded = sorted(m.rsplit(".", 1)[1] for m in sys.modules
                if m.startswith("p2pcards.games.") and m.rsplit(".", 1)[1] in sys.argv[2:])
listed = {spec.name: spec for spec in all_games()}
print(json.dumps({"name": first.name, "loaded": loaded,
                  "same": listed[first.name] is first and get_game(sys.argv[1]) is first}))
"""


def _probe(name: str) -> dict[str, object]:
    """What a fresh interpreter imports to find ``name``, and whether it found the listed spec."""
    out = subprocess.run([sys.executable, "-c", _PROBE, name, *GAME_MODULES], check=True,
                         capture_output=True, text=True, timeout=120)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_a_game_named_after_its_module_is_found_without_importing_the_others() -> None:
    for name, module in (("scopa", "scopa"), ("SETTE-E-MEZZO", "sette_e_mezzo")):
        found = _probe(name)
        assert found["name"] == name.lower()
        assert found["loaded"] == [module]
        assert found["same"] is True


def test_every_listed_game_is_found_by_its_name_in_a_fresh_process() -> None:
    for spec in all_games():
        found = _probe(spec.name)
        assert found["name"] == spec.name
        assert found["same"] is True
