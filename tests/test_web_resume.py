"""A person who plays at the web page and whose program is killed mid-match comes back with
``p2pcards resume --web``: a new page (new port, new token) shows the seat as the chain left
it, and the match is finished by answering that page. Real processes on loopback, the page
driven over its real WebSocket."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import trio
from test_net_processes import BRISCOLA_2, Peer, join
from web_support import WebSocketClient

from p2pcards.verify import verify_transcript

PAGE = r"^your table's page \(keep its address private\): (http://127\.0\.0\.1:\d+/\S+/)$"


async def socket_of(url: str) -> WebSocketClient:
    parts = urlsplit(url)
    assert parts.port is not None
    client = await WebSocketClient.connect(parts.port, parts.path + "ws")
    assert client.refused is None
    return client


async def answer(client: WebSocketClient, moves: int | None) -> dict[str, Any]:
    """Answer the page's prompts (the first legal move, and let claims pass) ``moves`` times,
    or until the match ends (``None``); returns the last view or the ``end`` message."""
    answered = 0
    while True:
        message = await client.receive()
        if message["type"] == "end":
            return message
        if message["type"] != "view" or message["prompt"] is None:
            continue
        if moves is not None and answered == moves:
            return message
        if message["prompt"]["kind"] == "claim":
            await client.send({"type": "claim", "index": None})
            continue
        await client.send({"type": "move", "index": message["view"]["moves"][0]["index"]})
        answered += 1


def test_a_person_at_the_page_comes_back_with_resume_web(tmp_path: Path) -> None:
    hosting = Peer(tmp_path / "host", "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   *BRISCOLA_2, "--bot", "--return-wait", "90")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    person = join(tmp_path / "guest", invite, "--accept", "--web", "--no-browser",
                  "--return-wait", "90")
    first_url = person.wait_for(PAGE)[1]

    async def before_the_crash() -> dict[str, Any]:
        client = await socket_of(first_url)
        try:
            with trio.fail_after(120):
                return await answer(client, 2)  # two moves made at the page, a third one asked
        finally:
            await client.close()
    asked = trio.run(before_the_crash)
    assert asked["view"]["your_turn"] and len(asked["view"]["hand"]) == 3
    person.process.send_signal(signal.SIGKILL)
    person.finish()

    back = Peer(tmp_path / "guest", "resume", "--web", "--no-browser", "--return-wait", "90")
    assert back.wait_for(r"^resuming seat 1 \(joiner\) of table ")
    second_url = back.wait_for(PAGE)[1]
    assert second_url != first_url  # a fresh port and token

    async def after_the_crash() -> dict[str, Any]:
        client = await socket_of(second_url)
        try:
            with trio.fail_after(120):  # a stalled match fails the test, never hangs it
                return await answer(client, None)
        finally:
            await client.close()
    end = trio.run(after_the_crash)
    assert end["status"] == "valid", end
    for peer in (back, hosting):
        try:
            assert peer.process.wait(60) == 0, (peer.out[-5:], peer.stderr)
        except subprocess.TimeoutExpired:
            peer.kill()
            raise
        peer.finish()
    mine = Path(back.wait_for(r"^transcript \(complete\): (.+)$")[1])
    assert verify_transcript(mine).status == "valid"
    assert end["path"] == str(mine)
    assert any("is back: catching up from envelope" in line for line in hosting.out)
