"""``p2pcards rules``: every game, preset and flag is listed; bad names get one clear sentence."""

from __future__ import annotations

import pytest

from p2pcards.cli import main
from p2pcards.games import all_games


def test_rules_lists_every_game_with_counts_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    columns = set()
    for spec in all_games():
        line = next(ln for ln in out.splitlines() if ln.strip().startswith(spec.name + " "))
        low, high = min(spec.player_counts), max(spec.player_counts)
        assert f" {low}" in line and f"{high} " in line
        for preset in spec.presets:
            assert preset in line
        columns.add((line.index(" players "), line.index("presets:")))
    assert len(columns) == 1, "the columns line up"


@pytest.mark.parametrize(("counts", "text"), [
    ((4,), "4"), ((3, 4), "3, 4"), ((2, 3, 4), "2-4"), ((2, 3, 4, 5, 6, 7, 8), "2-8"),
    ((2, 4, 5, 6), "2, 4-6"), ((2, 3, 5), "2, 3, 5"),
])
def test_player_counts_are_written_as_ranges(counts: tuple[int, ...], text: str) -> None:
    from p2pcards.cli.rules import _counts

    assert _counts(counts) == text


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
