"""Token buckets for per-connection rate limits. Sans-IO: the time is an argument."""

from __future__ import annotations

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` held, starting full.

    :meth:`take` always takes the tokens, letting the balance go negative, and returns how long
    the caller must wait before acting so that the long-run rate stays at most ``rate``. A caller
    that waits as told never has more than one request's worth of debt.
    """

    __slots__ = ("rate", "burst", "_tokens", "_at")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        if not rate > 0 or not burst > 0:
            raise ValueError("token bucket rate and burst must be positive")
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._at = now

    def tokens(self, now: float) -> float:
        """The balance at ``now`` (negative while in debt)."""
        self._refill(now)
        return self._tokens

    def _refill(self, now: float) -> None:
        if now > self._at:
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
            self._at = now

    def take(self, amount: float, now: float) -> float:
        """Take ``amount`` tokens; return the seconds to wait (0.0 if the bucket had them)."""
        self._refill(now)
        self._tokens -= amount
        if self._tokens >= 0:
            return 0.0
        return -self._tokens / self.rate
