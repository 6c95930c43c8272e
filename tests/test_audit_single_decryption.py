"""The audit of a deck takes the cards a participant decrypted during the hand instead of
decrypting them again (CRYPTO.md §10, §14): what it returns is what decrypting every position
with the sum of the revealed secrets gives."""

from __future__ import annotations

from attacks import Driver

from p2pcards import crypto
from p2pcards.table import Table
from p2pcards.table.machine import revealed_cards


def _audit_ready(driver: Driver) -> bool:
    return all(revealed_cards(t) is not None for t in driver.tables)


def _plain_decryption(table: Table) -> list[crypto.Point]:
    cycle = table.cycle
    assert cycle is not None and cycle.deck is not None
    total = crypto.Scalar(0)
    for seat in cycle.holders:
        total = total + cycle.secrets[seat]
    return [ct.b - total * ct.a for ct in cycle.deck]


def test_the_audited_cards_are_those_of_a_plain_decryption() -> None:
    for game, players in (("scopa", 2), ("briscola", 4)):
        driver = Driver.new(game, "", players, seed=3)
        while not _audit_ready(driver):
            assert driver.step(), "the match ended before its first deck was audited"
        for table in driver.tables:
            cycle = table.cycle
            assert cycle is not None and cycle.cards is not None and cycle.known
            cards = revealed_cards(table)
            assert cards is not None
            plain = [crypto.card_of(cycle.cards, p) for p in _plain_decryption(table)]
            assert cards == plain
