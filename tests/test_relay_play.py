"""``p2pcards host --relay`` and ``join`` of a relay invite: real processes, a real relay process.

Whole matches (bots and a person typing on standard input), a joiner whose connection to the
relay is cut mid-hand, another room member sending noise, a joiner that dies, and wrong, stale
and late invites. Waits have deadlines only so that a broken build fails instead of hanging.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import trio
from test_net_processes import BRISCOLA_2, Peer, join, joined_fingerprint
from test_relay_support import RelayProcess

from p2pcards.net.relay_mux import CONN_ID_SIZE
from p2pcards.records.transcript import read_transcript
from p2pcards.relay import Delivery, RelayError, connect
from p2pcards.relay.messages import decode_relay_message, encode_delivery
from p2pcards.seating.invite import Invite
from p2pcards.verify import verify_transcript
from p2pcards.wire import IdentityKey, codec
from p2pcards.wire.framing import MAX_FRAME_SIZE, FrameDecoder, encode_frame

INVITE = (r"^p2pcards join '(p2pcards\+relay://127\.0\.0\.1:\d+/[0-9a-f]{32}\?rules=[0-9a-f]{32}"
          r"(?:&via=[^#']+)?#[A-Z2-7-]+)'$")


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RelayProcess]:
    process = RelayProcess(tmp_path_factory.mktemp("relay") / "relay.log")
    yield process
    assert process.stop(signal.SIGTERM) == 0


def relay_host(home: Path, port: int, *args: str, stdin: str | None = None) -> tuple[Peer, str]:
    """A host playing through the relay at ``port``, and its relay invite."""
    peer = Peer(home, "host", "--relay", f"127.0.0.1:{port}", "--relay-only",
                "--ephemeral-identity", *args,
                stdin=stdin)
    return peer, peer.wait_for(INVITE)[1]


def same_chain(*peers: Peer) -> bool:
    return len({tuple(read_transcript(p.transcript()).envelopes) for p in peers}) == 1


@pytest.mark.parametrize(("game", "variant", "players", "bots"), [
    ("scopa", "classic", 2, 0),
    ("briscola", "italian", 4, 1),  # two hands (the classic preset plays to 3 hands won)
    pytest.param("tressette", "classic", 3, 0, marks=pytest.mark.slow),
])
def test_a_whole_match_through_the_relay(tmp_path: Path, relay: RelayProcess, game: str,
                                         variant: str, players: int, bots: int) -> None:
    hosting, invite = relay_host(tmp_path, relay.port, "--game", game, "--variant", variant,
                                 "--players", str(players), "--bots", str(bots), "--bot")
    assert "through the relay at 127.0.0.1:" in hosting.stdout
    joiners = [join(tmp_path, invite, "--bot") for _ in range(players - 1 - bots)]
    codes = [p.finish() for p in joiners] + [hosting.finish()]
    assert codes == [0] * len(codes), [p.stderr for p in [*joiners, hosting]]
    assert verify_transcript(hosting.transcript()).status == "valid"
    assert same_chain(hosting, *joiners)
    for peer in joiners:
        assert "every seat is taken" in peer.stdout and "match over: " in peer.stdout
    room = Invite.parse(invite).nonce
    assert room.hex() not in relay.log()  # the relay logs a hash of the room code, not the code


def test_a_person_plays_through_the_relay(tmp_path: Path, relay: RelayProcess) -> None:
    hosting, invite = relay_host(tmp_path, relay.port, *BRISCOLA_2, "--bot")
    typed = "y\n" + "99\n" + "1\n" * 200  # sits down at the table, then plays
    person = join(tmp_path, invite, stdin=typed)
    assert person.finish() == 0, person.stderr
    assert "sit at this table with these rules? [y/N]" in person.stdout
    assert hosting.finish() == 0, hosting.stderr
    assert "99 is not a move number (1 to 3)" in person.stdout
    assert person.stdout.count("your turn") >= 20
    assert "match over: " in person.stdout
    assert verify_transcript(person.transcript()).status == "valid"
    assert same_chain(hosting, person)


Downstream = Callable[[bytes], bytes | None]
"""What a proxy does to the bytes the relay sends its client: the bytes to pass on, or None to
cut the connection."""


class RelayProxy:
    """A TCP proxy in front of the relay; :meth:`downstream` decides, per connection, what of
    the relay's bytes reaches the client (the client's bytes pass untouched)."""

    def __init__(self, relay_port: int) -> None:
        self.relay_port = relay_port
        self.connections = 0

    def downstream(self) -> Downstream:
        return lambda data: data

    async def serve(self, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, client: trio.SocketStream) -> None:
        self.connections += 1
        change = self.downstream()
        upstream = await trio.open_tcp_stream("127.0.0.1", self.relay_port)
        async with trio.open_nursery() as nursery:
            async def pipe(source: trio.SocketStream, sink: trio.SocketStream,
                           change: Downstream) -> None:
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    while data := await source.receive_some(65536):
                        passed = change(data)
                        if passed is None:
                            break
                        await sink.send_all(passed)
                nursery.cancel_scope.cancel()

            nursery.start_soon(pipe, client, upstream, lambda data: data)
            nursery.start_soon(pipe, upstream, client, change)
        await trio.aclose_forcefully(client)
        await trio.aclose_forcefully(upstream)


class CuttingProxy(RelayProxy):
    """Cuts its first connection once ``cut_after`` bytes have come from the relay; later
    connections pass untouched."""

    def __init__(self, relay_port: int, cut_after: int) -> None:
        super().__init__(relay_port)
        self.cut_after = cut_after
        self.cut = False

    def downstream(self) -> Downstream:
        if self.connections > 1:
            return super().downstream()
        moved = 0

        def change(data: bytes) -> bytes | None:
            nonlocal moved
            if moved >= self.cut_after:
                self.cut = True
                return None
            moved += len(data)
            return data

        return change


class FlippingProxy(RelayProxy):
    """Plays a dishonest relay towards its client: in the ``nth`` envelope it forwards, it
    flips one bit in the middle of the envelope."""

    def __init__(self, relay_port: int, nth: int) -> None:
        super().__init__(relay_port)
        self.nth = nth
        self.envelopes = 0
        self.flipped = False

    def downstream(self) -> Downstream:
        decoder = FrameDecoder(MAX_FRAME_SIZE + 1024)
        return lambda data: b"".join(encode_frame(self._tamper(frame), MAX_FRAME_SIZE + 1024)
                                     for frame in decoder.feed(data))

    def _tamper(self, frame: bytes) -> bytes:
        try:
            delivery = decode_relay_message(frame, MAX_FRAME_SIZE)
        except RelayError:
            return frame  # the handshake's challenge: passed on as it is
        if not isinstance(delivery, Delivery) or delivery.payload is None:
            return frame
        to, conn, data = codec.unpack(delivery.payload, max_size=len(delivery.payload))
        message = None if data is None else codec.unpack(data, max_size=len(data))
        if message is None or message["type"] != "envelope":
            return frame
        self.envelopes += 1
        if self.envelopes != self.nth:
            return frame
        envelope = bytearray(message["data"])
        envelope[len(envelope) // 2] ^= 0x01
        self.flipped = True
        message["data"] = bytes(envelope)
        payload = codec.pack([to, conn, codec.pack(message)])
        return encode_delivery(delivery.index, delivery.slot, payload)


async def play_through(proxy: RelayProxy, invite: str, hosting: Peer,
                       tmp_path: Path) -> tuple[Peer, int, int]:
    """A bot joiner whose connection to the relay goes through ``proxy``; the joiner and its
    and the host's exit statuses once both have finished."""
    async with trio.open_nursery() as nursery:
        proxy_port = await nursery.start(proxy.serve)
        parsed = Invite.parse(invite)
        through_proxy = Invite("127.0.0.1", proxy_port, parsed.nonce, parsed.fingerprint,
                               relay=True)
        guest = join(tmp_path, str(through_proxy), "--bot")
        guest_code = await trio.to_thread.run_sync(guest.finish)
        host_code = await trio.to_thread.run_sync(hosting.finish)
        nursery.cancel_scope.cancel()
    return guest, guest_code, host_code


async def test_a_joiner_whose_relay_connection_breaks_mid_hand_catches_up(
        tmp_path: Path, relay: RelayProcess) -> None:
    hosting, invite = relay_host(tmp_path, relay.port, *BRISCOLA_2, "--bot")
    proxy = CuttingProxy(relay.port, cut_after=30_000)  # after the shuffles of the first hand
    guest, guest_code, host_code = await play_through(proxy, invite, hosting, tmp_path)
    assert guest_code == 0, guest.stderr
    assert host_code == 0, hosting.stderr
    assert proxy.cut and proxy.connections >= 2
    assert verify_transcript(guest.transcript()).status == "valid"
    assert same_chain(hosting, guest)
    assert re.search(r"event=joined .* slot=1 .* since=\d+ ", relay.log())  # a catch-up


async def test_a_relay_that_flips_a_bit_is_caught_and_named(tmp_path: Path,
                                                            relay: RelayProcess) -> None:
    hosting, invite = relay_host(tmp_path, relay.port, *BRISCOLA_2, "--bot")
    proxy = FlippingProxy(relay.port, nth=6)
    guest, guest_code, host_code = await play_through(proxy, invite, hosting, tmp_path)
    assert guest_code == 1, guest.stderr
    assert host_code == 3, hosting.stderr
    assert proxy.flipped
    assert guest.stderr.startswith("p2pcards: protocol violation: ")
    assert "bad-signature" in guest.stderr
    assert hosting.stderr.startswith("p2pcards: seat 1 (")
    assert "aborted the match: protocol violation: " in hosting.stderr
    # the joiner's transcript holds only what it accepted: a valid, incomplete match
    assert verify_transcript(guest.transcript()).status == "incomplete"


async def test_noise_from_another_room_member_does_not_disturb_the_table(
        tmp_path: Path, relay: RelayProcess) -> None:
    hosting, invite = relay_host(tmp_path, relay.port, *BRISCOLA_2, "--bot")
    parsed = Invite.parse(invite)
    noise = await connect("127.0.0.1", relay.port, parsed.nonce, IdentityKey.generate())
    junk = [b"\xc1", b"not msgpack at all", codec.pack([0, b"short", b"x"]),
            codec.pack([7, os.urandom(CONN_ID_SIZE), b"for a slot nobody has"]),
            codec.pack([0, os.urandom(CONN_ID_SIZE), None]),  # the end of an unknown connection
            codec.pack({"to": 0}), codec.pack([0, os.urandom(CONN_ID_SIZE), 5])]
    for payload in junk:
        await noise.send(payload)
    guest = join(tmp_path, invite, "--bot")
    for payload in junk:
        await noise.send(payload)
    assert await trio.to_thread.run_sync(guest.finish) == 0, guest.stderr
    assert await trio.to_thread.run_sync(hosting.finish) == 0, hosting.stderr
    await noise.aclose()
    assert same_chain(hosting, guest)
    assert "refused" not in hosting.stdout


def test_a_joiner_that_dies_is_named_by_the_host(tmp_path: Path, relay: RelayProcess) -> None:
    hosting, invite = relay_host(tmp_path, relay.port, *BRISCOLA_2, "--bot",
                                 "--move-timeout", "5")  # a move: automatic steps keep 60 s
    person = join(tmp_path, invite, "--accept", stdin="")
    fingerprint = joined_fingerprint(hosting, 1)
    person.wait_for(r"^ +1\. ")  # asked to move
    person.kill()
    assert hosting.finish() == 3
    assert hosting.stderr == f"p2pcards: seat 1 ({fingerprint}) did not answer within 5 seconds"
    assert verify_transcript(hosting.transcript()).status == "incomplete"


def test_wrong_stale_and_late_relay_invites_are_refused(tmp_path: Path,
                                                        relay: RelayProcess) -> None:
    hosting, invite = relay_host(tmp_path, relay.port, *BRISCOLA_2, "--bot")
    parsed = Invite.parse(invite)

    stale = Invite(parsed.host, parsed.port, os.urandom(16), parsed.fingerprint, relay=True)
    refused = join(tmp_path, str(stale), "--bot")
    assert refused.finish() == 3
    assert refused.stderr == (f"p2pcards: nobody is hosting the table of this invite at the "
                              f"relay 127.0.0.1:{relay.port} now (the host has not started yet or "
                              "has already left, or the invite is wrong or stale; ask the host "
                              "for a fresh one)")

    impostor = IdentityKey.generate().public.fingerprint
    wrong = Invite(parsed.host, parsed.port, parsed.nonce, impostor, relay=True)
    fooled = join(tmp_path, str(wrong), "--bot")
    assert fooled.finish() == 3
    assert f"not the invite's {impostor}: this is not the host who sent the invite" in \
        fooled.stderr

    guest = join(tmp_path, invite, "--bot")
    joined_fingerprint(hosting, 1)
    late = join(tmp_path, invite, "--bot")
    assert late.finish() == 3
    assert late.stderr.endswith("refused: the table is full")
    assert guest.finish() == 0 and hosting.finish() == 0
    everyone = [hosting, refused, fooled, guest, late]
    assert "Traceback" not in "".join(p.stderr for p in everyone)


def test_an_unreachable_relay_is_one_sentence(tmp_path: Path) -> None:
    with refusing_port() as port:
        hosting = Peer(tmp_path, "host", "--relay", f"127.0.0.1:{port}", "--bot",
                       "--ephemeral-identity")
        assert hosting.finish() == 3
    assert re.fullmatch(rf"p2pcards: cannot use the relay at 127\.0\.0\.1:{port}: cannot reach "
                        r"the relay .*", hosting.stderr), hosting.stderr
    bad = Peer(tmp_path, "host", "--relay", "nowhere:0", "--bot")
    assert bad.finish() == 2
    assert bad.stderr == ("p2pcards: --relay 'nowhere:0' must be HOST or HOST:PORT, for example "
                          "relay.example.org:7447")


@contextmanager
def refusing_port() -> Iterator[int]:
    """A loopback port that is bound but not listening while the block runs."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def test_two_people_on_one_machine_and_one_account_play_through_the_relay(
        tmp_path: Path, relay: RelayProcess) -> None:
    """Host and joiner share one P2PCARDS_HOME and its stored identity: the joiner finds the
    identity taken and plays with a fresh one, and says so."""
    home = tmp_path / "shared-home"
    hosting = Peer(home, "host", "--relay", f"127.0.0.1:{relay.port}", *BRISCOLA_2, "--bot")
    invite = hosting.wait_for(INVITE)[1]
    guest = Peer(home, "join", invite, "--bot")
    assert (guest.finish(), hosting.finish()) == (0, 0), (guest.stderr, hosting.stderr)
    assert "already plays a seat in another p2pcards on this machine, so this seat uses a " \
        "fresh identity for this match" in guest.stdout
    assert verify_transcript(hosting.transcript()).status == "valid"


def test_a_copied_identity_through_the_relay_is_told_what_to_type(
        tmp_path: Path, relay: RelayProcess) -> None:
    """Two homes holding the same identity file (copied, or a synced home directory, where the
    identity lock cannot see the other process): the joiner still reaches the host through the
    relay (it proves a fresh key to the relay, never the host's) and the host's refusal says
    what to type; then the same joiner with --ephemeral-identity plays."""
    hosting = Peer(tmp_path / "a", "host", "--relay", f"127.0.0.1:{relay.port}", *BRISCOLA_2,
                   "--bot")
    invite = hosting.wait_for(INVITE)[1]
    (tmp_path / "b").mkdir()
    copy = tmp_path / "b" / "identity.key"
    copy.write_bytes((tmp_path / "a" / "identity.key").read_bytes())
    copy.chmod(0o600)
    twin = Peer(tmp_path / "b", "join", invite, "--bot")
    assert twin.finish() == 3, twin.stderr
    assert "nobody is hosting" not in twin.stderr
    assert "already has a seat at this table (a second seat from the same account joins with " \
        "--ephemeral-identity)" in twin.stderr, twin.stderr
    guest = Peer(tmp_path / "b", "join", invite, "--bot", "--ephemeral-identity")
    assert (guest.finish(), hosting.finish()) == (0, 0), (guest.stderr, hosting.stderr)
    assert verify_transcript(hosting.transcript()).status == "valid"
