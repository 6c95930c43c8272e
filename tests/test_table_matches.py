"""Whole matches among in-memory peers (bots, full mental poker): every game, player count and
preset. Every transcript verifies as valid, and every peer and the verifier agree on every hand's
score and on the result. For each game one preset runs by default, the game's ``quick`` preset if
it has one, else its default preset, at every player count of a game of up to 4 seats and only at
the smallest count of a game for larger tables; the other cases are marked ``slow`` (run them
with ``pytest --slow``). Games on a deck of more than 52 cards (Burraco's and Rumino's 108) cost
several times more per hand (every shuffle proof and every deal grows with the deck) and play
many hands: all their cases here are ``slow``, and their own test files play whole matches at
the table by default.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from attacks import recorded_match, write_transcript

from p2pcards.games import all_games
from p2pcards.games.base import GameSpec
from p2pcards.table import HandScored, MatchEnded
from p2pcards.verify import verify_transcript


def _default_run(spec: GameSpec, preset: str, players: int, fast: str) -> bool:
    """Whether a case runs without ``--slow``: the ``fast`` preset, at every player count of a
    game of up to 4 seats, and only at the smallest count of a game for larger tables."""
    if preset != fast:
        return False
    return max(spec.player_counts) <= 4 or players == min(spec.player_counts)


def _cases() -> list[object]:
    out: list[object] = []
    for spec in all_games():
        fast = "quick" if "quick" in spec.presets else spec.default_preset
        for players in spec.player_counts:
            for preset in spec.presets:
                if players not in spec.preset_players(preset):
                    continue
                big_deck = len(spec.new_match(spec.preset(preset, players=players)).deck) > 52
                default = _default_run(spec, preset, players, fast) and not big_deck
                marks = [] if default else [pytest.mark.slow]
                out.append(pytest.param(spec.name, preset, players,
                                        id=f"{spec.name}-{players}-{preset}", marks=marks))
    return out


@pytest.mark.parametrize(("game", "preset", "players"), _cases())
def test_whole_match_verifies_and_peers_agree(tmp_path: Path, game: str, preset: str,
                                              players: int) -> None:
    run = recorded_match(game, preset, players, 1)
    assert all(t.finished for t in run.tables)
    # every peer holds the same chain and the same final scores
    assert all(t.frames == run.frames for t in run.tables)
    finals = {tuple(t.engine.match_scores) for t in run.tables}
    assert len(finals) == 1
    scored = [[(e.hand, e.result, e.match_scores) for e in events if isinstance(e, HandScored)]
              for events in run.events]
    assert scored[0] and all(s == scored[0] for s in scored)
    ended = [[e for e in events if isinstance(e, MatchEnded)] for events in run.events]
    assert all(len(e) == 1 and e[0] == ended[0][0] for e in ended)

    report = verify_transcript(write_transcript(tmp_path / "match.p2pt", run.genesis,
                                                run.frames))
    assert report.status == "valid", report.violation
    assert report.violation is None and report.stop is None
    assert (report.game, report.preset, report.config) == (game, preset, dict(run.genesis.config))
    assert report.envelopes == report.verified == len(run.frames)
    assert [(h.hand, h.points, h.match_scores) for h in report.hands] == [
        (hand, tuple(result.points), tuple(scores)) for hand, result, scores in scored[0]]
    for h, (_, result, _) in zip(report.hands, scored[0], strict=True):
        assert [line[0] for line in h.lines] == [ln.category for ln in result.lines]
    assert report.scores == ended[0][0].match_scores == finals.pop()
    assert report.winner_side == ended[0][0].winner
    engine = run.tables[0].engine
    assert report.winner_seats == tuple(
        s for s in range(players) if report.winner_side is not None
        and engine.side_of(s) == report.winner_side)
    assert [s.name for s in report.seats] == [f"seat{i}" for i in range(players)]
    assert len({s.fingerprint for s in report.seats}) == players
