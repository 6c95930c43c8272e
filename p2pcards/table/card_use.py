"""Card-use proofs: how an ``action`` message proves the cards it uses (SPEC §9.4, §9.6).

The engine's ``card_use`` of an action says which cards it shows, keeps face up, moves face
down or passes to another seat. :func:`prove` makes the local seat's body for it: the single-card
form ``{action, position[, token]}`` where it fits, else one ``[position, shares]`` entry per
card in ``uses`` (the owner's and forwarded reveal tokens of a shown or kept card, none for a
face-down card, tokens sealed to the receiver for a passed card, opened to everyone for a card
passed to the public bot's seat, SPEC §9.13.7). :func:`check` checks a received body against the
deck and returns the :class:`Plan` of what it does, which :func:`commit` records once the engine
has accepted the action. :func:`mask` and :func:`fill` turn an action into its wire form (its
secret cards ``HIDDEN``) and back. :func:`take` does all of it for a received ``action``: check,
apply to the live engine, commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import crypto
from ..cards import HIDDEN, Card
from ..crypto import CryptoError, Randomness
from ..crypto.own import is_own_message
from ..games.base import Action, CardUse, GameError, MatchState
from .cycle import DeckCycle, Move
from .errors import Violation, body_field, box_seat, share_seat


@dataclass(frozen=True)
class Participant:
    """Who checks an action: the table's number of seats, the local seat (``None``: an
    observer) and its X25519 private key (it opens the cards passed to it)."""

    players: int
    local: int | None = None
    x25519: bytes | None = None


@dataclass
class Plan:
    """What a checked ``action`` body will do once the engine accepts it."""

    shown: list[tuple[int, Card]] = field(default_factory=list)
    kept: list[tuple[int, Card]] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    shares: list[tuple[int, int, crypto.Point]] = field(default_factory=list)
    held: list[tuple[int, int, crypto.RevealToken]] = field(default_factory=list)
    cards: dict[int, Card] = field(default_factory=dict)
    """Cards of face-down or passed positions this participant knows."""
    opened: list[int] = field(default_factory=list)
    """Passed positions whose every share was published (a card passed to the bot's seat)."""

    @property
    def secret(self) -> list[int]:
        """Positions of the action's ``HIDDEN`` slots, in slot order: hidden, then passed."""
        return self.hidden + self.passed


def card_slots(action: Action) -> list[Card]:
    """The cards an action names, in slot order: ``card`` first, then ``cards``."""
    return ([] if action.card is None else [action.card]) + list(action.cards)


def fill(action: Action, cards: Sequence[Card]) -> Action:
    """``action`` with its ``HIDDEN`` slots, in slot order, replaced by ``cards``."""
    if not cards:
        return action
    it = iter(cards)
    slots = [next(it) if c == HIDDEN else c for c in card_slots(action)]
    if action.card is None:
        return replace(action, cards=tuple(slots))
    return replace(action, card=slots[0], cards=tuple(slots[1:]))


def mask(action: Action, use: CardUse) -> Action:
    """The wire form of the local seat's ``action``: its face-down and passed cards, in slot
    order, become ``HIDDEN``. :class:`GameError` if the card use does not list them in that
    order (hidden cards first, then passed ones)."""
    secret = [*use.hidden, *use.passed]
    if not secret:
        return action
    j = 0
    slots: list[Card] = []
    for c in card_slots(action):
        if j < len(secret) and c == secret[j]:
            slots.append(HIDDEN)
            j += 1
        else:
            slots.append(c)
    if j != len(secret):
        raise GameError(f"the card use of {action} does not list its hidden and passed cards "
                        "in the action's order")
    if action.card is None:
        return replace(action, cards=tuple(slots))
    return replace(action, card=slots[0], cards=tuple(slots[1:]))


def single_shape(action: Action, use: CardUse) -> bool:
    """True for the version 1.0 shape: ``action.card`` alone, shown and leaving the hand."""
    return (action.card is not None and action.card != HIDDEN
            and use == CardUse(shown=(action.card,)))


def check(cycle: DeckCycle, seat: int, body: dict[str, Any], wire: Action, use: CardUse,
          index: int, who: Participant) -> Plan:
    """Check the body of ``seat``'s ``action`` message whose wire action is ``wire`` and card use
    ``use`` (SPEC §9.6): the plan of what it does to the deck positions, or a :class:`Violation`
    naming ``seat`` at chain index ``index``. Changes nothing."""
    secret_slots = sum(1 for c in card_slots(wire) if c == HIDDEN)
    if secret_slots != len(use.hidden) + len(use.passed):
        raise Violation("bad-action", f"the action has {secret_slots} hidden cards, its card "
                        f"use {len(use.hidden) + len(use.passed)}", seat=seat, index=index)
    if "uses" not in body and (use.empty or single_shape(wire, use)):
        if use.empty:
            if set(body) != {"action"}:
                raise Violation("bad-body", "an action without a card has only the 'action' "
                                "field", seat=seat, index=index)
            return Plan()
        return _check_single(cycle, seat, body, wire, index)
    if "uses" not in body:
        raise Violation("bad-body", "an action moving these cards needs the 'uses' field",
                        seat=seat, index=index)
    return _check_uses(cycle, seat, body["uses"], wire, use, index, who)


def prove(cycle: DeckCycle, action: Action, use: CardUse, *, me: int, rng: Randomness,
          x25519_of: Callable[[int], bytes], index: int, players: int) -> dict[str, Any]:
    """The body of the local seat ``me``'s ``action`` message for ``action``, whose card use is
    ``use`` (SPEC §9.4, §9.6); ``x25519_of(seat)`` is a seat's public X25519 key (a passed card's
    tokens are sealed to it), ``index`` the chain index the message will take.
    :class:`GameError` if a card is not in the seat's hand or the use cannot be proven."""
    wire = mask(action, use)
    body: dict[str, Any] = {"action": wire.to_wire()}
    if use.empty:
        return body

    def position_of(card: Card, exclude: set[int], in_hand: bool = False) -> int:
        return cycle.position_of(me, card, local=me, index=index, exclude=exclude,
                                 in_hand=in_hand)

    def token(position: int, seat: int, step: str) -> crypto.RevealToken:
        return _share_token(cycle, position, seat, step, me=me, rng=rng)

    if single_shape(wire, use):
        assert action.card is not None
        position = position_of(action.card, set())
        if set(cycle.missing(position)) <= {me}:
            body["position"] = position
            if me not in cycle.public.get(position, set()):
                body["token"] = cycle.token(me, position, f"play-{position}", rng).to_wire()
            return body
    uses: list[list[Any]] = []
    taken: set[int] = set()
    for c in (*use.shown, *use.kept):
        position = position_of(c, taken)
        taken.add(position)
        uses.append([position, [[s, token(position, s, "play").to_wire()]
                                for s in cycle.missing(position)]])
    for c in use.hidden:
        position = position_of(c, taken, in_hand=True)
        taken.add(position)
        uses.append([position, []])
    if use.passed:
        to = use.to
        if to is None or not 0 <= to < players or to == me:
            raise GameError(f"{action} passes cards to no other seat of this table")
        for c in use.passed:
            position = position_of(c, taken, in_hand=True)
            taken.add(position)
            if to == cycle.bot:  # opened to everyone: the bot's hand is public
                uses.append([position, [[s, token(position, s, "play").to_wire()]
                                        for s in cycle.missing(position)]])
                continue
            boxes: list[list[Any]] = []
            for s in cycle.missing(position):
                if s == to:
                    continue
                box = crypto.seal_token(token(position, s, "pass"), x25519_of(to),
                                        cycle.ctx(me, f"pass-{position}-{to}-{s}"), rng)
                boxes.append([s, box])
            uses.append([position, boxes])
    body["uses"] = uses
    return body


def _share_token(cycle: DeckCycle, position: int, seat: int, step: str, *, me: int,
                 rng: Randomness) -> crypto.RevealToken:
    """The token of ``seat``'s share of ``position`` that the local seat publishes or passes:
    its own (made now in ``<step>-<position>``), or a ``pass`` token it holds for another."""
    if seat == me:
        return cycle.token(me, position, f"{step}-{position}", rng)
    held = cycle.held.get(position, {}).get(seat)
    if held is None:
        raise GameError(f"this seat does not hold seat {seat}'s share of position {position}")
    return held


def _check_single(cycle: DeckCycle, seat: int, body: dict[str, Any], wire: Action,
                  index: int) -> Plan:
    """The single-card body ``{action, position[, token]}`` (unchanged since version 1.0)."""
    assert wire.card is not None
    raw_position = body.get("position")
    if type(raw_position) is not int or not cycle.showable(seat, raw_position):
        raise Violation("not-in-hand",
                        f"position {raw_position!r} is not a card of this seat's hand",
                        seat=seat, index=index)
    position: int = raw_position
    if not set(cycle.missing(position)) <= {seat}:
        raise Violation("bad-body", f"position {position} needs forwarded shares: the "
                        "'uses' form is required", seat=seat, index=index)
    plan = Plan()
    shares = dict(cycle.tokens.get(position, {}))
    if "token" in body:
        share = verified(cycle, seat, seat, position, f"play-{position}",
                               body["token"], "bad-token", index)
        shares[seat] = share
        plan.shares.append((position, seat, share))
    elif seat not in cycle.public.get(position, set()):
        raise Violation("missing-token", "a played card needs its owner's token",
                        seat=seat, index=index)
    _check_card(cycle, seat, position, shares, wire.card, index)
    plan.shown.append((position, wire.card))
    return plan


def _check_uses(cycle: DeckCycle, seat: int, raw: object, wire: Action, use: CardUse,
                index: int, who: Participant) -> Plan:
    """The general body ``{action, uses}``: one ``[position, shares]`` per card of the
    card use, in the order shown, kept, hidden, passed (SPEC §9.6)."""
    want = len(use.shown) + len(use.kept) + len(use.hidden) + len(use.passed)
    if (not isinstance(raw, list) or len(raw) != want or not all(
            isinstance(e, list) and len(e) == 2 and type(e[0]) is int
            and isinstance(e[1], list) for e in raw)):
        raise Violation("bad-body", f"'uses' must be {want} entries [position, shares]",
                        seat=seat, index=index)
    positions = [e[0] for e in raw]
    if len(set(positions)) != len(positions):
        raise Violation("bad-body", "a position appears twice in 'uses'", seat=seat,
                        index=index)
    if use.empty or (single_shape(wire, use)
                     and set(cycle.missing(positions[0])) <= {seat}):
        raise Violation("bad-body", "this action must use the single-card form", seat=seat,
                        index=index)
    plan = Plan()
    entries = iter(raw)
    for kept, cards in ((False, use.shown), (True, use.kept)):
        for c in cards:
            position, items = next(entries)
            if not cycle.showable(seat, position):
                raise Violation("not-in-hand", f"position {position} is not a card of this "
                                "seat's hand", seat=seat, index=index)
            missing = cycle.missing(position)
            got = [share_seat(item, seat, index) for item in items]
            if got != missing:
                raise Violation("wrong-tokens", f"shares of seats {got} for position "
                                f"{position}, expected {missing}", seat=seat, index=index)
            shares = dict(cycle.tokens.get(position, {}))
            for owner, raw_token in items:
                if owner == seat:
                    share = verified(cycle, seat, seat, position, f"play-{position}",
                                           raw_token, "bad-token", index)
                else:
                    share = verified(cycle, seat, owner, position, f"pass-{position}",
                                           raw_token, "bad-forwarded-token", index)
                shares[owner] = share
                plan.shares.append((position, owner, share))
            _check_card(cycle, seat, position, shares, c, index)
            (plan.kept if kept else plan.shown).append((position, c))
    for _ in use.hidden:
        position, items = next(entries)
        _check_own(cycle, seat, position, index)
        if items:
            raise Violation("bad-body", "a face-down card carries no shares", seat=seat,
                            index=index)
        plan.hidden.append(position)
        _learn_secret(cycle, seat, position, plan, who.local)
    if use.passed:
        to = use.to
        if to is None or not 0 <= to < who.players or to == seat:
            raise Violation("bad-action", "the action passes cards to no other seat",
                            seat=seat, index=index)
        for _ in use.passed:
            position, items = next(entries)
            _check_own(cycle, seat, position, index)
            if to == cycle.bot:
                _open_to_bot(cycle, seat, position, items, plan, index)
                continue
            want_seats = [s for s in cycle.missing(position) if s != to]
            got = [box_seat(item, seat, index) for item in items]
            if got != want_seats:
                raise Violation("wrong-tokens", f"sealed shares of seats {got} for position "
                                f"{position}, expected {want_seats}", seat=seat, index=index)
            plan.passed.append(position)
            if to == who.local and seat != who.local:
                _open_pass(cycle, seat, position, items, plan, index, who)
            else:
                _learn_secret(cycle, seat, position, plan, who.local)
    return plan


def _open_to_bot(cycle: DeckCycle, seat: int, position: int, items: list[Any],
                 plan: Plan, index: int) -> None:
    """A card passed to the bot's seat: its missing shares are published in the clear
    (``[seat, token]`` as for a shown card), so that every participant learns it."""
    missing = cycle.missing(position)
    got = [share_seat(item, seat, index) for item in items]
    if got != missing:
        raise Violation("wrong-tokens", f"shares of seats {got} for position {position} "
                        f"passed to the bot's seat, expected {missing}", seat=seat,
                        index=index)
    shares = dict(cycle.tokens.get(position, {}))
    for owner, raw_token in items:
        step, rule = (("play", "bad-token") if owner == seat
                      else ("pass", "bad-forwarded-token"))
        share = verified(cycle, seat, owner, position, f"{step}-{position}",
                               raw_token, rule, index)
        shares[owner] = share
        plan.shares.append((position, owner, share))
    try:
        plan.cards[position] = cycle.decrypt_shares(position, shares)
    except CryptoError as exc:
        raise Violation("undecryptable", str(exc), seat=seat, index=index) from None
    plan.passed.append(position)
    plan.opened.append(position)


def _check_own(cycle: DeckCycle, seat: int, position: int, index: int) -> None:
    if position not in cycle.hand_positions.get(seat, []):
        raise Violation("not-in-hand", f"position {position} is not a card of this seat's "
                        "hand", seat=seat, index=index)


def _learn_secret(cycle: DeckCycle, seat: int, position: int, plan: Plan,
                  local: int | None) -> None:
    """A card moved face down or passed: known here if it is the actor's own or public."""
    if position in cycle.known and (seat == local or not cycle.missing(position)):
        plan.cards[position] = cycle.known[position]


def _open_pass(cycle: DeckCycle, seat: int, position: int, items: list[Any],
               plan: Plan, index: int, who: Participant) -> None:
    """The local seat receives ``position``: open every sealed share, decrypt the card."""
    assert who.x25519 is not None and who.local is not None and cycle.deck is not None
    shares = dict(cycle.tokens.get(position, {}))
    for owner, box in items:
        try:
            tok = crypto.open_token(box, who.x25519,
                                    cycle.ctx(seat, f"pass-{position}-{who.local}-{owner}"))
            crypto.verify_token(cycle.publics[owner], cycle.deck[position], tok,
                                cycle.ctx(owner, f"pass-{position}"))
        except CryptoError as exc:
            raise Violation("bad-sealed-token", str(exc), seat=seat, index=index) from None
        shares[owner] = tok.t
        plan.held.append((position, owner, tok))
    assert cycle.my_key is not None
    if who.local not in shares:
        shares[who.local] = cycle.my_key.partial(cycle.deck[position].a)
    try:
        plan.cards[position] = cycle.decrypt_shares(position, shares)
    except CryptoError as exc:
        raise Violation("bad-sealed-token", str(exc), seat=seat, index=index) from None


def verified(cycle: DeckCycle, sender: int, owner: int, position: int, step: str,
             raw: object, rule: str, index: int) -> crypto.Point:
    """Decode and verify ``owner``'s token for ``position`` made in ``step``."""
    assert cycle.deck is not None
    try:
        tok = crypto.RevealToken.from_wire(raw)
        crypto.verify_token(cycle.publics[owner], cycle.deck[position], tok,
                            cycle.ctx(owner, step))
    except CryptoError as exc:
        raise Violation(rule, str(exc), seat=sender, index=index) from None
    return tok.t


def _check_card(cycle: DeckCycle, seat: int, position: int,
                shares: dict[int, crypto.Point], card_: Card, index: int) -> None:
    """``card-mismatch`` unless the shares of ``position`` decrypt to ``card_``. In the local
    seat's own message a card it has decrypted already is not decrypted again (the
    self-check rule, CRYPTO.md §14)."""
    if is_own_message() and position in cycle.known:
        revealed = cycle.known[position]
    else:
        try:
            revealed = cycle.decrypt_shares(position, shares)
        except CryptoError as exc:
            raise Violation("undecryptable", str(exc), seat=seat, index=index) from None
    if revealed != card_:
        raise Violation("card-mismatch",
                        f"played {card_} but the card at position {position} "
                        f"is {revealed}", seat=seat, index=index)


def commit(cycle: DeckCycle, seat: int, plan: Plan, to: int | None, players: int) -> None:
    """Record what an accepted action did to the deck positions (SPEC §9.6)."""
    everyone = set(range(players))
    for position, owner, share in plan.shares:
        cycle.tokens.setdefault(position, {})[owner] = share
    for position, owner, tok in plan.held:
        cycle.held.setdefault(position, {})[owner] = tok
    hand = cycle.hand_positions.setdefault(seat, [])
    for position, c in (*plan.shown, *plan.kept):
        cycle.public[position] = set(everyone)
        cycle.known[position] = c
        cycle.played[position] = c
    for position, _ in plan.shown:
        if position in hand:
            hand.remove(position)
    for position in plan.hidden:
        hand.remove(position)
    for position in plan.opened:
        cycle.public[position] = set(everyone)
    for position in plan.passed:
        hand.remove(position)
        assert to is not None
        cycle.hand_positions.setdefault(to, []).append(position)
        if position in plan.cards:
            cycle.known[position] = plan.cards[position]


def take(cycle: DeckCycle, engine: MatchState, seat: int, body: dict[str, Any], index: int,
         who: Participant, *, claim: bool) -> Action:
    """Check ``seat``'s ``action`` body (envelope ``index``; ``claim``: an out-of-turn claim),
    apply it to the live ``engine`` with the cards ``who`` may know, and record its cards and
    the move in ``cycle``. Returns the action as applied; a :class:`Violation` naming ``seat``
    if the body, its proofs or the move are wrong."""
    if "uses" in body:
        allowed = {"action", "uses"}
    elif "position" in body or "token" in body:
        allowed = {"action", "position", "token"}
    else:
        allowed = {"action"}
    raw_action = body_field(body, "action", seat, index, allowed)
    try:
        wire = Action.from_wire(raw_action)
        use = engine.card_use(wire)
    except GameError as exc:
        raise Violation("bad-action", str(exc), seat=seat, index=index) from None
    plan = check(cycle, seat, body, wire, use, index, who)
    live = fill(wire, [plan.cards.get(p, HIDDEN) for p in plan.secret])
    try:
        if claim:
            engine.apply_claim(seat, live)
        else:
            engine.apply(live)
    except GameError as exc:
        rule = getattr(exc, "rule", "illegal-move")
        raise Violation(rule, str(exc), seat=seat, index=index) from None
    commit(cycle, seat, plan, use.to, who.players)
    cycle.actions.append(Move(index, seat, wire, tuple(plan.secret), claim))
    return live
