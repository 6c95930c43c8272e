"""``--web`` for ``host``, ``join`` and ``show``: the browser table served by this very process.

:func:`web_table` starts the page server (:mod:`p2pcards.faces.web.server`) for the length of a
match, prints its address (with its token) and opens it in the default browser unless
``--no-browser``; the terminal keeps printing the log. When the match is over the page shows the
transcript's path and the verifier's verdict, and the process waits until the page is closed
(or Ctrl-C) so that the person can read it. :func:`serve_replay` serves a recorded match for
``show --web``.

The page's modules (and :mod:`webbrowser`) are imported when a page is served: a command without
``--web`` (a bot's seat, ``p2pcards demo``) does not load them.
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from ..i18n import _
from ..net.errors import MatchFailure
from ..net.player import Player
from ..records.transcript import TranscriptFile
from ..seating.genesis import Genesis
from ..verify import UnreadableTranscript, replay_transcript, verify_transcript
from .errors import EXIT_INVALID, EXIT_USAGE, UserError

if TYPE_CHECKING:
    from ..faces.web.hub import SeatPage
    from ..faces.web.replay import ReplayPage

__all__ = ["web_options", "WebTable", "web_table", "show_web", "serve_replay", "verdict_of",
           "REOPEN_GRACE"]

REOPEN_GRACE = 2.0
"""Seconds a finished page may be away (a reload) before the process ends."""


def web_options(parser: argparse.ArgumentParser, what: str = "play at") -> None:
    """Add ``--web`` and ``--no-browser`` to ``parser``."""
    parser.add_argument("--web", action="store_true",
                        help=f"{what} a page in your browser, served by this process on "
                             "127.0.0.1 with a secret token in its address")
    parser.add_argument("--no-browser", action="store_true",
                        help="with --web: only print the page's address, do not open a browser")


def verdict_of(path: Path | None) -> tuple[str, str]:
    """The verifier's status and one sentence about the transcript at ``path``."""
    if path is None:
        return "incomplete", "no transcript was written"
    try:
        report = verify_transcript(path)
    except UnreadableTranscript as exc:
        return "unreadable", str(exc)
    if report.status == "valid":
        scores = " - ".join(str(s) for s in report.scores)
        return "valid", (f"verified: the transcript is valid, every check passed "
                         f"({report.verified} envelopes, final scores {scores})")
    if report.status == "invalid" and report.violation is not None:
        return "invalid", f"verified: INVALID, {report.violation.message}"
    return str(report.status), (f"verified: {report.status}, the chain stops after "
                                f"{report.verified} envelopes")


class WebTable:
    """The page of this process's seat during one match (``host`` or ``join`` with --web)."""

    def __init__(self, say: Callable[[str], None], open_browser: bool) -> None:
        self.say = say
        self.open_browser = open_browser
        from ..faces.web.hub import SeatPage

        self.page = SeatPage(write=say)
        self.url: str | None = None

    def notice(self, text: str) -> None:
        """Show a notice of the peer on the page (:meth:`SeatPage.notice`)."""
        self.page.notice(text)

    def player(self, genesis: Genesis, seat: int) -> Player:
        """The seat's player: moves come from the page."""
        return self.page.attach(genesis, seat)

    async def start(self, nursery: trio.Nursery) -> Callable[[], None]:
        from ..faces.web.server import start_web_server

        server = await start_web_server(nursery, self.page)
        self.url = server.url
        self.say(f"your table's page (keep its address private): {server.url}")
        if self.open_browser:
            await _open_browser(server.url)
        return server.stop

    async def finish(self, path: Path | None, failure: str | None = None) -> None:
        """Show the end on the page; wait while a page is open."""
        status, verdict = await trio.to_thread.run_sync(verdict_of, path)
        if failure is not None:
            verdict = f"{failure}. {verdict[0].upper()}{verdict[1:]}"
        self.page.finish(str(path) if path is not None else None, status, verdict)
        await linger(self.page.connections, self.page, self.say)


async def _open_browser(url: str) -> None:
    """Open ``url`` in the default browser, in a thread (it may block)."""
    import webbrowser

    await trio.to_thread.run_sync(webbrowser.open, url)


async def linger(connections: int, page: SeatPage | ReplayPage,
                 say: Callable[[str], None]) -> None:
    """Wait until no page has been open for :data:`REOPEN_GRACE` seconds."""
    if connections == 0:
        return
    say("the page stays open until you close it (or press Ctrl-C)")
    try:
        while True:
            await page.all_gone.wait()
            await trio.sleep(REOPEN_GRACE)
            if page.connections == 0:
                return
    except KeyboardInterrupt:  # the person is done reading: not a failure
        return


@asynccontextmanager
async def web_table(args: argparse.Namespace, say: Callable[[str], None],
                    transcript: Callable[[], Path | None]) -> AsyncIterator[WebTable | None]:
    """The web table when ``args.web``, else ``None``; ``transcript`` tells the path at the
    end."""
    if not getattr(args, "web", False):
        yield None
        return
    face = WebTable(say, not args.no_browser)
    async with trio.open_nursery() as nursery:
        stop = await face.start(nursery)
        try:
            yield face
        except MatchFailure as exc:
            with trio.CancelScope(shield=True):
                await face.finish(transcript(), str(exc))
            stop()
            raise
        else:
            await face.finish(transcript())
        stop()


def show_web(path: str, transcript: TranscriptFile, genesis: Genesis, open_browser: bool,
             say: Callable[[str], None]) -> int:
    """``show TRANSCRIPT --web``: replay the match into frames, serve them until the page is
    closed; the status is the verifier's (0 valid, 1 invalid, 2 incomplete)."""
    from ..faces.web.replay import ReplayPage, ReplayRecorder

    recorder = ReplayRecorder(genesis)
    replay_transcript(transcript, genesis, recorder.on_events)
    status, verdict = verdict_of(Path(path))
    frames = recorder.finish()
    if not frames:
        raise UserError(_("{path} holds no deal or move to show").format(path=path), EXIT_USAGE)
    say(f"{genesis.game} ({genesis.preset}): {len(frames)} steps; {verdict}")
    serve_replay(ReplayPage(frames, str(Path(path).absolute()), status, verdict),
                 open_browser, say)
    return {"valid": 0, "invalid": EXIT_INVALID}.get(status, EXIT_USAGE)


def serve_replay(page: ReplayPage, open_browser: bool, say: Callable[[str], None]) -> None:
    """Serve a recorded match until the page is closed (``show --web``)."""
    from ..faces.web.server import start_web_server

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            server = await start_web_server(nursery, page)
            say(f"the match's page (keep its address private): {server.url}")
            if open_browser:
                await _open_browser(server.url)
            await page.ever_connected.wait()
            await linger(page.connections, page, say)
            server.stop()

    try:
        trio.run(main)
    except KeyboardInterrupt:
        say("stopped")
