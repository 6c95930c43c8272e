"""The self-check rule (CRYPTO.md §14): a seat does not check the proofs of its own messages,
every other seat does; ``paranoid`` (``p2pcards --paranoid``) makes a seat check its own too."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest

from p2pcards import crypto
from p2pcards.bots import make_bot
from p2pcards.cli import main
from p2pcards.crypto.own import is_own_message, is_paranoid, own_message, set_paranoid
from p2pcards.offline import memory as local
from p2pcards.table import Table, Violation


@pytest.fixture(autouse=True)
def _default_switch() -> Iterator[None]:
    """Every test starts and ends with the process-wide switch off."""
    set_paranoid(False)
    yield
    set_paranoid(False)


def _swapping_shuffle(cheat: int) -> Any:
    """``crypto.shuffle`` whose output for seat ``cheat`` has its first two ciphertexts swapped
    after the proof was made: a shuffle proof that does not verify."""
    real = crypto.shuffle

    def shuffle(deck_in: crypto.EncryptedDeck, joint: crypto.Point, ctx: crypto.ProofContext,
                rng: crypto.Randomness) -> tuple[crypto.EncryptedDeck, crypto.ShuffleProof]:
        out, proof = real(deck_in, joint, ctx, rng)
        if ctx.seat != cheat:
            return out, proof
        cts = list(out.ciphertexts)
        cts[0], cts[1] = cts[1], cts[0]
        return crypto.EncryptedDeck(out.deck_name, tuple(cts)), proof

    return shuffle


def _first_refusal(tables: list[Table]) -> tuple[int, Violation]:
    """Deliver every envelope to every other table until one table raises: ``(that table's
    seat, the violation)``."""
    queue: deque[tuple[int, bytes]] = deque()
    for i, table in enumerate(tables):
        try:
            queue.extend((i, data) for data in table.start().outgoing)
        except Violation as exc:
            return i, exc
    while queue:
        sender, data = queue.popleft()
        for i, table in enumerate(tables):
            if i == sender:
                continue
            try:
                step = table.receive(data)
            except Violation as exc:
                return i, exc
            queue.extend((i, out) for out in step.outgoing)
    raise AssertionError("no table refused anything")


@pytest.mark.parametrize("paranoid", [False, True])
def test_own_bad_shuffle_is_caught_by_the_other_seat_or_by_a_paranoid_self(
        monkeypatch: pytest.MonkeyPatch, paranoid: bool) -> None:
    monkeypatch.setattr(crypto, "shuffle", _swapping_shuffle(cheat=1))
    genesis, tables = local.make_tables("scopa", "", 2, seed=5)
    tables[1].paranoid = paranoid
    where, violation = _first_refusal(tables)
    assert (violation.rule, violation.seat) == ("bad-shuffle", 1)
    assert where == (1 if paranoid else 0)


def test_a_paranoid_match_is_byte_identical() -> None:
    runs = []
    for paranoid in (False, True):
        genesis, tables = local.make_tables("briscola", "", 2, seed=7)
        for table in tables:
            table.paranoid = paranoid
        bots = [make_bot("briscola", "smart", 70 + i) for i in range(2)]
        runs.append(local.run_in_memory(genesis, tables, bots).frames)
    assert runs[0] == runs[1]


def test_the_switch_is_scoped_and_survives_errors() -> None:
    assert not is_own_message()
    with pytest.raises(RuntimeError), own_message():
        assert is_own_message()
        raise RuntimeError("a handler failed")
    assert not is_own_message()
    with own_message(trusted=False):
        assert not is_own_message()


def test_an_own_message_still_refuses_malformed_points() -> None:
    with own_message(), pytest.raises(crypto.InvalidPoint, match="must be 32 bytes"):
        crypto.Point.from_bytes(b"\x01" * 31, "test point")
    with own_message(), pytest.raises(crypto.InvalidPoint, match="identity"):
        crypto.Point.from_bytes((1).to_bytes(32, "little"), "test point")
    off_curve = (2).to_bytes(32, "little")
    with pytest.raises(crypto.InvalidPoint, match="not a canonical point"):
        crypto.Point.from_bytes(off_curve, "test point")


def test_cli_paranoid_sets_the_default_of_new_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--paranoid", "rules"]) == 0
    assert is_paranoid()
    genesis, tables = local.make_tables("scopa", "", 2, seed=1)
    assert all(t.paranoid for t in tables)
    set_paranoid(False)
    genesis, tables = local.make_tables("scopa", "", 2, seed=1)
    assert not any(t.paranoid for t in tables)
    assert "scopa" in capsys.readouterr().out
