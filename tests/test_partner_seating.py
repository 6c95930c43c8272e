"""The host's partner choice in the sans-IO seating machines: the named joiner is moved to the
host's side once, claims that seat with a new signed ``join``, and nobody else is moved."""

from __future__ import annotations

from test_seating import NONCE, Guest, arrive, claim, guest, only, ready, sent

from p2pcards.net.hub import seat_plan
from p2pcards.offline.memory import new_seat
from p2pcards.seating.handshake import HostSeating, Seated, SeatOffered
from p2pcards.seating.rules import TableRules

BRISCOLA_4 = TableRules.choose("briscola", "italian", 4)


def partner_table(remote: int, partner: str) -> HostSeating:
    offered, partner_seats = seat_plan(BRISCOLA_4, remote, partner)
    return HostSeating(BRISCOLA_4, NONCE, new_seat().identity, remote, offered=offered,
                       partner=partner, partner_seats=partner_seats)


def test_the_plan_keeps_the_hosts_side_for_people_and_gives_it_last() -> None:
    assert seat_plan(BRISCOLA_4, 1, "Bruno") == ((2,), frozenset({2}))
    assert seat_plan(BRISCOLA_4, 2, "Bruno") == ((1, 2), frozenset({2}))
    assert seat_plan(BRISCOLA_4, 3, "Bruno") == ((1, 3, 2), frozenset({2}))
    assert seat_plan(BRISCOLA_4, 2, None) == ((1, 2), frozenset())


def test_the_named_joiner_is_moved_once_and_signs_for_its_new_seat() -> None:
    host = partner_table(2, "Bruno")
    bruno = guest(host, "Bruno", BRISCOLA_4)
    arrive(host, bruno)
    offer = only(ready(host, bruno), "Bruno")
    assert offer == {"type": "seat", "seat": 1}
    moved = only(claim(host, bruno, offer), "Bruno")
    assert moved == {"type": "seat", "seat": 2}
    again = bruno.machine.receive(moved)
    assert again == SeatOffered(2) and bruno.machine.moved
    out = host.receive("Bruno", bruno.machine.claim(bruno.secrets, "Bruno"), 0.0)
    assert only(out, "Bruno") == {"type": "seated", "seat": 2, "missing": 1}
    assert bruno.machine.receive(sent(out, "Bruno")[0]) == Seated(2, 1)
    carla = guest(host, "Carla", BRISCOLA_4)
    arrive(host, carla)
    offer = only(ready(host, carla), "Carla")
    assert offer == {"type": "seat", "seat": 1}
    assert only(claim(host, carla, offer), "Carla")["type"] == "seated"
    assert host.full
    assert [(j.seat, j.info.name) for _, j in host.seated()] == [(1, "Carla"), (2, "Bruno")]
    assert host.seated()[1][1].info == bruno.secrets.info("Bruno")


def test_a_joiner_already_on_the_hosts_side_or_by_another_name_stays() -> None:
    host = partner_table(3, "Bruno")
    guests: list[Guest] = [guest(host, name, BRISCOLA_4) for name in ("Ann", "Carla", "Bruno")]
    for each in guests:
        arrive(host, each)
    offers = {g.conn: only(ready(host, g), g.conn) for g in guests}
    assert [offers[g.conn]["seat"] for g in guests] == [1, 3, 2]
    for each in guests:
        assert only(claim(host, each, offers[each.conn]), each.conn)["type"] == "seated"
    assert [(j.seat, j.info.name) for _, j in host.seated()] == [
        (1, "Ann"), (2, "Bruno"), (3, "Carla")]
