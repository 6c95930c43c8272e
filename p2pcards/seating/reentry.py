"""Re-entry: a seat whose connection to the hub was lost proves who it is on a new one.

Sans-IO, like :mod:`p2pcards.seating.handshake`: the caller moves the messages, this module makes
and checks them (``protocol/SPEC.md`` §11.7.2). A joiner always opens the connection, also when it
was the host that crashed and came back; both ends prove their genesis key on fresh challenges, so
neither can be replaced by a third party, and nothing of the chain is signed::

    seat -> host  rejoin            {version, table: table id, seat, challenge: 32 bytes}
    host -> seat  rejoin-challenge  {challenge: 32 bytes,
                                     proof: host signature of [HOST_CONTEXT, table id, seat,
                                            the seat's challenge]}
    seat -> host  rejoin-proof      {proof: seat signature of [SEAT_CONTEXT, table id, seat,
                                            the host's challenge, the seat's challenge]}
    host -> seat  rejoined          {}

Either side may answer ``refused {reason}`` instead and close. Once the ``rejoin`` is well
formed, the host's refusal also carries ``proof``, its signature of ``[REFUSED_CONTEXT, the
table id and seat asked for, the seat's challenge, reason]``: only a refusal the seat can check
(:class:`Refused`) ends its attempts; any other is a failed attempt, since anyone on the path
could have written it. The keys checked are those of the genesis: the host's is seat 0's, the
seat's is its own entry. Which seats may come back is the host's decision (those played by
remote peers).

Both sides end with a :class:`Bond`: the two challenges of this connection. The match then goes
on with the ``resume`` exchange of :mod:`p2pcards.net.session`, where each side says how far its
chain goes (:meth:`Bond.resume`, signed on both challenges, so that nobody on the path can
change it or bring it from another connection, and a side that comes back with another chain is
named with its own signature) and receives what follows: envelopes already signed, checked like
any other, so re-entry can make nobody sign or reveal anything the chain does not call for::

    either -> other  resume  {count, head: 32 bytes,
                              proof: signature of [RESUME_CONTEXT, table id, seat, signer,
                                     the host's challenge, the seat's challenge, count, head]}

``signer`` is 0 for the host's ``resume`` and the returning seat's number for the seat's. An
``abort`` on that connection is signed the same way (:meth:`Bond.abort`), on ``[ABORT_CONTEXT,
table id, seat, signer, the host's challenge, the seat's challenge, reason]``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from ..wire import codec
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import HandshakeError
from .genesis import PROTOCOL_VERSION, Genesis

__all__ = ["HOST_CONTEXT", "SEAT_CONTEXT", "RESUME_CONTEXT", "CHALLENGE_SIZE", "SeatReentry",
           "HostReentry", "Returned", "Bond", "Resume", "Unproven", "Refused",
           "REFUSED_CONTEXT", "ABORT_CONTEXT"]

HOST_CONTEXT = "p2pcards/reentry/host/v1"
SEAT_CONTEXT = "p2pcards/reentry/seat/v1"
RESUME_CONTEXT = "p2pcards/reentry/resume/v1"
ABORT_CONTEXT = "p2pcards/reentry/abort/v1"
REFUSED_CONTEXT = "p2pcards/reentry/refused/v1"
CHALLENGE_SIZE = 32
HEAD_SIZE = 32

RandomBytes = Callable[[int], bytes]


def _host_statement(table_id: bytes, seat: int, challenge: bytes) -> bytes:
    return codec.pack([HOST_CONTEXT, table_id, seat, challenge])


def _seat_statement(table_id: bytes, seat: int, host_challenge: bytes,
                    seat_challenge: bytes) -> bytes:
    return codec.pack([SEAT_CONTEXT, table_id, seat, host_challenge, seat_challenge])


def _refused_statement(table_id: bytes, seat: int, seat_challenge: bytes, reason: str) -> bytes:
    return codec.pack([REFUSED_CONTEXT, table_id, seat, seat_challenge, reason])


class Refused(HandshakeError):
    """The host refused this seat with a refusal signed by its genesis key on this
    connection's ``rejoin``: its own word, which ends the seat's attempts."""


def _expect(message: dict[str, Any], kind: str, fields: dict[str, type], who: str
            ) -> dict[str, Any]:
    if message.get("type") == "refused":
        reason = message.get("reason")
        raise HandshakeError(f"{who} refused: "
                             f"{reason if isinstance(reason, str) else 'no reason given'}")
    if message.get("type") != kind or set(message) != {"type", *fields}:
        raise HandshakeError(f"{who} sent {message.get('type')!r} with fields {sorted(message)} "
                             f"where a {kind!r} message was expected")
    for name, kind_of in fields.items():
        if type(message[name]) is not kind_of:
            raise HandshakeError(f"{who} sent a {kind!r} message whose {name!r} is not "
                                 f"{kind_of.__name__}")
    return message


class Unproven(Exception):
    """A ``resume`` or ``abort`` on a proven connection that the other side's key does not back
    (malformed, or its proof is not that key's signature on this connection's challenges).
    Whoever made it, it is not the other side's word: it blames nobody, only the connection."""


@dataclass(frozen=True)
class Resume:
    """The other side's signed word on how far its chain goes: ``count`` envelopes, the last
    of which hashes to ``head`` (32 zero bytes for an empty chain)."""

    count: int
    head: bytes


@dataclass(frozen=True)
class Bond:
    """A connection on which the host and ``seat`` proved their keys, as one side holds it
    (``at_host`` tells which side). The two challenges bind each side's signed ``resume`` to
    this connection; ``identity`` is this side's own key, which signs it."""

    genesis: Genesis
    seat: int
    host_challenge: bytes
    seat_challenge: bytes
    identity: IdentityKey = field(repr=False)
    at_host: bool

    @property
    def signer(self) -> int:
        """The seat whose key signs this side's messages: 0 at the host, else ``seat``."""
        return 0 if self.at_host else self.seat

    @property
    def other(self) -> int:
        """The seat whose key signs the other side's messages."""
        return self.seat if self.at_host else 0

    def _statement(self, signer: int, count: int, head: bytes) -> bytes:
        return codec.pack([RESUME_CONTEXT, self.genesis.table_id, self.seat, signer,
                           self.host_challenge, self.seat_challenge, count, head])

    def _abort_statement(self, signer: int, reason: str) -> bytes:
        return codec.pack([ABORT_CONTEXT, self.genesis.table_id, self.seat, signer,
                           self.host_challenge, self.seat_challenge, reason])

    def _other_key(self) -> PublicIdentity:
        return PublicIdentity(self.genesis.seats[self.other].identity)

    def abort(self, reason: str) -> dict[str, Any]:
        """This side's ``abort`` with ``reason``, signed on this connection."""
        proof = self.identity.sign(self._abort_statement(self.signer, reason))
        return {"type": "abort", "reason": reason, "proof": proof}

    def check_abort(self, message: dict[str, Any]) -> str:
        """The reason of the other side's ``abort``, once its proof is checked like a
        ``resume``'s; :class:`Unproven` otherwise (the reason it gave is quoted)."""
        reason, proof = message.get("reason"), message.get("proof")
        said = reason if isinstance(reason, str) else "no reason given"
        key = self._other_key()
        if (set(message) != {"type", "reason", "proof"} or not isinstance(reason, str)
                or not isinstance(proof, bytes)
                or not key.verify(proof, self._abort_statement(self.other, reason))):
            raise Unproven(f"an 'abort' arrived that the key {key.fingerprint} of seat "
                           f"{self.other} did not sign on this connection (it said: {said})")
        return reason

    def resume(self, count: int, head: bytes) -> dict[str, Any]:
        """This side's ``resume`` for a chain of ``count`` envelopes ending with ``head``."""
        proof = self.identity.sign(self._statement(self.signer, count, head))
        return {"type": "resume", "count": count, "head": head, "proof": proof}

    def check_resume(self, message: dict[str, Any]) -> Resume:
        """The other side's ``resume``, checked: exactly its fields, of their types and sizes,
        and a proof that the other side's genesis key signed it on this connection. Raises
        :class:`Unproven` otherwise."""
        if message.get("type") != "resume" or set(message) != {"type", "count", "head",
                                                              "proof"}:
            raise Unproven(f"a {message.get('type')!r} message with fields "
                                 f"{sorted(message)} arrived where the signed 'resume' was due")
        count, head, proof = message["count"], message["head"], message["proof"]
        if (type(count) is not int or count < 0 or type(head) is not bytes
                or len(head) != HEAD_SIZE or type(proof) is not bytes):
            raise Unproven("a 'resume' arrived whose count, head or proof is not of "
                                 "its type or size")
        key = self._other_key()
        if not key.verify(proof, self._statement(self.other, count, head)):
            raise Unproven(f"a 'resume' arrived that the key {key.fingerprint} of seat "
                                 f"{self.other} did not sign on this connection")
        return Resume(count, head)


class SeatReentry:
    """The returning seat's side: :meth:`hello`, then :meth:`receive` for each host message
    (the ``rejoin-proof`` to send, then ``None`` once ``rejoined``; :attr:`bond` is then set).
    Any failure raises :class:`HandshakeError` naming the host as ``label``."""

    def __init__(self, genesis: Genesis, seat: int, identity: IdentityKey, *,
                 label: str = "the host", random_bytes: RandomBytes = os.urandom) -> None:
        if identity.public.to_bytes() != genesis.seats[seat].identity:
            raise ValueError(f"this identity key is not the key of seat {seat}")
        self.genesis = genesis
        self.seat = seat
        self.identity = identity
        self.label = label
        self._challenge = random_bytes(CHALLENGE_SIZE)
        self._host_challenge = b""
        self._state = "challenge"
        self.bond: Bond | None = None

    def hello(self) -> dict[str, Any]:
        return {"type": "rejoin", "version": PROTOCOL_VERSION, "table": self.genesis.table_id,
                "seat": self.seat, "challenge": self._challenge}

    def receive(self, message: dict[str, Any]) -> dict[str, Any] | None:
        who = self.label
        if message.get("type") == "refused":
            raise self._refusal(message)
        if self._state == "challenge":
            got = _expect(message, "rejoin-challenge", {"challenge": bytes, "proof": bytes}, who)
            host = PublicIdentity(self.genesis.seats[0].identity)
            statement = _host_statement(self.genesis.table_id, self.seat, self._challenge)
            if not host.verify(got["proof"], statement):
                raise HandshakeError(f"{who} did not prove it holds the host's key "
                                     f"{host.fingerprint} of this table")
            if len(got["challenge"]) != CHALLENGE_SIZE:
                raise HandshakeError(f"{who} sent a challenge of {len(got['challenge'])} bytes")
            self._state = "rejoined"
            self._host_challenge = got["challenge"]
            proof = self.identity.sign(_seat_statement(self.genesis.table_id, self.seat,
                                                       got["challenge"], self._challenge))
            return {"type": "rejoin-proof", "proof": proof}
        if self._state == "rejoined":
            _expect(message, "rejoined", {}, who)
            self._state = "done"
            self.bond = Bond(self.genesis, self.seat, self._host_challenge, self._challenge,
                             self.identity, at_host=False)
            return None
        raise HandshakeError(f"{who} sent {message.get('type')!r} after re-entry was complete")

    def _refusal(self, message: dict[str, Any]) -> HandshakeError:
        """A ``refused``: :class:`Refused` when the host's key signed it on this ``rejoin``,
        else a plain :class:`HandshakeError` (a failed attempt: anyone could have sent it)."""
        reason, proof = message.get("reason"), message.get("proof")
        said = reason if isinstance(reason, str) else "no reason given"
        host = PublicIdentity(self.genesis.seats[0].identity)
        if (set(message) == {"type", "reason", "proof"} and isinstance(reason, str)
                and isinstance(proof, bytes) and host.verify(proof, _refused_statement(
                    self.genesis.table_id, self.seat, self._challenge, reason))):
            return Refused(f"{self.label} refused: {said}")
        return HandshakeError(f"a refusal that the host's key {host.fingerprint} did not sign "
                              f"arrived from {self.label} (it proves nothing, so this seat "
                              f"tries again): {said}")


@dataclass(frozen=True)
class Returned:
    """The seat that proved its key on this connection, and the host's :class:`Bond` with
    it."""

    seat: int
    bond: Bond


class HostReentry:
    """The host's side for one connection whose first message was ``rejoin``.

    ``seats`` are the seats that may come back (those played by remote peers). Feed
    :meth:`receive` the messages in order: it returns the message to send, or a
    :class:`Returned` once the seat is proven (send ``rejoined``, then hand the connection to
    the match). :class:`HandshakeError` (with the reason to send in ``refused``) otherwise.
    """

    def __init__(self, genesis: Genesis, identity: IdentityKey, seats: Collection[int], *,
                 random_bytes: RandomBytes = os.urandom) -> None:
        self.genesis = genesis
        self.identity = identity
        self.seats = frozenset(seats)
        self._random = random_bytes
        self._state = "rejoin"
        self._seat = -1
        self._theirs = b""
        self._ours = b""
        self._asked: tuple[bytes, int, bytes] | None = None

    def refusal(self, reason: str) -> dict[str, Any]:
        """The ``refused`` to send with ``reason``: signed on the ``rejoin`` once one well
        formed has arrived (the seat then takes it as the host's word), unsigned before."""
        message: dict[str, Any] = {"type": "refused", "reason": reason}
        if self._asked is not None:
            table_id, seat, challenge = self._asked
            message["proof"] = self.identity.sign(_refused_statement(table_id, seat, challenge,
                                                                     reason))
        return message

    def receive(self, message: dict[str, Any]) -> dict[str, Any] | Returned:
        if self._state == "rejoin":
            got = _expect(message, "rejoin", {"version": int, "table": bytes, "seat": int,
                                              "challenge": bytes}, "it")
            if len(got["challenge"]) != CHALLENGE_SIZE:
                raise HandshakeError(f"a challenge of {len(got['challenge'])} bytes, not "
                                     f"{CHALLENGE_SIZE}")
            self._asked = (got["table"], got["seat"], got["challenge"])
            if got["version"] != PROTOCOL_VERSION:
                raise HandshakeError(f"this host speaks protocol version {PROTOCOL_VERSION}, "
                                     f"not {got['version']}")
            if got["table"] != self.genesis.table_id:
                raise HandshakeError("this host is not playing that table (it may have "
                                     "finished, or the host plays another one now)")
            if got["seat"] not in self.seats:
                raise HandshakeError(f"seat {got['seat']} is not a seat that can come back "
                                     "to this table")
            self._seat, self._theirs = got["seat"], got["challenge"]
            self._ours = self._random(CHALLENGE_SIZE)
            self._state = "proof"
            return {"type": "rejoin-challenge", "challenge": self._ours,
                    "proof": self.identity.sign(_host_statement(
                        self.genesis.table_id, self._seat, self._theirs))}
        if self._state == "proof":
            got = _expect(message, "rejoin-proof", {"proof": bytes}, "it")
            key = PublicIdentity(self.genesis.seats[self._seat].identity)
            statement = _seat_statement(self.genesis.table_id, self._seat, self._ours,
                                        self._theirs)
            if not key.verify(got["proof"], statement):
                raise HandshakeError(f"the proof of the key {key.fingerprint} of seat "
                                     f"{self._seat} is not valid")
            self._state = "done"
            return Returned(self._seat, Bond(self.genesis, self._seat, self._ours, self._theirs,
                                              self.identity, at_host=True))
        raise HandshakeError(f"it sent {message.get('type')!r} after re-entry was complete")
