"""A plain HTTP/1.1 request and a WebSocket client over Trio, for the web face's tests.

The client speaks the real protocols (``h11``-free raw HTTP for requests, ``wsproto`` for the
WebSocket) to the real server on loopback TCP, as a browser would.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    RejectConnection,
    RejectData,
    Request,
    TextMessage,
)


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
