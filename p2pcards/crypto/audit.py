"""End-of-hand audit: re-check a hand's whole public record once every secret key is revealed.

The records are what the table protocol collected during the hand, each with the seat that made
it and the protocol step (the ``step`` of its :class:`ProofContext`):

- :class:`KeyRecord`: each seat's :class:`KeyShare` (public key with Schnorr proof);
- :class:`ShuffleRecord`: each shuffle, in order, with its proof;
- :class:`TokenRecord`: every reveal token published, or sealed to one seat and published by its
  recipient after opening it, with the final-deck position it decrypts;
- :class:`SecretRecord`: each seat's revealed hand secret.

:func:`audit_hand` checks them all and returns the card at every position of the final deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, Deck
from .deckpoints import card_of
from .elgamal import EncryptedDeck, initial_deck
from .errors import AuditError, CryptoError
from .group import G, Scalar
from .keys import KeyShare, joint_key, verify_key_share
from .shuffle import ShuffleProof
from .shuffle_check import verify_shuffle
from .tokens import RevealToken, verify_token
from .transcript import ProofContext

__all__ = ["KeyRecord", "ShuffleRecord", "TokenRecord", "SecretRecord", "audit_hand"]


@dataclass(frozen=True)
class KeyRecord:
    """Seat ``seat`` published ``share`` at step ``step``."""

    seat: int
    step: str
    share: KeyShare


@dataclass(frozen=True)
class ShuffleRecord:
    """Seat ``seat`` shuffled the previous deck into ``deck`` at step ``step``."""

    seat: int
    step: str
    deck: EncryptedDeck
    proof: ShuffleProof


@dataclass(frozen=True)
class TokenRecord:
    """Seat ``seat`` gave ``token`` for position ``position`` of the final deck at ``step``."""

    seat: int
    step: str
    position: int
    token: RevealToken


@dataclass(frozen=True, repr=False)
class SecretRecord:
    """Seat ``seat`` revealed its hand secret ``secret`` at step ``step``."""

    seat: int
    step: str
    secret: Scalar

    def __repr__(self) -> str:
        return f"SecretRecord(seat={self.seat}, step={self.step!r})"


def audit_hand(
    table_id: bytes,
    hand: int,
    deck: Deck,
    keys: Sequence[KeyRecord],
    shuffles: Sequence[ShuffleRecord],
    tokens: Sequence[TokenRecord],
    secrets: Sequence[SecretRecord],
    *,
    verify_proofs: bool = True,
) -> tuple[Card, ...]:
    """Audit one hand; return the card at every position of the final deck.

    Checks, in this order: every key proof; that every seat with a key revealed exactly one
    secret and that it matches its public key; every shuffle proof, chained from the initial
    deck under the joint key; that every position decrypts to a card, each card once; that every
    token equals ``x_seat·a`` for its position and that its proof verifies. With
    ``verify_proofs=False`` (for a peer that verified every proof as it arrived) the key, shuffle
    and token proofs are skipped and everything else is still checked.

    Raises :class:`AuditError` naming the seat and step of the first record at fault.
    """

    def ctx(seat: int, step: str) -> ProofContext:
        try:
            return ProofContext(table_id, hand, seat, step)
        except CryptoError as exc:
            raise AuditError(exc.reason, seat=seat, step=step) from None

    def wrap(exc: CryptoError, seat: int, step: str) -> AuditError:
        return AuditError(exc.reason, seat=seat, step=step)

    if not keys:
        raise AuditError("the hand has no key records")
    publics = {}
    for rec in keys:
        if rec.seat in publics:
            raise AuditError("seat published two keys", seat=rec.seat, step=rec.step)
        if verify_proofs:
            try:
                verify_key_share(rec.share, ctx(rec.seat, rec.step))
            except CryptoError as exc:
                raise wrap(exc, rec.seat, rec.step) from exc
        publics[rec.seat] = rec.share.public

    revealed: dict[int, Scalar] = {}
    for srec in secrets:
        if srec.seat not in publics:
            raise AuditError("a seat without a key revealed a secret", seat=srec.seat,
                             step=srec.step)
        if srec.seat in revealed:
            raise AuditError("seat revealed two secrets", seat=srec.seat, step=srec.step)
        if srec.secret * G != publics[srec.seat]:
            raise AuditError("revealed secret key does not match the seat's public key",
                             seat=srec.seat, step=srec.step)
        revealed[srec.seat] = srec.secret
    for seat in publics:
        if seat not in revealed:
            raise AuditError("seat did not reveal its secret key", seat=seat)

    try:
        joint = joint_key(publics[s] for s in sorted(publics))
    except CryptoError as exc:
        raise AuditError(exc.reason) from exc
    current = initial_deck(deck, joint)
    for shrec in shuffles:
        if shrec.seat not in publics:
            raise AuditError("a seat without a key shuffled", seat=shrec.seat, step=shrec.step)
        if shrec.deck.deck_name != deck.name or len(shrec.deck) != len(deck):
            raise AuditError(f"shuffled deck is not a {deck.name} deck", seat=shrec.seat,
                             step=shrec.step)
        if verify_proofs:
            try:
                verify_shuffle(current, shrec.deck, joint, shrec.proof, ctx(shrec.seat, shrec.step))
            except CryptoError as exc:
                raise wrap(exc, shrec.seat, shrec.step) from exc
        current = shrec.deck

    x_total = Scalar(0)
    for x in revealed.values():
        x_total = x_total + x
    blame_seat = shuffles[-1].seat if shuffles else None
    blame_step = shuffles[-1].step if shuffles else None
    result: list[Card] = []
    for position, ct in enumerate(current):
        try:
            result.append(card_of(deck, ct.b - x_total * ct.a))
        except CryptoError:
            raise AuditError(f"position {position} of the final deck decrypts to no card",
                             seat=blame_seat, step=blame_step) from None
    if len(set(result)) != len(result):
        raise AuditError("the final deck holds a card twice", seat=blame_seat, step=blame_step)

    for trec in tokens:
        if trec.seat not in publics:
            raise AuditError("a seat without a key gave a token", seat=trec.seat, step=trec.step)
        if not 0 <= trec.position < len(current):
            raise AuditError(f"token for position {trec.position}, outside the deck",
                             seat=trec.seat, step=trec.step)
        ct = current[trec.position]
        if trec.token.t != revealed[trec.seat] * ct.a:
            raise AuditError(
                f"token for position {trec.position} does not match the revealed secret key",
                seat=trec.seat, step=trec.step,
            )
        if verify_proofs:
            try:
                verify_token(publics[trec.seat], ct, trec.token, ctx(trec.seat, trec.step))
            except CryptoError as exc:
                raise wrap(exc, trec.seat, trec.step) from exc
    return tuple(result)
