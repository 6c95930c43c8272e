"""Invites with several address candidates (SPEC §11.9): the grammar round-trips, old invites
keep working, bad candidates are named, and a joiner races the candidates so that a dead or
stale address costs only a failed try."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_net_processes import BRISCOLA_2, Peer, host, join

from p2pcards.seating.candidates import Candidate, classify
from p2pcards.seating.invite import Invite, InviteError
from p2pcards.verify import verify_transcript

FINGERPRINT = "JAJX-SQVL-PT7R-BAEY"
NONCE = bytes(range(16))

v4 = st.tuples(*[st.integers(0, 255)] * 4).map(lambda t: ".".join(map(str, t)))
v6 = st.lists(st.integers(0, 0xFFFF), min_size=8, max_size=8).map(
    lambda g: ":".join(f"{x:x}" for x in g))
ports = st.integers(1, 65535)
direct = st.builds(lambda kind, host, port: Candidate(kind or classify(host), host, port),
                   st.sampled_from([None, "mapped", "observed"]), v4 | v6, ports)


@given(v4 | v6, ports, st.lists(direct, max_size=5, unique=True), st.booleans(),
       st.none() | st.tuples(v4 | v6, ports), st.none() | st.binary(min_size=16, max_size=16))
def test_every_invite_round_trips(host: str, port: int, via: list[Candidate], relay: bool,
                                  fallback: tuple[str, int] | None, rules: bytes | None) -> None:
    invite = Invite(host, port, NONCE, FINGERPRINT, relay=relay, rules=rules, via=tuple(via),
                    fallback=None if relay else fallback)
    assert Invite.parse(str(invite)) == invite
    order = invite.candidates()
    assert [c for c in order if c.kind == "relay"] == (
        [Candidate("relay", host, port)] if relay else
        [Candidate("relay", *fallback)] if fallback else [])
    assert all(c.direct for c in order[:-1])


def test_an_old_invite_is_one_candidate() -> None:
    old = Invite.parse("p2pcards://127.0.0.1:7300/" + "5f" * 16 + "#" + FINGERPRINT)
    assert old.candidates() == [Candidate("lan", "127.0.0.1", 7300)]
    relayed = Invite.parse("p2pcards+relay://relay.example.org:7447/" + "5f" * 16 + "?rules="
                           + "9a" * 16 + "#" + FINGERPRINT)
    assert relayed.candidates() == [Candidate("relay", "relay.example.org", 7447)]


def test_kinds_follow_the_address() -> None:
    assert [classify(a) for a in ("192.168.1.2", "100.64.3.2", "fd00::5", "127.0.0.1",
                                  "2001:db8:1::2", "203.0.113.9", "relay.example.org")] == [
        "lan", "lan", "lan", "lan", "ipv6", "public", "public"]


@pytest.mark.parametrize(("query", "fault"), [
    ("via=10.0.0.1", "is not of the form HOST:PORT"),
    ("via=10.0.0.1:0", "not between 1 and 65535"),
    ("via=x~10.0.0.1:80", "unknown tag 'x'"),
    ("relay=nowhere", "is not of the form HOST:PORT"),
    ("rules", "is not of the form NAME=VALUE"),
])
def test_a_bad_candidate_is_named(query: str, fault: str) -> None:
    with pytest.raises(InviteError, match=fault.replace("(", r"\(")):
        Invite.parse(f"p2pcards://10.0.0.1:7000/{'ab' * 16}?{query}#{FINGERPRINT}")


def test_unknown_parameters_are_ignored_for_later_hosts() -> None:
    parsed = Invite.parse(f"p2pcards://10.0.0.1:7000/{'ab' * 16}?later=1#{FINGERPRINT}")
    assert parsed.candidates() == [Candidate("lan", "10.0.0.1", 7000)]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_dead_and_stale_candidates_cost_only_a_failed_try(tmp_path: Path) -> None:
    """The joiner's invite names first a closed port, then another table's host (it refuses,
    the nonce is not its table's), then the right host: the joiner is seated by the right one
    and says how it is connected; the other host goes on waiting."""
    other, other_invite = host(tmp_path / "other", *BRISCOLA_2, stdin="")
    hosting, invite = host(tmp_path / "host", *BRISCOLA_2, "--bot")
    try:
        real, stale = Invite.parse(invite), Invite.parse(other_invite)
        racing = Invite("127.0.0.1", _closed_port(), real.nonce, real.fingerprint,
                        rules=real.rules, via=(Candidate("lan", stale.host, stale.port),
                                               Candidate("lan", real.host, real.port)))
        guest = join(tmp_path / "guest", str(racing), "--bot")
        assert (guest.finish(), hosting.finish()) == (0, 0), (guest.stderr, hosting.stderr)
        line = guest.wait_for(r"^connection: .*$")[0]
        assert line == f"connection: direct (LAN) to the host at {real.host}:{real.port}"
        hosting.wait_for(r"^connection: seat 1 direct \(LAN\) from 127\.0\.0\.1:\d+$")
        other.wait_for(r"^refused .*this host is not hosting the table of that invite")
        assert other.process.poll() is None
        assert verify_transcript(hosting.transcript()).status == "valid"
        assert "Traceback" not in guest.stderr + hosting.stderr + "\n".join(other.err)
    finally:
        other.kill()
        hosting.kill()


def test_a_host_lists_its_addresses_and_a_relay_host_its_direct_ones_first(
        tmp_path: Path) -> None:
    hosting = Peer(tmp_path, "host", "--ephemeral-identity", *BRISCOLA_2, stdin="")
    try:
        invite = Invite.parse(hosting.wait_for(r"^p2pcards join '(\S+)'$")[1])
        assert not invite.relay and invite.candidates()[0].kind in ("lan", "public", "ipv6")
        assert all(c.port == invite.port for c in invite.candidates())
    finally:
        hosting.kill()
