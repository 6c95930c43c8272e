"""A seat rebuilt from its transcript and its kept secrets (``Table.resume``), in memory.

A match among in-memory tables is played by a small hub loop; at a chosen moment one seat
"crashes": its table is thrown away and a new one is made from the frames it had written and
the secrets its keeper holds. The new table must be in exactly the old one's state, owe the
messages the old one had not sent yet (made afresh, never a second envelope for a position
already signed), and the match must end with one chain that verifies.

The hub loop keeps and deletes secrets as a session does (:meth:`Match.settle`): after each
step the count of each seat's own envelopes is kept (``signed``) and the keys of every spent
deck are deleted, so a rebuilt seat has only what a crashed process leaves.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards.bots.base import Bot
from p2pcards.bots.loader import load_bot
from p2pcards.crypto import SystemRandomness
from p2pcards.offline.memory import make_genesis
from p2pcards.records.secret_store import (
    PROPOSAL,
    SIGNED,
    MemoryKeeper,
    decode_count,
    encode_count,
    hand_name,
    inbox_name,
    spent_names,
)
from p2pcards.records.transcript import TranscriptWriter
from p2pcards.seating.secrets import new_seat
from p2pcards.table import ResumeError, Table
from p2pcards.verify import verify_transcript
from p2pcards.wire import Envelope, Payload

GAME, PRESET = "briscola", "italian"


class Match:
    """Two seats with keepers, driven by a hub loop that can crash one of them."""

    def __init__(self, players: int = 2, game: str = GAME, preset: str = PRESET,
                 dropout: str | None = None) -> None:
        self.secrets = [new_seat() for _ in range(players)]
        self.genesis = make_genesis(game, preset, [s.info(f"s{i}") for i, s in
                                                   enumerate(self.secrets)], dropout=dropout)
        self.keepers = [MemoryKeeper() for _ in range(players)]
        self.tables = [self.table(i) for i in range(players)]
        self.bots: list[Bot] = [load_bot("smart", game, i, i) for i in range(players)]
        self.queue: deque[tuple[int, bytes]] = deque()
        self.spent = [0] * players

    def settle(self) -> None:
        """What a session does once a step's frames are written: keep each seat's count of
        its own envelopes and delete the kept keys of every deck spent since."""
        for seat, table in enumerate(self.tables):
            own = sum(1 for i in range(len(table.frames)) if table.chain.seat_of(i) == seat)
            if own:
                self.keepers[seat].keep(SIGNED, encode_count(own))
            for cycle in table.spent[self.spent[seat]:]:
                for name in spent_names(cycle):
                    self.keepers[seat].drop(name)
            self.spent[seat] = len(table.spent)

    def table(self, seat: int) -> Table:
        s = self.secrets[seat]
        return Table(self.genesis, seat=seat, identity=s.identity,
                     x25519_private=s.x25519_private, rng=SystemRandomness(),
                     keeper=self.keepers[seat])

    def start(self) -> None:
        for i, table in enumerate(self.tables):
            self.queue.extend((i, d) for d in table.start().outgoing)

    def run(self, hook: Callable[[Match, int], None] = lambda m, n: None) -> None:
        """Deliver and decide until the match ends; ``hook(match, n)`` runs before the n-th
        delivery or decision."""
        n = 0
        while not all(t.finished for t in self.tables):
            hook(self, n)
            n += 1
            if self.queue:
                sender, data = self.queue.popleft()
                for i, table in enumerate(self.tables):
                    if i != sender:
                        self.queue.extend((i, d) for d in table.receive(data).outgoing)
                self.settle()
                continue
            i = next(i for i, t in enumerate(self.tables) if t.needs_decision)
            t = self.tables[i]
            step = t.decide(self.bots[i].choose(t.observation(), t.legal_actions()))
            self.queue.extend((i, d) for d in step.outgoing)
            self.settle()


def kind_of(data: bytes) -> str:
    return Payload.decode(Envelope.decode(data).payload).kind


def same_state(a: Table, b: Table) -> None:
    assert a.frames == b.frames
    assert a.chain.head == b.chain.head
    assert a.expected == b.expected
    assert a.observation() == b.observation()
    assert a.needs_decision == b.needs_decision
    assert a.legal_actions() == b.legal_actions()


def verified(match: Match, tmp_path: Path) -> None:
    frames = match.tables[0].frames
    assert all(t.frames == frames for t in match.tables)
    path = tmp_path / f"match-{os.urandom(6).hex()}.p2pt"
    with TranscriptWriter.create(path, match.genesis.encode(), fsync=False) as out:
        for data in frames:
            out.append(data)
    assert verify_transcript(path).status == "valid"


@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moment=st.integers(min_value=0, max_value=160), victim=st.integers(0, 1))
def test_a_seat_rebuilt_from_everything_it_wrote_is_the_same_seat(
        tmp_path: Path, moment: int, victim: int) -> None:
    """Each example is a whole match of two seats, so it draws 3 of them: the exact cases of
    test_a_seat_of_a_table_that_shares_keys_resumes_at_every_moment rebuild a seat after every
    kind of envelope in every hand of a match (three and four seats), and
    test_messages_made_but_never_written_are_made_again crashes one of two seats once it has
    made its key, shuffle, tokens or reveal message."""
    match = Match()
    match.start()
    crashed: list[int] = []

    def crash(m: Match, n: int) -> None:
        if n != moment or m.tables[victim].finished:
            return
        old = m.tables[victim]
        new = m.table(victim)
        step = new.resume(old.frames)
        assert step.outgoing == []  # everything it had made was written and sent
        same_state(old, new)
        m.tables[victim] = new
        crashed.append(n)

    match.run(crash)
    verified(match, tmp_path)


@settings(max_examples=2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moment=st.integers(min_value=0, max_value=200), victim=st.integers(0, 2))
def test_a_seat_of_a_table_that_shares_hand_keys_gets_its_inbox_key_back(
        tmp_path: Path, moment: int, victim: int) -> None:
    """With a dropout policy each seat also holds an inbox key per hand (the key that opens
    the shares of the other seats' hand keys dealt to it): it is kept with the hand key until
    the deck is spent, and the rebuilt seat holds the same one (none for a spent deck).
    Each example is a whole Scopa match of 3 seats, so it draws 2 of them: the exact cases of
    test_a_seat_of_a_table_that_shares_keys_resumes_at_every_moment check the same inbox key
    (and the key shares) after every kind of envelope in every hand of a match."""
    match = Match(3, "scopa", "classic", dropout="forfeit")
    match.start()

    def crash(m: Match, n: int) -> None:
        if n != moment or m.tables[victim].finished:
            return
        old = m.tables[victim]
        new = m.table(victim)
        new.resume(old.frames)
        same_state(old, new)
        if old.cycle is not None and old.cycle.number not in old.spent:
            assert new.cycle is not None and new.cycle.my_inbox == old.cycle.my_inbox
        m.tables[victim] = new

    match.run(crash)
    verified(match, tmp_path)


@pytest.mark.parametrize("lost", ["key", "shuffle", "tokens", "reveal"])
def test_messages_made_but_never_written_are_made_again(tmp_path: Path, lost: str) -> None:
    """The crash came after the seat made its next messages and before they were written (so
    before they were sent): the rebuilt seat makes them again, with fresh randomness (a fresh
    hand key for a lost ``key``), and the match goes on with those."""
    match = Match()
    victim = 1
    done: list[str] = []
    old_receive = match.tables[victim].receive

    def intercept(data: bytes) -> object:
        step = old_receive(data)
        if done or not step.outgoing or kind_of(step.outgoing[0]) != lost:
            return step
        old = match.tables[victim]
        written = old.frames[:len(old.frames) - len(step.outgoing)]
        new = match.table(victim)
        again = new.resume(written)
        assert [kind_of(d) for d in again.outgoing] == [kind_of(d) for d in step.outgoing]
        assert new.frames == written + again.outgoing
        match.tables[victim] = new
        done.append(lost)
        step.outgoing = again.outgoing
        return step

    match.tables[victim].receive = intercept  # type: ignore[method-assign]
    match.start()
    match.run()
    assert done == [lost]
    verified(match, tmp_path)


def test_the_hand_key_is_kept_before_it_is_used_and_spent_after_the_reveal() -> None:
    match = Match()
    match.start()
    seen: list[tuple[int, set[str], list[int]]] = []

    def watch(m: Match, n: int) -> None:
        t = m.tables[0]
        seen.append((len(t.frames), set(m.keepers[0].items), list(t.spent)))

    match.run(watch)
    first_key = next(i for i, d in enumerate(match.tables[0].frames)
                     if kind_of(d) == "key" and Payload.decode(Envelope.decode(d).payload).seat
                     == 0)
    # kept by the time the seat's key envelope exists, deleted once the deck is spent
    assert all(hand_name(0) in items for count, items, spent in seen
               if count > first_key and 0 not in spent)
    assert all(hand_name(0) not in items for _, items, spent in seen if 0 in spent)
    assert any(0 in spent for _, _, spent in seen)
    # the table says when every key of a cycle is revealed
    assert match.tables[0].spent == list(range(match.tables[0]._cycle_count))


def test_a_missing_hand_key_is_named() -> None:
    match = Match()
    match.start()
    stop = 60

    def crash(m: Match, n: int) -> None:
        if n != stop:
            return
        old = m.tables[1]
        m.keepers[1].items.clear()
        with pytest.raises(ResumeError, match=r"the key of hand cycle 0 of seat 1 is not among "
                                              r"the kept secrets"):
            m.table(1).resume(old.frames)
        raise _Stop

    with pytest.raises(_Stop):
        match.run(crash)


def test_a_kept_key_that_is_not_the_published_one_is_refused() -> None:
    match = Match()
    match.start()

    def crash(m: Match, n: int) -> None:
        if n != 60:
            return
        m.keepers[1].items[hand_name(0)] = bytes([7]) + bytes(31)
        with pytest.raises(ResumeError, match="is not the key seat 1 published"):
            m.table(1).resume(m.tables[1].frames)
        raise _Stop

    with pytest.raises(_Stop):
        match.run(crash)


class _Stop(Exception):
    pass


@pytest.mark.parametrize("later", [0, 7, 40])
def test_a_seat_resumed_after_the_bot_took_another_seat_is_the_same_seat(
        tmp_path: Path, later: int) -> None:
    """``dropout = bot``: seat 2 falls silent and the public bot takes it; ``later`` decisions
    after that, seat 1 crashes and is rebuilt from its frames and kept keys. The rebuilt seat
    replays the bot's moves (which are in no envelope) to the same state and the match ends
    with every table agreeing."""
    match = Match(3, "scopa", "classic", dropout="bot")
    match.start()
    tables, queue, live = match.tables, match.queue, [0, 1, 2]
    decisions = 0
    rebuilt = False
    while not all(tables[i].finished for i in live):
        if queue:
            sender, data = queue.popleft()
            for i in live:
                if i != sender:
                    queue.extend((i, d) for d in tables[i].receive(data).outgoing)
            continue
        if 2 in live and tables[0].expected == (2, "action") and tables[0].chain.next_seq > 20:
            live.remove(2)  # silent from here on
            queue.extend((0, d) for d in tables[0].recover(2).outgoing)
            continue
        if tables[0].bot_seat == 2 and not rebuilt and decisions >= later:
            old, new = tables[1], match.table(1)
            assert new.resume(old.frames).outgoing == []
            same_state(old, new)
            assert new.bot_seat == 2
            tables[1] = new
            rebuilt = True
        i = next(i for i in live if tables[i].needs_decision)
        step = tables[i].decide(match.bots[i].choose(tables[i].observation(),
                                                     tables[i].legal_actions()))
        queue.extend((i, d) for d in step.outgoing)
        if tables[0].bot_seat == 2:
            decisions += 1
    assert rebuilt
    assert tables[0].frames == tables[1].frames
    path = tmp_path / "bot.p2pt"
    with TranscriptWriter.create(path, match.genesis.encode(), fsync=False) as out:
        for data in tables[0].frames:
            out.append(data)
    report = verify_transcript(path)
    assert report.status == "valid" and report.dropout is not None and report.dropout.bot


KINDS = ("key", "shuffle", "tokens", "action", "reveal", "result")


def last_kind(table: Table) -> str | None:
    return kind_of(table.frames[-1]) if table.frames else None


def only_the_deck_in_play(match: Match, seat: int) -> None:
    """What the keeper holds is the minimum: the keys of the one deck not yet spent, the
    unplaced proposal and the count of envelopes signed."""
    table = match.tables[seat]
    allowed = {PROPOSAL, SIGNED}
    for cycle in range(table._cycle_count):
        if cycle not in table.spent:
            allowed.update(spent_names(cycle))
    held = set(match.keepers[seat].items)
    assert held <= allowed, (held, table.spent)
    assert len({name for name in held if name.startswith(("hand", "inbox"))}) <= 2


@pytest.mark.parametrize("players,game,preset,dropout", [
    (3, "briscola", "italian", "forfeit"),
    (4, "briscola", "italian", "bot"),
])
def test_a_seat_of_a_table_that_shares_keys_resumes_at_every_moment(
        tmp_path: Path, players: int, game: str, preset: str, dropout: str) -> None:
    """Three and four seats with key sharing (italian Briscola: three hands at 3 seats, two at
    4): in every hand of one match, one seat crashes right after it accepted the first envelope
    of each kind in turn (the seats' ``accept`` too in the first hand; the seat that crashes
    turns with each crash, starting from the hand's number), while the keys of the decks
    already spent are deleted as a session deletes them. Every rebuilt seat is the same seat,
    its keeper never holds more than the deck in play's keys, and the match ends with one chain
    that verifies."""
    match = Match(players, game, preset, dropout=dropout)
    hands = {3: 3, 4: 2}[players]
    wanted = [(hand, kind) for hand in range(hands)
              for kind in (["accept", *KINDS] if hand == 0 else KINDS)]
    pending = list(wanted)
    rebuilt: list[tuple[int, str]] = []
    match.start()

    def crash(m: Match, n: int) -> None:
        for seat in range(players):
            only_the_deck_in_play(m, seat)
        if not pending:
            return
        hand, kind = pending[0]
        victim = (sum(1 for h, _ in rebuilt if h == hand) + hand) % players
        old = m.tables[victim]
        number = old.cycle.number if old.cycle is not None else 0  # no deck before "key"
        if old.finished or number != hand or last_kind(old) != kind:
            return
        new = m.table(victim)
        assert new.resume(old.frames).outgoing == []
        same_state(old, new)
        if old.cycle is not None and old.cycle.number not in old.spent:
            assert new.cycle is not None  # a spent deck's inbox key is deleted
            assert new.cycle.my_inbox == old.cycle.my_inbox
            assert new.cycle.my_shares == old.cycle.my_shares
        m.tables[victim] = new
        rebuilt.append(pending.pop(0))

    match.run(crash)
    assert rebuilt == wanted
    verified(match, tmp_path)


def test_a_seat_whose_key_was_rebuilt_by_the_others_resumes_without_it(tmp_path: Path) -> None:
    """``dropout = bot``: seat 2 falls silent mid-hand, the others rebuild its hand key from
    their shares and the public bot takes the seat; the deck is spent and its kept keys deleted.
    Seat 2 comes back: its key of that deck is taken from the others' shares in the chain."""
    match = Match(3, "scopa", "classic", dropout="bot")
    match.start()
    tables, queue, live = match.tables, match.queue, [0, 1, 2]
    while tables[0].bot_seat is None or tables[0].spent == []:
        if queue:
            sender, data = queue.popleft()
            for i in live:
                if i != sender:
                    queue.extend((i, d) for d in tables[i].receive(data).outgoing)
            match.settle()
            continue
        if 2 in live and tables[0].expected == (2, "action") and tables[0].chain.next_seq > 20:
            live.remove(2)
            queue.extend((0, d) for d in tables[0].recover(2).outgoing)
            continue
        i = next(i for i in live if tables[i].needs_decision)
        step = tables[i].decide(match.bots[i].choose(tables[i].observation(),
                                                     tables[i].legal_actions()))
        queue.extend((i, d) for d in step.outgoing)
        match.settle()
    frames = tables[0].frames
    spent = tables[0].spent[0]
    match.keepers[2].items.pop(hand_name(spent), None)
    match.keepers[2].items.pop(inbox_name(spent), None)
    assert hand_name(spent) not in match.keepers[2].items
    back = match.table(2)
    back.resume(frames)
    assert back.frames == frames and back.bot_seat == 2
    assert back.chain.head == tables[0].chain.head


def test_a_transcript_cut_before_the_seats_own_envelope_is_refused() -> None:
    """The keeper says seat 1's transcript held more of its envelopes than the one given: the
    seat would sign a second envelope in the place of one it signed, so it does not resume."""
    match = Match()
    match.start()

    def crash(m: Match, n: int) -> None:
        old = m.tables[1]
        if n < 40 or old.chain.seat_of(len(old.frames) - 1) != 1:
            return
        kept = m.keepers[1].load(SIGNED)
        assert kept is not None
        own = decode_count(kept)
        assert own == sum(1 for i in range(len(old.frames)) if old.chain.seat_of(i) == 1)
        cut = old.frames[:-1]
        with pytest.raises(ResumeError) as caught:
            m.table(1).resume(cut)
        assert str(caught.value) == (
            f"the transcript ends after {len(cut)} envelopes, {own - 1} of them seat 1's, but "
            f"the seat had already signed {own}: resuming from it would sign a second, "
            "different envelope for a place the seat has signed, so resume from a complete "
            "copy of the transcript (every player's holds the same chain)")
        again = m.table(1)
        assert again.resume(old.frames).outgoing == []  # the whole transcript resumes
        same_state(old, again)
        raise _Stop

    with pytest.raises(_Stop):
        match.run(crash)


def test_a_damaged_count_of_signed_envelopes_is_named() -> None:
    match = Match()
    match.start()

    def crash(m: Match, n: int) -> None:
        if n != 50:
            return
        m.keepers[1].items[SIGNED] = b"\x01\x02"
        with pytest.raises(ResumeError, match=r"^the kept count of seat 1's envelopes is "
                                              r"damaged \(2 bytes, not 8\)$"):
            m.table(1).resume(m.tables[1].frames)
        raise _Stop

    with pytest.raises(_Stop):
        match.run(crash)


@pytest.mark.parametrize("dropout", ["forfeit", "bot"])
@pytest.mark.parametrize("own", [False, True])
def test_a_seat_resumes_in_the_middle_of_a_recovery(tmp_path: Path, dropout: str,
                                                    own: bool) -> None:
    """Seat 2 falls silent and seat 0 begins its recovery; seat 1 crashes right after its own
    ``recover`` was written (``own``), or after seat 0's was and before its own was (the crash
    came before it was written, so it was never sent). The rebuilt seat 1 is the same seat,
    makes its ``recover`` again only in the second case, and the match ends with one chain
    that verifies."""
    match = Match(3, "scopa", "classic", dropout=dropout)
    match.start()
    tables, queue, live = match.tables, match.queue, [0, 1, 2]
    rebuilt: list[str] = []

    def deliver(i: int, data: bytes) -> list[bytes]:
        step = tables[i].receive(data)
        if i != 1 or rebuilt or kind_of(data) != "recover":
            return step.outgoing
        old, new = tables[1], match.table(1)
        made = step.outgoing if not own else []
        again = new.resume(old.frames[:len(old.frames) - len(made)])
        assert [kind_of(d) for d in again.outgoing] == [kind_of(d) for d in made]
        if own:
            same_state(old, new)
        tables[1] = new
        rebuilt.append(dropout)
        return again.outgoing if not own else step.outgoing

    while not all(tables[i].finished for i in live if i != 2):
        if queue:
            sender, data = queue.popleft()
            for i in live:
                if i != sender:
                    queue.extend((i, d) for d in deliver(i, data))
            match.settle()
            continue
        if 2 in live and tables[0].expected == (2, "action") and tables[0].chain.next_seq > 20:
            live.remove(2)  # silent from here on
            queue.extend((0, d) for d in tables[0].recover(2).outgoing)
            match.settle()
            continue
        i = next(i for i in live if tables[i].needs_decision)
        step = tables[i].decide(match.bots[i].choose(tables[i].observation(),
                                                     tables[i].legal_actions()))
        queue.extend((i, d) for d in step.outgoing)
        match.settle()
    assert rebuilt == [dropout]
    assert tables[0].frames == tables[1].frames
    path = tmp_path / "recovery.p2pt"
    with TranscriptWriter.create(path, match.genesis.encode(), fsync=False) as out:
        for data in tables[0].frames:
            out.append(data)
    report = verify_transcript(path)
    assert report.status == "valid" and report.dropout is not None
    assert report.dropout.forfeit == (dropout == "forfeit")
