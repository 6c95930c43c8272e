"""Whole matches of every game and player count between separate processes over loopback TCP.

The host and every joiner write their own transcript; all of them must hold the same chain, and
the host's must verify as a complete, valid match. The heavier tables are marked slow.
Tresette at 4 seats (to 31, the longest of these) is one of them: four seats between processes
run by default in test_relay_play.py's Briscola at 4 and test_partner_processes.py, and
Tresette's whole match among 4 peers in test_table_matches.py. Tressette at 3 seats (to 31,
seven hands or more) is another: three seats between processes run by default in
test_net_processes.py's test_two_people_on_one_machine_and_one_account_can_play and
test_demo.py's three-seat demo (italian Briscola, three hands), and Tressette's whole matches
among in-memory peers in test_table_matches.py; the default whole match here is Scopa's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_net_processes import host, join

from p2pcards.records.transcript import read_transcript
from p2pcards.verify import verify_transcript

FAST = [("scopa", "classic", 2)]
SLOW = [("tressette", "classic", 3), ("scopa", "classic", 3), ("scopa", "classic", 4),
        ("briscola", "classic", 2), ("briscola", "classic", 3), ("briscola", "classic", 4),
        ("tressette", "classic", 4), ("tresette", "classic", 4)]
CASES = FAST + [pytest.param(*case, marks=pytest.mark.slow) for case in SLOW]


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_a_whole_match_between_processes(tmp_path: Path, game: str, variant: str,
                                         players: int) -> None:
    hosting, invite = host(tmp_path, "--game", game, "--variant", variant,
                           "--players", str(players), "--bot")
    joiners = [join(tmp_path, invite, "--bot", "--name", f"guest {i}")
               for i in range(1, players)]
    codes = [p.finish() for p in joiners] + [hosting.finish()]
    assert codes == [0] * players, [p.stderr for p in [*joiners, hosting]]
    report = verify_transcript(hosting.transcript())
    assert report.status == "valid"
    chains = {tuple(read_transcript(p.transcript()).envelopes) for p in [hosting, *joiners]}
    assert len(chains) == 1
    assert hosting.stdout.count(" joined (a bot, guest ") == players - 1
    assert "match over: " in hosting.stdout
