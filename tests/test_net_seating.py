"""Seating at a directly hosted table, host and joiner in this process over loopback TCP."""

from __future__ import annotations

import tempfile
from pathlib import Path

import trio

from p2pcards.genesis import Genesis
from p2pcards.net.hub import HostConfig, host_match
from p2pcards.net.invite import Invite
from p2pcards.net.peer import join_match
from p2pcards.net.seats import bot_player, seat_secrets
from p2pcards.net.session import Player
from p2pcards.transcript import TranscriptWriter

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
    assert not any(n.startswith("refused") for n in notices), notices
    assert any(n.startswith("seat 1 (") and " joined " in n for n in notices)
    assert await silent.receive_some(10) == b""  # the host closed it once the table was full
    await silent.aclose()
