"""The host and a joiner of one table played from ONE p2pcards home (two terminals of one
machine, or the demo): real processes on loopback TCP sharing ``P2PCARDS_HOME``. Each keeps its
own match record and lock, named by its seat, so neither blocks nor deletes the other's; a joiner
killed with SIGKILL mid-match comes back with ``p2pcards resume`` from the same home while the
host plays on, and the match completes."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from test_net_processes import BRISCOLA_2, Peer, join
from test_resume_guard_processes import _busy
from test_resume_processes import _complete, _kept_files, _owner_only, _same_chain

from p2pcards.records.match_record import MatchRecord


def _both(home: Path) -> tuple[Peer, Peer]:
    """A bot host and a bot joiner of one table, both with ``home``, both in hand 1."""
    hosting = Peer(home, "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   *BRISCOLA_2, "--bot", "--return-wait", "90")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    guest = join(home, invite, "--accept", "--bot", "--return-wait", "90")
    for peer in (hosting, guest):
        peer.wait_for(r"— hand 1 begins$")
    return hosting, guest


def _records(home: Path) -> dict[int, MatchRecord]:
    """The match records kept in ``home``, by the seat that names them."""
    found = {}
    for path in _kept_files(home):
        if path.name.endswith(".match"):
            record = MatchRecord.decode(path.read_bytes())
            assert path.name.endswith(f"-seat{record.own_seat}.match"), path
            found[record.own_seat] = record
    return found


def test_host_and_joiner_of_one_table_play_from_one_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    hosting, guest = _both(home)
    _owner_only(home)
    records = _records(home)
    assert sorted(records) == [0, 1]
    assert [s.seat for s in records[1].seats] == [1]
    assert records[0].table_id == records[1].table_id
    assert records[0].transcript != records[1].transcript
    locks = sorted(p.name.rsplit("-", 1)[1] for p in _kept_files(home)
                   if p.name.endswith(".lock"))
    assert locks == ["seat0.lock", "seat1.lock"]
    theirs, mine = _complete(hosting), _complete(guest, verify=False)
    _same_chain(mine, theirs)
    assert _kept_files(home) == [], "each deletes its own files when the match ends"


@pytest.mark.parametrize("how", ["newest", "transcript"])
def test_a_joiner_killed_in_a_shared_home_resumes_while_the_host_plays(tmp_path: Path,
                                                                        how: str) -> None:
    home = tmp_path / "home"
    hosting, guest = _both(home)
    guest.process.send_signal(signal.SIGKILL)
    guest.finish()
    records = _records(home)
    assert sorted(records) == [0, 1], "the killed joiner's record is kept, the host's too"
    taken = Peer(home, "resume", "--seat", "0", "--return-wait", "90")
    _busy(taken, hosting.process.pid, seat=0)  # the host still plays its seats
    where = [records[1].transcript] if how == "transcript" else []
    back = Peer(home, "resume", *where, "--return-wait", "90")
    assert back.wait_for(r"^resuming seat (\d) \((host|joiner)\) of table ").groups() == (
        "1", "joiner")
    mine, theirs = _complete(back), _complete(hosting, verify=False)
    assert str(mine) == records[1].transcript
    _same_chain(mine, theirs)
    assert any("is back: catching up from envelope" in line for line in hosting.out)
    assert _kept_files(home) == []
