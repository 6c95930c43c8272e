"""The self-check rule: a seat need not check what it produced itself (CRYPTO.md §14).

A seat applies each of its own messages to its own state as it sends it. Every proof in such a
message was made by this seat a moment before, every point in it computed here, so checking them
again buys nothing: every other seat checks them when the message arrives, and so does
``p2pcards verify``. While :func:`own_message` is active (the table wraps the application of its
own message in it):

- the proof verifications (:func:`~.keys.verify_key_share`, :func:`~.inbox.verify_inbox`,
  :func:`~.inbox.verify_opening`, :func:`~.shuffle.verify_shuffle`,
  :func:`~.tokens.verify_token`) return at once;
- a point decoded from the message (:meth:`~.group.Point.from_bytes`) keeps only the checks that
  cost no group operation (type, length, not the identity).

A message applied outside it (any message received from another seat, any message an observer
or the verifier replays) gets every check. The *paranoid* switch (:func:`set_paranoid`,
``p2pcards --paranoid``, ``Table(paranoid=True)``) keeps the self-check for debugging and for
tests that want a seat to catch a fault of its own making.

The flag is a :class:`contextvars.ContextVar`, so tables running in other threads or Trio tasks
never see another table's own message.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["own_message", "is_own_message", "set_paranoid", "is_paranoid"]

_OWN: ContextVar[bool] = ContextVar("p2pcards_own_message", default=False)
_PARANOID = [False]


@contextmanager
def own_message(trusted: bool = True) -> Iterator[None]:
    """Apply a message of the local seat inside this block: with ``trusted`` (the default), its
    proofs and points are not checked again; with ``trusted=False`` everything is checked."""
    token = _OWN.set(trusted)
    try:
        yield
    finally:
        _OWN.reset(token)


def is_own_message() -> bool:
    """Whether the message being applied is the local seat's own, trusted (see the module)."""
    return _OWN.get()


def set_paranoid(paranoid: bool) -> None:
    """The process-wide default of ``Table(paranoid=...)``: whether seats check their own
    messages too (``p2pcards --paranoid``)."""
    _PARANOID[0] = paranoid


def is_paranoid() -> bool:
    """The process-wide default set by :func:`set_paranoid` (``False`` unless set)."""
    return _PARANOID[0]
