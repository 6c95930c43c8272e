"""Test utilities: drive in-memory tables step by step and inject cheating envelopes.

:class:`Driver` runs a match like :func:`p2pcards.offline.memory.run_in_memory`, one delivery or one
bot decision per :meth:`Driver.step`, so a test can stop at a chosen moment
(:meth:`Driver.run_until`) and craft envelopes with :func:`craft` (any payload, sealed with any
identity key, at any chain position). Honest tables that raise :class:`Violation` are recorded in
:attr:`Driver.violations` and stop being fed.

A seat can be *detached* (:meth:`Driver.detach`): its table no longer speaks for it and a
*puppet* (:meth:`Driver.puppet_step`) crafts its messages from the detached table's secrets
(hand key, hand positions). That is how a move the cheater's own engine would refuse is made and
the match carried on, so that honest peers accept it live and catch it in the replay after the
keys are revealed.
"""

from __future__ import annotations

import functools
import hashlib
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p2pcards.bots import make_bot
from p2pcards.bots.base import Bot, choose_claim
from p2pcards.games.base import Action
from p2pcards.offline.memory import MatchRun, make_tables, run_in_memory
from p2pcards.records.transcript import TranscriptWriter
from p2pcards.seating.genesis import Genesis
from p2pcards.table import Table, Violation
from p2pcards.table.cycle import DeckCycle
from p2pcards.table.voice import Voice
from p2pcards.wire import (
    Envelope,
    IdentityKey,
    Payload,
    PublicIdentity,
    envelope_hash,
    open_envelope,
    seal,
)


def voice_of(table: Table) -> Voice:
    """The seat's secrets and message bodies (test access to the table's internals: a cheating
    peer signs with the key its table holds and draws from the same randomness, so that a
    crafted message is the one the seat would have sent, byte for byte)."""
    voice = table._voice
    assert voice is not None
    return voice


def identity_of(table: Table) -> IdentityKey:
    """The seat's private identity key."""
    return voice_of(table).identity


def cycle_of(table: Table) -> DeckCycle:
    """The deck in play at ``table`` (:attr:`Table.cycle`); the test fails if there is none."""
    cycle = table.cycle
    assert cycle is not None, "no deck is in play"
    return cycle


def keys_of(genesis: Genesis) -> list[PublicIdentity]:
    """The seats' public identity keys, in seat order."""
    return [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]


def decode(data: bytes, genesis: Genesis) -> tuple[Envelope, Payload]:
    """Open a genuine envelope of this table (signature checked)."""
    return open_envelope(data, keys_of(genesis))


def craft(key: IdentityKey, *, table_id: bytes, seq: int, prev: bytes, seat: int, kind: str,
          body: dict[str, Any]) -> bytes:
    """Seal an arbitrary payload with ``key`` and return the envelope bytes."""
    payload = Payload(table_id=table_id, seq=seq, prev=prev, seat=seat, kind=kind, body=body)
    return seal(payload, key).encode()


def resign(data: bytes, genesis: Genesis, key: IdentityKey, **changes: Any) -> bytes:
    """A copy of a genuine envelope with payload fields replaced (e.g. ``body=...``), re-signed."""
    _, payload = decode(data, genesis)
    fields = {"table_id": payload.table_id, "seq": payload.seq, "prev": payload.prev,
              "seat": payload.seat, "kind": payload.kind, "body": payload.body}
    fields.update(changes)
    return craft(key, **fields)


def forged_recover(table: Table, dropped: int) -> bytes:
    """A ``recover`` of ``table``'s seat beginning the recovery of ``dropped`` at the chain
    head, with the body an honest first ``recover`` would carry there (its share of
    ``dropped``'s key, its own secret with ``forfeit``, its tokens with ``bot``): what a joiner
    would send to begin a recovery itself. ``table`` is left as it was."""
    assert table.seat is not None
    body = voice_of(table).recover_body(table.cycle, dropped)
    return craft(identity_of(table), table_id=table.table_id, seq=table.chain.next_seq,
                 prev=table.chain.head, seat=table.seat, kind="recover", body=body)


def play_body(table: Table, action: Action) -> dict[str, Any]:
    """The body of an ``action`` message of ``table``'s seat playing ``action`` (which may be
    illegal), proven as the seat would prove it (:meth:`~p2pcards.table.voice.Voice.action_body`):
    the card's deck position and, if not yet public, the owner's reveal token."""
    return voice_of(table).action_body(cycle_of(table), action, table.engine.card_use(action),
                                       index=table.chain.next_seq)


@dataclass
class Driver:
    """A match among in-memory tables, driven one step at a time (see the module docstring)."""

    genesis: Genesis
    tables: list[Table]
    bots: list[Bot]
    queue: deque[tuple[int, bytes]] = field(default_factory=deque)
    log: list[bytes] = field(default_factory=list)
    """Every envelope delivered, in chain order."""
    violations: dict[int, Violation] = field(default_factory=dict)
    detached: dict[int, Table] = field(default_factory=dict)
    tamper: Callable[[int, bytes], bytes | None] | None = None
    """Called before each delivery with (sender, envelope); a returned envelope is offered to the
    other tables first (recorded in :attr:`tampered`), then the genuine one is delivered."""
    tampered: list[tuple[int, bytes, dict[int, Violation | None]]] = field(default_factory=list)
    puppet_played: set[int] = field(default_factory=set)
    offered: set[tuple[int, int]] = field(default_factory=set)
    """(seat, chain index) of every claim window already offered to that seat's bot."""
    lost: list[tuple[int, bytes]] = field(default_factory=list)
    """(sender, envelope) of claim-window messages dropped because another came first."""

    silent: set[int] = field(default_factory=set)
    """Detached seats that send nothing more (a dropout): :meth:`step` waits for them."""

    @classmethod
    def new(cls, game: str, preset: str, players: int, seed: int,
            flags: dict[str, object] | None = None, bot: str = "smart",
            dropout: str | None = None) -> Driver:
        genesis, tables = make_tables(game, preset, players, seed=seed, flags=flags,
                                      dropout=dropout)
        bots = [make_bot(game, bot, seed * 10 + i) for i in range(players)]
        driver = cls(genesis, tables, bots)
        for i, table in enumerate(tables):
            driver._queue(i, table.start().outgoing)
        return driver

    # ---------------------------------------------------------------- state

    @property
    def live(self) -> list[int]:
        """Seats whose tables are still driven (not detached, no violation)."""
        return [i for i in range(len(self.tables))
                if i not in self.detached and i not in self.violations]

    @property
    def position(self) -> int:
        """The next chain position (valid when the queue is empty)."""
        return len(self.log)

    @property
    def head(self) -> bytes:
        return hashlib.sha256(self.log[-1]).digest() if self.log else bytes(32)

    @property
    def table_id(self) -> bytes:
        return self.genesis.table_id

    def expected(self) -> tuple[int, str] | None:
        return self.tables[self.live[0]].expected

    def longest_frames(self) -> list[bytes]:
        return max((self.tables[i].frames for i in range(len(self.tables))
                    if i not in self.detached), key=len)

    # ---------------------------------------------------------------- driving

    def _queue(self, sender: int, outgoing: Iterable[bytes]) -> None:
        self.queue.extend((sender, data) for data in outgoing)

    def offer(self, data: bytes, sender: int, to: Iterable[int] | None = None
              ) -> dict[int, Violation | None]:
        """Feed ``data`` to the live tables other than ``sender``; return each one's violation
        (``None`` when accepted). Accepting tables' replies are queued."""
        results: dict[int, Violation | None] = {}
        accepted = False
        for i in (self.live if to is None else list(to)):
            if i == sender:
                continue
            before = len(self.tables[i].frames)
            try:
                step = self.tables[i].receive(data)
            except Violation as exc:
                results[i] = exc
                if len(self.tables[i].frames) > before:  # found after accepting: table halts
                    accepted = True
                    self.violations[i] = exc
                    self._queue(i, self.tables[i].frames[before + 1:])
                continue
            results[i] = None
            accepted = True
            self._queue(i, step.outgoing)
        if accepted:
            self.log.append(data)
        return results

    def _deliver(self, sender: int, data: bytes) -> None:
        if self.tamper is not None:
            forged = self.tamper(sender, data)
            if forged is not None:
                position = len(self.log)
                results = {i: _rejection(self.tables[i], forged)
                           for i in self.live if i != sender}
                self.tampered.append((position, forged, results))
        lost = False
        for i in self.live:
            table = self.tables[i]
            if i == sender and (table.proposal is None or table.proposal != data):
                continue
            before = len(self.tables[i].frames)
            try:
                step = self.tables[i].receive(data)
            except Violation as exc:
                if exc.rule == "lost-race":  # a claim-window message that came second
                    lost = True
                    continue
                self.violations[i] = exc
                # The table may have accepted messages of its own before the violation was
                # found (its automatic reveal completing the round): send them on.
                extra = self.tables[i].frames[before + 1:]
                self._queue(i, extra)
                continue
            self._queue(i, step.outgoing)
        if lost:
            self.lost.append((sender, data))
        else:
            self.log.append(data)

    def step(self) -> bool:
        """One delivery or one decision; False when nothing can move."""
        if self.queue:
            self._deliver(*self.queue.popleft())
            return True
        live = self.live
        if not live or all(self.tables[i].finished for i in live):
            return False
        for i in live:
            claims = self.tables[i].claim_actions()
            key = (i, self.tables[i].chain.next_seq)
            if claims and key not in self.offered:
                self.offered.add(key)
                choice = choose_claim(self.bots[i], self.tables[i].observation(), claims)
                if choice is not None:
                    self._queue(i, self.tables[i].claim(choice).outgoing)
                    return True
        deciders = [i for i in live if self.tables[i].needs_decision]
        if deciders:
            i = deciders[0]
            table = self.tables[i]
            action = self.bots[i].choose(table.observation(), table.legal_actions())
            self._queue(i, table.decide(action).outgoing)
            return True
        expected = self.expected()
        if (expected is not None and expected[0] in self.detached
                and expected[0] not in self.silent):
            return self.puppet_step(expected[0], expected[1])
        return False

    def recover(self, by: int, seat: int) -> None:
        """Seat ``by`` begins the recovery of the silent ``seat`` (its table's
        :meth:`~p2pcards.table.Table.recover`); the others follow as the driver runs."""
        self._queue(by, self.tables[by].recover(seat).outgoing)

    def run_until(self, predicate: Callable[[Driver], bool], limit: int = 100_000) -> None:
        """Step until ``predicate`` holds with an empty queue; AssertionError if never."""
        for _ in range(limit):
            if not self.queue and predicate(self):
                return
            if not self.step():
                raise AssertionError("the match ended before the awaited moment")
        raise AssertionError("step limit reached")

    def run_out(self, limit: int = 100_000) -> None:
        """Step until nothing moves (match over, or every live table stopped)."""
        for _ in range(limit):
            if not self.step():
                return
        raise AssertionError("step limit reached")

    def decision_of(self, seat: int) -> Callable[[Driver], bool]:
        return lambda d: d.tables[seat].needs_decision

    # ---------------------------------------------------------------- cheating seat

    def detach(self, seat: int) -> Table:
        """Stop driving ``seat``'s table; from now on :meth:`puppet_step` speaks for it."""
        table = self.tables[seat]
        self.detached[seat] = table
        return table

    def send_as(self, seat: int, kind: str, body: dict[str, Any]) -> dict[int, Violation | None]:
        """Craft the detached ``seat``'s next message at the chain head and offer it."""
        data = craft(identity_of(self.tables[seat]), table_id=self.table_id, seq=self.position,
                     prev=self.head, seat=seat, kind=kind, body=body)
        return self.offer(data, seat)

    def puppet_step(self, seat: int, kind: str) -> bool:
        """Make the detached seat's next message: a card of its hand accepted live, or its key
        reveal; False if none is accepted."""
        table = self.detached[seat]
        cycle = cycle_of(table)
        if kind == "reveal":
            assert cycle.my_key is not None
            results = self.send_as(seat, "reveal", {"secret": cycle.my_key.secret.to_bytes()})
            return any(v is None or i in self.violations for i, v in results.items())
        if kind != "action":
            raise NotImplementedError(f"the puppet cannot send {kind!r} messages")
        for position in list(cycle.hand_positions.get(seat, [])):
            if position in self.puppet_played:
                continue
            card = cycle.decrypt(position, own=seat)
            body: dict[str, Any] = {"action": Action("play", card).to_wire(), "position": position}
            if seat not in cycle.public.get(position, set()):
                body["token"] = cycle.token(seat, position, f"play-{position}",
                                            voice_of(table).rng).to_wire()
            data = craft(identity_of(table), table_id=self.table_id, seq=self.position,
                         prev=self.head, seat=seat, kind="action", body=body)
            results = self.offer(data, seat)  # a rejected envelope changes nothing
            if all(v is None for v in results.values()):
                self.puppet_played.add(position)
                return True
            assert all(v is not None for v in results.values()), results
        dealt = getattr(table.engine, "_dealt", None)
        if dealt is not None:  # Tresette good play: the announcement may be due
            from p2pcards.games.tressette_rules import announcement_of

            value = announcement_of(c for c in dealt[seat] if c is not None)
            results = self.send_as(seat, "action", {"action": {"kind": "announce",
                                                                "value": value}})
            return all(v is None for v in results.values())
        return False


def _rejection(table: Table, data: bytes) -> Violation | None:
    """Offer ``data`` to ``table``: its violation, or ``None`` if it (wrongly) accepted it."""
    try:
        table.receive(data)
    except Violation as exc:
        return exc
    return None


def write_transcript(path: Path, genesis: Genesis, frames: Iterable[bytes]) -> Path:
    """Write a transcript file of ``frames`` after ``genesis``."""
    with TranscriptWriter.create(path, genesis.encode(), fsync=False) as writer:
        for frame in frames:
            writer.append(frame)
    return path


def spliced(frames: list[bytes], position: int, forged: bytes, after: int = 3) -> list[bytes]:
    """The honest frames up to ``position``, the forged envelope, then ``after`` honest ones."""
    return frames[:position] + [forged] + frames[position:position + after]


def envelope_hash_of(data: bytes) -> bytes:
    return envelope_hash(Envelope.decode(data))


@functools.cache
def recorded_match(game: str, preset: str, players: int, seed: int) -> MatchRun:
    """A whole bot match among in-memory peers (cached for the test session)."""
    genesis, tables = make_tables(game, preset, players, seed=seed)
    bots = [make_bot(game, "smart", seed * 10 + i) for i in range(players)]
    return run_in_memory(genesis, tables, bots)
