"""The name a person plays under, kept beside their identity key.

``name`` in the config directory (:func:`~p2pcards.records.identity_store.config_dir`, beside
``identity.key``) holds it as one line of text. ``host`` and ``join`` without ``--name`` use the
kept name; a person at a terminal who has none is asked once (:func:`ask_name`) and the answer
is kept. A run with no terminal, or a bot's seat, is never asked: it plays under the login name.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from pathlib import Path

from ..seating.handshake import MAX_NAME
from .identity_store import IdentityStoreError, config_dir

__all__ = ["name_path", "stored_name", "store_name", "check_name", "ask_name", "login_name"]


def name_path() -> Path:
    """Where the kept name lives."""
    return config_dir() / "name"


def check_name(text: str) -> str | None:
    """One sentence saying what is wrong with ``text`` as a name (empty, longer than
    :data:`~p2pcards.seating.handshake.MAX_NAME` characters, or holding a control character), or
    ``None`` when it is a good name."""
    name = text.strip()
    if not name:
        return "a name needs at least one letter"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, this one has {len(name)}"
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        return "a name cannot hold control characters"
    return None


def stored_name() -> str | None:
    """The kept name, or ``None`` when there is none (or it is unreadable or not a good
    name: then the person is asked again)."""
    try:
        text = name_path().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if check_name(text) is None else None


def store_name(name: str) -> None:
    """Keep ``name`` (checked by :func:`check_name`); :class:`IdentityStoreError` names the
    file when it cannot be written."""
    path = name_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_text(name.strip() + "\n", encoding="utf-8")
    except OSError as exc:
        raise IdentityStoreError(f"cannot keep your name in {path}: {exc.strerror}") from None


def login_name() -> str:
    """The login name, or ``player`` when there is none."""
    try:
        return os.getlogin()[:MAX_NAME]
    except OSError:
        return os.environ.get("USER", "player")[:MAX_NAME] or "player"


def ask_name(read: Callable[[str], str], say: Callable[[str], None]) -> str:
    """Ask the person for their name until it is a good one (``read(prompt)`` returns the
    typed line; ``EOFError`` from it gives up and the login name is used), keep it and
    return it."""
    say("the other players will see you by a name; it is kept for your next tables "
        f"(in {name_path()}; --name NAME plays one table under another)")
    while True:
        try:
            typed = read("your name: ")
        except EOFError:
            return login_name()
        problem = check_name(typed)
        if problem is None:
            store_name(typed)
            return typed.strip()
        say(problem)
