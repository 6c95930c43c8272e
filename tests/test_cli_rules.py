"""``p2pcards rules``: every game, preset and flag is listed; bad names get one clear sentence."""

from __future__ import annotations

import pytest

from p2pcards.cli import main
from p2pcards.games import all_games


def test_rules_lists_every_game_with_counts_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    for spec in all_games():
        line = next(ln for ln in out.splitlines() if ln.strip().startswith(spec.name + " "))
        assert ", ".join(map(str, spec.player_counts)) in line
        for preset in spec.presets:
            assert preset in line


@pytest.mark.parametrize("game", [spec.name for spec in all_games()])
def test_rules_of_a_game_lists_every_preset_and_flag(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", game]) == 0
    out = capsys.readouterr().out
    spec = next(s for s in all_games() if s.name == game)
    for preset in spec.presets:
        assert f"\n  {preset}" in out
    for flag in spec.flags:
        assert flag.description, f"flag {flag.name} of {game} has no description"
        assert f"  {flag.name} = " in out and flag.description in out


def test_unknown_game_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "poker"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("p2pcards: unknown game 'poker'") and err.count("\n") == 1
