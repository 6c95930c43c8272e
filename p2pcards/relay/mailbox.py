"""The relay's mailboxes for short invite codes: nameplates, one claim each, bounded. Sans-IO.

A host asks the relay for a mailbox (``mb-open``) and gets a *nameplate*, a number from 1 to
:data:`NAMEPLATES` no other mailbox holds, which the host reads out as the number of its code
(``7-scopa-tavolo``). A joiner claims the nameplate (``mb-claim``); the relay pairs the two
connections, and from then on forwards each one's ``mb-msg`` bodies to the other, verbatim, at
most :attr:`MailboxLimits.max_messages` of at most :attr:`MailboxLimits.max_message` bytes
each way. The relay never sees the code's words: the bodies are a password-authenticated key
exchange and ciphertext (``p2pcards/seating/codes.py``), and it only ever learns the number.

Every nameplate is claimed **once**. When the exchange ends (either side leaves, or
:attr:`MailboxLimits.exchange_timeout` passes) the nameplate stays *used* until the end of its
time, so that whoever tries the same number again is told at once that the code is used; then
the relay forgets it. A nameplate nobody claims is dropped at the end of its time (at most
:attr:`MailboxLimits.ttl`), and the host is told. Per address, a client may hold at most
:attr:`MailboxLimits.per_ip` mailboxes open and claim at the rate of a token bucket, which
bounds how fast one address can burn other people's codes. Because a guesser may have many
addresses, claims are also token buckets per nameplate number (every try of the number counts,
whoever makes it) and per *table*: the host names its table when it opens a mailbox (by
:func:`table_tag` of its room), and the claims of all the mailboxes of one table share one
bucket, which bounds the guesses against one table whatever the number of addresses and
whatever its host does.

:class:`MailboxRegistry` is the state; the wire messages are the ``encode_*``/``decode_*``
functions; ``protocol/RELAY.md`` ("Mailboxes for short codes") is normative.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from ..wire.codec import Limits, pack, unpack
from ..wire.errors import DecodeError
from .buckets import TokenBucket
from .errors import RelayError, RelayProtocolError

__all__ = [
    "NAMEPLATES",
    "MAILBOX_VERSION",
    "MESSAGE_OVERHEAD",
    "MailboxLimits",
    "DEFAULT_MAILBOX_LIMITS",
    "MailboxRefused",
    "Mailbox",
    "MailboxRegistry",
    "MailboxOpen",
    "MailboxClaim",
    "is_mailbox_request",
    "decode_request",
    "encode_open",
    "table_tag",
    "TABLE_TAG_SIZE",
    "encode_claim",
    "encode_plate",
    "encode_claimed",
    "encode_message",
    "decode_message",
    "decode_relay_reply",
    "HOST",
    "JOINER",
]

NAMEPLATES = 999
"""Nameplates are 1..999: at most three digits to read out."""
MAILBOX_VERSION = 2
"""Version 2: ``mb-open`` names the host's table (version 1, without it, is not spoken any
more)."""
MESSAGE_OVERHEAD = 32
"""Bytes the ``mb-msg`` wrapper adds at most around a body."""
HOST = 0
"""The side that opened the mailbox."""
JOINER = 1
"""The side that claimed it."""


@dataclass(frozen=True)
class MailboxLimits:
    """The mailbox service's bounds. Durations in seconds, rates per second."""

    max_mailboxes: int = NAMEPLATES
    """Nameplates held at once, open or used (at most 999)."""
    per_ip: int = 8
    """Mailboxes one network address may hold open (waiting for a joiner) at once."""
    ttl: float = 600.0
    """Longest time a nameplate is held, whatever the host asks for (10 minutes)."""
    exchange_timeout: float = 30.0
    """Seconds from the claim to the end of the exchange; then both sides are cut."""
    max_message: int = 1024
    """Largest body of one ``mb-msg``."""
    max_messages: int = 4
    """``mb-msg`` messages each side may send in one mailbox (the exchange needs 2)."""
    claims_rate: float = 0.1
    """Sustained claims per second per network address (one every 10 s)."""
    claims_burst: float = 10.0
    """Claims one address may make at once before it is refused."""
    plate_claims_rate: float = 1 / 60
    """Sustained claims per second of one nameplate number, from any address (one a minute):
    a code is claimed once, so only guessers and typing mistakes try a number again."""
    plate_claims_burst: float = 3.0
    """Claims of one nameplate number at once before it is refused."""
    table_claims_rate: float = 1 / 60
    """Sustained claims per second of the mailboxes of one table, from any address (one a
    minute)."""
    table_claims_burst: float = 12.0
    """Claims of one table's mailboxes at once before they are refused: a table seats at most 7
    joiners by code, and its host burns at most 3 codes before it stops offering them."""
    max_addresses: int = 4096
    """Network addresses whose claim buckets are tracked at once: addresses whose bucket is
    full again are forgotten, and when the tracker is full a new address takes the place of
    the one that tried least recently, so that a flood from other addresses never refuses
    anyone's try."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not value > 0:
                raise ValueError(f"mailbox limit {f.name} must be positive, not {value!r}")
        if self.max_mailboxes > NAMEPLATES:
            raise ValueError(f"mailbox limit max_mailboxes must be at most {NAMEPLATES}")
        for name in ("claims_burst", "plate_claims_burst", "table_claims_burst"):
            if getattr(self, name) < 1:
                raise ValueError(f"mailbox limit {name} must be at least 1")


DEFAULT_MAILBOX_LIMITS = MailboxLimits()
K = TypeVar("K")


class MailboxRefused(RelayError):
    """The relay refuses a request or ends a mailbox; ``reason`` is the ``error`` reason."""


class Mailbox:
    """One nameplate: its host's address and table, its state and its times."""

    __slots__ = ("plate", "address", "table", "expires", "state", "deadline", "sent")

    def __init__(self, plate: int, address: str, expires: float, table: bytes = b"") -> None:
        self.plate = plate
        self.address = address
        self.table = table
        """The table its host named: its claims count in that table's bucket."""
        self.expires = expires
        """When the nameplate is dropped (waiting) or forgotten (used)."""
        self.state = "waiting"
        """``waiting`` for a claim, ``paired`` during the exchange, ``used`` after it."""
        self.deadline: float | None = None
        """The end of the exchange, once paired."""
        self.sent = [0, 0]
        """``mb-msg`` messages sent by the host and by the joiner."""


class MailboxRegistry:
    """Every nameplate of one relay.

    Invariants: at most ``max_mailboxes`` nameplates are held; no address holds more than
    ``per_ip`` waiting mailboxes; at most ``max_addresses`` claim buckets are tracked, and an
    address is held to its bucket until ``max_addresses`` other addresses have tried since its
    own last try; a nameplate is paired at most once in its life; over any
    span of ``t`` seconds a nameplate number is tried at most ``plate_claims_burst +
    t * plate_claims_rate`` times and the mailboxes of one table are paired at most
    ``table_claims_burst + t * table_claims_rate`` times, from any number of addresses.
    """

    def __init__(self, limits: MailboxLimits = DEFAULT_MAILBOX_LIMITS, *,
                 choose: Callable[[int], int] = secrets.randbelow) -> None:
        self.limits = limits
        self.plates: dict[int, Mailbox] = {}
        self._choose = choose
        self._waiting_by_address: dict[str, int] = {}
        self._claims: dict[str, TokenBucket] = {}
        self._plate_claims: dict[int, TokenBucket] = {}
        self._table_claims: dict[bytes, TokenBucket] = {}

    def open(self, address: str, ttl: int, now: float, table: bytes = b"") -> Mailbox:
        """A new waiting mailbox for a host at ``address`` that asks for ``ttl`` seconds
        (granted up to ``limits.ttl``) for its ``table``, on a free nameplate chosen at
        random."""
        if len(self.plates) >= self.limits.max_mailboxes:
            raise MailboxRefused("mailboxes-full", "the relay holds its maximum of "
                                 f"{self.limits.max_mailboxes} code numbers; try again later")
        if self._waiting_by_address.get(address, 0) >= self.limits.per_ip:
            raise MailboxRefused("mailboxes-per-address", "your address already holds "
                                 f"{self.limits.per_ip} open codes at this relay")
        free = [n for n in range(1, NAMEPLATES + 1) if n not in self.plates]
        plate = free[self._choose(len(free))]
        box = Mailbox(plate, address, now + min(float(ttl), self.limits.ttl), table)
        self.plates[plate] = box
        self._waiting_by_address[address] = self._waiting_by_address.get(address, 0) + 1
        return box

    def claim(self, address: str, plate: int, now: float) -> Mailbox:
        """Pair a joiner at ``address`` with the waiting mailbox ``plate``: once per nameplate.

        Refusals, in this order: ``claims-throttled`` (this address claims too fast),
        ``code-tries-throttled`` (this number is tried too often), ``code-unknown`` (no such
        nameplate now), ``code-used`` (it was claimed already), ``table-tries-throttled`` (the
        codes of the mailbox's table are tried too often; the mailbox stays waiting). Every try
        counts against the address, and every one after ``claims-throttled`` against the
        number."""
        limits = self.limits
        bucket = self._address_bucket(address, now)
        _take_or_refuse(bucket, now, "claims-throttled", "too many codes tried from your "
                        "address")
        number = self._plate_claims.setdefault(plate, TokenBucket(
            limits.plate_claims_rate, limits.plate_claims_burst, now))
        _take_or_refuse(number, now, "code-tries-throttled", f"the code number {plate} was "
                        "tried too often at this relay")
        box = self.plates.get(plate)
        if box is None:
            raise MailboxRefused("code-unknown", f"no code with the number {plate} is offered "
                                 "at this relay now")
        if box.state != "waiting":
            raise MailboxRefused("code-used", f"the code with the number {plate} was already "
                                 "tried (each code opens once)")
        table = self._table_claims.setdefault(box.table, TokenBucket(
            limits.table_claims_rate, limits.table_claims_burst, now))
        _take_or_refuse(table, now, "table-tries-throttled", "the codes of this table were "
                        "tried too often at this relay")
        self._unwait(box)
        box.state = "paired"
        box.deadline = now + self.limits.exchange_timeout
        return box

    def message(self, box: Mailbox, side: int, body: bytes) -> None:
        """Count one ``mb-msg`` of ``side`` in a paired mailbox (``mailbox-messages``,
        ``mailbox-message-size`` or ``bad-message`` refuse it)."""
        if box.state != "paired":
            raise MailboxRefused("bad-message", "mb-msg before the mailbox was claimed")
        if len(body) > self.limits.max_message:
            raise MailboxRefused("mailbox-message-size", f"a mailbox message of {len(body)} "
                                 f"bytes is over the limit of {self.limits.max_message}")
        if box.sent[side] >= self.limits.max_messages:
            raise MailboxRefused("mailbox-messages", "more than "
                                 f"{self.limits.max_messages} messages in one mailbox")
        box.sent[side] += 1

    def close(self, box: Mailbox) -> None:
        """A side left (or was cut): a waiting mailbox is forgotten; a paired one is *used*
        until its time ends. Idempotent."""
        if box.state == "waiting":
            self._unwait(box)
            self.plates.pop(box.plate, None)
            box.state = "closed"
        elif box.state == "paired":
            box.state = "used"

    def expire(self, now: float) -> list[tuple[Mailbox, str]]:
        """Mailboxes whose time is over, each with what ends them: a waiting one
        (``code-expired``) is dropped, a paired one past its exchange deadline
        (``mailbox-timeout``) becomes used, a used one is forgotten (reason ``forgotten``)."""
        ended: list[tuple[Mailbox, str]] = []
        for box in list(self.plates.values()):
            if box.state == "paired" and box.deadline is not None and now >= box.deadline:
                box.state = "used"
                ended.append((box, "mailbox-timeout"))
            elif now >= box.expires and box.state == "waiting":
                self.close(box)
                ended.append((box, "code-expired"))
            elif now >= box.expires and box.state == "used":
                del self.plates[box.plate]
                ended.append((box, "forgotten"))
        self._forget_full_buckets(now)
        return ended

    def _address_bucket(self, address: str, now: float) -> TokenBucket:
        """The claim bucket of ``address``, moved to the end of the tracker (which runs from
        the address that tried least recently to the one that tried last); a new address on a
        full tracker takes the place of the first one, whose bucket has refilled longest."""
        bucket = self._claims.pop(address, None)
        if bucket is None:
            if len(self._claims) >= self.limits.max_addresses:
                del self._claims[next(iter(self._claims))]
            bucket = TokenBucket(self.limits.claims_rate, self.limits.claims_burst, now)
        self._claims[address] = bucket
        return bucket

    @property
    def waiting(self) -> int:
        return sum(self._waiting_by_address.values())

    def _unwait(self, box: Mailbox) -> None:
        count = self._waiting_by_address.get(box.address, 0) - 1
        if count > 0:
            self._waiting_by_address[box.address] = count
        else:
            self._waiting_by_address.pop(box.address, None)

    def _forget_full_buckets(self, now: float) -> None:
        _forget_full(self._claims, now)
        _forget_full(self._plate_claims, now)
        _forget_full(self._table_claims, now)


def _forget_full(buckets: dict[K, TokenBucket], now: float) -> None:
    """Drop the buckets that are full again: a new one would be the same."""
    for key, bucket in list(buckets.items()):
        if bucket.tokens(now) >= bucket.burst:
            del buckets[key]


def _take_or_refuse(bucket: TokenBucket, now: float, reason: str, what: str) -> None:
    """Take one token from ``bucket``, or refuse with ``reason``: ``what``, and how long to
    wait for the next token."""
    tokens = bucket.tokens(now)
    if tokens < 1:
        wait = max(1, math.ceil((1 - tokens) / bucket.rate))
        raise MailboxRefused(reason, f"{what}; try again in {wait} second"
                             f"{'s' if wait != 1 else ''}")
    bucket.take(1, now)


# ----------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class MailboxOpen:
    """A host's ``mb-open``: the seconds it wants the nameplate held, and its table."""

    ttl: int
    table: bytes


@dataclass(frozen=True)
class MailboxClaim:
    """A joiner's ``mb-claim`` of a nameplate."""

    plate: int


_REQUEST_MAX = 128
_REQUEST_LIMITS = Limits(max_str_len=16, max_bin_len=64, max_array_len=0, max_map_len=4,
                         max_depth=1)
_REQUESTS = {"mb-open": frozenset({"t", "v", "ttl", "table"}),
             "mb-claim": frozenset({"t", "v", "plate"})}


TABLE_TAG_SIZE = 16


def table_tag(room: bytes) -> bytes:
    """How a host names its table in ``mb-open``: the first 16 bytes of SHA-256 of its room
    code (the relay's logs name the room by the first 6 of them, so an operator can match a
    mailbox to its room; the room code itself, which lets anyone join the room, is not sent)."""
    return hashlib.sha256(room).digest()[:TABLE_TAG_SIZE]


def encode_open(ttl: int, table: bytes) -> bytes:
    return pack({"t": "mb-open", "v": MAILBOX_VERSION, "ttl": ttl, "table": table})


def encode_claim(plate: int) -> bytes:
    return pack({"t": "mb-claim", "v": MAILBOX_VERSION, "plate": plate})


def _peek(frame: bytes) -> dict[str, Any] | None:
    try:
        obj = unpack(frame, max_size=_REQUEST_MAX, limits=_REQUEST_LIMITS)
    except DecodeError:
        return None
    return obj if isinstance(obj, dict) else None


def is_mailbox_request(frame: bytes) -> bool:
    """Whether a connection's first frame asks for the mailbox service (``mb-open`` or
    ``mb-claim``) rather than a room (``hello``); it may still be malformed."""
    obj = _peek(frame)
    return obj is not None and obj.get("t") in _REQUESTS


def decode_request(frame: bytes) -> MailboxOpen | MailboxClaim:
    """The first frame of a mailbox connection; :class:`RelayProtocolError` if malformed."""
    obj = _peek(frame)
    kind = obj.get("t") if obj is not None else None
    if obj is None or kind not in _REQUESTS or set(obj) != _REQUESTS[str(kind)]:
        raise RelayProtocolError("bad-message", "a mailbox request must be mb-open {v, ttl, "
                                 "table} or mb-claim {v, plate}")
    version = obj["v"]
    if version != MAILBOX_VERSION:
        raise RelayProtocolError("bad-version", f"mailbox version {str(version)[:16]} is not "
                                 f"supported (this relay speaks {MAILBOX_VERSION})")
    if kind == "mb-open":
        ttl = obj["ttl"]
        if type(ttl) is not int or not 1 <= ttl <= 86400:
            raise RelayProtocolError("bad-message", "mb-open ttl must be 1..86400 seconds")
        table = obj["table"]
        if type(table) is not bytes or len(table) != TABLE_TAG_SIZE:
            raise RelayProtocolError("bad-message", f"mb-open table must be {TABLE_TAG_SIZE} "
                                     "bytes")
        return MailboxOpen(ttl, table)
    plate = obj["plate"]
    if type(plate) is not int or not 1 <= plate <= NAMEPLATES:
        raise RelayProtocolError("bad-message", f"mb-claim plate must be 1..{NAMEPLATES}")
    return MailboxClaim(plate)


def encode_plate(plate: int, ttl: int) -> bytes:
    """The relay's answer to ``mb-open``: the nameplate and the whole seconds it is held."""
    return pack({"t": "mb-plate", "plate": plate, "ttl": ttl})


def encode_claimed() -> bytes:
    """Told to both sides when a joiner claimed the nameplate."""
    return pack({"t": "mb-claimed"})


def encode_message(body: bytes) -> bytes:
    """``mb-msg``: a body for the other side, in both directions."""
    return pack({"t": "mb-msg", "body": body})


def _limits(max_message: int) -> Limits:
    return Limits(max_str_len=512, max_bin_len=max_message, max_array_len=0, max_map_len=4,
                  max_depth=1)


def decode_message(frame: bytes, max_message: int) -> bytes:
    """The body of a client's ``mb-msg``; :class:`RelayProtocolError` for anything else."""
    try:  # the body's own limit is the registry's to tell (mailbox-message-size)
        obj = unpack(frame, max_size=max_message + MESSAGE_OVERHEAD,
                     limits=_limits(max_message + MESSAGE_OVERHEAD))
    except DecodeError as exc:
        raise RelayProtocolError("bad-message", f"mailbox message is not canonical msgpack: "
                                 f"{exc}") from None
    if not isinstance(obj, dict) or obj.get("t") != "mb-msg" or set(obj) != {"t", "body"} or \
            type(obj["body"]) is not bytes:
        raise RelayProtocolError("bad-message", "after the request a mailbox client sends only "
                                 "mb-msg {body}")
    body: bytes = obj["body"]
    return body


def decode_relay_reply(frame: bytes, max_message: int) -> tuple[str, Any]:
    """What a relay sends on a mailbox connection, as ``(type, value)``: ``("plate", (plate,
    ttl))``, ``("claimed", None)``, ``("msg", body)``, or ``("error", (reason, message))``;
    :class:`RelayProtocolError` for anything else."""
    try:
        obj = unpack(frame, max_size=max_message + 1024, limits=_limits(max_message))
    except DecodeError as exc:
        raise RelayProtocolError("bad-message", f"relay message is not canonical msgpack: {exc}"
                                 ) from None
    kind = obj.get("t") if isinstance(obj, dict) else None
    keys = set(obj) if isinstance(obj, dict) else set()
    if kind == "mb-plate" and keys == {"t", "plate", "ttl"} and type(obj["plate"]) is int and \
            type(obj["ttl"]) is int and 1 <= obj["plate"] <= NAMEPLATES and obj["ttl"] >= 1:
        return "plate", (obj["plate"], obj["ttl"])
    if kind == "mb-claimed" and keys == {"t"}:
        return "claimed", None
    if kind == "mb-msg" and keys == {"t", "body"} and type(obj["body"]) is bytes:
        return "msg", obj["body"]
    if kind == "error" and keys == {"t", "reason", "message"} and \
            isinstance(obj["reason"], str) and isinstance(obj["message"], str):
        return "error", (obj["reason"], obj["message"])
    raise RelayProtocolError("bad-message", f"unexpected mailbox message of type "
                             f"{str(kind)[:32]!r} or with the wrong keys")
