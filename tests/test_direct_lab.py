"""Direct play across home routers, in the network lab (:mod:`netlab`): whole matches between
real processes in their own namespaces, through real NAT and firewalls, that then verify.

- both players behind endpoint-independent NAT: the relay coordinates a hole punch, both say
  ``connection: direct (hole punched)``, and the match goes on after the relay is killed;
- one player behind a symmetric NAT (``masquerade random``): no punch can work, both say
  ``connection: relay``, and the match completes through the relay;
- (slow) both with global IPv6 behind stateful firewalls: direct by hole punching over IPv6;
- (slow) a punched link cut mid-match (the router drops its packets): the seat comes back
  through the relay and the match completes;
- (slow) the routers drop the punched packets until the table has seated through the relay:
  during the match the joiner punches again, both sides move onto the direct connection and
  say ``connection: direct (hole punched; was relay)``, the relay is killed and the match
  completes;
- (slow) an IPv6 link cut mid-match (the joiner's router drops the host's address): the seat
  comes back through the relay room, which its invite also names, and the match completes;
- a relay older than hole punching (``tests/old_relay.py`` refuses ``see``): the table still
  seats through it, and the joiner says ``connection: relay`` and why no hole was punched.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from netlab import INTERNET_V4, INTERNET_V6, Host, Lab, Router, require_netlab
from test_net_processes import BRISCOLA_2, DEADLINE, Peer

from p2pcards.verify import verify_transcript

RELAY_PORT = 7447
OLD_RELAY = Path(__file__).parent / "old_relay.py"
YOUR_TURN = r" — your turn$"
"""The title of a person's screen when it is asked to move."""


class Relay:
    """``p2pcards relay`` in the lab's internet namespace."""

    def __init__(self, lab: Lab, home: Path, address: str, *, script: Path | None = None
                 ) -> None:
        self.where = f"[{address}]:{RELAY_PORT}" if ":" in address else f"{address}:{RELAY_PORT}"
        self.peer = Peer(home, "relay", "--listen", self.where, script=script,
                         wrap=lab.wrap(lab.internet))
        end = time.monotonic() + DEADLINE
        while not any(line.startswith("event=listening") for line in list(self.peer.err)):
            assert self.peer.process.poll() is None, self.peer.stderr
            assert time.monotonic() < end, "the relay did not start"
            time.sleep(0.05)


def play(lab: Lab, tmp_path: Path, host_at: Host, join_at: Host, relay: Relay,
         *extra: str) -> tuple[Peer, Peer]:
    """A bot host behind its router offering the relay, and a bot joiner behind its own."""
    hosting = Peer(tmp_path / "host", "host", "--relay", relay.where, "--ephemeral-identity",
                   *BRISCOLA_2, "--bot", *extra, wrap=lab.wrap(host_at.ns))
    invite = hosting.wait_for(r"^p2pcards join '(\S+)'$")[1]
    joining = Peer(tmp_path / "guest", "join", invite, "--ephemeral-identity", "--bot",
                   "--accept", *extra, wrap=lab.wrap(join_at.ns))
    return hosting, joining


def type_moves(person: Peer) -> None:
    """Let a person who has not moved yet play every move it is asked for: ``1`` plays the
    first move listed (more lines than a match needs)."""
    assert person.process.stdin is not None
    person.process.stdin.write("1\n" * 60)
    person.process.stdin.flush()


def finish_and_verify(hosting: Peer, joining: Peer) -> None:
    assert (joining.finish(), hosting.finish()) == (0, 0), (joining.stderr, hosting.stderr)
    reports = [verify_transcript(p.transcript()) for p in (hosting, joining)]
    assert [r.status for r in reports] == ["valid", "valid"]
    assert "Traceback" not in hosting.stderr + joining.stderr


def test_behind_two_nat_routers_the_relay_punches_a_hole_and_may_then_go(
        tmp_path: Path) -> None:
    require_netlab()
    with Lab() as lab:
        alice, bob = lab.home(lab.router()), lab.home(lab.router())
        relay = Relay(lab, tmp_path / "relay", INTERNET_V4)
        hosting, joining = play(lab, tmp_path, alice, bob, relay)
        try:
            line = joining.wait_for(r"^connection: .*$")[0]
            assert line.startswith("connection: direct (hole punched) to the host at "
                                   "203.0.113.11:"), line
            hosting.wait_for(r"^connection: seat 1 direct \(hole punched\) from 203\.0\.113\.12:")
            hosting.wait_for(r"^every seat is taken")
            relay.peer.kill()
            finish_and_verify(hosting, joining)
        finally:
            hosting.kill()
            joining.kill()
            relay.peer.kill()


def test_behind_a_symmetric_nat_the_match_goes_through_the_relay(tmp_path: Path) -> None:
    require_netlab()
    with Lab() as lab:
        alice, bob = lab.home(lab.router()), lab.home(lab.router(nat="random"))
        relay = Relay(lab, tmp_path / "relay", INTERNET_V4)
        hosting, joining = play(lab, tmp_path, alice, bob, relay)
        try:
            line = joining.wait_for(r"^connection: .*$")[0]
            assert line.startswith(f"connection: relay through {relay.where} (direct failed: "
                                   ), line
            hosting.wait_for(r"^connection: seat 1 relay ")
            finish_and_verify(hosting, joining)
        finally:
            hosting.kill()
            joining.kill()
            relay.peer.kill()


def test_a_relay_older_than_hole_punching_still_seats_the_table_and_the_joiner_says_why(
        tmp_path: Path) -> None:
    require_netlab()
    with Lab() as lab:
        alice, bob = lab.home(lab.router()), lab.home(lab.router())
        relay = Relay(lab, tmp_path / "relay", INTERNET_V4, script=OLD_RELAY)
        hosting, joining = play(lab, tmp_path, alice, bob, relay)
        try:
            line = joining.wait_for(r"^connection: .*$")[0]
            assert line.startswith(f"connection: relay through {relay.where} (direct failed: "
                                   ), line
            assert line.endswith(f"; no hole punching: the relay at {relay.where} does not say "
                                 "where it sees this joiner (it is older than hole punching))"
                                 ), line
            hosting.wait_for(r"^connection: seat 1 relay ")
            finish_and_verify(hosting, joining)
        finally:
            hosting.kill()
            joining.kill()
            relay.peer.kill()
        assert "reason=bad-message" in relay.peer.stderr, relay.peer.stderr


@pytest.mark.slow
def test_with_ipv6_behind_stateful_firewalls_the_hole_is_punched_over_ipv6(
        tmp_path: Path) -> None:
    require_netlab()
    with Lab() as lab:
        alice, bob = lab.home(lab.router()), lab.home(lab.router())
        relay = Relay(lab, tmp_path / "relay", INTERNET_V6)
        hosting, joining = play(lab, tmp_path, alice, bob, relay)
        try:
            line = joining.wait_for(r"^connection: .*$")[0]
            assert line == f"connection: direct (hole punched) to the host at " \
                f"[{alice.v6}]:" + line.rsplit(":", 1)[1], line
            finish_and_verify(hosting, joining)
        finally:
            hosting.kill()
            joining.kill()
            relay.peer.kill()


def cut_mid_match(lab: Lab, tmp_path: Path, host: Host, guest: Host, relay: Relay,
                  listen: tuple[str, ...], direct: str, cut: tuple[Router, str]) -> None:
    """A bot host on ``host`` (with ``listen`` options) and a joiner on ``guest`` whose moves
    are typed later; once the joiner's ``connection:`` line matches ``direct`` and its first
    turn has come (keepalives have flowed, so a silent link is a lost one), the lab drops the
    packets to ``cut``'s address at ``cut``'s router: both seats come back through the relay,
    the match completes and both transcripts verify."""
    hosting = Peer(tmp_path / "host", "host", "--relay", relay.where, *listen,
                   "--ephemeral-identity", *BRISCOLA_2, "--bot", "--return-wait", "120",
                   wrap=lab.wrap(host.ns))
    invite = hosting.wait_for(r"^p2pcards join '(\S+)'$")[1]
    joining = Peer(tmp_path / "guest", "join", invite, "--ephemeral-identity", "--accept",
                   "--return-wait", "120", stdin="", wrap=lab.wrap(guest.ns))  # moves later
    try:
        joining.wait_for(direct)
        joining.wait_for(YOUR_TURN)
        lab.cut(*cut)
        joining.wait_for(r" is back: catching up from envelope ")
        hosting.wait_for(r" is back: catching up from envelope ")
        type_moves(joining)
        finish_and_verify(hosting, joining)
    finally:
        hosting.kill()
        joining.kill()
        relay.peer.kill()


@pytest.mark.slow
def test_a_punched_link_cut_mid_match_comes_back_through_the_relay(tmp_path: Path) -> None:
    require_netlab()
    with Lab() as lab:
        router = lab.router()
        alice, bob = lab.home(router), lab.home(lab.router())
        relay = Relay(lab, tmp_path / "relay", INTERNET_V4)
        cut_mid_match(lab, tmp_path, alice, bob, relay, (), r"^connection: direct \(hole punched\)",
                      (router, bob.router.wan4 if bob.router else bob.v4))


@pytest.mark.slow
def test_a_direct_ipv6_link_cut_mid_match_goes_on_through_the_relay(tmp_path: Path) -> None:
    require_netlab()
    with Lab() as lab:
        router = lab.router()
        alice, bob = lab.public(), lab.home(router)
        relay = Relay(lab, tmp_path / "relay", INTERNET_V4)
        cut_mid_match(lab, tmp_path, alice, bob, relay, ("--listen", f"[{alice.v6}]:0"),
                      rf"^connection: direct \(IPv6\) to the host at \[{alice.v6}\]:",
                      (router, alice.v6))


@pytest.mark.slow
def test_a_table_seated_through_the_relay_moves_onto_a_hole_punched_later(
        tmp_path: Path) -> None:
    require_netlab()
    with Lab() as lab:
        first, second = lab.router(), lab.router()
        alice, bob = lab.home(first), lab.home(second)
        # no punch gets through while the table seats; both routers drop, so that neither
        # keeps a half-open entry of the failed punch (a router that saw its side's SYN go
        # unanswered keeps it for two minutes and turns the other side's SYN into a reset)
        lab.cut(first, second.wan4)
        lab.cut(second, first.wan4)
        relay = Relay(lab, tmp_path / "relay", INTERNET_V4)
        hosting = Peer(tmp_path / "host", "host", "--relay", relay.where, "--ephemeral-identity",
                       *BRISCOLA_2, "--bot", "--return-wait", "120", wrap=lab.wrap(alice.ns))
        invite = hosting.wait_for(r"^p2pcards join '(\S+)'$")[1]
        joining = Peer(tmp_path / "guest", "join", invite, "--ephemeral-identity", "--accept",
                       "--return-wait", "120", stdin="", wrap=lab.wrap(bob.ns))  # moves later
        try:
            line = joining.wait_for(r"^connection: .*$")[0]
            assert line.startswith(f"connection: relay through {relay.where} ("), line
            assert line.endswith("; no hole punched through the routers)"), line
            hosting.wait_for(r"^connection: seat 1 relay ")
            lab.heal(first)
            lab.heal(second)
            joining.wait_for(r"^connection: direct \(hole punched; was relay\) to the host at "
                             r"203\.0\.113\.11:\d+$")
            hosting.wait_for(r"^connection: seat 1 direct \(hole punched; was relay\) from "
                             r"203\.0\.113\.12:\d+$")
            relay.peer.kill()
            type_moves(joining)
            finish_and_verify(hosting, joining)
            assert not any(" is back" in line for line in joining.out + hosting.out)
        finally:
            hosting.kill()
            joining.kill()
            relay.peer.kill()
