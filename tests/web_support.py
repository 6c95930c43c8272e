"""Helpers of the web face's tests: a plain HTTP/1.1 request and a WebSocket client over Trio
(raw HTTP, ``wsproto`` for the WebSocket) to the real server on loopback TCP, real ``p2pcards``
processes with their output read line by line, and an observer table following a transcript as
it is written.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import trio
from starter import start
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    RejectConnection,
    RejectData,
    Request,
    TextMessage,
)

from p2pcards.table import Table
from p2pcards.verify import load


async def http_get(port: int, path: str, host: str = "127.0.0.1",
                   method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """``GET path`` on 127.0.0.1:``port``; the status, headers and body."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                              "Connection: close\r\n\r\n".encode())
        data = b""
        while chunk := await stream.receive_some(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip()
               for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body


class WebSocketClient:
    """A WebSocket to the page server; :meth:`connect` returns ``None`` when refused (with the
    HTTP status in :attr:`refused`)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.refused: int | None = None
        self._texts: list[str] = []
        self._partial = ""

    @classmethod
    async def connect(cls, port: int, path: str,
                      origin: str | None = None) -> WebSocketClient:
        client = cls(await trio.open_tcp_stream("127.0.0.1", port))
        headers = [(b"origin", origin.encode())] if origin else []
        await client.stream.send_all(client.ws.send(
            Request(host=f"127.0.0.1:{port}", target=path, extra_headers=headers)))
        while True:
            data = await client.stream.receive_some(65536)
            if not data:
                client.refused = 0
                return client
            client.ws.receive_data(data)
            for event in client.ws.events():
                if isinstance(event, AcceptConnection):
                    return client
                if isinstance(event, RejectConnection):
                    client.refused = event.status_code
                    return client
                if isinstance(event, RejectData):
                    continue
                if isinstance(event, TextMessage):
                    client._take(event)

    def _take(self, event: TextMessage) -> None:
        self._partial += event.data
        if event.message_finished:
            self._texts.append(self._partial)
            self._partial = ""

    async def send(self, value: Any) -> None:
        text = value if isinstance(value, str) else json.dumps(value)
        await self.stream.send_all(self.ws.send(TextMessage(data=text)))

    async def receive(self) -> dict[str, Any]:
        """The next message, parsed."""
        while not self._texts:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("the server closed the connection")
            self.ws.receive_data(data)
            for event in self.ws.events():
                if isinstance(event, TextMessage):
                    self._take(event)
                elif isinstance(event, CloseConnection):
                    raise EOFError("the server closed the WebSocket")
        message: dict[str, Any] = json.loads(self._texts.pop(0))
        return message

    async def receive_type(self, kind: str) -> dict[str, Any]:
        """The next message of ``kind`` (others skipped)."""
        while True:
            message = await self.receive()
            if message["type"] == kind:
                return message

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # already closed by the server
            await self.stream.send_all(self.ws.send(CloseConnection(code=1000)))
        await self.stream.aclose()


# ----------------------------------------------------------------------------- real processes


class Peer:
    """A ``p2pcards`` process (:func:`starter.start`, run as ``python -m p2pcards`` runs, so
    PYTHONPATH applies) whose output is read by a thread; :meth:`wait_for` returns the first
    line matching a pattern."""

    def __init__(self, args: list[str], home: Path) -> None:
        env = dict(os.environ, P2PCARDS_HOME=str(home), PYTHONUNBUFFERED="1")
        self.process = start(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        self.lines: list[str] = []
        self._seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._seen:
                self.lines.append(line.rstrip("\n"))
                self._seen.notify_all()
        with self._seen:
            self.lines.append("")  # end of output
            self._seen.notify_all()

    def wait_for(self, pattern: str, patience: float = 120) -> re.Match[str]:
        """The first output line matching ``pattern`` (fails after ``patience`` seconds, a
        guard against a hang, never a timing assertion)."""
        start = 0
        with self._seen:
            while True:
                for line in self.lines[start:]:
                    found = re.search(pattern, line)
                    if found:
                        return found
                start = len(self.lines)
                if self.process.poll() is not None and self.lines and self.lines[-1] == "":
                    raise AssertionError(f"the process ended without {pattern!r}:\n"
                                         + "\n".join(self.lines))
                if not self._seen.wait(timeout=patience):
                    raise AssertionError(f"no {pattern!r} within {patience} s:\n"
                                         + "\n".join(self.lines))

    def finish(self, patience: float = 120) -> int:
        try:
            return self.process.wait(timeout=patience)
        finally:
            if self.process.poll() is None:
                self.process.kill()

    def output(self) -> str:
        return "\n".join(self.lines)


class Follower:
    """An observer table that follows a transcript as it grows: the engine's truth about the
    public table at any moment the host waits for its seat."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.table: Table | None = None
        self.count = 0

    def observation(self) -> dict[str, Any]:
        transcript, genesis = load(self.path)
        if self.table is None:
            self.table = Table(genesis, seat=None)
            self.table.start()
        for data in transcript.envelopes[self.count:]:
            self.table.receive(data)
            self.count += 1
        observation: dict[str, Any] = self.table.observation()
        return observation


def deals_to_seat(transcript: Path, seat: int) -> dict[int, set[str]]:
    """Hand number -> every card dealt to ``seat``, from ``p2pcards show --json`` (the audit
    reveals every card at the end of its hand)."""
    return deals_to_seats(transcript, [seat])[seat]


def deals_to_seats(transcript: Path, seats: list[int]) -> dict[int, dict[int, set[str]]]:
    """:func:`deals_to_seat` for each of ``seats``, from one run of ``p2pcards show``."""
    shown = subprocess.run([sys.executable, "-m", "p2pcards", "show", str(transcript),
                            "--json"], capture_output=True, text=True, check=True)
    story = json.loads(shown.stdout)
    out: dict[int, dict[int, set[str]]] = {seat: {} for seat in seats}
    for hand in story["hands"]:
        for seat in seats:
            out[seat][hand["hand"]] = {card for item in hand["story"]
                                       if item["type"] == "deal"
                                       and item["to"] == f"seat {seat}"
                                       for card in item["cards"]}
    return out
