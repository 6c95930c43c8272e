"""The page server and its guard, over real loopback TCP: the token is required by every HTTP
request and by the WebSocket, the server listens on 127.0.0.1 only on a random port, the static
files are served, and a bad move from the page is answered with one sentence."""

from __future__ import annotations

import socket

import trio
from attacks import Driver
from web_support import WebSocketClient, http_get

from p2pcards.faces.web.hub import SeatPage
from p2pcards.faces.web.server import STATIC, start_web_server


async def test_every_request_needs_the_token_and_static_files_are_served() -> None:
    page = SeatPage()
    async with trio.open_nursery() as nursery:
        server = await start_web_server(nursery, page)
        assert server.url == f"http://127.0.0.1:{server.port}/{server.token}/"
        status, headers, body = await http_get(server.port, f"/{server.token}/")
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert body == (STATIC / "index.html").read_bytes()
        assert headers["referrer-policy"] == "no-referrer"
        assert "default-src 'self'" in headers["content-security-policy"]
        for name in ("app.js", "cards.js", "style.css", "cards/italian.js", "cards/svg.js"):
            status, headers, body = await http_get(server.port, f"/{server.token}/{name}")
            assert status == 200, name
            assert body == (STATIC / name).read_bytes()
        assert (await http_get(server.port, f"/{server.token}/app.js"))[1][
            "content-type"].startswith("text/javascript")
        for path in ("/", "/index.html", "/app.js", f"/{server.token[:-1]}/",
                     f"/{server.token}x/app.js", "/ws", f"/x/{server.token}/"):
            status, _, body = await http_get(server.port, path)
            assert status == 403, path
            assert body.decode().count("\n") == 1  # one sentence, no traceback
        status, _, _ = await http_get(server.port, f"/{server.token}/", host="evil.example")
        assert status == 403  # a rebound DNS name is refused even with the token
        for path in (f"/{server.token}/../server.py", f"/{server.token}/nothing.js",
                     f"/{server.token}/.hidden", f"/{server.token}/cards/../app.js",
                     f"/{server.token}/cards/.x.js", f"/{server.token}/cards/x/svg.js",
                     f"/{server.token}//etc/passwd", f"/{server.token}/cards/..",
                     f"/{server.token}/cards"):
            assert (await http_get(server.port, path))[0] == 404, path
        assert (await http_get(server.port, f"/{server.token}", ))[0] == 307
        server.stop()


async def test_the_websocket_needs_the_token_and_the_page_origin() -> None:
    page = SeatPage()
    page.seating("waiting for the joiners")
    async with trio.open_nursery() as nursery:
        server = await start_web_server(nursery, page)
        for path in ("/ws", f"/{server.token}x/ws", f"/{server.token}/nows"):
            refused = await WebSocketClient.connect(server.port, path)
            assert refused.refused == 403, path
            await refused.stream.aclose()
        foreign = await WebSocketClient.connect(server.port, f"/{server.token}/ws",
                                                origin="http://evil.example")
        assert foreign.refused == 403
        await foreign.stream.aclose()
        client = await WebSocketClient.connect(server.port, f"/{server.token}/ws",
                                               origin=f"http://127.0.0.1:{server.port}")
        assert client.refused is None
        assert await client.receive() == {"type": "seating", "text": "waiting for the joiners"}
        await client.close()
        server.stop()


async def test_it_listens_on_loopback_only_and_on_a_fresh_port_and_token() -> None:
    async with trio.open_nursery() as nursery:
        first = await start_web_server(nursery, SeatPage())
        second = await start_web_server(nursery, SeatPage())
        assert first.port != second.port and first.token != second.token
        assert len(first.token) >= 32
        outward = _outward_address()
        if outward is not None:  # a machine with a non-loopback address: nobody answers there
            probe = socket.socket()
            probe.settimeout(5)
            try:
                assert probe.connect_ex((outward, first.port)) != 0
            finally:
                probe.close()
        first.stop()
        second.stop()


def _outward_address() -> str | None:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith(("127.", "0.")) else address


async def test_a_bad_move_is_answered_with_one_sentence_and_a_good_one_is_played() -> None:
    driver = Driver.new("scopa", "classic", 2, 7)
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables))
    seat = next(i for i, t in enumerate(driver.tables) if t.needs_decision)
    table = driver.tables[seat]
    legal = table.legal_actions()
    page = SeatPage()
    player = page.attach(driver.genesis, seat)
    chosen: list[object] = []

    async def decide() -> None:
        chosen.append(await player.decide(table))

    async with trio.open_nursery() as nursery:
        server = await start_web_server(nursery, page)
        client = await WebSocketClient.connect(server.port, f"/{server.token}/ws")
        first = await client.receive()
        assert first["type"] == "seating"
        nursery.start_soon(decide)
        asked = await client.receive_type("view")
        assert asked["prompt"]["kind"] == "move"
        assert 0 < asked["prompt"]["seconds"] <= driver.genesis.timeouts["action"]
        assert sorted(m["index"] for m in asked["view"]["moves"]) == list(range(len(legal)))
        for bad in ({"type": "move", "index": len(legal)}, {"type": "move", "index": -1},
                    {"type": "move", "index": "1"}, {"type": "move"}, "not json",
                    {"type": "claim", "index": 0}, [1, 2]):
            await client.send(bad)
            answer = await client.receive_type("error")
            assert answer["message"] and "\n" not in answer["message"], bad
            assert "Traceback" not in answer["message"]
        move = asked["view"]["moves"][-1]
        await client.send({"type": "move", "index": move["index"]})
        after = await client.receive_type("view")
        assert after["prompt"] is None
        await client.send({"type": "move", "index": 0})  # nothing is asked any more
        assert "no move" in (await client.receive_type("error"))["message"]
        await client.close()
        server.stop()
    assert chosen == [legal[move["index"]]]


def test_every_file_of_the_page_is_shipped_as_package_data() -> None:
    """``pyproject.toml``'s package data names every file under ``static/`` (a wheel without
    one would serve a page that cannot load it)."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    data = tomllib.loads((root / "pyproject.toml").read_text())
    globs = data["tool"]["setuptools"]["package-data"]["p2pcards.faces.web"]
    files = [p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert files
    missing = [f for f in files if not any(fnmatch.fnmatchcase(f, g) and
                                           f.count("/") == g.count("/") for g in globs)]
    assert missing == []
