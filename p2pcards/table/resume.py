"""What a seat needs to resume its table from the transcript and its kept secrets (SPEC
§11.7.4).

A seat that crashed replays its chain (:meth:`~p2pcards.table.Table.resume`). Its hand key of a
deck comes from the transcript once it is public there (:func:`own_public_keys`), else from the
keeper (:func:`restore_key`); the kept count of its signed envelopes refuses a transcript cut
before one of them (:func:`check_signed`); the deck in play needs its inbox key
(:func:`check_inbox`); a claim-window proposal it signed is taken back (:func:`kept_proposal`).
:func:`replay` feeds the transcript's frames to the table, the seat's own taken as such.
Every failure is a :class:`~.errors.ResumeError` that says what is missing or wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import crypto
from ..crypto import CryptoError
from ..crypto.keyshares import rebuild_key
from ..wire import Chain, Payload, ProtocolError, PublicIdentity, open_envelope
from .cycle import DeckCycle
from .errors import ResumeError, Violation
from .events import Step
from .keeper import PROPOSAL, SIGNED, Keeper, decode_count, hand_name, inbox_name


def own_public_keys(frames: Sequence[bytes], keys: Sequence[PublicIdentity],
                    seat: int) -> dict[bytes, crypto.Scalar]:
    """The hand keys of ``seat`` that ``frames`` make public, by public key: the secret of
    its own ``reveal`` (or of its ``recover`` under ``forfeit``), and the key rebuilt from
    the other seats' shares when a recovery was of ``seat`` (SPEC §9.13). Frames that
    cannot be read are skipped: the replay names what is wrong with them."""
    found: dict[bytes, crypto.Scalar] = {}
    rebuilt: dict[int, crypto.Scalar] = {}
    for data in frames:
        try:
            _, payload = open_envelope(data, keys)
            body = payload.body
            if not isinstance(body, dict):
                continue
            if payload.seat == seat and payload.kind in ("reveal", "recover"):
                if body.get("secret") is not None:
                    secret = crypto.Scalar.from_bytes(body["secret"], "hand key secret")
                    found[(secret * crypto.G).to_bytes()] = secret
            elif (payload.kind == "recover" and body.get("seat") == seat
                  and body.get("share") is not None):
                rebuilt[payload.seat] = crypto.Scalar.from_bytes(body["share"], "key share")
        except (ProtocolError, CryptoError):
            continue
    holders = [s for s in range(len(keys)) if s != seat]
    if rebuilt.keys() == set(holders):
        try:
            secret = rebuild_key(rebuilt, holders)
            found[(secret * crypto.G).to_bytes()] = secret
        except CryptoError:
            pass  # the replay names the bad share
    return found


def restore_key(cycle: DeckCycle, payload: Payload, known: dict[bytes, crypto.Scalar],
                keeper: Keeper | None, seat: int) -> None:
    """Give the replay ``seat``'s key of the hand whose ``key`` envelope ``payload`` is next
    (from ``known``, else from ``keeper``), and its inbox key of that hand while it is kept
    (see :func:`check_inbox`)."""
    share = payload.body.get("share") if isinstance(payload.body, dict) else None
    try:
        public = crypto.KeyShare.from_wire(share).public.to_bytes()
    except CryptoError as exc:
        raise ResumeError(f"envelope {payload.seq} holds no usable key share: {exc}") from None
    secret = known.get(public)
    if secret is None:
        kept = keeper.load(hand_name(cycle.number)) if keeper is not None else None
        if kept is None:
            raise ResumeError(f"the key of hand cycle {cycle.number} of seat {seat} is "
                              "not among the kept secrets: this seat cannot go on")
        try:
            secret = crypto.Scalar.from_bytes(kept, "kept hand key")
        except CryptoError as exc:
            raise ResumeError(f"the kept key of hand cycle {cycle.number} is damaged: "
                              f"{exc}") from None
    try:
        cycle.my_key = crypto.HandKey(secret)
    except CryptoError as exc:
        raise ResumeError(f"the key of hand cycle {cycle.number} is unusable: {exc}") from None
    if isinstance(payload.body, dict) and "inbox" in payload.body:
        kept = keeper.load(inbox_name(cycle.number)) if keeper is not None else None
        if kept is None:
            return  # spent since: the deck needs it no more (checked after the replay)
        try:
            cycle.my_inbox = crypto.Scalar.from_bytes(kept, "kept inbox key")
        except CryptoError as exc:
            raise ResumeError(f"the kept inbox key of hand cycle {cycle.number} is "
                              f"damaged: {exc}") from None


def check_signed(keeper: Keeper | None, own: int, frames: int, seat: int) -> None:
    """Refuse a transcript of ``frames`` envelopes, ``own`` of them ``seat``'s, that holds fewer
    of the seat's envelopes than the keeper says its transcript held (SPEC §11.7.4)."""
    data = keeper.load(SIGNED) if keeper is not None else None
    if data is None:
        return
    signed = decode_count(data)
    if signed is None:
        raise ResumeError(f"the kept count of seat {seat}'s envelopes is damaged "
                          f"({len(data)} bytes, not 8)")
    if own < signed:
        raise ResumeError(f"the transcript ends after {frames} envelopes, {own} of them "
                          f"seat {seat}'s, but the seat had already signed {signed}: "
                          "resuming from it would sign a second, different envelope for a "
                          "place the seat has signed, so resume from a complete copy of "
                          "the transcript (every player's holds the same chain)")


def check_inbox(cycle: DeckCycle | None, spent: Sequence[int], seat: int) -> None:
    """After the replay: the deck in play needs ``seat``'s inbox key (it opens the shares of
    the other seats' hand keys dealt to this seat), which is kept until the deck is spent; a
    spent deck needs none."""
    if (cycle is None or cycle.audited or cycle.number in spent
            or seat not in cycle.inboxes or cycle.my_inbox is not None):
        return
    raise ResumeError(f"the inbox key of hand cycle {cycle.number} of seat {seat} is "
                      "not among the kept secrets: this seat cannot go on")


def kept_proposal(keeper: Keeper | None, frames: Sequence[bytes],
                  keys: Sequence[PublicIdentity], *, seat: int, chain: Chain,
                  speakers: frozenset[int]) -> bytes | None:
    """The kept claim-window proposal of ``seat``, if there is one, the chain does not hold it,
    it is a readable envelope and it fits the chain's next place (``seat`` is among the
    ``speakers`` there): the seat then never signs a second envelope for that place."""
    data = keeper.load(PROPOSAL) if keeper is not None else None
    if data is None or data in frames:
        return None
    try:
        _, payload = open_envelope(data, keys)
    except ProtocolError:
        return None
    fits = (payload.seat == seat and payload.seq == chain.next_seq
            and payload.prev == chain.head and seat in speakers)
    return data if fits else None


def replay(frames: Sequence[bytes], keys: Sequence[PublicIdentity], seat: int,
           keeper: Keeper | None, *, receive: Callable[[bytes, bool], Step],
           cycle: Callable[[], DeckCycle]) -> tuple[Step, int]:
    """Replay ``frames`` through ``receive(data, own)`` (``own``: the frame is ``seat``'s own
    envelope, to be taken as such), restoring ``seat``'s hand key of each deck before its
    ``key`` message (``cycle()``: the deck in play then) and checking it after. Returns the
    replay's step and the count of ``seat``'s own envelopes; :class:`ResumeError` names a frame
    that cannot be read or does not replay, or a kept key that is not the published one."""
    known = own_public_keys(frames, keys, seat)
    step = Step()
    own = 0
    for index, data in enumerate(frames):
        try:
            _, payload = open_envelope(data, keys)
        except ProtocolError as exc:
            raise ResumeError(f"envelope {index} of the transcript cannot be read: "
                              f"{exc}") from None
        mine = payload.seat == seat
        own += mine
        if mine and payload.kind == "key":
            restore_key(cycle(), payload, known, keeper, seat)
        try:
            step.extend(receive(data, mine))
        except Violation as exc:
            raise ResumeError(f"the transcript does not replay: {exc}") from None
        if mine and payload.kind == "key":
            _check_kept_key(cycle(), seat)
    return step, own


def _check_kept_key(cycle: DeckCycle, seat: int) -> None:
    """The key ``seat`` holds for ``cycle`` must be the one it published there."""
    assert cycle.my_key is not None
    if cycle.my_key.public != cycle.publics[seat]:
        raise ResumeError(f"the kept key of hand cycle {cycle.number} is not the "
                          f"key seat {seat} published")
