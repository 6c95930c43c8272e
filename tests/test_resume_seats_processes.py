"""``p2pcards resume`` at tables of three and four seats, where the seats share their hand keys
(the default ``--dropout forfeit``): real processes on loopback TCP, each with its own p2pcards
home, the victim killed with SIGKILL in the second or the last hand, when the keys of the hands
already played have been deleted from its home. It comes back, the match completes, every
transcript verifies and holds the same chain, and every home's kept secrets are gone."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from test_net_processes import Peer, join
from test_resume_processes import _complete, _kept_files, _owner_only, _same_chain

from p2pcards.records.match_record import MatchRecord


def _table(tmp_path: Path, players: int) -> tuple[list[Peer], list[Path]]:
    """A bot host and ``players - 1`` bot joiners of italian Briscola (two hands at four seats,
    three at three), each with a home of its own, all in hand 1."""
    homes = [tmp_path / f"seat{i}" for i in range(players)]
    hosting = Peer(homes[0], "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   "--game", "briscola", "--variant", "italian", "--players", str(players),
                   "--bot", "--return-wait", "90")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    peers = [hosting]
    for seat in range(1, players):
        peers.append(join(homes[seat], invite, "--accept", "--bot", "--return-wait", "90"))
        hosting.wait_for(rf"^seat {seat} \(")  # seated in order: seat N is the N-th joiner
    for peer in peers:
        peer.wait_for(r"— hand 1 begins$")
    return peers, homes


def _kept_keys(home: Path) -> set[str]:
    """The names of the hand and inbox keys kept in ``home`` (``hand1``, ``inbox1`` ...)."""
    return {p.name.rsplit("-", 1)[1] for p in _kept_files(home)
            if p.name.rsplit("-", 1)[-1].startswith(("hand", "inbox"))}


@pytest.mark.parametrize("players,victim,hand", [
    (3, 1, 2),  # a joiner, in the second hand
    (3, 2, 3),  # a joiner, in the last hand
    (4, 3, 2),  # a joiner, in the second (and last) hand
    (4, 0, 2),  # the host
])
def test_a_seat_killed_after_the_first_hand_resumes(tmp_path: Path, players: int,
                                                     victim: int, hand: int) -> None:
    peers, homes = _table(tmp_path, players)
    killed, home = peers[victim], homes[victim]
    killed.wait_for(rf"— hand {hand} begins$")
    _owner_only(home)
    killed.process.send_signal(signal.SIGKILL)
    killed.finish()
    # the keys of the decks of the hands already played were deleted: at most one deck's keys
    kept = _kept_keys(home)
    assert len(kept) <= 2 and len({re.sub(r"\D", "", name) for name in kept}) <= 1, kept
    assert "hand0" not in kept and "inbox0" not in kept
    records = [p for p in _kept_files(home) if p.name.endswith(".match")]
    assert len(records) == 1
    assert MatchRecord.decode(records[0].read_bytes()).seats[0].seat == victim
    back = Peer(home, "resume", "--return-wait", "90")
    role = "host" if victim == 0 else "joiner"
    assert back.wait_for(r"^resuming seat (\d) \((host|joiner)\) of table ").groups() == (
        str(victim), role)
    paths = [_complete(back)] + [_complete(peer, verify=False) for i, peer in enumerate(peers)
                                 if i != victim]  # the same chain as the one verified
    for path in paths[1:]:
        _same_chain(paths[0], path)
    for peer_home in homes:
        assert _kept_files(peer_home) == [], "the kept secrets are deleted when the match ends"
