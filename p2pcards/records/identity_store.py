"""The user's long-term identity key and config directory.

The config directory is ``$P2PCARDS_HOME`` if set, else ``$XDG_CONFIG_HOME/p2pcards``, else
``~/.config/p2pcards``. The identity is an Ed25519 key made on first use and kept in
``identity.key`` there, as one line of text (``p2pcards-identity-v1 <64 hex digits>``), created
with mode 0600 (readable by the user only). A key file that others may read is refused, as ssh
does, so the user notices. Transcripts go to ``transcripts/`` in the same directory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..wire.identity import IdentityKey

__all__ = ["IdentityStoreError", "claim_identity", "config_dir", "identity_path",
           "load_or_create_identity", "transcripts_dir"]

_HEADER = "p2pcards-identity-v1"


class IdentityStoreError(Exception):
    """The identity file cannot be read or made; the message names the file and the problem."""


def config_dir() -> Path:
    """The user's p2pcards directory (not created here)."""
    home = os.environ.get("P2PCARDS_HOME")
    if home:
        return Path(home).expanduser()
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".config"
    return base / "p2pcards"


def identity_path() -> Path:
    """Where the identity key lives."""
    return config_dir() / "identity.key"


def transcripts_dir() -> Path:
    """Where transcripts go by default (created on demand)."""
    path = config_dir() / "transcripts"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _read(path: Path) -> IdentityKey:
    mode = stat.S_IMODE(path.stat().st_mode)
    if os.name == "posix" and mode & 0o077:
        raise IdentityStoreError(
            f"identity file {path} can be read by other users (mode {mode:04o}); "
            f"run: chmod 600 {path}"
        )
    text = path.read_text(encoding="ascii", errors="replace").split()
    if len(text) != 2 or text[0] != _HEADER or len(text[1]) != 64:
        raise IdentityStoreError(f"identity file {path} is not a p2pcards identity key")
    try:
        return IdentityKey.from_bytes(bytes.fromhex(text[1]))
    except ValueError:
        raise IdentityStoreError(f"identity file {path} holds a malformed key") from None


def load_or_create_identity() -> tuple[IdentityKey, bool]:
    """The user's identity key, made on first use; returns ``(key, created)``."""
    path = identity_path()
    try:
        return _read(path), False
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise IdentityStoreError(f"cannot read identity file {path}: {exc.strerror}") from None
    key = IdentityKey.generate()
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(f"{_HEADER} {key.to_bytes().hex()}\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temporary, path)  # atomic, and never replaces an existing key
        except FileExistsError:  # made by a concurrent first run: use that one
            return _read(path), False
        finally:
            temporary.unlink()
    except OSError as exc:
        raise IdentityStoreError(f"cannot create identity file {path}: {exc.strerror}") from None
    return key, True


_claims: list[int] = []
"""File descriptors of the identity locks this process holds (kept open until it exits)."""


def claim_identity() -> bool:
    """Take the identity for one table in this process: ``True`` if it is free.

    Two seats of one table must not share an identity key, and two people on one machine and one
    account (a host and a joiner, two joiners) would otherwise both sit with it. A seat claims
    the key with an exclusive lock on ``identity.lock`` beside it, held as long as the process
    lives (the kernel drops it when the process ends, even when killed); the second process
    finds it taken and plays with a fresh key. Where locks are not available it returns ``True``.
    """
    try:
        import fcntl
    except ImportError:  # no POSIX locks: the host's duplicate-key refusal still protects
        return True
    path = config_dir() / "identity.lock"
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise IdentityStoreError(f"cannot open the identity lock {path}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _claims.append(fd)
    return True
