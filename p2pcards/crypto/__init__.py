"""Mental poker over the Ed25519 prime-order group: keys, shuffles with proofs, reveal tokens.

Sans-IO: no clocks, sockets or files; randomness is an argument (``rng``). The normative
description (encodings, hashes, proofs byte by byte) is ``protocol/CRYPTO.md``; test vectors are
in ``protocol/vectors/``.

A hand, step by step (``ctx`` is a :class:`ProofContext` naming table, hand, seat and step; every
proof is bound to its context and fails in any other):

1. Keys. Each seat: ``key = HandKey.generate(rng)``; publish ``key.share(ctx, rng)``
   (a :class:`KeyShare`). Everyone: ``verify_key_share(share, ctx_of_that_seat)`` for each, then
   ``H = joint_key([s.public for s in shares])``.
2. Deck. ``deck0 = initial_deck(deck, H)`` (``deck`` from :mod:`p2pcards.cards`).
3. Shuffles. Each seat in turn: ``deck_out, proof = shuffle(deck_in, H, ctx, rng)``; everyone
   else: ``verify_shuffle(deck_in, deck_out, H, proof, ctx_of_that_seat)``.
4. Dealing and showing. For position ``p`` of the final deck ``D``, seat ``i`` gives
   ``token(key, D[p], ctx, rng)`` (a :class:`RevealToken`); receivers check it with
   ``verify_token(X_i, D[p], tok, ctx_of_seat_i)``. The owner adds its own share
   ``key.partial(D[p].a)`` and calls ``decrypt_card(deck, D[p], shares)``. A token meant for one
   seat only goes out as ``seal_token(tok, recipient_x25519_public, ctx, rng)`` and is read with
   ``open_token(sealed, recipient_x25519_private, ctx)`` (then verified as above).
5. Audit. At the end of the hand every seat reveals ``key.secret``; anyone can call
   ``audit_hand(...)`` with the hand's records and get the card at every position.

Data from outside is decoded with the ``from_wire`` class methods (every object has
``to_wire()`` giving bytes and lists only, ready for the canonical msgpack codec); they validate
every point (canonical, prime-order subgroup, not the identity), every scalar (canonical) and
every count, and raise :class:`InvalidEncoding` naming the field. A point that a verification
multiplies (a deck's ciphertexts, every point of a shuffle proof, which the batched check of
:mod:`.shuffle_check` multiplies, a token's ``t``) is validated at its first use instead, once,
with the same error (:meth:`Point.received`); in the
local seat's own message nothing is checked again (:mod:`.own`). All errors derive from
:class:`CryptoError`, whose ``seat`` and ``step`` name the culprit when known.

Public API::

    Scalar, Point, G, ORDER                       group elements (group.py)
    Randomness, SystemRandomness, DeterministicRandomness
    ProofContext(table_id: bytes, hand: int, seat: int, step: str)
    HandKey.generate(rng) -> HandKey; .public; .secret; .share(ctx, rng=None) -> KeyShare;
        .partial(a) -> Point
    KeyShare(public, proof: SchnorrProof); verify_key_share(share, ctx) -> None
    joint_key(publics) -> Point
    card_points(deck) -> tuple[Point, ...]; card_of(deck, point) -> Card
    Ciphertext(a, b); EncryptedDeck(deck_name, ciphertexts); initial_deck(deck, H)
    shuffle(deck_in, H, ctx, rng) -> (EncryptedDeck, ShuffleProof)
    verify_shuffle(deck_in, deck_out, H, proof, ctx) -> None
    token(key, ciphertext, ctx, rng=None) -> RevealToken(t, proof: DLEQProof)
    verify_token(public_key, ciphertext, token, ctx) -> None
    decrypt(ciphertext, tokens) -> Point; decrypt_card(deck, ciphertext, tokens) -> Card
    x25519_keypair(rng) -> (private, public)
    seal_token(token, recipient_public, ctx, rng) -> bytes
    open_token(sealed, recipient_private, ctx) -> RevealToken
    KeyRecord, ShuffleRecord, TokenRecord, SecretRecord
    audit_hand(table_id, hand, deck, keys, shuffles, tokens, secrets,
               verify_proofs=True) -> tuple[Card, ...]
    CryptoError > InvalidEncoding > (InvalidPoint, InvalidScalar); ProofError; DecryptionError;
        AuditError

``p2pcards.crypto.simulation.run_hand`` plays a whole hand in memory with every check: the
reference flow for the table layer. ``python -m p2pcards.crypto.vectors [--check]`` writes (or
checks) the test vectors.
"""

from __future__ import annotations

from .audit import KeyRecord, SecretRecord, ShuffleRecord, TokenRecord, audit_hand
from .deckpoints import card_of, card_point, card_points
from .elgamal import Ciphertext, EncryptedDeck, initial_deck
from .errors import (
    AuditError,
    CryptoError,
    DecryptionError,
    InvalidEncoding,
    InvalidPoint,
    InvalidScalar,
    ProofError,
)
from .group import IDENTITY, ORDER, G, Point, Scalar
from .keys import HandKey, KeyShare, SchnorrProof, joint_key, verify_key_share
from .rand import DeterministicRandomness, Randomness, SystemRandomness
from .sealed import SEALED_TOKEN_SIZE, open_token, seal_token, x25519_keypair, x25519_public
from .shuffle import MAX_DECK, ShuffleProof, prove_shuffle, shuffle
from .shuffle_check import verify_shuffle
from .tokens import DLEQProof, RevealToken, decrypt, decrypt_card, token, verify_token
from .transcript import ProofContext

__all__ = [
    "AuditError",
    "Ciphertext",
    "CryptoError",
    "DLEQProof",
    "DecryptionError",
    "DeterministicRandomness",
    "EncryptedDeck",
    "G",
    "HandKey",
    "IDENTITY",
    "InvalidEncoding",
    "InvalidPoint",
    "InvalidScalar",
    "KeyRecord",
    "KeyShare",
    "MAX_DECK",
    "ORDER",
    "Point",
    "ProofContext",
    "ProofError",
    "Randomness",
    "RevealToken",
    "SEALED_TOKEN_SIZE",
    "Scalar",
    "SchnorrProof",
    "SecretRecord",
    "ShuffleProof",
    "ShuffleRecord",
    "SystemRandomness",
    "TokenRecord",
    "audit_hand",
    "card_of",
    "card_point",
    "card_points",
    "decrypt",
    "decrypt_card",
    "initial_deck",
    "joint_key",
    "open_token",
    "prove_shuffle",
    "seal_token",
    "shuffle",
    "token",
    "verify_key_share",
    "verify_shuffle",
    "verify_token",
    "x25519_keypair",
    "x25519_public",
]
