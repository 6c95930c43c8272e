"""A member's frames on their way into the room (relay/intake.py), in memory: however the bytes
are cut into reads, every frame is delivered once, whole and in order; throttled frames wait and
resume; the in-flight budget and the frame size limit stop the intake with the reason."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.relay.intake import STOP, Intake
from p2pcards.relay.limits import RelayLimits
from p2pcards.relay.stats import RelayStats
from p2pcards.wire.framing import encode_frame

_UNTHROTTLED = RelayLimits(frames_rate=1e6, frames_burst=1e6, bytes_rate=1e9, bytes_burst=1e9)


class _Room:
    """What ``deliver`` was handed, and whether it accepts more."""

    def __init__(self, accept: int = 10**9) -> None:
        self.delivered: list[bytes] = []
        self.accept = accept

    def deliver(self, frame: bytes) -> bool:
        if len(self.delivered) >= self.accept:
            return False
        self.delivered.append(frame)
        return True


def _cuts(data: bytes, points: list[int]) -> list[bytes]:
    edges = sorted({0, len(data), *(p % (len(data) + 1) for p in points)})
    return [data[a:b] for a, b in zip(edges, edges[1:], strict=False)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=600), max_size=30), st.lists(st.integers(0, 10**6),
                                                                max_size=40))
def test_any_cutting_of_the_bytes_delivers_every_frame_once_in_order(
        payloads: list[bytes], points: list[int]) -> None:
    stats, room = RelayStats(), _Room()
    intake = Intake(_UNTHROTTLED, stats, 0.0, room.deliver)
    stream = b"".join(encode_frame(p) for p in payloads)
    for chunk in _cuts(stream, points):
        assert intake.feed(chunk, 0.0) == 0.0
    assert room.delivered == [p for p in payloads if p]  # empty frames are keepalives
    assert stats.frames_in == len(payloads)
    assert stats.bytes_in == sum(len(p) for p in payloads)
    assert intake.held == 0 and stats.inflight_bytes == 0


def test_a_throttled_frame_waits_and_the_rest_follow_on_resume() -> None:
    limits = RelayLimits(frames_rate=10.0, frames_burst=2.0)
    stats, room = RelayStats(), _Room()
    intake = Intake(limits, stats, 0.0, room.deliver)
    wait = intake.feed(b"".join(encode_frame(b"f%d" % n) for n in range(4)), 0.0)
    assert room.delivered == [b"f0", b"f1"]
    assert wait == 0.1  # the third frame is one token short at 10 per second
    assert stats.rejections["throttled-frames"] == 1
    assert intake.held == 2 + 2  # the two payloads not yet delivered stay in flight
    wait = intake.resume(0.1)
    assert room.delivered == [b"f0", b"f1", b"f2"] and wait == 0.1
    assert intake.resume(0.2) == 0.0
    assert room.delivered == [b"f0", b"f1", b"f2", b"f3"]
    assert intake.held == 0 and stats.inflight_bytes == 0


def test_a_large_frame_is_throttled_by_bytes() -> None:
    limits = RelayLimits(max_payload=1000, bytes_rate=1000.0, bytes_burst=1000.0)
    stats, room = RelayStats(), _Room()
    intake = Intake(limits, stats, 0.0, room.deliver)
    wait = intake.feed(encode_frame(bytes(800)) + encode_frame(bytes(700)), 0.0)
    assert len(room.delivered) == 1 and wait == 0.5
    assert stats.rejections["throttled-bytes"] == 1
    assert intake.resume(0.5) == 0.0 and len(room.delivered) == 2


def test_a_frame_over_the_payload_limit_stops_the_intake_with_its_reason() -> None:
    stats, room = RelayStats(), _Room()
    intake = Intake(RelayLimits(max_payload=100), stats, 0.0, room.deliver)
    assert intake.feed(encode_frame(bytes(101)), 0.0) == STOP
    assert intake.refusal is not None and intake.refusal[0] == "frame-too-large"
    assert room.delivered == []


def test_bytes_beyond_the_inflight_budget_stop_the_intake() -> None:
    limits = RelayLimits(max_payload=1000, bytes_burst=1000, max_inflight_bytes=1500)
    stats, room = RelayStats(), _Room()
    stats.inflight_bytes = 1000  # other connections' partial frames
    intake = Intake(limits, stats, 0.0, room.deliver)
    assert intake.feed(encode_frame(bytes(900))[:400], 0.0) == 0.0
    assert intake.held == 400 and stats.inflight_bytes == 1400
    assert intake.feed(bytes(200), 0.0) == STOP
    assert intake.refusal == ("inflight-budget", "the relay's budget for frames in flight is "
                                                  "used up")
    assert stats.inflight_bytes == 1400  # the owner releases ``held`` when the connection ends


def test_a_room_that_refuses_a_frame_stops_the_intake_without_a_refusal() -> None:
    stats, room = RelayStats(), _Room(accept=1)
    intake = Intake(_UNTHROTTLED, stats, 0.0, room.deliver)
    assert intake.feed(encode_frame(b"a") + encode_frame(b"b") + encode_frame(b"c"), 0.0) == STOP
    assert room.delivered == [b"a"] and intake.refusal is None
