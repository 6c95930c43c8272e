"""Bots: they only ever choose legal actions, finish every match, and the rule-of-thumb bots beat
random play over a fixed set of seeded matches."""

from __future__ import annotations

import pytest

from p2pcards.bots import RandomBot, make_bot
from p2pcards.games import all_games, get_game
from p2pcards.offline.simulate import play_match


@pytest.mark.parametrize("game", [spec.name for spec in all_games()])
def test_smart_bots_finish_matches_of_every_count(game: str) -> None:
    spec = get_game(game)
    for players in spec.preset_players(spec.default_preset):
        config = spec.preset(players=players)
        bots = [make_bot(game, "smart", seed=s) for s in range(players)]
        result = play_match(spec, config, bots, seed=players)
        assert result.state.match_over and result.hands


@pytest.mark.parametrize("game", ["scopa", "briscola", "tressette"])
def test_smart_side_beats_random_side(game: str) -> None:
    spec = get_game(game)
    players = 4 if game == "tressette" else 2
    config = spec.preset(players=players)
    wins = 0
    matches = 12
    for seed in range(matches):
        # seats 0 and 2 (side 0) are smart, the others random
        bots = [make_bot(game, "smart", seed=seed) if s % 2 == 0 else RandomBot(seed)
                for s in range(players)]
        result = play_match(spec, config, bots, seed=seed)
        wins += result.state.winner == 0
    assert wins > matches * 2 // 3, f"smart bots won only {wins} of {matches} {game} matches"


def test_unknown_bot_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot kind 'genius'"):
        make_bot("scopa", "genius")
