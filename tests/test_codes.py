"""Short invite codes: the SPAKE2 exchange (sans-IO) and codes redeemed through a real relay
process by real host and joiner processes."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_net_processes import BRISCOLA_2, DEADLINE, Peer
from test_relay_support import RelayProcess

from p2pcards.seating.codes import (
    NAMEPLATES,
    WORDS,
    Code,
    CodeError,
    HostExchange,
    JoinerExchange,
    Unlocked,
    WrongCode,
    looks_like_code,
    parse_code,
)
from p2pcards.verify import verify_transcript
from p2pcards.wire import codec

INVITE = "p2pcards+relay://relay.example.org:7447/" + "ab" * 16 + "#JAJX-SQVL-PT7R-BAEY"
HOST_KEY = bytes(range(32))
codes = st.builds(Code, st.integers(1, NAMEPLATES),
                  st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS)))


def exchange(host_code: Code, joiner_code: Code) -> tuple[Unlocked | None, bool, list[bytes]]:
    """Run the three bodies; what the joiner unlocked (None: wrong), whether the host accepted
    the confirmation, and the bodies that crossed the relay."""
    host, joiner = HostExchange(host_code, INVITE, HOST_KEY), JoinerExchange(joiner_code)
    first = joiner.start()
    answer = host.answer(first)
    try:
        opened: Unlocked | None = joiner.open(answer)
    except WrongCode:
        opened = None
    confirm = joiner.confirmation()
    return opened, host.confirmed(confirm), [first, answer, confirm]


@settings(max_examples=20, deadline=None)
@given(codes)
def test_the_right_words_open_the_invite_and_confirm(code: Code) -> None:
    opened, confirmed, wire = exchange(code, code)
    assert (opened, confirmed) == (Unlocked(INVITE, HOST_KEY), True)
    for body in wire:  # only SPAKE2 messages, ciphertext and a MAC: no invite, key or words
        assert INVITE.encode() not in body and HOST_KEY not in body
        assert code.password not in body  # (a 2-letter word alone may occur by chance)


@settings(max_examples=20, deadline=None)
@given(codes, codes)
def test_other_words_open_nothing_and_burn_the_code(code: Code, guess: Code) -> None:
    if guess == code:
        return
    opened, confirmed, _ = exchange(code, guess)
    assert (opened, confirmed) == (None, False)


def test_the_bodies_have_exactly_the_specified_shape() -> None:
    """SPEC §11.6: 33-byte SPAKE2 messages, a box of the sealed map plus a 16-byte tag, a
    32-byte MAC, nothing else."""
    code = Code(7, ("scopa", "tavolo"))
    _, _, (first, answer, confirm) = exchange(code, code)
    limits = codec.Limits()
    one, two, three = (codec.unpack(b, max_size=4096, limits=limits)
                       for b in (first, answer, confirm))
    assert set(one) == {"type", "msg"} and one["type"] == "code-pake" and len(one["msg"]) == 33
    sealed = codec.pack({"invite": INVITE, "host": HOST_KEY})
    assert set(two) == {"type", "msg", "box"} and len(two["msg"]) == 33
    assert len(two["box"]) == len(sealed) + 16
    assert set(three) == {"type", "mac"} and len(three["mac"]) == 32


def test_a_tampered_answer_or_a_swapped_message_opens_nothing() -> None:
    """The box's associated data is the transcript hash: a relay that changes any byte of the
    host's answer, or replays an answer from another exchange, gets a wrong-code refusal."""
    code = Code(7, ("scopa", "tavolo"))
    joiner = JoinerExchange(code)
    answer = codec.unpack(HostExchange(code, INVITE, HOST_KEY).answer(joiner.start()),
                          max_size=4096, limits=codec.Limits())
    box = bytearray(answer["box"])
    box[-1] ^= 1
    with pytest.raises(WrongCode):
        joiner.open(codec.pack({**answer, "box": bytes(box)}))
    other = JoinerExchange(code)
    other.start()
    with pytest.raises(WrongCode):  # the answer was made for another joiner's message
        other.open(codec.pack(answer))
    with pytest.raises(CodeError, match="expected a 'code-pake' message"):
        JoinerExchange(code).open(codec.pack({"type": "code-pake", "msg": b"x"}))


def test_codes_are_parsed_strictly() -> None:
    assert parse_code(" 7-Scopa-Tavolo ") == Code(7, ("scopa", "tavolo"))
    assert str(Code(7, ("scopa", "tavolo"))) == "7-scopa-tavolo"
    assert looks_like_code("7-scopa-tavolo") and not looks_like_code("p2pcards://x")
    with pytest.raises(CodeError, match="'scopx' is not one of the code words"):
        parse_code("7-scopx-tavolo")
    with pytest.raises(CodeError, match="between 1 and 999"):
        parse_code("0-scopa-tavolo")
    with pytest.raises(CodeError, match="is not a code like"):
        parse_code("scopa-tavolo")
    assert len(set(WORDS)) == 256


# ----------------------------------------------------------------------------- processes


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RelayProcess]:
    process = RelayProcess(tmp_path_factory.mktemp("relay") / "relay.log")
    yield process
    assert process.stop(signal.SIGTERM) == 0


CODE_LINE = r"^p2pcards join (\d+-[a-z]+-[a-z]+) --relay 127\.0\.0\.1:\d+$"
OFFER = r"^or tell a player this code \(one use, for the next (.+)\):$"


def nth_code(peer: Peer, n: int) -> str:
    """The ``n``-th code the host printed (waits for it, up to the usual deadline)."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        found = [m[1] for m in (re.match(CODE_LINE, line) for line in list(peer.out)) if m]
        if len(found) >= n:
            return found[n - 1]
        assert peer.process.poll() is None, (peer.out, peer.err)
        time.sleep(0.02)
    raise AssertionError(f"fewer than {n} codes: {peer.out}")


def test_a_code_read_over_the_phone_seats_a_friend_and_a_wrong_try_burns_it(
        tmp_path: Path, relay: RelayProcess) -> None:
    address = f"127.0.0.1:{relay.port}"
    hosting = Peer(tmp_path / "host", "host", *BRISCOLA_2, "--relay", address,
                   "--code", "--bot")
    first = hosting.wait_for(CODE_LINE)[1]
    plate, one, two = first.split("-")
    wrong_word = next(w for w in WORDS if w not in (one, two))
    guesser = Peer(tmp_path / "guesser", "join", f"{plate}-{one}-{wrong_word}", "--relay",
                   address, "--bot")
    assert guesser.finish() == 3
    assert guesser.stderr == (f"p2pcards: the code {plate}-{one}-{wrong_word} is wrong or "
                              "already used (a wrong try burns it: ask the host for a new one)")
    hosting.wait_for(rf"^someone tried a wrong code, so {first} is burned$")
    late = Peer(tmp_path / "late", "join", first, "--relay", address, "--bot")
    assert late.finish() == 3  # the right words, but the code is burned
    assert late.stderr == (f"p2pcards: the code {first} is wrong or already used (each code "
                           "opens once: ask the host for a new one)")
    second = nth_code(hosting, 2)
    assert second != first
    friend = Peer(tmp_path / "friend", "join", second, "--relay", address, "--bot")
    assert (friend.finish(), hosting.finish()) == (0, 0), (friend.stderr, hosting.stderr)
    fingerprint = hosting.wait_for(r"^created your identity (\S+) in ")[1]
    assert f"the code {second} opened the invite of the host {fingerprint}" in friend.stdout
    assert verify_transcript(friend.transcript()).status == "valid"
    assert "Traceback" not in hosting.stderr + friend.stderr + guesser.stderr + late.stderr


def test_a_code_expires(tmp_path: Path, relay: RelayProcess) -> None:
    address = f"127.0.0.1:{relay.port}"
    hosting = Peer(tmp_path / "host", "host", *BRISCOLA_2, "--relay", address,
                   "--code", "--code-minutes", "0.02", "--bot")
    code = hosting.wait_for(CODE_LINE)[1]
    assert hosting.wait_for(OFFER)[1] == "1 second"
    hosting.wait_for(r"^the invite code expired; the long invite still works$")
    late = Peer(tmp_path / "late", "join", code, "--relay", address, "--bot")
    assert late.finish() == 3
    assert late.stderr == (f"p2pcards: nobody offers the code {code} at the relay {address} now "
                           "(it expired, the host left or its table is full, or the number is "
                           "wrong)")
    hosting.kill()


def join_with_the_newest_code(hosting: Peer, tmp_path: Path, address: str,
                              attempts: int = 5, shown: int | None = None) -> Peer:
    """A friend that joins with a code the host has just offered: the friend's process is
    started first (``join -`` reads its code from standard input once it has started, which
    on a loaded machine may take longer than a short code lives), then it is given the next
    code the host prints after the ``shown`` first ones (all those printed so far, unless
    given), with the code's whole time ahead of it, and the friend is returned while it
    plays. A friend told that its code is no longer offered all the same tries again (a few
    times at most)."""
    for attempt in range(attempts):
        if shown is None or attempt:
            shown = len([line for line in list(hosting.out) if re.match(CODE_LINE, line)])
        friend = Peer(tmp_path / f"friend{attempt}", "join", "-", "--relay", address, "--bot",
                      stdin="")
        fresh = nth_code(hosting, shown + 1)
        assert friend.process.stdin is not None
        friend.process.stdin.write(fresh + "\n")
        friend.process.stdin.flush()
        if not told_nobody_offers(friend, fresh, address):
            return friend
    raise AssertionError(f"no code lived long enough for a friend to claim it in {attempts} tries")


def told_nobody_offers(friend: Peer, code: str, address: str) -> bool:
    """Whether ``friend`` ends saying that nobody offers ``code`` now (waits for that answer or
    for the line saying that the code opened the host's invite); a friend the code let in plays
    on."""
    expired = f"p2pcards: nobody offers the code {code} at the relay {address} now"
    opened = f"the code {code} opened the invite of the host "
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if any(line.startswith(opened) for line in list(friend.out)):
            return False
        if friend.process.poll() is not None:
            return friend.finish() == 3 and friend.stderr.startswith(expired)
        time.sleep(0.02)
    raise AssertionError(f"the friend neither opened {code} nor was told that nobody offers it: "
                         f"{friend.out} {friend.err}")


def test_the_relay_drops_a_code_nobody_claims_and_the_host_offers_a_new_one(
        tmp_path: Path) -> None:
    """A relay whose operator holds codes for 10 s: the host's first code ends at the relay,
    the host offers a new one, which seats a friend (a friend already started while the first
    code lived, given the second code as soon as the host offers it: on a loaded machine a
    process may take seconds to start, and 10 s leave the claim time enough beside busy
    processes), and the old code is refused."""
    relay = RelayProcess(tmp_path / "relay.log", "--code-ttl", "10")
    try:
        address = f"127.0.0.1:{relay.port}"
        hosting = Peer(tmp_path / "host", "host", *BRISCOLA_2, "--relay", address,
                       "--code", "--bot")
        first = hosting.wait_for(CODE_LINE)[1]
        assert hosting.wait_for(OFFER)[1] == "10 seconds"
        friend = join_with_the_newest_code(hosting, tmp_path, address, shown=1)
        stale = Peer(tmp_path / "stale", "join", first, "--relay", address, "--bot")
        assert stale.finish() == 3 and stale.stderr.startswith(
            f"p2pcards: nobody offers the code {first} at the relay {address} now"), stale.stderr
        assert (friend.finish(), hosting.finish()) == (0, 0), (friend.stderr, hosting.stderr)
        assert "event=mailbox-ended" in relay.log() and "reason=code-expired" in relay.log()
    finally:
        assert relay.stop(signal.SIGTERM) == 0


def test_a_code_needs_a_relay(tmp_path: Path) -> None:
    joining = Peer(tmp_path, "join", "7-scopa-tavolo", "--bot")
    assert joining.finish() == 2
    assert joining.stderr == ("p2pcards: a code is redeemed through a relay: add --relay "
                              "HOST[:PORT], the relay the host named")
    hosting = Peer(tmp_path, "host", "--code")
    assert hosting.finish() == 2
    assert hosting.stderr == ("p2pcards: --code needs --relay HOST[:PORT]: a code is redeemed "
                              "through a relay")
