"""The secrets a seat needs to come back into an unfinished match after a crash.

A seat of a running match holds secrets that exist nowhere else: the private key of the hand
in progress (its share of the joint key; without it the seat can neither deal, nor play a card,
nor reveal at the end of the hand), a claim-window proposal it has signed but the hub has not
placed yet, and for the whole match its X25519 key (for cards shown to it alone) and, when the
seat did not play with the user's stored identity, its Ed25519 identity key. The transcript
holds everything else. A :class:`SecretStore` keeps these secrets in files, so that a process
killed mid-hand can be started again and carry on (``p2pcards resume``).

Layout, under the p2pcards home directory (:func:`p2pcards.records.identity_store.config_dir`)::

    secrets/                                  mode 0700
    secrets/<table id hex>-seat<S>.match      mode 0600: the match record (:mod:`.match_record`)
    secrets/<table id hex>-seat<S>.lock       mode 0600: its lock (:meth:`SecretStore.lock`)
    secrets/<table id hex>-seat<N>-<name>     mode 0600: one secret of seat N, e.g. ``hand3``

A process keeps one match record and holds one lock per table, both named by its *own seat*
``S``: the lowest of the seats it plays (a host's seat 0, which also plays the hub's bot
seats). The seats of one table are played by different processes, so two processes of one
table that share a p2pcards home (a demo, or the host and a joiner in two terminals of one
machine) keep and lock different files, while two processes of one seat exclude each other.

Every file is written atomically (a temporary file of mode 0600 in the same directory, written,
fsynced, renamed over the name, then the directory fsynced), so a crash leaves the old file or
the new one, never a part. A seat keeps each secret *before* it first uses it on the wire (the
table calls :meth:`Keeper.keep` while it makes the message), and the session deletes the
hand key once the transcript holds every seat's key reveal for that hand (from then on the
transcript itself holds the secret). :meth:`SecretStore.forget_table` deletes the files of a
process's seats of a table when its match is over, and leaves the other seats' files alone.

:class:`MemoryKeeper` is the same contract in memory (tests, and seats that cannot come back).
Nothing here is encrypted: the files are protected by the file system's permissions only;
``docs/threat-model.md`` says what someone who reads them learns.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import time
from collections.abc import Collection, Iterable
from pathlib import Path

from ..table.keeper import (
    PROPOSAL,
    SIGNED,
    Keeper,
    MemoryKeeper,
    check_name,
    decode_count,
    encode_count,
    hand_name,
    inbox_name,
    spent_names,
)
from .transcript import fsync_directory

__all__ = ["SecretStoreError", "Keeper", "MemoryKeeper", "SecretStore", "FileKeeper",
           "hand_name", "inbox_name", "spent_names", "PROPOSAL", "SIGNED", "encode_count",
           "decode_count", "write_private", "TableBusy", "TableLock"]


class SecretStoreError(Exception):
    """A secret cannot be written, read or deleted; the message names the file."""


class TableBusy(SecretStoreError):
    """Another process holds the lock of the seat at the table (:meth:`SecretStore.lock`)."""



def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically with mode 0600 (temporary file, fsync, rename,
    fsync of the directory); :class:`SecretStoreError` naming the file if that fails."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        fsync_directory(path.parent)
    except OSError as exc:
        raise SecretStoreError(f"cannot write the secret file {path}: "
                               f"{exc.strerror or exc}") from None


class SecretStore:
    """The ``secrets/`` directory of one p2pcards home (see the module docstring).

    The directory is made with mode 0700 on first write, and a directory that others may enter
    is tightened to 0700 (the secrets in it must never be readable by another user).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def ensure(self) -> Path:
        """The directory, made (mode 0700) if missing; :class:`SecretStoreError` if impossible."""
        path = self.directory
        try:
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
            mode = stat.S_IMODE(path.stat().st_mode)
            if os.name == "posix" and mode & 0o077:
                os.chmod(path, 0o700)
        except OSError as exc:
            raise SecretStoreError(f"cannot make the secrets directory {path}: "
                                   f"{exc.strerror or exc}") from None
        return path

    def path(self, table_id: bytes, seat: int, name: str) -> Path:
        """The file of secret ``name`` of ``seat`` at table ``table_id``."""
        check_name(name)
        return self.directory / f"{table_id.hex()}-seat{seat}-{name}"

    def record_path(self, table_id: bytes, seat: int) -> Path:
        """The file of the match record of the process whose own seat (the lowest seat it
        plays) is ``seat`` at table ``table_id``."""
        return self.directory / f"{table_id.hex()}-seat{seat}.match"

    def seat(self, table_id: bytes, seat: int) -> FileKeeper:
        """The :class:`Keeper` of one seat of one table."""
        return FileKeeper(self, table_id, seat)

    def write(self, path: Path, data: bytes) -> None:
        """Write one file of the store atomically, mode 0600."""
        self.ensure()
        write_private(path, data)

    def read(self, path: Path) -> bytes | None:
        """The bytes of one file of the store, or ``None`` if it does not exist."""
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SecretStoreError(f"cannot read the secret file {path}: "
                                   f"{exc.strerror or exc}") from None

    def delete(self, path: Path) -> None:
        try:
            path.unlink()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise SecretStoreError(f"cannot delete the secret file {path}: "
                                   f"{exc.strerror or exc}") from None

    def lock_path(self, table_id: bytes, seat: int) -> Path:
        """The lock file of own seat ``seat`` at table ``table_id`` (see :meth:`lock`)."""
        return self.directory / f"{table_id.hex()}-seat{seat}.lock"

    def lock(self, table_id: bytes, seat: int) -> TableLock:
        """Take the exclusive lock of own seat ``seat`` (the lowest seat the process plays) at
        table ``table_id`` for this process: only the process holding it may play those seats
        from this home, append to their transcript or change their secrets. Processes playing
        other seats of the same table take other locks. The operating system releases it when
        the process ends, however it ends, so a crash never leaves a seat locked.
        :class:`TableBusy` (naming the process that holds it) if another process holds it."""
        self.ensure()
        path = self.lock_path(table_id, seat)
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as exc:
                raise SecretStoreError(f"cannot open the lock file {path}: "
                                       f"{exc.strerror or exc}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _lock_holder(fd)
                os.close(fd)
                raise TableBusy(f"another p2pcards process{holder} is playing seat {seat} of "
                                f"table {table_id.hex()[:16]} from this p2pcards home "
                                f"({self.directory.parent}): only one process at a time may "
                                "play a seat") from None
            if _same_file(fd, path):
                break
            os.close(fd)  # its holder deleted it as the match ended: take the new one
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return TableLock(self, table_id, seat, fd)

    def records(self, table_id: bytes | None = None) -> list[Path]:
        """Every match record in the store (only those of table ``table_id`` if given), newest
        first."""
        prefix = "*" if table_id is None else table_id.hex()
        try:
            found = list(self.directory.glob(f"{prefix}-seat*.match"))
        except OSError:
            return []

        def modified(path: Path) -> float:
            try:
                return path.stat().st_mtime
            except OSError:
                return 0.0
        return sorted(found, key=modified, reverse=True)

    def files_of(self, table_id: bytes, seats: Iterable[int]) -> list[Path]:
        """Every file of ``seats`` at table ``table_id``: their secrets, the match record of
        the one that is a process's own seat, and the temporary file of a write that a crash
        cut short (``.NAME.PID-RANDOM.tmp``). Lock files are not among them."""
        prefixes = tuple(name for seat in seats
                         for name in (f"{table_id.hex()}-seat{seat}-",
                                      f"{table_id.hex()}-seat{seat}.match"))
        try:
            return sorted(p for p in self.directory.iterdir()
                          if p.name.removeprefix(".").startswith(prefixes))
        except OSError:
            return []

    def forget_table(self, table_id: bytes, seats: Collection[int]) -> None:
        """Delete every file of ``seats`` at table ``table_id`` (the seats one process played:
        their match is over), the match record last; other seats' files are left alone."""
        for path in self.files_of(table_id, seats):
            if not path.name.endswith(".match"):
                self.delete(path)
        for seat in seats:
            self.delete(self.record_path(table_id, seat))
        with contextlib.suppress(OSError):
            fsync_directory(self.directory)


HOLDER_READS = 50
HOLDER_PAUSE = 0.02
"""A process refused a lock reads the holder's process id up to :data:`HOLDER_READS` times,
this many seconds apart (see :func:`_lock_holder`)."""


def _lock_holder(fd: int) -> str:
    """`` (pid N)`` for the running process whose id is written in a lock file, or nothing.

    A holder writes its id just after it takes the lock, so for a moment the file may still
    name the process that held it before (killed) or nothing: it is read again until it names
    a running process, for at most about a second."""
    for _ in range(HOLDER_READS):
        pid = _written_pid(fd)
        if pid is not None and _running(pid):
            return f" (pid {pid})"
        time.sleep(HOLDER_PAUSE)
    return ""


def _written_pid(fd: int) -> int | None:
    """The process id written in the lock file open as ``fd``, or ``None``."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and 0 < int(text) < 2**31 else None


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (it may belong to another user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        here, there = os.fstat(fd), path.stat()
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


class TableLock:
    """The exclusive lock of one own seat at one table in a :class:`SecretStore`, held until
    :meth:`release` or the end of the process (:meth:`SecretStore.lock`)."""

    def __init__(self, store: SecretStore, table_id: bytes, seat: int, fd: int) -> None:
        self.store = store
        self.table_id = table_id
        self.seat = seat
        self._fd: int | None = fd

    def release(self) -> None:
        """Release the lock; its file is deleted with it once the seat's match record is gone
        (the match is over), while the lock is still held."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if not self.store.record_path(self.table_id, self.seat).exists():
                with contextlib.suppress(OSError):
                    self.store.lock_path(self.table_id, self.seat).unlink()
        finally:
            os.close(fd)

    def __enter__(self) -> TableLock:
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


class FileKeeper:
    """:class:`Keeper` of one seat of one table in a :class:`SecretStore`."""

    def __init__(self, store: SecretStore, table_id: bytes, seat: int) -> None:
        self.store = store
        self.table_id = table_id
        self.seat = seat

    def keep(self, name: str, data: bytes) -> None:
        self.store.write(self.store.path(self.table_id, self.seat, name), data)

    def load(self, name: str) -> bytes | None:
        return self.store.read(self.store.path(self.table_id, self.seat, name))

    def drop(self, name: str) -> None:
        self.store.delete(self.store.path(self.table_id, self.seat, name))
