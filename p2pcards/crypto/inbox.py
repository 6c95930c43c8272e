"""Inbox keys: their proof of possession, and the proven opening of one encrypted share.

A seat's *inbox key* ``e`` (public ``E = e·G``) receives the shares of the other seats' hand keys
(:mod:`.keyshares`, SPEC §9.13.3). This module gives the two proofs about it (CRYPTO.md §13):

**Proof of possession** (label ``"inbox-proof"``): the Schnorr proof of knowledge of ``e`` that
the seat publishes with ``E`` in its ``key`` message, exactly the key proof of CRYPTO.md §5 under
its own label: nonce ``k``, ``R = k·G``, ``c = H(ctx, E, R)``, ``s = k + c·e``. A seat therefore
cannot publish as its inbox a point whose secret it does not know (another seat's inbox, or one
made from it).

**Opening one box** (label ``"box-open"``): a holder that finds its share of dealer ``i``'s key
wrong publishes the shared point ``K = e·R`` of that one box (``R`` the dealer's ephemeral point)
with a Chaum–Pedersen proof that ``log_G E = log_R K``: nonce ``k``, ``A = k·G``, ``B = k·R``,
``c = H(ctx, E, R, box, K, A, B)``, ``s = k + c·e``. With ``K`` anyone computes the box's pad, hence
the share, and checks it against the dealer's commitments (:func:`.keyshares.share_in_box`).
``K`` is of no use for any other box: every dealer draws its own ``R``, and ``e·R'`` for another
``R'`` is a Diffie–Hellman value that ``K`` does not give. The inbox secret itself is never
published.

Wire forms: published inbox ``[E, c, s]``; box opening ``[K, c, s]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._wire import as_list, as_point
from .errors import InvalidScalar, ProofError
from .group import G, Point, Scalar
from .keys import SchnorrProof
from .own import is_own_message
from .rand import Randomness
from .tokens import DLEQProof
from .transcript import ProofContext, Transcript, derive_nonce

__all__ = ["InboxKey", "PublishedInbox", "BoxOpening", "verify_inbox", "verify_opening",
           "INBOX_LABEL", "OPEN_LABEL"]

INBOX_LABEL = "inbox-proof"
OPEN_LABEL = "box-open"


@dataclass(frozen=True)
class PublishedInbox:
    """What a seat publishes as its inbox in a ``key`` message: ``E`` and its proof."""

    public: Point
    proof: SchnorrProof

    def to_wire(self) -> list[bytes]:
        """``[E, c, s]``."""
        return [self.public.to_bytes(), *self.proof.to_wire()]

    @classmethod
    def from_wire(cls, data: object) -> PublishedInbox:
        """Decode ``[E, c, s]``; :class:`~.errors.InvalidEncoding` naming the field."""
        public, c, s = as_list(data, "inbox", 3)
        return cls(as_point(public, "inbox key"), SchnorrProof.from_wire([c, s], "inbox proof"))


@dataclass(frozen=True)
class BoxOpening:
    """The shared point ``K = e·R`` of one box, with its Chaum–Pedersen proof."""

    shared: Point
    proof: DLEQProof

    def to_wire(self) -> list[bytes]:
        """``[K, c, s]``."""
        return [self.shared.to_bytes(), *self.proof.to_wire()]

    @classmethod
    def from_wire(cls, data: object) -> BoxOpening:
        """Decode ``[K, c, s]``; :class:`~.errors.InvalidEncoding` naming the field."""
        shared, c, s = as_list(data, "box opening", 3)
        return cls(as_point(shared, "box opening K"), DLEQProof.from_wire([c, s], "box opening"))


def _possession(ctx: ProofContext, public: Point) -> Transcript:
    return Transcript(INBOX_LABEL, ctx).point(public)


def _opening(ctx: ProofContext, inbox: Point, ephemeral: Point, box: Scalar,
             shared: Point) -> Transcript:
    return Transcript(OPEN_LABEL, ctx).point(inbox).point(ephemeral).scalar(box).point(shared)


@dataclass(frozen=True, repr=False)
class InboxKey:
    """A seat's inbox secret of one deck cycle (nonzero)."""

    secret: Scalar

    def __post_init__(self) -> None:
        if self.secret.is_zero():
            raise InvalidScalar("an inbox key's secret must not be zero")

    def __repr__(self) -> str:
        return f"InboxKey(public={self.public.to_bytes().hex()})"

    @classmethod
    def generate(cls, rng: Randomness) -> InboxKey:
        """A fresh inbox key."""
        return cls(rng.scalar())

    @property
    def public(self) -> Point:
        """``E = e·G``."""
        return self.secret * G

    def publish(self, ctx: ProofContext, rng: Randomness | None = None) -> PublishedInbox:
        """``E`` with its proof of possession in ``ctx`` (``ctx.seat`` is the owner). With
        ``rng`` the nonce is hedged; without, the proof is deterministic."""
        public = self.public
        tr = _possession(ctx, public)
        k = derive_nonce(self.secret, tr, rng.bytes(32) if rng is not None else b"")
        tr.point(k * G)
        c = tr.challenge()
        return PublishedInbox(public, SchnorrProof(c, k + c * self.secret))

    def open_box(self, ephemeral: Point, box: Scalar, ctx: ProofContext,
                 rng: Randomness | None = None) -> BoxOpening:
        """``K = e·R`` for the box ``box`` sent with ephemeral point ``R``, proven in ``ctx``."""
        shared = self.secret * ephemeral
        tr = _opening(ctx, self.public, ephemeral, box, shared)
        k = derive_nonce(self.secret, tr, rng.bytes(32) if rng is not None else b"")
        tr.point(k * G).point(k * ephemeral)
        c = tr.challenge()
        return BoxOpening(shared, DLEQProof(c, k + c * self.secret))


def verify_inbox(published: PublishedInbox, ctx: ProofContext) -> None:
    """Check the proof of possession of ``published`` in ``ctx``; :class:`ProofError` if not."""
    if is_own_message():
        return  # made by this seat itself: see own.py
    tr = _possession(ctx, published.public)
    tr.point(published.proof.s * G - published.proof.e * published.public)
    if tr.challenge() != published.proof.e:
        raise ProofError("inbox key proof does not verify", seat=ctx.seat, step=ctx.step)


def verify_opening(opening: BoxOpening, inbox: Point, ephemeral: Point, box: Scalar,
                   ctx: ProofContext) -> None:
    """Check that ``opening.shared`` is ``e·R`` for the ``e`` behind ``inbox`` (``R`` =
    ``ephemeral``), for the box ``box``, in ``ctx``; :class:`ProofError` if not."""
    if is_own_message():
        return  # made by this seat itself: see own.py
    c, s = opening.proof.e, opening.proof.s
    tr = _opening(ctx, inbox, ephemeral, box, opening.shared)
    tr.point(s * G - c * inbox).point(s * ephemeral - c * opening.shared)
    if tr.challenge() != c:
        raise ProofError("box opening proof does not verify", seat=ctx.seat, step=ctx.step)
