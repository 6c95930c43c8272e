"""What a received envelope must pass before its body is checked (SPEC §6, §9.2, §9.8).

:func:`open_received` reads and authenticates the envelope and refuses one that lost a claim
window's race or came after the match ended; :func:`check_place` checks that it links to the
chain where it should, from the seat and of the kind the table expects there, and that it is not
signed with the local seat's own key (unless it is the local seat's own proposal coming back).
Each failure is a :class:`~.errors.Violation` naming the culprit; nothing is changed by either.
An :class:`Opener` opens each received frame once, however many questions are asked of it first.
"""

from __future__ import annotations

from ..wire import (
    BadSignature,
    Chain,
    ChainError,
    Envelope,
    KeyResolver,
    Payload,
    ProtocolError,
    open_envelope,
)
from .claims import ClaimWindows
from .errors import Violation, chain_violation

__all__ = ["Opener", "open_received", "check_place"]


class Opener:
    """Opens frames signed by a seat of ``keys`` (:func:`~p2pcards.wire.open_envelope`) and
    remembers the last frame it opened, so that a frame looked at before it is received (a
    lost race, a recovery) is decoded and its signature verified once. The same bytes against
    the same keys give the same answer, so nothing is checked less; a frame that fails to open
    is not remembered (it raises again where it is received)."""

    def __init__(self, keys: KeyResolver) -> None:
        self._keys = keys
        self._last: tuple[bytes, Envelope, Payload] | None = None

    def open(self, data: bytes) -> tuple[Envelope, Payload]:
        """The envelope ``data`` and its payload; :class:`~p2pcards.wire.ProtocolError` as
        :func:`~p2pcards.wire.open_envelope` raises it."""
        last = self._last
        if last is not None and last[0] == data:
            return last[1], last[2]
        envelope, payload = open_envelope(data, self._keys)
        self._last = (data, envelope, payload)
        return envelope, payload


def open_received(data: bytes, opener: Opener, chain: Chain, windows: ClaimWindows, *,
                  finished: bool) -> tuple[Envelope, Payload]:
    """The envelope ``data`` and its payload, signed by a seat of the ``opener``'s keys;
    ``bad-signature``
    or ``bad-envelope`` if it is not, ``lost-race`` if another eligible seat's envelope took
    its place first (harmless), ``after-match-end`` if the match is over."""
    index = chain.next_seq
    try:
        envelope, payload = opener.open(data)
    except ProtocolError as exc:
        rule = "bad-signature" if isinstance(exc, BadSignature) else "bad-envelope"
        raise Violation(rule, str(exc), seat=exc.seat, index=index) from None
    if windows.lost_race(payload, chain.table_id, chain):
        raise Violation("lost-race", "another seat's message took this place in the "
                        "chain first", seat=payload.seat, index=payload.seq)
    if finished:
        raise Violation("after-match-end", "envelope received after the match ended",
                        seat=payload.seat, index=index)
    return envelope, payload


def check_place(chain: Chain, payload: Payload, envelope: Envelope, *, seat: int, kind: str,
                local: int | None, own: bool) -> None:
    """Check that ``payload`` takes the chain's next place as ``seat``'s message of ``kind``
    (the local seat ``local`` signs only its ``own`` proposal)."""
    index = chain.next_seq
    try:
        chain.check(payload, envelope, expected_seat=seat)
    except ChainError as exc:
        raise chain_violation(exc, accepting=kind == "accept") from None
    if payload.seat == local and not own:
        raise Violation("own-seat", "envelope signed with this peer's own seat key",
                        seat=payload.seat, index=index)
    if payload.kind != kind:
        raise Violation("wrong-kind", f"expected a {kind!r} message, got {payload.kind!r}",
                        seat=payload.seat, index=index)
