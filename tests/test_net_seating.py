"""Seating at a directly hosted table, host and joiner in this process over loopback TCP."""

from __future__ import annotations

import tempfile
from functools import partial
from pathlib import Path

import trio

from p2pcards.net.framed import FramedStream
from p2pcards.net.handshake import join_table
from p2pcards.net.hub import HostConfig, host_match
from p2pcards.net.peer import join_match
from p2pcards.net.seats import bot_player, seat_secrets
from p2pcards.net.session import Player
from p2pcards.records.transcript import TranscriptWriter
from p2pcards.seating.genesis import Genesis
from p2pcards.seating.invite import Invite

GAME, PRESET = "briscola", "italian"


def bots(genesis: Genesis, seat: int) -> Player:
    return bot_player(GAME, seat, 5)


async def test_a_silent_connection_does_not_hold_up_the_seating(tmp_path: Path) -> None:
    """A connection that never says hello (a port scan, a stuck client) waits on its own: a
    real joiner arriving after it is seated at once and the match is played while the silent
    one is still connected and not yet timed out."""
    notices: list[str] = []
    invites: list[Invite] = []
    ready = trio.Event()
    directory = Path(tempfile.mkdtemp(dir=tmp_path))

    def transcript(genesis: Genesis, seat: int) -> TranscriptWriter:
        return TranscriptWriter.create(directory / f"seat{seat}.p2pt", genesis.encode(),
                                       fsync=False)

    def on_invite(invite: Invite) -> None:
        invites.append(invite)
        ready.set()

    config = HostConfig(game=GAME, preset=PRESET, players=2, listen_host="127.0.0.1", seed=5)
    with trio.fail_after(60):  # a hang guard only: the handshake timeout is 30 s
        async with trio.open_nursery() as nursery:
            results: list[bool] = []

            async def hosting() -> None:
                table = await host_match(config, bots, notice=notices.append,
                                         on_invite=on_invite, transcript=transcript)
                results.append(table.finished)

            nursery.start_soon(hosting)
            await ready.wait()
            silent = await trio.open_tcp_stream("127.0.0.1", invites[0].port)
            await trio.sleep(0.2)  # let the host accept it first
            table = await join_match(invites[0], bots, lambda seat: seat_secrets(seat, 5),
                                     bot=True, seed=5, notice=lambda _: None,
                                     transcript=transcript)
            assert table.finished
    assert results == [True]
    refused = [n for n in notices if n.startswith("refused")]
    assert [n.split(": ", 1)[1] for n in refused] == ["the table is full"], notices
    assert any(n.startswith("seat 1 (") and " joined " in n for n in notices)
    told = FramedStream(silent)  # told why, then closed, once the table was full
    assert await told.receive_message() == {"type": "refused", "reason": "the table is full"}
    assert await told.receive_message() is None
    await silent.aclose()


async def test_a_joiner_who_leaves_while_the_table_fills_frees_its_seat_for_the_next(
        tmp_path: Path) -> None:
    """Three seats to fill. Seat 1 leaves after seat 2 was given: its seat is free again
    (announced), and the next joiner takes it, lowest seat first."""
    notices: list[str] = []
    invites: list[Invite] = []
    ready = trio.Event()
    config = HostConfig(game=GAME, preset="classic", players=4, listen_host="127.0.0.1",
                        seed=6)

    def on_invite(invite: Invite) -> None:
        invites.append(invite)
        ready.set()

    def never(genesis: Genesis, seat: int) -> TranscriptWriter:
        raise AssertionError("no match may start")

    async def seated(seat_seed: int) -> tuple[FramedStream, int | None]:
        stream = await trio.open_tcp_stream("127.0.0.1", invites[0].port)
        framed = FramedStream(stream, label="the host")
        seating = await join_table(framed, invites[0], lambda seat: seat_secrets(seat, seat_seed))
        return framed, seating.seat

    async def wait_for(text: str) -> None:
        while not any(text in n for n in notices):
            await trio.sleep(0.01)

    with trio.fail_after(60):  # a hang guard only
        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(host_match, config, bots, notice=notices.append,
                                       on_invite=on_invite, transcript=never))
            await ready.wait()
            first, one = await seated(101)
            second, two = await seated(102)
            assert (one, two) == (1, 2)
            await first.aclose()
            await wait_for("left before the match started (it closed the connection); "
                           "2 seat(s) still empty")
            again, seat = await seated(103)
            assert seat == 1
            nursery.cancel_scope.cancel()
    await second.aclose()
    await again.aclose()
    assert sum(" joined (" in n for n in notices) == 3
