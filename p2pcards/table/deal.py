"""Dealing one deck: hand keys, shuffles, reveal tokens and key reveals (SPEC §9.3-§9.5, §9.7,
§9.13.3).

Each function makes the local seat's body of one message kind, or checks a received one and
records it in the :class:`~.cycle.DeckCycle` (a :class:`~.errors.Violation` naming the sender
changes nothing): ``key`` (the seat's public hand key with its proof and, at a table that shares
its hand keys, its inbox key), ``shuffle`` (the re-encrypted deck with its proof and the sharing
of the seat's hand key, SPEC §9.13.3), ``tokens`` (the reveal tokens a seat owes for the pending
chance steps, public or sealed to the seats that see the card), ``reveal`` (the seat's hand
secret at the end of a deck). :func:`complete_chance` decrypts the cards of the pending chance
steps this participant may see and feeds them to the live engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import crypto
from ..cards import Card, Deck
from ..crypto import CryptoError, Randomness
from ..crypto.inbox import InboxKey, PublishedInbox, verify_inbox
from ..crypto.keyshares import DealtKey, deal_key, open_share
from ..games.base import ALL_SEATS, MatchState, Zone
from .cycle import DeckCycle
from .errors import Violation, body_field, pair_position, sealed_key
from .events import CardsRevealed
from .keeper import hand_name, inbox_name


def box_index(holder: int, dealer: int) -> int:
    """The place of ``holder``'s box among ``dealer``'s boxes (holders in seat order)."""
    return holder if holder < dealer else holder - 1


def key_body(cycle: DeckCycle, me: int, rng: Randomness,
             keep: Callable[[str, bytes], None] | None) -> dict[str, Any]:
    """The local seat ``me``'s ``key`` body: a new hand key (and inbox key at a table that
    shares its keys), each given to ``keep`` before its first use on the wire."""
    cycle.my_key = crypto.HandKey.generate(rng)
    if keep is not None:  # kept before its first use on the wire
        keep(hand_name(cycle.number), cycle.my_key.secret.to_bytes())
    share = cycle.my_key.share(cycle.ctx(me, "key"), rng)
    if not cycle.sharing:
        return {"share": share.to_wire()}
    inbox = InboxKey.generate(rng)
    cycle.my_inbox = inbox.secret
    if keep is not None:
        keep(inbox_name(cycle.number), inbox.secret.to_bytes())
    published = inbox.publish(cycle.ctx(me, "inbox"), rng)
    return {"share": share.to_wire(), "inbox": published.to_wire()}


def check_key(cycle: DeckCycle, seat: int, body: dict[str, Any], index: int, *,
              bare_inboxes: bool) -> None:
    """Check and record ``seat``'s ``key`` body: its public hand key and its inbox key."""
    sharing = cycle.sharing
    raw = body_field(body, "share", seat, index, {"share", "inbox"} if sharing else {"share"})
    try:
        share = crypto.KeyShare.from_wire(raw)
        crypto.verify_key_share(share, cycle.ctx(seat, "key"))
        inbox = _checked_inbox(cycle, seat, body["inbox"], bare_inboxes) if sharing else None
    except CryptoError as exc:
        raise Violation("bad-key", str(exc), seat=seat, index=index) from None
    cycle.publics[seat] = share.public
    if inbox is not None:
        cycle.inboxes[seat] = inbox


def _checked_inbox(cycle: DeckCycle, seat: int, raw: object, bare: bool) -> crypto.Point:
    """``seat``'s inbox key ``[E, c, s]``: its proof of possession verified in step
    ``inbox``, and ``E`` unlike every inbox key published before it in this cycle (SPEC
    §9.13.3); :class:`CryptoError` otherwise. ``bare``: a bare point of the earlier rule."""
    if bare:
        public = crypto.Point.from_bytes(raw, "inbox key")
    else:
        published = PublishedInbox.from_wire(raw)
        verify_inbox(published, cycle.ctx(seat, "inbox"))
        public = published.public
    twin = next((s for s, e in cycle.inboxes.items() if e == public), None)
    if twin is not None:
        raise CryptoError(f"the inbox key repeats the one of seat {twin}", seat=seat,
                          step="inbox")
    return public


def shuffle_body(cycle: DeckCycle, me: int, rng: Randomness) -> dict[str, Any]:
    """The local seat ``me``'s ``shuffle`` body, with the sharing of its hand key at a table
    that shares its keys."""
    assert cycle.deck is not None and cycle.joint is not None
    out, proof = crypto.shuffle(cycle.deck, cycle.joint, cycle.ctx(me, "shuffle"), rng)
    cycle.own_shuffle = out
    body: dict[str, Any] = {"deck": out.to_wire(), "proof": proof.to_wire()}
    if cycle.sharing:
        assert cycle.my_key is not None
        inboxes = {s: p for s, p in cycle.inboxes.items() if s != me}
        body["keyshares"] = deal_key(cycle.my_key.secret, cycle.table_id, cycle.number,
                                     me, inboxes, rng).to_wire()
    return body


def check_shuffle(cycle: DeckCycle, seat: int, body: dict[str, Any], index: int, *,
                  players: int, local: int | None) -> None:
    """Check and record ``seat``'s ``shuffle`` body; the local seat ``local`` opens its share
    of the seat's key, and owes a complaint if it is wrong (SPEC §9.13.4)."""
    assert cycle.deck is not None and cycle.joint is not None and cycle.cards is not None
    sharing = cycle.sharing
    fields = {"deck", "proof", "keyshares"} if sharing else {"deck", "proof"}
    raw_deck = body_field(body, "deck", seat, index, fields)
    raw_proof = body["proof"]
    try:
        out = crypto.EncryptedDeck.from_wire(raw_deck, cycle.cards)
        proof = crypto.ShuffleProof.from_wire(raw_proof, len(cycle.cards))
        crypto.verify_shuffle(cycle.deck, out, cycle.joint, proof, cycle.ctx(seat, "shuffle"))
    except CryptoError as exc:
        raise Violation("bad-shuffle", str(exc), seat=seat, index=index) from None
    if seat == local:
        out = _as_made(cycle, out)
    mine: crypto.Scalar | None = None
    dealt: DealtKey | None = None
    if sharing:
        try:
            dealt = DealtKey.from_wire(body["keyshares"], players - 1)
        except CryptoError as exc:
            raise Violation("bad-key-share", str(exc), seat=seat, index=index) from None
        mine = _open_my_share(cycle, seat, dealt, local)
    cycle.deck = out
    if dealt is not None:
        cycle.dealt[seat] = dealt
        cycle.dealt_at[seat] = index
    if mine is not None:
        cycle.my_shares[seat] = mine
    elif dealt is not None and _holds_share(cycle, seat, local) and cycle.bad_box is None:
        cycle.bad_box = seat  # only this seat can tell: it complains (SPEC §9.13.4)


def _as_made(cycle: DeckCycle, out: crypto.EncryptedDeck) -> crypto.EncryptedDeck:
    """The local seat's own shuffled deck ``out`` as it made it (with the logs of its ``a``
    parts, which make its check of the next shuffle cheaper), if that is what it sent; the
    copy is dropped either way."""
    made, cycle.own_shuffle = cycle.own_shuffle, None
    if made is not None and made.to_wire() == out.to_wire():
        return made
    return out


def _holds_share(cycle: DeckCycle, dealer: int, local: int | None) -> bool:
    """Whether the local seat holds a share of ``dealer``'s key it can open."""
    return local is not None and local != dealer and cycle.my_inbox is not None


def _open_my_share(cycle: DeckCycle, dealer: int, dealt: DealtKey,
                   local: int | None) -> crypto.Scalar | None:
    """The local seat's share of ``dealer``'s key, opened and checked against the dealer's
    commitments; ``None`` if it is wrong or the local seat holds none."""
    if not _holds_share(cycle, dealer, local):
        return None
    assert local is not None and cycle.my_inbox is not None
    return open_share(dealt, cycle.publics[dealer], cycle.table_id, cycle.number, dealer,
                      local, box_index(local, dealer), cycle.my_inbox)


def tokens_body(cycle: DeckCycle, me: int, rng: Randomness,
                x25519_of: Callable[[int], bytes]) -> dict[str, Any]:
    """The local seat ``me``'s ``tokens`` body: its token of each position it owes, public or
    sealed to each seat that sees the card (``x25519_of(seat)``: that seat's X25519 key)."""
    public: list[list[Any]] = []
    sealed: list[list[Any]] = []
    for duty in cycle.duties(me):
        tok = cycle.token(me, duty.position, f"deal-{duty.position}", rng)
        if duty.public:
            public.append([duty.position, tok.to_wire()])
        for recipient in duty.recipients:
            box = crypto.seal_token(tok, x25519_of(recipient),
                                    cycle.ctx(me, f"show-{duty.position}-{recipient}"), rng)
            sealed.append([duty.position, recipient, box])
    return {"public": public, "sealed": sealed}


def check_tokens(cycle: DeckCycle, seat: int, body: dict[str, Any], index: int, *,
                 local: int | None, x25519: bytes | None) -> None:
    """Check and record ``seat``'s ``tokens`` body: the public tokens, and the sealed ones the
    local seat ``local`` opens with its X25519 private key ``x25519``."""
    raw_public = body_field(body, "public", seat, index, {"public", "sealed"})
    raw_sealed = body["sealed"]
    duties = cycle.duties(seat)
    want_public = [d.position for d in duties if d.public]
    want_sealed = [(d.position, r) for d in duties for r in d.recipients]
    if not isinstance(raw_public, list) or not isinstance(raw_sealed, list):
        raise Violation("bad-body", "tokens message fields must be lists", seat=seat,
                        index=index)
    got_public = [pair_position(item, seat, index) for item in raw_public]
    if got_public != want_public:
        raise Violation("wrong-tokens",
                        f"public tokens for positions {got_public}, expected {want_public}",
                        seat=seat, index=index)
    got_sealed = [sealed_key(item, seat, index) for item in raw_sealed]
    if got_sealed != want_sealed:
        raise Violation("wrong-tokens",
                        f"sealed tokens for {got_sealed}, expected {want_sealed}",
                        seat=seat, index=index)
    assert cycle.deck is not None
    received: list[tuple[int, crypto.Point]] = []
    published = [position for position, _ in raw_public]
    for position, raw in raw_public:
        try:
            tok = crypto.RevealToken.from_wire(raw)
            crypto.verify_token(cycle.publics[seat], cycle.deck[position], tok,
                                cycle.ctx(seat, f"deal-{position}"))
        except CryptoError as exc:
            raise Violation("bad-token", str(exc), seat=seat, index=index) from None
        received.append((position, tok.t))
    for position, recipient, box in raw_sealed:
        if recipient != local:
            continue
        assert x25519 is not None
        try:
            tok = crypto.open_token(box, x25519, cycle.ctx(seat, f"show-{position}-{recipient}"))
            crypto.verify_token(cycle.publics[seat], cycle.deck[position], tok,
                                cycle.ctx(seat, f"deal-{position}"))
        except CryptoError as exc:
            raise Violation("bad-sealed-token", str(exc), seat=seat, index=index) from None
        received.append((position, tok.t))
    for position, share in received:
        cycle.tokens.setdefault(position, {})[seat] = share
    for position in published:
        cycle.public.setdefault(position, set()).add(seat)


def reveal_body(cycle: DeckCycle) -> dict[str, Any]:
    """The local seat's ``reveal`` body: its hand secret of the deck."""
    assert cycle.my_key is not None
    return {"secret": cycle.my_key.secret.to_bytes()}


def check_reveal(cycle: DeckCycle, seat: int, body: dict[str, Any], index: int) -> None:
    """Check and record ``seat``'s ``reveal``: a secret that matches its public hand key."""
    raw = body_field(body, "secret", seat, index, {"secret"})
    try:
        secret = crypto.Scalar.from_bytes(raw, "hand key secret")
    except CryptoError as exc:
        raise Violation("bad-reveal", str(exc), seat=seat, index=index) from None
    if secret * crypto.G != cycle.publics[seat]:
        raise Violation("bad-reveal", "revealed hand key does not match its public key",
                        seat=seat, index=index)
    cycle.secrets[seat] = secret


def complete_chance(cycle: DeckCycle, engine: MatchState, *, local: int | None,
                    index: int) -> CardsRevealed:
    """Every token of the pending chance steps is in: decrypt the cards the local seat
    ``local`` may see (and those every participant sees), record the hands' positions and feed
    the cards to the live ``engine`` (``undecryptable`` at chain index ``index``)."""
    cards: list[Card | None] = []
    for step, position in zip(cycle.pending, cycle.pending_positions, strict=True):
        visible = local is not None and step.visible(local)
        if visible or step.visible_to == ALL_SEATS or cycle.bot_sees(step):
            try:
                if position not in cycle.known:
                    cycle.known[position] = cycle.decrypt(position, own=local)
                cards.append(cycle.known[position])
            except CryptoError as exc:
                raise Violation("undecryptable", str(exc), seat=None, index=index) from None
        else:
            cards.append(None)
        if step.zone is Zone.HAND:
            assert step.seat is not None
            cycle.hand_positions.setdefault(step.seat, []).append(position)
    cycle.chance_positions.append(list(cycle.pending_positions))
    steps = cycle.pending
    engine.complete_chance(cards)
    cycle.pending = ()
    cycle.pending_positions = ()
    return CardsRevealed(steps, tuple(cards))


def open_deck(cycle: DeckCycle, cards: Deck) -> None:
    """Every holder's key is in (SPEC §9.3): the joint key, and ``cards`` as the encrypted
    initial deck the ``shuffle`` round starts from."""
    cycle.joint = crypto.joint_key(cycle.publics[s] for s in cycle.holders)
    cycle.cards = cards
    cycle.deck = crypto.initial_deck(cycle.cards, cycle.joint)
