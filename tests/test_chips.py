"""The chip ledger: exact transfers, cover checks, settlement against a bank, conservation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.games.chips import ChipError, Ledger, Transfer, settle_with_bank


def test_opening_transfer_and_deltas_by_hand() -> None:
    start = Ledger.opening(3, 100)
    assert start.balances == (100, 100, 100) and start.total == 300
    after = start.transfer(0, 2, 30).transfer(1, 2, 5)
    assert after.balances == (70, 95, 135)
    assert after.deltas(start) == (-30, -5, 35)
    assert start.balances == (100, 100, 100)  # frozen: the old ledger is unchanged
    assert after.to_wire() == [70, 95, 135]
    assert Ledger.from_wire([70, 95, 135], 3) == after


def test_cover_rule() -> None:
    ledger = Ledger((10, 0, 25))
    assert ledger.covers(0, 10) and not ledger.covers(0, 11)
    assert ledger.covers(2, 5, committed=20) and not ledger.covers(2, 6, committed=20)
    assert not ledger.covers(1, 1)
    assert ledger.broke() == (1,) and ledger.solvent() == (0, 2)


@pytest.mark.parametrize(("payer", "payee", "amount", "message"), [
    (0, 1, 11, "seat 0 cannot pay 11 chips: it has 10"),
    (0, 1, -1, "a transfer amount must be a non-negative integer, not -1"),
    (0, 3, 1, "seat 3 is not a seat of this 3-seat ledger"),
    (0, 1, True, "a transfer amount must be a non-negative integer, not True"),
])
def test_bad_transfers_are_refused(payer: int, payee: int, amount: int, message: str) -> None:
    with pytest.raises(ChipError, match=message):
        Ledger((10, 10, 10)).transfer(payer, payee, amount)


def test_bad_ledgers_are_refused() -> None:
    with pytest.raises(ChipError, match="seat 1 balance must be a non-negative integer"):
        Ledger((5, -1))
    with pytest.raises(ChipError, match="a ledger is a list of 2 balances"):
        Ledger.from_wire([1, 2, 3], 2)


def test_settle_collects_losses_before_paying_wins() -> None:
    # bank seat 0 holds 10; seat 1 wins 15, seat 2 loses 10: payable only if losses come first
    ledger = Ledger((10, 50, 50))
    after, transfers = settle_with_bank(ledger, 0, {0: 0, 1: 15, 2: -10},
                                        {1: "higher", 2: "lower"})
    assert after.balances == (5, 65, 40)
    assert transfers == (Transfer(2, 0, 10, "lower"), Transfer(0, 1, 15, "higher"))
    assert [t.to_wire() for t in transfers] == [[2, 0, 10, "lower"], [0, 1, 15, "higher"]]


@given(st.lists(st.integers(0, 500), min_size=2, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 600)),
                max_size=40))
def test_transfers_conserve_chips(balances: list[int],
                                  moves: list[tuple[int, int, int]]) -> None:
    ledger = Ledger(tuple(balances))
    total = ledger.total
    n = len(balances)
    for payer, payee, amount in moves:
        payer, payee = payer % n, payee % n
        try:
            after = ledger.transfer(payer, payee, amount)
        except ChipError:
            assert amount > ledger.balance(payer)
            continue
        assert after.total == total
        assert sum(after.deltas(ledger)) == 0
        assert min(after.balances) >= 0
        ledger = after
