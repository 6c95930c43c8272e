"""Short codes over a relay (Trio): the host's mailboxes and the joiner's redemption.

The exchange itself is :mod:`p2pcards.seating.codes` (sans-IO); the relay's side is its mailbox
service (:mod:`p2pcards.relay.mailbox`). The host asks the relay for a mailbox, which hands
out a free nameplate, makes the code of that number and two random words, tells the person,
and serves exactly one exchange: a joiner with the right words gets the table's invite and the
host's key; a wrong guess burns the code (the relay lets the nameplate be claimed once). Then,
while seats are still to be filled and the codes' time (``ttl``) is not over, it opens the
next code, until :data:`MAX_BURNS` codes were burned: then it stops, says so, and offers codes
again only when its person asks for them (a new round, with a new code time and
:data:`MAX_BURNS` more burns). The joiner claims the nameplate, runs the exchange, checks
that the key in the box is the one the invite names, and uses the invite like a pasted one.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable

import trio

from ..relay.errors import RelayError, RelayRejected
from ..relay.mailbox import table_tag
from ..relay.mailbox_client import MailboxClient, claim_mailbox, open_mailbox
from ..seating.codes import Code, CodeError, HostExchange, JoinerExchange, WrongCode, make_code
from ..seating.invite import Invite, InviteError
from ..wire.errors import BadKey
from ..wire.identity import PublicIdentity
from .errors import MatchFailure

__all__ = ["serve_codes", "redeem_code", "EXCHANGE_SECONDS", "DEFAULT_CODE_TTL", "MAX_BURNS"]

EXCHANGE_SECONDS = 10.0
"""How long either side waits for each message of the exchange."""
DEFAULT_CODE_TTL = 600.0
"""How long a host offers codes (10 minutes)."""
MAX_BURNS = 3
"""Codes burned by wrong tries after which the host stops offering codes until its person asks
for them again: with each code an online guesser has one try in 65,536, so a round of codes
gives it at most ``MAX_BURNS`` tries (SPEC §11.6, docs/threat-model.md)."""


class _Offer:
    """One host's codes: where and what they offer, and the codes ``redeemed`` in all rounds."""

    def __init__(self, relay: tuple[str, int], invite: Invite, host_key: bytes, room: bytes,
                 on_code: Callable[[Code, float], None],
                 notice: Callable[[str], None]) -> None:
        self.relay, self.invite, self.host_key, self.room = relay, str(invite), host_key, room
        self.on_code, self.notice = on_code, notice
        self.redeemed = 0


async def serve_codes(relay: tuple[str, int], invite: Invite, host_key: bytes, *, seats: int,
                      ttl: float, on_code: Callable[[Code, float], None],
                      notice: Callable[[str], None], room: bytes,
                      again: Callable[[], Awaitable[None]] | None = None) -> None:
    """Offer codes for ``invite`` (whose relay room is ``room``) until ``seats`` codes were
    redeemed (the caller cancels it once the table is full), telling ``on_code`` each code and
    the seconds it lasts.

    A round of codes lasts ``ttl`` seconds and ends early after :data:`MAX_BURNS` codes were
    burned; ``notice`` is told why it ended. After a round ended by burns, ``again`` (if any)
    is awaited: when it returns, the person asked for codes, and a new round begins. Never
    raises :class:`MatchFailure`: a relay that fails ends the codes with a notice, the long
    invite still works."""
    offer = _Offer(relay, invite, host_key, room, on_code, notice)
    try:
        while await _round(offer, seats, ttl) == "burned" and again is not None:
            await again()
            notice("offering invite codes again")
    except RelayError as exc:
        notice(f"invite codes stopped: {_relay_sentence(exc, relay)}; the long invite still "
               "works")


async def _round(offer: _Offer, seats: int, ttl: float) -> str:
    """One round of codes: ``"full"`` once ``seats`` codes in all were redeemed,
    ``"expired"`` after ``ttl`` seconds, ``"burned"`` after :data:`MAX_BURNS` burned codes."""
    deadline = trio.current_time() + ttl
    burns = 0
    while offer.redeemed < seats:
        if trio.current_time() >= deadline:
            offer.notice("the invite code expired; the long invite still works")
            return "expired"
        outcome = await _one_code(offer, deadline)
        if outcome is None:
            continue  # this code's time at the relay ended: the loop offers a new one
        code, ok = outcome
        if ok:
            offer.redeemed += 1
            offer.notice(f"the code {code} was used")
            continue
        burns += 1
        offer.notice(f"someone tried a wrong code, so {code} is burned")
        if burns == MAX_BURNS:
            offer.notice(f"{MAX_BURNS} codes were burned by wrong tries, so no more codes are "
                         "offered (someone may be guessing them); the long invite still works")
            return "burned"
    return "full"


async def _one_code(offer: _Offer, deadline: float) -> tuple[Code, bool] | None:
    """Open one mailbox and serve one exchange: ``(code, right words?)``, or ``None`` when the
    code's time ended with nobody trying."""
    host, port = offer.relay
    box = await open_mailbox(host, port, max(1, math.ceil(deadline - trio.current_time())),
                             table_tag(offer.room))
    try:
        code = make_code(box.plate)
        ends = min(deadline, trio.current_time() + box.ttl)
        offer.on_code(code, ends - trio.current_time())
        with trio.move_on_at(deadline):
            try:
                await box.wait_claimed()
            except RelayRejected as exc:
                if exc.reason == "code-expired":
                    return None
                raise
            exchange = HostExchange(code, offer.invite, offer.host_key)
            return code, await _serve_exchange(box, exchange)
        return None
    finally:
        await box.aclose()


async def _serve_exchange(box: MailboxClient, exchange: HostExchange) -> bool:
    try:
        with trio.fail_after(EXCHANGE_SECONDS):
            first = await box.receive()
            await box.send(exchange.answer(first))
            return exchange.confirmed(await box.receive())
    except (RelayError, CodeError, trio.TooSlowError):
        return False


def _relay_sentence(exc: RelayError, relay: tuple[str, int]) -> str:
    return f"the relay at {relay[0]}:{relay[1]} refused: {exc.message}" \
        if isinstance(exc, RelayRejected) else exc.message


async def redeem_code(relay: tuple[str, int], code: Code, *,
                      local_address: str | None = None) -> Invite:
    """The invite behind ``code``, from the host's mailbox at ``relay`` (connecting from
    ``local_address`` if given); :class:`MatchFailure` with one sentence otherwise."""
    host, port = relay
    where = f"{host}:{port}"
    try:
        box = await claim_mailbox(host, port, code.nameplate, local_address=local_address)
    except RelayRejected as exc:
        if exc.reason == "code-unknown":
            raise MatchFailure(f"nobody offers the code {code} at the relay {where} now (it "
                               "expired, the host left or its table is full, or the number "
                               "is wrong)") from None
        if exc.reason == "code-used":
            raise MatchFailure(f"the code {code} is wrong or already used (each code opens "
                               "once: ask the host for a new one)") from None
        raise MatchFailure(f"the relay at {where} refused the code: {exc.message}") from None
    except RelayError as exc:
        raise MatchFailure(exc.message) from None
    exchange = JoinerExchange(code)
    try:
        with trio.fail_after(EXCHANGE_SECONDS):
            await box.send(exchange.start())
            answer = await box.receive()
        try:
            unlocked = exchange.open(answer)
        except WrongCode:
            with contextlib.suppress(RelayError):  # the host burns the code either way
                await box.send(exchange.confirmation())
            raise MatchFailure(f"the code {code} is wrong or already used (a wrong try "
                               "burns it: ask the host for a new one)") from None
        await box.send(exchange.confirmation())
    except trio.TooSlowError:
        raise MatchFailure(f"the host of the code {code} did not answer within "
                           f"{EXCHANGE_SECONDS:.0f} seconds") from None
    except RelayRejected as exc:
        if exc.reason == "mailbox-closed":
            raise MatchFailure(f"the host of the code {code} left before answering") from None
        raise MatchFailure(f"the relay at {where} ended the code's exchange: "
                           f"{exc.message}") from None
    except RelayError as exc:
        raise MatchFailure(exc.message) from None
    except CodeError as exc:
        raise MatchFailure(f"the host of the code {code} sent a bad answer: {exc}") from None
    finally:
        await box.aclose()
    return _checked_invite(unlocked.invite, unlocked.host_key, code)


def _checked_invite(text: str, host_key: bytes, code: Code) -> Invite:
    """The unlocked invite, if it parses and names the key that came with it."""
    try:
        invite = Invite.parse(text)
    except InviteError as exc:
        raise MatchFailure(f"the code {code} unlocked something that is not an invite: "
                           f"{exc}") from None
    try:
        fingerprint = PublicIdentity(host_key).fingerprint
    except BadKey as exc:
        raise MatchFailure(f"the code {code} unlocked an unusable host key: {exc}") from None
    if fingerprint != invite.fingerprint:
        raise MatchFailure(f"the code {code} unlocked an invite for the host {invite.fingerprint} "
                           f"with the key of {fingerprint}: refused")
    return invite
