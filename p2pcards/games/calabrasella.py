"""Calabrasella for 3 players (italian-card-games.txt): one declarer against two defenders, a
card called from an opponent and passed in secret, a widow, chips.

Rules as implemented (flags in brackets; pure rule functions in
:mod:`p2pcards.games.calabrasella_rules`, the legal actions of each stage in
:mod:`~p2pcards.games.calabrasella_actions`, the checks public information allows in
:mod:`~p2pcards.games.calabrasella_checks`, the hand's score in
:mod:`~p2pcards.games.calabrasella_scoring`):

Deck, seats, deal
    The 40-card Italian deck. Deals are counted over the match, redeals included: deal ``d``
    (0-based) is dealt by seat ``(d + 2) % 3``, so seat ``d % 3`` (the dealer's left) speaks first.
    One CHANCE batch: deck position ``i`` (0..35) goes face down to seat ``(d + i) % 3``, seen by
    that seat only. Positions 36..39 are the widow: they are *not* revealed at the deal; they are
    requested (zone WIDOW, seen by all) only when the declarer turns the widow.

Bidding
    From the dealer's left, each seat in turn passes (``pass``) or plays (``bid``). The first
    ``bid`` ends the bidding: that seat is the declarer. If all three pass, the hand is void and
    the next dealer deals again (the engine goes back to SHUFFLE with the same hand number).

The call and the exchange
    The declarer names (``call``, the card in ``cards``) a 3 it does not hold; holding all four 3s,
    a 2 it does not hold (the text). Holding all four 2s as well, an Asso it does not hold, and so
    on down the rank order, so a call always exists (an extension where the text is silent).
    Then the other seats answer in order from the declarer's left: the holder passes the called
    card to the declarer (``give``, passed privately), a non-holder says it does not hold it
    (``deny``). Answers stop at the first ``give``. The declarer then passes any card of its hand
    back to the holder (``return``, passed privately; it may be the called card itself). The third
    seat learns neither card: in its view both actions carry ``??``. If both answer ``deny`` the
    called card is in the widow and nothing is passed.

Discard and widow
    The declarer discards 1 to 4 cards face down (``discard``, the cards in ``cards``). Choice
    made here: nobody but the declarer sees them until the end-of-hand audit; their deck positions
    are published with the action, which proves their number and that they came from the
    declarer's hand. Then the widow is turned face up for all (one CHANCE batch, positions
    36..39), and the declarer takes exactly as many widow cards as it discarded (``take``, public
    cards entering its hand). The discards and the unused widow cards are set aside.

Play
    Twelve tricks without trumps, led first by the declarer's left; a seat must follow the suit
    led when it can; the highest card of the suit led wins (3, 2, A, K, Q, J, 7, 6, 5, 4), its
    winner leads next. The declarer keeps its own pile, the defenders share one.

Scoring [``set_aside``, ``double``]
    Whole points: Asso 3; 3, 2, K, Q, J 1 each; the last trick 3 more: 35 in all. The set-aside
    cards score for nobody (``set_aside="out"``, the text: "taking no further part") or go to the
    side that wins the last trick (``set_aside="last-trick"``, the common table practice that
    keeps every hand at 35). The declarer's total is compared with the defenders' joint total;
    each defender pays the declarer the difference, or the declarer pays each defender the
    difference; a tie moves nothing. The payments are doubled when one side scores 35 and the
    other 0 (``double="35-0"``, the text) or whenever the losing side scores nothing
    (``double="zero"``).

Chips and match [``start_chips``, ``hands``]
    Each seat starts with ``start_chips``; balances move only by the settlement of each hand, are
    the match scores (sides are seats) and appear in every hand result. The match lasts
    ``hands`` played hands (voided deals do not count; balances may go below zero), or with
    ``hands=0`` until a seat's balance is zero or less. The sole highest balance wins; a tie for
    the highest balance is a draw.

Checks. Everything public information allows is checked at once: the order of the auction and
the answers, a call of the wrong rank when a higher rank's card is known to be elsewhere, the
discard count, a take of the wrong number of cards or of a card not in the widow, a card known to
be elsewhere, a seat that plays a suit it showed void in earlier (``must-follow-suit``), a denier
that later plays the called card (``false-denial``), a declarer that plays the card it called
when nobody passed it and the widow did not hold it (``called-held-card``). The receiver of a
passed card checks it at once (``wrong-card-passed``, ``card-not-in-hand``). The rest needs the
hidden hands and is checked by the full-information replay after the keys are revealed, which
names the culprit seat in every :class:`IllegalMove`.
"""

from __future__ import annotations

import copy as _copy
from bisect import insort
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from operator import attrgetter, is_
from typing import Any, cast

from ..cards import HIDDEN, ITALIAN_40, Card, Deck, card
from .base import (
    ALL_SEATS,
    Action,
    BadSeat,
    CardUse,
    ChanceStep,
    GameError,
    GameSpec,
    HandResult,
    IllegalMove,
    MatchProgress,
    Phase,
    WrongPhase,
    Zone,
    flags_of,
)
from .calabrasella_actions import stage_actions, trick_plays
from .calabrasella_checks import (
    called_card,
    check_called_play,
    check_discard,
    check_follows,
    check_revealed,
    check_shape,
    taken_cards,
)
from .calabrasella_config import (
    DEALT,
    HAND_SIZE,
    PLAYERS,
    SET_ASIDE_RULES,
    WIDOW_SIZE,
    CalabrasellaConfig,
    Stage,
)
from .calabrasella_rules import (
    ORDER,
    card_points,
    settle,
)
from .calabrasella_scoring import score_hand, side_totals
from .tricks import trick_winner

__all__ = [
    "HAND_SIZE",
    "PLAYERS",
    "SET_ASIDE_RULES",
    "SPECS",
    "WIDOW_SIZE",
    "CalabrasellaConfig",
    "CalabrasellaMatch",
    "Stage",
]

def _as_card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else card(value)


class CalabrasellaMatch(MatchProgress):
    """A Calabrasella match (implements :class:`~p2pcards.games.base.MatchState`).

    Hands are lists of cards, ``None`` for a card this view cannot see. Sides are seats.
    """

    config: CalabrasellaConfig

    def __init__(self, config: CalabrasellaConfig) -> None:
        if not isinstance(config, CalabrasellaConfig):
            raise GameError(f"calabrasella needs a CalabrasellaConfig, got {type(config).__name__}")
        self.config = config
        self._n = PLAYERS
        self._sides = PLAYERS
        self._deck = ITALIAN_40
        self._phase = Phase.SHUFFLE
        self._hand_number = 0
        self._deals = 0
        self._chips: tuple[int, ...] = (config.start_chips,) * PLAYERS
        self._winner: int | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        n = self._n
        self._stage = Stage.DEAL
        self._hands: list[list[Card | None]] = [[] for _ in range(n)]
        self._to_act = self._deals % n
        self._bids: list[tuple[int, str]] = []
        self._declarer: int | None = None
        self._called: Card | None = None
        self._answers: list[tuple[int, str]] = []
        self._holder: int | None = None
        self._passed: Card | None = None
        self._returned: Card | None = None
        self._discards: list[Card | None] = []
        self._widow: list[Card] = []
        self._taken: list[Card] = []
        self._trick: list[tuple[int, Card]] = []
        self._last_trick: tuple[tuple[tuple[int, Card], ...], int] | None = None
        self._piles: list[list[Card]] = [[], []]
        self._played: set[Card] = set()
        self._played_codes: list[str] = []
        """The codes of ``_played``, kept sorted as each card is played (the observation's
        ``played``)."""
        self._pile_points: tuple[int, int] = (0, 0)
        """The card points of the two piles, added up as each trick is closed."""
        self._void: list[set[str]] = [set() for _ in range(n)]
        self._tricks_done = 0
        self._last_winner: int | None = None
        self._pending: tuple[ChanceStep, ...] = ()
        self._result: HandResult | None = None
        self._listed: list[Action] = []
        """The plays :meth:`legal_actions` listed for this very state, if it was asked in a
        trick: kept private (callers get a copy) and forgotten at every change."""
        self._last_codes: tuple[tuple[int, str], ...] = ()
        """The last trick's seats and card codes, made once per trick for the observations."""
        self._forget_views()

    def _forget_views(self) -> None:
        """Drop each seat's kept :meth:`_stage_view`: called at every change but a play that
        leaves the hand going on (the only change its values do not follow)."""
        self._views: list[dict[str, Any] | None] = [None] * PLAYERS

    # ------------------------------------------------------------------ read-only state

    @property
    def deck(self) -> Deck:
        """The 40-card Italian deck, in canonical order."""
        return self._deck

    @property
    def stage(self) -> Stage:
        """The step of the hand."""
        return self._stage

    @property
    def deals(self) -> int:
        """Deals so far in the match, voided deals included (the current one counts)."""
        return self._deals

    @property
    def dealer(self) -> int:
        """The dealer of the current deal; the dealer's left bids first."""
        return (self._deals + self._n - 1) % self._n

    @property
    def declarer(self) -> int | None:
        """The seat playing alone this hand, once someone bid."""
        return self._declarer

    @property
    def called(self) -> Card | None:
        """The card the declarer called."""
        return self._called

    @property
    def holder(self) -> int | None:
        """The seat that passed the called card to the declarer (``None``: nobody did)."""
        return self._holder

    @property
    def chips(self) -> tuple[int, ...]:
        """Chip balance of each seat."""
        return self._chips

    @property
    def match_scores(self) -> tuple[int, ...]:
        """The chip balances: the match score of each seat."""
        return self._chips

    @property
    def widow(self) -> tuple[Card, ...]:
        """The widow once turned face up (empty before)."""
        return tuple(self._widow)

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)`` in playing order."""
        return tuple(self._trick)

    def side_of(self, seat: int) -> int:
        """Each seat is its own side (chips are per seat)."""
        self._check_seat(seat)
        return seat

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """Seat's hand in this view (``None`` for a card this view cannot see)."""
        self._check_seat(seat)
        return tuple(self._hands[seat])

    def hand_known(self, seat: int) -> bool:
        """Whether every card of seat's hand is known in this view."""
        self._check_seat(seat)
        return None not in self._hands[seat]

    def pile(self, declarer_side: bool) -> tuple[Card, ...]:
        """The declarer's pile (``True``) or the defenders' shared pile (``False``)."""
        return tuple(self._piles[0 if declarer_side else 1])

    def set_aside(self) -> tuple[Card | None, ...]:
        """The discards (``None`` where unseen) and the unused widow cards."""
        unused = [c for c in self._widow if c not in self._taken]
        return (*self._discards, *unused)

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise BadSeat(f"seat {seat!r} is not a seat of this 3-player calabrasella table")

    def _need(self, phase: Phase, method: str) -> None:
        if self._phase is not phase:
            raise WrongPhase(
                f"{method} needs phase {phase.value}, but the match is in {self._phase.value}"
            )

    # ------------------------------------------------------------------ chance

    def begin_hand(self) -> None:
        """In SHUFFLE: a shuffled deck is ready; request the deal (36 cards, widow unrevealed)."""
        self._need(Phase.SHUFFLE, "begin_hand")
        self._reset_hand()
        self._pending = _DEALS[self._deals % PLAYERS]
        self._phase = Phase.CHANCE

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """In CHANCE: the deal, or the widow turned face up (positions 36..39, seen by all)."""
        self._need(Phase.CHANCE, "pending_chance")
        return self._pending

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Fulfil :meth:`pending_chance`; :class:`BadChance` (state unchanged) for a wrong count,
        a card not in the deck or already placed, or an unknown card where everyone sees it."""
        self._need(Phase.CHANCE, "complete_chance")
        given = list(revealed)
        if not self._plainly_fresh(given):
            check_revealed(self._pending, given, self._placed(), self._deck)
        if self._stage is Stage.DEAL:
            first = self._deals % PLAYERS
            for seat, hand in enumerate(self._hands):  # position i goes to seat (first + i) % 3
                hand.extend(given[(seat - first) % PLAYERS::PLAYERS])
            self._stage = Stage.BIDDING
            self._to_act = self._deals % self._n
        else:
            self._widow = [c for c in given if c is not None]
            self._stage = Stage.TAKE
            assert self._declarer is not None
            self._to_act = self._declarer
        self._pending = ()
        self._phase = Phase.ACTION
        self._forget_views()

    def _plainly_fresh(self, given: list[Card | None]) -> bool:
        """Whether ``given`` plainly fulfils the pending chance steps, told by the identity of
        the deck's own card objects alone: one card per step, each a deck object, none twice
        nor placed already (every placed card a deck object too), and no unseen card (``None``)
        where everyone sees it. ``False`` leaves the answer to :func:`check_revealed`."""
        if len(given) != len(self._pending):
            return False
        seen = [c for c in given if c is not None]
        if len(seen) != len(given) and self._stage is not Stage.DEAL:
            return False  # the widow is seen by all: no None
        fresh = set(map(id, seen))
        placed = set(map(id, self._placed_cards()))
        return (len(fresh) == len(seen) and fresh <= _DECK_IDS and placed <= _DECK_IDS
                and fresh.isdisjoint(placed))

    def _placed_cards(self) -> list[Card]:
        """Every card this view knows is placed (hands, discards, played, widow), unordered."""
        out = [c for h in self._hands for c in h if c is not None]
        out.extend(c for c in self._discards if c is not None)
        for pile in self._piles:
            out.extend(pile)
        out.extend(c for _, c in self._trick)
        out.extend(self._widow)
        return out

    def _placed(self) -> set[Card]:
        out = {c for h in self._hands for c in h if c is not None}
        out.update(c for c in self._discards if c is not None)
        out.update(self._played)
        out.update(self._widow)
        return out

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of ``to_act``; ``[]`` outside ACTION. :class:`UnknownHand` when
        the choice depends on a hand this view cannot see."""
        if self._phase is not Phase.ACTION:
            return []
        seat = self._to_act
        hand = self._hands[seat]
        if self._stage is _TRICKS and all(hand):  # no unseen card (None) in the hand
            listed = self._listed = trick_plays(cast("list[Card]", hand), self._trick)
            return list(listed)
        return stage_actions(self._stage, seat, hand, called=self._called,
                             trick=self._trick, widow=self._widow,
                             discarded=len(self._discards))

    # ------------------------------------------------------------------ card use

    def card_use(self, action: Action) -> CardUse:
        """``give`` and ``return`` pass ``card`` privately (to the declarer, to the holder);
        ``discard`` moves ``cards`` face down; ``play`` shows ``card``; the other actions
        (``bid``, ``pass``, ``call``, ``deny``, ``take``) use no card of the actor's hand."""
        kind, stage = action.kind, self._stage
        if kind == "play" and action.card is not None:
            return CardUse(shown=(action.card,))
        if kind == "give" and action.card is not None and stage is Stage.ANSWER:
            return CardUse(passed=(action.card,), to=self._declarer)
        if kind == "return" and action.card is not None and stage is Stage.RETURN:
            return CardUse(passed=(action.card,), to=self._holder)
        if kind == "discard" and stage is Stage.DISCARD:
            return CardUse(hidden=tuple(action.cards))
        return CardUse()  # out of its stage the action is refused by apply()

    # ------------------------------------------------------------------ applying actions

    def apply(self, action: Action) -> None:
        """Apply ``to_act``'s action, or raise :class:`IllegalMove` (state unchanged).

        A play that is one of the very objects :meth:`legal_actions` listed for this state (the
        list is kept private, and forgotten at every change of the state) is legal, so it is
        played without checking it again; any other action is checked rule by rule."""
        seat = self._to_act
        listed = self._listed
        if listed:
            self._listed = []
            if id(action) in map(id, listed):
                c = action.card
                assert c is not None
                hand = self._hands[seat]
                trick = self._trick
                self._play_out(seat, c, _position(hand, c), trick[0][1].suit if trick else None)
                return
        if self._phase is not Phase.ACTION:
            raise IllegalMove(
                "wrong-phase", f"no action is expected in phase {self._phase.value}", seat
            )
        if not isinstance(action, Action):
            raise IllegalMove("malformed-action", f"an action must be an Action, not {action!r}",
                              seat)
        stage_text = self._stage._value_
        expected = _EXPECTED_KINDS[stage_text]
        kind = action.kind
        if kind not in expected:
            raise IllegalMove(
                "unknown-action",
                f"seat {seat} must {' or '.join(expected)} now ({stage_text}), not {kind!r}",
                seat,
            )
        if kind != "play":
            self._forget_views()
        _HANDLERS[kind](self, seat, action)

    def _apply_bid(self, seat: int, action: Action) -> None:
        check_shape(seat, action, card_=False, cards=False)
        self._bids.append((seat, action.kind))
        if action.kind == "bid":
            self._declarer = seat
            self._stage = Stage.CALL
            return
        if len(self._bids) == self._n:
            # everyone passed: the hand is void, the next dealer deals again
            self._deals += 1
            self._phase = Phase.SHUFFLE
            self._stage = Stage.OVER
            return
        self._to_act = (seat + 1) % self._n

    def _apply_call(self, seat: int, action: Action) -> None:
        called = called_card(seat, action, self._hands[seat], self._deck,
                             lambda c: self._known_elsewhere(seat, c))
        self._called = called
        self._stage = Stage.ANSWER
        self._to_act = (seat + 1) % self._n

    def _apply_deny(self, seat: int, action: Action) -> None:
        check_shape(seat, action, card_=False, cards=False)
        assert self._called is not None and self._declarer is not None
        if _position(self._hands[seat], self._called) >= 0:
            raise IllegalMove("false-denial", f"seat {seat} denied holding {self._called.code}, "
                              f"which it holds", seat)
        self._answers.append((seat, "deny"))
        nxt = (seat + 1) % self._n
        if nxt == self._declarer:
            self._stage = Stage.DISCARD
        self._to_act = nxt if nxt != self._declarer else self._declarer

    def _apply_give(self, seat: int, action: Action) -> None:
        check_shape(seat, action, card_=True, cards=False)
        assert self._called is not None and self._declarer is not None
        c = action.card
        assert c is not None
        if c != HIDDEN and c != self._called:
            raise IllegalMove("wrong-card-passed", f"seat {seat} passed {c.code} instead of the "
                              f"called {self._called.code}", seat)
        self._remove(seat, c)
        self._hands[self._declarer].append(None if c == HIDDEN else c)
        self._answers.append((seat, "give"))
        self._holder = seat
        self._passed = None if c == HIDDEN else c
        self._stage = Stage.RETURN
        self._to_act = self._declarer

    def _apply_return(self, seat: int, action: Action) -> None:
        check_shape(seat, action, card_=True, cards=False)
        assert self._holder is not None
        c = action.card
        assert c is not None
        self._remove(seat, c)
        self._hands[self._holder].append(None if c == HIDDEN else c)
        self._returned = None if c == HIDDEN else c
        self._stage = Stage.DISCARD

    def _apply_discard(self, seat: int, action: Action) -> None:
        cards = check_discard(seat, action)
        saved = list(self._hands[seat])
        try:
            for c in cards:
                self._remove(seat, c)
        except IllegalMove:
            self._hands[seat] = saved
            raise
        self._discards = [None if c == HIDDEN else c for c in cards]
        self._stage = Stage.WIDOW
        self._pending = _WIDOW_STEPS
        self._phase = Phase.CHANCE

    def _apply_take(self, seat: int, action: Action) -> None:
        cards = taken_cards(seat, action, len(self._discards), self._widow)
        self._hands[seat].extend(cards)
        self._taken = cards
        self._stage = Stage.TRICKS
        self._to_act = (seat + 1) % self._n

    def _apply_play(self, seat: int, action: Action) -> None:
        check_shape(seat, action, card_=True, cards=False)
        c = action.card
        assert c is not None
        if c.suit == HIDDEN.suit and c == HIDDEN:
            raise IllegalMove("card-hidden", f"seat {seat} must reveal the card it plays", seat)
        if id(c) not in _DECK_IDS and c not in self._deck:
            raise IllegalMove("card-not-in-deck", f"{c.code} is not in the "
                              f"{self._deck.name} deck", seat)
        called = self._called
        if called is not None and (c is called or c == called):
            check_called_play(seat, c, called=called, answers=self._answers,
                              declarer=self._declarer, holder=self._holder, widow=self._widow)
        hand = self._hands[seat]
        at = _position(hand, c)
        if at < 0:
            self._check_holds(seat, c)  # raises unless one of the unseen cards may be it
        trick = self._trick
        led = trick[0][1].suit if trick else None
        check_follows(seat, c, led, hand, self._void[seat])
        self._play_out(seat, c, at if at >= 0 else hand.index(None), led)

    def _play_out(self, seat: int, c: Card, at: int, led: str | None) -> None:
        """Play ``c``, a legal play, from ``seat``'s hand position ``at`` to a trick led in
        suit ``led`` (``None``: ``c`` leads)."""
        del self._hands[seat][at]
        if led is not None and c.suit != led:
            self._void[seat].add(led)
        self._note_played(c)
        trick = self._trick
        trick.append((seat, c))
        if len(trick) < PLAYERS:
            self._to_act = (seat + 1) % PLAYERS
            return
        self._close_trick()

    def _note_played(self, c: Card) -> None:
        """Add ``c`` to the cards played, and its code to their sorted codes."""
        played = self._played
        before = len(played)
        played.add(c)
        if len(played) != before:
            insort(self._played_codes, c.code)

    def _close_trick(self) -> None:
        played = [c for _, c in self._trick]
        winner = self._trick[trick_winner(played, ORDER)][0]
        side = 0 if winner == self._declarer else 1
        self._piles[side].extend(played)
        points = card_points(played)
        declarer_points, defender_points = self._pile_points
        self._pile_points = ((declarer_points + points, defender_points) if side == 0
                             else (declarer_points, defender_points + points))
        self._last_trick = (tuple(self._trick), winner)
        self._last_codes = tuple([(s, c.code) for s, c in self._trick])
        self._trick = []
        self._tricks_done += 1
        self._to_act = winner
        if self._tricks_done == HAND_SIZE:
            self._last_winner = winner
            self._stage = Stage.OVER
            self._phase = Phase.HAND_OVER
            self._forget_views()

    def _known_elsewhere(self, seat: int, c: Card) -> bool:
        """Whether this view knows ``c`` is not in ``seat``'s hand."""
        if c in self._played or c in self._widow or c in self._discards:
            return True
        return any(c in h for s, h in enumerate(self._hands) if s != seat)

    def _remove(self, seat: int, c: Card) -> None:
        """Take ``c`` (or, for :data:`HIDDEN`, an unseen card) out of ``seat``'s hand."""
        hand = self._hands[seat]
        if c.suit == HIDDEN.suit and c == HIDDEN:
            if not _has_unseen(hand):
                raise IllegalMove("card-hidden", f"this view knows seat {seat}'s hand, so the "
                                  f"card it moves must be named, not ??", seat)
            # any card of the hand may have left, even one this view knew (the holder knows the
            # called card is in the declarer's hand, but not whether it was discarded): forget
            # them all rather than guess
            self._hands[seat] = [None] * (len(hand) - 1)
            return
        at = _position(hand, c)
        if at < 0:  # not a card of the hand (which holds only deck cards): maybe an unseen one
            self._check_holds(seat, c)
            at = hand.index(None)
        del hand[at]

    def _check_holds(self, seat: int, c: Card) -> None:
        """Raise unless ``c`` is in ``seat``'s hand or may be one of its unseen cards."""
        if c not in self._deck:
            raise IllegalMove("card-not-in-deck", f"{c.code} is not in the "
                              f"{self._deck.name} deck", seat)
        hand = self._hands[seat]
        if c in hand or (_has_unseen(hand) and not self._known_elsewhere(seat, c)):
            return
        raise IllegalMove("card-not-in-hand", f"seat {seat} cannot use {c.code}: it is not "
                          f"in that seat's hand", seat)

    # ------------------------------------------------------------------ scoring

    def side_totals(self) -> tuple[int, int]:
        """The declarer's and the defenders' points so far (card points, the last trick and, with
        ``set_aside="last-trick"`` at the hand's end, the set-aside cards).
        :class:`UnknownHand` when the set-aside cards count but are not all known in this view."""
        return side_totals(self.config, self._piles, self._declarer, self._last_winner,
                           self.set_aside())

    def hand_result(self) -> HandResult:
        """In HAND_OVER: ``card points``, ``last trick``, (``set aside``), ``hand total``,
        ``chips`` (points = chips won or paid) and ``balance`` (the balances after paying)."""
        self._need(Phase.HAND_OVER, "hand_result")
        if self._result is None:
            self._result = self._score()
        return self._result

    def _score(self) -> HandResult:
        declarer, winner = self._declarer, self._last_winner
        assert declarer is not None and winner is not None
        return score_hand(self.config, self._piles, declarer, winner, self.set_aside(),
                          self._chips)

    def next_hand(self) -> None:
        """In HAND_OVER: pay the hand's chips; then SHUFFLE for the next deal, or MATCH_OVER."""
        result = self.hand_result()
        self._forget_views()
        self._chips = settle(self._chips, result.points)
        self._hand_number += 1
        self._deals += 1
        hands = self.config.hands
        over = (self._hand_number >= hands) if hands > 0 else min(self._chips) <= 0
        if over:
            top = max(self._chips)
            leaders = [s for s in range(self._n) if self._chips[s] == top]
            self._winner = leaders[0] if len(leaders) == 1 else None
            self._phase = Phase.MATCH_OVER
            return
        self._reset_hand()
        self._phase = Phase.SHUFFLE

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees, as plain data (card codes as text).

        Keys: ``game``, ``seat``, ``players``, ``phase``, ``stage``, ``hand_number``, ``deals``,
        ``dealer``, ``to_act`` (``None`` outside ACTION), ``bids`` (``{"seat": "bid"|"pass"}``),
        ``declarer``, ``called``, ``answers`` (``{"seat": "give"|"deny"}``), ``holder``,
        ``passed`` and ``returned`` (the two exchanged cards, only for the declarer and the
        holder, else ``None``), ``discards`` (the declarer's own view: the codes; others: ``[]``),
        ``discard_count``, ``widow`` (once turned), ``taken``, ``hand``, ``hand_sizes``,
        ``trick``, ``last_trick`` (``{"cards", "winner"}``), ``tricks_done``, ``played``
        (every card played so far, sorted codes), ``piles``
        (``[declarer's points, defenders' points]``, public: every card was played face up),
        ``pile_cards``, ``chips``, ``start_chips``, ``match_hands`` (match length), ``winner``.
        """
        if type(seat) is not int or not 0 <= seat < PLAYERS:
            self._check_seat(seat)
        view = self._views[seat]
        if view is None:
            view = self._views[seat] = self._stage_view(seat)
        out = view.copy()
        # the kept lists and dicts are copied, so that no caller holds one of them
        out["bids"] = dict(view["bids"])
        out["answers"] = dict(view["answers"])
        out["discards"] = list(view["discards"])
        out["widow"] = list(view["widow"])
        out["taken"] = list(view["taken"])
        out["chips"] = list(view["chips"])
        # what a play changes
        if self._phase is _ACTION:
            out["to_act"] = self._to_act
        hand = self._hands[seat]
        out["hand"] = (list(map(_code, hand)) if all(hand)
                       else [c.code for c in hand if c is not None])
        out["hand_sizes"] = list(map(len, self._hands))
        out["trick"] = [[s, c.code] for s, c in self._trick]
        last = self._last_trick
        if last is not None:
            out["last_trick"] = {"cards": list(map(list, self._last_codes)), "winner": last[1]}
        out["tricks_done"] = self._tricks_done
        out["played"] = list(self._played_codes)
        out["piles"] = list(self._pile_points)
        piles = self._piles
        out["pile_cards"] = [len(piles[0]), len(piles[1])]
        return out

    def _stage_view(self, seat: int) -> dict[str, Any]:
        """``seat``'s observation with the values no play changes before the hand's end, kept
        per seat until :meth:`_forget_views`; :meth:`observation` copies it and fills in what a
        play changes (``None`` here). Its lists and dicts are never handed out."""
        declarer, holder = self._declarer, self._holder
        involved = seat in (declarer, holder)
        passed, returned, called = self._passed, self._returned, self._called
        discards = self._discards
        return {
            "game": "calabrasella",
            "seat": seat,
            "players": PLAYERS,
            "phase": self._phase._value_,
            "stage": self._stage._value_,
            "hand_number": self._hand_number,
            "deals": self._deals,
            "dealer": (self._deals + PLAYERS - 1) % PLAYERS,
            "to_act": None,
            "bids": {str(s): k for s, k in self._bids},
            "declarer": declarer,
            "called": called.code if called is not None else None,
            "answers": {str(s): k for s, k in self._answers},
            "holder": holder,
            "passed": passed.code if passed is not None and involved else None,
            "returned": returned.code if returned is not None and involved else None,
            "discards": ([c.code for c in discards if c is not None]
                         if seat == declarer and not _has_unseen(discards) else []),
            "discard_count": len(discards),
            "widow": [c.code for c in self._widow],
            "taken": [c.code for c in self._taken],
            "hand": None,
            "hand_sizes": None,
            "trick": None,
            "last_trick": None,
            "tricks_done": None,
            "played": None,
            "piles": None,
            "pile_cards": None,
            "chips": list(self._chips),
            "start_chips": self.config.start_chips,
            "match_hands": self.config.hands,
            "winner": self._winner,
        }

    def copy(self) -> CalabrasellaMatch:
        """An independent copy (cards are immutable; containers are copied)."""
        other = _copy.copy(self)
        other._hands = [list(h) for h in self._hands]
        other._bids = list(self._bids)
        other._answers = list(self._answers)
        other._discards = list(self._discards)
        other._widow = list(self._widow)
        other._taken = list(self._taken)
        other._trick = list(self._trick)
        other._piles = [list(p) for p in self._piles]
        other._played = set(self._played)
        other._played_codes = list(self._played_codes)
        other._void = [set(v) for v in self._void]
        other._listed = []
        other._views = list(self._views)  # kept views are never changed, only dropped
        return other

    # ------------------------------------------------------------------ testing aid

    @classmethod
    def from_deal(
        cls,
        config: CalabrasellaConfig,
        hands: Sequence[Iterable[Card | str]],
        widow: Iterable[Card | str],
        *,
        deals: int = 0,
        hand_number: int = 0,
        chips: Sequence[int] | None = None,
    ) -> tuple[CalabrasellaMatch, list[Card]]:
        """A testing aid: a match in SHUFFLE set up so that the next deal gives ``hands`` (12
        cards per seat) and ``widow`` (4 cards). Returns the match and the shuffled deck to
        fulfil the chance steps with (deck position ``i < 36`` goes to seat
        ``(deals + i) % 3``). Raises :class:`GameError` naming an inconsistency."""
        state = cls(config)
        state._deals = deals
        state._hand_number = hand_number
        if chips is not None:
            if len(chips) != PLAYERS:
                raise GameError(f"from_deal needs 3 chip balances, not {list(chips)}")
            state._chips = tuple(chips)
        state._reset_hand()
        seats = [[_as_card(c) for c in h] for h in hands]
        rest = [_as_card(c) for c in widow]
        if len(seats) != PLAYERS or any(len(h) != HAND_SIZE for h in seats):
            raise GameError("from_deal needs 3 hands of 12 cards")
        if len(rest) != WIDOW_SIZE:
            raise GameError("from_deal needs a widow of 4 cards")
        everything = [c for h in seats for c in h] + rest
        if sorted(everything) != sorted(ITALIAN_40.cards):
            raise GameError("from_deal must place every card of the deck exactly once")
        order: list[Card] = []
        first = deals % PLAYERS
        for i in range(DEALT):
            order.append(seats[(first + i) % PLAYERS][i // PLAYERS])
        order.extend(rest)
        return state, order



_ACTION = Phase.ACTION
_DEALS: tuple[tuple[ChanceStep, ...], ...] = tuple(
    tuple(ChanceStep(i, Zone.HAND, (first + i) % PLAYERS, frozenset({(first + i) % PLAYERS}))
          for i in range(DEALT))
    for first in range(PLAYERS)
)
"""The chance steps of a deal whose first card goes to seat ``first``, by ``first`` (chance
steps are immutable: every deal shares them)."""
_WIDOW_STEPS: tuple[ChanceStep, ...] = tuple(
    ChanceStep(DEALT + i, Zone.WIDOW, None, ALL_SEATS) for i in range(WIDOW_SIZE))
"""The chance steps that turn the widow face up."""
_code = attrgetter("code")
"""A card's code, read in C (for ``map`` over a hand)."""
_TRICKS = Stage.TRICKS
_DECK_IDS = frozenset(map(id, ITALIAN_40.cards))
"""The identities of the deck's own card objects (they live as long as the program): a card
found here is in the deck without a card comparison."""
_EXPECTED_KINDS: dict[str, tuple[str, ...]] = {
    Stage.BIDDING.value: ("bid", "pass"),
    Stage.CALL.value: ("call",),
    Stage.ANSWER.value: ("give", "deny"),
    Stage.RETURN.value: ("return",),
    Stage.DISCARD.value: ("discard",),
    Stage.TAKE.value: ("take",),
    Stage.TRICKS.value: ("play",),
}
"""The action kinds each stage (by its text) takes."""
_HANDLERS: dict[str, Callable[[CalabrasellaMatch, int, Action], None]] = {
    "bid": CalabrasellaMatch._apply_bid,
    "pass": CalabrasellaMatch._apply_bid,
    "call": CalabrasellaMatch._apply_call,
    "give": CalabrasellaMatch._apply_give,
    "deny": CalabrasellaMatch._apply_deny,
    "return": CalabrasellaMatch._apply_return,
    "discard": CalabrasellaMatch._apply_discard,
    "take": CalabrasellaMatch._apply_take,
    "play": CalabrasellaMatch._apply_play,
}
"""The method that applies each action kind."""


def _position(hand: list[Card | None], c: Card) -> int:
    """Where ``c`` is in ``hand``, ``-1`` when it is not: the very object first (no card
    comparison, which is a Python call per card), else an equal card."""
    hits = list(map(is_, hand, repeat(c)))
    if True in hits:
        return hits.index(True)
    for at, held in enumerate(hand):
        if held is not None and held == c:
            return at
    return -1


def _has_unseen(hand: list[Card | None]) -> bool:
    """``None in hand``, tested by identity (a card's ``==`` is a Python call)."""
    return any(c is None for c in hand)

SPEC = GameSpec(
    name="calabrasella",
    title="Calabrasella: 3 players, one declarer calls a card and takes from the widow, chips",
    rules_source="italian-card-games.txt",
    player_counts=(PLAYERS,),
    config_class=CalabrasellaConfig,
    presets={
        "classic": {},
        "full-count": {"set_aside": "last-trick"},
        "to-the-last-chip": {"hands": 0},
    },
    preset_docs={
        "classic": "italian-card-games.txt: discards and unused widow out of play, 35-0 "
        "doubles, 6 hands, 100 chips each",
        "full-count": "the discards and unused widow go to the last trick's winner, so every "
        "hand counts 35 points",
        "to-the-last-chip": "the text's rules, played until a seat has no chips left",
    },
    factory=CalabrasellaMatch,
    flags=flags_of(CalabrasellaConfig),
    default_preset="classic",
    legend="suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K re; "
    "?? a card you may not see; strength 3 2 A K Q J 7 6 5 4",
    screen=(
        ("stage", "stage"),
        ("dealer", "dealer"),
        ("bids", "bids"),
        ("declarer", "declarer"),
        ("called", "called card"),
        ("answers", "answers"),
        ("passed", "card passed"),
        ("returned", "card given back"),
        ("discard_count", "discarded"),
        ("discards", "your discards"),
        ("widow", "widow"),
        ("taken", "taken"),
        ("trick", "trick"),
        ("last_trick", "last trick"),
        ("piles", "card points"),
        ("chips", "chips"),
    ),
)

SPECS = (SPEC,)

