"""The batched shuffle check accepts exactly the proofs the one-by-one check accepts, refuses the
others with the same error, and costs what CRYPTO.md §7.3 and §14 say."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Deck
from p2pcards.crypto import (
    CryptoError,
    DeterministicRandomness,
    EncryptedDeck,
    G,
    HandKey,
    ProofContext,
    Scalar,
    ShuffleProof,
    initial_deck,
    shuffle,
)
from p2pcards.crypto import group as group_module
from p2pcards.crypto.shuffle_check import (
    batch_weights,
    verify_shuffle,
    verify_shuffle_one_by_one,
)

DECK = Deck("batch7", ITALIAN_40.cards[:7])
N = len(DECK)
CTX = ProofContext(b"\x62" * 32, 3, 1, "shuffle")
FIRST = ProofContext(b"\x62" * 32, 3, 0, "shuffle")


def _message(seed: bytes) -> dict[str, Any]:
    """Two seats' keys and shuffles: the second shuffle (of a deck that is not the initial
    one) as wire data, and the first as its input."""
    rng = DeterministicRandomness(seed)
    joint = HandKey.generate(rng).public + HandKey.generate(rng).public
    first, _ = shuffle(initial_deck(DECK, joint), joint, FIRST, rng)
    out, proof = shuffle(first, joint, CTX, rng)
    received = EncryptedDeck(first.deck_name, first.ciphertexts)  # without the maker's logs
    return {"joint": joint, "deck_in": received, "made": first,
            "wire": [out.to_wire(), proof.to_wire()]}


M = _message(b"batch")

POINT_PATHS = ([(0, i, k) for i in range(N) for k in range(2)]
               + [(1, part, i) for part in (0, 1, 3) for i in range(N)]
               + [(1, 2, i) for i in range(5)])
SCALAR_PATHS = ([(1, 4, i) for i in range(4)] + [(1, 5, i) for i in range(N)]
                + [(1, 6, i) for i in range(N)])


def _replaced(wire: Any, path: tuple[int, ...], value: bytes) -> Any:
    if not path:
        return value
    out = list(wire)
    out[path[0]] = _replaced(wire[path[0]], path[1:], value)
    return out


def _outcome(check: Any, wire: list[Any], deck_in: EncryptedDeck | None = None) -> Any:
    """``None`` if the decoded message verifies, else the error's type and sentence."""
    try:
        out = EncryptedDeck.from_wire(wire[0], DECK)
        proof = ShuffleProof.from_wire(wire[1], N)
        check(M["deck_in"] if deck_in is None else deck_in, out, M["joint"], proof, CTX)
    except CryptoError as exc:
        return type(exc).__name__, str(exc)
    return None


def _tampered(wire: list[Any], changes: list[tuple[int, int]]) -> list[Any]:
    for where, k in changes:
        paths = POINT_PATHS + SCALAR_PATHS
        path = paths[where % len(paths)]
        if path in SCALAR_PATHS:
            value = Scalar.from_int(k).to_bytes()
        else:
            value = (Scalar.from_int(k) * G).to_bytes()
        wire = _replaced(wire, path, value)
    return wire


@settings(max_examples=15, deadline=None)
@given(st.binary(min_size=1, max_size=8))
def test_an_honest_shuffle_passes_the_batch(seed: bytes) -> None:
    m = _message(seed)
    out = EncryptedDeck.from_wire(m["wire"][0], DECK)
    proof = ShuffleProof.from_wire(m["wire"][1], N)
    verify_shuffle(m["deck_in"], out, m["joint"], proof, CTX)
    verify_shuffle_one_by_one(m["deck_in"], out, m["joint"], proof, CTX)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=10_000),
                          st.integers(min_value=1, max_value=2**250)), min_size=1, max_size=3))
def test_a_tampered_message_is_refused_naming_what_the_one_by_one_check_names(
        changes: list[tuple[int, int]]) -> None:
    wire = _tampered(M["wire"], changes)
    batched = _outcome(verify_shuffle, wire)
    assert batched is not None
    assert batched == _outcome(verify_shuffle_one_by_one, wire)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(POINT_PATHS), min_size=2, max_size=4, unique=True))
def test_of_several_invalid_points_the_first_decoded_is_named(
        paths: list[tuple[int, ...]]) -> None:
    wire = M["wire"]
    torsion = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    for path in paths:
        wire = _replaced(wire, path, torsion)
    batched = _outcome(verify_shuffle, wire)
    assert batched is not None and batched[0] == "InvalidPoint"
    assert batched == _outcome(verify_shuffle_one_by_one, wire)


def test_the_weights_are_fixed_by_every_response() -> None:
    proof = ShuffleProof.from_wire(M["wire"][1], N)
    e = Scalar(12345)
    base = batch_weights(e, proof)
    assert len(base) == N + 4 and len(set(base)) == N + 4
    for path in SCALAR_PATHS:
        changed = ShuffleProof.from_wire(_replaced(M["wire"], path, Scalar(7).to_bytes())[1], N)
        assert batch_weights(e, changed) != base
    assert batch_weights(Scalar(54321), proof) != base


def _counted(check: Any, deck_in: EncryptedDeck, wire: list[Any]) -> Counter[str]:
    calls: Counter[str] = Counter()
    real = group_module.sodium

    class Counting:
        def __getattr__(self, name: str) -> Any:
            calls[name] += 1
            return getattr(real, name)

    out = EncryptedDeck.from_wire(wire[0], DECK)
    proof = ShuffleProof.from_wire(wire[1], N)
    group_module.sodium = Counting()  # type: ignore[attr-defined]
    try:
        check(deck_in, out, M["joint"], proof, CTX)
    finally:
        group_module.sodium = real  # type: ignore[attr-defined]
    return calls


def test_the_batch_costs_8n_plus_7_multiplications_one_base_and_no_validation() -> None:
    calls = _counted(verify_shuffle, M["deck_in"], M["wire"])
    assert calls["crypto_scalarmult_ed25519_noclamp"] == 8 * N + 7
    assert calls["crypto_scalarmult_ed25519_base_noclamp"] == 1
    assert calls["crypto_core_ed25519_is_valid_point"] == 0
    assert calls["crypto_core_ed25519_add"] + calls["crypto_core_ed25519_sub"] == 8 * N + 7
    one_by_one = _counted(verify_shuffle_one_by_one, M["deck_in"], M["wire"])
    assert one_by_one["crypto_core_ed25519_is_valid_point"] == 5 * N + 5  # each point, first


def test_from_the_initial_deck_the_input_a_terms_are_the_base_multiplication() -> None:
    rng = DeterministicRandomness(b"first")
    joint = M["joint"]
    start = initial_deck(DECK, joint)
    out, proof = shuffle(start, joint, CTX, rng)
    wire = [out.to_wire(), proof.to_wire()]
    calls = _counted(verify_shuffle, start, wire)
    assert calls["crypto_scalarmult_ed25519_noclamp"] == 7 * N + 7
    assert calls["crypto_scalarmult_ed25519_base_noclamp"] == 1
    assert _outcome(verify_shuffle, wire, start) is None


def test_a_proof_for_another_shuffle_fails_the_batch_and_names_an_equation() -> None:
    other = _message(b"another")
    wire = [M["wire"][0], other["wire"][1]]
    batched = _outcome(verify_shuffle, wire)
    assert batched is not None and batched[0] == "ProofError"
    assert batched == _outcome(verify_shuffle_one_by_one, wire)


def test_the_verifiers_own_shuffle_as_input_folds_its_a_terms_and_agrees() -> None:
    made = M["made"]
    assert made.a_logs is not None
    assert [log * G for log in made.a_logs] == [ct.a for ct in made]
    calls = _counted(verify_shuffle, made, M["wire"])
    assert calls["crypto_scalarmult_ed25519_noclamp"] == 7 * N + 7
    assert _outcome(verify_shuffle, M["wire"], made) is None
    wire = _tampered(M["wire"], [(2 * N + 1, 99)])  # c[1] replaced
    assert _outcome(verify_shuffle, wire, made) == _outcome(verify_shuffle_one_by_one, wire)
