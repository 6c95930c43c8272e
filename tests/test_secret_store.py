"""The secret store: owner-only files written atomically, one table's files forgotten at once."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.records.secret_store import (
    MemoryKeeper,
    SecretStore,
    SecretStoreError,
    TableBusy,
    decode_count,
    encode_count,
    hand_name,
)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_secrets_are_owner_only_and_replaced_whole(tmp_path: Path) -> None:
    store = SecretStore(tmp_path / "secrets")
    keeper = store.seat(b"\x01" * 32, 2)
    keeper.keep(hand_name(0), b"a" * 32)
    path = store.path(b"\x01" * 32, 2, "hand0")
    assert path.name == "01" * 32 + "-seat2-hand0"
    assert mode(store.directory) == 0o700
    assert mode(path) == 0o600
    keeper.keep(hand_name(0), b"b" * 32)
    assert keeper.load("hand0") == b"b" * 32
    assert [p.name for p in store.directory.iterdir()] == [path.name]  # no temporary left
    keeper.drop("hand0")
    keeper.drop("hand0")  # absent: nothing to do
    assert keeper.load("hand0") is None


def test_a_directory_others_may_enter_is_tightened(tmp_path: Path) -> None:
    directory = tmp_path / "secrets"
    directory.mkdir(mode=0o755)
    os.chmod(directory, 0o755)
    SecretStore(directory).seat(bytes(32), 1).keep("hand1", b"x")
    assert mode(directory) == 0o700


def test_forgetting_a_table_deletes_its_files_only(tmp_path: Path) -> None:
    store = SecretStore(tmp_path / "secrets")
    one, two = b"\x01" * 32, b"\x02" * 32
    for table in (one, two):
        store.seat(table, 1).keep("hand0", b"k")
        store.seat(table, 2).keep("proposal", b"p")
        store.write(store.record_path(table, 1), b"record")
    assert store.records() and len(store.files_of(one, {1, 2})) == 3
    store.forget_table(one, {1, 2})
    assert store.files_of(one, {1, 2}) == []
    assert len(store.files_of(two, {1, 2})) == 3
    assert store.records() == [store.record_path(two, 1)]


def test_forgetting_a_table_also_deletes_the_temporary_file_of_a_write_cut_short(
        tmp_path: Path) -> None:
    """A peer killed in the middle of an atomic write leaves ``.NAME.PID-RANDOM.tmp``."""
    store = SecretStore(tmp_path / "secrets")
    one, two = b"\x01" * 32, b"\x02" * 32
    store.seat(one, 1).keep("hand0", b"k")
    for table in (one, two):
        for name in (store.path(table, 1, "hand1").name, store.record_path(table, 1).name):
            (store.directory / f".{name}.4242-0a0b0c0d.tmp").write_bytes(b"half")
    assert len(store.files_of(one, {1})) == 3
    store.forget_table(one, {1})
    assert store.files_of(one, {1}) == []
    assert sorted(p.name for p in store.directory.iterdir()) == sorted(
        f".{name}.4242-0a0b0c0d.tmp" for name in (store.path(two, 1, "hand1").name,
                                                   store.record_path(two, 1).name))
    assert store.records() == []


def test_two_processes_of_one_table_share_a_store(tmp_path: Path) -> None:
    """A host (seat 0 with a bot at seat 2) and a joiner (seat 1) of one table, played from one
    p2pcards home: each has its own record and lock, and forgetting one's seats when its
    match ends leaves the other's record, secrets and lock alone."""
    store = SecretStore(tmp_path / "secrets")
    table = b"\x05" * 32
    host, joiner = {0, 2}, {1}
    for seat in (0, 1, 2):
        store.seat(table, seat).keep("hand0", bytes([seat]))
        store.seat(table, seat).keep("signed", encode_count(seat))
    store.write(store.record_path(table, 0), b"host")
    store.write(store.record_path(table, 1), b"joiner")
    assert store.record_path(table, 0) != store.record_path(table, 1)
    assert set(store.records(table)) == {store.record_path(table, 0),
                                         store.record_path(table, 1)}
    assert store.records(b"\x06" * 32) == []
    host_lock, joiner_lock = store.lock(table, 0), store.lock(table, 1)
    with pytest.raises(TableBusy, match="is playing seat 1 of table 0505"):
        store.lock(table, 1)  # the same seat is still exclusive
    assert {p.name for p in store.files_of(table, host)} == {
        store.record_path(table, 0).name, *(store.path(table, seat, name).name
                                            for seat in host for name in ("hand0", "signed"))}
    store.forget_table(table, host)
    host_lock.release()
    assert not store.lock_path(table, 0).exists()  # its record is gone: its lock goes too
    assert store.files_of(table, host) == []
    assert store.read(store.record_path(table, 1)) == b"joiner"
    assert store.seat(table, 1).load("hand0") == b"\x01"
    assert decode_count(store.seat(table, 1).load("signed") or b"") == 1
    assert store.lock_path(table, 1).exists()
    with pytest.raises(TableBusy):
        store.lock(table, 1)
    joiner_lock.release()
    assert store.lock_path(table, 1).exists()  # the joiner's record is still there
    store.forget_table(table, joiner)
    with store.lock(table, 1):
        pass
    assert list(store.directory.iterdir()) == []


@settings(deadline=None, max_examples=40)  # every write is fsynced
@given(st.sets(st.integers(min_value=0, max_value=12), min_size=1))
def test_forgetting_some_seats_keeps_every_other_seats_files(mine: set[int]) -> None:
    """Seat numbers that share a prefix (1 and 10, 11, 12) never take each other's files."""
    with tempfile.TemporaryDirectory() as directory:
        store = SecretStore(Path(directory) / "secrets")
        table = b"\x07" * 32
        for seat in range(13):
            store.seat(table, seat).keep("hand1", b"k")
            store.write(store.record_path(table, seat), b"r")
        store.forget_table(table, mine)
        left = {int(p.name.split("-seat")[1].split("-")[0].split(".")[0])
                for p in store.directory.iterdir()}
        assert left == set(range(13)) - mine
        assert len(store.records(table)) == 13 - len(mine)


def test_unusable_names_and_places_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="lower-case letters and digits"):
        MemoryKeeper().keep("../x", b"")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SecretStoreError, match="cannot make the secrets directory"):
        SecretStore(blocker / "secrets").seat(bytes(32), 1).keep("hand0", b"x")


def test_one_process_at_a_time_holds_a_table(tmp_path: Path) -> None:
    """The lock is exclusive per open file (a second open in the same process is refused as a
    second process would be), names its holder, and its file goes with it once the match
    record is gone."""
    store = SecretStore(tmp_path / "secrets")
    table = b"\x03" * 32
    store.write(store.record_path(table, 1), b"record")
    first = store.lock(table, 1)
    assert mode(store.lock_path(table, 1)) == 0o600
    assert store.lock_path(table, 1).read_text() == f"{os.getpid()}\n"
    with pytest.raises(TableBusy) as busy:
        store.lock(table, 1)
    assert str(busy.value) == (
        f"another p2pcards process (pid {os.getpid()}) is playing seat 1 of table {'03' * 8} "
        f"from this p2pcards home ({tmp_path}): only one process at a time may play a seat")
    first.release()
    assert store.lock_path(table, 1).exists()  # the match record is still there
    with store.lock(table, 1):
        store.forget_table(table, {1})
        assert store.lock_path(table, 1).exists()  # not a file of the table's seats
    assert not store.lock_path(table, 1).exists()
    assert list(store.directory.iterdir()) == []
    with store.lock(table, 1):  # taken again after its file was deleted
        pass


def test_a_lock_whose_file_was_replaced_is_taken_on_the_new_file(tmp_path: Path) -> None:
    """The holder deletes the lock file as its match ends: a process that opened the old file
    before that takes the lock of the file the path now names, so two never both hold it."""
    store = SecretStore(tmp_path / "secrets")
    table = b"\x04" * 32
    held = store.lock(table, 0)
    store.lock_path(table, 0).unlink()
    with store.lock(table, 0) as second:
        with pytest.raises(TableBusy):
            store.lock(table, 0)
        assert second is not held
    held.release()


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_a_kept_count_reads_back(count: int) -> None:
    assert decode_count(encode_count(count)) == count
    assert len(encode_count(count)) == 8


def test_a_kept_count_of_another_length_is_not_a_count() -> None:
    assert decode_count(b"\x00" * 7) is None
    assert decode_count(b"\x00" * 9) is None


def test_a_lock_file_naming_a_dead_process_names_no_holder(tmp_path: Path) -> None:
    """Just after a process takes the lock, its file may still hold the id of the killed
    process that held it before: a refused process never names that one."""
    store = SecretStore(tmp_path / "secrets")
    table = b"\x08" * 32
    gone = subprocess.Popen([sys.executable, "-c", ""])
    gone.wait()
    with store.lock(table, 1):
        store.lock_path(table, 1).write_text(f"{gone.pid}\n")
        with pytest.raises(TableBusy) as busy:
            store.lock(table, 1)
        assert str(busy.value).startswith("another p2pcards process is playing seat 1 of ")
        store.lock_path(table, 1).write_text(f"{os.getpid()}\n")
        with pytest.raises(TableBusy, match=rf"^another p2pcards process \(pid {os.getpid()}\)"):
            store.lock(table, 1)
