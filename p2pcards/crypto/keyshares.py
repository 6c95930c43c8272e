"""A seat's hand key dealt to the other seats: Feldman commitments and encrypted shares (sans-IO).

The table protocol (``protocol/SPEC.md`` §9.13) shares every seat's hand secret ``x`` among the
other seats with threshold "all of them" (:mod:`.vss`), so that the others can rebuild it if the
seat drops out. This module gives the object that carries one such sharing, :class:`DealtKey`,
and how a share is encrypted to its holder and opened again.

**Inboxes.** Every seat draws, with each hand key, a second fresh secret ``e`` (its *inbox
key*) and publishes ``E = e·G`` beside its public key. Shares for it are encrypted to ``E``.
The inbox key is not the hand key, so that rebuilding a dropped seat's hand key (which becomes
public) does not also open the shares that seat received of the others' keys.

**Encrypting a share.** The dealer (seat ``i``) draws one ephemeral scalar ``r`` and publishes
``R = r·G``. For holder ``h`` with inbox ``E_h`` the pad is ::

    pad_h = reduce64(SHA-512(lp(DOMAIN) || lp("vss-pad") || ctx_h.encode() || lp(R) || lp(E_h)
                             || lp(r·E_h)))

with ``ctx_h`` the proof context ``(table, cycle, i, "vss-<h>")``, and the box is the scalar
``c_h = s_h + pad_h`` (mod ℓ). The holder computes ``e_h·R = r·E_h``, the same pad, and
``s_h = c_h − pad_h``, which it checks against the dealer's public commitments
(:func:`.vss.share_is_valid`). Nothing but the commitments authenticates the box: a wrong box
gives a share that fails that check.

**Complaints.** A holder whose share fails the check proves it without giving away its inbox
secret: it publishes the shared point ``K = e_h·R`` of that one box with a Chaum–Pedersen proof
that it is correct (:meth:`.inbox.InboxKey.open_box`); anyone recomputes the pad from ``K``,
opens the box (:func:`share_in_box`) and finds the share wrong. ``K`` opens no other box.

Wire form (CRYPTO.md §11 conventions): ``[R, [C_1, …, C_{t-1}], [c_h for each holder in seat
order]]``; ``C_0`` is the dealer's public hand key and is not repeated.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ._wire import as_list, as_point, as_points, as_scalars
from .group import DOMAIN, G, Point, Scalar, lp
from .rand import Randomness
from .transcript import ProofContext
from .vss import VSSError, deal, reconstruct, share_is_valid

__all__ = ["DealtKey", "deal_key", "open_share", "share_in_box", "share_context", "rebuild_key"]


def share_context(table_id: bytes, cycle: int, dealer: int, holder: int) -> ProofContext:
    """The context of the dealer's share for ``holder``: step ``vss-<holder>``."""
    return ProofContext(table_id, cycle, dealer, f"vss-{holder}")


def _pad(ctx: ProofContext, ephemeral: Point, inbox: Point, shared: Point) -> Scalar:
    h = hashlib.sha512(lp(DOMAIN) + lp(b"vss-pad") + ctx.encode() + lp(ephemeral.to_bytes())
                       + lp(inbox.to_bytes()) + lp(shared.to_bytes()))
    return Scalar.reduce64(h.digest())


@dataclass(frozen=True)
class DealtKey:
    """One seat's dealt hand key: the ephemeral point ``R``, the commitments after ``C_0`` and
    one box per holder (the other seats, in seat order)."""

    ephemeral: Point
    commitments: tuple[Point, ...]
    boxes: tuple[Scalar, ...]

    def all_commitments(self, public_key: Point) -> tuple[Point, ...]:
        """``(C_0 = X, C_1, …)``: the full commitment list for the dealer's key ``X``."""
        return (public_key, *self.commitments)

    def to_wire(self) -> list[object]:
        return [self.ephemeral.to_bytes(), [c.to_bytes() for c in self.commitments],
                [b.to_bytes() for b in self.boxes]]

    @classmethod
    def from_wire(cls, data: object, holders: int) -> DealtKey:
        """Decode a sharing among ``holders`` seats (threshold ``holders``: ``holders - 1``
        commitments after ``C_0``); :class:`~.errors.InvalidEncoding` naming the field."""
        r, commitments, boxes = as_list(data, "key sharing", 3)
        return cls(as_point(r, "key sharing R"),
                   as_points(commitments, "key sharing commitments", holders - 1),
                   as_scalars(boxes, "key sharing boxes", holders))


def deal_key(secret: Scalar, table_id: bytes, cycle: int, dealer: int,
             inboxes: Mapping[int, Point], rng: Randomness) -> DealtKey:
    """Share ``secret`` (the dealer's hand secret) among the seats of ``inboxes`` (every other
    seat, with its inbox point), threshold all of them, each share encrypted to its inbox."""
    holders = sorted(inboxes)
    sharing = deal(secret, holders, len(holders), rng)
    r = rng.scalar()
    ephemeral = r * G
    boxes = []
    for h in holders:
        ctx = share_context(table_id, cycle, dealer, h)
        boxes.append(sharing.shares[h] + _pad(ctx, ephemeral, inboxes[h], r * inboxes[h]))
    return DealtKey(ephemeral, sharing.commitments[1:], tuple(boxes))


def share_in_box(dealt: DealtKey, table_id: bytes, cycle: int, dealer: int, holder: int,
                 index: int, inbox: Point, shared: Point) -> Scalar:
    """The scalar in ``holder``'s box (the ``index``-th holder in seat order), given its inbox
    point ``E_h`` and the box's shared point ``K = e_h·R``: ``c_h − pad_h``. Whether it is the
    right share is for :func:`~.vss.share_is_valid` to say."""
    ctx = share_context(table_id, cycle, dealer, holder)
    return dealt.boxes[index] - _pad(ctx, dealt.ephemeral, inbox, shared)


def open_share(dealt: DealtKey, public_key: Point, table_id: bytes, cycle: int, dealer: int,
               holder: int, index: int, inbox_secret: Scalar) -> Scalar | None:
    """The share of ``holder`` (the ``index``-th holder in seat order), opened with its inbox
    secret, or ``None`` if it does not match the dealer's commitments."""
    share = share_in_box(dealt, table_id, cycle, dealer, holder, index, inbox_secret * G,
                         inbox_secret * dealt.ephemeral)
    if not share_is_valid(dealt.all_commitments(public_key), holder, share):
        return None
    return share


def rebuild_key(shares: Mapping[int, Scalar], holders: Sequence[int]) -> Scalar:
    """The dealer's secret from the shares of every holder (each checked before);
    :class:`~.vss.VSSError` naming the holders whose share is missing."""
    missing = [h for h in holders if h not in shares]
    if missing:
        raise VSSError(f"the shares of seats {missing} are missing")
    return reconstruct({h: shares[h] for h in holders}, len(holders))
