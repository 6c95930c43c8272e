"""The chip ledger of the banking and betting games (Seven and a Half, Ziginette, and later
Calabrasella's payments and Rumino's rebuys).

Chips are counters, never money: a :class:`Ledger` holds one integer balance per seat and is
changed only through :meth:`Ledger.transfer`, which moves chips from one seat to another, so the
sum of all balances never changes (*conservation*). A ledger is frozen: every operation returns a
new ledger, and copying a match state copies nothing but a reference.

Stakes are not moved when a bet is made: the bettor keeps them until the bet is settled, and the
game tracks what each seat has *committed*. :meth:`Ledger.covers` is the rule "a seat that cannot
cover a bet cannot make it": a seat covers ``amount`` when its balance minus what it has already
committed is at least ``amount``.

Wire form (in every hand result of these games, see ``protocol/games/``): the balances as a list
of integers in seat order; a transfer as ``[payer, payee, amount, reason]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import GameError

__all__ = ["ChipError", "Ledger", "Transfer", "settle_with_bank"]


class ChipError(GameError, ValueError):
    """A ledger operation that would create or destroy chips, overdraw a seat or name a seat
    outside the table."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """``amount`` chips (positive) from seat ``payer`` to seat ``payee``, for ``reason`` (a short
    text such as ``bust`` or ``paid 2:1``)."""

    payer: int
    payee: int
    amount: int
    reason: str = ""

    def to_wire(self) -> list[Any]:
        """``[payer, payee, amount, reason]``."""
        return [self.payer, self.payee, self.amount, self.reason]


@dataclass(frozen=True, slots=True)
class Ledger:
    """Per-seat chip balances (seat order), all non-negative integers."""

    balances: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.balances:
            raise ChipError("a ledger needs at least one seat")
        for seat, value in enumerate(self.balances):
            if type(value) is not int or value < 0:
                raise ChipError(f"seat {seat} balance must be a non-negative integer, "
                                f"not {value!r}")

    @classmethod
    def opening(cls, seats: int, amount: int) -> Ledger:
        """Every one of ``seats`` seats starts with ``amount`` chips."""
        if type(amount) is not int or amount < 0:
            raise ChipError(f"a starting amount must be a non-negative integer, not {amount!r}")
        return cls((amount,) * seats)

    @classmethod
    def from_wire(cls, data: object, seats: int) -> Ledger:
        """Inverse of :meth:`to_wire` for a table of ``seats`` seats; :class:`ChipError` naming
        what is malformed."""
        if not isinstance(data, list | tuple) or len(data) != seats:
            raise ChipError(f"a ledger is a list of {seats} balances, not {data!r}")
        return cls(tuple(data))

    def to_wire(self) -> list[int]:
        """The balances as a list, seat order."""
        return list(self.balances)

    @property
    def seats(self) -> int:
        return len(self.balances)

    @property
    def total(self) -> int:
        """Sum of all balances: the same before and after any transfer."""
        return sum(self.balances)

    def balance(self, seat: int) -> int:
        self._check(seat)
        return self.balances[seat]

    def covers(self, seat: int, amount: int, committed: int = 0) -> bool:
        """Whether ``seat`` can stake ``amount`` more with ``committed`` chips already at risk."""
        self._check(seat)
        return amount >= 0 and self.balances[seat] - committed >= amount

    def broke(self) -> tuple[int, ...]:
        """Seats with no chips left, in seat order."""
        return tuple(s for s, v in enumerate(self.balances) if v == 0)

    def solvent(self) -> tuple[int, ...]:
        """Seats with at least one chip, in seat order."""
        return tuple(s for s, v in enumerate(self.balances) if v > 0)

    def transfer(self, payer: int, payee: int, amount: int) -> Ledger:
        """A ledger with ``amount`` chips moved from ``payer`` to ``payee``.

        Raises :class:`ChipError` for a negative or non-integer amount, a payer who lacks the
        chips, or a seat outside the table. A zero amount or ``payer == payee`` changes nothing.
        """
        self._check(payer)
        self._check(payee)
        if type(amount) is not int or amount < 0:
            raise ChipError(f"a transfer amount must be a non-negative integer, not {amount!r}")
        if self.balances[payer] < amount:
            raise ChipError(f"seat {payer} cannot pay {amount} chips: it has "
                            f"{self.balances[payer]}")
        if amount == 0 or payer == payee:
            return self
        values = list(self.balances)
        values[payer] -= amount
        values[payee] += amount
        return _checked_ledger(tuple(values))

    def apply(self, transfers: Iterable[Transfer]) -> Ledger:
        """Every transfer in order (each checked as in :meth:`transfer`)."""
        out = self
        for t in transfers:
            out = out.transfer(t.payer, t.payee, t.amount)
        return out

    def deltas(self, since: Ledger) -> tuple[int, ...]:
        """Per-seat change from ledger ``since`` to this one (sums to zero)."""
        if since.seats != self.seats:
            raise ChipError(f"cannot compare a {self.seats}-seat ledger with a "
                            f"{since.seats}-seat one")
        return tuple(a - b for a, b in zip(self.balances, since.balances, strict=True))

    def _check(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.balances):
            raise ChipError(f"seat {seat!r} is not a seat of this {len(self.balances)}-seat "
                            "ledger")


def _checked_ledger(balances: tuple[int, ...]) -> Ledger:
    """A ledger of ``balances`` already known valid (a valid ledger after a checked transfer:
    non-negative integers, the same seats), made without checking them again."""
    ledger: Ledger = object.__new__(Ledger)
    object.__setattr__(ledger, "balances", balances)
    return ledger


def settle_with_bank(ledger: Ledger, bank: int, outcomes: Mapping[int, int],
                     reasons: Mapping[int, str] | None = None
                     ) -> tuple[Ledger, tuple[Transfer, ...]]:
    """Settle punters against the bank: ``outcomes[seat]`` > 0 is paid by the bank to ``seat``,
    < 0 is paid by ``seat`` to the bank, 0 is a push. Punters' losses are collected first (in seat
    order), then the winners paid (in seat order), so a bank that covered every bet when it was
    made can always pay. Returns the new ledger and the transfers made."""
    reasons = reasons or {}
    transfers: list[Transfer] = []
    order: Sequence[int] = sorted(outcomes)
    for seat in order:
        if outcomes[seat] < 0:
            transfers.append(Transfer(seat, bank, -outcomes[seat], reasons.get(seat, "")))
    for seat in order:
        if outcomes[seat] > 0:
            transfers.append(Transfer(bank, seat, outcomes[seat], reasons.get(seat, "")))
    return ledger.apply(transfers), tuple(transfers)
