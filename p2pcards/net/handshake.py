"""The joiner's side of the seating handshake over a :class:`~.framed.FrameChannel` (Trio).

A thin layer over :class:`p2pcards.seating.handshake.JoinerSeating`, which holds every message
and check (see its module for the messages). This module only moves messages and waits, each
wait for the host bounded by :data:`HOST_SECONDS`; the rules review (a person reading them) is not.
The host's side is driven by :mod:`.hub` over :class:`p2pcards.seating.handshake.HostSeating`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from ..seating.handshake import (
    JoinerSeating,
    Review,
    Seated,
    SeatOffered,
    Started,
    review_refusal,
)
from ..seating.invite import Invite
from ..seating.secrets import SeatSecrets
from .errors import BadFrame, HandshakeError, NetError
from .framed import FrameChannel

__all__ = ["SecretsFor", "Reviewer", "join_table", "prove_host", "take_seat", "receive_genesis",
           "refuse_unusual", "accept_all", "HOST_SECONDS"]

HOST_SECONDS = 30.0
"""How long the joiner waits for each answer of the host during seating."""

SecretsFor = Callable[[int], tuple[SeatSecrets, str]]
"""Given the seat index the host assigned, the joiner's seat secrets and its name."""

Reviewer = Callable[[Review], Awaitable[str | None]]
"""Decides on the announced rules before anything is signed: ``None`` accepts, a sentence
declines (it is sent to the host as the reason)."""


async def refuse_unusual(review: Review) -> str | None:
    """The default for a joiner nobody is asked for: refuse any house rule or timeout that is
    not the named preset's (see :func:`p2pcards.seating.handshake.review_refusal`)."""
    return review_refusal(review.rules, review.committed)


async def accept_all(review: Review) -> str | None:
    """Accept whatever rules the host announces (``--accept``; the invite's digest, when there
    is one, has already been checked)."""
    return None


def quote_head(head: bytes) -> str:
    """The first line of what a non-p2pcards service sent, printable and short."""
    line = head.split(b"\n", 1)[0].rstrip(b"\r")
    text = "".join(chr(b) if 32 <= b < 127 else "." for b in line[:40])
    return repr(text) if text.strip(".") else f"{len(head)} bytes that are not p2pcards frames"


async def _next(framed: FrameChannel, *, first: str | None = None) -> dict[str, Any]:
    """The host's next message. ``first`` (the address dialled) marks the first answer: frames
    that are not ours then mean the address is some other service, said in those words."""
    try:
        with trio.fail_after(HOST_SECONDS):
            message = await framed.receive_message()
    except BadFrame:
        head = getattr(framed, "head", b"")
        if not first or not head:
            raise
        raise HandshakeError(f"{first} is not a p2pcards host (it answered "
                             f"{quote_head(head)}); check the invite's address and port") from None
    except trio.TooSlowError:
        raise HandshakeError(f"{framed.label} did not answer within {HOST_SECONDS:.0f} seconds "
                             "during seating") from None
    if message is None:
        raise HandshakeError(f"{framed.label} closed the connection during the handshake")
    return message


async def join_table(framed: FrameChannel, invite: Invite, secrets_for: SecretsFor, *,
                     bot: bool = False, review: Reviewer = refuse_unusual) -> JoinerSeating:
    """Run the joiner's side up to ``seated``; :class:`HandshakeError` on any failure.

    Returns the machine, which knows the seat, the rules, the secrets and the seat entry.
    """
    seating, offer = await prove_host(framed, invite, bot=bot,
                                      where=f"{invite.host}:{invite.port}")
    return await take_seat(framed, seating, offer, secrets_for, review=review)


async def prove_host(framed: FrameChannel, invite: Invite, *, bot: bool, where: str
                     ) -> tuple[JoinerSeating, Review]:
    """Send ``hello`` and check the host's ``challenge``: on return the host at ``where`` has
    proven the invite's identity key and announced the rules (to be reviewed). This is what
    decides the race of the invite's candidates (:mod:`.race`)."""
    seating = JoinerSeating(invite, bot=bot, label=framed.label)
    await framed.send_message(seating.hello())
    offer = seating.receive(await _next(framed, first=where))
    assert isinstance(offer, Review)
    return seating, offer


async def take_seat(framed: FrameChannel, seating: JoinerSeating, offer: Review,
                    secrets_for: SecretsFor, *, review: Reviewer = refuse_unusual
                    ) -> JoinerSeating:
    """After :func:`prove_host`: review the rules, then claim the seat offered, up to
    ``seated``; :class:`HandshakeError` on any failure."""
    refusal = await review(offer)
    if refusal is not None:
        with contextlib.suppress(NetError):
            await framed.send_message(seating.decline(refusal))
        raise HandshakeError(f"this seat refused the table: {refusal}")
    await framed.send_message(seating.accept())
    given = seating.receive(await _next(framed))
    assert isinstance(given, SeatOffered)
    secrets, name = secrets_for(given.seat)
    await framed.send_message(seating.claim(secrets, name))
    seated = seating.receive(await _next(framed))
    if isinstance(seated, SeatOffered):  # moved to the host's partner seat: claim that one
        secrets, name = secrets_for(seated.seat)
        await framed.send_message(seating.claim(secrets, name))
        seated = seating.receive(await _next(framed))
    assert isinstance(seated, Seated)
    return seating


async def receive_genesis(framed: FrameChannel, seating: JoinerSeating) -> Started:
    """Wait (as long as the table takes to fill) for the genesis and check it."""
    message = await framed.receive_message()
    if message is None:
        raise HandshakeError(f"{framed.label} closed the connection before the match started")
    started = seating.receive(message)
    assert isinstance(started, Started)
    return started
