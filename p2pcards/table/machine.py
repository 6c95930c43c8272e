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

The message kinds and their bodies are specified in ``protocol/SPEC.md`` §9. This module is the
machine: the queries, the calls above, and every transition (emit, apply, the round's end, the
engine's next phase, SPEC §9.2, §9.8, §11.7). Each kind's check, automatic body and round's end
are one row of :data:`KIND_RULES`; the work of each row is done beside it in the package, by
functions over a :class:`~.cycle.DeckCycle` and explicit inputs: :mod:`.intake` (a received
envelope's place, SPEC §6, §9.2, §9.8), :mod:`.rounds` (§9.2), :mod:`.deal` (§9.3-§9.5, §9.7),
:mod:`.card_use` (§9.6), :mod:`.audit` and :mod:`.replay` (§9.7), :mod:`.recovery` (§9.13),
:mod:`.complaint` (§9.13.4), :mod:`.bot` (§9.13.7) and :mod:`.resume` (§11.7.4). The local
seat's secrets and the bodies it makes are its :class:`~.voice.Voice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card, Deck
from ..crypto import Randomness
from ..crypto.own import is_paranoid, own_message
from ..games.base import (
    Action,
    GameError,
    HandResult,
    MatchState,
    Phase,
)
from ..seating.genesis import Genesis
from ..wire import (
    Chain,
    IdentityKey,
    Payload,
    ProtocolError,
    PublicIdentity,
    open_envelope,
)
from . import audit, bot, card_use, complaint, deal, intake, recovery, resume, rounds
from .claims import ClaimWindows
from .cycle import DeckCycle
from .errors import (
    ResumeError,
    Violation,
)
from .events import (
    ActionPlayed,
    BotSeated,
    CardsRevealed,
    Complaint,
    Event,
    HandScored,
    HandStarted,
    KeyRebuilt,
    MatchEnded,
    ProposalDropped,
    Recovery,
    SeatAccepted,
    SeatDropped,
    Step,
)
from .keeper import PROPOSAL, Keeper
from .rounds import HUB_SEAT, KINDS, Kind, Round
from .voice import Voice

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
        paranoid: bool | None = None,
    ) -> None:
        self.genesis = genesis
        self.paranoid = is_paranoid() if paranoid is None else paranoid
        """Whether the local seat checks the proofs and points of its own messages too (CRYPTO.md
        §14: it need not; every other seat and the verifier do). Default: the process-wide
        switch ``p2pcards --paranoid``."""
        self.table_id = genesis.table_id
        self.seat = seat
        self.players = len(genesis.seats)
        self._voice = None if seat is None else Voice(genesis, seat, identity, x25519_private, rng)
        self._x25519 = x25519_private
        self.keeper = keeper
        """Where the local seat keeps each secret before it first uses it on the wire (its
        hand keys, its claim-window proposals), so that a crashed peer can :meth:`resume`."""
        self.spent: list[int] = []
        """Deck cycles whose hand keys every seat has revealed, in order: from then on the
        chain holds the local seat's key, and the kept copy may be deleted."""
        self._replaying = False
        self._keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
        self._opener = intake.Opener(self._keys)
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
        self._cycle: DeckCycle | None = None
        self._round = Round("accept", list(range(self.players)))
        self._started = False
        self.finished = False
        self.last_result: HandResult | None = None
        self.proposal: bytes | None = None
        """The local seat's action envelope sent in a claim window and not yet placed in the
        chain: the hub's order decides (SPEC §9.2). It is accepted when it comes back, and
        dropped when a competing envelope is accepted first."""
        self.windows = ClaimWindows()
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
        self._interrupted: Round | None = None
        """The round a recovery replaced, to be taken up again without the dropped seat."""
        if bare_inboxes and seat is not None:
            raise ValueError("only an observer reads inbox keys without their proofs")
        self._bare_inboxes = bare_inboxes
        """An observer replaying a transcript recorded under the earlier rule, whose ``key``
        messages carried the inbox key as a bare point (:func:`bare_inboxes`, SPEC §9.11)."""

    # ------------------------------------------------------------------ public queries

    @property
    def cycle(self) -> DeckCycle | None:
        """The deck in play (``None`` between hands), read only: its keys, shares, hands and
        action log (what a replay screen or a verifier shows of it)."""
        return self._cycle

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
                or complaint.owed(self._cycle)):
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
        self._replaying = True
        try:
            step, own = resume.replay(frames, self._keys, self.seat, self.keeper,
                                      receive=self._receive_replayed, cycle=self._require_cycle)
        finally:
            self._replaying = False
        resume.check_signed(self.keeper, own, len(frames), self.seat)
        resume.check_inbox(self._cycle, self.spent, self.seat)
        self.proposal = resume.kept_proposal(self.keeper, self.frames, self._keys,
                                             seat=self.seat, chain=self.chain,
                                             speakers=self.speakers)
        step.outgoing.extend(self._run_automatic().outgoing)
        return step

    def _receive_replayed(self, data: bytes, own: bool) -> Step:
        """:meth:`receive` of a transcript's frame, the local seat's own taken as its own."""
        self.proposal = data if own else None
        try:
            return self.receive(data)
        finally:
            self.proposal = None

    def receive(self, data: bytes) -> Step:
        """Check and apply one received envelope; raise :class:`Violation` naming the culprit.

        On a violation nothing changes, so the caller may drop the envelope and go on.
        """
        index = self.chain.next_seq
        envelope, payload = intake.open_received(data, self._opener, self.chain, self.windows,
                                                 finished=self.finished)
        seat, kind = self._round.current, self._round.kind
        speakers = self.speakers
        own = data == self.proposal and self.proposal is not None
        if payload.seat in speakers and (payload.seat != self.seat or own):
            seat = payload.seat
        starting = recovery.opened(payload, self._recoverable)
        if starting:
            seat, kind = payload.seat, "recover"
        complaining = not starting and complaint.starts(payload, self._cycle, turn=self._turn(),
                                                        chain=self.chain)
        if complaining:
            seat, kind = payload.seat, "complain"
        intake.check_place(self.chain, payload, envelope, seat=seat, kind=kind, local=self.seat,
                           own=own)
        step = Step()
        window = (speakers | {seat}, self.chain.head) if len(speakers) > 1 or complaining \
            else None
        saved = self._round
        if starting:
            step.events.append(self._begin_recovery(payload.seat))
        if complaining:
            self._round = Round("complain", [payload.seat])
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
        body = self._me().action_body(self._require_cycle(), action,
                                      self.engine.card_use(action), index=self.chain.next_seq)
        step = Step()
        assert self.seat is not None
        if self.speakers - {self.seat}:
            # a claim window: the hub orders the competing messages (SPEC §9.2)
            self._offer(self._propose("action", body), step)
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
        index = self.chain.next_seq
        payload = self._own_payload(kind, body)
        saved = (self.engine, self._cycle, self._round.done)
        try:  # on copies of the engine and the deck: the table stays as it is
            self.engine = self.engine.copy()
            self._cycle = None if self._cycle is None else self._cycle.copy()
            self._apply(payload, index)
        except Violation as exc:
            raise GameError(f"the action cannot be sent: {exc}") from None
        finally:
            self.engine, self._cycle, self._round.done = saved
        return self._me().seal(payload).encode()

    def _offer(self, data: bytes, step: Step) -> None:
        """Send ``data`` as the local seat's :attr:`proposal`, kept first (never two envelopes
        for one chain place)."""
        self.proposal = data
        if self.keeper is not None:
            self.keeper.keep(PROPOSAL, data)
        step.outgoing.append(data)

    def _me(self) -> Voice:
        """The local seat's voice (a seated table's only)."""
        assert self._voice is not None
        return self._voice

    def _own_payload(self, kind: str, body: dict[str, Any]) -> Payload:
        """The local seat's message of ``kind`` for the next chain position."""
        assert self.seat is not None
        return Payload(table_id=self.table_id, seq=self.chain.next_seq, prev=self.chain.head,
                       seat=self.seat, kind=kind, body=body)

    # ------------------------------------------------------------------ dropouts (SPEC §9.13)

    def can_recover(self, seat: int) -> bool:
        """Whether the local seat may begin the recovery of ``seat``, the seat the table waits
        for: the local seat is the hub's (:data:`HUB_SEAT`), the table shares its hand keys,
        nobody has dropped out yet, the match has begun (past the ``accept`` round) and is not
        over, ``seat`` is another seat, and the hub owes no complaint (SPEC §9.13.4)."""
        return (self.seat == HUB_SEAT and seat != self.seat
                and self._recoverable(seat) and not complaint.owed(self._cycle))

    def _recoverable(self, seat: int) -> bool:
        """Whether ``seat``, the seat the table waits for, may be recovered now."""
        return (self.genesis.shares_keys and not self.finished and self.dropped is None
                and not self._round.complete and self._round.kind not in ("accept", "recover")
                and self._round.current == seat)

    def opens_recovery(self, data: bytes) -> bool:
        """Whether ``data`` is a validly signed ``recover`` of the hub that would begin the
        recovery of the seat the table waits for, in place of that seat's message (SPEC
        §9.13.5)."""
        payload = self._opened(data)
        return payload is not None and recovery.opened(payload, self._recoverable)

    def recover_sender(self, data: bytes) -> tuple[int, object, int] | None:
        """``(signer, named, seq)`` when ``data`` is a validly signed ``recover`` of this
        table, whatever its position and whoever signed it (``named``: the ``seat`` of its
        body, as sent); ``None`` otherwise. A hub uses it to tell a joiner's attempt to begin a
        recovery, which only the hub may do (:meth:`opens_recovery`), from other envelopes; a
        seat, to tell a recovery of itself at a place its own envelope holds."""
        payload = self._opened(data)
        return None if payload is None else recovery.sender(payload, self.table_id)

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
        self._interrupted = self._round
        self.recovery, self._round = recovery.begin(self._round, by, self.players,
                                                    self.chain.next_seq)
        self.proposal = None
        return SeatDropped(self.recovery.seat, self.recovery.kind, by)

    # ------------------------------------------------------------------ complaints (SPEC §9.13.4)

    def _turn(self) -> int | None:
        """The seat the table waits for (``None`` once the match is over or stopped)."""
        return None if self.finished or self._round.complete else self._round.current

    def _complaint_due(self) -> bool:
        """Whether the local seat owes a ``complain`` and has not been able to place it yet."""
        return complaint.due(self._cycle, self.seat, turn=self._turn(), chain=self.chain)

    def _propose_complaint(self) -> bytes:
        """The local seat's ``complain`` about its share of ``cycle.bad_box``'s key, in its
        turn: the shared point of that one box with its proof (SPEC §9.13.4). It is a
        :attr:`proposal`, placed by the hub (which sends it back); one that a claim beats in a
        claim window is made again when the seat's turn comes back."""
        body = self._me().complaint_body(self._require_cycle())
        return self._me().seal(self._own_payload("complain", body)).encode()

    def _on_complain(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        """A complaint of holder ``seat``: its opening must verify and open its box to a share
        that fails the dealer's commitments, else ``bad-complaint`` names the complainant.
        A proven one ends the match with the dealer at fault once it is in the chain."""
        self.complaint, self._proven = complaint.check(self._require_cycle(), seat, body, index)
        return []

    def is_lost_race(self, data: bytes) -> bool:
        """Whether ``data`` is a validly signed envelope that lost a claim window race: an
        eligible seat's message for a chain index that another eligible seat's envelope took
        first (harmless: drop it)."""
        payload = self._opened(data)
        return payload is not None and self.windows.lost_race(payload, self.table_id, self.chain)

    def _opened(self, data: bytes) -> Payload | None:
        """The payload of ``data`` if it is an envelope validly signed by a seat."""
        try:
            return self._opener.open(data)[1]
        except ProtocolError:
            return None

    # ------------------------------------------------------------------ internals: flow

    def _require_cycle(self) -> DeckCycle:
        if self._cycle is None:
            raise RuntimeError("no deck cycle is in progress")
        return self._cycle

    def _advance(self) -> Step:
        """After a message: finish the round if complete, then run automatic local messages."""
        step = Step()
        while self._round.complete and not self.finished:
            step.events.extend(KIND_RULES[self._round.kind].after(self))  # the round's end
        step.extend(self._run_automatic())
        return step

    def _run_automatic(self) -> Step:
        step = Step()
        if self._replaying:
            return step  # the transcript holds what the local seat sent
        if self._complaint_due():  # the local seat says nothing else (SPEC §9.13.4)
            if self.proposal is None:
                self._offer(self._propose_complaint(), step)
            return step
        while (not self.finished and self.seat is not None and self._round.current == self.seat
               and self._round.kind != "action"):
            step.events.extend(self._emit(self._round.kind, self._automatic_body(), step))
            while self._round.complete and not self.finished:
                step.events.extend(KIND_RULES[self._round.kind].after(self))
        return step

    def _emit(self, kind: str, body: dict[str, Any], step: Step) -> list[Event]:
        """Seal, apply locally (its own proofs unchecked unless :attr:`paranoid`) and queue one
        message of the local seat."""
        assert self.seat is not None
        index = self.chain.next_seq
        payload = self._own_payload(kind, body)
        envelope = self._me().seal(payload)
        with own_message(trusted=not self.paranoid):
            events = self._apply(payload, index)
        self.chain.accept(payload, envelope, expected_seat=self.seat)
        data = envelope.encode()
        self.frames.append(data)
        step.outgoing.append(data)
        return events

    def _apply(self, payload: Payload, index: int) -> list[Event]:
        """Validate and apply a message of the expected seat and kind; advance the round."""
        events = KIND_RULES[payload.kind].check(self, payload.seat, payload.body, index)
        self._round.done += 1
        return events or []

    def _after_keys(self) -> list[Event]:
        cycle = self._require_cycle()
        deal.open_deck(cycle, self.engine.deck)
        self._round = Round("shuffle", list(cycle.holders))
        return []

    def _after_shuffles(self) -> list[Event]:
        self._require_cycle().shuffled = True
        self.engine.begin_hand()
        return self._enter_engine_phase()

    def _after_reveals(self) -> list[Event]:
        self._audit_cycle(partial=False)
        return self._enter_engine_phase()

    def _after_complaint(self) -> list[Event]:
        assert self._proven is not None
        self.finished = True  # nothing more is accepted: the dealer is at fault
        raise self._proven

    def _enter_engine_phase(self) -> list[Event]:
        """Open the round the live engine's phase calls for (:func:`.rounds.for_phase`), or a
        new deck's ``key`` round."""
        following = rounds.for_phase(self.engine, self._cycle, self.players, self.bot_seat)
        if following is None:
            return self._new_cycle()
        self._round = following
        if following.kind == "action" and self.engine.to_act == self.bot_seat:
            return self._bot_move(self._require_cycle())
        return []

    def _new_cycle(self) -> list[Event]:
        """A new deck, made by every seat but the bot's: its ``key`` round."""
        holders = tuple(s for s in range(self.players) if s != self.bot_seat)
        self._cycle = DeckCycle(self.table_id, self._cycle_count, holders=holders,
                                bot=self.bot_seat,
                                sharing=self.genesis.shares_keys and self.recovery is None)
        self._cycle_count += 1
        self._round = Round("key", list(holders))
        return [HandStarted(self.engine.hand_number, self._cycle.number)]

    # ------------------------------------------------------------------ internals: messages

    def _automatic_body(self) -> dict[str, Any]:
        """The local seat's message of the current round (the ``make`` of its kind's row)."""
        make = KIND_RULES[self._round.kind].make
        assert make is not None
        return make(self)

    def _on_action(self, seat: int, body: dict[str, Any], index: int) -> list[Event]:
        claim = self._round.kind == "action" and seat != self._round.current
        who = card_use.Participant(self.players, self.seat, self._x25519)
        live = card_use.take(self._require_cycle(), self.engine, seat, body, index, who,
                             claim=claim)
        return [ActionPlayed(seat, live, index)]

    def _after_recovery(self) -> list[Event]:
        """Every other seat has published its share: rebuild the dropped seat's key, audit the
        dealt cycle (forfeit), end the match with the dropper forfeiting."""
        dropped = self.dropped
        assert dropped is not None
        cycle = self._cycle
        events: list[Event] = []
        if recovery.rebuilds(cycle, dropped):
            assert cycle is not None
            recovery.rebuild(cycle, dropped, self.players, self.chain.next_seq)
            assert self.recovery is not None
            self.recovery.rebuilt = True
            if self.genesis.dropout == "forfeit":
                self.recovery.audited = True  # also when the audit finds a violation
                self._audit_cycle(partial=True)
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
        self._cycle, engine = bot.take_over(self._cycle, self._full, dropped,
                                            self.chain.next_seq)
        if engine is not None:
            self.engine = engine
        events: list[Event] = [BotSeated(dropped)]
        if interrupted.kind == "result":
            self._round = Round("result", interrupted.speakers[interrupted.done + 1:])
            return events
        return events + self._enter_engine_phase()

    def _bot_move(self, cycle: DeckCycle) -> list[Event]:
        """The public bot's action in its seat, applied at once and with no envelope
        (:func:`.bot.play`, SPEC §9.13.7)."""
        index = self.chain.next_seq
        action = bot.play(cycle, self.engine, self._full, game=self.genesis.game,
                          table_id=self.table_id, players=self.players, local=self.seat,
                          index=index)
        self._round.done += 1
        assert cycle.bot is not None
        return [ActionPlayed(cycle.bot, action, index)]

    def _forfeit(self, dropped: int) -> list[Event]:
        """End the match: ``dropped`` forfeits. The winner is the other side with two sides,
        else the side with the highest match score among the others (none on a tie)."""
        self.finished = True
        self.forfeit = dropped
        return [MatchEnded(tuple(self._full.match_scores),
                           audit.forfeit_winner(self._full, dropped), forfeit=dropped)]

    # ------------------------------------------------------------------ internals: cards

    # ------------------------------------------------------------------ internals: audit

    def _audit_cycle(self, *, partial: bool) -> None:
        """Audit the deck in play (:func:`.audit.audit_cycle`): the replay becomes the full
        engine and the live one, and the deck is audited and spent."""
        cycle = self._require_cycle()
        self._full = audit.audit_cycle(self._full, cycle, self.engine.deck, partial=partial,
                                       end_phase=self.engine.phase, index=self.chain.next_seq)
        self.engine = self._full.copy()
        self.spent.append(cycle.number)
        cycle.audited = True

    def _after_results(self) -> list[Event]:
        """Every seat's result is in: the hand is scored, and the next one begins unless the
        match is over (:func:`.audit.close_hand`)."""
        self.last_result, events = audit.close_hand(self._full)
        self.engine = self._full.copy()
        self._cycle = None
        if self._full.match_over:
            self.finished = True
            return events
        return events + self._enter_engine_phase()


# ----------------------------------------------------------------------------------- helpers


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


def revealed_cards(table: Table, cycle: DeckCycle | None = None) -> list[Card] | None:
    """Every card of deck ``cycle`` (default: the current one), by position, once the hand key
    of each of its holders is known (revealed, or rebuilt after a dropout); else ``None``."""
    cycle = table.cycle if cycle is None else cycle
    return None if cycle is None else audit.deck_cards(cycle, table.engine.deck)


def deck_of(table: Table) -> Deck:
    """The deck of the table's current hand."""
    return table.engine.deck


KIND_RULES: dict[str, Kind[Table]] = {
    "accept": Kind(lambda table, seat, body, index: rounds.check_accept(seat, body, index),
                   lambda table: {}, Table._enter_engine_phase),
    "key": Kind(
        lambda table, seat, body, index: deal.check_key(
            table._require_cycle(), seat, body, index, bare_inboxes=table._bare_inboxes),
        lambda table: table._me().key_body(table._require_cycle(), table.keeper),
        Table._after_keys),
    "shuffle": Kind(
        lambda table, seat, body, index: deal.check_shuffle(
            table._require_cycle(), seat, body, index, players=table.players,
            local=table.seat),
        lambda table: table._me().shuffle_body(table._require_cycle()),
        Table._after_shuffles),
    "tokens": Kind(
        lambda table, seat, body, index: deal.check_tokens(
            table._require_cycle(), seat, body, index, local=table.seat,
            x25519=table._x25519),
        lambda table: table._me().tokens_body(table._require_cycle()),
        lambda table: [deal.complete_chance(table._require_cycle(), table.engine,
                                            local=table.seat, index=table.chain.next_seq),
                       *table._enter_engine_phase()]),
    "action": Kind(Table._on_action, None, Table._enter_engine_phase),
    "reveal": Kind(
        lambda table, seat, body, index: deal.check_reveal(
            table._require_cycle(), seat, body, index),
        lambda table: deal.reveal_body(table._require_cycle()),
        Table._after_reveals),
    "result": Kind(
        lambda table, seat, body, index: audit.check_result(body, table._full, seat, index),
        lambda table: audit.result_body(table._full),
        Table._after_results),
    "recover": Kind(
        lambda table, seat, body, index: recovery.take(
            table._cycle, seat, body, index, dropped=table.dropped,
            policy=table.genesis.dropout),
        lambda table: table._me().recover_body(table._cycle, table.dropped),
        Table._after_recovery),
    "complain": Kind(Table._on_complain, None, Table._after_complaint),
}
"""Every message kind's row (SPEC §9): how a received one is checked and applied, how the local
seat makes its automatic one, what follows its complete round; in the order of :data:`KINDS`."""
