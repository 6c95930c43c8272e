"""The page's status bar and its rematch question, without a browser: what a seat's page
pushes for the peer's notices (a ``connection:`` line per link, the latest other sentence)."""

from __future__ import annotations

import json

import trio
import trio.testing

from p2pcards.faces.web.hub import SeatPage
from p2pcards.net.hub import host_connection_line
from p2pcards.net.peer import joiner_connection_line
from p2pcards.net.rematch import Series
from p2pcards.seating.candidates import Candidate


def pushed(page: SeatPage, kind: str) -> list[dict[str, object]]:
    return [m for m in map(json.loads, page.pushed) if m["type"] == kind]


def opened(page: SeatPage) -> list[dict[str, object]]:
    """What a page that opens now is sent first."""
    channel = page.subscribe()
    texts = []
    while True:
        try:
            texts.append(channel.receive_nowait())
        except trio.WouldBlock:
            return [json.loads(text) for text in texts]


def test_each_link_keeps_its_latest_connection_line_and_a_new_page_is_told_them() -> None:
    page = SeatPage()
    page.record = True
    page.notice(host_connection_line(1, "192.168.1.7:5000"))
    page.notice(host_connection_line(2, "relay slot 3"))
    page.notice("every seat is taken; table 0123456789abcdef starts")
    page.notice(host_connection_line(2, "punched 203.0.113.9:4000"))
    last = pushed(page, "links")[-1]["links"]
    assert [(link["seat"], link["path"], link["how"]) for link in last] == [
        (1, "direct", "lan"), (2, "direct", "punched")]
    assert last[1]["text"] == "connection: seat 2 direct (hole punched) from 203.0.113.9:4000"
    assert pushed(page, "notice")[-1]["text"].startswith("every seat is taken")
    assert [m["type"] for m in opened(page)][:2] == ["links", "notice"]


def test_a_joiners_relay_line_says_why_direct_failed() -> None:
    direct = Candidate("lan", "192.168.1.20", 40123)
    line = joiner_connection_line(Candidate("relay", "relay.example.org", 7447),
                                  [(direct, "connection refused")])
    page = SeatPage()
    page.record = True
    page.notice(line)
    (link,) = pushed(page, "links")[-1]["links"]
    assert link == {"text": str(line), "event": "connection", "seat": None, "path": "relay",
                    "how": None, "where": "relay.example.org:7447",
                    "why": "direct failed: 192.168.1.20:40123: connection refused"}


async def test_the_page_is_asked_to_play_again_and_its_click_is_the_answer() -> None:
    page = SeatPage()
    page.record = True
    answers: list[bool] = []
    assert json.loads(page.handle('{"type": "again", "answer": true}') or "{}") == {
        "type": "error", "message": "no one asks this seat to play again now"}
    async with trio.open_nursery() as nursery:
        async def ask() -> None:
            answers.append(await page.again(None))  # the page's question needs no table

        nursery.start_soon(ask)
        await trio.testing.wait_all_tasks_blocked()
        assert {"type": "again", "open": True} in opened(page)
        refused = json.loads(page.handle('{"type": "again", "answer": "yes"}') or "{}")
        assert refused["message"] == 'the answer to "play again?" must be true or false'
        assert page.handle('{"type": "again", "answer": true}') is None
    assert answers == [True]
    assert [m["open"] for m in pushed(page, "again")] == [True, False]


def test_the_series_tally_is_pushed_and_kept_for_a_page_that_opens_later() -> None:
    series = Series(["Alba [0]", "Bruno [1]"])
    series.record(1, (3, 11))
    series.record(0, (11, 5))
    page = SeatPage()
    page.record = True
    page.notice(series.line())
    (tally,) = pushed(page, "series")
    assert tally == {"type": "series", "text": "series after 2 matches: Alba [0] 1 · Bruno [1] 1",
                     "event": "series", "played": 2, "sides": ["Alba [0]", "Bruno [1]"],
                     "wins": [1, 1], "points": [14, 16]}
    assert tally in opened(page)
