"""Whole hands: 2, 3 and 4 seats with 39-, 40- and 108-card decks, and the end-of-hand audit."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import FRENCH_108, ITALIAN_40, Card, Deck, italian_39
from p2pcards.crypto import (
    AuditError,
    DecryptionError,
    DeterministicRandomness,
    G,
    HandKey,
    RevealToken,
    Scalar,
    SecretRecord,
    audit_hand,
    decrypt_card,
)
from p2pcards.crypto.simulation import HandRun, run_hand


def audit(run: HandRun, **changes: object) -> tuple[Card, ...]:
    args: dict[str, object] = {
        "keys": run.key_records, "shuffles": run.shuffle_records, "tokens": run.token_records,
        "secrets": run.secret_records,
    }
    args.update(changes)
    return audit_hand(run.table_id, run.hand, run.deck, **args)  # type: ignore[arg-type]


def check_deal(run: HandRun, seats: int) -> None:
    deck = run.deck
    dealt = [c for hand in run.hands for c in hand]
    assert sorted(dealt) == sorted(deck.cards)  # every card dealt exactly once
    cards = audit(run)
    assert len(cards) == len(deck)
    for seat in range(seats):
        mine = [cards[p] for p in range(len(deck)) if run.owners[p] == seat]
        assert list(run.hands[seat]) == mine  # each seat learned exactly its positions' cards
    # without another seat's token a seat cannot decrypt its own card
    ct = run.final_deck[0]
    owner = run.owners[0]
    with pytest.raises(DecryptionError):
        decrypt_card(deck, ct, [run.keys[owner].partial(ct.a)])
    others = [run.keys[s].partial(ct.a) for s in range(seats) if s != owner]
    with pytest.raises(DecryptionError):
        decrypt_card(deck, ct, others[1:] + [run.keys[owner].partial(ct.a)])
    assert decrypt_card(deck, ct, [*others, run.keys[owner].partial(ct.a)]) == cards[0]


@pytest.mark.parametrize("deck", [italian_39("4B"), ITALIAN_40, FRENCH_108],
                         ids=["39", "40", "108"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_round_trip(seats: int, deck: Deck) -> None:
    run = run_hand(deck, seats, DeterministicRandomness(f"{seats}/{deck.name}".encode()),
                   hand=seats, verify_by_all=False)
    check_deal(run, seats)


def test_three_seats_forty_cards_all_verifying() -> None:
    run = run_hand(ITALIAN_40, 3, DeterministicRandomness(b"3/40"), verify_by_all=True)
    check_deal(run, 3)


@settings(max_examples=10, deadline=None)
@given(st.binary(max_size=6), st.integers(min_value=2, max_value=4),
       st.integers(min_value=2, max_value=7), st.data())
def test_small_hands(seed: bytes, seats: int, n: int, data: st.DataObject) -> None:
    deck = Deck(f"mini{n}", FRENCH_108.cards[-n:])
    owners = data.draw(st.lists(st.integers(0, seats - 1), min_size=n, max_size=n))
    run = run_hand(deck, seats, DeterministicRandomness(seed), owners=owners,
                   verify_by_all=False)
    cards = audit(run)
    assert sorted(cards) == sorted(deck.cards)
    for seat in range(seats):
        assert list(run.hands[seat]) == [cards[p] for p in range(n) if owners[p] == seat]


@pytest.fixture(scope="module")
def small_run() -> HandRun:
    return run_hand(Deck("mini6", ITALIAN_40.cards[10:16]), 2, DeterministicRandomness(b"a"),
                    table_id=b"\x33" * 32, hand=9, verify_by_all=False)


def expect(run: HandRun, seat: int | None, step: str | None, match: str, **changes: object) -> None:
    for verify_proofs in (True, False) if "proof" not in match else (True,):
        with pytest.raises(AuditError, match=match) as info:
            audit_hand(run.table_id, run.hand, run.deck,
                       **{"keys": run.key_records, "shuffles": run.shuffle_records,
                          "tokens": run.token_records, "secrets": run.secret_records,
                          **changes},  # type: ignore[arg-type]
                       verify_proofs=verify_proofs)
        assert (info.value.seat, info.value.step) == (seat, step)


def test_audit_wrong_secret(small_run: HandRun) -> None:
    secrets = list(small_run.secret_records)
    secrets[1] = SecretRecord(1, "reveal", secrets[1].secret + Scalar(1))
    expect(small_run, 1, "reveal", "does not match the seat's public key", secrets=secrets)


def test_audit_missing_or_extra_secret(small_run: HandRun) -> None:
    expect(small_run, 0, None, "did not reveal", secrets=small_run.secret_records[1:])
    extra = [*small_run.secret_records, SecretRecord(0, "reveal-again", small_run.keys[0].secret)]
    expect(small_run, 0, "reveal-again", "two secrets", secrets=extra)


def test_audit_wrong_token(small_run: HandRun) -> None:
    tokens = list(small_run.token_records)
    rec = tokens[2]
    tokens[2] = dataclasses.replace(rec, token=RevealToken(rec.token.t + G, rec.token.proof))
    expect(small_run, rec.seat, rec.step, "token for position", tokens=tokens)
    moved = list(small_run.token_records)
    moved[0] = dataclasses.replace(moved[0], position=moved[1].position)
    assert moved[0].position != small_run.token_records[0].position
    expect(small_run, moved[0].seat, moved[0].step, "does not match", tokens=moved)
    outside = [dataclasses.replace(small_run.token_records[0], position=6)]
    expect(small_run, outside[0].seat, outside[0].step, "outside the deck", tokens=outside)


def test_audit_token_with_proof_from_another_context(small_run: HandRun) -> None:
    tokens = list(small_run.token_records)
    rec = tokens[0]
    tokens[0] = dataclasses.replace(rec, step="deal-99")  # right point, proof made for deal-N
    expect(small_run, rec.seat, "deal-99", "reveal token proof", tokens=tokens)


def test_audit_bad_shuffle_proof(small_run: HandRun) -> None:
    shuffles = list(small_run.shuffle_records)
    shuffles[1] = dataclasses.replace(shuffles[1], proof=shuffles[0].proof)
    expect(small_run, 1, "shuffle-1", "shuffle proof", shuffles=shuffles)
    shuffles = [small_run.shuffle_records[1]]  # first shuffle missing: chain broken
    expect(small_run, 1, "shuffle-1", "shuffle proof", shuffles=shuffles)


def test_audit_bad_key_proof(small_run: HandRun) -> None:
    keys = list(small_run.key_records)
    keys[0] = dataclasses.replace(keys[0], step="key-again")
    expect(small_run, 0, "key-again", "key proof", keys=keys)
    doubled = [*small_run.key_records, small_run.key_records[0]]
    expect(small_run, 0, "key", "two keys", keys=doubled)


def test_audit_unknown_seats(small_run: HandRun) -> None:
    stranger = HandKey(Scalar(424242))
    secrets = [*small_run.secret_records, SecretRecord(5, "reveal", stranger.secret)]
    expect(small_run, 5, "reveal", "without a key", secrets=secrets)
    tokens = [dataclasses.replace(small_run.token_records[0], seat=7)]
    expect(small_run, 7, small_run.token_records[0].step, "without a key", tokens=tokens)


def test_audit_without_proof_checks_still_decrypts(small_run: HandRun) -> None:
    cards = audit_hand(small_run.table_id, small_run.hand, small_run.deck, small_run.key_records,
                       small_run.shuffle_records, small_run.token_records,
                       small_run.secret_records, verify_proofs=False)
    assert cards == audit(small_run)


def test_audit_rejects_empty_and_wrong_deck(small_run: HandRun) -> None:
    with pytest.raises(AuditError, match="no key records"):
        audit(small_run, keys=[])
    with pytest.raises(AuditError, match="not a mini7 deck"):
        audit_hand(small_run.table_id, small_run.hand, Deck("mini7", ITALIAN_40.cards[:7]),
                   small_run.key_records, small_run.shuffle_records, [],
                   small_run.secret_records)

