"""Short invite codes: the SPAKE2 exchange (sans-IO) and codes redeemed through a real relay
process by real host and joiner processes."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_net_processes import Peer
from test_relay_support import RelayProcess

from p2pcards.codes import (
    NAMEPLATES,
    WORDS,
    Code,
    CodeError,
    HostExchange,
    JoinerExchange,
    WrongCode,
    looks_like_code,
    mailbox_room,
    parse_code,
)
from p2pcards.verify import verify_transcript

INVITE = "p2pcards+relay://relay.example.org:7447/" + "ab" * 16 + "#JAJX-SQVL-PT7R-BAEY"
codes = st.builds(Code, st.integers(1, NAMEPLATES),
                  st.tuples(st.sampled_from(WORDS), st.sampled_from(WORDS)))


def exchange(host_code: Code, joiner_code: Code) -> tuple[str | None, bool, list[bytes]]:
    """Run the three messages; the invite the joiner opened (None: wrong), whether the host
    accepted the confirmation, and every byte string that crossed the relay."""
    host, joiner = HostExchange(host_code, INVITE), JoinerExchange(joiner_code)
    first = joiner.start()
    answer = host.answer(first)
    try:
        opened: str | None = joiner.open(answer)
    except WrongCode:
        opened = None
    confirm = joiner.confirmation()
    wire = [v for m in (first, answer, confirm) for v in m.values() if isinstance(v, bytes)]
    return opened, host.confirmed(confirm), wire


@settings(max_examples=20, deadline=None)
@given(codes)
def test_the_right_words_open_the_invite_and_confirm(code: Code) -> None:
    opened, confirmed, wire = exchange(code, code)
    assert (opened, confirmed) == (INVITE, True)
    assert all(INVITE.encode() not in blob for blob in wire)  # only SPAKE2 and ciphertext


@settings(max_examples=20, deadline=None)
@given(codes, codes)
def test_other_words_open_nothing_and_burn_the_code(code: Code, guess: Code) -> None:
    if guess == code:
        return
    opened, confirmed, _ = exchange(code, guess)
    assert (opened, confirmed) == (None, False)


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
    assert len(set(WORDS)) == 256 and mailbox_room(7) != mailbox_room(8)
    assert len(mailbox_room(7)) == 16


# ----------------------------------------------------------------------------- processes


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RelayProcess]:
    process = RelayProcess(tmp_path_factory.mktemp("relay") / "relay.log")
    yield process
    assert process.stop(signal.SIGTERM) == 0


CODE_LINE = r"^p2pcards join (\d+-[a-z]+-[a-z]+) --relay 127\.0\.0\.1:\d+$"


def test_a_code_read_over_the_phone_seats_a_friend_and_a_wrong_try_burns_it(
        tmp_path: Path, relay: RelayProcess) -> None:
    address = f"127.0.0.1:{relay.port}"
    hosting = Peer(tmp_path / "host", "host", "--game", "briscola", "--relay", address,
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
    assert late.finish() == 3 and "p2pcards: " in late.stderr and first in late.stderr
    second = [m for m in (re.match(CODE_LINE, line) for line in hosting.out) if m][-1][1]
    assert second != first
    friend = Peer(tmp_path / "friend", "join", second, "--relay", address, "--bot")
    assert (friend.finish(), hosting.finish()) == (0, 0), (friend.stderr, hosting.stderr)
    fingerprint = hosting.wait_for(r"^created your identity (\S+) in ")[1]
    assert f"the code {second} opened the invite of the host {fingerprint}" in friend.stdout
    assert verify_transcript(friend.transcript()).status == "valid"
    assert "Traceback" not in hosting.stderr + friend.stderr + guesser.stderr + late.stderr


def test_a_code_expires(tmp_path: Path, relay: RelayProcess) -> None:
    address = f"127.0.0.1:{relay.port}"
    hosting = Peer(tmp_path / "host", "host", "--game", "briscola", "--relay", address,
                   "--code", "--code-minutes", "0.02", "--bot")
    code = hosting.wait_for(CODE_LINE)[1]
    hosting.wait_for(r"^the invite code expired; the long invite still works$")
    late = Peer(tmp_path / "late", "join", code, "--relay", address, "--bot")
    assert late.finish() == 3
    assert re.fullmatch(rf"p2pcards: (nobody offers|nobody answered) the code {code} .*",
                        late.stderr)
    hosting.kill()


def test_a_code_needs_a_relay(tmp_path: Path) -> None:
    joining = Peer(tmp_path, "join", "7-scopa-tavolo", "--bot")
    assert joining.finish() == 2
    assert joining.stderr == ("p2pcards: a code is redeemed through a relay: add --relay "
                              "HOST[:PORT], the relay the host named")
    hosting = Peer(tmp_path, "host", "--code")
    assert hosting.finish() == 2
    assert hosting.stderr == ("p2pcards: --code needs --relay HOST[:PORT]: a code is redeemed "
                              "through a relay")
