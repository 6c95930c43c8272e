"""The host chooses its partner at a table of partnerships (``--partner NAME``): real processes
over loopback TCP. With two bots the one person joining sits opposite the host instead of
beside it; with one bot a named joiner that arrives first is moved to the host's side and the
other joiner takes the seat beside. The sides are said before the match and every transcript
verifies with the seats where the host put them."""

from __future__ import annotations

from pathlib import Path

from test_net_processes import Peer, host, join

from p2pcards.records.transcript import read_transcript
from p2pcards.seating.genesis import Genesis
from p2pcards.verify import verify_transcript

BRISCOLA_4 = ("--game", "briscola", "--variant", "italian", "--players", "4")
"""Two hands (the classic preset plays to 3 hands won): the seating is what is checked."""


def names_by_seat(peer: Peer) -> list[str]:
    """The seats' names in ``peer``'s transcript, which must verify complete."""
    path = peer.transcript()
    assert verify_transcript(path).status == "valid"
    genesis = Genesis.decode(read_transcript(path).genesis)
    return [seat.name for seat in genesis.seats]


def test_with_two_bots_the_named_person_sits_opposite_the_host(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", *BRISCOLA_4, "--bots", "2", "--bot",
                           "--name", "Alba", "--partner", "Bruno")
    bruno = join(tmp_path / "bruno", invite, "--bot", "--name", "Bruno")
    assert bruno.wait_for(r"^seated at seat (\d)")[1] == "2"
    hosting.wait_for(r"^sides: Alba \[0\] \+ Bruno \[2\] against bot 1 \[1\] \+ bot 3 \[3\]$")
    assert (hosting.finish(), bruno.finish()) == (0, 0), (hosting.stderr, bruno.stderr)
    assert names_by_seat(hosting) == ["Alba", "bot 1", "Bruno", "bot 3"]
    assert names_by_seat(bruno) == names_by_seat(hosting)


def test_a_named_partner_who_joins_first_is_moved_to_the_hosts_side(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", *BRISCOLA_4, "--bots", "1", "--bot",
                           "--name", "Alba", "--partner", "bruno")
    bruno = join(tmp_path / "bruno", invite, "--bot", "--name", "Bruno")
    assert bruno.wait_for(r"^seated at seat (\d)")[1] == "2"  # offered 1 first, then moved
    carla = join(tmp_path / "carla", invite, "--bot", "--name", "Carla")
    assert carla.wait_for(r"^seated at seat (\d)")[1] == "1"
    hosting.wait_for(r"^sides: Alba \[0\] \+ Bruno \[2\] against Carla \[1\] \+ bot 3 \[3\]$")
    codes = (hosting.finish(), bruno.finish(), carla.finish())
    assert codes == (0, 0, 0), (hosting.stderr, bruno.stderr, carla.stderr)
    assert names_by_seat(hosting) == ["Alba", "Carla", "Bruno", "bot 3"]
    for peer in (bruno, carla):
        assert names_by_seat(peer) == names_by_seat(hosting)
