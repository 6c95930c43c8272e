"""The secret store: owner-only files written atomically, one table's files forgotten at once."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.secret_store import (
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
        store.write(store.record_path(table), b"record")
    assert store.records() and len(store.files_of(one)) == 3
    store.forget_table(one)
    assert store.files_of(one) == []
    assert len(store.files_of(two)) == 3
    assert store.records() == [store.record_path(two)]


def test_forgetting_a_table_also_deletes_the_temporary_file_of_a_write_cut_short(
        tmp_path: Path) -> None:
    """A peer killed in the middle of an atomic write leaves ``.NAME.PID-RANDOM.tmp``."""
    store = SecretStore(tmp_path / "secrets")
    one, two = b"\x01" * 32, b"\x02" * 32
    store.seat(one, 1).keep("hand0", b"k")
    for table in (one, two):
        for name in (store.path(table, 1, "hand1").name, store.record_path(table).name):
            (store.directory / f".{name}.4242-0a0b0c0d.tmp").write_bytes(b"half")
    assert len(store.files_of(one)) == 3
    store.forget_table(one)
    assert store.files_of(one) == []
    assert sorted(p.name for p in store.directory.iterdir()) == sorted(
        f".{name}.4242-0a0b0c0d.tmp" for name in (store.path(two, 1, "hand1").name,
                                                   store.record_path(two).name))
    assert store.records() == []


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
    store.write(store.record_path(table), b"record")
    first = store.lock(table)
    assert mode(store.lock_path(table)) == 0o600
    assert store.lock_path(table).read_text() == f"{os.getpid()}\n"
    with pytest.raises(TableBusy) as busy:
        store.lock(table)
    assert str(busy.value) == (
        f"another p2pcards process (pid {os.getpid()}) is playing table {'03' * 8} from this "
        f"p2pcards home ({tmp_path}): only one process at a time may play its seats")
    first.release()
    assert store.lock_path(table).exists()  # the match record is still there
    with store.lock(table):
        store.forget_table(table)
        assert store.lock_path(table).exists()  # not a file of the table's seats
    assert not store.lock_path(table).exists()
    assert list(store.directory.iterdir()) == []
    with store.lock(table):  # taken again after its file was deleted
        pass


def test_a_lock_whose_file_was_replaced_is_taken_on_the_new_file(tmp_path: Path) -> None:
    """The holder deletes the lock file as its match ends: a process that opened the old file
    before that takes the lock of the file the path now names, so two never both hold it."""
    store = SecretStore(tmp_path / "secrets")
    table = b"\x04" * 32
    held = store.lock(table)
    store.lock_path(table).unlink()
    with store.lock(table) as second:
        with pytest.raises(TableBusy):
            store.lock(table)
        assert second is not held
    held.release()


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_a_kept_count_reads_back(count: int) -> None:
    assert decode_count(encode_count(count)) == count
    assert len(encode_count(count)) == 8


def test_a_kept_count_of_another_length_is_not_a_count() -> None:
    assert decode_count(b"\x00" * 7) is None
    assert decode_count(b"\x00" * 9) is None
