"""Attacks of a host and of a joiner on seating, mounted for real over loopback TCP against
``p2pcards`` processes (issue 19, points 1 and 4), and house rules end to end.

A malicious host here is this test process speaking the real protocol with the sans-IO host
machine, then cheating; the honest peers are ``python -m p2pcards`` processes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import trio
from test_net_processes import Peer, host, join, joined_fingerprint

from p2pcards.net.framed import FramedStream
from p2pcards.seating.genesis import Genesis
from p2pcards.seating.handshake import Close, HostSeating, JoinerSeating, Review, Send
from p2pcards.seating.invite import Invite
from p2pcards.seating.rules import TableRules
from p2pcards.seating.secrets import new_seat
from p2pcards.verify import verify_transcript

ALTERED = {"target": 21, "napola": True, "ties": "none"}
SLOW = {"step": 86400, "action": 86400}
HANG_GUARD = 120.0


async def cheating_host(rules: TableRules, *, announce: TableRules, genesis_rules: TableRules,
                        commit: bool, invites: trio.MemorySendChannel[str],
                        seen: list[Any]) -> None:
    """Host one joiner on a free loopback port: the invite commits to ``rules`` (or to nothing
    when not ``commit``), the challenge announces ``announce``, the genesis fixes
    ``genesis_rules``. Records what the joiner sends last."""
    secrets = new_seat()
    seating = HostSeating(announce, bytes(16), secrets.identity, 1)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    invite = Invite("127.0.0.1", port, bytes(16), secrets.identity.public.fingerprint,
                    rules=rules.digest() if commit else None)
    await invites.send(str(invite))
    stream = await listeners[0].accept()
    framed = FramedStream(stream, label="the joiner")
    seating.connected("j", 0.0)
    while not seating.full:
        message = await framed.receive_message()
        if message is None:
            seen.append("closed")
            break
        seen.append(message)
        outputs = seating.receive("j", message, 0.0)
        for out in outputs:
            if isinstance(out, Send):
                await framed.send_message(out.message)
        if any(isinstance(o, Close) for o in outputs):
            break
    if seating.full:
        infos = [secrets.info("host")] + [j.info for _, j in seating.seated()]
        genesis = Genesis(genesis_rules.game, genesis_rules.preset, dict(genesis_rules.config),
                          tuple(infos), dict(genesis_rules.timeouts))
        await framed.send_message({"type": "genesis", "genesis": genesis.encode(),
                                   "bots": []})
        seen.append(await framed.receive_message())  # an accept would be the seat's signature
    await framed.aclose_gracefully()
    for listener in listeners:
        await listener.aclose()


CLASSIC = TableRules.choose("scopa", "classic", 2)
HOUSE = TableRules.choose("scopa", "classic", 2, ALTERED, SLOW)


async def run_cheat(tmp_path: Path, *, announce: TableRules, genesis_rules: TableRules,
                    commit: bool, extra: tuple[str, ...] = ()) -> tuple[int, str, list[Any]]:
    send, receive = trio.open_memory_channel[str](1)
    seen: list[Any] = []
    with trio.fail_after(HANG_GUARD):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: cheating_host(
                CLASSIC, announce=announce, genesis_rules=genesis_rules, commit=commit,
                invites=send, seen=seen))
            invite = await receive.receive()
            guest = join(tmp_path, invite, "--bot", *extra)
            code = await trio.to_thread.run_sync(guest.finish)
    return code, guest.stderr, seen


async def test_a_host_that_alters_the_rules_behind_the_preset_name_is_refused(
        tmp_path: Path) -> None:
    """The attack of issue 19: announce the classic rules, then put target=21, napola, no ties
    and day-long timeouts in the genesis under the name classic. The seat signs nothing."""
    code, stderr, seen = await run_cheat(tmp_path, announce=CLASSIC, genesis_rules=HOUSE,
                                         commit=True)
    assert code == 3
    assert stderr.startswith("p2pcards: the host at 127.0.0.1:")
    assert "sent a genesis we refuse to sign: it sets napola=on where the announced rules " \
           "say off; it sets target=21 where the announced rules say 11; it sets ties=none " \
           "where the announced rules say each; its action timeout is 86400 s" in stderr
    assert seen[-1] in (None, "closed") or seen[-1]["type"] != "envelope"  # no accept sent


async def test_a_host_that_announces_other_rules_than_its_invite_is_refused(
        tmp_path: Path) -> None:
    code, stderr, seen = await run_cheat(tmp_path, announce=HOUSE, genesis_rules=HOUSE,
                                         commit=True, extra=("--accept",))
    assert code == 3
    assert "announces rules other than those its invite commits to" in stderr
    assert [m["type"] for m in seen if isinstance(m, dict)] == ["hello"]  # never said ready


async def test_house_rules_behind_an_old_invite_are_refused_by_a_bot_unless_accepted(
        tmp_path: Path) -> None:
    code, stderr, seen = await run_cheat(tmp_path, announce=HOUSE, genesis_rules=HOUSE,
                                         commit=False)
    assert code == 3
    assert re.fullmatch(r"p2pcards: this seat refused the table: the host announces house "
                        r"rules that differ from the preset classic of scopa \(.*target = 21 "
                        r"\(the preset says 11\).*\); join with --accept to sit at such a "
                        r"table", stderr), stderr
    assert seen[-1]["type"] == "refused"  # the host is told why


async def test_a_silent_joiner_holding_a_seat_does_not_hold_up_a_real_player(
        tmp_path: Path) -> None:
    """A connection says hello and ready, is given the only seat, and falls silent. A real
    joiner arriving next gets that seat (the silent one is refused for it) and the match is
    played while the silent connection is still open."""
    hosting, invite = host(tmp_path, "--game", "briscola", "--variant", "italian", "--bot")
    parsed = Invite.parse(invite)
    with trio.fail_after(HANG_GUARD):
        stream = await trio.open_tcp_stream(parsed.host, parsed.port)
        framed = FramedStream(stream, label="the host")
        silent = JoinerSeating(parsed, bot=True, label="the host")
        await framed.send_message(silent.hello())
        message = await framed.receive_message()
        assert message is not None and isinstance(silent.receive(message), Review)
        await framed.send_message(silent.accept())
        assert await framed.receive_message() == {"type": "seat", "seat": 1}
        guest = join(tmp_path, invite, "--bot")  # the silent one holds seat 1 ...
        refusal = await framed.receive_message()  # ... until another joiner waits for it
        assert refusal == {"type": "refused", "reason": "seat 1 was not claimed within 1 s "
                           "while another joiner waited; it went to that joiner"}
        assert await trio.to_thread.run_sync(guest.finish) == 0, guest.stderr
        assert await trio.to_thread.run_sync(hosting.finish) == 0, hosting.stderr
        await framed.aclose()
    joined_fingerprint(hosting, 1)
    assert verify_transcript(hosting.transcript()).status == "valid"


def test_house_rules_chosen_by_the_host_are_played_end_to_end(tmp_path: Path) -> None:
    """``--set`` on the host, shown to the joiner, refused by a bot without ``--accept`` and
    played with it; the transcript's genesis carries the house rules."""
    rules = ("--game", "scopa", "--variant", "napola", "--set", "target=21", "--set",
             "ties=each", "--bots", "0", "--bot")
    hosting, invite = host(tmp_path, *rules)
    assert "hosting scopa (napola), 2 players, ties=each, target=21" in hosting.stdout
    refusing = join(tmp_path, invite, "--bot")
    assert refusing.finish() == 3
    assert "the invite commits to house rules that differ from the preset napola" in \
        refusing.stderr
    guest = join(tmp_path, invite, "--bot", "--accept")
    assert (guest.finish(), hosting.finish()) == (0, 0), guest.stderr + hosting.stderr
    assert "    target = 21 (the preset says 11)" in guest.stdout
    report = verify_transcript(guest.transcript())
    assert report.status == "valid"
    assert report.config["target"] == 21 and report.config["ties"] == "each"


def test_a_bad_house_rule_is_one_sentence(tmp_path: Path) -> None:
    bad = Peer(tmp_path, "host", "--game", "scopa", "--set", "target=20")
    assert bad.finish() == 2
    assert bad.stderr == ("p2pcards: --set 'target=20': flag 'target' of scopa takes one of "
                          "11, 21, 31, not 20")


def test_a_person_who_declines_the_rules_signs_nothing(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path, "--game", "scopa", "--set", "target=21", "--bot")
    person = join(tmp_path, invite, stdin="n\n")
    assert person.finish() == 3
    assert person.stderr == ("p2pcards: this seat refused the table: the person at this seat "
                             "declined the table's rules")
    assert "    target = 21 (the preset says 11)" in person.stdout
    assert "sit at this table with these rules? [y/N]" in person.stdout
    hosting.wait_for(r"^refused [0-9.:]+: it declined the table: the person at this seat "
                     r"declined the table's rules$")
    hosting.kill()


def test_peers_of_one_table_sharing_a_directory_never_race_for_one_transcript_name(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Issue 19, point 6: the joiner that exited 2 had lost a race with the host for the same
    default transcript name (both checked "is it taken?" at the same moment). The seat is now
    always in the name."""
    from p2pcards.cli.play import default_transcript_path
    from p2pcards.offline.memory import make_tables

    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    genesis, _ = make_tables("scopa", "classic", 3, seed=1)
    paths = [default_transcript_path(genesis, seat) for seat in range(3)]
    assert len(set(paths)) == 3
    assert [p.name.rsplit("-", 1)[1] for p in paths] == ["seat0.p2pt", "seat1.p2pt",
                                                         "seat2.p2pt"]
