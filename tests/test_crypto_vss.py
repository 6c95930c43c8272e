"""Feldman-verifiable secret sharing of a hand key: exact small cases, and properties over
random secrets, holders and thresholds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.crypto.errors import InvalidEncoding
from p2pcards.crypto.group import ORDER, G, Scalar
from p2pcards.crypto.keyshares import DealtKey, deal_key, open_share, rebuild_key
from p2pcards.crypto.rand import SystemRandomness
from p2pcards.crypto.vss import VSSError, commits_to, deal, reconstruct, share_is_valid


class Fixed:
    """Randomness that returns the given scalars in turn (for hand-computed cases)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def bytes(self, n: int) -> bytes:
        raise AssertionError("not used")

    def scalar(self) -> Scalar:
        return Scalar.from_int(self.values.pop(0))


def test_a_hand_computed_sharing() -> None:
    # f(z) = 5 + 3z; holder h gets f(h + 1): seat 1 -> 11, seat 2 -> 14, seat 3 -> 17
    sharing = deal(Scalar.from_int(5), [1, 2, 3], 2, Fixed(3))
    assert {h: s.value for h, s in sharing.shares.items()} == {1: 11, 2: 14, 3: 17}
    assert sharing.commitments == (Scalar.from_int(5) * G, Scalar.from_int(3) * G)
    assert commits_to(sharing.commitments, Scalar.from_int(5) * G)
    assert all(share_is_valid(sharing.commitments, h, s) for h, s in sharing.shares.items())
    assert not share_is_valid(sharing.commitments, 1, Scalar.from_int(12))
    assert not share_is_valid(sharing.commitments, 2, Scalar.from_int(11))  # seat 1's share
    # Lagrange at 0 through (2, 11) and (4, 17): 11·2 + 17·(−1) = 5
    assert reconstruct({1: sharing.shares[1], 3: sharing.shares[3]}, 2).value == 5
    assert reconstruct({1: Scalar.from_int(12), 3: sharing.shares[3]}, 2).value == 7


def test_bad_uses_are_refused() -> None:
    rng = SystemRandomness()
    with pytest.raises(VSSError, match="each holder must be named once"):
        deal(Scalar.from_int(1), [1, 1], 2, rng)
    with pytest.raises(VSSError, match="between 1 and 2, not 3"):
        deal(Scalar.from_int(1), [1, 2], 3, rng)
    with pytest.raises(VSSError, match="3 shares are needed, 2 given"):
        reconstruct({0: Scalar.from_int(1), 1: Scalar.from_int(2)}, 3)


@settings(max_examples=25, deadline=None)
@given(secret=st.integers(1, ORDER - 1), seats=st.integers(2, 8), data=st.data())
def test_any_threshold_of_valid_shares_rebuilds_the_committed_secret(
        secret: int, seats: int, data: st.DataObject) -> None:
    owner = data.draw(st.integers(0, seats - 1))
    holders = [s for s in range(seats) if s != owner]
    threshold = data.draw(st.integers(1, len(holders)))
    x = Scalar.from_int(secret)
    sharing = deal(x, holders, threshold, SystemRandomness())
    assert sharing.threshold == threshold and commits_to(sharing.commitments, x * G)
    assert all(share_is_valid(sharing.commitments, h, s) for h, s in sharing.shares.items())
    chosen = data.draw(st.lists(st.sampled_from(holders), min_size=threshold,
                                max_size=threshold, unique=True))
    assert reconstruct({h: sharing.shares[h] for h in chosen}, threshold) == x
    wrong = chosen[0]
    bad = sharing.shares[wrong] + Scalar.from_int(1)
    assert not share_is_valid(sharing.commitments, wrong, bad)  # a bad share is caught
    assert not commits_to(sharing.commitments, (x + Scalar.from_int(1)) * G)


# ------------------------------------------------------------------ dealt keys (keyshares.py)

TABLE = bytes(range(32))


def dealt_among(seats: int, dealer: int, rng: SystemRandomness) -> tuple[
        Scalar, dict[int, Scalar], DealtKey]:
    """A dealer's key dealt to the inboxes of every other seat: (secret, inbox secrets, sharing)."""
    secret = rng.scalar()
    inbox_secrets = {h: rng.scalar() for h in range(seats) if h != dealer}
    inboxes = {h: e * G for h, e in inbox_secrets.items()}
    return secret, inbox_secrets, deal_key(secret, TABLE, 3, dealer, inboxes, rng)


def test_a_dealt_key_opens_for_each_holder_and_rebuilds() -> None:
    rng = SystemRandomness()
    secret, inbox, dealt = dealt_among(4, 1, rng)
    holders = [0, 2, 3]
    assert len(dealt.commitments) == 2 and len(dealt.boxes) == 3
    assert DealtKey.from_wire(dealt.to_wire(), 3) == dealt
    shares = {}
    for i, h in enumerate(holders):
        share = open_share(dealt, secret * G, TABLE, 3, 1, h, i, inbox[h])
        assert share is not None
        shares[h] = share
    assert rebuild_key(shares, holders) == secret
    # another holder's inbox, another cycle, another box: nothing opens
    assert open_share(dealt, secret * G, TABLE, 3, 1, 0, 0, inbox[2]) is None
    assert open_share(dealt, secret * G, TABLE, 4, 1, 0, 0, inbox[0]) is None
    assert open_share(dealt, secret * G, TABLE, 3, 1, 0, 1, inbox[0]) is None
    # a sharing of another key does not match this public key
    assert open_share(dealt, (secret + Scalar(1)) * G, TABLE, 3, 1, 0, 0, inbox[0]) is None
    with pytest.raises(InvalidEncoding, match="key sharing commitments"):
        DealtKey.from_wire(dealt.to_wire(), 4)


@settings(max_examples=15, deadline=None)
@given(seats=st.integers(3, 8), data=st.data())
def test_every_other_seat_together_and_only_all_of_them_rebuild_a_dealt_key(
        seats: int, data: st.DataObject) -> None:
    rng = SystemRandomness()
    dealer = data.draw(st.integers(0, seats - 1))
    secret, inbox, dealt = dealt_among(seats, dealer, rng)
    holders = [h for h in range(seats) if h != dealer]
    shares = {h: open_share(dealt, secret * G, TABLE, 3, dealer, h, i, inbox[h])
              for i, h in enumerate(holders)}
    assert all(s is not None for s in shares.values())
    opened = {h: s for h, s in shares.items() if s is not None}
    assert rebuild_key(opened, holders) == secret
    with pytest.raises(VSSError):
        rebuild_key(dict(list(opened.items())[:-1]), holders)
    # the commitments bind every share: any other value for any holder is refused
    h = data.draw(st.sampled_from(holders))
    delta = Scalar.from_int(data.draw(st.integers(1, ORDER - 1)))
    commitments = dealt.all_commitments(secret * G)
    assert share_is_valid(commitments, h, opened[h])
    assert not share_is_valid(commitments, h, opened[h] + delta)
