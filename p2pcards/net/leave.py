"""A seat that leaves the match on purpose: the signed ``leave`` message (SPEC §11.7.6).

When the person at a seat leaves (``q``, a confirmed Ctrl-C, end of input) or the process is
asked to stop (SIGINT or SIGTERM without a terminal), its peer sends on every connection::

    leave {seat, proof: the seat's genesis key's signature of [LEAVE_CONTEXT, table id, seat]}

The hub checks it and sends it on to every other seat, so each peer can name who left without
trusting the hub (the hub cannot make a seat leave, and a joiner cannot leave in another seat's
name). Like ``abort`` it travels outside the chain: the match ends for everyone, each transcript
stays as far as the chain went, and nothing is resumed; at a table with a dropout policy the
match goes on instead, the hub recovering the seat as the policy says (:func:`left_on_policy`).
A process that is killed (SIGKILL, a crash) sends nothing: the others wait for it to come
back, as for any lost connection.

The functions here make and check the message; they touch no socket and no clock.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..i18n import pgettext
from ..seating.genesis import Genesis
from ..wire import codec
from ..wire.identity import IdentityKey, PublicIdentity
from .player import seat_label

__all__ = ["LEAVE_CONTEXT", "leave_message", "leaving_seat", "left_on_policy", "left_sentence"]

LEAVE_CONTEXT = "p2pcards/leave/v1"


def _statement(genesis: Genesis, seat: int) -> bytes:
    return codec.pack([LEAVE_CONTEXT, genesis.table_id, seat])


def leave_message(genesis: Genesis, seat: int, key: IdentityKey) -> dict[str, Any]:
    """The ``leave`` of ``seat``, signed with its genesis key ``key``."""
    if key.public.to_bytes() != genesis.seats[seat].identity:
        raise ValueError(f"this key is not the genesis key of seat {seat}")
    return {"type": "leave", "seat": seat, "proof": key.sign(_statement(genesis, seat))}


def leaving_seat(genesis: Genesis, message: dict[str, Any], allowed: Collection[int]
                 ) -> int | None:
    """The seat a ``leave`` message names, if it is well formed, names one of ``allowed``
    (the seats behind the connection it came on, or any seat other than the receiver's when it
    comes from the hub) and its proof is that seat's genesis key's signature; ``None``
    otherwise."""
    seat, proof = message.get("seat"), message.get("proof")
    if (set(message) != {"type", "seat", "proof"} or type(seat) is not int
            or seat not in allowed or not 0 <= seat < len(genesis.seats)
            or not isinstance(proof, bytes)):
        return None
    key = PublicIdentity.from_bytes(genesis.seats[seat].identity)
    return seat if key.verify(proof, _statement(genesis, seat)) else None


def left_sentence(genesis: Genesis, seat: int) -> str:
    """``Bruno left the match``: what every other seat is told, by the name the seat sat down
    with (its seat and key when that name does not tell it apart, :func:`.player.seat_label`)."""
    return pgettext("network", "{who} left the match").format(who=seat_label(genesis, seat))


def left_on_policy(genesis: Genesis, seat: int) -> str:
    """What the seats that go on are told when ``seat`` left a table with a dropout policy
    (SPEC §11.7.6): who left, and what becomes of its seat."""
    left = left_sentence(genesis, seat)
    if genesis.dropout == "bot":
        return pgettext("network", "{left}; the public bot plays their seat when it is "
                        "due").format(left=left)
    return pgettext("network", "{left}; their hand is opened when it is due, and they forfeit "
                    "the match").format(left=left)
