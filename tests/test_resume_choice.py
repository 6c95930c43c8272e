"""Which match record ``p2pcards resume`` takes when one p2pcards home keeps the records of
several seats of one table (the host and a joiner played from one machine): the one named by
``--seat`` or by its transcript, else the one no other process is playing, else it asks for the
seat in one sentence. Real files in a real home; every run stops at the first step that needs
the network, with a sentence that names the seat or the transcript it took."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from p2pcards.cli import main
from p2pcards.offline.memory import make_tables
from p2pcards.records.match_record import HOST, JOINER, MatchRecord, RecordedSeat
from p2pcards.records.secret_store import SecretStore
from p2pcards.records.transcript import TranscriptWriter

TABLE = b"\x0b" * 32


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    return tmp_path


def _store(home: Path) -> SecretStore:
    return SecretStore(home / "secrets")


def _keep_record(home: Path, table: bytes, seats: tuple[int, ...], transcript: Path,
                 age: int) -> None:
    """A record of a process that played ``seats`` (its lowest seat names it), written
    ``age`` seconds ago. Its identity seeds are not the genesis's keys."""
    role = HOST if 0 in seats else JOINER
    recorded = tuple(RecordedSeat(seat, bytes(32), "bot:smart", bytes([seat + 1]) * 32)
                     for seat in seats)
    record = MatchRecord(role, table, str(transcript), "", recorded)
    store = _store(home)
    path = store.record_path(table, record.own_seat)
    store.write(path, record.encode())
    stamp = path.stat().st_mtime - age
    os.utime(path, (stamp, stamp))


def _resume(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(["resume", *args])
    return status, capsys.readouterr().err.strip()


def _two_seats(home: Path) -> tuple[Path, Path]:
    """The host (seats 0 and 2, newest) and the joiner (seat 1) of :data:`TABLE`."""
    host_path, joiner_path = home / "host.p2pt", home / "joiner.p2pt"
    _keep_record(home, TABLE, (0, 2), host_path, 0)
    _keep_record(home, TABLE, (1,), joiner_path, 5)
    return host_path, joiner_path


def _gone(path: Path) -> str:
    return (f"p2pcards: the transcript of this match, {path}, is gone: it cannot be resumed "
            "without it")


def test_two_free_records_of_one_table_ask_for_the_seat(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _two_seats(home)
    assert _resume(capsys) == (2, f"p2pcards: this p2pcards home keeps unfinished matches of "
                                  f"seats 0 and 1 of table {TABLE.hex()[:16]}: say which seat "
                                  "to resume with --seat N")
    store = _store(home)
    assert len(store.records(TABLE)) == 2  # nothing was deleted
    for seat in (0, 1):
        with store.lock(TABLE, seat):  # and no lock is still held
            pass


def test_the_seat_named_is_the_one_resumed(home: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    host_path, joiner_path = _two_seats(home)
    assert _resume(capsys, "--seat", "1") == (2, _gone(joiner_path))
    assert _resume(capsys, "--seat", "2") == (2, _gone(host_path))  # a seat the host kept
    assert _resume(capsys, "--seat", "3") == (
        2, f"p2pcards: there is no unfinished match of seat 3 to resume in {home / 'secrets'}")
    assert _resume(capsys, "--seat", "-1") == (2, "p2pcards: --seat is a seat number: 0 or "
                                                  "more")


def test_the_record_another_process_plays_is_passed_over(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The host still plays (it holds its seat's lock): the joiner's record is the one."""
    _, joiner_path = _two_seats(home)
    store = _store(home)
    with store.lock(TABLE, 0):
        assert _resume(capsys) == (2, _gone(joiner_path))
        with store.lock(TABLE, 1):
            status, said = _resume(capsys)
    assert status == 2
    assert said == (f"p2pcards: another p2pcards process (pid {os.getpid()}) is playing seat 0 "
                    f"of table {TABLE.hex()[:16]} from this p2pcards home ({home}): only one "
                    "process at a time may play a seat")


def test_the_newest_table_is_the_one_resumed(home: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    older = b"\x0c" * 32
    _keep_record(home, older, (1,), home / "older.p2pt", 60)
    _, joiner_path = _two_seats(home)
    with _store(home).lock(TABLE, 0):
        assert _resume(capsys) == (2, _gone(joiner_path))


def test_a_transcript_named_picks_the_record_that_wrote_it(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    genesis, _ = make_tables("briscola", "italian", 2, seed=3)
    paths = [home / "host.p2pt", home / "joiner.p2pt"]
    for seat, path in enumerate(paths):
        TranscriptWriter.create(path, genesis.encode(), fsync=False).close()
        _keep_record(home, genesis.table_id, (seat,), path, seat)
    for seat, path in enumerate(paths):
        status, said = _resume(capsys, str(path))
        assert status == 2
        assert said == (f"p2pcards: the identity key for seat {seat} is not the one the "
                        "table's genesis names (was the identity file replaced since the "
                        "match began?)")
    moved = home / "copy.p2pt"
    moved.write_bytes(paths[1].read_bytes())
    status, said = _resume(capsys, str(moved))  # written by neither: which seat?
    assert (status, said) == (2, f"p2pcards: this p2pcards home keeps unfinished matches of "
                                 f"seats 0 and 1 of table {genesis.table_id.hex()[:16]}: say "
                                 "which seat to resume with --seat N")
    status, said = _resume(capsys, str(moved), "--seat", "1")
    assert status == 2 and "seat 1 is not the one" in said
    assert _resume(capsys, str(moved), "--seat", "4") == (
        2, f"p2pcards: nothing to resume for {moved}: this p2pcards home "
           f"({home / 'secrets'}) keeps no record of seat 4 of its table (the match is over, "
           "or it was played from another home or machine)")
