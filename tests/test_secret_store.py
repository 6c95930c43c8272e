"""The secret store: owner-only files written atomically, one table's files forgotten at once."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2pcards.secret_store import MemoryKeeper, SecretStore, SecretStoreError, hand_name


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
