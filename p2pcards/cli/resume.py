"""Coming back after a crash: what ``host``/``join`` keep, and the ``resume`` command.

``host`` and ``join`` keep a match record and the seats' secrets in ``secrets/`` under the
p2pcards home (owner-only files, :mod:`p2pcards.records.secret_store`), and delete them when the
match is over. After a crash (the process killed, the machine restarted) ``p2pcards resume`` finds
the record of the newest unfinished match (or of the transcript named, or of the ``--seat`` named:
one home may keep the records of several seats of one table, each process's own), rebuilds
the seats from the transcript and brings them back into the match, while the other players
wait for them (each peer's ``--return-wait``, by default the table's move timeout).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

from ..faces.terminal import BotLog, PersonUI, StdinLines
from ..i18n import _
from ..net.away import MAX_RETURN_WAIT
from ..net.comeback import Comeback, KeptSeat, recorded_seat
from ..net.errors import MatchFailure
from ..net.interrupts import ON_SIGNAL
from ..net.player import Player
from ..net.resume import ResumedSeat, resume_match
from ..net.seats import bot_player
from ..records.identity_store import IdentityStoreError, config_dir, load_or_create_identity
from ..records.match_record import JOINER, MatchRecord, RecordError
from ..records.secret_store import SecretStore, SecretStoreError, TableLock
from ..records.transcript import TranscriptError, TranscriptWriter, read_transcript
from ..seating.genesis import Genesis
from ..table import Table
from ..wire.errors import ProtocolError
from ..wire.identity import IdentityKey
from .errors import EXIT_USAGE, UserError, first_failure
from .signals import on_signal
from .web import WebTable, web_options, web_table

__all__ = ["secret_store", "RecordFacts", "comeback_for", "return_wait", "register"]


def secret_store() -> SecretStore:
    """The secret store of this p2pcards home."""
    return SecretStore(config_dir() / "secrets")


@dataclass
class RecordFacts:
    """What the match record says besides the seats, filled in as it becomes known."""

    role: str
    invite: str = ""
    transcript: Callable[[], Path | None] = lambda: None
    listen: tuple[str, int] | None = None
    relay_identity: bytes | None = None
    relay_patience: float = 90.0
    seed: int | None = None


def comeback_for(facts: RecordFacts, wait: float | None, own_player: str,
                 stored: IdentityKey | None) -> Comeback:
    """The :class:`Comeback` of a ``host`` or ``join``: records kept in :func:`secret_store`;
    ``own_player`` is ``person`` or ``bot:KIND`` for the seat the user plays."""

    def record(genesis: Genesis, seats: Sequence[KeptSeat],
               bots: frozenset[int]) -> MatchRecord:
        path = facts.transcript()
        recorded = tuple(recorded_seat(KeptSeat(k.seat, k.secrets, own_player)
                                       if k.player == "own" else k, stored) for k in seats)
        return MatchRecord(facts.role, genesis.table_id, str(path or ""), facts.invite,
                           recorded, tuple(sorted(bots)), facts.listen, facts.relay_identity,
                           max(1, round(facts.relay_patience)), facts.seed)

    return Comeback(wait=wait, store=secret_store(), record=record)


def return_wait(args: argparse.Namespace) -> float | None:
    """``--return-wait`` checked (``None``: the table's move timeout)."""
    value = args.return_wait
    if value is None:
        return None
    if not 1 <= value <= MAX_RETURN_WAIT:
        raise UserError(_("--return-wait must be between 1 and {max_return_wait} seconds")
                          .format(max_return_wait=MAX_RETURN_WAIT))
    return float(value)


Found = tuple[Path, MatchRecord]
"""A match record in the store: its file and what it says."""


def _find(store: SecretStore, transcript: str | None,
          seat: int | None) -> tuple[list[Found], Path | None]:
    """The match records that may be the one to resume (all of one table, newest first) and
    the transcript named on the command line (``None``: each record's own). ``seat`` keeps only
    the record of the process that played it. One sentence if there is none."""
    if transcript is None:
        found = _records(store, None, seat)
        if not found:
            which = "" if seat is None else f" of seat {seat}"
            raise UserError(_("there is no unfinished match{which} to resume in "
                              "{store_directory}")
                              .format(which=which, store_directory=store.directory))
        table = found[0][1].table_id
        return [f for f in found if f[1].table_id == table], None
    path = Path(transcript).expanduser().absolute()
    try:
        table = read_transcript(path).table_id
    except FileNotFoundError:
        raise UserError(_("{transcript}: no such transcript")
                          .format(transcript=transcript)) from None
    except (TranscriptError, ProtocolError, OSError) as exc:
        raise UserError(_("{transcript} cannot be read: {exc}")
                          .format(transcript=transcript, exc=exc)) from None
    found = _records(store, table, seat)
    if not found:
        which = "its table" if seat is None else f"seat {seat} of its table"
        raise UserError(_("nothing to resume for {transcript}: this p2pcards home "
                          "({store_directory}) keeps no record of {which} (the match is "
                          "over, or it was played from another home or machine)")
                          .format(transcript=transcript,
                                  store_directory=store.directory,
                                  which=which))
    written_there = [f for f in found if _same_path(Path(f[1].transcript), path)]
    return written_there or found, path


def _records(store: SecretStore, table: bytes | None, seat: int | None) -> list[Found]:
    """The records of the store (of ``table`` if given; with ``seat`` among their seats if
    given), newest first; a record deleted meanwhile (its match ended) is skipped."""
    found: list[Found] = []
    for candidate in store.records(table):
        data = _read(store, candidate)
        if data is None:
            continue
        record = _decode(data, candidate)
        if seat is None or any(s.seat == seat for s in record.seats):
            found.append((candidate, record))
    return found


def _same_path(first: Path, second: Path) -> bool:
    """Whether two paths name the same file (either may be missing)."""
    try:
        return first.resolve() == second.resolve()
    except OSError:
        return first == second


def _read(store: SecretStore, path: Path) -> bytes | None:
    try:
        return store.read(path)
    except SecretStoreError as exc:
        raise UserError(str(exc)) from None


def _decode(data: bytes, path: Path) -> MatchRecord:
    try:
        return MatchRecord.decode(data)
    except RecordError as exc:
        raise UserError(_("the match record {path} is damaged: {exc}")
                          .format(path=path, exc=exc)) from None


def _seat_identity(genesis: Genesis, seat: int, seed: bytes | None) -> IdentityKey:
    """The identity key of a recorded seat, checked against the genesis."""
    if seed is not None:
        key = IdentityKey.from_bytes(seed)
    else:
        try:
            key, _created = load_or_create_identity()
        except IdentityStoreError as exc:
            raise UserError(str(exc), EXIT_USAGE) from None
    if key.public.to_bytes() != genesis.seats[seat].identity:
        raise UserError(_("the identity key for seat {seat} is not the one the table's "
                          "genesis names (was the identity file replaced since the match "
                          "began?)").format(seat=seat))
    return key


def _player(genesis: Genesis, seat: int, kind: str, lines: StdinLines | None,
            web: WebTable | None) -> Player:
    if kind == "person":
        if web is not None:
            return web.player(genesis, seat)
        return PersonUI(genesis, seat, lines or StdinLines()).player()
    bot = bot_player(genesis.game, seat, None, kind.removeprefix("bot:"))
    return Player(bot.decide, BotLog(genesis, seat).show, claim=bot.claim)


def _cmd_resume(args: argparse.Namespace) -> int:
    if args.seat is not None and args.seat < 0:
        raise UserError(_("--seat is a seat number: 0 or more"), EXIT_USAGE)
    store = secret_store()
    found, transcript = _find(store, args.transcript, args.seat)
    record, lock = _claim(store, found)
    try:
        return _resume(args, store, record, transcript or Path(record.transcript))
    finally:
        lock.release()


def _claim(store: SecretStore, found: Sequence[Found]) -> tuple[MatchRecord, TableLock]:
    """The record to resume among ``found`` (records of one table) with its seat's lock,
    taken before anything is read for good. A record whose seat another process holds (a
    second ``resume`` of it, or the process still playing it) is not the one: if every one is
    held, the first's holder is named in one sentence; if more than one is free, the user is
    asked to say which seat."""
    claimed: list[tuple[MatchRecord, TableLock]] = []
    busy: list[str] = []
    for path, record in found:
        try:
            lock = store.lock(record.table_id, record.own_seat)
        except SecretStoreError as exc:
            busy.append(str(exc))
            continue
        if _read(store, path) is None:  # its match has just ended
            lock.release()
            continue
        claimed.append((record, lock))
    if len(claimed) == 1:
        return claimed[0]
    for _seat, lock in claimed:
        lock.release()
    if busy and not claimed:
        raise UserError(busy[0])
    table = found[0][1].table_id.hex()[:16]
    if not claimed:
        raise UserError(_("nothing to resume for table {table}: its match has just ended")
                          .format(table=table))
    seats = " and ".join(str(record.own_seat) for record, _lock in claimed)
    raise UserError(_("this p2pcards home keeps unfinished matches of seats {seats} "
                      "of table {table}: say which seat to resume with --seat N")
                      .format(seats=seats, table=table))


def _resume(args: argparse.Namespace, store: SecretStore, record: MatchRecord,
            path: Path) -> int:
    """Resume the match of ``record`` from its transcript at ``path`` (the lock is held)."""
    try:
        writer = TranscriptWriter.resume(path, fsync=False)
    except FileNotFoundError:
        raise UserError(_("the transcript of this match, {path}, is gone: it cannot be "
                          "resumed without it").format(path=path)) from None
    except (TranscriptError, ProtocolError, OSError) as exc:
        raise UserError(_("the transcript {path} cannot be resumed: {exc}")
                          .format(path=path, exc=exc)) from None
    existing = writer.existing
    assert existing is not None
    try:
        genesis = Genesis.decode(existing.genesis)
        if genesis.table_id != record.table_id:
            raise UserError(_("the transcript {path} is of another table than its match "
                              "record").format(path=path))
        if args.no_browser and not args.web:
            raise UserError(_("--no-browser goes with --web"), EXIT_USAGE)
        person = any(s.player == "person" for s in record.seats)
        lines = StdinLines() if person and not args.web else None
        keys = [(s.seat, _seat_identity(genesis, s.seat, s.identity), s.x25519, s.player)
                for s in record.seats]
    except BaseException:
        writer.close()
        raise
    wait = return_wait(args)
    patience = float(wait if wait is not None else genesis.timeouts["action"])
    role = "joiner" if record.role == JOINER else "host"
    print(f"resuming seat {', '.join(str(s.seat) for s in record.seats)} ({role}) of table "
          f"{genesis.table_id.hex()[:16]} from envelope {len(existing.envelopes)} of {path}",
          flush=True)

    def say(text: str) -> None:
        print(text, flush=True)

    async def main() -> Table:
        ON_SIGNAL.set(on_signal(args, lines))
        async with web_table(args, say, lambda: path) as web:
            seats: list[ResumedSeat] = [(seat, key, x25519, _player(genesis, seat, kind, lines,
                                                                     web))
                                        for seat, key, x25519, kind in keys]
            return await resume_match(record, genesis, existing.envelopes, seats, writer,
                                      store, patience=patience, notice=say)

    try:
        table = trio.run(main)
    except BaseException as raw:  # noqa: BLE001 - unwrapped below
        failure = first_failure(raw)
        print(f"transcript (incomplete): {path}", flush=True)
        if isinstance(failure, MatchFailure):
            raise UserError(str(failure), failure.status) from None
        if isinstance(failure, KeyboardInterrupt):
            raise UserError(_("interrupted; the match is abandoned"), 130) from None
        raise
    state = "complete" if table.finished else "incomplete"
    print(f"transcript ({state}): {path}", flush=True)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``resume`` to the ``p2pcards`` parser."""
    resume = sub.add_parser("resume", help="come back into an unfinished match after a crash")
    resume.add_argument("transcript", nargs="?",
                        help="the match's transcript (default: the newest unfinished match "
                             "this p2pcards home keeps)")
    resume.add_argument("--seat", type=int, metavar="N",
                        help="the seat to resume, when this p2pcards home keeps more than one "
                             "unfinished seat of the match (its host and a joiner played from "
                             "one machine)")
    return_wait_option(resume)
    web_options(resume, "play at")
    resume.set_defaults(handler=_cmd_resume)


def return_wait_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--return-wait", type=float, metavar="SECONDS",
                        help="how long to wait for a player whose connection is lost to come "
                             "back (default: the table's move timeout)")
