"""The verifiable shuffle of p2pcards.crypto: honest shuffles verify, every cheat is caught."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Deck
from p2pcards.crypto import (
    Ciphertext,
    DeterministicRandomness,
    EncryptedDeck,
    G,
    HandKey,
    Point,
    ProofContext,
    ProofError,
    Scalar,
    ShuffleProof,
    card_of,
    initial_deck,
    joint_key,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from p2pcards.crypto.shuffle import random_permutation

TABLE = b"\x22" * 32
CTX = ProofContext(TABLE, 2, 1, "shuffle-1")


def small_deck(n: int) -> Deck:
    return Deck(f"test{n}", ITALIAN_40.cards[:n])


def setup(deck: Deck, seed: bytes) -> tuple[list[HandKey], Point, EncryptedDeck]:
    rng = DeterministicRandomness(seed)
    ks = [HandKey.generate(rng) for _ in range(2)]
    h = joint_key(k.public for k in ks)
    return ks, h, initial_deck(deck, h)


def cards_of(deck: Deck, enc: EncryptedDeck, ks: list[HandKey]) -> list[str]:
    x = Scalar(0)
    for k in ks:
        x = x + k.secret
    return [card_of(deck, ct.b - x * ct.a).code for ct in enc]


@settings(max_examples=12, deadline=None)
@given(st.binary(max_size=6), st.integers(min_value=1, max_value=6))
def test_honest_shuffles_verify_and_keep_the_cards(seed: bytes, n: int) -> None:
    deck = small_deck(n)
    ks, h, d0 = setup(deck, seed)
    rng = DeterministicRandomness(b"shuffle" + seed)
    d1, p1 = shuffle(d0, h, CTX, rng)
    verify_shuffle(d0, d1, h, p1, CTX)
    ctx2 = CTX.at(0, "shuffle-0")
    d2, p2 = shuffle(d1, h, ctx2, rng)
    verify_shuffle(d1, d2, h, p2, ctx2)
    assert Counter(cards_of(deck, d2, ks)) == Counter(c.code for c in deck)
    # the re-randomization hides the ciphertexts: no output equals an input
    assert not {c.a for c in d1} & {c.a for c in d0}
    roundtrip = ShuffleProof.from_wire(p1.to_wire(), n)
    assert roundtrip == p1
    assert EncryptedDeck.from_wire(d1.to_wire(), deck) == d1


@pytest.fixture(scope="module")
def forty() -> tuple[list[HandKey], Point, EncryptedDeck, EncryptedDeck, ShuffleProof]:
    ks, h, d0 = setup(ITALIAN_40, b"forty")
    d1, proof = shuffle(d0, h, CTX, DeterministicRandomness(b"forty shuffle"))
    return ks, h, d0, d1, proof


def expect_reject(call: Callable[[], None], what: str = "") -> ProofError:
    with pytest.raises(ProofError) as info:
        call()
    assert (info.value.seat, info.value.step) == (1, "shuffle-1")
    assert str(info.value).startswith("seat 1, step 'shuffle-1': ")
    assert what in str(info.value)
    return info.value


def with_position(d: EncryptedDeck, i: int, ct: Ciphertext) -> EncryptedDeck:
    cts = list(d.ciphertexts)
    cts[i] = ct
    return EncryptedDeck(d.deck_name, tuple(cts))


def test_forty_card_shuffle_verifies(forty: tuple) -> None:  # type: ignore[type-arg]
    ks, h, d0, d1, proof = forty
    verify_shuffle(d0, d1, h, proof, CTX)
    assert sorted(cards_of(ITALIAN_40, d1, ks)) == sorted(c.code for c in ITALIAN_40)


def test_ciphertext_replaced(forty: tuple) -> None:  # type: ignore[type-arg]
    _, h, d0, d1, proof = forty
    fresh = d0[5].rerandomize(Scalar(99), h)
    expect_reject(lambda: verify_shuffle(d0, with_position(d1, 7, fresh), h, proof, CTX),
                  "shuffle proof does not verify")


def test_ciphertext_duplicated(forty: tuple) -> None:  # type: ignore[type-arg]
    _, h, d0, d1, proof = forty
    expect_reject(lambda: verify_shuffle(d0, with_position(d1, 3, d1[4]), h, proof, CTX))


def test_ciphertext_dropped(forty: tuple) -> None:  # type: ignore[type-arg]
    _, h, d0, d1, proof = forty
    short = EncryptedDeck(d1.deck_name, d1.ciphertexts[:-1])
    expect_reject(lambda: verify_shuffle(d0, short, h, proof, CTX), "39 ciphertexts")
    other_name = EncryptedDeck("italian40-4B", d1.ciphertexts)
    expect_reject(lambda: verify_shuffle(d0, other_name, h, proof, CTX), "deck")


def test_output_swapped_after_proving(forty: tuple) -> None:  # type: ignore[type-arg]
    _, h, d0, d1, proof = forty
    swapped = with_position(with_position(d1, 0, d1[1]), 1, d1[0])
    expect_reject(lambda: verify_shuffle(d0, swapped, h, proof, CTX))


@pytest.mark.parametrize(
    "ctx",
    [
        ProofContext(TABLE, 3, 1, "shuffle-1"),  # another hand
        ProofContext(TABLE, 2, 0, "shuffle-1"),  # another seat
        ProofContext(TABLE, 2, 1, "shuffle-0"),  # another step
        ProofContext(b"\x23" * 32, 2, 1, "shuffle-1"),  # another table
    ],
)
def test_proof_replayed_in_another_context(forty: tuple, ctx: ProofContext) -> None:  # type: ignore[type-arg]
    _, h, d0, d1, proof = forty
    with pytest.raises(ProofError) as info:
        verify_shuffle(d0, d1, h, proof, ctx)
    assert (info.value.seat, info.value.step) == (ctx.seat, ctx.step)


def test_proof_of_another_shuffle_or_key(forty: tuple) -> None:  # type: ignore[type-arg]
    _, h, d0, d1, proof = forty
    d1b, proof_b = shuffle(d0, h, CTX, DeterministicRandomness(b"another"))
    expect_reject(lambda: verify_shuffle(d0, d1, h, proof_b, CTX))
    expect_reject(lambda: verify_shuffle(d0, d1b, h, proof, CTX))
    expect_reject(lambda: verify_shuffle(d0, d1, h + G, proof, CTX))
    expect_reject(lambda: verify_shuffle(d1, d1b, h, proof_b, CTX))


Tamper = Callable[[list[Ciphertext], EncryptedDeck, Point, list[int]], None]


def cheat(
    deck: Deck, seed: bytes, tamper: Tamper
) -> tuple[Point, EncryptedDeck, EncryptedDeck, ShuffleProof]:
    """A prover that runs the honest algorithm on an output it altered."""
    _, h, d0 = setup(deck, seed)
    rng = DeterministicRandomness(b"cheat" + seed)
    n = len(deck)
    perm = list(random_permutation(n, rng))
    rr = [rng.scalar() for _ in range(n)]
    out = [d0[perm[i]].rerandomize(rr[i], h) for i in range(n)]
    tamper(out, d0, h, perm)
    d1 = EncryptedDeck(deck.name, tuple(out))
    return h, d0, d1, prove_shuffle(d0, d1, h, perm, rr, CTX, rng)


def test_wrong_rerandomization_is_caught() -> None:
    def tamper(out: list[Ciphertext], d0: EncryptedDeck, h: Point, perm: list[int]) -> None:
        out[2] = Ciphertext(out[2].a, out[2].b + G)  # b re-randomized with another r

    h, d0, d1, proof = cheat(small_deck(8), b"rr", tamper)
    expect_reject(lambda: verify_shuffle(d0, d1, h, proof, CTX), "t4b equation")


def test_card_swapped_for_another_is_caught() -> None:
    def tamper(out: list[Ciphertext], d0: EncryptedDeck, h: Point, perm: list[int]) -> None:
        out[2] = d0[perm[3]].rerandomize(Scalar(5), h)  # a duplicate of another card

    h, d0, d1, proof = cheat(small_deck(8), b"dup", tamper)
    expect_reject(lambda: verify_shuffle(d0, d1, h, proof, CTX), "t4")


def test_card_point_changed_is_caught() -> None:
    def tamper(out: list[Ciphertext], d0: EncryptedDeck, h: Point, perm: list[int]) -> None:
        out[0] = Ciphertext(out[0].a + G, out[0].b + h)  # consistent re-randomization...

    h, d0, d1, proof = cheat(small_deck(6), b"cp", tamper)  # ...that the witness does not know
    expect_reject(lambda: verify_shuffle(d0, d1, h, proof, CTX), "t4a equation")


def test_inconsistent_witness_rejected_by_prover() -> None:
    _, h, d0 = setup(small_deck(4), b"w")
    rng = DeterministicRandomness(b"w")
    with pytest.raises(ProofError, match="witness"):
        prove_shuffle(d0, d0, h, [0, 0, 1, 2], [Scalar(1)] * 4, CTX, rng)


FIELDS = ["c", "c_hat", "t_hat", "s_hat", "s_prime"]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("index", [0, 4])
def test_every_proof_element_matters(field: str, index: int) -> None:
    deck = small_deck(5)
    _, h, d0 = setup(deck, b"fields")
    d1, proof = shuffle(d0, h, CTX, DeterministicRandomness(b"fields"))
    items = list(getattr(proof, field))
    items[index] = items[index] + (G if isinstance(items[index], Point) else Scalar(1))
    bad = dataclasses.replace(proof, **{field: tuple(items)})
    expect_reject(lambda: verify_shuffle(d0, d1, h, bad, CTX))


@pytest.mark.parametrize("index", range(5))
def test_every_t_and_s_value_matters(index: int) -> None:
    deck = small_deck(3)
    _, h, d0 = setup(deck, b"ts")
    d1, proof = shuffle(d0, h, CTX, DeterministicRandomness(b"ts"))
    t = list(proof.t)
    t[index] = t[index] + G
    bad_t = dataclasses.replace(proof, t=tuple(t))  # type: ignore[arg-type]
    expect_reject(lambda: verify_shuffle(d0, d1, h, bad_t, CTX))
    if index < 4:
        s = list(proof.s)
        s[index] = s[index] + Scalar(1)
        bad = dataclasses.replace(proof, s=tuple(s))  # type: ignore[arg-type]
        expect_reject(lambda: verify_shuffle(d0, d1, h, bad, CTX))


def test_names_the_failing_equation() -> None:
    deck = small_deck(4)
    _, h, d0 = setup(deck, b"names")
    d1, proof = shuffle(d0, h, CTX, DeterministicRandomness(b"names"))
    # s3 only enters the t3 equation: changing it fails exactly there
    s = list(proof.s)
    s[2] = s[2] + Scalar(1)
    bad = dataclasses.replace(proof, s=(s[0], s[1], s[2], s[3]))
    expect_reject(lambda: verify_shuffle(d0, d1, h, bad, CTX), "(t3 equation)")
    s_hat = list(proof.s_hat)
    s_hat[2] = s_hat[2] + Scalar(1)
    expect_reject(
        lambda: verify_shuffle(d0, d1, h, dataclasses.replace(proof, s_hat=tuple(s_hat)), CTX),
        "(t-hat 2 equation)",
    )


def test_zero_responses_do_not_escape_as_libsodium_errors() -> None:
    deck = small_deck(3)
    _, h, d0 = setup(deck, b"zero")
    d1, proof = shuffle(d0, h, CTX, DeterministicRandomness(b"zero"))
    zero = Scalar(0)
    bad = dataclasses.replace(proof, s=(zero, zero, zero, zero), s_hat=(zero,) * 3,
                              s_prime=(zero,) * 3)
    expect_reject(lambda: verify_shuffle(d0, d1, h, bad, CTX))


def test_proof_of_wrong_size() -> None:
    deck = small_deck(3)
    _, h, d0 = setup(deck, b"size")
    d1, proof = shuffle(d0, h, CTX, DeterministicRandomness(b"size"))
    bad = dataclasses.replace(proof, c=proof.c[:2])
    expect_reject(lambda: verify_shuffle(d0, d1, h, bad, CTX), "not for 3 cards")
