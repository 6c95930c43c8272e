"""When the relay is what fails, the peers say so instead of blaming each other: real
processes through a real relay that is killed mid-match and started again on its port."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

from test_liveness import BOUND, _bots_behind, finish_within
from test_net_processes import BRISCOLA_2, Peer, join
from test_relay_support import RelayProcess

from p2pcards.verify import verify_transcript


def test_a_dead_relay_is_named_by_both_sides_while_they_reconnect(tmp_path: Path) -> None:
    first = RelayProcess(tmp_path / "relay1.log")
    hosting, guest = _bots_behind(tmp_path, first.port)
    first.stop(signal.SIGKILL)
    where = re.escape(f"127.0.0.1:{first.port}")
    sentence = rf"^the relay at {where} is unreachable; reconnecting \(\d+ s left\); "
    # each side waits for the other by name, and says why: the relay, not the other seat
    assert guest.wait_for(sentence + r"the host, .* \[0\] may come back within \d+:\d\d$")
    assert hosting.wait_for(sentence + r".* \[1\] may come back within \d+:\d\d$")
    second = RelayProcess(tmp_path / "relay2.log", "--listen", f"127.0.0.1:{first.port}")
    try:
        for peer in (hosting, guest):
            assert finish_within(peer, BOUND) == 0, peer.out[-8:]
            peer.finish()
            assert verify_transcript(peer.transcript()).status == "valid"
            assert not any("stopped answering" in line for line in peer.out), peer.out
    finally:
        assert second.stop(signal.SIGTERM) == 0


def test_joining_a_relay_table_whose_host_has_left_fails_at_once_saying_so(
        tmp_path: Path) -> None:
    relay = RelayProcess(tmp_path / "relay.log")
    try:
        hosting = Peer(tmp_path / "host", "host", "--relay", f"127.0.0.1:{relay.port}",
                       "--ephemeral-identity", *BRISCOLA_2, "--bot", "--name", "Alba")
        invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
        guest = join(tmp_path / "guest", invite, "--accept", "--bot", "--name", "Bruno")
        for peer in (hosting, guest):
            peer.wait_for(r"— hand 1 begins$")
        hosting.process.send_signal(signal.SIGTERM)
        assert hosting.finish() == 130, hosting.stderr
        assert guest.finish() == 3 and guest.stderr == "p2pcards: Alba left the match"
        began = time.monotonic()
        late = join(tmp_path / "late", invite, "--accept", "--bot")
        assert late.finish() == 3
        print(f"the late joiner was told in {time.monotonic() - began:.2f} s")
        assert late.stderr == (f"p2pcards: the host of this invite has left the table's room "
                               f"at the relay 127.0.0.1:{relay.port}: its match is over, it "
                               "quit, or it lost its connection; ask the host for a fresh "
                               "invite"), late.stderr
        assert "reason=room-empty" in relay.log()
    finally:
        assert relay.stop(signal.SIGTERM) == 0
