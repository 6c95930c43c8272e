"""Re-entry through a party on the path (SPEC §11.7.2, §11.7.3): a real host and a real joiner
in their own processes, the joiner's connections passing through a TCP proxy in this test. The
proxy cuts the joiner's first connection mid-match, so that the joiner comes back on a new one
(a ``rejoin`` whose key proofs the proxy passes untouched), and on that connection it may
rewrite the ``head`` of one side's ``resume``.

The rewritten ``resume`` no longer carries its sender's signature on the connection's
challenges: the side that receives it ends the match saying the connection was tampered with,
and nobody is blamed (no protocol violation, no seat named as its author). The host names the
returning seat by its seat and fingerprint, never by the address of its new connection. Without
a rewrite the match completes and both transcripts verify alike."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from pathlib import Path

import pytest
from test_net_processes import BRISCOLA_2, Peer, host, join, joined_fingerprint
from test_resume_processes import _complete, _same_chain

from p2pcards.seating.invite import Invite
from p2pcards.verify import verify_transcript
from p2pcards.wire import codec
from p2pcards.wire.framing import FrameDecoder, encode_frame


class RewritingProxy:
    """A TCP proxy from a local port to ``upstream`` that forwards bytes both ways. Every
    connection after the first (the first is the joiner's seating connection, cut with
    :meth:`cut`) has the ``resume`` messages of direction ``rewrite`` ("from-host" or
    "from-joiner") changed: their ``head`` is inverted, bit by bit, and nothing else."""

    def __init__(self, upstream: tuple[str, int], rewrite: str | None) -> None:
        self.upstream = upstream
        self.rewrite = rewrite
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.accepted = 0
        self.rewritten = threading.Event()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                joiner, _ = self.server.accept()
            except OSError:
                return
            hosting = socket.create_connection(self.upstream)
            with self.lock:
                index = self.accepted
                self.accepted += 1
                self.sockets += [joiner, hosting]
            changing = self.rewrite if index > 0 else None
            threading.Thread(target=self._pump, args=(hosting, joiner, changing == "from-host"),
                             daemon=True).start()
            threading.Thread(target=self._pump,
                             args=(joiner, hosting, changing == "from-joiner"),
                             daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, rewriting: bool) -> None:
        decoder = FrameDecoder()
        try:
            while data := source.recv(65536):
                if rewriting:
                    data = b"".join(encode_frame(self._changed(frame))
                                    for frame in decoder.feed(data))
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def _changed(self, frame: bytes) -> bytes:
        message = codec.unpack(frame, max_size=len(frame))
        if not isinstance(message, dict) or message.get("type") != "resume":
            return frame
        message["head"] = bytes(b ^ 0xFF for b in message["head"])
        self.rewritten.set()
        return codec.pack(message)

    def cut(self) -> None:
        """Close every connection through the proxy (both ends see it closed)."""
        with self.lock:
            for end in self.sockets:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.server.close()
        self.cut()


def _through(tmp_path: Path, rewrite: str | None) -> tuple[Peer, Peer, RewritingProxy, str]:
    """A bot host and a bot joiner whose connections pass through a proxy; the joiner's first
    connection is cut once hand 1 has begun. The host's fingerprint of seat 1 is returned."""
    hosting, invite = host(tmp_path / "host", *BRISCOLA_2, "--bot", "--return-wait", "90")
    parsed = Invite.parse(invite)
    proxy = RewritingProxy((parsed.host, parsed.port), rewrite)
    detour = str(Invite(parsed.host, proxy.port, parsed.nonce, parsed.fingerprint))
    guest = join(tmp_path / "guest", detour, "--accept", "--bot", "--return-wait", "90")
    fingerprint = joined_fingerprint(hosting, 1)
    for peer in (hosting, guest):
        peer.wait_for(r"— hand 1 begins$")
    proxy.cut()
    return hosting, guest, proxy, fingerprint


@pytest.mark.parametrize("rewrite", ["from-host", "from-joiner"])
def test_a_resume_rewritten_on_the_path_blames_nobody(tmp_path: Path, rewrite: str) -> None:
    hosting, guest, proxy, seat_1 = _through(tmp_path, rewrite)
    try:
        codes = (hosting.finish(), guest.finish())
    finally:
        for peer in (hosting, guest):
            peer.kill()
        proxy.close()
    assert proxy.rewritten.is_set()
    assert proxy.accepted >= 2, "the joiner came back on a new connection"
    assert codes == (3, 3), (hosting.stderr, guest.stderr)
    host_fp = re.search(r"the host \(seat 0 \(([A-Z2-7-]+)\)\)", guest.stderr)
    assert host_fp is not None, guest.stderr
    if rewrite == "from-host":  # the joiner judges the host's resume
        judge, other = guest, hosting
        connection, signer = f"the host (seat 0 ({host_fp[1]}))", f"{host_fp[1]} of seat 0"
    else:  # the host judges the joiner's
        judge, other = hosting, guest
        connection, signer = f"seat 1 ({seat_1})", f"{seat_1} of seat 1"
    verdict = (f"the connection to {connection} was tampered with: a 'resume' arrived that the "
               f"key {signer} did not sign on this connection; its seat is not blamed, and the "
               "match ends")
    assert judge.stderr == f"p2pcards: {verdict}"
    assert other.stderr.endswith(f"aborted the match: {verdict}"), other.stderr
    for peer in (hosting, guest):
        assert "protocol violation" not in peer.stdout + peer.stderr
        assert "a joiner from" not in peer.stdout + peer.stderr
        assert "Traceback" not in peer.stderr
        assert verify_transcript(peer.transcript()).status == "incomplete"


def test_at_three_seats_the_other_joiner_blames_nobody_either(tmp_path: Path) -> None:
    """The host's resume to seat 1 is rewritten: seat 1 ends the match naming nobody, and the
    host and seat 2, which hear of it by ``abort``, repeat no accusation."""
    hosting, invite = host(tmp_path / "host", "--game", "briscola", "--players", "3", "--bot",
                           "--dropout", "off", "--return-wait", "90")
    parsed = Invite.parse(invite)
    proxy = RewritingProxy((parsed.host, parsed.port), "from-host")
    detour = str(Invite(parsed.host, proxy.port, parsed.nonce, parsed.fingerprint))
    guest = join(tmp_path / "guest", detour, "--accept", "--bot", "--return-wait", "90")
    joined_fingerprint(hosting, 1)
    other = join(tmp_path / "other", invite, "--accept", "--bot")
    try:
        for peer in (hosting, guest, other):
            peer.wait_for(r"— hand 1 begins$")
        proxy.cut()
        codes = [peer.finish() for peer in (hosting, guest, other)]
    finally:
        for peer in (hosting, guest, other):
            peer.kill()
        proxy.close()
    assert proxy.rewritten.is_set()
    assert codes == [3, 3, 3], [peer.stderr for peer in (hosting, guest, other)]
    assert re.fullmatch(r"p2pcards: the connection to the host \(seat 0 \(\S+\)\) was tampered "
                        r"with: a 'resume' arrived that the key \S+ of seat 0 did not sign on "
                        r"this connection; its seat is not blamed, and the match ends",
                        guest.stderr), guest.stderr
    for peer in (hosting, other):
        assert peer.stderr.endswith("its seat is not blamed, and the match ends"), peer.stderr
    for peer in (hosting, guest, other):
        assert "protocol violation" not in peer.stdout + peer.stderr
        assert verify_transcript(peer.transcript()).status == "incomplete"


def test_a_seat_back_through_an_honest_path_finishes_the_match(tmp_path: Path) -> None:
    hosting, guest, proxy, seat_1 = _through(tmp_path, None)
    try:
        mine, theirs = _complete(hosting), _complete(guest, verify=False)
    finally:
        for peer in (hosting, guest):
            peer.kill()
        proxy.close()
    assert proxy.accepted >= 2
    _same_chain(mine, theirs)
    assert any(re.fullmatch(r"\S+ \[1\] is back: catching up from envelope \d+", line)
               for line in hosting.out), hosting.out
    assert "a joiner from" not in hosting.stdout + hosting.stderr
