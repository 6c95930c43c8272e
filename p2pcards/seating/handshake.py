"""The seating handshake as two state machines: messages in, messages and decisions out.

Sans-IO (the h11 pattern, like :mod:`p2pcards.table`): no sockets, no Trio, no clock. The
caller feeds received control messages (canonical msgpack maps with a text ``type``, see
:mod:`p2pcards.net.framed`) and, on the host, the current time as a number; it sends what comes
out and acts on the decisions. :mod:`p2pcards.net.handshake` and :mod:`p2pcards.net.hub` are the
thin Trio layers.

Messages, in order (``protocol/SPEC.md`` §11)::

    joiner -> host  hello      {version, nonce: the invite's table nonce, challenge: 32 bytes,
                                bot: bool}
    host -> joiner  challenge  {identity: host key, challenge: 32 bytes, rules: the table rules,
                                proof: host signature of [HOST_CONTEXT, table nonce,
                                       joiner's challenge, rules digest]}
    joiner -> host  ready      {}                          (the joiner accepts the rules)
    host -> joiner  seat       {seat}                      (a seat given to this connection)
    joiner -> host  join       {identity, x25519, nonce, name, proof: joiner signature of
                                [JOINER_CONTEXT, table nonce, host's challenge, host key, seat,
                                 identity, x25519, seat nonce, name, rules digest]}
    host -> joiner  seat       {seat}                      (at most once, instead of seated:
                                                            the host moves the joiner to the
                                                            seat of the host's partner, which
                                                            it claims with a new join)
    host -> joiner  seated     {seat, missing}
    host -> joiner  genesis    {genesis, bots}             (once every seat is taken)

Either side may send ``refused {reason}`` instead and close.

What the joiner checks (:class:`JoinerSeating`): the host's key has the invite's fingerprint and
its proof is valid; the announced rules are well formed and, when the invite carries a rules
digest, have exactly that digest; the seat offered exists; the genesis fixes exactly the
announced rules (game, preset, every flag, player count, timeouts), has the host's key at seat 0
and the joiner's own entry at its seat. Whether to accept rules that differ from the named preset
is the caller's decision (:meth:`JoinerSeating.review`), taken before the joiner signs anything.

What the host guarantees (:class:`HostSeating`): no connection can hold up another. A
connection that has not said ``ready`` holds nothing. A seat is given only on ``ready``, and the
host waits for its ``join`` at most :data:`JOIN_SECONDS`, and only :data:`CLAIM_SECONDS` while
another ready joiner waits for a seat: then the seat goes to that joiner. A seated joiner that
leaves before the table is full frees its seat for the next one (seat numbers are given lowest
first; the genesis is made only when every seat is taken, so nothing signed refers to the gap).
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from ..wire import codec
from ..wire.errors import BadKey
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import HandshakeError
from .genesis import PROTOCOL_VERSION, Genesis, GenesisError, SeatInfo
from .invite import Invite
from .rules import TableRules, show_value
from .secrets import SeatSecrets

__all__ = [
    "HOST_CONTEXT", "JOINER_CONTEXT", "CHALLENGE_SIZE", "MAX_NAME",
    "HELLO_SECONDS", "REVIEW_SECONDS", "JOIN_SECONDS", "CLAIM_SECONDS",
    "JoinerSeating", "Review", "SeatOffered", "Seated", "Started",
    "HostSeating", "SeatedJoiner", "Send", "Close", "Joined", "Freed",
    "review_refusal", "genesis_problems",
]

HOST_CONTEXT = "p2pcards/handshake/host/v2"
JOINER_CONTEXT = "p2pcards/handshake/joiner/v2"
CHALLENGE_SIZE = 32
MAX_NAME = 40

HELLO_SECONDS = 30.0
"""From the connection to a valid ``hello``."""
REVIEW_SECONDS = 900.0
"""From ``challenge`` to ``ready``: a person reads the rules. Such a connection holds nothing."""
JOIN_SECONDS = 30.0
"""From ``seat`` to ``join`` when nobody else waits for a seat."""
CLAIM_SECONDS = 1.0
"""From ``seat`` to ``join`` while another ready joiner waits: then the seat is given to it."""

RandomBytes = Callable[[int], bytes]


def _host_statement(nonce: bytes, challenge: bytes, digest: bytes) -> bytes:
    return codec.pack([HOST_CONTEXT, nonce, challenge, digest])


def _joiner_statement(nonce: bytes, challenge: bytes, host: bytes, seat: int, info: SeatInfo,
                      digest: bytes) -> bytes:
    return codec.pack([JOINER_CONTEXT, nonce, challenge, host, seat, info.identity, info.x25519,
                       info.nonce, info.name, digest])


def _expect(message: dict[str, Any], kind: str, fields: tuple[str, ...], who: str
            ) -> dict[str, Any]:
    if message["type"] == "refused":
        reason = message.get("reason")
        text = reason if isinstance(reason, str) else "no reason given"
        raise HandshakeError(f"{who} refused: {text}")
    if message["type"] != kind or set(message) != {"type", *fields}:
        raise HandshakeError(f"{who} sent {message['type']!r} with fields {sorted(message)} "
                             f"where a {kind!r} message was expected")
    return message


def _field(message: dict[str, Any], name: str, kind: type, who: str) -> Any:
    value = message.get(name)
    if type(value) is not kind:
        raise HandshakeError(f"{who} sent a {message['type']!r} message whose {name!r} is not "
                             f"{kind.__name__}")
    return value


def review_refusal(rules: TableRules, committed: bool) -> str | None:
    """Why a joiner that cannot ask a person (a bot, a script) refuses ``rules`` by default, or
    ``None`` when they are exactly the named preset with the default timeouts."""
    if not rules.unusual:
        return None
    changes = [str(d) for d in rules.differences()]
    changes += [f"{k} timeout {rules.timeouts[k]} s" for k in rules.timeout_differences()]
    where = "the invite commits to" if committed else "the host announces"
    return (f"{where} house rules that differ from the preset {rules.preset} of {rules.game} "
            f"({'; '.join(changes)}); join with --accept to sit at such a table")


def genesis_problems(genesis: Genesis, rules: TableRules) -> list[str]:
    """Every way ``genesis`` departs from the announced ``rules``, one phrase each."""
    problems: list[str] = []
    if (genesis.game, genesis.preset) != (rules.game, rules.preset):
        problems.append(f"it is {genesis.game}/{genesis.preset}, not the "
                        f"{rules.game}/{rules.preset} announced")
        return problems
    for key in sorted(set(genesis.config) | set(rules.config)):
        have, want = genesis.config.get(key), rules.config.get(key)
        if have != want:
            problems.append(f"it sets {key}={show_value(have)} where the announced rules say "
                            f"{show_value(want)}")
    for key in sorted(set(genesis.timeouts) | set(rules.timeouts)):
        have_t, want_t = genesis.timeouts.get(key), rules.timeouts.get(key)
        if have_t != want_t:
            problems.append(f"its {key} timeout is {have_t} s, not the {want_t} s announced")
    if genesis.dropout != rules.dropout:
        problems.append(f"its dropout policy is {genesis.dropout or 'none'}, not the "
                        f"{rules.dropout or 'none'} announced")
    return problems


# ===================================================================================== joiner


@dataclass(frozen=True)
class Review:
    """The host proved its key and announced these rules: accept or decline before signing.

    ``committed`` is True when the invite carries the rules digest (and it matched)."""

    rules: TableRules
    committed: bool


@dataclass(frozen=True)
class SeatOffered:
    """The host gives seat ``seat``: call :meth:`JoinerSeating.claim` with its secrets."""

    seat: int


@dataclass(frozen=True)
class Seated:
    """The host confirmed the seat; ``missing`` seats are still empty."""

    seat: int
    missing: int


@dataclass(frozen=True)
class Started:
    """The genesis, checked, and the seats played by bots."""

    genesis: Genesis
    bots: frozenset[int]


JoinerEvent = Review | SeatOffered | Seated | Started


class _J(enum.Enum):
    CHALLENGE = "challenge"
    REVIEW = "review"
    SEAT = "seat"
    CLAIM = "claim"
    SEATED = "seated"
    GENESIS = "genesis"
    DONE = "done"


class JoinerSeating:
    """The joiner's side. Call :meth:`hello`, then :meth:`receive` for each message; answer a
    :class:`Review` with :meth:`accept` or :meth:`decline` and a :class:`SeatOffered` with
    :meth:`claim`. Every check failure raises :class:`HandshakeError` (one sentence naming the
    host as ``label``)."""

    def __init__(self, invite: Invite, *, bot: bool = False, label: str = "the host",
                 random_bytes: RandomBytes = os.urandom) -> None:
        self.invite = invite
        self.bot = bot
        self.label = label
        self._challenge = random_bytes(CHALLENGE_SIZE)
        self._state = _J.CHALLENGE
        self.host: PublicIdentity | None = None
        self.rules: TableRules | None = None
        self.seat: int | None = None
        self.secrets: SeatSecrets | None = None
        self.info: SeatInfo | None = None
        self._host_challenge = b""
        self.moved = False
        """Whether the host moved this joiner to another seat after its first ``join``."""

    def hello(self) -> dict[str, Any]:
        """The first message."""
        return {"type": "hello", "version": PROTOCOL_VERSION, "nonce": self.invite.nonce,
                "challenge": self._challenge, "bot": self.bot}

    def receive(self, message: dict[str, Any]) -> JoinerEvent:
        """Check one message from the host; what it means for the caller."""
        who = self.label
        if self._state is _J.CHALLENGE:
            return self._on_challenge(message)
        if self._state is _J.SEAT:
            return self._on_seat(message)
        if self._state is _J.SEATED and message["type"] == "seat" and not self.moved:
            self.moved = True  # the host's partner seat: claimed again with a new join
            return self._on_seat(message)
        if self._state is _J.SEATED:
            seated = _expect(message, "seated", ("seat", "missing"), who)
            if seated["seat"] != self.seat or type(seated["missing"]) is not int:
                raise HandshakeError(f"{who} seated us at seat {seated['seat']!r}, not the "
                                     f"{self.seat} offered")
            self._state = _J.GENESIS
            return Seated(seated["seat"], seated["missing"])
        if self._state is _J.GENESIS:
            return self._on_genesis(message)
        raise HandshakeError(f"{who} sent {message['type']!r} when nothing was expected "
                             f"(waiting for our own {self._state.value!r})")

    def _on_seat(self, message: dict[str, Any]) -> SeatOffered:
        who = self.label
        seat = _field(_expect(message, "seat", ("seat",), who), "seat", int, who)
        assert self.rules is not None
        if not 1 <= seat < self.rules.players:
            raise HandshakeError(f"{who} offered seat {seat} of a "
                                 f"{self.rules.players}-seat table")
        self.seat = seat
        self._state = _J.CLAIM
        return SeatOffered(seat)

    def _on_challenge(self, message: dict[str, Any]) -> Review:
        who = self.label
        message = _expect(message, "challenge", ("identity", "proof", "challenge", "rules"), who)
        raw_key = _field(message, "identity", bytes, who)
        try:
            host = PublicIdentity(raw_key)
        except BadKey as exc:
            raise HandshakeError(f"{who} sent an unusable identity key: {exc}") from None
        if host.fingerprint != self.invite.fingerprint:
            raise HandshakeError(f"{who} has key {host.fingerprint}, not the invite's "
                                 f"{self.invite.fingerprint}: this is not the host who sent "
                                 "the invite")
        try:
            rules = TableRules.from_wire(message["rules"])
        except GenesisError as exc:
            raise HandshakeError(f"{who} announced unusable {exc}") from None
        digest = rules.digest()
        if not host.verify(_field(message, "proof", bytes, who),
                           _host_statement(self.invite.nonce, self._challenge, digest)):
            raise HandshakeError(f"{who} did not prove it holds the key {self.invite.fingerprint}")
        if self.invite.rules is not None and digest != self.invite.rules:
            raise HandshakeError(
                f"{who} announces rules other than those its invite commits to "
                f"(it announces {rules.summary()}, timeouts {rules.timeouts['step']} s and "
                f"{rules.timeouts['action']} s; rules digest {digest.hex()}, the invite's "
                f"{self.invite.rules.hex()}): refused")
        self.host = host
        self.rules = rules
        self._host_challenge = _field(message, "challenge", bytes, who)
        self._state = _J.REVIEW
        return Review(rules, self.invite.rules is not None)

    def accept(self) -> dict[str, Any]:
        """The rules are accepted: the ``ready`` message to send."""
        if self._state is not _J.REVIEW:
            raise RuntimeError("accept() answers a Review")
        self._state = _J.SEAT
        return {"type": "ready"}

    def decline(self, reason: str) -> dict[str, Any]:
        """The rules are refused: the ``refused`` message to send before closing."""
        if self._state is not _J.REVIEW:
            raise RuntimeError("decline() answers a Review")
        self._state = _J.DONE
        return {"type": "refused", "reason": reason}

    def claim(self, secrets: SeatSecrets, name: str) -> dict[str, Any]:
        """Take the offered seat with these secrets: the signed ``join`` message to send."""
        if self._state is not _J.CLAIM:
            raise RuntimeError("claim() answers a SeatOffered")
        assert self.host is not None and self.rules is not None and self.seat is not None
        info = secrets.info(name[:MAX_NAME])
        proof = secrets.identity.sign(_joiner_statement(
            self.invite.nonce, self._host_challenge, self.host.to_bytes(), self.seat, info,
            self.rules.digest()))
        self.secrets, self.info = secrets, info
        self._state = _J.SEATED
        return {"type": "join", "identity": info.identity, "x25519": info.x25519,
                "nonce": info.nonce, "name": info.name, "proof": proof}

    def _on_genesis(self, message: dict[str, Any]) -> Started:
        who = self.label
        message = _expect(message, "genesis", ("genesis", "bots"), who)
        try:
            genesis = Genesis.decode(_field(message, "genesis", bytes, who))
        except GenesisError as exc:
            raise HandshakeError(f"{who} sent an invalid genesis: {exc}") from None
        assert self.rules is not None and self.seat is not None and self.host is not None
        problems = genesis_problems(genesis, self.rules)
        if not problems:
            if genesis.seats[self.seat] != self.info:
                problems.append(f"its seat {self.seat} is not the seat we asked for")
            if genesis.seats[0].identity != self.host.to_bytes():
                problems.append("its seat 0 is not the host's key")
        if problems:
            raise HandshakeError(f"{who} sent a genesis we refuse to sign: "
                                 f"{'; '.join(problems)}")
        bots = message["bots"]
        if not isinstance(bots, list) or not all(
                type(b) is int and 0 <= b < len(genesis.seats) for b in bots):
            raise HandshakeError(f"{who} sent a genesis message whose bots are not seat numbers")
        self._state = _J.DONE
        return Started(genesis, frozenset(bots))


# ===================================================================================== host


@dataclass(frozen=True)
class SeatedJoiner:
    """A joiner the host seated: its seat, its genesis entry and whether a bot plays it."""

    seat: int
    info: SeatInfo
    bot: bool


@dataclass(frozen=True)
class Send:
    """Send ``message`` on connection ``conn``."""

    conn: Hashable
    message: dict[str, Any]


@dataclass(frozen=True)
class Close:
    """Close ``conn`` once what was sent on it has left; ``reason`` is for the host's log."""

    conn: Hashable
    reason: str


@dataclass(frozen=True)
class Joined:
    """``conn`` took ``seat``; ``missing`` seats are still empty."""

    conn: Hashable
    joiner: SeatedJoiner
    missing: int


@dataclass(frozen=True)
class Freed:
    """The joiner at ``seat`` left before the table was full; its seat is free again. Close
    ``conn``."""

    conn: Hashable
    joiner: SeatedJoiner
    reason: str
    missing: int


Output = Send | Close | Joined | Freed


class _H(enum.Enum):
    HELLO = "hello"
    REVIEW = "review"
    WAITING = "waiting"
    GIVEN = "given"
    SEATED = "seated"


@dataclass(eq=False)
class _Conn:
    conn: Hashable
    state: _H
    deadline: float | None
    bot: bool = False
    challenge: bytes = b""
    seat: int = 0
    given_at: float = 0.0
    joiner: SeatedJoiner | None = None
    order: int = 0
    moved: bool = False


@dataclass
class HostSeating:
    """The host's side for any number of connections at once.

    ``seats`` is how many seats joiners take: ``offered`` numbers them, in the order they are
    given (``1..seats`` by default; the host is seat 0, its own bot seats are the others).
    Feed :meth:`connected`, :meth:`receive`, :meth:`closed` and :meth:`tick` with the current
    time (any monotonic number); each returns the outputs to carry out, in order.
    :meth:`next_deadline` says when :meth:`tick` is next due. Once :attr:`full`, every other
    connection has been refused and :meth:`seated` lists the joiners by seat.
    """

    rules: TableRules
    nonce: bytes
    key: IdentityKey
    seats: int
    random_bytes: RandomBytes = os.urandom
    taken: set[bytes] = field(default_factory=set)
    """Identity keys that may not join (the host's own)."""
    offered: tuple[int, ...] = ()
    """The seat numbers joiners take, in the order they are given (default ``1..seats``)."""
    partner: str | None = None
    """The name of the joiner the host wants as its partner: a joiner that claims another seat
    under that name is moved to a free seat of ``partner_seats`` (once)."""
    partner_seats: frozenset[int] = frozenset()
    """The seats of the host's side among :attr:`offered`."""
    _conns: dict[Hashable, _Conn] = field(default_factory=dict)
    _order: int = 0

    def __post_init__(self) -> None:
        self.taken.add(self.key.public.to_bytes())
        self._digest = self.rules.digest()
        if not self.offered:
            self.offered = tuple(range(1, self.seats + 1))
        if len(self.offered) != self.seats:
            raise ValueError(f"{len(self.offered)} seat numbers offered for {self.seats} seats")

    # ------------------------------------------------------------------ queries

    @property
    def full(self) -> bool:
        return self.missing == 0

    @property
    def missing(self) -> int:
        return self.seats - sum(1 for c in self._conns.values() if c.state is _H.SEATED)

    def seated(self) -> list[tuple[Hashable, SeatedJoiner]]:
        """The seated joiners' connections and entries, by seat."""
        found = [(c.conn, c.joiner) for c in self._conns.values() if c.joiner is not None
                 and c.state is _H.SEATED]
        return sorted(found, key=lambda item: item[1].seat)

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`tick` has something to do, if any."""
        times = [c.deadline for c in self._conns.values() if c.deadline is not None]
        if self._waiting():
            times += [c.given_at + CLAIM_SECONDS for c in self._conns.values()
                      if c.state is _H.GIVEN]
        return min(times, default=None)

    # ------------------------------------------------------------------ inputs

    def connected(self, conn: Hashable, now: float) -> list[Output]:
        """A new connection of a would-be joiner."""
        if self.full:
            return self._refuse_now(conn, "the table is full")
        self._order += 1
        self._conns[conn] = _Conn(conn, _H.HELLO, now + HELLO_SECONDS, order=self._order)
        return []

    def forget(self, conn: Hashable) -> None:
        """Drop ``conn`` without a word: it turned out not to be a would-be joiner's (its first
        message opened a hole-punching exchange, SPEC §11.9). It held no seat (it sent no
        ``hello``)."""
        state = self._conns.get(conn)
        if state is not None and state.state is _H.HELLO:
            del self._conns[conn]

    def closed(self, conn: Hashable, reason: str, now: float) -> list[Output]:
        """``conn`` ended (closed, broken or garbage: ``reason`` says which)."""
        state = self._conns.pop(conn, None)
        if state is None:
            return []
        out: list[Output] = [Close(conn, reason)]
        if state.state is _H.SEATED and state.joiner is not None:
            self.taken.discard(state.joiner.info.identity)
            out = [Freed(conn, state.joiner, reason, self.missing)]
        return out + self._serve(now)

    def tick(self, now: float) -> list[Output]:
        """Expire handshakes past their deadline and give away seats a joiner is slow to claim
        while another waits."""
        out: list[Output] = []
        for c in list(self._conns.values()):
            if c.deadline is not None and now >= c.deadline:
                what = {_H.HELLO: "hello", _H.REVIEW: "ready", _H.GIVEN: "join"}[c.state]
                limit = {_H.HELLO: HELLO_SECONDS, _H.REVIEW: REVIEW_SECONDS,
                         _H.GIVEN: JOIN_SECONDS}[c.state]
                out += self._refuse(c, f"no {what!r} message within {limit:.0f} seconds")
        waiting = self._waiting()
        slow = sorted((c for c in self._conns.values()
                       if c.state is _H.GIVEN and now >= c.given_at + CLAIM_SECONDS),
                      key=lambda c: c.given_at)
        for c in slow[:len(waiting)]:
            out += self._refuse(c, f"seat {c.seat} was not claimed within {CLAIM_SECONDS:g} s "
                                   "while another joiner waited; it went to that joiner")
        return out + self._serve(now)

    def receive(self, conn: Hashable, message: dict[str, Any], now: float) -> list[Output]:
        """A message from ``conn``."""
        c = self._conns.get(conn)
        if c is None:
            return []
        try:
            if c.state is _H.HELLO:
                return self._on_hello(c, message, now)
            if c.state is _H.REVIEW:
                if message["type"] == "refused":
                    reason = message.get("reason")
                    text = reason if isinstance(reason, str) else "no reason given"
                    del self._conns[conn]
                    return [Close(conn, f"it declined the table: {text}")]
                _expect(message, "ready", (), "it")
                c.state, c.deadline = _H.WAITING, None
                return self._serve(now)
            if c.state is _H.GIVEN:
                return self._on_join(c, message, now)
            if c.state is _H.SEATED:
                return self.closed(conn, f"it sent {message['type']!r} before the match "
                                         "started", now)
            raise HandshakeError(f"it sent {message['type']!r} while waiting for a seat")
        except HandshakeError as exc:
            return self._refuse(c, str(exc)) + self._serve(now)

    # ------------------------------------------------------------------ steps

    def _on_hello(self, c: _Conn, message: dict[str, Any], now: float) -> list[Output]:
        hello = _expect(message, "hello", ("version", "nonce", "challenge", "bot"), "it")
        if hello["version"] != PROTOCOL_VERSION:
            return self._refuse(c, f"this host speaks protocol version {PROTOCOL_VERSION}, "
                                   f"not {hello['version']!r}")
        if hello["nonce"] != self.nonce:
            return self._refuse(c, "this host is not hosting the table of that invite (the "
                                   "invite is wrong or stale; ask the host for a fresh one)")
        challenge = _field(hello, "challenge", bytes, "it")
        if len(challenge) != CHALLENGE_SIZE:
            raise HandshakeError(f"it sent a challenge of {len(challenge)} bytes, not "
                                 f"{CHALLENGE_SIZE}")
        c.bot = _field(hello, "bot", bool, "it")
        c.challenge = self.random_bytes(CHALLENGE_SIZE)
        c.state, c.deadline = _H.REVIEW, now + REVIEW_SECONDS
        return [Send(c.conn, {
            "type": "challenge", "identity": self.key.public.to_bytes(),
            "proof": self.key.sign(_host_statement(self.nonce, challenge, self._digest)),
            "challenge": c.challenge, "rules": self.rules.to_wire()})]

    def _on_join(self, c: _Conn, message: dict[str, Any], now: float) -> list[Output]:
        join = _expect(message, "join", ("identity", "x25519", "nonce", "name", "proof"), "it")
        try:
            info = SeatInfo.from_wire({k: join[k] for k in ("identity", "x25519", "nonce",
                                                            "name")}, c.seat)
            identity = PublicIdentity(info.identity)
        except (GenesisError, BadKey) as exc:
            raise HandshakeError(f"bad seat entry: {exc}") from None
        statement = _joiner_statement(self.nonce, c.challenge, self.key.public.to_bytes(),
                                      c.seat, info, self._digest)
        if not identity.verify(_field(join, "proof", bytes, "it"), statement):
            raise HandshakeError(f"the proof of the identity key {identity.fingerprint} is "
                                 "not valid")
        if info.identity in self.taken:
            raise HandshakeError(f"the identity key {identity.fingerprint} already has a seat "
                                 "at this table (a second seat from the same account joins "
                                 "with --ephemeral-identity)")
        move = self._partner_move(c, info)
        if move is not None:
            c.moved, c.seat, c.given_at, c.deadline = True, move, now, now + JOIN_SECONDS
            return [Send(c.conn, {"type": "seat", "seat": move})]
        self.taken.add(info.identity)
        c.joiner = SeatedJoiner(c.seat, info, c.bot)
        c.state, c.deadline = _H.SEATED, None
        missing = self.missing
        out: list[Output] = [Send(c.conn, {"type": "seated", "seat": c.seat,
                                           "missing": missing}),
                             Joined(c.conn, c.joiner, missing)]
        if missing == 0:
            for other in list(self._conns.values()):
                if other.state is not _H.SEATED:
                    out += self._refuse(other, "the table is full")
        return out

    def _partner_move(self, c: _Conn, info: SeatInfo) -> int | None:
        """The free seat of the host's side to move ``c`` to, when it claimed another seat
        under the partner's name and has not been moved yet; ``None`` otherwise."""
        if (self.partner is None or c.moved or c.seat in self.partner_seats
                or info.name.strip().casefold() != self.partner.strip().casefold()):
            return None
        used = {o.seat for o in self._conns.values() if o.state in (_H.GIVEN, _H.SEATED)}
        return next((s for s in self.offered if s in self.partner_seats and s not in used),
                    None)

    def _waiting(self) -> list[_Conn]:
        return sorted((c for c in self._conns.values() if c.state is _H.WAITING),
                      key=lambda c: c.order)

    def _serve(self, now: float) -> list[Output]:
        """Give free seats, lowest first, to waiting joiners, first come first served."""
        used = {c.seat for c in self._conns.values() if c.state in (_H.GIVEN, _H.SEATED)}
        free = [s for s in self.offered if s not in used]
        out: list[Output] = []
        for c, seat in zip(self._waiting(), free, strict=False):
            c.state, c.seat, c.given_at, c.deadline = _H.GIVEN, seat, now, now + JOIN_SECONDS
            out.append(Send(c.conn, {"type": "seat", "seat": seat}))
        return out

    def _refuse(self, c: _Conn, reason: str) -> list[Output]:
        self._conns.pop(c.conn, None)
        return self._refuse_now(c.conn, reason)

    @staticmethod
    def _refuse_now(conn: Hashable, reason: str) -> list[Output]:
        return [Send(conn, {"type": "refused", "reason": reason}), Close(conn, reason)]
