"""Attacks on a real relay process from many loopback addresses (127.0.0.2, 127.1.x.y ... are all
loopback on Linux; each client binds its side to one), against real host and joiner processes:
one address that takes all the rooms and connections it can keeps no other host out, and a
brute force of short codes from thousands of addresses ends after the host's cap of burned
codes, with the odds the threat model states."""

from __future__ import annotations

import re
import secrets
import signal
import threading
from collections.abc import Callable
from pathlib import Path

import trio
from test_codes import CODE_LINE, nth_code
from test_net_processes import DEADLINE, Peer
from test_relay_support import RelayProcess

from p2pcards.net.codes import MAX_BURNS, redeem_code
from p2pcards.net.errors import MatchFailure
from p2pcards.relay import RelayConnection, RelayRejected, connect
from p2pcards.seating.codes import WORDS, Code, parse_code
from p2pcards.verify import verify_transcript
from p2pcards.wire import IdentityKey

ROOT = Path(__file__).resolve().parent.parent
BRISCOLA = ("--game", "briscola", "--variant", "italian", "--players", "2")


def in_background(job: Callable[[threading.Event], object]) -> tuple[threading.Thread,
                                                                      threading.Event]:
    """Run ``job(stop)`` in a thread of its own; set the returned event to ask it to stop."""
    stop = threading.Event()
    thread = threading.Thread(target=job, args=(stop,), daemon=True)
    thread.start()
    return thread, stop


# ----------------------------------------------------------------------------- rooms, connections


def test_one_address_at_its_caps_keeps_no_other_host_out(tmp_path: Path) -> None:
    """Issue scenario: a relay of 40 rooms; from 127.0.0.2, with fresh keys and room codes, a
    client opens rooms until refused (8, the default cap) and fills the connections its
    address may hold (32) with members of them, and keeps them all alive; a real host and
    joiner then play a whole match through the relay, and their transcripts verify."""
    relay = RelayProcess(tmp_path / "relay.log", "--max-rooms", "40",
                         "--max-rooms-per-address", "8", "--max-connections-per-address", "32")
    squatter: dict[str, object] = {}
    ready = threading.Event()

    def squat(stop: threading.Event) -> None:
        async def run() -> None:
            conns: list[RelayConnection] = []
            refusals: list[str] = []

            async def attempt(room: bytes) -> None:
                try:
                    conns.append(await connect("127.0.0.1", relay.port, room,
                                               IdentityKey.generate(), keepalive=5.0,
                                               local_address="127.0.0.2"))
                except RelayRejected as exc:
                    refusals.append(exc.reason)

            rooms = [secrets.token_bytes(16) for _ in range(9)]
            for room in rooms:
                await attempt(room)
            while len(conns) < 32:  # more members of its own rooms, up to its connections
                await attempt(rooms[len(conns) % 8])
            await attempt(rooms[0])
            squatter.update(rooms=len(rooms) - refusals.count("rooms-per-address"),
                            connections=len(conns), refusals=refusals)
            ready.set()
            async with trio.open_nursery() as nursery:
                for conn in conns:  # receive() sends the keepalives
                    nursery.start_soon(conn.receive)
                await trio.to_thread.run_sync(stop.wait)
                nursery.cancel_scope.cancel()
            for conn in conns:
                await conn.aclose()

        trio.run(run)

    thread, stop = in_background(squat)
    try:
        assert ready.wait(DEADLINE)
        assert squatter == {"rooms": 8, "connections": 32,
                            "refusals": ["rooms-per-address", "connections-per-address"]}
        hosting = Peer(tmp_path / "host", "host", *BRISCOLA, "--relay",
                       f"127.0.0.1:{relay.port}", "--relay-only", "--bot")
        invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
        joining = Peer(tmp_path / "joiner", "join", invite, "--bot")
        assert (joining.finish(), hosting.finish()) == (0, 0), (joining.stderr, hosting.stderr)
        for peer in (hosting, joining):
            assert verify_transcript(peer.transcript()).status == "valid"
        assert thread.is_alive()  # the squatter held its rooms through the whole match
        log = relay.log()
        assert re.search(r"event=closed peer=127\.0\.0\.2:\d+ .*reason=rooms-per-address", log)
        assert "reason=rooms-full" not in log
    finally:
        stop.set()
        thread.join(DEADLINE)
        assert relay.stop(signal.SIGTERM) == 0


# ----------------------------------------------------------------------------- short codes


def source(n: int) -> str:
    """The ``n``-th guessing address, 127.1.0.1 on: a fresh one for every try."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


class BruteForce:
    """Claims every code number in turn from a fresh address each time, with words at random
    (never the host's: the test can read them), until told to stop; counts the tries that
    reached the host (a burned code) and everything the relay answered."""

    def __init__(self, port: int, printed: Callable[[], list[str]]) -> None:
        self.port = port
        self.printed = printed
        self.guesses: list[int] = []
        self.tries = 0
        self.answers: dict[str, int] = {}
        self.passes_after_stop = 0

    def guess(self, plate: int) -> Code:
        known = {parse_code(c).words for c in self.printed() if parse_code(c).nameplate == plate}
        while True:
            words = (secrets.choice(WORDS), secrets.choice(WORDS))
            if words not in known:
                return Code(plate, words)

    async def one(self, plate: int) -> None:
        self.tries += 1
        address = source(self.tries)
        try:
            await redeem_code(("127.0.0.1", self.port), self.guess(plate), local_address=address)
            raise AssertionError("a guess with the wrong words opened a code")
        except MatchFailure as exc:
            text = str(exc)
            kind = ("burned" if "a wrong try burns it" in text else
                    "unknown" if text.startswith("nobody offers") else
                    "used" if "each code opens once" in text else text.split(":")[0][:60])
            self.answers[kind] = self.answers.get(kind, 0) + 1
            if kind == "burned":
                self.guesses.append(plate)

    async def run(self, stopped: threading.Event) -> None:
        """Sweep all numbers, 24 at a time, until ``stopped`` is set, then sweep twice more."""
        limiter = trio.CapacityLimiter(24)

        async def limited(plate: int) -> None:
            async with limiter:
                await self.one(plate)

        while self.passes_after_stop < 2:
            after_stop = stopped.is_set()
            async with trio.open_nursery() as nursery:
                for plate in range(1, 1000):
                    nursery.start_soon(limited, plate)
            self.passes_after_stop += after_stop


def test_a_brute_force_from_thousands_of_addresses_ends_after_the_cap(tmp_path: Path) -> None:
    """A real relay (per-address limits of no use against 127.1.x.y, and the per-number limit
    opened wide so that only the host's cap can end the attack), a real host offering codes,
    and a guesser sweeping every number from a fresh address each time. The host burns 3 codes,
    says it stops, and the sweeps that follow find nothing to guess at: 3 tries in all, the
    odds the threat model states. Then the person types codes: a new code seats a friend, at
    once, though the relay has just tracked thousands of guessing addresses (a full tracker
    makes room for a new address instead of refusing it: RELAY.md, "Limits and reasons")."""
    relay = RelayProcess(tmp_path / "relay.log", "--number-tries-burst", "1000")
    try:
        address = f"127.0.0.1:{relay.port}"
        hosting = Peer(tmp_path / "host", "host", *BRISCOLA, "--relay", address, "--relay-only",
                       "--code",
                       "--bot", stdin="")
        nth_code(hosting, 1)

        def printed() -> list[str]:
            return [m[1] for m in (re.match(CODE_LINE, line) for line in list(hosting.out)) if m]

        attack = BruteForce(relay.port, printed)
        stop_line = (f"{MAX_BURNS} codes were burned by wrong tries, so no more codes are "
                     "offered (someone may be guessing them); the long invite still works")

        def watch(stop: threading.Event) -> None:
            hosting.wait_for("^" + re.escape(stop_line) + "$")
            stop.set()

        watcher, stopped = in_background(watch)
        trio.run(attack.run, stopped)
        watcher.join(DEADLINE)
        assert stopped.is_set()
        assert len(attack.guesses) == MAX_BURNS == 3, attack.answers
        assert len(printed()) == MAX_BURNS  # no code offered since the third burn
        assert sum(" is burned" in line for line in hosting.out) == MAX_BURNS
        assert hosting.out[-1] == "to offer new codes, type codes and press Enter"
        spec = (ROOT / "protocol" / "SPEC.md").read_text()
        assert f"\n    {stop_line}\n" in spec and f"prints `{hosting.out[-1]}`" in spec
        assert attack.tries >= 3 * 999 and attack.answers["unknown"] >= 2 * 999 - MAX_BURNS
        odds = 1 - (1 - 1 / len(WORDS) ** 2) ** len(attack.guesses)
        threat_model = " ".join((ROOT / "docs" / "threat-model.md").read_text().split())
        assert f"1 in {round(1 / odds):,}" in threat_model, round(1 / odds)

        assert hosting.process.stdin is not None
        hosting.process.stdin.write("codes\n")
        hosting.process.stdin.flush()
        hosting.wait_for("^offering invite codes again$")
        fresh = nth_code(hosting, MAX_BURNS + 1)
        friend = Peer(tmp_path / "friend", "join", fresh, "--relay", address, "--bot")
        assert friend.finish() == 0, friend.stderr
        assert hosting.finish() == 0, hosting.stderr
        assert verify_transcript(friend.transcript()).status == "valid"
        log = relay.log()
        assert log.count("event=mailbox-claimed") == MAX_BURNS + 1
        tables = set(re.findall(r"event=mailbox-opened .*table=([0-9a-f]{12}) ", log))
        rooms = set(re.findall(r"event=joined .*room=([0-9a-f]{12}) slot=0 ", log))
        assert len(tables) == 1 and tables == rooms  # the mailboxes name the host's room
    finally:
        assert relay.stop(signal.SIGTERM) == 0
