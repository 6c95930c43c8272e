"""A seat that deals one wrong encrypted share (``tests/evil_dealer.py``: the last shuffler, or
the host), at a table of three or four real processes over loopback TCP: the holder's complaint
reaches every seat through the host, every process names the dealer, every transcript ends with
the complaint and proves the dealer at fault on its own; no hand is opened, nobody forfeits,
nobody is recovered (SPEC §9.13.4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from attacks import decode
from test_net_processes import Peer, host, join

from p2pcards.records.transcript import read_transcript
from p2pcards.seating.genesis import Genesis
from p2pcards.verify import verify_transcript

EVIL = Path(__file__).with_name("evil_dealer.py")


class EvilDealer(Peer):
    """``tests/evil_dealer.py HOLDER ARGS...`` (``host …`` or ``join …``) as a process,
    collected like a :class:`Peer`."""

    def __init__(self, home: Path, holder: int, *args: str) -> None:  # noqa: D107
        super().__init__(home, str(holder), *args, "--ephemeral-identity", script=EVIL)


def seat_table(tmp_path: Path, players: int, dealer: int, holder: int) -> list[Peer]:
    """A table of ``players`` bot processes whose seat ``dealer`` (the host, or the last to
    join) deals ``holder`` a wrong share; every peer has its own home."""
    game = ("--game", "scopa", "--players", str(players), "--bot")
    if dealer == 0:
        hosting: Peer = EvilDealer(tmp_path / "host", holder, "host", "--listen", "127.0.0.1:0",
                                   *game)
        invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    else:
        hosting, invite = host(tmp_path / "host", *game)
    peers = [hosting]
    for seat in range(1, players):
        home = tmp_path / f"seat{seat}"
        if seat == dealer:
            peers.append(EvilDealer(home, holder, "join", invite, "--bot", "--accept"))
        else:
            peers.append(join(home, invite, "--bot", "--accept"))
        hosting.wait_for(rf"^seat {seat} \([A-Z2-7-]+\) joined")
    return peers


@pytest.mark.parametrize(("players", "dealer", "holder"), [
    (3, 2, 1), (3, 0, 2), pytest.param(4, 3, 0, marks=pytest.mark.slow)])
def test_a_dealer_of_a_wrong_share_is_named_by_every_process_and_every_transcript(
        tmp_path: Path, players: int, dealer: int, holder: int) -> None:
    """The last shuffler (the last to join) cheats a joiner, or the host; or the host (the
    first shuffler) cheats a joiner."""
    peers = seat_table(tmp_path, players, dealer, holder)
    codes = [peer.finish() for peer in peers]
    assert codes == [1] * players, [(p.stderr, p.stdout[-2000:]) for p in peers]
    for peer in peers:
        assert "Traceback" not in peer.stderr, peer.stderr
        assert f"seat {dealer} dealt seat {holder} a share of its hand key that does not " \
               "match its commitments" in peer.stderr, peer.stderr
        assert "[bad-key-share]" in peer.stderr and "forfeits by dropping out" not in peer.stdout
        report = verify_transcript(peer.transcript())
        assert report.status == "invalid" and report.violation is not None
        assert (report.violation.rule, report.violation.seat, report.violation.source) == (
            "bad-key-share", dealer, "chain")
        assert report.dropout is None and report.hands == () and not report.evidence
        # the complaint is every transcript's last envelope, signed by the holder
        assert report.violation.detected_at == report.envelopes - 1
        recorded = read_transcript(peer.transcript())
        genesis = Genesis.decode(recorded.genesis)
        payloads = [decode(frame, genesis)[1] for frame in recorded.envelopes]
        assert (payloads[-1].kind, payloads[-1].seat) == ("complain", holder)
        assert not {p.kind for p in payloads} & {"reveal", "recover", "action"}
