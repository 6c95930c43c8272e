"""What one room member sends, frame by frame. Sans-IO: the bytes read and the time are
arguments, every frame goes to a ``deliver`` callable.

For each chunk read from the member's socket an :class:`Intake` cuts the frames out, holds the
relay-wide budget for bytes in flight (:attr:`RelayLimits.max_inflight_bytes`), charges the
member's two token buckets (frames and bytes per second) and hands each non-empty frame to
``deliver`` (an empty frame is a keepalive). A throttled frame stops the intake: the caller
waits the time it is told, then calls :meth:`Intake.resume`, and reads nothing from the member
meanwhile. The same intake serves the relay's shared reading task and a connection's own
reading loop, so both behave alike.
"""

from __future__ import annotations

from collections.abc import Callable

from ..wire.errors import FrameTooLarge
from ..wire.framing import FrameDecoder
from .buckets import TokenBucket
from .limits import RelayLimits
from .stats import RelayStats

__all__ = ["Intake", "STOP"]

STOP = -1.0
"""What :meth:`Intake.feed` and :meth:`Intake.resume` return when the connection must end:
:attr:`Intake.refusal` says why if the intake refused it, else ``deliver`` said the room is
gone."""


class Intake:
    """One member's frames on their way into its room.

    ``held`` is what this member counts in ``stats.inflight_bytes`` (bytes read but not yet
    delivered); the owner subtracts it when the connection ends.
    """

    __slots__ = ("_limits", "_stats", "_deliver", "_decoder", "_frames_bucket", "_bytes_bucket",
                 "held", "refusal", "_queue", "_next", "_charged")

    def __init__(self, limits: RelayLimits, stats: RelayStats, now: float,
                 deliver: Callable[[bytes], bool]) -> None:
        self._limits = limits
        self._stats = stats
        self._deliver = deliver
        self._decoder = FrameDecoder(limits.max_payload)
        self._frames_bucket = TokenBucket(limits.frames_rate, limits.frames_burst, now)
        self._bytes_bucket = TokenBucket(limits.bytes_rate, limits.bytes_burst, now)
        self.held = 0
        self.refusal: tuple[str, str] | None = None
        """``(reason, message)`` of the cut the intake asks for (``frame-too-large``,
        ``inflight-budget``)."""
        self._queue: list[bytes] = []  # complete frames not yet delivered
        self._next = 0  # position in _queue of the next frame to deliver
        self._charged = False  # the frame at _next has paid its tokens (it was throttled)

    def feed(self, data: bytes, now: float) -> float:
        """Take ``data`` read from the member at ``now``.

        Returns 0.0 when every complete frame was delivered, the seconds to wait before
        :meth:`resume` when a frame is throttled (counted as ``throttled-frames`` or
        ``throttled-bytes``), or :data:`STOP`. Must not be called while throttled.
        """
        try:
            frames = self._decoder.feed(data)
        except FrameTooLarge as exc:
            self.refusal = ("frame-too-large", str(exc))
            return STOP
        stats = self._stats
        held = self._decoder.pending + sum(len(frame) for frame in frames)
        if stats.inflight_bytes - self.held + held > self._limits.max_inflight_bytes:
            self.refusal = ("inflight-budget", "the relay's budget for frames in flight is used "
                            "up")
            return STOP
        stats.inflight_bytes += held - self.held
        self.held = held
        self._queue, self._next = frames, 0
        return self.resume(now)

    def resume(self, now: float) -> float:
        """Deliver the frames waiting, from the throttled one on; same results as
        :meth:`feed`."""
        stats = self._stats
        queue = self._queue
        while self._next < len(queue):
            frame = queue[self._next]
            size = len(frame)
            if not self._charged:
                wait_frames = self._frames_bucket.take(1, now)
                wait_bytes = self._bytes_bucket.take(size, now)
                if wait_frames or wait_bytes:
                    stats.reject("throttled-frames" if wait_frames >= wait_bytes
                                 else "throttled-bytes")
                    self._charged = True
                    return max(wait_frames, wait_bytes)
            self._charged = False
            self._next += 1
            stats.frames_in += 1
            stats.bytes_in += size
            self.held -= size
            stats.inflight_bytes -= size
            if size and not self._deliver(frame):
                return STOP
        self._queue, self._next = [], 0
        return 0.0
