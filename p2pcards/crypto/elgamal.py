"""ElGamal over the prime-order group: :class:`Ciphertext`, :class:`EncryptedDeck`, decryption.

A ciphertext of the point ``M`` under the joint key ``H`` with randomness ``r`` is
``(a, b) = (r·G, M + r·H)``. Re-randomizing by ``r'`` gives ``(a + r'·G, b + r'·H)``. Seat ``i``
with secret ``x_i`` can compute its share ``T_i = x_i·a`` (its *reveal token*); the plaintext is
``b - Σ T_i`` (:func:`~.tokens.decrypt`).

The initial deck is ``(G, M_c + H)`` for every card ``c`` in the canonical order of the deck,
i.e. randomness 1 (0 would make ``a`` the identity, which is never a valid encoding).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..cards import Deck
from ._wire import as_list, as_received_point
from .deckpoints import card_points
from .group import G, Point, Scalar

__all__ = ["Ciphertext", "EncryptedDeck", "initial_deck"]

_ONE = Scalar(1)


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """``(a, b) = (r·G, M + r·H)``."""

    a: Point
    b: Point

    def rerandomize(self, r: Scalar, joint_key: Point) -> Ciphertext:
        """``(a + r·G, b + r·H)``; ``a + r·G`` is ``(1 + r)·G`` when ``a`` is ``G`` (a card of
        the initial deck), one base multiplication instead of one and an addition."""
        a = (r + _ONE) * G if self.a == G else self.a + r * G
        return Ciphertext(a, self.b + r * joint_key)

    def to_wire(self) -> list[bytes]:
        """``[a, b]``."""
        return [self.a.to_bytes(), self.b.to_bytes()]

    @classmethod
    def from_wire(cls, data: object, field: str = "ciphertext") -> Ciphertext:
        a, b = as_list(data, field, 2)
        return cls(as_received_point(a, f"{field} a"), as_received_point(b, f"{field} b"))


@dataclass(frozen=True)
class EncryptedDeck:
    """A deck of ciphertexts, one per position, for the deck named ``deck_name``.

    ``a_logs``, when this participant knows them, are the discrete logs of the ``a`` parts to
    the base ``G`` (1 for the initial deck; ``1 + r'_i`` for this seat's own shuffle of it):
    a verifier folds ``Σ k_j·a_j`` into one base multiplication with them. They are never sent
    and take no part in equality."""

    deck_name: str
    ciphertexts: tuple[Ciphertext, ...]
    a_logs: tuple[Scalar, ...] | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.ciphertexts)

    def __iter__(self) -> Iterator[Ciphertext]:
        return iter(self.ciphertexts)

    def __getitem__(self, position: int) -> Ciphertext:
        return self.ciphertexts[position]

    def to_wire(self) -> list[list[bytes]]:
        """The list of the ciphertexts' wire forms (the deck name is known from the genesis)."""
        return [c.to_wire() for c in self.ciphertexts]

    @classmethod
    def from_wire(cls, data: object, deck: Deck, field: str = "deck") -> EncryptedDeck:
        """Decode and validate exactly ``len(deck)`` ciphertexts."""
        items = as_list(data, field, len(deck))
        return cls(
            deck.name,
            tuple(Ciphertext.from_wire(x, f"{field}[{i}]") for i, x in enumerate(items)),
        )


def initial_deck(deck: Deck, joint_key: Point) -> EncryptedDeck:
    """``(G, M_c + H)`` for every card of ``deck`` in canonical order."""
    points = card_points(deck)
    return EncryptedDeck(deck.name, tuple(Ciphertext(G, m + joint_key) for m in points),
                         (_ONE,) * len(points))

