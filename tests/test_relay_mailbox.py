"""The relay's mailboxes for short codes: the sans-IO registry (exact cases and invariants),
the service in an in-process relay over loopback TCP (limits, timeouts), and a recording
proxy showing that only SPAKE2 messages, ciphertext and a MAC cross the relay."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.net.codes import MAX_BURNS, redeem_code, serve_codes
from p2pcards.net.errors import MatchFailure
from p2pcards.relay import RelayRejected, RelayServer
from p2pcards.relay.mailbox import (
    NAMEPLATES,
    MailboxLimits,
    MailboxRefused,
    MailboxRegistry,
    decode_relay_reply,
    decode_request,
    encode_claim,
    encode_open,
    table_tag,
)
from p2pcards.relay.mailbox_client import claim_mailbox, open_mailbox
from p2pcards.seating.codes import Code
from p2pcards.seating.invite import Invite
from p2pcards.wire import IdentityKey, codec
from p2pcards.wire.framing import FrameDecoder, encode_frame

# ----------------------------------------------------------------------------- registry


TABLE = table_tag(b"room-of-a-table.")


def first_free(n: int) -> int:
    return 0


def refused(reason: str) -> pytest.RaisesExc[MailboxRefused]:
    return pytest.raises(MailboxRefused, check=lambda e: e.reason == reason)


def rejected(reason: str) -> pytest.RaisesExc[RelayRejected]:
    return pytest.raises(RelayRejected, check=lambda e: e.reason == reason)


def test_a_nameplate_is_claimed_once_then_used_until_its_time_ends() -> None:
    reg = MailboxRegistry(MailboxLimits(ttl=600, exchange_timeout=30, plate_claims_burst=10),
                          choose=first_free)
    box = reg.open("10.0.0.1", 60, now=0.0)
    assert (box.plate, box.expires, box.state) == (1, 60.0, "waiting")
    assert reg.open("10.0.0.1", 60, now=0.0).plate == 2  # the lowest free one, with this choice
    assert reg.claim("10.0.0.2", 1, now=5.0) is box and box.deadline == 35.0
    with refused("code-used"):
        reg.claim("10.0.0.3", 1, now=6.0)
    with refused("code-unknown"):
        reg.claim("10.0.0.3", 3, now=6.0)
    reg.message(box, 1, b"x" * 1024)
    reg.close(box)
    assert box.state == "used"
    with refused("code-used"):
        reg.claim("10.0.0.3", 1, now=7.0)
    assert [(b.plate, why) for b, why in reg.expire(60.0)] == [(1, "forgotten"),
                                                               (2, "code-expired")]
    with refused("code-unknown"):
        reg.claim("10.0.0.3", 1, now=61.0)
    assert reg.plates == {} and reg.waiting == 0


def test_the_relay_grants_at_most_its_ttl_and_ends_a_slow_exchange() -> None:
    reg = MailboxRegistry(MailboxLimits(ttl=100, exchange_timeout=30), choose=first_free)
    box = reg.open("a", 86400, now=0.0)
    assert box.expires == 100.0
    reg.claim("b", 1, now=10.0)
    assert reg.expire(39.9) == []
    assert reg.expire(40.0) == [(box, "mailbox-timeout")] and box.state == "used"
    assert reg.expire(100.0) == [(box, "forgotten")]


def test_per_address_total_and_size_limits() -> None:
    reg = MailboxRegistry(MailboxLimits(max_mailboxes=3, per_ip=2, max_message=10,
                                        max_messages=2), choose=first_free)
    one, _ = reg.open("a", 60, 0.0), reg.open("a", 60, 0.0)
    with refused("mailboxes-per-address"):
        reg.open("a", 60, 0.0)
    reg.claim("c", one.plate, 0.0)  # a claimed mailbox no longer counts as open for "a"
    reg.open("a", 60, 0.0)
    with refused("mailboxes-full"):
        reg.open("b", 60, 0.0)
    with refused("mailbox-message-size"):
        reg.message(one, 0, b"x" * 11)
    reg.message(one, 0, b"x" * 10)
    reg.message(one, 0, b"")
    with refused("mailbox-messages"):
        reg.message(one, 0, b"")
    reg.message(one, 1, b"")  # the other side counts on its own
    with refused("bad-message"):
        reg.message(reg.plates[2], 0, b"")  # not claimed yet


def test_claims_per_address_are_a_token_bucket() -> None:
    reg = MailboxRegistry(MailboxLimits(claims_rate=0.5, claims_burst=2, plate_claims_burst=10))
    for _ in range(2):
        with refused("code-unknown"):  # tries of unknown numbers cost as much as any
            reg.claim("guesser", 5, now=0.0)
    with refused("claims-throttled"):
        reg.claim("guesser", 5, now=0.0)
    with refused("code-unknown"):
        reg.claim("someone-else", 5, now=0.0)
    with refused("code-unknown"):
        reg.claim("guesser", 5, now=2.0)  # one token back after 2 s
    reg.expire(100.0)
    assert reg._claims == {}  # full buckets are forgotten


def test_a_flood_from_other_addresses_never_refuses_a_new_address() -> None:
    """A tracker full of addresses that have just tried (a flood from thousands of them) does
    not refuse the next one: it takes the place of the address that tried least recently,
    the tracker stays at its size, and an address that keeps trying stays held to its bucket
    while fewer than max_addresses others have tried since its last try."""
    reg = MailboxRegistry(MailboxLimits(max_addresses=4, claims_rate=0.01, claims_burst=1,
                                        plate_claims_burst=100), choose=first_free)
    with refused("code-unknown"):
        reg.claim("guesser", 5, now=0.0)
    for n in range(3):
        with refused("code-unknown"):
            reg.claim(f"10.1.0.{n}", 5, now=0.0)
        with refused("claims-throttled"):
            reg.claim("guesser", 5, now=0.0)  # its try keeps it the latest: never forgotten
    box = reg.open("host", 60, now=0.0, table=TABLE)
    assert reg.claim("friend", box.plate, now=0.0) is box
    assert len(reg._claims) == 4 and "10.1.0.0" not in reg._claims
    with refused("claims-throttled"):
        reg.claim("guesser", 5, now=0.0)
    for n in range(3, 7):
        with refused("code-unknown"):
            reg.claim(f"10.1.0.{n}", 5, now=0.0)
    with refused("code-unknown"):  # 4 others tried since its last try: a fresh bucket
        reg.claim("guesser", 5, now=0.0)
    assert len(reg._claims) == 4


def test_claims_per_number_count_every_address() -> None:
    """Many addresses do not buy more tries of one number: every try counts, whoever makes
    it, an unknown number included."""
    reg = MailboxRegistry(MailboxLimits(plate_claims_rate=0.1, plate_claims_burst=3),
                          choose=first_free)
    for n in range(3):
        with refused("code-unknown"):
            reg.claim(f"10.1.0.{n}", 1, now=0.0)
    box = reg.open("host", 60, now=0.0, table=TABLE)
    with pytest.raises(MailboxRefused, match="the code number 1 was tried too often at this "
                       "relay; try again in 10 seconds") as info:
        reg.claim("10.1.0.9", 1, now=0.0)
    assert info.value.reason == "code-tries-throttled" and box.state == "waiting"
    assert reg.claim("10.1.0.9", 1, now=10.0) is box  # one token back after 10 s
    with refused("code-unknown"):
        reg.claim("10.1.0.9", 2, now=10.0)  # another number has its own bucket


def test_claims_per_table_count_every_address_and_number() -> None:
    """A guesser with many addresses trying the codes of one table one after the other is
    stopped by the table's bucket; the code stays offered, and other tables are not touched."""
    reg = MailboxRegistry(MailboxLimits(table_claims_rate=1 / 60, table_claims_burst=2))
    for n in range(2):
        box = reg.open("host", 600, now=0.0, table=TABLE)
        assert reg.claim(f"10.2.0.{n}", box.plate, now=0.0) is box
        reg.close(box)
    box = reg.open("host", 600, now=0.0, table=TABLE)
    with pytest.raises(MailboxRefused, match="the codes of this table were tried too often at "
                       "this relay; try again in 60 seconds") as info:
        reg.claim("10.2.0.7", box.plate, now=0.0)
    assert info.value.reason == "table-tries-throttled" and box.state == "waiting"
    other = reg.open("host", 600, now=0.0, table=table_tag(b"another-table..."))
    assert reg.claim("10.2.0.8", other.plate, now=0.0) is other
    assert reg.claim("10.2.0.9", box.plate, now=60.0) is box


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["open", "claim"]), st.integers(1, 6),
                          st.floats(0, 30)), max_size=80))
def test_no_number_and_no_table_is_tried_faster_than_its_bucket(
        steps: list[tuple[str, int, float]]) -> None:
    """Whatever the addresses (a fresh one for every try): over any span of t seconds a number
    is tried at most burst + t * rate times, and a table's mailboxes are paired at most burst +
    t * rate times."""
    limits = MailboxLimits(plate_claims_rate=0.1, plate_claims_burst=2, table_claims_rate=0.05,
                           table_claims_burst=3, max_mailboxes=6, per_ip=6)
    reg = MailboxRegistry(limits, choose=first_free)
    now, tries, pairings = 0.0, [], []
    for i, (op, plate, step) in enumerate(steps):
        now += step
        try:
            if op == "open":
                reg.open("host", 600, now, TABLE)
            else:
                tries.append((now, plate))
                box = reg.claim(f"10.3.{i // 250}.{i % 250}", plate, now)
                pairings.append(now)
                reg.close(box)
        except MailboxRefused as exc:
            if exc.reason == "code-tries-throttled":
                tries.pop()
    moments = sorted({t for t, _ in tries} | set(pairings))
    for i, start in enumerate(moments):
        for end in moments[i:]:
            for plate in range(1, 7):
                count = sum(start <= t <= end and p == plate for t, p in tries)
                assert count <= 2 + (end - start) * 0.1 + 1e-9
            assert sum(start <= t <= end for t in pairings) <= 3 + (end - start) * 0.05 + 1e-9


def test_the_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="max_mailboxes must be at most 999"):
        MailboxLimits(max_mailboxes=1000)
    with pytest.raises(ValueError, match="ttl must be positive"):
        MailboxLimits(ttl=0)
    with pytest.raises(ValueError, match="table_claims_burst must be at least 1"):
        MailboxLimits(table_claims_burst=0.5)


ops = st.lists(st.tuples(st.sampled_from(["open", "claim", "close", "expire"]),
                         st.sampled_from(["a", "b", "c"]), st.integers(1, 6),
                         st.floats(0, 50)), max_size=60)


@settings(max_examples=60, deadline=None)
@given(ops, st.integers(0, 2**32))
def test_registry_invariants_hold_for_any_sequence(sequence: list[tuple[str, str, int, float]],
                                                   seed: int) -> None:
    """Whatever hosts and joiners do: nameplates are distinct and in range, at most
    max_mailboxes are held, no address holds more than per_ip open ones, and a nameplate is
    paired at most once while it is held."""
    import random
    rng = random.Random(seed)
    limits = MailboxLimits(max_mailboxes=5, per_ip=2, ttl=20, exchange_timeout=5,
                           claims_burst=1000)
    reg = MailboxRegistry(limits, choose=rng.randrange)
    now, paired_once = 0.0, set()
    for op, address, plate, step in sequence:
        now += step / 10
        try:
            if op == "open":
                reg.open(address, int(step) + 1, now)
            elif op == "claim":
                box = reg.claim(address, plate, now)
                assert box.plate not in paired_once
                paired_once.add(box.plate)
            elif op == "close" and plate in reg.plates:
                reg.close(reg.plates[plate])
            elif op == "expire":
                for box, _ in reg.expire(now):
                    if box.plate not in reg.plates:
                        paired_once.discard(box.plate)
        except MailboxRefused:
            pass
        for gone in [p for p in paired_once if p not in reg.plates]:
            paired_once.discard(gone)  # forgotten: the number may be handed out again
        assert len(reg.plates) <= limits.max_mailboxes
        assert all(1 <= p <= NAMEPLATES and b.plate == p for p, b in reg.plates.items())
        waiting: dict[str, int] = {}
        for box in reg.plates.values():
            if box.state == "waiting":
                waiting[box.address] = waiting.get(box.address, 0) + 1
        assert all(n <= limits.per_ip for n in waiting.values())
        assert sum(waiting.values()) == reg.waiting


def test_requests_are_decoded_strictly() -> None:
    request = decode_request(encode_open(60, TABLE))
    assert (request.ttl, request.table) == (60, TABLE)  # type: ignore[union-attr]
    assert decode_request(encode_claim(7)).plate == 7  # type: ignore[union-attr]
    assert table_tag(b"room-of-a-table.").hex() == \
        "09da3266502d6ba4fecd38ec83d62d9d"  # SHA-256("room-of-a-table.")[:16]
    from p2pcards.relay.errors import RelayProtocolError
    for bad in (encode_claim(0), encode_claim(1000), encode_open(0, TABLE), encode_open(5, b""),
                encode_open(5, TABLE + b"x"),
                codec.pack({"t": "mb-open", "v": 2, "ttl": 5, "table": TABLE, "x": 1}),
                codec.pack({"t": "mb-open", "v": 2, "ttl": 5}),
                codec.pack({"t": "mb-claim", "v": 3, "plate": 5})):
        with pytest.raises(RelayProtocolError):
            decode_request(bad)
    with pytest.raises(RelayProtocolError, match="mailbox version 1 is not supported"):
        decode_request(codec.pack({"t": "mb-open", "v": 1, "ttl": 5, "table": TABLE}))


# ----------------------------------------------------------------------------- service


@asynccontextmanager
async def relay_with(limits: MailboxLimits) -> AsyncIterator[tuple[RelayServer, int]]:
    server = RelayServer(log=lambda line: None, mailbox_limits=limits)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve, "127.0.0.1", 0)
        yield server, port
        server.request_shutdown()


async def test_the_service_forwards_bodies_and_refuses_what_the_limits_forbid() -> None:
    async with relay_with(MailboxLimits(max_message=64, max_messages=2)) as (server, port):
        host = await open_mailbox("127.0.0.1", port, 60, TABLE)
        assert host.ttl == 60 and 1 <= host.plate <= NAMEPLATES
        joiner = await claim_mailbox("127.0.0.1", port, host.plate)
        await host.wait_claimed()
        await joiner.send(b"hello")
        assert await host.receive() == b"hello"
        await host.send(b"")
        assert await joiner.receive() == b""
        with rejected("code-used"):
            await claim_mailbox("127.0.0.1", port, host.plate)
        await joiner.send(b"x" * 65)  # over the size limit: the joiner is cut
        with rejected("mailbox-message-size"):
            await joiner.receive()
        with rejected("mailbox-closed"):
            await host.receive()
        await host.aclose()
        await joiner.aclose()
        with rejected("code-unknown"):
            await claim_mailbox("127.0.0.1", port, 1 + host.plate % NAMEPLATES)
        assert server.stats.rejections["mailbox-message-size"] == 1


async def test_a_code_nobody_claims_expires_and_a_stalled_exchange_is_cut() -> None:
    async with relay_with(MailboxLimits(ttl=1, exchange_timeout=1)) as (_, port):
        host = await open_mailbox("127.0.0.1", port, 600, TABLE)
        assert host.ttl == 1  # the relay's limit, not what the host asked
        with trio.fail_after(30), \
                rejected("code-expired"):
            await host.wait_claimed()
        await host.aclose()
        host = await open_mailbox("127.0.0.1", port, 1, TABLE)
        joiner = await claim_mailbox("127.0.0.1", port, host.plate)
        await host.wait_claimed()
        for side in (host, joiner):  # nobody says anything: both are cut
            with trio.fail_after(30), \
                    rejected("mailbox-timeout"):
                await side.receive()
            await side.aclose()


async def test_a_room_hello_and_garbage_are_told_apart_from_mailbox_requests() -> None:
    async with relay_with(MailboxLimits()) as (_, port):
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        await stream.send_all(encode_frame(codec.pack({"t": "mb-claim", "v": 2, "plate": 0})))
        decoder = FrameDecoder(4096)
        frames: list[bytes] = []
        while not frames:
            frames = decoder.feed(await stream.receive_some(4096))
        assert decode_relay_reply(frames[0], 1024)[1][0] == "bad-message"
        await stream.aclose()


# ----------------------------------------------------------------------------- what the relay sees


@asynccontextmanager
async def recording_proxy(target: int) -> AsyncIterator[tuple[int, list[tuple[str, bytes]]]]:
    """A TCP proxy in front of the relay that records every byte each way, as the relay (or
    anyone on the path) sees them: ``("up"|"down", connection number, bytes)`` chunks."""
    seen: list[tuple[str, bytes]] = []
    count = 0

    async def pump(src: trio.SocketStream, dst: trio.SocketStream, tag: str) -> None:
        try:
            while data := await src.receive_some(65536):
                seen.append((tag, data))
                await dst.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            with trio.CancelScope(shield=True):
                await dst.aclose()

    async def handle(client: trio.SocketStream) -> None:
        nonlocal count
        count += 1
        number = count
        upstream = await trio.open_tcp_stream("127.0.0.1", target)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pump, client, upstream, f"up{number}")
            nursery.start_soon(pump, upstream, client, f"down{number}")

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handle, 0, host="127.0.0.1"))
        yield listeners[0].socket.getsockname()[1], seen
        nursery.cancel_scope.cancel()


async def test_only_spake2_messages_ciphertext_and_a_mac_cross_the_relay() -> None:
    """A host and a joiner redeem a code through a relay behind a recording proxy: every frame
    each way is a mailbox message; every body is one of the three shapes of SPEC §11.6 with
    33-byte SPAKE2 messages, a sealed box and a 32-byte MAC; the code's words, the invite and
    the host's key never appear in the bytes."""
    key = IdentityKey.generate()
    invite = Invite("127.0.0.1", 7447, bytes(range(16)), key.public.fingerprint, relay=True,
                    rules=bytes(16))
    async with relay_with(MailboxLimits()) as (_, port), recording_proxy(port) as (proxy, seen):
        offered: list[Code] = []
        ready = trio.Event()

        def on_code(code: Code, seconds: float) -> None:
            offered.append(code)
            ready.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(serve_codes, ("127.0.0.1", proxy), invite,
                                       key.public.to_bytes(), seats=1, ttl=60,
                                       on_code=on_code, notice=lambda text: None,
                                       room=invite.nonce))
            await ready.wait()
            with trio.fail_after(60):
                assert await redeem_code(("127.0.0.1", proxy), offered[0]) == invite
    code = offered[0]
    raw = b"".join(data for _, data in seen)
    words = [w.encode() for w in code.words if len(w) >= 5]  # "re" may occur by chance
    for secret in (*words, code.password, str(invite).encode(), invite.nonce,
                   key.public.to_bytes(), key.public.fingerprint.encode()):
        assert secret not in raw
    bodies: list[dict[str, bytes]] = []
    for tag in sorted({t for t, _ in seen}):
        frames = FrameDecoder(8192).feed(b"".join(d for t, d in seen if t == tag))
        if tag.startswith("up"):
            request = decode_request(frames[0])
            assert request in (decode_request(encode_open(60, table_tag(invite.nonce))),
                               decode_request(
                encode_claim(code.nameplate)))
            messages = [codec.unpack(f, max_size=4096, limits=codec.Limits())
                        for f in frames[1:]]
            assert all(set(m) == {"t", "body"} and m["t"] == "mb-msg" for m in messages)
            bodies += [codec.unpack(m["body"], max_size=4096, limits=codec.Limits())
                       for m in messages]
        else:
            kinds = [decode_relay_reply(f, 1024)[0] for f in frames]
            assert kinds in (["plate", "claimed", "msg", "msg"], ["claimed", "msg"],
                             ["claimed", "msg", "error"])
    shapes = sorted((b["type"], tuple(sorted((k, len(v)) for k, v in b.items() if k != "type")))
                    for b in bodies)
    box_size = [n for t, fields in shapes for k, n in fields if k == "box"][0]
    assert shapes == [("code-confirm", (("mac", 32),)), ("code-pake", (("box", box_size),
                                                                        ("msg", 33))),
                      ("code-pake", (("msg", 33),))]


async def test_a_guesser_burns_the_code_and_learns_nothing() -> None:
    """The wrong words: the joiner is told the code is wrong, the host burns it, and the right
    words afterwards are refused by the relay itself (the number was claimed once)."""
    key = IdentityKey.generate()
    invite = Invite("127.0.0.1", 7447, bytes(range(16)), key.public.fingerprint, relay=True)
    async with relay_with(MailboxLimits()) as (_, port):
        offered: list[Code] = []
        notices: list[str] = []
        ready = trio.Event()

        def on_code(code: Code, seconds: float) -> None:
            offered.append(code)
            ready.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(serve_codes, ("127.0.0.1", port), invite,
                                       key.public.to_bytes(), seats=1, ttl=60,
                                       on_code=on_code, notice=notices.append,
                                       room=invite.nonce))
            await ready.wait()
            right = offered[0]
            wrong = Code(right.nameplate, (right.words[1], right.words[0])) \
                if right.words[0] != right.words[1] else \
                Code(right.nameplate, (right.words[0], "asso" if right.words[0] != "asso"
                                       else "due"))
            with trio.fail_after(60), pytest.raises(MatchFailure, match="is wrong or already "
                                                    r"used \(a wrong try burns it"):
                await redeem_code(("127.0.0.1", port), wrong)
            with trio.fail_after(60), pytest.raises(MatchFailure, match="is wrong or already "
                                                    r"used \(each code opens once"):
                await redeem_code(("127.0.0.1", port), right)
            nursery.cancel_scope.cancel()
        assert f"someone tried a wrong code, so {right} is burned" in notices


def a_wrong_guess(code: Code) -> Code:
    """The code's number with other words."""
    first = "asso" if code.words[0] != "asso" else "due"
    return Code(code.nameplate, (first, code.words[1]))


async def until(condition: object) -> None:
    with trio.fail_after(60):
        while not condition():  # type: ignore[operator]
            await trio.sleep(0.01)


async def test_the_host_stops_after_three_burns_and_offers_codes_again_when_asked() -> None:
    """Three wrong tries burn three codes; the host then offers none (it says so and waits for
    its person), until the person asks: the next code seats the friend."""
    key = IdentityKey.generate()
    invite = Invite("127.0.0.1", 7447, bytes(range(16)), key.public.fingerprint, relay=True)
    async with relay_with(MailboxLimits()) as (server, port):
        offered: list[Code] = []
        notices: list[str] = []
        asked, waiting = trio.Event(), trio.Event()

        async def again() -> None:
            waiting.set()
            await asked.wait()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(serve_codes, ("127.0.0.1", port), invite,
                                       key.public.to_bytes(), seats=1, ttl=600,
                                       on_code=lambda code, _: offered.append(code),
                                       notice=notices.append, room=invite.nonce, again=again))
            for n in range(MAX_BURNS):
                await until(lambda: len(offered) > n)  # noqa: B023 - awaited at once
                with pytest.raises(MatchFailure, match="is wrong or already used"):
                    await redeem_code(("127.0.0.1", port), a_wrong_guess(offered[n]))
            with trio.fail_after(60):
                await waiting.wait()
            assert len(offered) == MAX_BURNS == 3
            assert notices[-1] == ("3 codes were burned by wrong tries, so no more codes are "
                                   "offered (someone may be guessing them); the long invite "
                                   "still works")
            assert server.mailboxes.registry.waiting == 0  # nothing to guess at the relay
            asked.set()
            await until(lambda: len(offered) == MAX_BURNS + 1)
            with trio.fail_after(60):
                assert await redeem_code(("127.0.0.1", port), offered[-1]) == invite
            await until(lambda: notices[-1] == f"the code {offered[-1]} was used")
        assert notices.count("offering invite codes again") == 1
        assert sum("is burned" in line for line in notices) == MAX_BURNS


async def test_a_table_whose_host_never_stops_is_still_bounded_by_the_relay() -> None:
    """A host that opens code after code for one table (as one that ignored its cap of burns
    would): claims from fresh addresses pair two of them, then the relay refuses the third
    for the table, whoever claims it, and the joiner reads one sentence; the code stays
    offered, and another table's code is claimed at once."""
    async with relay_with(MailboxLimits(table_claims_burst=2)) as (server, port):
        boxes = [await open_mailbox("127.0.0.1", port, 600, TABLE) for _ in range(3)]
        for n, box in enumerate(boxes[:2]):
            await (await claim_mailbox("127.0.0.1", port, box.plate,
                                       local_address=f"127.1.9.{n + 1}")).aclose()
        with pytest.raises(MatchFailure) as info:
            await redeem_code(("127.0.0.1", port), Code(boxes[2].plate, ("asso", "due")),
                              local_address="127.1.9.3")
        assert str(info.value) == (f"the relay at 127.0.0.1:{port} refused the code: the codes "
                                   "of this table were tried too often at this relay; try again "
                                   "in 60 seconds")
        assert server.mailboxes.registry.plates[boxes[2].plate].state == "waiting"
        other = await open_mailbox("127.0.0.1", port, 600, table_tag(b"another-table..."))
        claimed = await claim_mailbox("127.0.0.1", port, other.plate, local_address="127.1.9.4")
        for box in (*boxes, other, claimed):
            await box.aclose()
