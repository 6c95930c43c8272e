"""Counters of a relay and their periodic ``key=value`` stats line. Sans-IO."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

__all__ = ["RelayStats", "log_line"]


def log_line(event: str, **fields: object) -> str:
    """One structured log line: ``event=<event> key=value ...`` (values with spaces quoted)."""
    parts = [f"event={event}"]
    for key, value in fields.items():
        text = str(value)
        if not text or any(c in text for c in ' ="'):
            text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        parts.append(f"{key}={text}")
    return " ".join(parts)


@dataclass
class RelayStats:
    """Monotonic counters plus gauges maintained by the server.

    ``rejections`` counts every refusal, cut and throttle by its reason (the same kebab-case
    reasons sent to clients); ``frames_out`` counts frames written to clients (forwarded frames,
    acks excluded), ``bytes_out`` their bytes, ``writes_out`` the writes to client sockets that
    carried them and the acks (fewer than frames and acks when one write carries several).
    """

    connections: int = 0
    handshaking: int = 0
    frames_in: int = 0
    bytes_in: int = 0
    frames_out: int = 0
    bytes_out: int = 0
    writes_out: int = 0
    inflight_bytes: int = 0
    rejections: Counter[str] = field(default_factory=Counter)
    _last: tuple[float, int, int, int, int] = (0.0, 0, 0, 0, 0)

    def reject(self, reason: str) -> None:
        self.rejections[reason] += 1

    def line(self, now: float, rooms: int, buffered_bytes: int) -> str:
        """The stats line; rates are averages since the previous call."""
        at, frames_in, frames_out, bytes_out, writes_out = self._last
        span = max(now - at, 1e-9)
        self._last = (now, self.frames_in, self.frames_out, self.bytes_out, self.writes_out)
        fields: dict[str, object] = {
            "rooms": rooms,
            "connections": self.connections,
            "handshaking": self.handshaking,
            "frames_in_per_s": round((self.frames_in - frames_in) / span, 1),
            "frames_out_per_s": round((self.frames_out - frames_out) / span, 1),
            "bytes_out_per_s": round((self.bytes_out - bytes_out) / span),
            "writes_out_per_s": round((self.writes_out - writes_out) / span, 1),
            "buffered_bytes": buffered_bytes,
            "inflight_bytes": self.inflight_bytes,
        }
        for reason in sorted(self.rejections):
            fields[f"rejected_{reason.replace('-', '_')}"] = self.rejections[reason]
        return log_line("stats", **fields)
