"""Test vectors of the mental-poker layer, generated from fixed seeds.

``python -m p2pcards.crypto.vectors`` writes them to ``protocol/vectors/``;
``python -m p2pcards.crypto.vectors --check`` regenerates them in memory and exits with status 1
if any file differs byte for byte. :func:`build` is the pure part (file name -> JSON text).
All byte strings are lowercase hex; see ``protocol/vectors/README.md``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import nacl.bindings as sodium

from ..cards import ITALIAN_40
from ..vector_files import vector_main
from .audit import audit_hand
from .deckpoints import card_points
from .elgamal import EncryptedDeck, initial_deck
from .group import DOMAIN, G, Scalar, lp
from .inbox import InboxKey
from .keys import HandKey
from .keyshares import DealtKey, deal_key, share_context, share_in_box
from .rand import DeterministicRandomness
from .sealed import seal_token, x25519_keypair
from .shuffle import (
    prove_shuffle,
    random_permutation,
    shuffle_challenge,
    shuffle_generators,
    shuffle_statement,
)
from .simulation import run_hand
from .tokens import token
from .transcript import ProofContext, Transcript
from .vss import share_is_valid

__all__ = ["build", "main", "VECTOR_DIR"]

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
TABLE_ID = hashlib.sha256(b"p2pcards test vector table").digest()


def _hex(data: bytes) -> str:
    return data.hex()


def _ctx(ctx: ProofContext) -> dict[str, Any]:
    return {"table_id": _hex(ctx.table_id), "hand": ctx.hand, "seat": ctx.seat, "step": ctx.step,
            "encoding": _hex(ctx.encode())}


def _hexwire(data: Any) -> Any:
    if isinstance(data, bytes):
        return _hex(data)
    if isinstance(data, list):
        return [_hexwire(x) for x in data]
    return data


def _card_points() -> dict[str, Any]:
    deck = ITALIAN_40
    first = deck.cards[0]
    hash_input = (lp(DOMAIN) + lp(b"card") + lp(deck.name.encode()) + lp(first.code.encode()))
    digest = hashlib.sha512(hash_input).digest()
    return {
        "description": "card points M_c = hash_to_point('card', deck name, card code)",
        "deck": deck.name,
        "example": {
            "code": first.code,
            "hash_input": _hex(hash_input),
            "digest": _hex(digest),
            "from_uniform_0": _hex(sodium.crypto_core_ed25519_from_uniform(digest[:32])),
            "from_uniform_1": _hex(sodium.crypto_core_ed25519_from_uniform(digest[32:])),
        },
        "points": [{"code": c.code, "point": _hex(p.to_bytes())}
                   for c, p in zip(deck.cards, card_points(deck), strict=True)],
    }


def _key_proof() -> dict[str, Any]:
    rng = DeterministicRandomness(b"vector key proof")
    key = HandKey.generate(rng)
    ctx = ProofContext(TABLE_ID, 7, 1, "key")
    share = key.share(ctx)  # deterministic nonce
    t = Transcript("key-proof", ctx, record=True).point(share.public)
    t.point(share.proof.s * G - share.proof.e * share.public)
    return {
        "description": "Schnorr proof of knowledge of a hand key, deterministic nonce",
        "seed": _hex(b"vector key proof"),
        "context": _ctx(ctx),
        "secret": _hex(key.secret.to_bytes()),
        "public": _hex(share.public.to_bytes()),
        "challenge_input": _hex(t.data),
        "e": _hex(share.proof.e.to_bytes()),
        "s": _hex(share.proof.s.to_bytes()),
        "wire": _hexwire(share.to_wire()),
    }


def _shuffle() -> dict[str, Any]:
    seed = b"vector shuffle"
    rng = DeterministicRandomness(seed)
    deck = ITALIAN_40
    n = len(deck)
    key = HandKey.generate(rng)
    h_key = key.public
    ctx = ProofContext(TABLE_ID, 7, 0, "shuffle-0")
    deck_in = initial_deck(deck, h_key)
    perm = random_permutation(n, rng)
    rerand = tuple(rng.scalar() for _ in range(n))
    deck_out = EncryptedDeck(
        deck.name, tuple(deck_in[perm[i]].rerandomize(rerand[i], h_key) for i in range(n))
    )
    proof = prove_shuffle(deck_in, deck_out, h_key, perm, rerand, ctx, rng)
    h, hs, _ = shuffle_generators(deck.name, n)
    t, u = shuffle_statement(ctx, deck_in, deck_out, h_key, proof.c)
    e = shuffle_challenge(t, proof.c_hat, proof.t, proof.t_hat)
    return {
        "description": "a 40-card shuffle with its Terelius-Wikstrom proof",
        "seed": _hex(seed),
        "context": _ctx(ctx),
        "deck": deck.name,
        "joint_key": _hex(h_key.to_bytes()),
        "generators": {"h": _hex(h.to_bytes()), "h_i": [_hex(p.to_bytes()) for p in hs]},
        "permutation": list(perm),
        "rerandomizers": [_hex(r.to_bytes()) for r in rerand],
        "deck_in": _hexwire(deck_in.to_wire()),
        "deck_out": _hexwire(deck_out.to_wire()),
        "u": [_hex(x.to_bytes()) for x in u],
        "e": _hex(e.to_bytes()),
        "proof": _hexwire(proof.to_wire()),
    }


def _token_and_sealed() -> tuple[dict[str, Any], dict[str, Any]]:
    seed = b"vector token"
    rng = DeterministicRandomness(seed)
    deck = ITALIAN_40
    key = HandKey.generate(rng)
    other = HandKey.generate(rng)
    h_key = key.public + other.public
    ct = initial_deck(deck, h_key)[6].rerandomize(rng.scalar(), h_key)
    ctx = ProofContext(TABLE_ID, 7, 1, "deal-6")
    tok = token(key, ct, ctx)  # deterministic nonce
    t = Transcript("reveal-token", ctx, record=True)
    t.point(key.public).point(ct.a).point(ct.b).point(tok.t)
    t.point(tok.proof.s * G - tok.proof.e * key.public)
    t.point(tok.proof.s * ct.a - tok.proof.e * tok.t)
    token_vec = {
        "description": "a reveal token with its Chaum-Pedersen proof, deterministic nonce",
        "seed": _hex(seed),
        "context": _ctx(ctx),
        "deck": deck.name,
        "secret": _hex(key.secret.to_bytes()),
        "public": _hex(key.public.to_bytes()),
        "other_secret": _hex(other.secret.to_bytes()),
        "ciphertext": _hexwire(ct.to_wire()),
        "card": deck.cards[6].code,
        "t": _hex(tok.t.to_bytes()),
        "challenge_input": _hex(t.data),
        "e": _hex(tok.proof.e.to_bytes()),
        "s": _hex(tok.proof.s.to_bytes()),
        "wire": _hexwire(tok.to_wire()),
    }
    seal_seed = b"vector sealed token"
    srng = DeterministicRandomness(seal_seed)
    recipient_private, recipient_public = x25519_keypair(srng)
    sealed = seal_token(tok, recipient_public, ctx, srng)
    sealed_vec = {
        "description": "the token of token.json sealed to one recipient",
        "seed": _hex(seal_seed),
        "context": _ctx(ctx),
        "recipient_private": _hex(recipient_private),
        "recipient_public": _hex(recipient_public),
        "token": _hex(tok.to_bytes()),
        "sealed": _hex(sealed),
    }
    return token_vec, sealed_vec


def _audit() -> dict[str, Any]:
    seed = b"vector audit"
    run = run_hand(ITALIAN_40, 2, DeterministicRandomness(seed), table_id=TABLE_ID, hand=3,
                   verify_by_all=False)
    cards = audit_hand(run.table_id, run.hand, run.deck, run.key_records, run.shuffle_records,
                       run.token_records, run.secret_records)
    return {
        "description": "a complete 2-seat hand of 40 cards, dealt alternately, and its audit",
        "seed": _hex(seed),
        "table_id": _hex(run.table_id),
        "hand": run.hand,
        "deck": run.deck.name,
        "keys": [{"seat": r.seat, "step": r.step, "share": _hexwire(r.share.to_wire())}
                 for r in run.key_records],
        "shuffles": [{"seat": r.seat, "step": r.step, "deck": _hexwire(r.deck.to_wire()),
                      "proof": _hexwire(r.proof.to_wire())} for r in run.shuffle_records],
        "tokens": [{"seat": r.seat, "step": r.step, "position": r.position,
                    "token": _hexwire(r.token.to_wire())} for r in run.token_records],
        "secrets": [{"seat": r.seat, "step": r.step, "secret": _hex(r.secret.to_bytes())}
                    for r in run.secret_records],
        "cards": [c.code for c in cards],
    }


def _inbox_complaint() -> dict[str, Any]:
    """Seat 2 of 3 deals its hand key with a wrong box for seat 1, which publishes its inbox
    key with its proof of possession and then opens that one box (CRYPTO.md §13)."""
    seed = b"vector inbox complaint"
    rng = DeterministicRandomness(seed)
    cycle, dealer, holder = 7, 2, 1
    secret = rng.scalar()
    inboxes = {h: InboxKey.generate(rng) for h in (0, 1)}
    honest = deal_key(secret, TABLE_ID, cycle, dealer, {h: k.public for h, k in inboxes.items()},
                      rng)
    boxes = list(honest.boxes)
    boxes[holder] = boxes[holder] + Scalar(7)
    dealt = DealtKey(honest.ephemeral, honest.commitments, tuple(boxes))
    inbox = inboxes[holder]
    inbox_ctx = ProofContext(TABLE_ID, cycle, holder, "inbox")
    published = inbox.publish(inbox_ctx)  # deterministic nonce
    possession = Transcript("inbox-proof", inbox_ctx, record=True).point(published.public)
    possession.point(published.proof.s * G - published.proof.e * published.public)
    open_ctx = ProofContext(TABLE_ID, cycle, holder, f"open-{dealer}")
    opening = inbox.open_box(dealt.ephemeral, dealt.boxes[holder], open_ctx)
    c, s = opening.proof.e, opening.proof.s
    proof = Transcript("box-open", open_ctx, record=True).point(inbox.public)
    proof.point(dealt.ephemeral).scalar(dealt.boxes[holder]).point(opening.shared)
    proof.point(s * G - c * inbox.public).point(s * dealt.ephemeral - c * opening.shared)
    pad_input = (lp(DOMAIN) + lp(b"vss-pad")
                 + share_context(TABLE_ID, cycle, dealer, holder).encode()
                 + lp(dealt.ephemeral.to_bytes()) + lp(inbox.public.to_bytes())
                 + lp(opening.shared.to_bytes()))
    share = share_in_box(dealt, TABLE_ID, cycle, dealer, holder, holder, inbox.public,
                         opening.shared)
    return {
        "description": "an inbox key with its proof of possession, a key sharing whose box "
                       "for seat 1 is wrong, and seat 1's proven opening of that box, "
                       "deterministic nonces",
        "seed": _hex(seed),
        "cycle": cycle, "dealer": dealer, "holder": holder,
        "dealer_secret": _hex(secret.to_bytes()),
        "dealer_public": _hex((secret * G).to_bytes()),
        "inbox_secrets": [_hex(inboxes[h].secret.to_bytes()) for h in (0, 1)],
        "honest_keyshares": _hexwire(honest.to_wire()),
        "keyshares": _hexwire(dealt.to_wire()),
        "inbox": {"context": _ctx(inbox_ctx), "challenge_input": _hex(possession.data),
                  "wire": _hexwire(published.to_wire())},
        "open": {"context": _ctx(open_ctx), "challenge_input": _hex(proof.data),
                 "wire": _hexwire(opening.to_wire())},
        "pad_input": _hex(pad_input),
        "share": _hex(share.to_bytes()),
        "share_valid": share_is_valid(dealt.all_commitments(secret * G), holder, share),
        "complain_body": {"dealer": dealer, "open": _hexwire(opening.to_wire())},
    }


def build() -> dict[str, str]:
    """Every vector file: name -> exact JSON text (sorted keys, 1-space indent, final newline)."""
    token_vec, sealed_vec = _token_and_sealed()
    data = {
        "card_points_italian40.json": _card_points(),
        "key_proof.json": _key_proof(),
        "shuffle_italian40.json": _shuffle(),
        "token.json": token_vec,
        "sealed_token.json": sealed_vec,
        "audit_italian40_2seats.json": _audit(),
        "inbox_complaint.json": _inbox_complaint(),
    }
    return {name: json.dumps(v, indent=1, sort_keys=True) + "\n" for name, v in data.items()}


def main(argv: list[str] | None = None) -> int:
    """Write the vector files, or with ``--check`` compare them; returns the exit status."""
    return vector_main(build, VECTOR_DIR, "python -m p2pcards.crypto.vectors",
                       __doc__.splitlines()[0] if __doc__ else None, argv)


if __name__ == "__main__":
    raise SystemExit(main())
