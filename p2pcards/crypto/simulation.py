"""A whole hand played in memory by every seat: the reference flow of this layer.

:func:`run_hand` does what the table protocol does over the network, in the same order and with
the same checks, and collects the records :func:`~.audit.audit_hand` needs. Tests, the test
vectors and the benchmark use it; it is also a worked example for the table layer.

Step names used here: ``"key"``, ``"shuffle-<seat>"``, ``"deal-<position>"``, ``"reveal"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, Deck
from .audit import KeyRecord, SecretRecord, ShuffleRecord, TokenRecord
from .elgamal import EncryptedDeck, initial_deck
from .group import Point
from .keys import HandKey, joint_key, verify_key_share
from .rand import Randomness
from .shuffle import shuffle
from .shuffle_check import verify_shuffle
from .tokens import decrypt_card, token, verify_token
from .transcript import ProofContext

__all__ = ["HandRun", "run_hand"]


@dataclass(frozen=True)
class HandRun:
    """The outcome of :func:`run_hand`."""

    table_id: bytes
    hand: int
    deck: Deck
    keys: tuple[HandKey, ...]
    joint_key: Point
    key_records: tuple[KeyRecord, ...]
    shuffle_records: tuple[ShuffleRecord, ...]
    token_records: tuple[TokenRecord, ...]
    secret_records: tuple[SecretRecord, ...]
    final_deck: EncryptedDeck
    owners: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    """``hands[seat]``: the cards that seat decrypted, in position order."""


def run_hand(
    deck: Deck,
    seats: int,
    rng: Randomness,
    *,
    table_id: bytes = b"\x00" * 32,
    hand: int = 0,
    owners: Sequence[int] | None = None,
    verify_by_all: bool = True,
) -> HandRun:
    """Play keys, one shuffle per seat, and a private deal of every position.

    ``owners[p]`` is the seat that receives position ``p`` (default ``p mod seats``); every
    other seat gives it a proven token. Every proof is verified by every other seat
    (``verify_by_all``) or once (cheaper, for tests).
    """
    if owners is None:
        owners = [p % seats for p in range(len(deck))]
    if len(owners) != len(deck) or not all(0 <= o < seats for o in owners):
        raise ValueError("owners must give a seat for every position")
    checks = seats - 1 if verify_by_all else 1

    def ctx(seat: int, step: str) -> ProofContext:
        return ProofContext(table_id, hand, seat, step)

    keys = tuple(HandKey.generate(rng) for _ in range(seats))
    key_records = tuple(
        KeyRecord(i, "key", k.share(ctx(i, "key"), rng)) for i, k in enumerate(keys)
    )
    for rec in key_records:
        for _ in range(checks):
            verify_key_share(rec.share, ctx(rec.seat, rec.step))
    h = joint_key(rec.share.public for rec in key_records)

    current = initial_deck(deck, h)
    shuffle_records = []
    for seat in range(seats):
        step = f"shuffle-{seat}"
        out, proof = shuffle(current, h, ctx(seat, step), rng)
        for _ in range(checks):
            verify_shuffle(current, out, h, proof, ctx(seat, step))
        shuffle_records.append(ShuffleRecord(seat, step, out, proof))
        current = out

    token_records = []
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for position, ct in enumerate(current):
        owner = owners[position]
        step = f"deal-{position}"
        shares = []
        for seat in range(seats):
            if seat == owner:
                continue
            tok = token(keys[seat], ct, ctx(seat, step), rng)
            verify_token(keys[seat].public, ct, tok, ctx(seat, step))
            token_records.append(TokenRecord(seat, step, position, tok))
            shares.append(tok.t)
        shares.append(keys[owner].partial(ct.a))
        hands[owner].append(decrypt_card(deck, ct, shares))

    secret_records = tuple(SecretRecord(i, "reveal", k.secret) for i, k in enumerate(keys))
    return HandRun(
        table_id, hand, deck, keys, h, key_records, tuple(shuffle_records), tuple(token_records),
        secret_records, current, tuple(owners), tuple(tuple(c) for c in hands),
    )
