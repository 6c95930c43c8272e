"""Out-of-turn claims over real loopback TCP: a host and two joiners in this process (the
test-only ``toy-claim`` game is registered here only), joiners that claim whenever they may.
Whatever order the hub saw the competing messages in, every peer ends with the same chain and
the host's transcript verifies."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from toy_games import CLAIM, registered

from p2pcards.games.base import Action
from p2pcards.net.hub import HostConfig, host_match
from p2pcards.net.peer import join_match
from p2pcards.net.seats import bot_player, seat_secrets
from p2pcards.net.session import Player
from p2pcards.records.transcript import TranscriptWriter, read_transcript
from p2pcards.seating.genesis import Genesis
from p2pcards.seating.invite import Invite
from p2pcards.table import Table
from p2pcards.verify import verify_transcript
from p2pcards.wire.envelope import open_envelope
from p2pcards.wire.identity import PublicIdentity


@pytest.fixture(autouse=True)
def _toys() -> Iterator[None]:
    with registered(CLAIM):
        yield


async def test_claims_between_peers_over_tcp(tmp_path: Path) -> None:
    directory = Path(tempfile.mkdtemp(dir=tmp_path))
    invites: list[Invite] = []
    ready = trio.Event()
    offered: list[int] = []

    def transcript(genesis: Genesis, seat: int) -> TranscriptWriter:
        return TranscriptWriter.create(directory / f"seat{seat}.p2pt", genesis.encode(),
                                       fsync=False)

    def on_invite(invite: Invite) -> None:
        invites.append(invite)
        ready.set()

    def claimer(genesis: Genesis, seat: int) -> Player:
        base = bot_player("toy-claim", seat, 7)

        async def claim(table: Table) -> Action | None:
            offered.append(seat)
            return table.claim_actions()[0]

        return Player(base.decide, claim=claim)

    def host_player(genesis: Genesis, seat: int) -> Player:
        return bot_player("toy-claim", seat, 7)

    config = HostConfig(game="toy-claim", preset="classic", players=3,
                        listen_host="127.0.0.1", seed=7)
    tables: list[Table] = []
    with trio.fail_after(120):  # a hang guard only
        async with trio.open_nursery() as nursery:
            async def hosting() -> None:
                tables.append(await host_match(config, host_player, notice=lambda _: None,
                                               on_invite=on_invite, transcript=transcript))

            async def joining() -> None:
                tables.append(await join_match(invites[0], claimer,
                                               lambda seat: seat_secrets(seat, 7), bot=True,
                                               seed=7, notice=lambda _: None,
                                               transcript=transcript))

            nursery.start_soon(hosting)
            await ready.wait()
            nursery.start_soon(joining)
            nursery.start_soon(joining)
    assert len(tables) == 3 and all(t.finished for t in tables)
    assert offered, "the joiners were offered claims"
    chains = {tuple(read_transcript(directory / f"seat{s}.p2pt").envelopes) for s in range(3)}
    assert len(chains) == 1
    report = verify_transcript(directory / "seat0.p2pt")
    assert report.status == "valid", report.violation
    genesis = tables[0].genesis
    keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
    kinds = [open_envelope(f, keys)[1].body.get("action", {}).get("kind")
             for f in chains.pop()]
    assert "snap" in kinds, "a claim won a window"
