"""What a table refuses, and whom it blames (SPEC §6, §9.8, §11.7.4).

:class:`Violation` is a received envelope that breaks the protocol or the rules, with a stable
rule name, the culprit seat and the chain index; :func:`chain_violation` says whom a failed chain
check blames. The body-shape checks name the field or item of a message body that is wrong
(SPEC §9.3-§9.7, §9.13). :class:`ResumeError` is a table that cannot be rebuilt from its
transcript and kept secrets.
"""

from __future__ import annotations

from typing import Any

from .. import crypto
from ..wire import ChainError, Envelope, Equivocation, Fork, WrongSequence, WrongTable


class Violation(Exception):
    """A received envelope that breaks the protocol or the rules.

    ``seat`` is the culprit (the signer, or ``None`` when the envelope could not be attributed),
    ``index`` the chain position at which it was offered, ``rule`` a stable kebab-case identifier.
    ``evidence`` holds the signed envelopes that prove it when the offending envelope alone does
    not (both envelopes of an ``equivocation``; the chain head and the link of a ``fork``), and
    ``suspects`` the seats one of which (or the hub) must be at fault when ``seat`` is ``None``.
    """

    def __init__(self, rule: str, message: str, *, seat: int | None, index: int | None,
                 evidence: tuple[Envelope, ...] = (), suspects: tuple[int, ...] = ()) -> None:
        where = []
        if index is not None:
            where.append(f"envelope {index}")
        if seat is not None:
            where.append(f"seat {seat}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message} [{rule}]" if prefix else f"{message} [{rule}]")
        self.rule = rule
        self.seat = seat
        self.index = index
        self.evidence = evidence
        self.suspects = suspects


class ResumeError(Exception):
    """A table cannot be rebuilt from its transcript and kept secrets (:meth:`Table.resume`);
    the message says what is missing or wrong."""


def _kebab(name: str) -> str:
    out: list[str] = []
    for ch in name:
        if ch.isupper() and out:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)


def chain_violation(exc: ChainError, *, accepting: bool) -> Violation:
    """Whom a failed chain check (SPEC §6, §9.8) blames.

    The signer, unless an honest signer could have signed the envelope on another branch of the
    chain that the hub showed it: a ``fork`` (the head was signed by another seat), a sequence
    number that skips ahead or lands on another seat's position (``wrong-sequence`` with no
    seat), an envelope of another table (``wrong-table``, or ``genesis-mismatch`` while the
    seats accept the genesis: the genesis this peer holds is not the one that seat signed).
    """
    rule = _kebab(type(exc).__name__)
    message = str(exc)
    if isinstance(exc, Equivocation):
        return Violation(rule, message, seat=exc.seat, index=exc.index,
                         evidence=(exc.first, exc.second))
    if isinstance(exc, Fork):
        return Violation("fork", f"{message}; the hub, seat {exc.head_seat} or seat {exc.seat} "
                         "is at fault", seat=None, index=exc.index,
                         evidence=(exc.head, exc.link),
                         suspects=tuple(s for s in (exc.head_seat, exc.seat) if s is not None))
    if isinstance(exc, WrongTable):
        if accepting:
            return Violation("genesis-mismatch", f"the genesis was altered or is not this "
                             f"table's: seat {exc.seat} signed another genesis ({message})",
                             seat=None, index=exc.index)
        return Violation(rule, f"{message}: it belongs to another table", seat=None,
                         index=exc.index)
    if isinstance(exc, WrongSequence):
        return Violation(rule, f"{message} (envelopes withheld by the hub, or a false sequence "
                         f"number signed by seat {exc.seat})", seat=None, index=exc.index,
                         suspects=(exc.seat,) if exc.seat is not None else ())
    return Violation(rule, message, seat=exc.seat, index=exc.index)


def body_field(body: dict[str, Any], name: str, seat: int, index: int, allowed: set[str]) -> Any:
    """Field ``name`` of a message body whose fields are exactly ``allowed`` (``position`` and
    ``token`` may be absent); ``bad-body`` naming the first field that is extra or missing."""
    extra = set(body) - allowed
    if extra:
        raise Violation("bad-body", f"unexpected field {sorted(extra)[0]!r}", seat=seat,
                        index=index)
    if name not in body:
        raise Violation("bad-body", f"missing field {name!r}", seat=seat, index=index)
    for key in allowed - {"position", "token"}:
        if key not in body:
            raise Violation("bad-body", f"missing field {key!r}", seat=seat, index=index)
    return body[name]


def share_seat(item: object, seat: int, index: int) -> int:
    if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
        raise Violation("bad-body", "a share is [seat, token]", seat=seat, index=index)
    return item[0]


def box_seat(item: object, seat: int, index: int) -> int:
    if (not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int
            or not isinstance(item[1], bytes) or len(item[1]) != crypto.SEALED_TOKEN_SIZE):
        raise Violation("bad-body", "a sealed share is [seat, sealed token]", seat=seat,
                        index=index)
    return item[0]


def pair_position(item: object, seat: int, index: int) -> int:
    if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
        raise Violation("bad-body", "a public token is [position, token]", seat=seat, index=index)
    return item[0]


def sealed_key(item: object, seat: int, index: int) -> tuple[int, int]:
    if (not isinstance(item, list) or len(item) != 3 or type(item[0]) is not int
            or type(item[1]) is not int or not isinstance(item[2], bytes)
            or len(item[2]) != crypto.SEALED_TOKEN_SIZE):
        raise Violation("bad-body", "a sealed token is [position, recipient, box]", seat=seat,
                        index=index)
    return item[0], item[1]
