"""The relay handshake as two sans-IO state machines.

::

    client                                   relay
      hello {v, room, id, since}      ->
                                      <-     challenge {nonce}
      proof {sig}                     ->     (sig = Ed25519 over PROOF_DOMAIN || nonce || room)
                                      <-     welcome {slot, base, next}   (or error {reason})

:class:`ServerHandshake` takes the payloads of the client's frames one at a time and either
returns what to send back or an :class:`Admission`; any input that is not the expected next
message raises :class:`RelayProtocolError` (never another exception), after which the machine is
dead. Randomness (the nonce) is an input, so the machine is deterministic.

:class:`ClientHandshake` is the client half: :meth:`~ClientHandshake.hello`, then
:meth:`~ClientHandshake.on_challenge` returns the proof, then
:meth:`~ClientHandshake.on_welcome` returns the :class:`~.messages.Welcome`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..wire.errors import BadKey
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import RelayProtocolError
from .messages import (
    NONCE_SIZE,
    ROOM_MAX,
    ROOM_MIN,
    Delivery,
    Welcome,
    decode_challenge,
    decode_hello,
    decode_proof,
    decode_relay_message,
    encode_challenge,
    encode_hello,
    encode_proof,
    proof_message,
)

__all__ = ["Admission", "ServerHandshake", "ClientHandshake"]


@dataclass(frozen=True)
class Admission:
    """A client that proved its key: the room it asked for, its identity and its ``since``."""

    room: bytes
    identity: PublicIdentity
    since: int
    see: bool = False
    """The client asked to be told the address the relay sees it at."""


class ServerHandshake:
    """The relay's side of one connection's handshake.

    States: ``hello`` (waiting for the hello), ``proof`` (challenge sent), ``done`` (admitted),
    ``failed`` (a :class:`RelayProtocolError` was raised; every later call raises it again).
    """

    def __init__(self, nonce: bytes) -> None:
        if type(nonce) is not bytes or len(nonce) != NONCE_SIZE:
            raise ValueError(f"the challenge nonce must be {NONCE_SIZE} bytes")
        self._nonce = nonce
        self.state = "hello"
        self._room = b""
        self._identity: PublicIdentity | None = None
        self._since = -1
        self._see = False
        self._error: RelayProtocolError | None = None

    def receive(self, payload: bytes) -> bytes | Admission:
        """Feed the next client frame: returns the challenge to send, or the :class:`Admission`."""
        if self._error is not None:
            raise self._error
        try:
            if self.state == "hello":
                return self._on_hello(payload)
            if self.state == "proof":
                return self._on_proof(payload)
            raise RelayProtocolError("bad-message", "the handshake is already complete")
        except RelayProtocolError as exc:
            self.state = "failed"
            self._error = exc
            raise

    def _on_hello(self, payload: bytes) -> bytes:
        hello = decode_hello(payload)
        try:
            self._identity = PublicIdentity(hello.identity)
        except BadKey as exc:
            raise RelayProtocolError("bad-identity", f"hello identity is unusable: {exc}"
                                     ) from None
        self._room = hello.room
        self._since = hello.since
        self._see = hello.see
        self.state = "proof"
        return encode_challenge(self._nonce)

    def _on_proof(self, payload: bytes) -> Admission:
        signature = decode_proof(payload)
        assert self._identity is not None
        if not self._identity.verify(signature, proof_message(self._nonce, self._room)):
            raise RelayProtocolError("bad-signature", "the proof is not a valid signature of the "
                                     "challenge by the hello's identity key")
        self.state = "done"
        return Admission(self._room, self._identity, self._since, self._see)


class ClientHandshake:
    """The client's side: proves ``identity`` and asks for room frames after ``since``."""

    def __init__(self, room: bytes, identity: IdentityKey, since: int = -1,
                 max_payload: int = 1024 * 1024, *, see: bool = False) -> None:
        if type(room) is not bytes or not ROOM_MIN <= len(room) <= ROOM_MAX:
            raise ValueError(f"room code must be {ROOM_MIN}..{ROOM_MAX} bytes")
        if since < -1:
            raise ValueError("since must be -1 (no frame yet) or a room index")
        self.room = room
        self.identity = identity
        self.since = since
        self.max_payload = max_payload
        self.see = see

    def hello(self) -> bytes:
        """The first message to send."""
        return encode_hello(self.room, self.identity.public.to_bytes(), self.since, see=self.see)

    def on_challenge(self, payload: bytes) -> bytes:
        """The proof answering the relay's challenge (:class:`RelayRejected` on an error)."""
        nonce = decode_challenge(payload)
        return encode_proof(self.identity.sign(proof_message(nonce, self.room)))

    def on_welcome(self, payload: bytes) -> Welcome:
        """The relay's welcome (:class:`RelayRejected` on an error)."""
        message = decode_relay_message(payload, self.max_payload)
        if isinstance(message, Delivery):
            raise RelayProtocolError("bad-message", "the relay sent a room frame before welcome")
        if message.base > message.next or message.base > self.since + 1:
            raise RelayProtocolError("behind-buffer",
                                     f"the relay no longer holds frames after index {self.since} "
                                     f"(it holds {message.base}..{message.next - 1})")
        return message
