"""Who plays a local seat: the :class:`Player` hooks, the :class:`LocalSeat` a session holds,
and the words a person reads about seats.

A person's decisions are raced against incoming messages (the table may be aborted while a
person thinks; SPEC §9.10 gives a person's turn its ``action`` timeout); leaving the table is
:class:`PlayerQuit`, whose signed ``leave`` the session sends (SPEC §11.7.6, :mod:`.leave`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from ..games.base import Action
from ..i18n import pgettext
from ..seating.genesis import Genesis
from ..table import Event, Table
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import MatchFailure

__all__ = ["Player", "PlayerQuit", "LocalSeat", "Decide", "Claim", "Show", "Status",
           "STATUS_SECONDS", "host_label", "seat_label",
           "telling_name"]

STATUS_SECONDS = 1.0
"""How often a running wait tells the local seats' ``status`` hooks the seconds left."""

Decide = Callable[[Table], Awaitable[Action]]
Claim = Callable[[Table], Awaitable[Action | None]]
Show = Callable[[Table, Sequence[Event]], None]
Status = Callable[[tuple[int, ...], float | None], None]
"""Told whom the table waits for (seats, empty when nobody) and the seconds left before that
wait times out (``None``: no timeout running): when a wait for a remote seat starts, about once
a second while it runs (:data:`STATUS_SECONDS`), and with ``((), None)`` when it ends."""



class PlayerQuit(MatchFailure):
    """The person at a local seat chose to leave (end of input or Ctrl-C)."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or pgettext(
            "network", "you left the table; the match is abandoned"), status=130)


def telling_name(genesis: Genesis, seat: int) -> str | None:
    """The name ``seat`` sat down with, if it tells the seat apart: given, and no other seat
    of the table sat down with the same one."""
    name = genesis.seats[seat].name
    if name and sum(other.name == name for other in genesis.seats) == 1:
        return name
    return None


def seat_label(genesis: Genesis, seat: int) -> str:
    """How a sentence a person reads names ``seat``: its name (``Bruno``, :func:`telling_name`),
    else ``seat N (FINGERPRINT)``."""
    name = telling_name(genesis, seat)
    if name is not None:
        return name
    fingerprint = PublicIdentity(genesis.seats[seat].identity).fingerprint
    return pgettext("network", "seat {seat} ({fingerprint})").format(seat=seat,
                                                                      fingerprint=fingerprint)


def host_label(genesis: Genesis) -> str:
    """How a joiner's sentences name the host once the genesis is known: ``the host Alba``,
    else ``the host (seat 0 (FINGERPRINT))``."""
    name = telling_name(genesis, 0)
    if name is None:
        return pgettext("network", "the host ({seat})").format(seat=seat_label(genesis, 0))
    return pgettext("network", "the host {name}").format(name=name)


@dataclass(frozen=True)
class Player:
    """Who decides for a seat: ``decide`` returns the action, ``show`` displays events.

    ``person`` marks decisions that take a person's time: they are raced against incoming
    messages, which may abort the match meanwhile; a bot's are not. ``claim``, if given, is
    asked once per claim window whether to make one of ``table.claim_actions()`` (``None``:
    let it pass). ``status``, if given, is told whom the table waits for (:data:`Status`).
    """

    decide: Decide
    show: Show | None = None
    person: bool = False
    claim: Claim | None = None
    status: Status | None = None


@dataclass
class LocalSeat:
    """A seat played in this process: its table, who decides for it, and an optional display.

    ``person`` marks a seat whose decisions take a person's time (they are raced against
    incoming messages, which may abort the match meanwhile).
    """

    table: Table
    decide: Decide
    show: Show | None = None
    person: bool = False
    claim: Claim | None = None
    status: Status | None = None
    identity: IdentityKey | None = None
    """The seat's genesis key, to sign its ``leave`` when the person leaves (:mod:`.leave`)."""

    @classmethod
    def of(cls, table: Table, player: Player, identity: IdentityKey | None = None
           ) -> LocalSeat:
        return cls(table, player.decide, player.show, player.person, player.claim,
                   player.status, identity)

