"""The sans-IO table state machine: one match, engine + mental poker + signed messages.

A :class:`Table` is one participant's view of a table: a seat (``seat`` = 0..n-1) or an observer
(``seat=None``: the verifier, or a relay that wants to check). It never touches sockets, files or
clocks. The caller feeds it:

- :meth:`Table.start` once, then every received envelope (frame payload bytes) to
  :meth:`Table.receive`;
- the local seat's decisions to :meth:`Table.decide` when :attr:`Table.needs_decision` is true;

and each call returns a :class:`Step`: the envelopes to send (already accepted into the local
chain) and the :class:`Event` objects a user interface shows. Automatic messages of the local seat
(hand keys, shuffles, reveal tokens, key reveals, hand results) are produced by the table itself.

Anything wrong in a received envelope raises :class:`Violation` naming the culprit seat, the
envelope index and the rule, and leaves the table unchanged; the caller decides whether to drop
the envelope (a relay glitch) or abort (a cheating peer). Whose turn it is, message by message,
is :attr:`Table.expected`: the protocol is one linear chain, one speaker at a time, except in a
claim window, where :attr:`Table.claimants` may speak instead of the expected seat
(:attr:`Table.speakers`; :meth:`Table.claim_actions`, :meth:`Table.claim`). A message the local
seat sends in a claim window is a :attr:`Table.proposal`: the hub's order decides whether it
enters the chain (it does when it comes back through :meth:`Table.receive`), and a message that
came second is refused everywhere with the harmless rule ``lost-race``.

Actions that use several cards, keep them, move them face down or pass them privately are
proven as ``engine.card_use`` says (SPEC §9.6); the live engine gets ``HIDDEN`` in place of the
cards this participant may not know.

At a table whose genesis sets ``dropout`` = ``bot``, once a silent seat's recovery is over the
table itself plays that seat (:attr:`Table.bot_seat`, :mod:`p2pcards.public_bot`): its moves
enter no envelope and are reported as :class:`ActionPlayed` events of that seat (SPEC §9.13.7).

At a table that shares its hand keys, a seat whose share of another seat's key is wrong says
nothing else but a ``complain``, in its next turn (a :attr:`Table.proposal`, which the hub sends
back); once it is in the chain every participant raises ``bad-key-share`` naming the dealer and
the match is over (:attr:`Table.complaint`, SPEC §9.13.4).

The message kinds and their bodies are specified in ``protocol/SPEC.md`` §9.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import crypto
from .cards import HIDDEN, Card, Deck
from .crypto import CryptoError, ProofContext, Randomness
from .crypto.inbox import BoxOpening, InboxKey, PublishedInbox, verify_inbox, verify_opening
from .crypto.keyshares import DealtKey, deal_key, open_share, rebuild_key, share_in_box
from .crypto.vss import share_is_valid
from .games.base import (
    ALL_SEATS,
    Action,
    CardUse,
    ChanceStep,
    GameError,
    HandResult,
    MatchState,
    Phase,
    Zone,
)
from .public_bot import bot_seed, public_move
from .records.secret_store import PROPOSAL, SIGNED, Keeper, decode_count, hand_name, inbox_name
from .seating.genesis import Genesis
from .wire import (
    BadSignature,
    Chain,
    ChainError,
    Envelope,
    Equivocation,
    Fork,
    IdentityKey,
    Payload,
    ProtocolError,
    PublicIdentity,
    WrongSequence,
    WrongTable,
    codec,
    open_envelope,
    seal,
)

__all__ = [
    "Table",
    "Step",
    "Event",
    "Violation",
    "SeatAccepted",
    "HandStarted",
    "CardsRevealed",
    "ActionPlayed",
    "HandScored",
    "MatchEnded",
    "ProposalDropped",
    "SeatDropped",
    "KeyRebuilt",
    "BotSeated",
    "Recovery",
    "Complaint",
    "ResumeError",
    "HUB_SEAT",
    "KINDS",
    "replay_frames",
    "bare_inboxes",
    "revealed_cards",
]

KINDS = ("accept", "key", "shuffle", "tokens", "action", "reveal", "result", "recover",
         "complain")
"""Every message kind of protocol version 1, in the order they first appear (``recover`` and
``complain`` only at a table that shares its hand keys, SPEC §9.13)."""
HUB_SEAT = 0
"""The host's seat: the hub that relays every envelope (SPEC §11.5), whose own liveness and
timers say when a seat is gone, and so the only seat that may begin a recovery (SPEC
§9.13.5)."""


class Violation(Exception):
    """A received envelope that breaks the protocol or the rules.

    ``seat`` is the culprit (the signer, or ``None`` when the envelope could not be attributed),
    ``index`` the chain position at which it was offered, ``rule`` a stable kebab-case identifier.
    ``evidence`` holds the signed envelopes that prove it when the offending envelope alone does
    not (both envelopes of an ``equivocation``; the chain head and the link of a ``fork``), and
    ``suspects`` the seats one of which (or the hub) must be at fault when ``seat`` is ``None``.
    """

    def __init__(self, rule: str, message: str, *, seat: int | None, index: int | None,
                 evidence: tuple[Envelope, ...] = (), suspects: tuple[int, ...] = ()) -> None:
        where = []
        if index is not None:
            where.append(f"envelope {index}")
        if seat is not None:
            where.append(f"seat {seat}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message} [{rule}]" if prefix else f"{message} [{rule}]")
        self.rule = rule
        self.seat = seat
        self.index = index
        self.evidence = evidence
        self.suspects = suspects


class ResumeError(Exception):
    """A table cannot be rebuilt from its transcript and kept secrets (:meth:`Table.resume`);
    the message says what is missing or wrong."""


# ----------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """Base class of what the table reports to a user interface."""


@dataclass(frozen=True)
class SeatAccepted(Event):
    seat: int


@dataclass(frozen=True)
class HandStarted(Event):
    hand: int
    cycle: int


@dataclass(frozen=True)
class CardsRevealed(Event):
    """Cards this participant learned from a chance step (own hand, table, trump, a show)."""

    steps: tuple[ChanceStep, ...]
    cards: tuple[Card | None, ...]


@dataclass(frozen=True)
class ActionPlayed(Event):
    seat: int
    action: Action
    index: int


@dataclass(frozen=True)
class HandScored(Event):
    hand: int
    result: HandResult
    match_scores: tuple[int, ...]


@dataclass(frozen=True)
class MatchEnded(Event):
    """The match is over. ``forfeit`` names the seat that dropped out and forfeited (SPEC
    §9.13); the scores are then those of the hands completed before."""

    match_scores: tuple[int, ...]
    winner: int | None
    forfeit: int | None = None


@dataclass(frozen=True)
class SeatDropped(Event):
    """Seat ``seat`` stopped answering when its ``kind`` message was due and seat ``by`` began
    the recovery (SPEC §9.13): the others publish their shares of its hand key."""

    seat: int
    kind: str
    by: int


@dataclass(frozen=True)
class KeyRebuilt(Event):
    """The dropped ``seat``'s hand key of the current deck was rebuilt from the others' shares;
    ``audited`` tells whether the deck was then audited and replayed (cards had been dealt)."""

    seat: int
    audited: bool


@dataclass(frozen=True)
class BotSeated(Event):
    """From now on the public bot plays the dropped ``seat`` (``dropout`` = ``bot``, SPEC
    §9.13.7): every participant computes its moves, and its cards are open to every seat."""

    seat: int


@dataclass(frozen=True)
class ProposalDropped(Event):
    """The local seat's claim-window message (its action or its claim) lost the race: another
    seat's message was placed in the chain first, so it was not sent into the chain."""

    envelope: bytes


@dataclass
class Step:
    """What one call produced: envelopes to send (encoded, in order) and events to show."""

    outgoing: list[bytes] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def extend(self, other: Step) -> None:
        self.outgoing.extend(other.outgoing)
        self.events.extend(other.events)


@dataclass
class Recovery:
    """A dropout (SPEC §9.13): ``seat`` did not send its ``kind`` message, seat ``by`` began the
    recovery with envelope ``index``; ``rebuilt``: the seat's hand key of the current deck was
    rebuilt from the others' shares; ``audited``: that deck was then audited and replayed;
    ``bot``: the match went on with the public bot in the seat (SPEC §9.13.7)."""

    seat: int
    kind: str
    by: int
    index: int
    rebuilt: bool = False
    audited: bool = False
    bot: bool = False


@dataclass(frozen=True)
class Complaint:
    """A proven complaint (SPEC §9.13.4): seat ``holder`` showed in envelope ``index`` that its
    share of seat ``dealer``'s hand key, dealt in envelope ``dealt_at``, is wrong. The match
    ends there with ``dealer`` at fault."""

    holder: int
    dealer: int
    index: int
    dealt_at: int


# ----------------------------------------------------------------------------------- rounds


@dataclass
class _Round:
    """A protocol round: ``kind`` messages from ``speakers`` in order."""

    kind: str
    speakers: list[int]
    done: int = 0

    @property
    def complete(self) -> bool:
        return self.done >= len(self.speakers)

    @property
    def current(self) -> int:
        return self.speakers[self.done]


@dataclass
class _Duty:
    """What one seat must provide for one chance step: a public token, or sealed tokens."""

    step_index: int
    position: int
    public: bool
    recipients: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Move:
    """One accepted action, as the full replay needs it.

    ``action`` is the wire action (``HIDDEN`` where the card was not shown to everyone);
    ``secret`` the deck positions of its ``HIDDEN`` slots, in slot order; ``claim`` marks an
    out-of-turn claim (applied with ``apply_claim``).
    """

    index: int
    seat: int
    action: Action
    secret: tuple[int, ...] = ()
    claim: bool = False


@dataclass
class _Cycle:
    """One shuffled deck: keys, shuffles, tokens, and the log needed for the replay."""

    number: int
    holders: tuple[int, ...] = ()
    """The seats that hold a hand key of this deck: every seat, or, once the public bot plays
    a seat, every other seat (SPEC §9.13.7)."""
    sharing: bool = False
    """The seats share their hand keys of this deck (a dropout policy, no recovery yet)."""
    my_key: crypto.HandKey | None = None
    publics: dict[int, crypto.Point] = field(default_factory=dict)
    joint: crypto.Point | None = None
    deck: crypto.EncryptedDeck | None = None
    tokens: dict[int, dict[int, crypto.Point]] = field(default_factory=dict)
    """position -> seat -> verified decryption share (public or opened from a sealed token)."""
    public: dict[int, set[int]] = field(default_factory=dict)
    """position -> seats whose share of it is public (the same for every participant)."""
    held: dict[int, dict[int, crypto.RevealToken]] = field(default_factory=dict)
    """position -> seat -> that seat's ``pass`` token, received privately with a passed card
    (this participant forwards it when it shows or passes the card on)."""
    hand_positions: dict[int, list[int]] = field(default_factory=dict)
    chance_positions: list[list[int]] = field(default_factory=list)
    """Deck positions of each chance batch, in order (for the replay)."""
    actions: list[_Move] = field(default_factory=list)
    """Every accepted action in order (for the replay)."""
    played: dict[int, Card] = field(default_factory=dict)
    known: dict[int, Card] = field(default_factory=dict)
    """Deck position -> card, for every position this participant has decrypted."""
    secrets: dict[int, crypto.Scalar] = field(default_factory=dict)
    pending: tuple[ChanceStep, ...] = ()
    pending_positions: tuple[int, ...] = ()
    my_inbox: crypto.Scalar | None = None
    """The local seat's inbox secret of this cycle (key sharing, SPEC §9.13)."""
    inboxes: dict[int, crypto.Point] = field(default_factory=dict)
    dealt: dict[int, DealtKey] = field(default_factory=dict)
    """Seat -> its hand key's sharing, from its ``shuffle`` message."""
    dealt_at: dict[int, int] = field(default_factory=dict)
    """Seat -> the chain index of the ``shuffle`` message that carried its sharing."""
    bad_box: int | None = None
    """The dealer whose share for the local seat fails its commitments: the local seat owes
    a ``complain`` and sends nothing else (SPEC §9.13.4)."""
    my_shares: dict[int, crypto.Scalar] = field(default_factory=dict)
    """Dealer seat -> the local seat's share of its key, opened and checked."""
    shuffled: bool = False
    """The ``shuffle`` round is complete: cards may have been dealt with this deck."""
    audited: bool = False
    published: dict[int, crypto.Scalar] = field(default_factory=dict)
    """Holder seat -> its share of the dropped seat's key, published in ``recover``."""


class Table:
    """One participant's view of a table; see the module docstring for the contract."""

    def __init__(
        self,
        genesis: Genesis,
        *,
        seat: int | None,
        identity: IdentityKey | None = None,
        x25519_private: bytes | None = None,
        rng: Randomness | None = None,
        keeper: Keeper | None = None,
        bare_inboxes: bool = False,
    ) -> None:
        self.genesis = genesis
        self.table_id = genesis.table_id
        self.seat = seat
        self.players = len(genesis.seats)
        if seat is not None:
            if not 0 <= seat < self.players:
                raise ValueError(f"seat {seat} is not a seat of this table")
            if identity is None or rng is None or x25519_private is None:
                raise ValueError("a seated table needs its identity key, X25519 key and rng")
            if identity.public.to_bytes() != genesis.seats[seat].identity:
                raise ValueError(f"this identity key is not the key of seat {seat}")
        self._identity = identity
        self._x25519 = x25519_private
        self._rng = rng
        self.keeper = keeper
        """Where the local seat keeps each secret before it first uses it on the wire (its
        hand keys, its claim-window proposals), so that a crashed peer can :meth:`resume`."""
        self.spent: list[int] = []
        """Deck cycles whose hand keys every seat has revealed, in order: from then on the
        chain holds the local seat's key, and the kept copy may be deleted."""
        self._replaying = False
        self._keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
        self.chain = Chain(self.table_id)
        self.frames: list[bytes] = []
        """Every accepted envelope, in chain order (what a transcript stores)."""
        spec = genesis.spec
        self._config = genesis.game_config()
        self.engine: MatchState = spec.new_match(self._config)
        """The live engine: hidden cards are ``None`` in this participant's view."""
        self._full: MatchState = spec.new_match(self._config)
        """The full-information engine at the start of the current cycle (replayed after it)."""
        self._cycle_count = 0
        self._cycle: _Cycle | None = None
        self._round = _Round("accept", list(range(self.players)))
        self._results: dict[int, dict[str, Any]] = {}
        self._started = False
        self.finished = False
        self.last_result: HandResult | None = None
        self.proposal: bytes | None = None
        """The local seat's action envelope sent in a claim window and not yet placed in the
        chain: the hub's order decides (SPEC §9.2). It is accepted when it comes back, and
        dropped when a competing envelope is accepted first."""
        self.windows: dict[int, tuple[frozenset[int], bytes]] = {}
        """Chain index -> (seats that could speak there, the ``prev`` hash) for every index
        accepted while a claim window was open: a later envelope of such a seat for that index
        lost the race (``lost-race``)."""
        self.recovery: Recovery | None = None
        """The recovery of a seat that dropped out (SPEC §9.13), once a ``recover`` is
        accepted."""
        self.forfeit: int | None = None
        """The seat that forfeited the match by dropping out (``dropout`` = ``forfeit``)."""
        self.complaint: Complaint | None = None
        """The proven complaint that ended the match (SPEC §9.13.4), once accepted."""
        self._proven: Violation | None = None
        """The dealer's violation a complaint proved, raised once the complaint is in the
        chain."""
        self.bot_seat: int | None = None
        """The seat the public bot plays, once a recovery under ``dropout`` = ``bot`` is over
        (SPEC §9.13.7)."""
        self._interrupted: _Round | None = None
        """The round a recovery replaced, to be taken up again without the dropped seat."""
        if bare_inboxes and seat is not None:
            raise ValueError("only an observer reads inbox keys without their proofs")
        self._bare_inboxes = bare_inboxes
        """An observer replaying a transcript recorded under the earlier rule, whose ``key``
        messages carried the inbox key as a bare point (:func:`bare_inboxes`, SPEC §9.11)."""

    # ------------------------------------------------------------------ public queries

    @property
    def dropped(self) -> int | None:
        """The seat that dropped out, once its recovery has begun."""
        return None if self.recovery is None else self.recovery.seat

    @property
    def expected(self) -> tuple[int, str] | None:
        """``(seat, kind)`` of the next envelope, or ``None`` once the match is over (or a
        violation found at the end of a hand has stopped it). In a claim window the
        :attr:`claimants` may send the next ``action`` instead."""
        if self.finished or self._round.complete:
            return None  # over, or stopped by a violation found when a round completed
        return self._round.current, self._round.kind

    @property
    def claimants(self) -> frozenset[int]:
        """Seats other than the expected one that may send an ``action`` now: an out-of-turn
        claim (``engine.claimants()``, empty for most games and outside action rounds; never
        the bot's seat)."""
        if self.finished or self._round.complete or self._round.kind != "action":
            return frozenset()
        if self.engine.phase is not Phase.ACTION:
            return frozenset()
        return frozenset(self.engine.claimants()) - {self._round.current, self.bot_seat}

    @property
    def speakers(self) -> frozenset[int]:
        """Every seat whose envelope may come next: the expected seat and the claimants."""
        expected = self.expected
        if expected is None:
            return frozenset()
        return frozenset({expected[0]}) | self.claimants

    @property
    def needs_decision(self) -> bool:
        """True when the local seat must choose an action (see :meth:`legal_actions`)."""
        return (not self.finished and self.seat is not None and self._round.kind == "action"
                and not self._round.complete and self._round.current == self.seat
                and self.proposal is None and not self._complaint_due())

    def legal_actions(self) -> list[Action]:
        """The local seat's legal actions now (empty unless :attr:`needs_decision`)."""
        return self.engine.legal_actions() if self.needs_decision else []

    def claim_actions(self) -> list[Action]:
        """The out-of-turn claims the local seat may make now (usually none)."""
        if (self.seat is None or self.proposal is not None or self.seat not in self.claimants
                or self._owes_complaint()):
            return []
        return self.engine.claim_actions(self.seat)

    def claim(self, action: Action) -> Step:
        """Send an out-of-turn claim of the local seat, one of :meth:`claim_actions`.

        A claim always competes with the expected seat's action, so it is a :attr:`proposal`:
        the envelope is in the returned ``outgoing`` but not yet in the local chain; it enters
        when it comes back from the hub (:meth:`receive`), or is dropped if the other message
        came first.
        """
        if action not in self.claim_actions():
            raise GameError(f"{action} is not a claim this seat may make now")
        return self._send_action(action)

    def observation(self) -> dict[str, Any]:
        """The local seat's observation (an observer sees the public view of seat 0)."""
        return self.engine.observation(self.seat if self.seat is not None else 0)

    # ------------------------------------------------------------------ driving

    def start(self) -> Step:
        """Begin: produce the local seat's messages if it speaks first. Call once."""
        if self._started:
            raise RuntimeError("Table.start() was already called")
        self._started = True
        return self._run_automatic()

    def resume(self, frames: Sequence[bytes]) -> Step:
        """Begin as a seat that was already playing: replay ``frames`` (this table's chain as
        the transcript holds it, the local seat's own envelopes included), then produce what the
        local seat owes next. Call instead of :meth:`start`.

        Every frame is checked as :meth:`receive` checks a received one, so the table ends in
        exactly the state it had when the last frame was accepted. The local seat's hand key of
        a deck comes from ``frames`` once it is public there (its own ``reveal`` or ``recover``,
        or rebuilt from the other seats' shares in their ``recover``), else from :attr:`keeper`
        (``hand<N>``); its inbox key (``inbox<N>``) is needed only for the deck still in play,
        since the kept keys of a deck are deleted once the deck is spent (:attr:`spent`). A
        claim-window proposal that was signed but not yet placed is taken back from the keeper
        (``proposal``), so that the seat never signs a second envelope for one chain position.
        ``frames`` must hold at least the count of the seat's own envelopes that the keeper
        says its transcript held (``signed``): a transcript cut before one of them would make
        the seat sign another envelope in its place. Nothing the local seat already signed is
        signed again. Returns the events of the replay and the envelopes the seat sends now;
        :class:`ResumeError` names a frame that does not fit or a secret that is missing.
        """
        if self._started:
            raise RuntimeError("Table.resume() is called instead of Table.start()")
        if self.seat is None:
            raise ValueError("only a seated table resumes")
        self._started = True
        known = self._own_public_keys(frames)
        step = Step()
        own = 0
        self._replaying = True
        try:
            for index, data in enumerate(frames):
                try:
                    _, payload = open_envelope(data, self._keys)
                except ProtocolError as exc:
                    raise ResumeError(f"envelope {index} of the transcript cannot be read: "
                                      f"{exc}") from None
                if payload.seat == self.seat:
                    own += 1
                    if payload.kind == "key":
                        self._restore_key(payload, known)
                    self.proposal = data  # the local seat's own: taken as such
                try:
                    step.extend(self.receive(data))
                except Violation as exc:
                    raise ResumeError(f"the transcript does not replay: {exc}") from None
                finally:
                    self.proposal = None
                if payload.seat == self.seat and payload.kind == "key":
                    cycle = self._require_cycle()
                    assert cycle.my_key is not None
                    if cycle.my_key.public != cycle.publics[self.seat]:
                        raise ResumeError(f"the kept key of hand cycle {cycle.number} is not the "
                                          f"key seat {self.seat} published")
        finally:
            self._replaying = False
        self._check_signed(own, len(frames))
        self._check_inbox()
        self._restore_proposal()
        step.outgoing.extend(self._run_automatic().outgoing)
        return step

    def _check_signed(self, own: int, frames: int) -> None:
        """Refuse a transcript that holds fewer of the local seat's envelopes than the keeper
        says its transcript held (SPEC §11.7.4)."""
        data = self.keeper.load(SIGNED) if self.keeper is not None else None
        if data is None:
            return
        signed = decode_count(data)
        if signed is None:
            raise ResumeError(f"the kept count of seat {self.seat}'s envelopes is damaged "
                              f"({len(data)} bytes, not 8)")
        if own < signed:
            raise ResumeError(f"the transcript ends after {frames} envelopes, {own} of them "
                              f"seat {self.seat}'s, but the seat had already signed {signed}: "
                              "resuming from it would sign a second, different envelope for a "
                              "place the seat has signed, so resume from a complete copy of "
                              "the transcript (every player's holds the same chain)")

    def _check_inbox(self) -> None:
        """After the replay: the deck in play needs the local seat's inbox key (it opens the
        shares of the other seats' hand keys dealt to this seat), which is kept until the deck
        is spent; a spent deck needs none."""
        cycle = self._cycle
        if (cycle is None or cycle.audited or cycle.number in self.spent
                or self.seat not in cycle.inboxes or cycle.my_inbox is not None):
            return
        raise ResumeError(f"the inbox key of hand cycle {cycle.number} of seat {self.seat} is "
                          "not among the kept secrets: this seat cannot go on")

    def _own_public_keys(self, frames: Sequence[bytes]) -> dict[bytes, crypto.Scalar]:
        """The local seat's hand keys that ``frames`` make public, by public key: the secret of
        its own ``reveal`` (or of its ``recover`` under ``forfeit``), and the key rebuilt from
        the other seats' shares when a recovery was of the local seat (SPEC §9.13). Frames that
        cannot be read are skipped: the replay names what is wrong with them."""
        found: dict[bytes, crypto.Scalar] = {}
        rebuilt: dict[int, crypto.Scalar] = {}
        for data in frames:
            try:
                _, payload = open_envelope(data, self._keys)
                body = payload.body
                if not isinstance(body, dict):
                    continue
                if payload.seat == self.seat and payload.kind in ("reveal", "recover"):
                    if body.get("secret") is not None:
                        secret = crypto.Scalar.from_bytes(body["secret"], "hand key secret")
                        found[(secret * crypto.G).to_bytes()] = secret
                elif (payload.kind == "recover" and body.get("seat") == self.seat
                      and body.get("share") is not None):
                    rebuilt[payload.seat] = crypto.Scalar.from_bytes(body["share"], "key share")
            except (ProtocolError, CryptoError):
                continue
        holders = [s for s in range(self.players) if s != self.seat]
        if rebuilt.keys() == set(holders):
            try:
                secret = rebuild_key(rebuilt, holders)
                found[(secret * crypto.G).to_bytes()] = secret
            except CryptoError:
                pass  # the replay names the bad share
        return found

    def _restore_key(self, payload: Payload, known: dict[bytes, crypto.Scalar]) -> None:
        """Give the replay the local seat's key of the hand whose ``key`` envelope is next, and
        its inbox key of that hand while it is kept (see :meth:`_check_inbox`)."""
        cycle = self._require_cycle()
        share = payload.body.get("share") if isinstance(payload.body, dict) else None
        try:
            public = crypto.KeyShare.from_wire(share).public.to_bytes()
        except CryptoError as exc:
            raise ResumeError(f"envelope {payload.seq} holds no usable key share: {exc}") from None
        secret = known.get(public)
        if secret is None:
            kept = self.keeper.load(hand_name(cycle.number)) if self.keeper is not None else None
            if kept is None:
                raise ResumeError(f"the key of hand cycle {cycle.number} of seat {self.seat} is "
                                  "not among the kept secrets: this seat cannot go on")
            try:
                secret = crypto.Scalar.from_bytes(kept, "kept hand key")
            except CryptoError as exc:
                raise ResumeError(f"the kept key of hand cycle {cycle.number} is damaged: "
                                  f"{exc}") from None
        try:
            cycle.my_key = crypto.HandKey(secret)
        except CryptoError as exc:
            raise ResumeError(f"the key of hand cycle {cycle.number} is unusable: {exc}") from None
        if isinstance(payload.body, dict) and "inbox" in payload.body:
            kept = self.keeper.load(inbox_name(cycle.number)) if self.keeper is not None else None
            if kept is None:
                return  # spent since: the deck needs it no more (checked after the replay)
            try:
                cycle.my_inbox = crypto.Scalar.from_bytes(kept, "kept inbox key")
            except CryptoError as exc:
                raise ResumeError(f"the kept inbox key of hand cycle {cycle.number} is "
                                  f"damaged: {exc}") from None

    def _restore_proposal(self) -> None:
        """Take back a kept claim-window proposal that the chain has not placed yet."""
        data = self.keeper.load(PROPOSAL) if self.keeper is not None else None
        if data is None or data in self.frames:
            return
        try:
            _, payload = open_envelope(data, self._keys)
        except ProtocolError:
            return
        if (payload.seat == self.seat and payload.seq == self.chain.next_seq
                and payload.prev == self.chain.head and self.seat in self.speakers):
            self.proposal = data

    def receive(self, data: bytes) -> Step:
        """Check and apply one received envelope; raise :class:`Violation` naming the culprit.

        On a violation nothing changes, so the caller may drop the envelope and go on.
        """
        index = self.chain.next_seq
        try:
            envelope, payload = open_envelope(data, self._keys)
        except ProtocolError as exc:
            rule = "bad-signature" if isinstance(exc, BadSignature) else "bad-envelope"
            raise Violation(rule, str(exc), seat=exc.seat, index=index) from None
        if self._lost_race(payload, envelope):
            raise Violation("lost-race", "another seat's message took this place in the "
                            "chain first", seat=payload.seat, index=payload.seq)
        if self.finished:
            raise Violation("after-match-end", "envelope received after the match ended",
                            seat=payload.seat, index=index)
        seat, kind = self._round.current, self._round.kind
        speakers = self.speakers
        own = data == self.proposal and self.proposal is not None
        if payload.seat in speakers and (payload.seat != self.seat or own):
            seat = payload.seat
        starting = self._starts_recovery(payload)
        if starting:
            seat, kind = payload.seat, "recover"
        complaining = not starting and self._starts_complaint(payload)
        if complaining:
            seat, kind = payload.seat, "complain"
        try:
            self.chain.check(payload, envelope, expected_seat=seat)
        except ChainError as exc:
            raise _chain_violation(exc, accepting=kind == "accept") from None
        if payload.seat == self.seat and not own:
            raise Violation("own-seat", "envelope signed with this peer's own seat key",
                            seat=payload.seat, index=index)
        if payload.kind != kind:
            raise Violation("wrong-kind", f"expected a {kind!r} message, got {payload.kind!r}",
                            seat=payload.seat, index=index)
        step = Step()
        window = (speakers | {seat}, self.chain.head) if len(speakers) > 1 or complaining \
            else None
        saved = self._round
        if starting:
            step.events.append(self._begin_recovery(payload.seat))
        if complaining:
            self._round = _Round("complain", [payload.seat])
        try:
            step.events.extend(self._apply(payload, index))  # validates fully before any change
        except Violation:
            if starting or complaining:
                self._round, self.recovery = saved, None
            raise
        self.chain.accept(payload, envelope, expected_seat=seat)
        self.frames.append(data)
        if window is not None:
            self.windows[index] = window
        if self.proposal is not None:
            if not own and not self._complaint_due():  # a complaint is made again in its turn
                step.events.append(ProposalDropped(self.proposal))
            self.proposal = None
        step.extend(self._advance())
        return step

    def decide(self, action: Action) -> Step:
        """Send the local seat's action; :class:`GameError` (an ``IllegalMove``) if not legal.

        The cards the action uses (``engine.card_use``) are proven as SPEC §9.6 says: shown and
        kept cards with the owner's reveal token, face-down cards by their deck positions, a card
        passed to another seat with tokens sealed to that seat.
        """
        if not self.needs_decision:
            raise GameError("it is not this seat's turn to choose an action")
        if action not in self.engine.legal_actions():
            raise GameError(f"{action} is not a legal action now")
        return self._send_action(action)

    def _send_action(self, action: Action) -> Step:
        body = self._action_body(action)
        step = Step()
        assert self.seat is not None
        if self.speakers - {self.seat}:
            # a claim window: the hub orders the competing messages (SPEC §9.2)
            self.proposal = self._propose("action", body)
            if self.keeper is not None:  # kept before it is sent: never two for one place
                self.keeper.keep(PROPOSAL, self.proposal)
            step.outgoing.append(self.proposal)
            return step
        try:
            step.events.extend(self._emit("action", body, step))
        except Violation as exc:  # the engine's card_use disagrees with itself
            raise GameError(f"{action} cannot be sent: {exc}") from None
        step.extend(self._advance())
        return step

    def _propose(self, kind: str, body: dict[str, Any]) -> bytes:
        """Seal a message of the local seat without accepting it, after checking that this
        table would accept it."""
        assert self.seat is not None and self._identity is not None
        index = self.chain.next_seq
        payload = Payload(table_id=self.table_id, seq=index, prev=self.chain.head,
                          seat=self.seat, kind=kind, body=body)
        trial = self.engine.copy()
        saved = (self.engine, self._cycle, _snapshot(self._cycle), self._round.done)
        try:
            self.engine = trial
            self._apply(payload, index)
        except Violation as exc:
            raise GameError(f"the action cannot be sent: {exc}") from None
        finally:
            self.engine, self._cycle, snapshot, self._round.done = saved
            if self._cycle is not None and snapshot is not None:
                _restore(self._cycle, snapshot)
        return seal(payload, self._identity).encode()

    # ------------------------------------------------------------------ dropouts (SPEC §9.13)

    def can_recover(self, seat: int) -> bool:
        """Whether the local seat may begin the recovery of ``seat``, the seat the table waits
        for: the local seat is the hub's (:data:`HUB_SEAT`), the table shares its hand keys,
        nobody has dropped out yet, the match has begun (past the ``accept`` round) and is not
        over, ``seat`` is another seat, and the hub owes no complaint (SPEC §9.13.4)."""
        return (self.seat == HUB_SEAT and seat != self.seat
                and self._recoverable(seat) and not self._owes_complaint())

    def _recoverable(self, seat: int) -> bool:
        return (self.genesis.shares_keys and not self.finished and self.dropped is None
                and not self._round.complete and self._round.kind not in ("accept", "recover")
                and self._round.current == seat)

    def opens_recovery(self, data: bytes) -> bool:
        """Whether ``data`` is a validly signed ``recover`` of the hub that would begin the
        recovery of the seat the table waits for, in place of that seat's message (SPEC
        §9.13.5)."""
        try:
            _, payload = open_envelope(data, self._keys)
        except ProtocolError:
            return False
        return self._starts_recovery(payload)

    def recover_sender(self, data: bytes) -> tuple[int, object, int] | None:
        """``(signer, named, seq)`` when ``data`` is a validly signed ``recover`` of this
        table, whatever its position and whoever signed it (``named``: the ``seat`` of its
        body, as sent); ``None`` otherwise. A hub uses it to tell a joiner's attempt to begin a
        recovery, which only the hub may do (:meth:`opens_recovery`), from other envelopes; a
        seat, to tell a recovery of itself at a place its own envelope holds."""
        try:
            _, payload = open_envelope(data, self._keys)
        except ProtocolError:
            return None
        if payload.kind != "recover" or payload.table_id != self.table_id:
            return None
        body = payload.body
        named = body.get("seat") if isinstance(body, dict) else None
        return payload.seat, named, payload.seq

    def _starts_recovery(self, payload: Payload) -> bool:
        body = payload.body
        return (payload.kind == "recover" and payload.seat == HUB_SEAT
                and isinstance(body, dict) and type(body.get("seat")) is int
                and self._recoverable(body["seat"]) and payload.seat != body["seat"])

    def recover(self, seat: int) -> Step:
        """Begin the recovery of ``seat``, which stopped answering (its link died or its
        timeout passed): send the local seat's ``recover`` message, which every other seat
        follows with its own (SPEC §9.13). :class:`RuntimeError` unless :meth:`can_recover`."""
        if not self.can_recover(seat):
            raise RuntimeError(f"seat {seat}'s key cannot be recovered now")
        assert self.seat is not None
        step = Step()
        step.events.append(self._begin_recovery(self.seat))
        step.events.extend(self._emit("recover", self._automatic_body(), step))
        step.extend(self._advance())
        return step

    def _begin_recovery(self, by: int) -> Event:
        """Open the ``recover`` round: the dropped seat is the one the round waited for."""
        dropped, kind = self._round.current, self._round.kind
        self.recovery = Recovery(dropped, kind, by, self.chain.next_seq)
        self._interrupted = self._round
        others = [s for s in range(self.players) if s not in (dropped, by)]
        self._round = _Round("recover", [by, *others])
        self.proposal = None
        return SeatDropped(dropped, kind, by)

    # ------------------------------------------------------------------ complaints (SPEC §9.13.4)

    def _starts_complaint(self, payload: Payload) -> bool:
        body = payload.body
        return (payload.kind == "complain" and isinstance(body, dict)
                and type(body.get("dealer")) is int
                and self._may_complain(payload.seat, body["dealer"]))

    def _may_complain(self, holder: int, dealer: int) -> bool:
        """Whether ``holder`` may complain now about its share of ``dealer``'s key: it is
        ``holder``'s turn, the current cycle shares its keys, ``dealer``'s sharing is in the
        chain, ``holder`` is another seat of the cycle and has signed nothing since it, and the
        match is going on (SPEC §9.13.4)."""
        cycle = self._cycle
        if (cycle is None or not cycle.sharing or self.finished or self._round.complete
                or self._round.current != holder or holder == dealer
                or holder not in cycle.holders or dealer not in cycle.dealt_at):
            return False
        since = range(cycle.dealt_at[dealer] + 1, self.chain.next_seq)
        return all(self.chain.seat_of(i) != holder for i in since)

    def _owes_complaint(self) -> bool:
        """Whether the local seat holds a wrong share of this cycle: it signs nothing but its
        ``complain`` (SPEC §9.13.4)."""
        return self._cycle is not None and self._cycle.bad_box is not None

    def _complaint_due(self) -> bool:
        """Whether the local seat owes a ``complain`` and has not been able to place it yet."""
        cycle = self._cycle
        return (cycle is not None and cycle.bad_box is not None and self.seat is not None
                and self._may_complain(self.seat, cycle.bad_box))

    def _propose_complaint(self) -> bytes:
        """The local seat's ``complain`` about its share of ``cycle.bad_box``'s key, in its
        turn: the shared point of that one box with its proof (SPEC §9.13.4). It is a
        :attr:`proposal`, placed by the hub (which sends it back); one that a claim beats in a
        claim window is made again when the seat's turn comes back."""
        assert self.seat is not None and self._identity is not None
        cycle = self._require_cycle()
        dealer = cycle.bad_box
        assert dealer is not None and cycle.my_inbox is not None
        dealt = cycle.dealt[dealer]
        box = dealt.boxes[_box_index(self.seat, dealer)]
        opening = InboxKey(cycle.my_inbox).open_box(
            dealt.ephemeral, box, self._ctx(self.seat, f"open-{dealer}"), self._rng)
        payload = Payload(table_id=self.table_id, seq=self.chain.next_seq, prev=self.chain.head,
                          seat=self.seat, kind="complain",
                          body={"dealer": dealer, "open": opening.to_wire()})
        return seal(payload, self._identity).encode()

    def _on_complain(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        """A complaint of holder ``seat``: its opening must verify and open its box to a share
        that fails the dealer's commitments, else ``bad-complaint`` names the complainant.
        A proven one ends the match with the dealer at fault once it is in the chain."""
        cycle = self._require_cycle()
        raw = _field(body, "open", seat, index, {"dealer", "open"})
        dealer: int = body["dealer"]
        dealt = cycle.dealt[dealer]
        box = dealt.boxes[_box_index(seat, dealer)]
        try:
            opening = BoxOpening.from_wire(raw)
            verify_opening(opening, cycle.inboxes[seat], dealt.ephemeral, box,
                           self._ctx(seat, f"open-{dealer}"))
        except CryptoError as exc:
            raise Violation("bad-complaint", str(exc), seat=seat, index=index) from None
        share = share_in_box(dealt, self.table_id, cycle.number, dealer, seat,
                             _box_index(seat, dealer), cycle.inboxes[seat], opening.shared)
        if share_is_valid(dealt.all_commitments(cycle.publics[dealer]), seat, share):
            raise Violation("bad-complaint", f"the box of seat {dealer} for seat {seat} opens "
                            "to a share that matches its commitments", seat=seat, index=index)
        dealt_at = cycle.dealt_at[dealer]
        self.complaint = Complaint(seat, dealer, index, dealt_at)
        self._proven = Violation(
            "bad-key-share", f"seat {dealer} dealt seat {seat} a share of its hand key that does "
            f"not match its commitments, as seat {seat}'s complaint in envelope {index} proves",
            seat=dealer, index=dealt_at)
        return []

    def is_lost_race(self, data: bytes) -> bool:
        """Whether ``data`` is a validly signed envelope that lost a claim window race: an
        eligible seat's message for a chain index that another eligible seat's envelope took
        first (harmless: drop it)."""
        try:
            envelope, payload = open_envelope(data, self._keys)
        except ProtocolError:
            return False
        return self._lost_race(payload, envelope)

    def _lost_race(self, payload: Payload, envelope: Envelope) -> bool:
        window = self.windows.get(payload.seq)
        if window is None or payload.table_id != self.table_id:
            return False
        seats, prev = window
        return (payload.seat in seats and payload.prev == prev
                and payload.seat != self.chain.seat_of(payload.seq))

    # ------------------------------------------------------------------ internals: flow

    def _require_cycle(self) -> _Cycle:
        if self._cycle is None:
            raise RuntimeError("no deck cycle is in progress")
        return self._cycle

    def _advance(self) -> Step:
        """After a message: finish the round if complete, then run automatic local messages."""
        step = Step()
        while self._round.complete and not self.finished:
            step.events.extend(self._finish_round())
        step.extend(self._run_automatic())
        return step

    def _run_automatic(self) -> Step:
        step = Step()
        if self._replaying:
            return step  # the transcript holds what the local seat sent
        if self._complaint_due():  # the local seat says nothing else (SPEC §9.13.4)
            if self.proposal is None:
                self.proposal = self._propose_complaint()
                if self.keeper is not None:  # kept before it is sent: never two for one place
                    self.keeper.keep(PROPOSAL, self.proposal)
                step.outgoing.append(self.proposal)
            return step
        while (not self.finished and self.seat is not None and self._round.current == self.seat
               and self._round.kind != "action"):
            step.events.extend(self._emit(self._round.kind, self._automatic_body(), step))
            while self._round.complete and not self.finished:
                step.events.extend(self._finish_round())
        return step

    def _emit(self, kind: str, body: dict[str, Any], step: Step) -> list[Event]:
        """Seal, apply locally and queue one message of the local seat."""
        assert self.seat is not None and self._identity is not None
        index = self.chain.next_seq
        payload = Payload(table_id=self.table_id, seq=index, prev=self.chain.head,
                          seat=self.seat, kind=kind, body=body)
        envelope = seal(payload, self._identity)
        events = self._apply(payload, index)
        self.chain.accept(payload, envelope, expected_seat=self.seat)
        data = envelope.encode()
        self.frames.append(data)
        step.outgoing.append(data)
        return events

    def _apply(self, payload: Payload, index: int) -> list[Event]:
        """Validate and apply a message of the expected seat and kind; advance the round."""
        handler = getattr(self, f"_on_{payload.kind}")
        events: list[Event] = handler(payload.seat, payload.body, index)
        self._round.done += 1
        return events

    def _finish_round(self) -> list[Event]:
        """The current round is complete: compute what follows and open the next round."""
        kind = self._round.kind
        events: list[Event] = []
        if kind == "accept":
            return self._enter_engine_phase()
        cycle = self._require_cycle()
        if kind == "key":
            cycle.joint = crypto.joint_key(cycle.publics[s] for s in cycle.holders)
            cycle.deck = crypto.initial_deck(self.engine.deck, cycle.joint)
            self._round = _Round("shuffle", list(cycle.holders))
            return events
        if kind == "shuffle":
            cycle.shuffled = True
            self.engine.begin_hand()
            return self._enter_engine_phase()
        if kind == "tokens":
            events.extend(self._complete_chance())
            return events + self._enter_engine_phase()
        if kind == "action":
            return self._enter_engine_phase()
        if kind == "reveal":
            events.extend(self._end_cycle())
            cycle.audited = True
            return events + self._enter_engine_phase()
        if kind == "result":
            return events + self._after_results()
        if kind == "recover":
            return self._after_recovery()
        if kind == "complain":
            assert self._proven is not None
            self.finished = True  # nothing more is accepted: the dealer is at fault
            raise self._proven
        raise AssertionError(kind)

    def _enter_engine_phase(self) -> list[Event]:
        """Open the round the live engine's phase calls for."""
        phase = self.engine.phase
        cycle = self._cycle
        if phase is Phase.SHUFFLE:
            if cycle is not None and cycle.shuffled and not cycle.audited:
                self._round = _Round("reveal", self._unrevealed(cycle))
                return []
            holders = tuple(s for s in range(self.players) if s != self.bot_seat)
            self._cycle = _Cycle(self._cycle_count, holders=holders,
                                 sharing=self.genesis.shares_keys and self.recovery is None)
            self._cycle_count += 1
            self._round = _Round("key", list(holders))
            return [HandStarted(self.engine.hand_number, self._cycle.number)]
        assert cycle is not None
        if phase is Phase.CHANCE:
            steps = self.engine.pending_chance()
            cycle.pending = steps
            cycle.pending_positions = tuple(self._deck_position(cycle, s) for s in steps)
            speakers = [s for s in range(self.players) if self._duties(s)]
            self._round = _Round("tokens", speakers)
            return []
        if phase is Phase.ACTION:
            self._round = _Round("action", [self.engine.to_act])
            if self.engine.to_act == self.bot_seat:
                return self._bot_move(cycle)
            return []
        if phase is Phase.HAND_OVER:
            if not cycle.audited:
                self._round = _Round("reveal", self._unrevealed(cycle))
            else:
                self._round = _Round("result", [s for s in range(self.players)
                                                if s != self.bot_seat])
            return []
        raise AssertionError(f"unexpected engine phase {phase}")

    @staticmethod
    def _unrevealed(cycle: _Cycle) -> list[int]:
        """The speakers of ``cycle``'s ``reveal`` round: its holders whose secret is not known
        yet (a rebuilt key is not revealed again)."""
        return [s for s in cycle.holders if s not in cycle.secrets]

    # ------------------------------------------------------------------ internals: messages

    def _automatic_body(self) -> dict[str, Any]:
        kind = self._round.kind
        cycle = self._cycle
        assert self.seat is not None and self._rng is not None
        if kind == "accept":
            return {}
        assert cycle is not None
        if kind == "key":
            cycle.my_key = crypto.HandKey.generate(self._rng)
            if self.keeper is not None:  # kept before its first use on the wire
                self.keeper.keep(hand_name(cycle.number), cycle.my_key.secret.to_bytes())
            share = cycle.my_key.share(self._ctx(self.seat, "key"), self._rng)
            if not cycle.sharing:
                return {"share": share.to_wire()}
            inbox = InboxKey.generate(self._rng)
            cycle.my_inbox = inbox.secret
            if self.keeper is not None:
                self.keeper.keep(inbox_name(cycle.number), inbox.secret.to_bytes())
            published = inbox.publish(self._ctx(self.seat, "inbox"), self._rng)
            return {"share": share.to_wire(), "inbox": published.to_wire()}
        if kind == "shuffle":
            assert cycle.deck is not None and cycle.joint is not None
            out, proof = crypto.shuffle(cycle.deck, cycle.joint, self._ctx(self.seat, "shuffle"),
                                        self._rng)
            body: dict[str, Any] = {"deck": out.to_wire(), "proof": proof.to_wire()}
            if cycle.sharing:
                assert cycle.my_key is not None
                inboxes = {s: p for s, p in cycle.inboxes.items() if s != self.seat}
                body["keyshares"] = deal_key(cycle.my_key.secret, self.table_id, cycle.number,
                                             self.seat, inboxes, self._rng).to_wire()
            return body
        if kind == "tokens":
            public: list[list[Any]] = []
            sealed: list[list[Any]] = []
            for duty in self._duties(self.seat):
                tok = self._make_token(duty.position, f"deal-{duty.position}")
                if duty.public:
                    public.append([duty.position, tok.to_wire()])
                for recipient in duty.recipients:
                    box = crypto.seal_token(
                        tok, self.genesis.seats[recipient].x25519,
                        self._ctx(self.seat, f"show-{duty.position}-{recipient}"), self._rng)
                    sealed.append([duty.position, recipient, box])
            return {"public": public, "sealed": sealed}
        if kind == "reveal":
            assert cycle.my_key is not None
            return {"secret": cycle.my_key.secret.to_bytes()}
        if kind == "result":
            return self._my_result()
        if kind == "recover":
            return self._recover_body()
        raise AssertionError(kind)

    def _recover_body(self) -> dict[str, Any]:
        assert self.seat is not None and self.dropped is not None
        cycle = self._cycle
        share = secret = None
        if self._rebuilds(cycle):
            assert cycle is not None
            share = cycle.my_shares[self.dropped].to_bytes()
        if self._reveals(cycle, self.seat):
            assert cycle is not None and cycle.my_key is not None
            secret = cycle.my_key.secret.to_bytes()
        body: dict[str, Any] = {"seat": self.dropped, "share": share, "secret": secret}
        if self.genesis.dropout == "bot":
            body["tokens"] = [[p, self._make_token(p, f"bot-{p}").to_wire()]
                              for p in self._bot_openings(cycle, self.seat)]
        return body

    def _bot_openings(self, cycle: _Cycle | None, seat: int) -> list[int]:
        """The positions of the dropped seat's hand whose share of ``seat`` is not public: with
        ``dropout`` = ``bot``, ``seat``'s ``recover`` publishes its token of each, so that the
        whole hand the bot takes over is open to every participant (SPEC §9.13.7)."""
        if not self._rebuilds(cycle):
            return []
        assert cycle is not None and self.dropped is not None
        return sorted(p for p in cycle.hand_positions.get(self.dropped, [])
                      if seat not in cycle.public.get(p, set()))

    def _rebuilds(self, cycle: _Cycle | None) -> bool:
        """Whether the recovery rebuilds the dropped seat's key of ``cycle``: cards may have
        been dealt with it (the shuffle round is complete) and it is neither audited nor
        revealed."""
        return (cycle is not None and cycle.shuffled and not cycle.audited
                and self.dropped not in cycle.secrets)

    def _reveals(self, cycle: _Cycle | None, seat: int) -> bool:
        """Whether ``seat``'s ``recover`` must carry its own hand secret: with the ``forfeit``
        policy, for a dealt cycle not yet audited whose secret that seat has not revealed."""
        return (self.genesis.dropout == "forfeit" and cycle is not None and cycle.shuffled
                and not cycle.audited and seat not in cycle.secrets)

    def _ctx(self, seat: int, step: str) -> ProofContext:
        return ProofContext(self.table_id, self._require_cycle().number, seat, step)

    def _on_accept(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        if body:
            raise Violation("bad-body", "an accept message has an empty body", seat=seat,
                            index=index)
        return [SeatAccepted(seat)]

    def _on_key(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        cycle = self._require_cycle()
        sharing = cycle.sharing
        raw = _field(body, "share", seat, index, {"share", "inbox"} if sharing else {"share"})
        try:
            share = crypto.KeyShare.from_wire(raw)
            crypto.verify_key_share(share, self._ctx(seat, "key"))
            inbox = self._checked_inbox(cycle, seat, body["inbox"]) if sharing else None
        except CryptoError as exc:
            raise Violation("bad-key", str(exc), seat=seat, index=index) from None
        cycle.publics[seat] = share.public
        if inbox is not None:
            cycle.inboxes[seat] = inbox
        return []

    def _checked_inbox(self, cycle: _Cycle, seat: int, raw: object) -> crypto.Point:
        """``seat``'s inbox key ``[E, c, s]``: its proof of possession verified in step
        ``inbox``, and ``E`` unlike every inbox key published before it in this cycle (SPEC
        §9.13.3); :class:`CryptoError` otherwise."""
        if self._bare_inboxes:
            public = crypto.Point.from_bytes(raw, "inbox key")
        else:
            published = PublishedInbox.from_wire(raw)
            verify_inbox(published, self._ctx(seat, "inbox"))
            public = published.public
        twin = next((s for s, e in cycle.inboxes.items() if e == public), None)
        if twin is not None:
            raise CryptoError(f"the inbox key repeats the one of seat {twin}", seat=seat,
                              step="inbox")
        return public

    def _on_shuffle(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        cycle = self._require_cycle()
        assert cycle.deck is not None and cycle.joint is not None
        sharing = cycle.sharing
        fields = {"deck", "proof", "keyshares"} if sharing else {"deck", "proof"}
        raw_deck = _field(body, "deck", seat, index, fields)
        raw_proof = body["proof"]
        try:
            out = crypto.EncryptedDeck.from_wire(raw_deck, self.engine.deck)
            proof = crypto.ShuffleProof.from_wire(raw_proof, len(self.engine.deck))
            crypto.verify_shuffle(cycle.deck, out, cycle.joint, proof, self._ctx(seat, "shuffle"))
        except CryptoError as exc:
            raise Violation("bad-shuffle", str(exc), seat=seat, index=index) from None
        mine: crypto.Scalar | None = None
        dealt: DealtKey | None = None
        if sharing:
            try:
                dealt = DealtKey.from_wire(body["keyshares"], self.players - 1)
            except CryptoError as exc:
                raise Violation("bad-key-share", str(exc), seat=seat, index=index) from None
            mine = self._open_my_share(cycle, seat, dealt)
        cycle.deck = out
        if dealt is not None:
            cycle.dealt[seat] = dealt
            cycle.dealt_at[seat] = index
        if mine is not None:
            cycle.my_shares[seat] = mine
        elif dealt is not None and self._holds_share(cycle, seat) and cycle.bad_box is None:
            cycle.bad_box = seat  # only this seat can tell: it complains (SPEC §9.13.4)
        return []

    def _holds_share(self, cycle: _Cycle, dealer: int) -> bool:
        """Whether the local seat holds a share of ``dealer``'s key it can open."""
        return self.seat is not None and self.seat != dealer and cycle.my_inbox is not None

    def _open_my_share(self, cycle: _Cycle, dealer: int, dealt: DealtKey) -> crypto.Scalar | None:
        """The local seat's share of ``dealer``'s key, opened and checked against the dealer's
        commitments; ``None`` if it is wrong or the local seat holds none."""
        if not self._holds_share(cycle, dealer):
            return None
        assert self.seat is not None and cycle.my_inbox is not None
        return open_share(dealt, cycle.publics[dealer], self.table_id, cycle.number, dealer,
                          self.seat, _box_index(self.seat, dealer), cycle.my_inbox)

    def _on_tokens(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        cycle = self._require_cycle()
        raw_public = _field(body, "public", seat, index, {"public", "sealed"})
        raw_sealed = body["sealed"]
        duties = self._duties(seat)
        want_public = [d.position for d in duties if d.public]
        want_sealed = [(d.position, r) for d in duties for r in d.recipients]
        if not isinstance(raw_public, list) or not isinstance(raw_sealed, list):
            raise Violation("bad-body", "tokens message fields must be lists", seat=seat,
                            index=index)
        got_public = [_pair_position(item, seat, index) for item in raw_public]
        if got_public != want_public:
            raise Violation("wrong-tokens",
                            f"public tokens for positions {got_public}, expected {want_public}",
                            seat=seat, index=index)
        got_sealed = [_sealed_key(item, seat, index) for item in raw_sealed]
        if got_sealed != want_sealed:
            raise Violation("wrong-tokens",
                            f"sealed tokens for {got_sealed}, expected {want_sealed}",
                            seat=seat, index=index)
        assert cycle.deck is not None
        received: list[tuple[int, crypto.Point]] = []
        published = [position for position, _ in raw_public]
        for position, raw in raw_public:
            try:
                tok = crypto.RevealToken.from_wire(raw)
                crypto.verify_token(cycle.publics[seat], cycle.deck[position], tok,
                                    self._ctx(seat, f"deal-{position}"))
            except CryptoError as exc:
                raise Violation("bad-token", str(exc), seat=seat, index=index) from None
            received.append((position, tok.t))
        for position, recipient, box in raw_sealed:
            if recipient != self.seat:
                continue
            assert self._x25519 is not None
            try:
                tok = crypto.open_token(
                    box, self._x25519, self._ctx(seat, f"show-{position}-{recipient}"))
                crypto.verify_token(cycle.publics[seat], cycle.deck[position], tok,
                                    self._ctx(seat, f"deal-{position}"))
            except CryptoError as exc:
                raise Violation("bad-sealed-token", str(exc), seat=seat, index=index) from None
            received.append((position, tok.t))
        for position, share in received:
            cycle.tokens.setdefault(position, {})[seat] = share
        for position in published:
            cycle.public.setdefault(position, set()).add(seat)
        return []

    def _action_body(self, action: Action) -> dict[str, Any]:
        """The body of the local seat's ``action`` message (SPEC §9.4, §9.6)."""
        assert self.seat is not None and self._rng is not None
        cycle = self._require_cycle()
        me = self.seat
        use = self.engine.card_use(action)
        wire = _mask(action, use)
        body: dict[str, Any] = {"action": wire.to_wire()}
        if use.empty:
            return body
        if _single_shape(wire, use):
            assert action.card is not None
            position = self._my_position_of(action.card)
            if set(self._missing(cycle, position)) <= {me}:
                body["position"] = position
                if me not in cycle.public.get(position, set()):
                    body["token"] = self._make_token(position, f"play-{position}").to_wire()
                return body
        uses: list[list[Any]] = []
        taken: set[int] = set()
        for c in (*use.shown, *use.kept):
            position = self._my_position_of(c, exclude=taken)
            taken.add(position)
            shares: list[list[Any]] = []
            for s in self._missing(cycle, position):
                shares.append([s, self._share_token(cycle, position, s, "play").to_wire()])
            uses.append([position, shares])
        for c in use.hidden:
            position = self._my_position_of(c, exclude=taken, in_hand=True)
            taken.add(position)
            uses.append([position, []])
        if use.passed:
            to = use.to
            if to is None or not 0 <= to < self.players or to == me:
                raise GameError(f"{action} passes cards to no other seat of this table")
            for c in use.passed:
                position = self._my_position_of(c, exclude=taken, in_hand=True)
                taken.add(position)
                if to == self.bot_seat:  # opened to everyone: the bot's hand is public
                    uses.append([position, [
                        [s, self._share_token(cycle, position, s, "play").to_wire()]
                        for s in self._missing(cycle, position)]])
                    continue
                boxes: list[list[Any]] = []
                for s in self._missing(cycle, position):
                    if s == to:
                        continue
                    tok = self._share_token(cycle, position, s, "pass")
                    box = crypto.seal_token(tok, self.genesis.seats[to].x25519,
                                            self._ctx(me, f"pass-{position}-{to}-{s}"), self._rng)
                    boxes.append([s, box])
                uses.append([position, boxes])
        body["uses"] = uses
        return body

    def _share_token(self, cycle: _Cycle, position: int, seat: int,
                     step: str) -> crypto.RevealToken:
        """The token of ``seat``'s share of ``position`` that the local seat publishes or passes:
        its own (made now in ``<step>-<position>``), or a ``pass`` token it holds for another."""
        if seat == self.seat:
            return self._make_token(position, f"{step}-{position}")
        held = cycle.held.get(position, {}).get(seat)
        if held is None:
            raise GameError(f"this seat does not hold seat {seat}'s share of position {position}")
        return held

    def _missing(self, cycle: _Cycle, position: int) -> list[int]:
        """Seats whose share of ``position`` is not public yet, in seat order."""
        public = cycle.public.get(position, set())
        return [s for s in cycle.holders if s not in public and s != self.bot_seat]

    def _showable(self, cycle: _Cycle, seat: int, position: int) -> bool:
        """Whether ``seat`` may show ``position`` from its hand: dealt to (or passed into) it, or
        a public card in no other seat's hand (a public card the engine moved into a hand)."""
        if position in cycle.hand_positions.get(seat, []):
            return True
        if cycle.deck is None or not 0 <= position < len(cycle.deck):
            return False
        if self._missing(cycle, position) or position not in cycle.known:
            return False
        return not any(position in hand for s, hand in cycle.hand_positions.items() if s != seat)

    def _on_action(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        cycle = self._require_cycle()
        if "uses" in body:
            allowed = {"action", "uses"}
        elif "position" in body or "token" in body:
            allowed = {"action", "position", "token"}
        else:
            allowed = {"action"}
        raw_action = _field(body, "action", seat, index, allowed)
        try:
            wire = Action.from_wire(raw_action)
            use = self.engine.card_use(wire)
        except GameError as exc:
            raise Violation("bad-action", str(exc), seat=seat, index=index) from None
        claim = self._round.kind == "action" and seat != self._round.current
        secret_slots = sum(1 for c in _slots(wire) if c == HIDDEN)
        if secret_slots != len(use.hidden) + len(use.passed):
            raise Violation("bad-action", f"the action has {secret_slots} hidden cards, its card "
                            f"use {len(use.hidden) + len(use.passed)}", seat=seat, index=index)
        if "uses" not in body and (use.empty or _single_shape(wire, use)):
            if use.empty:
                if set(body) != {"action"}:
                    raise Violation("bad-body", "an action without a card has only the 'action' "
                                    "field", seat=seat, index=index)
                plan = _Plan()
            else:
                plan = self._check_single(cycle, seat, body, wire, index)
        else:
            if "uses" not in body:
                raise Violation("bad-body", "an action moving these cards needs the 'uses' field",
                                seat=seat, index=index)
            plan = self._check_uses(cycle, seat, body["uses"], wire, use, index)
        live = _fill(wire, [plan.cards.get(p, HIDDEN) for p in plan.secret])
        try:
            if claim:
                self.engine.apply_claim(seat, live)
            else:
                self.engine.apply(live)
        except GameError as exc:
            rule = getattr(exc, "rule", "illegal-move")
            raise Violation(rule, str(exc), seat=seat, index=index) from None
        self._commit_plan(cycle, seat, plan, use.to)
        cycle.actions.append(_Move(index, seat, wire, tuple(plan.secret), claim))
        return [ActionPlayed(seat, live, index)]

    def _check_single(self, cycle: _Cycle, seat: int, body: dict[str, Any], wire: Action,
                      index: int) -> _Plan:
        """The single-card body ``{action, position[, token]}`` (unchanged since version 1.0)."""
        assert wire.card is not None
        raw_position = body.get("position")
        if type(raw_position) is not int or not self._showable(cycle, seat, raw_position):
            raise Violation("not-in-hand",
                            f"position {raw_position!r} is not a card of this seat's hand",
                            seat=seat, index=index)
        position: int = raw_position
        if not set(self._missing(cycle, position)) <= {seat}:
            raise Violation("bad-body", f"position {position} needs forwarded shares: the "
                            "'uses' form is required", seat=seat, index=index)
        plan = _Plan()
        shares = dict(cycle.tokens.get(position, {}))
        if "token" in body:
            share = self._verified(cycle, seat, seat, position, f"play-{position}",
                                   body["token"], "bad-token", index)
            shares[seat] = share
            plan.shares.append((position, seat, share))
        elif seat not in cycle.public.get(position, set()):
            raise Violation("missing-token", "a played card needs its owner's token",
                            seat=seat, index=index)
        self._check_card(cycle, seat, position, shares, wire.card, index)
        plan.shown.append((position, wire.card))
        return plan

    def _check_uses(self, cycle: _Cycle, seat: int, raw: object, wire: Action, use: CardUse,
                    index: int) -> _Plan:
        """The general body ``{action, uses}``: one ``[position, shares]`` per card of the
        card use, in the order shown, kept, hidden, passed (SPEC §9.6)."""
        want = len(use.shown) + len(use.kept) + len(use.hidden) + len(use.passed)
        if (not isinstance(raw, list) or len(raw) != want or not all(
                isinstance(e, list) and len(e) == 2 and type(e[0]) is int
                and isinstance(e[1], list) for e in raw)):
            raise Violation("bad-body", f"'uses' must be {want} entries [position, shares]",
                            seat=seat, index=index)
        positions = [e[0] for e in raw]
        if len(set(positions)) != len(positions):
            raise Violation("bad-body", "a position appears twice in 'uses'", seat=seat,
                            index=index)
        if use.empty or (_single_shape(wire, use)
                         and set(self._missing(cycle, positions[0])) <= {seat}):
            raise Violation("bad-body", "this action must use the single-card form", seat=seat,
                            index=index)
        plan = _Plan()
        entries = iter(raw)
        for kept, cards in ((False, use.shown), (True, use.kept)):
            for c in cards:
                position, items = next(entries)
                if not self._showable(cycle, seat, position):
                    raise Violation("not-in-hand", f"position {position} is not a card of this "
                                    "seat's hand", seat=seat, index=index)
                missing = self._missing(cycle, position)
                got = [_share_seat(item, seat, index) for item in items]
                if got != missing:
                    raise Violation("wrong-tokens", f"shares of seats {got} for position "
                                    f"{position}, expected {missing}", seat=seat, index=index)
                shares = dict(cycle.tokens.get(position, {}))
                for owner, raw_token in items:
                    if owner == seat:
                        share = self._verified(cycle, seat, seat, position, f"play-{position}",
                                               raw_token, "bad-token", index)
                    else:
                        share = self._verified(cycle, seat, owner, position, f"pass-{position}",
                                               raw_token, "bad-forwarded-token", index)
                    shares[owner] = share
                    plan.shares.append((position, owner, share))
                self._check_card(cycle, seat, position, shares, c, index)
                (plan.kept if kept else plan.shown).append((position, c))
        for _ in use.hidden:
            position, items = next(entries)
            self._check_own(cycle, seat, position, index)
            if items:
                raise Violation("bad-body", "a face-down card carries no shares", seat=seat,
                                index=index)
            plan.hidden.append(position)
            self._learn_secret(cycle, seat, position, plan)
        if use.passed:
            to = use.to
            if to is None or not 0 <= to < self.players or to == seat:
                raise Violation("bad-action", "the action passes cards to no other seat",
                                seat=seat, index=index)
            for _ in use.passed:
                position, items = next(entries)
                self._check_own(cycle, seat, position, index)
                if to == self.bot_seat:
                    self._open_to_bot(cycle, seat, position, items, plan, index)
                    continue
                want_seats = [s for s in self._missing(cycle, position) if s != to]
                got = [_box_seat(item, seat, index) for item in items]
                if got != want_seats:
                    raise Violation("wrong-tokens", f"sealed shares of seats {got} for position "
                                    f"{position}, expected {want_seats}", seat=seat, index=index)
                plan.passed.append(position)
                if to == self.seat and seat != self.seat:
                    self._open_pass(cycle, seat, position, items, plan, index)
                else:
                    self._learn_secret(cycle, seat, position, plan)
        return plan

    def _open_to_bot(self, cycle: _Cycle, seat: int, position: int, items: list[Any],
                     plan: _Plan, index: int) -> None:
        """A card passed to the bot's seat: its missing shares are published in the clear
        (``[seat, token]`` as for a shown card), so that every participant learns it."""
        missing = self._missing(cycle, position)
        got = [_share_seat(item, seat, index) for item in items]
        if got != missing:
            raise Violation("wrong-tokens", f"shares of seats {got} for position {position} "
                            f"passed to the bot's seat, expected {missing}", seat=seat,
                            index=index)
        shares = dict(cycle.tokens.get(position, {}))
        for owner, raw_token in items:
            step, rule = (("play", "bad-token") if owner == seat
                          else ("pass", "bad-forwarded-token"))
            share = self._verified(cycle, seat, owner, position, f"{step}-{position}",
                                   raw_token, rule, index)
            shares[owner] = share
            plan.shares.append((position, owner, share))
        try:
            plan.cards[position] = self._decrypt_shares(cycle, position, shares)
        except CryptoError as exc:
            raise Violation("undecryptable", str(exc), seat=seat, index=index) from None
        plan.passed.append(position)
        plan.opened.append(position)

    def _check_own(self, cycle: _Cycle, seat: int, position: int, index: int) -> None:
        if position not in cycle.hand_positions.get(seat, []):
            raise Violation("not-in-hand", f"position {position} is not a card of this seat's "
                            "hand", seat=seat, index=index)

    def _learn_secret(self, cycle: _Cycle, seat: int, position: int, plan: _Plan) -> None:
        """A card moved face down or passed: known here if it is the actor's own or public."""
        if position in cycle.known and (seat == self.seat or not self._missing(cycle, position)):
            plan.cards[position] = cycle.known[position]

    def _open_pass(self, cycle: _Cycle, seat: int, position: int, items: list[Any],
                   plan: _Plan, index: int) -> None:
        """The local seat receives ``position``: open every sealed share, decrypt the card."""
        assert self._x25519 is not None and cycle.deck is not None
        shares = dict(cycle.tokens.get(position, {}))
        for owner, box in items:
            try:
                tok = crypto.open_token(box, self._x25519,
                                        self._ctx(seat, f"pass-{position}-{self.seat}-{owner}"))
                crypto.verify_token(cycle.publics[owner], cycle.deck[position], tok,
                                    self._ctx(owner, f"pass-{position}"))
            except CryptoError as exc:
                raise Violation("bad-sealed-token", str(exc), seat=seat, index=index) from None
            shares[owner] = tok.t
            plan.held.append((position, owner, tok))
        assert cycle.my_key is not None and self.seat is not None
        if self.seat not in shares:
            shares[self.seat] = cycle.my_key.partial(cycle.deck[position].a)
        try:
            plan.cards[position] = self._decrypt_shares(cycle, position, shares)
        except CryptoError as exc:
            raise Violation("bad-sealed-token", str(exc), seat=seat, index=index) from None

    def _verified(self, cycle: _Cycle, sender: int, owner: int, position: int, step: str,
                  raw: object, rule: str, index: int) -> crypto.Point:
        """Decode and verify ``owner``'s token for ``position`` made in ``step``."""
        assert cycle.deck is not None
        try:
            tok = crypto.RevealToken.from_wire(raw)
            crypto.verify_token(cycle.publics[owner], cycle.deck[position], tok,
                                self._ctx(owner, step))
        except CryptoError as exc:
            raise Violation(rule, str(exc), seat=sender, index=index) from None
        return tok.t

    def _check_card(self, cycle: _Cycle, seat: int, position: int,
                    shares: dict[int, crypto.Point], card_: Card, index: int) -> None:
        try:
            revealed = self._decrypt_shares(cycle, position, shares)
        except CryptoError as exc:
            raise Violation("undecryptable", str(exc), seat=seat, index=index) from None
        if revealed != card_:
            raise Violation("card-mismatch",
                            f"played {card_} but the card at position {position} "
                            f"is {revealed}", seat=seat, index=index)

    def _commit_plan(self, cycle: _Cycle, seat: int, plan: _Plan, to: int | None) -> None:
        """Record what an accepted action did to the deck positions (SPEC §9.6)."""
        everyone = set(range(self.players))
        for position, owner, share in plan.shares:
            cycle.tokens.setdefault(position, {})[owner] = share
        for position, owner, tok in plan.held:
            cycle.held.setdefault(position, {})[owner] = tok
        hand = cycle.hand_positions.setdefault(seat, [])
        for position, c in (*plan.shown, *plan.kept):
            cycle.public[position] = set(everyone)
            cycle.known[position] = c
            cycle.played[position] = c
        for position, _ in plan.shown:
            if position in hand:
                hand.remove(position)
        for position in plan.hidden:
            hand.remove(position)
        for position in plan.opened:
            cycle.public[position] = set(everyone)
        for position in plan.passed:
            hand.remove(position)
            assert to is not None
            cycle.hand_positions.setdefault(to, []).append(position)
            if position in plan.cards:
                cycle.known[position] = plan.cards[position]

    def _on_reveal(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        cycle = self._require_cycle()
        raw = _field(body, "secret", seat, index, {"secret"})
        try:
            secret = crypto.Scalar.from_bytes(raw, "hand key secret")
        except CryptoError as exc:
            raise Violation("bad-reveal", str(exc), seat=seat, index=index) from None
        if secret * crypto.G != cycle.publics[seat]:
            raise Violation("bad-reveal", "revealed hand key does not match its public key",
                            seat=seat, index=index)
        cycle.secrets[seat] = secret
        return []

    def _on_recover(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        cycle = self._cycle
        bot = self.genesis.dropout == "bot"
        fields = {"seat", "share", "secret", "tokens"} if bot else {"seat", "share", "secret"}
        dropped = _field(body, "seat", seat, index, fields)
        if type(dropped) is not int or dropped != self.dropped:
            raise Violation("bad-body", f"the recovery is of seat {self.dropped}, not "
                            f"{dropped!r}", seat=seat, index=index)
        share = secret = None
        if self._rebuilds(cycle):
            assert cycle is not None and self.dropped is not None
            try:
                share = crypto.Scalar.from_bytes(body["share"], "key share")
            except CryptoError as exc:
                raise Violation("bad-recovery-share", str(exc), seat=seat, index=index) from None
            dealt = cycle.dealt[self.dropped]
            if not share_is_valid(dealt.all_commitments(cycle.publics[self.dropped]), seat,
                                  share):
                raise Violation("bad-recovery-share", f"the published share of seat "
                                f"{self.dropped}'s hand key does not match its commitments",
                                seat=seat, index=index)
        elif body["share"] is not None:
            raise Violation("bad-body", "no share is due in this recovery", seat=seat,
                            index=index)
        if self._reveals(cycle, seat):
            assert cycle is not None
            try:
                secret = crypto.Scalar.from_bytes(body["secret"], "hand key secret")
            except CryptoError as exc:
                raise Violation("bad-reveal", str(exc), seat=seat, index=index) from None
            if secret * crypto.G != cycle.publics[seat]:
                raise Violation("bad-reveal", "revealed hand key does not match its public "
                                "key", seat=seat, index=index)
        elif body["secret"] is not None:
            raise Violation("bad-body", "no secret is due in this recovery", seat=seat,
                            index=index)
        opened = self._check_openings(cycle, seat, body["tokens"], index) if bot else []
        for position, point in opened:
            assert cycle is not None
            cycle.tokens.setdefault(position, {})[seat] = point
            cycle.public.setdefault(position, set()).add(seat)
        if cycle is not None and share is not None:
            cycle.published[seat] = share
        if cycle is not None and secret is not None:
            cycle.secrets[seat] = secret
        return []

    def _check_openings(self, cycle: _Cycle | None, seat: int, raw: object,
                        index: int) -> list[tuple[int, crypto.Point]]:
        """The ``tokens`` of a ``recover`` under ``dropout`` = ``bot``: ``seat``'s tokens of
        :meth:`_bot_openings`, in that order, each checked in step ``bot-<position>``."""
        want = self._bot_openings(cycle, seat)
        if not isinstance(raw, list):
            raise Violation("bad-body", "a recover's tokens are a list", seat=seat, index=index)
        got = [_pair_position(item, seat, index) for item in raw]
        if got != want:
            raise Violation("wrong-tokens", f"tokens for positions {got} of the dropped seat's "
                            f"hand, expected {want}", seat=seat, index=index)
        out: list[tuple[int, crypto.Point]] = []
        for position, token in raw:
            assert cycle is not None
            out.append((position, self._verified(cycle, seat, seat, position, f"bot-{position}",
                                                 token, "bad-token", index)))
        return out

    def _after_recovery(self) -> list[Event]:
        """Every other seat has published its share: rebuild the dropped seat's key, audit the
        dealt cycle (forfeit), end the match with the dropper forfeiting."""
        dropped = self.dropped
        assert dropped is not None
        cycle = self._cycle
        events: list[Event] = []
        if self._rebuilds(cycle):
            assert cycle is not None
            holders = [s for s in range(self.players) if s != dropped]
            secret = rebuild_key(cycle.published, holders)
            if secret * crypto.G != cycle.publics[dropped]:  # cannot happen: shares checked
                raise Violation("audit-failed", f"the rebuilt key of seat {dropped} does not "
                                "match its public key", seat=None, index=self.chain.next_seq)
            cycle.secrets[dropped] = secret
            assert self.recovery is not None
            self.recovery.rebuilt = True
            if self.genesis.dropout == "forfeit":
                self.recovery.audited = True  # also when the audit finds a violation
                self._audit_cycle(partial=True)
                cycle.audited = True
            events.append(KeyRebuilt(dropped, self.recovery.audited))
        if self.genesis.dropout == "bot":
            return events + self._seat_bot(dropped)
        return events + self._forfeit(dropped)

    def _seat_bot(self, dropped: int) -> list[Event]:
        """``dropout`` = ``bot``: the public bot plays ``dropped`` from now on (SPEC §9.13.7).
        A deck no card was dealt from is made again without the seat; a deck in play goes on
        with the seat's rebuilt key, the live engine replayed with its hand now open; the round
        the recovery replaced is taken up again without the seat."""
        assert self.recovery is not None and self._interrupted is not None
        self.bot_seat = dropped
        self.recovery.bot = True
        interrupted, self._interrupted = self._interrupted, None
        cycle = self._cycle
        if cycle is not None and not cycle.shuffled:
            self._cycle = None
        elif cycle is not None and not cycle.audited:
            self.engine = self._view(cycle, lambda p: cycle.known.get(p)
                                     or self._public_card(cycle, p))
        events: list[Event] = [BotSeated(dropped)]
        if interrupted.kind == "result":
            self._round = _Round("result", interrupted.speakers[interrupted.done + 1:])
            return events
        return events + self._enter_engine_phase()

    def _public_card(self, cycle: _Cycle, position: int) -> Card | None:
        """The card at ``position`` if every participant can decrypt it (every share is public,
        or is the bot's, computed from its rebuilt key), else ``None``."""
        if cycle.deck is None or self._missing(cycle, position):
            return None
        if position not in cycle.known:
            try:
                cycle.known[position] = self._decrypt_shares(
                    cycle, position, dict(cycle.tokens.get(position, {})))
            except CryptoError as exc:
                raise Violation("undecryptable", str(exc), seat=None,
                                index=self.chain.next_seq) from None
        return cycle.known[position]

    def _replay_cycle(self, cycle: _Cycle, card_at: Callable[[int], Card | None], *,
                      partial: bool, whole: bool) -> MatchState:
        """Deck ``cycle``'s play replayed from its start (the full engine at its start) with
        the card ``card_at`` gives for each position (``None``: unknown, as a view that cannot
        see it). ``partial``: stop where the recorded chance batches and actions stop (a deck
        cut short, or one still in play), else they must last to the end of the deck's play;
        ``whole``: they must all be used and the replay must stop in the live engine's phase.
        A rule a recorded action breaks is raised naming its actor and envelope, anything else
        as ``replay-diverged``."""
        replay = self._full.copy()
        replay.begin_hand()
        batches = iter(cycle.chance_positions)
        moves = iter(cycle.actions)
        while replay.phase in (Phase.CHANCE, Phase.ACTION):
            if replay.phase is Phase.CHANCE:
                positions = next(batches, None)
                if positions is None and partial:
                    break
                if positions is None or len(positions) != len(replay.pending_chance()):
                    raise Violation("replay-diverged", "the full replay asked for other cards",
                                    seat=None, index=self.chain.next_seq)
                try:
                    replay.complete_chance([card_at(p) for p in positions])
                except GameError as exc:
                    raise Violation("replay-diverged", f"the dealt cards do not fit: {exc}",
                                    seat=None, index=self.chain.next_seq) from None
                continue
            move = next(moves, None)
            if move is None and partial:
                break
            if move is None:
                raise Violation("replay-diverged", "the full replay expects more actions",
                                seat=None, index=self.chain.next_seq)
            action = _fill(move.action, [card_at(p) or HIDDEN for p in move.secret])
            try:
                if move.claim:
                    replay.apply_claim(move.seat, action)
                elif replay.to_act != move.seat:
                    raise GameError(f"seat {replay.to_act} was to act, not seat {move.seat}")
                else:
                    replay.apply(action)
            except GameError as exc:
                rule = getattr(exc, "rule", "illegal-move")
                raise Violation(rule, f"found when the hand was replayed: {exc}",
                                seat=move.seat, index=move.index) from None
        leftover = next(batches, None) is not None or next(moves, None) is not None
        if whole and (leftover or replay.phase is not self.engine.phase):
            raise Violation("replay-diverged",
                            "the full replay of the hand does not end where live play ended",
                            seat=None, index=self.chain.next_seq)
        return replay

    def _view(self, cycle: _Cycle, card_at: Callable[[int], Card | None]) -> MatchState:
        """The deck in play replayed as far as the records go, with the cards ``card_at``
        gives (the live engine with the bot's hand open, or the bot's public view)."""
        return self._replay_cycle(cycle, card_at, partial=True, whole=False)

    def _bot_move(self, cycle: _Cycle) -> list[Event]:
        """The public bot's action in its seat, applied at once and with no envelope: the
        game's bot chooses it from the public view of the hand (:meth:`_public_card`), seeded
        by :func:`~p2pcards.public_bot.bot_seed`, so that every participant computes the same
        (SPEC §9.13.7)."""
        seat = self.bot_seat
        assert seat is not None
        view = self._view(cycle, lambda p: self._public_card(cycle, p))
        seed = bot_seed(self.table_id, cycle.number, len(cycle.actions))
        action = public_move(self.genesis.game, view, seat, seed)
        if action is None:
            raise Violation("replay-diverged", f"the public view of seat {seat} has no move",
                            seat=None, index=self.chain.next_seq)
        index = self.chain.next_seq
        use = self.engine.card_use(action)
        plan = _Plan()
        taken: set[int] = set()
        try:
            for kept, cards in ((False, use.shown), (True, use.kept)):
                for c in cards:
                    position = self._position_of(seat, c, exclude=taken)
                    taken.add(position)
                    (plan.kept if kept else plan.shown).append((position, c))
            for moved, cards in ((plan.hidden, use.hidden), (plan.passed, use.passed)):
                for c in cards:
                    position = self._position_of(seat, c, exclude=taken, in_hand=True)
                    taken.add(position)
                    moved.append(position)
                    plan.cards[position] = c
            wire = _mask(action, use)
            self.engine.apply(action)
        except GameError as exc:
            raise Violation("replay-diverged", f"the bot's move {action} does not fit the live "
                            f"hand: {exc}", seat=None, index=index) from None
        self._commit_plan(cycle, seat, plan, use.to)
        cycle.actions.append(_Move(index, seat, wire, tuple(plan.secret)))
        self._round.done += 1
        return [ActionPlayed(seat, action, index)]

    def _forfeit(self, dropped: int) -> list[Event]:
        """End the match: ``dropped`` forfeits. The winner is the other side with two sides,
        else the side with the highest match score among the others (none on a tie)."""
        self.finished = True
        self.forfeit = dropped
        scores = tuple(self._full.match_scores)
        lost = self._full.side_of(dropped)
        others = [side for side in range(self._full.num_sides) if side != lost]
        best = max(scores[side] for side in others)
        leaders = [side for side in others if scores[side] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        return [MatchEnded(scores, winner, forfeit=dropped)]

    def _on_result(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        mine = self._my_result()
        if codec.pack(body) != codec.pack(mine):  # exact wire equality: 1 is not true
            raise Violation("result-mismatch",
                            f"hand result {body!r} differs from the computed {mine!r}",
                            seat=seat, index=index)
        return []

    # ------------------------------------------------------------------ internals: cards

    def _deck_position(self, cycle: _Cycle, step: ChanceStep) -> int:
        if step.zone is Zone.SHOW:
            assert step.seat is not None
            return cycle.hand_positions[step.seat][step.position]
        return step.position

    def _duties(self, seat: int) -> list[_Duty]:
        """What ``seat`` must provide for the pending chance steps, in step order."""
        cycle = self._cycle
        if cycle is None or not cycle.pending or seat == self.bot_seat:
            return []
        out: list[_Duty] = []
        for i, (step, position) in enumerate(zip(cycle.pending, cycle.pending_positions,
                                                 strict=True)):
            public = cycle.public.get(position, set())
            if step.visible_to == ALL_SEATS or self._bot_sees(step):
                if seat not in public:
                    out.append(_Duty(i, position, public=True))
                continue
            if not step.visible_to:
                continue
            if seat in step.visible_to:
                recipients = tuple(sorted(step.visible_to - {seat}))
                if recipients:
                    out.append(_Duty(i, position, public=False, recipients=recipients))
            elif step.zone is Zone.SHOW and step.seat == seat:
                out.append(_Duty(i, position, public=False,
                                 recipients=tuple(sorted(step.visible_to))))
            elif step.zone is not Zone.SHOW and seat not in public:
                out.append(_Duty(i, position, public=True))
        return out

    def _bot_sees(self, step: ChanceStep) -> bool:
        """Whether ``step`` shows a card to the bot's seat (or from its hand): such a card is
        shown to every participant, who all compute the bot's moves (SPEC §9.13.7)."""
        bot = self.bot_seat
        return bot is not None and (bot in step.visible_to
                                    or (step.zone is Zone.SHOW and step.seat == bot))

    def _make_token(self, position: int, step: str) -> crypto.RevealToken:
        cycle = self._require_cycle()
        assert cycle.my_key is not None and cycle.deck is not None and self.seat is not None
        return crypto.token(cycle.my_key, cycle.deck[position], self._ctx(self.seat, step),
                                 self._rng)

    def _decrypt(self, cycle: _Cycle, position: int, *, include_own: bool) -> Card:
        assert cycle.deck is not None
        shares = dict(cycle.tokens.get(position, {}))
        if include_own and self.seat in cycle.holders and self.seat not in shares:
            assert cycle.my_key is not None
            shares[self.seat] = cycle.my_key.partial(cycle.deck[position].a)
        return self._decrypt_shares(cycle, position, shares)

    def _decrypt_shares(self, cycle: _Cycle, position: int,
                        shares: dict[int, crypto.Point]) -> Card:
        assert cycle.deck is not None
        bot = self.bot_seat
        if bot is not None and bot in cycle.holders and bot not in shares:
            shares = {**shares, bot: cycle.secrets[bot] * cycle.deck[position].a}
        if set(shares) != set(cycle.holders):
            raise CryptoError(f"position {position} lacks tokens from seats "
                              f"{sorted(set(cycle.holders) - set(shares))}")
        return crypto.decrypt_card(self.engine.deck, cycle.deck[position], shares.values())

    def _complete_chance(self) -> list[Event]:
        cycle = self._require_cycle()
        cards: list[Card | None] = []
        for step, position in zip(cycle.pending, cycle.pending_positions, strict=True):
            visible = self.seat is not None and step.visible(self.seat)
            if visible or step.visible_to == ALL_SEATS or self._bot_sees(step):
                try:
                    if position not in cycle.known:
                        cycle.known[position] = self._decrypt(cycle, position, include_own=True)
                    cards.append(cycle.known[position])
                except CryptoError as exc:
                    raise Violation("undecryptable", str(exc), seat=None,
                                    index=self.chain.next_seq) from None
            else:
                cards.append(None)
            if step.zone is Zone.HAND:
                assert step.seat is not None
                cycle.hand_positions.setdefault(step.seat, []).append(position)
        cycle.chance_positions.append(list(cycle.pending_positions))
        steps = cycle.pending
        self.engine.complete_chance(cards)
        cycle.pending = ()
        cycle.pending_positions = ()
        return [CardsRevealed(steps, tuple(cards))]

    def _my_position_of(self, card: Card, *, exclude: set[int] | frozenset[int] = frozenset(),
                        in_hand: bool = False) -> int:
        """The deck position of ``card`` in the local seat's hand: a position dealt or passed to
        it, or (unless ``in_hand``) a public card the engine moved into its hand."""
        assert self.seat is not None
        return self._position_of(self.seat, card, exclude=exclude, in_hand=in_hand)

    def _position_of(self, seat: int, card: Card, *,
                     exclude: set[int] | frozenset[int] = frozenset(),
                     in_hand: bool = False) -> int:
        """:meth:`_my_position_of` for ``seat``: the local seat, or the bot's seat, whose hand
        is public (the first matching position in the hand's order, then in deck order)."""
        cycle = self._require_cycle()
        card_at: Callable[[int], Card | None] = (
            cycle.known.get if seat == self.seat else functools.partial(self._public_card, cycle))
        for position in cycle.hand_positions.get(seat, []):
            if position not in exclude and card_at(position) == card:
                return position
        if not in_hand:
            for position in sorted(cycle.known):
                if (cycle.known[position] == card and position not in exclude
                        and self._showable(cycle, seat, position)):
                    return position
        raise GameError(f"{card} is not in this seat's hand")

    # ------------------------------------------------------------------ internals: audit

    def _end_cycle(self) -> list[Event]:
        """All keys are revealed: decrypt everything, replay the cycle with full information."""
        self._audit_cycle(partial=False)
        return []

    def _audit_cycle(self, *, partial: bool) -> None:
        """Decrypt the whole deck with the sum of the secrets, check every played card and
        replay the cycle with full information. ``partial``: the cycle stopped early (a
        dropout); the replay ends where the recorded chance batches and actions end."""
        cycle = self._require_cycle()
        # Every token was checked against its seat's public key by its DLEQ proof when it
        # arrived, and every revealed secret against the same public key: decrypting with the
        # sum of the secrets is therefore the whole audit of the deck.
        try:
            cards = revealed_cards(self, cycle)
        except CryptoError as exc:
            raise Violation("audit-failed", str(exc), seat=None,
                            index=self.chain.next_seq) from None
        assert cards is not None
        for position, played in cycle.played.items():
            if cards[position] != played:
                raise Violation("card-mismatch", f"card at position {position} was misplayed",
                                seat=None, index=self.chain.next_seq)
        replay = self._replay_cycle(cycle, cards.__getitem__, partial=partial, whole=True)
        self._full = replay
        self.engine = replay.copy()
        self.spent.append(cycle.number)

    def _my_result(self) -> dict[str, Any]:
        result = self._full.hand_result()
        after = self._full.copy()
        after.next_hand()
        return {
            "hand": self._full.hand_number,
            "result": result.to_wire(),
            "scores": list(after.match_scores),
            "over": after.match_over,
            "winner": after.winner,
        }

    def _after_results(self) -> list[Event]:
        result = self._full.hand_result()
        hand = self._full.hand_number
        self._full.next_hand()
        self.engine = self._full.copy()
        self.last_result = result
        events: list[Event] = [HandScored(hand, result, tuple(self._full.match_scores))]
        self._cycle = None
        if self._full.match_over:
            self.finished = True
            events.append(MatchEnded(tuple(self._full.match_scores), self._full.winner))
            return events
        return events + self._enter_engine_phase()


# ----------------------------------------------------------------------------------- helpers


def _kebab(name: str) -> str:
    out: list[str] = []
    for ch in name:
        if ch.isupper() and out:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)


def _chain_violation(exc: ChainError, *, accepting: bool) -> Violation:
    """Whom a failed chain check (SPEC §6, §9.8) blames.

    The signer, unless an honest signer could have signed the envelope on another branch of the
    chain that the hub showed it: a ``fork`` (the head was signed by another seat), a sequence
    number that skips ahead or lands on another seat's position (``wrong-sequence`` with no
    seat), an envelope of another table (``wrong-table``, or ``genesis-mismatch`` while the
    seats accept the genesis: the genesis this peer holds is not the one that seat signed).
    """
    rule = _kebab(type(exc).__name__)
    message = str(exc)
    if isinstance(exc, Equivocation):
        return Violation(rule, message, seat=exc.seat, index=exc.index,
                         evidence=(exc.first, exc.second))
    if isinstance(exc, Fork):
        return Violation("fork", f"{message}; the hub, seat {exc.head_seat} or seat {exc.seat} "
                         "is at fault", seat=None, index=exc.index,
                         evidence=(exc.head, exc.link),
                         suspects=tuple(s for s in (exc.head_seat, exc.seat) if s is not None))
    if isinstance(exc, WrongTable):
        if accepting:
            return Violation("genesis-mismatch", f"the genesis was altered or is not this "
                             f"table's: seat {exc.seat} signed another genesis ({message})",
                             seat=None, index=exc.index)
        return Violation(rule, f"{message}: it belongs to another table", seat=None,
                         index=exc.index)
    if isinstance(exc, WrongSequence):
        return Violation(rule, f"{message} (envelopes withheld by the hub, or a false sequence "
                         f"number signed by seat {exc.seat})", seat=None, index=exc.index,
                         suspects=(exc.seat,) if exc.seat is not None else ())
    return Violation(rule, message, seat=exc.seat, index=exc.index)


def _field(body: dict[str, Any], name: str, seat: int, index: int, allowed: set[str]) -> Any:
    extra = set(body) - allowed
    if extra:
        raise Violation("bad-body", f"unexpected field {sorted(extra)[0]!r}", seat=seat,
                        index=index)
    if name not in body:
        raise Violation("bad-body", f"missing field {name!r}", seat=seat, index=index)
    for key in allowed - {"position", "token"}:
        if key not in body:
            raise Violation("bad-body", f"missing field {key!r}", seat=seat, index=index)
    return body[name]


@dataclass
class _Plan:
    """What a checked ``action`` body will do once the engine accepts it."""

    shown: list[tuple[int, Card]] = field(default_factory=list)
    kept: list[tuple[int, Card]] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    shares: list[tuple[int, int, crypto.Point]] = field(default_factory=list)
    held: list[tuple[int, int, crypto.RevealToken]] = field(default_factory=list)
    cards: dict[int, Card] = field(default_factory=dict)
    """Cards of face-down or passed positions this participant knows."""
    opened: list[int] = field(default_factory=list)
    """Passed positions whose every share was published (a card passed to the bot's seat)."""

    @property
    def secret(self) -> list[int]:
        """Positions of the action's ``HIDDEN`` slots, in slot order: hidden, then passed."""
        return self.hidden + self.passed


def _snapshot(cycle: _Cycle | None) -> dict[str, Any] | None:
    """A copy of the parts of a cycle an ``action`` message may change."""
    if cycle is None:
        return None
    return {
        "tokens": {p: dict(v) for p, v in cycle.tokens.items()},
        "public": {p: set(v) for p, v in cycle.public.items()},
        "held": {p: dict(v) for p, v in cycle.held.items()},
        "hand_positions": {s: list(v) for s, v in cycle.hand_positions.items()},
        "actions": list(cycle.actions),
        "played": dict(cycle.played),
        "known": dict(cycle.known),
    }


def _restore(cycle: _Cycle, snapshot: dict[str, Any]) -> None:
    for name, value in snapshot.items():
        setattr(cycle, name, value)


def _slots(action: Action) -> list[Card]:
    """The cards an action names, in slot order: ``card`` first, then ``cards``."""
    return ([] if action.card is None else [action.card]) + list(action.cards)


def _fill(action: Action, cards: Sequence[Card]) -> Action:
    """``action`` with its ``HIDDEN`` slots, in slot order, replaced by ``cards``."""
    if not cards:
        return action
    it = iter(cards)
    slots = [next(it) if c == HIDDEN else c for c in _slots(action)]
    if action.card is None:
        return replace(action, cards=tuple(slots))
    return replace(action, card=slots[0], cards=tuple(slots[1:]))


def _mask(action: Action, use: CardUse) -> Action:
    """The wire form of the local seat's ``action``: its face-down and passed cards, in slot
    order, become ``HIDDEN``. :class:`GameError` if the card use does not list them in that
    order (hidden cards first, then passed ones)."""
    secret = [*use.hidden, *use.passed]
    if not secret:
        return action
    j = 0
    slots: list[Card] = []
    for c in _slots(action):
        if j < len(secret) and c == secret[j]:
            slots.append(HIDDEN)
            j += 1
        else:
            slots.append(c)
    if j != len(secret):
        raise GameError(f"the card use of {action} does not list its hidden and passed cards "
                        "in the action's order")
    if action.card is None:
        return replace(action, cards=tuple(slots))
    return replace(action, card=slots[0], cards=tuple(slots[1:]))


def _single_shape(action: Action, use: CardUse) -> bool:
    """True for the version 1.0 shape: ``action.card`` alone, shown and leaving the hand."""
    return (action.card is not None and action.card != HIDDEN
            and use == CardUse(shown=(action.card,)))


def _share_seat(item: object, seat: int, index: int) -> int:
    if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
        raise Violation("bad-body", "a share is [seat, token]", seat=seat, index=index)
    return item[0]


def _box_seat(item: object, seat: int, index: int) -> int:
    if (not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int
            or not isinstance(item[1], bytes) or len(item[1]) != crypto.SEALED_TOKEN_SIZE):
        raise Violation("bad-body", "a sealed share is [seat, sealed token]", seat=seat,
                        index=index)
    return item[0]


def _box_index(holder: int, dealer: int) -> int:
    """The place of ``holder``'s box among ``dealer``'s boxes (holders in seat order)."""
    return holder if holder < dealer else holder - 1


def _pair_position(item: object, seat: int, index: int) -> int:
    if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
        raise Violation("bad-body", "a public token is [position, token]", seat=seat, index=index)
    return item[0]


def _sealed_key(item: object, seat: int, index: int) -> tuple[int, int]:
    if (not isinstance(item, list) or len(item) != 3 or type(item[0]) is not int
            or type(item[1]) is not int or not isinstance(item[2], bytes)
            or len(item[2]) != crypto.SEALED_TOKEN_SIZE):
        raise Violation("bad-body", "a sealed token is [position, recipient, box]", seat=seat,
                        index=index)
    return item[0], item[1]


def bare_inboxes(genesis: Genesis, frames: Sequence[bytes]) -> bool:
    """Whether ``frames`` were recorded under the earlier rule of key sharing (SPEC §9.11),
    whose ``key`` messages carried the inbox key as a bare 32-byte point without its proof of
    possession: the ``inbox`` of the chain's first ``key`` message is one. An observer replays
    such a transcript with ``bare_inboxes``; a seat never accepts the bare form."""
    keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
    for data in frames:
        try:
            _, payload = open_envelope(data, keys)
        except ProtocolError:
            return False
        if payload.kind == "key":
            body = payload.body
            return isinstance(body, dict) and isinstance(body.get("inbox"), bytes)
    return False


def replay_frames(genesis: Genesis, frames: Sequence[bytes], *,
                  bare_inboxes: bool = False) -> Table:
    """An observer table fed every frame (raises :class:`Violation` at the first bad one)."""
    table = Table(genesis, seat=None, bare_inboxes=bare_inboxes)
    table.start()
    for data in frames:
        table.receive(data)
    return table


def revealed_cards(table: Table, cycle: Any = None) -> list[Card] | None:
    """Every card of deck ``cycle`` (default: the current one), by position, once the hand key
    of each of its holders is known (revealed, or rebuilt after a dropout); else ``None``."""
    cycle = table._cycle if cycle is None else cycle
    if cycle is None or cycle.deck is None or not cycle.holders or any(
            s not in cycle.secrets for s in cycle.holders):
        return None
    total = cycle.secrets[cycle.holders[0]]
    for s in cycle.holders[1:]:
        total = total + cycle.secrets[s]
    deck = table.engine.deck
    return [crypto.decrypt_card(deck, ct, [total * ct.a]) for ct in cycle.deck]


def deck_of(table: Table) -> Deck:
    """The deck of the table's current hand."""
    return table.engine.deck
