"""The sentences that end a match name the seats by the names they sat down with, on the
host's screen and on every joiner's, with real processes over loopback TCP; a seat's key
fingerprint shows only where its name does not tell it apart (:func:`seat_label`)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_net_processes import Peer, host, join

from p2pcards.net.player import host_label, seat_label
from p2pcards.offline.memory import make_genesis
from p2pcards.seating.secrets import new_seat
from p2pcards.verify import verify_transcript


def test_a_silent_joiner_is_named_by_the_host_and_by_the_other_joiners(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", "--game", "scopa", "--players", "3", "--bot",
                           "--name", "Alba", "--dropout", "off", "--move-timeout", "5")
    bruno = join(tmp_path / "bruno", invite, "--accept", "--name", "Bruno", stdin="")
    bruno.wait_for(r"^seated at seat 1")
    carla = join(tmp_path / "carla", invite, "--bot", "--accept", "--name", "Carla")
    codes = [peer.finish() for peer in (hosting, bruno, carla)]
    assert codes == [3, 3, 3], [peer.stderr for peer in (hosting, bruno, carla)]
    assert hosting.stderr == "p2pcards: Bruno did not answer within 5 seconds"
    for joiner in (bruno, carla):
        assert joiner.stderr == ("p2pcards: the host Alba aborted the match: Bruno did not "
                                 "answer within 5 seconds"), joiner.stderr
    for peer in (hosting, bruno, carla):
        assert verify_transcript(peer.transcript()).status == "incomplete"


def test_where_two_seats_share_a_name_the_seat_and_its_key_tell_them_apart(
        tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", "--game", "scopa", "--players", "3", "--bot",
                           "--name", "Alba", "--dropout", "off", "--move-timeout", "5")
    silent = join(tmp_path / "silent", invite, "--accept", "--name", "Bruno", stdin="")
    fingerprint = hosting.wait_for(r"^seat 1 \(([A-Z2-7-]+)\) joined")[1]
    other = join(tmp_path / "other", invite, "--bot", "--accept", "--name", "Bruno")
    peers: list[Peer] = [hosting, silent, other]
    assert [peer.finish() for peer in peers] == [3, 3, 3], [peer.stderr for peer in peers]
    assert hosting.stderr == (f"p2pcards: seat 1 ({fingerprint}) did not answer within 5 "
                              "seconds")
    assert other.stderr == (f"p2pcards: the host Alba aborted the match: seat 1 "
                            f"({fingerprint}) did not answer within 5 seconds")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["", "Alba", "Bruno", "Carla"]), min_size=2, max_size=4))
def test_a_seat_is_named_by_its_name_when_it_tells_the_seat_apart(names: list[str]) -> None:
    secrets = [new_seat() for _ in names]
    genesis = make_genesis("scopa", "classic",
                           [s.info(name) for s, name in zip(secrets, names, strict=True)])
    labels = [seat_label(genesis, seat) for seat in range(len(names))]
    assert len(set(labels)) == len(labels)  # every seat is told apart from the others
    for seat, (name, label) in enumerate(zip(names, labels, strict=True)):
        if name and names.count(name) == 1:
            assert label == name
        else:
            fingerprint = secrets[seat].identity.public.fingerprint
            assert label == f"seat {seat} ({fingerprint})"
    host = host_label(genesis)
    assert host == (f"the host {names[0]}" if names[0] and names.count(names[0]) == 1
                    else f"the host ({labels[0]})")
