"""The page's server: a small ASGI app run by ``hypercorn``'s Trio worker inside the peer process.

It listens on 127.0.0.1 only, on a port the system picks, and every request carries a random
token (:func:`secrets.token_urlsafe`) as the first segment of its path:
``http://127.0.0.1:PORT/TOKEN/`` is the page, ``/TOKEN/app.js`` a file of ``static/`` and
``/TOKEN/ws`` the WebSocket. Anything else, including a WebSocket without the token or from
another origin, is answered 403 (404 for a file that does not exist under a good token). The
token is in the path, not the query, so the page's relative ES-module imports carry it too.

The WebSocket is handed to a :class:`Page` (:mod:`p2pcards.faces.web.hub`): the server pumps the
page's outgoing JSON texts to the browser and gives it every text the browser sends.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import trio

from .page_words import words_module

__all__ = ["STATIC", "Page", "Visitors", "WebServer", "WebApp", "start_web_server", "CONTENT_TYPES"]

STATIC = Path(__file__).resolve().parent / "static"
WORDS_MODULE = "words.js"
"""The page's module of words (:func:`~p2pcards.faces.web.page_words.words_module`)."""
"""The page's files (``index.html``, ``app.js``, ``cards.js``, ``style.css``)."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class Page(Protocol):
    """What a WebSocket talks to: :meth:`subscribe` gives the texts to push (the current state
    first), :meth:`handle` takes one text from the browser and returns the text to answer with
    (``None``: nothing to answer)."""

    def subscribe(self) -> trio.MemoryReceiveChannel[str]: ...

    def unsubscribe(self, channel: trio.MemoryReceiveChannel[str]) -> None: ...

    def handle(self, text: str) -> str | None: ...


class Visitors:
    """How many WebSockets a page has open: a page counts them with :meth:`opened` and
    :meth:`unsubscribe`, and the command waits on :attr:`all_gone` before it exits."""

    def __init__(self) -> None:
        self.connections = 0
        self.ever_connected = trio.Event()
        self.all_gone = trio.Event()

    def opened(self) -> None:
        """A WebSocket opened."""
        self.connections += 1
        self.ever_connected.set()
        self.all_gone = trio.Event()

    def unsubscribe(self, channel: trio.MemoryReceiveChannel[str]) -> None:
        """A WebSocket closed."""
        channel.close()
        self.connections -= 1
        if self.connections == 0:
            self.all_gone.set()


class WebApp:
    """The ASGI application: the token guard, the static files and the WebSocket."""

    def __init__(self, page: Page, token: str, static: Path = STATIC) -> None:
        self.page = page
        self.token = token
        self.static = static
        self.port: int | None = None  # set once bound: the Origin a WebSocket must come from

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await _lifespan(receive, send)
        elif kind == "http":
            await self._http(scope, send)
        elif kind == "websocket":
            await self._websocket(scope, receive, send)

    # ------------------------------------------------------------------ guard

    def _rest(self, scope: Scope) -> str | None:
        """The path after ``/TOKEN``, or ``None`` when the token is missing or wrong, or the
        request did not reach us as 127.0.0.1 / localhost (a rebound DNS name)."""
        if not self._host_ok(scope):
            return None
        path = str(scope.get("path", ""))
        head, sep, rest = path.lstrip("/").partition("/")
        if not secrets.compare_digest(head.encode(), self.token.encode()):
            return None
        return "/" + rest if sep else ""

    def _host_ok(self, scope: Scope) -> bool:
        host = _header(scope, b"host")
        if host is None:
            return False
        name = host.rpartition(":")[0] if ":" in host else host
        return name in ("127.0.0.1", "localhost")

    def _origin_ok(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None:
            return True  # not a browser page: the token alone admits it
        return origin in (f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}")

    # ------------------------------------------------------------------ http

    async def _http(self, scope: Scope, send: Send) -> None:
        rest = self._rest(scope)
        if rest is None:
            await _plain(send, 403, "forbidden: this page needs the address with its token, "
                                    "as p2pcards printed it")
            return
        if scope.get("method") not in ("GET", "HEAD"):
            await _plain(send, 405, "only GET is served here")
            return
        if rest == "":  # /TOKEN without the slash: relative imports need the directory form
            await send({"type": "http.response.start", "status": 307,
                        "headers": [(b"location", f"/{self.token}/".encode()),
                                    *_SAFE_HEADERS]})
            await send({"type": "http.response.body", "body": b""})
            return
        name = rest.lstrip("/") or "index.html"
        path = self.static / name
        if name == WORDS_MODULE:  # the page's words in the person's language: made, not read
            body = words_module().encode()
        elif not _safe_name(name) or not path.is_file():
            await _plain(send, 404, f"no such file: {name}")
            return
        else:
            body = await trio.to_thread.run_sync(path.read_bytes)
        kind = CONTENT_TYPES.get(path.suffix, "application/octet-stream")
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", kind.encode()),
                                (b"content-length", str(len(body)).encode()),
                                *_SAFE_HEADERS, *self._csp()]})
        await send({"type": "http.response.body",
                    "body": b"" if scope.get("method") == "HEAD" else body})

    def _csp(self) -> list[tuple[bytes, bytes]]:
        policy = ("default-src 'self'; img-src 'self' data:; style-src 'self'; "
                  f"connect-src ws://127.0.0.1:{self.port} ws://localhost:{self.port}; "
                  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        return [(b"content-security-policy", policy.encode())]

    # ------------------------------------------------------------------ websocket

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        first = await receive()
        if first.get("type") != "websocket.connect":
            return
        if self._rest(scope) != "/ws" or not self._origin_ok(scope):
            await send({"type": "websocket.close", "code": 1008})  # refused: an HTTP 403
            return
        await send({"type": "websocket.accept"})
        outgoing = self.page.subscribe()
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_pump, outgoing, send)
                while True:
                    message = await receive()
                    if message["type"] == "websocket.disconnect":
                        break
                    text = message.get("text")
                    if text is None and message.get("bytes") is not None:
                        text = bytes(message["bytes"]).decode("utf-8", "replace")
                    answer = self.page.handle(text or "")
                    if answer is not None:
                        await send({"type": "websocket.send", "text": answer})
                nursery.cancel_scope.cancel()
        finally:
            self.page.unsubscribe(outgoing)


_SAFE_HEADERS = [
    (b"cache-control", b"no-store"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if bytes(key).lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _pump(outgoing: trio.MemoryReceiveChannel[str], send: Send) -> None:
    async for text in outgoing:
        await send({"type": "websocket.send", "text": text})


async def _plain(send: Send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *_SAFE_HEADERS]})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


@dataclass(frozen=True)
class WebServer:
    """A running page server: its ``url`` (with the token) and how to stop it."""

    url: str
    port: int
    token: str
    stop: Callable[[], None]


async def start_web_server(nursery: trio.Nursery, page: Page, *,
                           static: Path = STATIC) -> WebServer:
    """Serve ``page`` on 127.0.0.1, a random port and a fresh token, in ``nursery``."""
    from hypercorn.config import Config
    from hypercorn.trio import serve

    token = secrets.token_urlsafe(24)
    app = WebApp(page, token, static)
    config = Config()
    config.bind = ["127.0.0.1:0"]
    config.accesslog = None
    config.errorlog = None
    config.loglevel = "WARNING"
    config.h2_max_concurrent_streams = 16
    stopped = trio.Event()

    async def shutdown() -> None:
        await stopped.wait()

    binds: list[str] = await nursery.start(
        partial(serve, app, config, shutdown_trigger=shutdown))  # type: ignore[arg-type]
    port = int(binds[0].rpartition(":")[2])
    app.port = port
    return WebServer(f"http://127.0.0.1:{port}/{token}/", port, token, stopped.set)


def json_text(value: Any) -> str:
    """``value`` as compact JSON text (what the WebSocket sends)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _safe_name(name: str) -> bool:
    """Whether ``name`` may name a file of ``static/``: at most one folder deep (the card
    faces are in ``static/cards/``), every part letters, digits, ``-``, ``_`` and a dot that
    neither starts it nor repeats (so no ``..``, no hidden file, no absolute path)."""
    parts = name.split("/")
    return len(parts) <= 2 and all(
        part and not part.startswith(".") and ".." not in part
        and all(c.isascii() and (c.isalnum() or c in "-_.") for c in part) for part in parts)
