"""One shuffled deck and what every participant knows of it (SPEC §9.3-§9.7, §9.13).

A :class:`DeckCycle` holds a deck's keys, shuffles, decryption shares and the log the audit
replays, and answers the questions the table asks of it: which shares of a position are still
missing, whether a seat may show a position, what a seat owes for the pending chance steps
(SPEC §9.5), where a seat's card lies, and which card a set of shares decrypts to. It knows
the seat the public bot plays (SPEC §9.13.7), whose share of a position never needs sending.
:meth:`DeckCycle.copy` is a copy whose changes leave this one as it is (a trial ``action``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .. import crypto
from ..cards import Card, Deck
from ..crypto import CryptoError, ProofContext, Randomness
from ..crypto.keyshares import DealtKey
from ..games.base import ALL_SEATS, Action, ChanceStep, GameError, Zone
from .errors import Violation


@dataclass
class Duty:
    """What one seat must provide for one chance step: a public token, or sealed tokens."""

    step_index: int
    position: int
    public: bool
    recipients: tuple[int, ...] = ()


@dataclass(frozen=True)
class Move:
    """One accepted action, as the full replay needs it.

    ``action`` is the wire action (``HIDDEN`` where the card was not shown to everyone);
    ``secret`` the deck positions of its ``HIDDEN`` slots, in slot order; ``claim`` marks an
    out-of-turn claim (applied with ``apply_claim``).
    """

    index: int
    seat: int
    action: Action
    secret: tuple[int, ...] = ()
    claim: bool = False


@dataclass
class DeckCycle:
    """One shuffled deck: keys, shuffles, tokens, and the log needed for the replay."""

    table_id: bytes
    number: int
    holders: tuple[int, ...] = ()
    """The seats that hold a hand key of this deck: every seat, or, once the public bot plays
    a seat, every other seat (SPEC §9.13.7)."""
    bot: int | None = None
    """The seat the public bot plays (SPEC §9.13.7): its share of a position is computed from
    its rebuilt key, never sent."""
    sharing: bool = False
    """The seats share their hand keys of this deck (a dropout policy, no recovery yet)."""
    my_key: crypto.HandKey | None = None
    publics: dict[int, crypto.Point] = field(default_factory=dict)
    joint: crypto.Point | None = None
    deck: crypto.EncryptedDeck | None = None
    cards: Deck | None = None
    """The game's deck that :attr:`deck` encrypts (set with it)."""
    own_shuffle: crypto.EncryptedDeck | None = None
    """The local seat's shuffled deck as it made it, with what only it knows of it
    (:attr:`~p2pcards.crypto.EncryptedDeck.a_logs`), until its ``shuffle`` message is applied."""
    tokens: dict[int, dict[int, crypto.Point]] = field(default_factory=dict)
    """position -> seat -> verified decryption share (public or opened from a sealed token)."""
    public: dict[int, set[int]] = field(default_factory=dict)
    """position -> seats whose share of it is public (the same for every participant)."""
    held: dict[int, dict[int, crypto.RevealToken]] = field(default_factory=dict)
    """position -> seat -> that seat's ``pass`` token, received privately with a passed card
    (this participant forwards it when it shows or passes the card on)."""
    hand_positions: dict[int, list[int]] = field(default_factory=dict)
    chance_positions: list[list[int]] = field(default_factory=list)
    """Deck positions of each chance batch, in order (for the replay)."""
    actions: list[Move] = field(default_factory=list)
    """Every accepted action in order (for the replay)."""
    played: dict[int, Card] = field(default_factory=dict)
    known: dict[int, Card] = field(default_factory=dict)
    """Deck position -> card, for every position this participant has decrypted."""
    secrets: dict[int, crypto.Scalar] = field(default_factory=dict)
    pending: tuple[ChanceStep, ...] = ()
    pending_positions: tuple[int, ...] = ()
    my_inbox: crypto.Scalar | None = None
    """The local seat's inbox secret of this cycle (key sharing, SPEC §9.13)."""
    inboxes: dict[int, crypto.Point] = field(default_factory=dict)
    dealt: dict[int, DealtKey] = field(default_factory=dict)
    """Seat -> its hand key's sharing, from its ``shuffle`` message."""
    dealt_at: dict[int, int] = field(default_factory=dict)
    """Seat -> the chain index of the ``shuffle`` message that carried its sharing."""
    bad_box: int | None = None
    """The dealer whose share for the local seat fails its commitments: the local seat owes
    a ``complain`` and sends nothing else (SPEC §9.13.4)."""
    my_shares: dict[int, crypto.Scalar] = field(default_factory=dict)
    """Dealer seat -> the local seat's share of its key, opened and checked."""
    shuffled: bool = False
    """The ``shuffle`` round is complete: cards may have been dealt with this deck."""
    audited: bool = False
    published: dict[int, crypto.Scalar] = field(default_factory=dict)
    """Holder seat -> its share of the dropped seat's key, published in ``recover``."""

    def ctx(self, seat: int, step: str) -> ProofContext:
        """The context of ``seat``'s proof in ``step`` of this deck."""
        return ProofContext(self.table_id, self.number, seat, step)

    def copy(self) -> DeckCycle:
        """A copy whose shares, hands, known cards and action log can change while this deck
        stays as it is (what a trial ``action`` may change); keys and the deck are shared."""
        return replace(
            self,
            tokens={p: dict(v) for p, v in self.tokens.items()},
            public={p: set(v) for p, v in self.public.items()},
            held={p: dict(v) for p, v in self.held.items()},
            hand_positions={s: list(v) for s, v in self.hand_positions.items()},
            actions=list(self.actions),
            played=dict(self.played),
            known=dict(self.known),
        )

    def missing(self, position: int) -> list[int]:
        """Seats whose share of ``position`` is not public yet, in seat order."""
        public = self.public.get(position, set())
        return [s for s in self.holders if s not in public and s != self.bot]

    def showable(self, seat: int, position: int) -> bool:
        """Whether ``seat`` may show ``position`` from its hand: dealt to (or passed into) it, or
        a public card in no other seat's hand (a public card the engine moved into a hand)."""
        if position in self.hand_positions.get(seat, []):
            return True
        if self.deck is None or not 0 <= position < len(self.deck):
            return False
        if self.missing(position) or position not in self.known:
            return False
        return not any(position in hand for s, hand in self.hand_positions.items() if s != seat)

    def unrevealed(self) -> list[int]:
        """The speakers of this deck's ``reveal`` round: its holders whose secret is not known
        yet (a rebuilt key is not revealed again)."""
        return [s for s in self.holders if s not in self.secrets]

    def deck_position(self, step: ChanceStep) -> int:
        """The deck position a chance step deals or shows (SPEC §9.5)."""
        if step.zone is Zone.SHOW:
            assert step.seat is not None
            return self.hand_positions[step.seat][step.position]
        return step.position

    def bot_sees(self, step: ChanceStep) -> bool:
        """Whether ``step`` shows a card to the bot's seat (or from its hand): such a card is
        shown to every participant, who all compute the bot's moves (SPEC §9.13.7)."""
        bot = self.bot
        return bot is not None and (bot in step.visible_to
                                    or (step.zone is Zone.SHOW and step.seat == bot))

    def duties(self, seat: int) -> list[Duty]:
        """What ``seat`` must provide for the pending chance steps, in step order (SPEC §9.5)."""
        if not self.pending or seat == self.bot:
            return []
        out: list[Duty] = []
        for i, (step, position) in enumerate(zip(self.pending, self.pending_positions,
                                                 strict=True)):
            public = self.public.get(position, set())
            if step.visible_to == ALL_SEATS or self.bot_sees(step):
                if seat not in public:
                    out.append(Duty(i, position, public=True))
                continue
            if not step.visible_to:
                continue
            if seat in step.visible_to:
                recipients = tuple(sorted(step.visible_to - {seat}))
                if recipients:
                    out.append(Duty(i, position, public=False, recipients=recipients))
            elif step.zone is Zone.SHOW and step.seat == seat:
                out.append(Duty(i, position, public=False,
                                recipients=tuple(sorted(step.visible_to))))
            elif step.zone is not Zone.SHOW and seat not in public:
                out.append(Duty(i, position, public=True))
        return out

    def token(self, seat: int, position: int, step: str,
              rng: Randomness | None) -> crypto.RevealToken:
        """The local ``seat``'s reveal token of ``position``, proven in ``step``."""
        assert self.my_key is not None and self.deck is not None
        return crypto.token(self.my_key, self.deck[position], self.ctx(seat, step), rng)

    def decrypt_shares(self, position: int, shares: dict[int, crypto.Point]) -> Card:
        """The card at ``position`` from one share of each holder (the bot's computed from its
        rebuilt key); :class:`CryptoError` if a share is missing or wrong."""
        assert self.deck is not None and self.cards is not None
        bot = self.bot
        if bot is not None and bot in self.holders and bot not in shares:
            shares = {**shares, bot: self.secrets[bot] * self.deck[position].a}
        if set(shares) != set(self.holders):
            raise CryptoError(f"position {position} lacks tokens from seats "
                              f"{sorted(set(self.holders) - set(shares))}")
        return crypto.decrypt_card(self.cards, self.deck[position], shares.values())

    def decrypt(self, position: int, *, own: int | None) -> Card:
        """The card at ``position`` from the shares received and, when ``own`` is a holder
        whose share was not received, the local seat ``own``'s share from its key."""
        assert self.deck is not None
        shares = dict(self.tokens.get(position, {}))
        if own is not None and own in self.holders and own not in shares:
            assert self.my_key is not None
            shares[own] = self.my_key.partial(self.deck[position].a)
        return self.decrypt_shares(position, shares)

    def public_card(self, position: int, *, index: int) -> Card | None:
        """The card at ``position`` if every participant can decrypt it (every share is public,
        or is the bot's), else ``None``; ``undecryptable`` at chain index ``index`` if the
        public shares do not decrypt."""
        if self.deck is None or self.missing(position):
            return None
        if position not in self.known:
            try:
                self.known[position] = self.decrypt_shares(
                    position, dict(self.tokens.get(position, {})))
            except CryptoError as exc:
                raise Violation("undecryptable", str(exc), seat=None, index=index) from None
        return self.known[position]

    def position_of(self, seat: int, card: Card, *, local: int | None, index: int,
                    exclude: set[int] | frozenset[int] = frozenset(),
                    in_hand: bool = False) -> int:
        """The deck position of ``card`` in ``seat``'s hand: the local seat ``local``'s (cards it
        knows) or the bot's (whose hand is public). The first matching position in the hand's
        order, then (unless ``in_hand``) in deck order a public card the engine moved into the
        hand; :class:`GameError` if there is none."""
        card_at: Callable[[int], Card | None] = (
            self.known.get if seat == local
            else lambda p: self.public_card(p, index=index))
        for position in self.hand_positions.get(seat, []):
            if position not in exclude and card_at(position) == card:
                return position
        if not in_hand:
            for position in sorted(self.known):
                if (self.known[position] == card and position not in exclude
                        and self.showable(seat, position)):
                    return position
        raise GameError(f"{card} is not in this seat's hand")
