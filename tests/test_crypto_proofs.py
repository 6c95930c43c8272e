"""Key proofs, reveal tokens and sealed tokens of p2pcards.crypto."""

from __future__ import annotations

import pytest

from p2pcards.cards import ITALIAN_40
from p2pcards.crypto import (
    SEALED_TOKEN_SIZE,
    Ciphertext,
    CryptoError,
    DecryptionError,
    DeterministicRandomness,
    G,
    HandKey,
    InvalidEncoding,
    InvalidScalar,
    KeyShare,
    ProofContext,
    ProofError,
    RevealToken,
    Scalar,
    card_point,
    decrypt,
    decrypt_card,
    initial_deck,
    joint_key,
    open_token,
    seal_token,
    token,
    verify_key_share,
    verify_token,
    x25519_keypair,
    x25519_public,
)

TABLE = b"\x11" * 32
CTX = ProofContext(TABLE, 4, 1, "key")
OTHER_CONTEXTS = [
    ProofContext(b"\x12" * 32, 4, 1, "key"),
    ProofContext(TABLE, 5, 1, "key"),
    ProofContext(TABLE, 4, 2, "key"),
    ProofContext(TABLE, 4, 1, "keys"),
]


def keys(seed: bytes, n: int) -> list[HandKey]:
    rng = DeterministicRandomness(seed)
    return [HandKey.generate(rng) for _ in range(n)]


def test_key_share_verifies() -> None:
    key = keys(b"k", 1)[0]
    share = key.share(CTX, DeterministicRandomness(b"nonce"))
    assert share.public == key.secret * G
    verify_key_share(share, CTX)
    assert key.share(CTX) == key.share(CTX)  # no rng: deterministic
    assert key.share(CTX, DeterministicRandomness(b"a")) != key.share(CTX)


@pytest.mark.parametrize("other", OTHER_CONTEXTS)
def test_key_share_fails_in_any_other_context(other: ProofContext) -> None:
    share = keys(b"k", 1)[0].share(CTX)
    with pytest.raises(ProofError) as info:
        verify_key_share(share, other)
    assert (info.value.seat, info.value.step) == (other.seat, other.step)
    assert str(info.value) == f"seat {other.seat}, step {other.step!r}: key proof does not verify"


def test_key_share_with_a_foreign_public_key_fails() -> None:
    a, b = keys(b"k", 2)
    forged = KeyShare(b.public, a.share(CTX).proof)
    with pytest.raises(ProofError):
        verify_key_share(forged, CTX)
    # a rogue key: X' = X_target - X_own, with a proof made for the own key only
    rogue = KeyShare(b.public - a.public, a.share(CTX).proof)
    with pytest.raises(ProofError):
        verify_key_share(rogue, CTX)


def test_hand_key_rejects_zero_and_hides_secret_in_repr() -> None:
    with pytest.raises(InvalidScalar):
        HandKey(Scalar(0))
    key = keys(b"k", 1)[0]
    assert key.secret.to_bytes().hex() not in repr(key)


def test_joint_key() -> None:
    a, b = keys(b"j", 2)
    assert joint_key([a.public, b.public]) == (a.secret + b.secret) * G
    with pytest.raises(CryptoError):
        joint_key([])
    with pytest.raises(CryptoError, match="identity"):
        joint_key([a.public, -a.public])


def ciphertext_for(
    card_index: int, seed: bytes, seats: int = 2
) -> tuple[list[HandKey], Ciphertext]:
    ks = keys(seed, seats)
    h = joint_key(k.public for k in ks)
    ct = initial_deck(ITALIAN_40, h)[card_index].rerandomize(Scalar(1234567), h)
    return ks, ct


def test_token_verifies_and_decrypts() -> None:
    (a, b), ct = ciphertext_for(6, b"t")
    ctx_a, ctx_b = ProofContext(TABLE, 1, 0, "deal-6"), ProofContext(TABLE, 1, 1, "deal-6")
    ta = token(a, ct, ctx_a, DeterministicRandomness(b"n"))
    tb = token(b, ct, ctx_b)
    verify_token(a.public, ct, ta, ctx_a)
    verify_token(b.public, ct, tb, ctx_b)
    assert ta.t == a.partial(ct.a)
    assert decrypt(ct, [ta, tb]) == card_point(ITALIAN_40, ITALIAN_40.cards[6])
    assert decrypt_card(ITALIAN_40, ct, [ta, b.partial(ct.a)]) == ITALIAN_40.cards[6]
    with pytest.raises(DecryptionError):
        decrypt_card(ITALIAN_40, ct, [ta])  # one share missing
    with pytest.raises(DecryptionError):
        decrypt_card(ITALIAN_40, ct, [b.partial(ct.a)])


def test_wrong_token_rejected() -> None:
    (a, _), ct = ciphertext_for(3, b"w")
    ctx = ProofContext(TABLE, 1, 0, "deal-3")
    good = token(a, ct, ctx)
    wrong = RevealToken(good.t + G, good.proof)
    with pytest.raises(ProofError, match=r"^seat 0, step 'deal-3': reveal token proof"):
        verify_token(a.public, ct, wrong, ctx)
    with pytest.raises(ProofError):
        verify_token(a.public + G, ct, good, ctx)  # someone else's key


def test_valid_token_proof_for_another_ciphertext_rejected() -> None:
    (a, b), ct = ciphertext_for(3, b"x")
    h = a.public + b.public
    ctx = ProofContext(TABLE, 1, 0, "deal-3")
    tok = token(a, ct, ctx)
    other = ct.rerandomize(Scalar(5), h)
    with pytest.raises(ProofError):
        verify_token(a.public, other, tok, ctx)
    same_a = Ciphertext(ct.a, ct.b + G)  # same first part: the token point is even correct
    assert a.partial(same_a.a) == tok.t
    with pytest.raises(ProofError):
        verify_token(a.public, same_a, tok, ctx)


@pytest.mark.parametrize("other", OTHER_CONTEXTS)
def test_token_fails_in_any_other_context(other: ProofContext) -> None:
    (a, _), ct = ciphertext_for(0, b"c")
    tok = token(a, ct, CTX)
    verify_token(a.public, ct, tok, CTX)
    with pytest.raises(ProofError):
        verify_token(a.public, ct, tok, other)


def test_zero_responses_are_rejected_cleanly() -> None:
    (a, _), ct = ciphertext_for(0, b"z")
    tok = token(a, ct, CTX)
    zero = RevealToken.from_wire([tok.t.to_bytes(), bytes(32), bytes(32)])
    with pytest.raises(ProofError):
        verify_token(a.public, ct, zero, CTX)
    share = a.share(CTX)
    with pytest.raises(ProofError):
        verify_key_share(KeyShare.from_wire([share.public.to_bytes(), bytes(32), bytes(32)]), CTX)


def test_sealed_token_round_trip() -> None:
    (a, _), ct = ciphertext_for(9, b"s")
    ctx = ProofContext(TABLE, 1, 0, "show-9")
    tok = token(a, ct, ctx)
    rng = DeterministicRandomness(b"seal")
    private, public = x25519_keypair(rng)
    assert x25519_public(private) == public
    sealed = seal_token(tok, public, ctx, rng)
    assert len(sealed) == SEALED_TOKEN_SIZE
    opened = open_token(sealed, private, ctx)
    assert opened == tok
    verify_token(a.public, ct, opened, ctx)
    assert seal_token(tok, public, ctx, rng) != sealed  # fresh ephemeral key


def test_sealed_token_rejections() -> None:
    (a, _), ct = ciphertext_for(9, b"s")
    ctx = ProofContext(TABLE, 1, 0, "show-9")
    rng = DeterministicRandomness(b"seal2")
    private, public = x25519_keypair(rng)
    other_private, _ = x25519_keypair(rng)
    sealed = seal_token(token(a, ct, ctx), public, ctx, rng)
    with pytest.raises(DecryptionError, match=r"^seat 0, step 'show-9'"):
        open_token(sealed, other_private, ctx)
    for other in (ctx.at(0, "show-8"), ctx.at(1, "show-9"), ProofContext(TABLE, 2, 0, "show-9")):
        with pytest.raises(DecryptionError):
            open_token(sealed, private, other)
    for i in (0, 40, len(sealed) - 1):
        tampered = bytearray(sealed)
        tampered[i] ^= 1
        with pytest.raises(CryptoError):
            open_token(bytes(tampered), private, ctx)
    for bad in (sealed[:-1], sealed + b"\x00", b"", "text"):
        with pytest.raises(InvalidEncoding, match="sealed token must be 144 bytes"):
            open_token(bad, private, ctx)  # type: ignore[arg-type]
    with pytest.raises(InvalidEncoding):
        open_token(sealed, b"short", ctx)
    with pytest.raises(InvalidEncoding, match="small order"):
        seal_token(token(a, ct, ctx), bytes(32), ctx, rng)
    with pytest.raises(InvalidEncoding):
        seal_token(token(a, ct, ctx), b"\x01" * 31, ctx, rng)
