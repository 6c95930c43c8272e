"""Short codes over a relay (Trio): the host's mailbox and the joiner's redemption.

The exchange itself is :mod:`p2pcards.codes` (sans-IO). Here the host opens the mailbox room of
a fresh code at the relay (picking another nameplate if that room already has a host), tells the
person the code, and serves exactly one exchange per code: a joiner with the right words gets
the table's invite; a wrong guess burns the code. Then, while seats are still to be filled and
the codes' time (``ttl``) is not over, it opens the next code. The joiner opens a connection to
the mailbox's host through the same :class:`~.relay_mux.RelayMux` as a table, runs the exchange
and gets the invite, which it then uses like a pasted one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import trio

from ..codes import (
    Code,
    CodeError,
    HostExchange,
    JoinerExchange,
    WrongCode,
    mailbox_room,
    make_code,
)
from ..wire.identity import IdentityKey
from .errors import MatchFailure, NetError
from .invite import Invite, InviteError
from .relay_mux import HOST_SLOT, open_relay_mux

__all__ = ["serve_codes", "redeem_code", "EXCHANGE_SECONDS", "DEFAULT_CODE_TTL"]

EXCHANGE_SECONDS = 10.0
"""How long either side waits for each message of the exchange."""
DEFAULT_CODE_TTL = 600.0
"""How long a host offers codes (10 minutes)."""
_NAMEPLATE_TRIES = 5


async def serve_codes(relay: tuple[str, int], invite: Invite, *, seats: int, ttl: float,
                      on_code: Callable[[Code], None], notice: Callable[[str], None]) -> None:
    """Offer codes for ``invite`` until ``seats`` codes were redeemed or ``ttl`` seconds pass
    (the caller cancels it once the table is full). Never raises :class:`MatchFailure`: a
    relay that fails ends the codes with a notice, the long invite still works."""
    deadline = trio.current_time() + ttl
    redeemed = 0
    try:
        while redeemed < seats:
            outcome = await _one_code(relay, str(invite), deadline, on_code)
            if outcome is None:
                notice("the invite code expired; the long invite still works")
                return
            code, ok = outcome
            if ok:
                redeemed += 1
                notice(f"the code {code} was used")
            else:
                notice(f"someone tried a wrong code, so {code} is burned")
    except MatchFailure as exc:
        notice(f"invite codes stopped: {exc}; the long invite still works")


async def _one_code(relay: tuple[str, int], invite: str, deadline: float,
                    on_code: Callable[[Code], None]) -> tuple[Code, bool] | None:
    """Open one code's mailbox and serve one exchange: ``(code, right words?)``, or ``None``
    when the deadline passed with nobody trying."""
    host, port = relay
    for _ in range(_NAMEPLATE_TRIES):
        code = make_code()
        async with open_relay_mux(host, port, mailbox_room(code.nameplate),
                                  IdentityKey.generate(), accept=True) as mux:
            if mux.slot != HOST_SLOT:
                continue  # another host's mailbox has this nameplate now
            on_code(code)
            with trio.move_on_at(deadline):
                channel = await mux.accept()
                exchange = HostExchange(code, invite)
                try:
                    with trio.fail_after(EXCHANGE_SECONDS):
                        first = await channel.receive_message()
                        if first is None:
                            return code, False
                        await channel.send_message(exchange.answer(first))
                        confirm = await channel.receive_message()
                    return code, confirm is not None and exchange.confirmed(confirm)
                except (NetError, CodeError, trio.TooSlowError):
                    return code, False
                finally:
                    await channel.aclose()
            return None
    raise MatchFailure(f"no free code number at the relay {host}:{port} after "
                       f"{_NAMEPLATE_TRIES} tries")


async def redeem_code(relay: tuple[str, int], code: Code) -> Invite:
    """The invite behind ``code``, from the host's mailbox at ``relay``; :class:`MatchFailure`
    with one sentence otherwise."""
    host, port = relay
    where = f"{host}:{port}"
    async with open_relay_mux(host, port, mailbox_room(code.nameplate), IdentityKey.generate(),
                              accept=False) as mux:
        if mux.slot == HOST_SLOT:
            raise MatchFailure(f"nobody offers the code {code} at the relay {where} (it "
                               "expired or was used, or the number is wrong)")
        channel = mux.open(HOST_SLOT, f"the host of the code at the relay {where}")
        exchange = JoinerExchange(code)
        try:
            with trio.fail_after(EXCHANGE_SECONDS):
                await channel.send_message(exchange.start())
                answer = await channel.receive_message()
            if answer is None:
                raise MatchFailure(f"the code {code} is wrong or already used")
            try:
                text = exchange.open(answer)
            except WrongCode:
                with contextlib.suppress(NetError):
                    await channel.send_message(exchange.confirmation())
                raise MatchFailure(f"the code {code} is wrong or already used (a wrong try "
                                   "burns it: ask the host for a new one)") from None
            await channel.send_message(exchange.confirmation())
        except trio.TooSlowError:
            raise MatchFailure(f"nobody answered the code {code} at the relay {where} within "
                               f"{EXCHANGE_SECONDS:.0f} seconds (it expired or was used)") from None
        except CodeError as exc:
            raise MatchFailure(f"the host of the code {code} sent a bad answer: {exc}") from None
        finally:
            await channel.aclose()
    try:
        return Invite.parse(text)
    except InviteError as exc:
        raise MatchFailure(f"the code {code} unlocked something that is not an invite: "
                           f"{exc}") from None
