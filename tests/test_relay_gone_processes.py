"""When the relay is what fails, the peers say so instead of blaming each other: real
processes through a real relay that is killed mid-match and started again on its port."""

from __future__ import annotations

import re
import signal
from pathlib import Path

from test_liveness import BOUND, _bots_behind, finish_within
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
