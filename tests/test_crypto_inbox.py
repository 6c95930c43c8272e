"""Inbox keys (CRYPTO.md §13): the proof of possession, and the proven opening of one box of a
dealt hand key, which shows that box's share to anyone and no other box."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.crypto.errors import InvalidEncoding, ProofError
from p2pcards.crypto.group import ORDER, G, Scalar
from p2pcards.crypto.inbox import (
    BoxOpening,
    InboxKey,
    PublishedInbox,
    verify_inbox,
    verify_opening,
)
from p2pcards.crypto.keyshares import DealtKey, deal_key, open_share, share_in_box
from p2pcards.crypto.rand import SystemRandomness
from p2pcards.crypto.transcript import ProofContext
from p2pcards.crypto.vss import share_is_valid

TABLE = bytes(range(32))


def ctx(seat: int, step: str, cycle: int = 3) -> ProofContext:
    return ProofContext(TABLE, cycle, seat, step)


def test_an_inbox_proof_verifies_only_in_its_own_context_and_for_its_own_key() -> None:
    rng = SystemRandomness()
    key = InboxKey.generate(rng)
    published = key.publish(ctx(1, "inbox"), rng)
    assert PublishedInbox.from_wire(published.to_wire()) == published
    verify_inbox(published, ctx(1, "inbox"))
    for other in (ctx(2, "inbox"), ctx(1, "key"), ctx(1, "inbox", cycle=4)):
        with pytest.raises(ProofError):
            verify_inbox(published, other)
    stolen = PublishedInbox((Scalar(2) * G), published.proof)
    with pytest.raises(ProofError):
        verify_inbox(stolen, ctx(1, "inbox"))
    with pytest.raises(InvalidEncoding, match="inbox"):
        PublishedInbox.from_wire(published.to_wire()[:2])


def test_the_inbox_proof_is_not_a_hand_key_proof() -> None:
    """The same secret and context give another proof under the hand key's label."""
    from p2pcards.crypto.keys import HandKey, KeyShare, verify_key_share

    secret = Scalar(12345)
    published = InboxKey(secret).publish(ctx(1, "inbox"))
    with pytest.raises(ProofError):
        verify_key_share(KeyShare(published.public, published.proof), ctx(1, "inbox"))
    share = HandKey(secret).share(ctx(1, "inbox"))
    with pytest.raises(ProofError):
        verify_inbox(PublishedInbox(share.public, share.proof), ctx(1, "inbox"))


def dealt(seats: int, dealer: int, rng: SystemRandomness) -> tuple[
        Scalar, dict[int, InboxKey], DealtKey]:
    secret = rng.scalar()
    inboxes = {h: InboxKey.generate(rng) for h in range(seats) if h != dealer}
    sharing = deal_key(secret, TABLE, 3, dealer, {h: k.public for h, k in inboxes.items()}, rng)
    return secret, inboxes, sharing


@settings(max_examples=12, deadline=None)
@given(seats=st.integers(3, 6), data=st.data())
def test_an_opening_gives_anyone_the_box_it_proves_and_nothing_else(
        seats: int, data: st.DataObject) -> None:
    rng = SystemRandomness()
    dealer = data.draw(st.integers(0, seats - 1))
    secret, inboxes, sharing = dealt(seats, dealer, rng)
    holders = sorted(inboxes)
    i = data.draw(st.integers(0, len(holders) - 1))
    holder = holders[i]
    step = ctx(holder, f"open-{dealer}")
    opening = inboxes[holder].open_box(sharing.ephemeral, sharing.boxes[i], step, rng)
    assert BoxOpening.from_wire(opening.to_wire()) == opening
    verify_opening(opening, inboxes[holder].public, sharing.ephemeral, sharing.boxes[i], step)
    # with the shared point anyone computes the holder's share, as the holder does
    share = share_in_box(sharing, TABLE, 3, dealer, holder, i, inboxes[holder].public,
                         opening.shared)
    assert share == open_share(sharing, secret * G, TABLE, 3, dealer, holder, i,
                               inboxes[holder].secret)
    # ... and no other holder's: the point opens the other boxes to shares that fail
    commitments = sharing.all_commitments(secret * G)
    for j, other in enumerate(holders):
        if other != holder:
            wrong = share_in_box(sharing, TABLE, 3, dealer, other, j, inboxes[other].public,
                                 opening.shared)
            assert not share_is_valid(commitments, other, wrong)
    # the proof is about this box, inbox, point and context only
    delta = Scalar.from_int(data.draw(st.integers(1, ORDER - 1)))
    other_holder = holders[(i + 1) % len(holders)]
    for args in ((inboxes[holder].public, sharing.ephemeral, sharing.boxes[i] + delta, step),
                 (inboxes[other_holder].public, sharing.ephemeral, sharing.boxes[i], step),
                 (inboxes[holder].public, sharing.ephemeral + G, sharing.boxes[i], step),
                 (inboxes[holder].public, sharing.ephemeral, sharing.boxes[i],
                  ctx(holder, f"open-{other_holder}"))):
        with pytest.raises(ProofError):
            verify_opening(opening, *args)
    forged = BoxOpening(opening.shared + delta * G, opening.proof)
    with pytest.raises(ProofError):
        verify_opening(forged, inboxes[holder].public, sharing.ephemeral, sharing.boxes[i], step)
