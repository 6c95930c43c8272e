"""Rumino for 2 to 6 players: a rummy with knock and gin, the seven-card rumino, an out-of-turn
claim, elimination at 100, rebuys and a stake pool.

Rule text: the Rumino part of ``italian-card-games.txt``. Rules as implemented (the meld
arithmetic is in :mod:`p2pcards.games.rumino_melds`, the variant in
:mod:`~p2pcards.games.rumino_config`, the deal and the checks of a turn in
:mod:`~p2pcards.games.rumino_turns`, the end of a hand and of the match in
:mod:`~p2pcards.games.rumino_scoring`, a seat's observation in
:mod:`~p2pcards.games.rumino_view`; ``protocol/games/rumino.md`` is normative):

Deck and deal
    The 108-card French double deck with four jokers (``french108``), shuffled for every hand.
    Only the seats still *in the game* (score under 100) are dealt: with ``k`` of them, in seat
    order from the first player, deck position ``i < 7k`` goes face down to the ``i % k``-th of
    them; position ``7k`` is the upcard, face up for everyone (``Zone.DISCARD``); the stock is
    positions ``7k+1 .. 107``, drawn from the top (increasing positions), each draw a private
    chance step to the drawer.

Seats
    Seats play in seat order, skipping seats out of the game. The dealer of hand 0 is the last
    seat; each later hand's dealer is the next seat in the game after the previous dealer, and
    the first player is the next seat in the game after the dealer.

A turn
    Before drawing the player may ``knock`` (its best split leaves 7 deadwood or less) or show a
    ``rumino``. Otherwise it draws the upcard (public: the card enters the hand and everyone
    knows it is there) or the top of the stock (only the drawer sees it), and then either shows a
    rumino among its eight cards or discards one card face up, which becomes the upcard. The
    upcard just taken may not be discarded in the same turn (rule ``discard-taken-upcard``).
    When the discard leaves the stock empty the hand ends ("stock exhausted", flag
    ``exhausted``).

Knock and gin
    A knock ends the hand at once; every hand is shown (the end-of-hand key reveal) and every
    player in the hand adds the deadwood of its best split (computed, never claimed). A knocker
    whose deadwood is 0 goes gin automatically: it scores -10 instead of 0. A knock with more than
    7 deadwood is the violation ``knock-over-limit``, caught at once in the knocker's own view and
    by every other seat in the full replay.

Rumino
    Seven cards of one suit in sequence, or seven of a kind, jokers wild. Shown (the seven cards
    stay in the hand, face up), it ends the hand and the match at once: its holder wins.

The out-of-turn claim
    After a discard and until the next player acts (draws, knocks or shows a rumino), every other
    seat in the hand may claim the discard with six cards of its hand that it completes to a
    rumino (:meth:`RuminoMatch.claimants`, ``claim_actions``, ``apply_claim``). The six cards are
    shown with the claim, so a false claim is refused at once (``not-a-rumino``); a claim naming
    cards its seat does not hold is refused by the table's proofs and, in the engine, in the full
    replay (``card-not-in-hand``). The first of the claim and the next player's action in the
    chain is applied; the other is then out of turn. The upcard turned at the deal was nobody's
    discard: no claim on it.

Scores, elimination, the match
    Scores accumulate. After each hand every player at 100 or more is out of the game: it stays
    at the table as a non-playing seat (it is dealt nothing, is skipped in turn order and cannot
    claim, but still takes part in the table's shuffles, reveals and results). The last player
    under 100 wins. If a hand leaves nobody under 100, the lowest score wins; a tie for it is a
    drawn match (``winner`` ``None``). A rumino wins outright whatever the scores.

Stake, pool and rebuys (flag ``stake``; 0 plays without money)
    Each seat pays one stake into the pool at the start. A player put out by a hand after which
    at least three players remain under 100 is offered a rebuy: its ``n``-th rebuy costs
    ``stake * 2**(n-1)`` and resets its score to the highest score under 100 among the others.
    The offer is an action of the eliminated seat (``rebuy`` with the price as ``amount``, or
    ``decline``) at the opening of the next hand, after its shuffle and before its deal (the
    point where the table protocol next lets a seat act; every seat still takes part in that
    shuffle). Once only two players remain, nobody may rebuy. The pool goes to the winner (split
    equally on a drawn match, any remainder to the lowest seats first); the ledger is in every
    hand result.
"""

from __future__ import annotations

import copy as _copy
import enum
from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import FRENCH_108, Card, Deck, card
from .base import (
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
    ScoreLine,
    WrongPhase,
    Zone,
    default_card_use,
    flags_of,
)
from .rumino_config import (
    HAND_SIZE,
    KNOCK_LIMIT,
    PLAYER_COUNTS,
    RuminoConfig,
    paid_in,
    rebuy_price,
)
from .rumino_kept import DiscardPile, KeptViews
from .rumino_melds import (
    RUMINO_SIZE,
    Split,
    best_split,
    is_rumino,
)
from .rumino_scoring import ELIMINATION, GIN_POINTS, HandEnd, hand_points, match_outcome
from .rumino_turns import (
    check_revealed,
    check_shape,
    claim_options,
    claimed_six,
    deal_steps,
    draw_steps,
    is_shared_discard,
    next_seat,
    take_from_hand,
    turn_actions,
)
from .rumino_view import seat_observation

__all__ = [
    "ELIMINATION",
    "GIN_POINTS",
    "HAND_SIZE",
    "KNOCK_LIMIT",
    "RuminoConfig",
    "RuminoMatch",
    "SPEC",
    "SPECS",
    "rebuy_price",
]

class _Pending(enum.Enum):
    DEAL = "deal"
    DRAW = "draw"


_NOBODY: frozenset[int] = frozenset()
_DECK_SIZE = len(FRENCH_108)


def _check_placed(placed: Sequence[Card], stock_size: int) -> None:
    """Raise :class:`GameError` when a position places a card twice or leaves no room for a
    stock of ``stock_size`` (see :meth:`RuminoMatch.from_position`)."""
    if len(set(placed)) != len(placed):
        raise GameError("from_position places some card twice")
    if not 0 <= stock_size <= _DECK_SIZE - len(placed):
        raise GameError(f"no room for a stock of {stock_size}")


def _as_card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else card(value)


class RuminoMatch(MatchProgress):
    """A Rumino match (implements :class:`~p2pcards.games.base.MatchState`).

    A hand is a list of cards in the order received; a live view holds ``None`` for a card it
    cannot see. Cards every seat has seen (discards, upcards taken, shown rumino cards) are
    tracked in ``_seen``, so a live view refuses a card known to be elsewhere at once.
    """

    config: RuminoConfig

    def __init__(self, config: RuminoConfig) -> None:
        if not isinstance(config, RuminoConfig):
            raise GameError(f"rumino needs a RuminoConfig, got {type(config).__name__}")
        self.config = config
        self._n = config.players
        self._sides = self._n
        self._deck = FRENCH_108
        self._deck_set = frozenset(self._deck.cards)
        self._phase = Phase.SHUFFLE
        self._hand_number = 0
        self._winner: int | None = None
        self._scores = [0] * self._n
        self._in_game = [True] * self._n
        self._paid = [config.stake] * self._n
        self._rebuys = [0] * self._n
        self._payout = [0] * self._n
        self._offers: list[int] = []
        self._dealer = self._n - 1
        self._dealt_before = False
        self._to_act = 0
        self._kept = KeptViews(self._n)
        """What is kept of this state (:mod:`~.rumino_kept`): forgotten at every change."""
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._kept.forget_facts()
        self._hands: list[list[Card | None]] = [[] for _ in range(self._n)]
        self._playing: tuple[int, ...] = ()
        self._pile = DiscardPile()
        self._seen: set[Card] = set()
        self._next_pos = 0
        self._pending: tuple[ChanceStep, ...] = ()
        self._pending_kind: _Pending | None = None
        self._drawn = False
        self._taken: Card | None = None
        self._claim_open = False
        self._discarder: int | None = None
        self._end: HandEnd | None = None
        self._knocker: int | None = None
        self._rumino_seat: int | None = None
        self._rumino_cards: tuple[Card, ...] = ()
        self._rumino_claimed = False

    # ------------------------------------------------------------------ read-only state

    @property
    def deck(self) -> Deck:
        """The 108-card French double deck with jokers, in canonical order."""
        return self._deck

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's score (out seats keep the score that put them out)."""
        return tuple(self._scores)

    @property
    def match_scores(self) -> tuple[int, ...]:
        """The same as :attr:`scores`: Rumino's match score is the running penalty total."""
        return tuple(self._scores)

    @property
    def in_game(self) -> tuple[bool, ...]:
        """Which seats are still in the game (under 100, or bought back in)."""
        return tuple(self._in_game)

    @property
    def paid(self) -> tuple[int, ...]:
        """What each seat has paid into the pool (stake plus rebuys)."""
        return tuple(self._paid)

    @property
    def pool(self) -> int:
        """The pool: everything paid in."""
        return sum(self._paid)

    @property
    def payout(self) -> tuple[int, ...]:
        """What each seat received from the pool (zero until the match is over)."""
        return tuple(self._payout)

    @property
    def rebuys(self) -> tuple[int, ...]:
        """How many times each seat has bought back in."""
        return tuple(self._rebuys)

    @property
    def dealer(self) -> int:
        """The dealer of the current (or last) hand."""
        return self._dealer

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats dealt into the current hand, in playing order from the first player."""
        return self._playing

    @property
    def upcard(self) -> Card | None:
        """The top of the discard pile (``None`` when empty)."""
        cards = self._pile.cards
        return cards[-1] if cards else None

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return tuple(self._pile.cards)

    @property
    def discard_codes(self) -> list[str]:
        """The codes of the discard pile, bottom first (a fresh list)."""
        return self._pile.codes()

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        if not self._playing:
            return 0
        return _DECK_SIZE - self._next_pos

    @property
    def drawn(self) -> bool:
        """Whether ``to_act`` has drawn in this turn."""
        return self._drawn

    @property
    def rumino_seat(self) -> int | None:
        """The seat that showed (or claimed) a rumino in this hand."""
        return self._rumino_seat

    @property
    def rumino_cards(self) -> tuple[Card, ...]:
        """The seven cards of the rumino shown (or claimed) in this hand."""
        return self._rumino_cards

    @property
    def rumino_claimed(self) -> bool:
        """Whether the rumino of this hand was claimed on a discard, out of turn."""
        return self._rumino_claimed

    @property
    def knocker(self) -> int | None:
        """The seat that knocked in this hand."""
        return self._knocker

    @property
    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds (a fresh list)."""
        return list(map(len, self._hands))

    @property
    def offering(self) -> bool:
        """Whether ``to_act`` is a seat put out of the game that must answer a rebuy offer."""
        return bool(self._offers)

    def side_of(self, seat: int) -> int:
        """Every seat plays for itself."""
        self._check_seat(seat)
        return seat

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """Seat's hand in this view (``None`` for a card this view cannot see)."""
        self._check_seat(seat)
        return tuple(self._hands[seat])

    def hand_codes(self, seat: int) -> list[str]:
        """The codes of the cards of seat's hand known in this view, in the hand's order."""
        self._check_seat(seat)
        return [c.code for c in self._hands[seat] if c is not None]

    def split(self, seat: int) -> Split | None:
        """The best split of seat's hand when it is known in this view (else ``None``),
        followed from the hand it held when last asked (:class:`~.rumino_melds.MeldTracker`);
        kept until the state changes, for the last seat asked."""
        self._check_seat(seat)
        return self._kept.split(seat, self._hands[seat])

    def _split_to_act(self, places: Sequence[int]) -> Split:
        """The split of the acting seat's hand, whose places are ``places`` (its cards all
        known), kept for :meth:`split` until the state changes."""
        return self._kept.split_places(self._to_act, places)

    def hand_known(self, seat: int) -> bool:
        """Whether every card of seat's hand is known in this view."""
        self._check_seat(seat)
        return None not in self._hands[seat]

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise BadSeat(f"seat {seat!r} is not a seat of this {self._n}-player rumino table")

    # ------------------------------------------------------------------ chance

    def begin_hand(self) -> None:
        """In SHUFFLE: a shuffled deck is ready. Rebuy offers first (ACTION), then the deal."""
        self._kept.forget()
        self._need(Phase.SHUFFLE, "begin_hand")
        self._reset_hand()
        if self._offers:
            self._phase = Phase.ACTION
            self._to_act = self._offers[0]
            return
        self._deal()

    def _deal(self) -> None:
        active = [s for s in range(self._n) if self._in_game[s]]
        if self._dealt_before or not self._in_game[self._dealer]:
            self._dealer = next_seat(self._dealer, active, self._n)
        self._dealt_before = True
        first = next_seat(self._dealer, active, self._n)
        start = active.index(first)
        order = tuple(active[start:] + active[:start])
        self._playing = order
        self._pending = deal_steps(order)
        self._pending_kind = _Pending.DEAL
        self._next_pos = HAND_SIZE * len(order) + 1
        self._to_act = first
        self._phase = Phase.CHANCE

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """In CHANCE: the deal (hands, then the upcard) or one stock draw."""
        self._need(Phase.CHANCE, "pending_chance")
        return self._pending

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Fulfil :meth:`pending_chance`: one card per step, ``None`` where this view cannot see.

        Raises :class:`BadChance` (state unchanged) for a wrong count, a card not in the deck, a
        card already placed this hand, or a hidden public card.
        """
        self._kept.forget()
        self._need(Phase.CHANCE, "complete_chance")
        given = list(revealed)
        steps = self._pending
        held = {c.code for h in self._hands for c in h if c is not None}
        check_revealed(steps, given, self._seen, self._deck, self._deck_set, held)
        for step, c in zip(steps, given, strict=True):
            if step.zone is Zone.HAND:
                assert step.seat is not None
                self._hands[step.seat].append(c)
            else:
                assert c is not None
                self._pile.push(c)
                self._seen.add(c)
        kind = self._pending_kind
        self._pending = ()
        self._pending_kind = None
        self._phase = Phase.ACTION
        if kind is _Pending.DRAW:
            self._drawn = True

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of ``to_act``; ``[]`` outside ACTION.

        Rebuy offer: ``rebuy`` (``amount`` = price) and ``decline``. Before drawing: ``draw``
        (``value`` ``stock`` or ``upcard``), ``knock`` when the deadwood is 7 or less, ``rumino``
        (``cards`` = the seven) when the hand is one. After drawing: ``discard`` of any card but
        the upcard just taken, and ``rumino`` for every seven cards of the eight that are one.
        Raises :class:`UnknownHand` when that hand is not fully known in this view.

        The list is computed once per state change (every method that changes the state
        forgets it) and a copy is returned.
        """
        return self._kept.legal_actions(self._list_legal_actions)

    def _list_legal_actions(self) -> list[Action]:
        """What :meth:`legal_actions` lists, computed afresh."""
        if self._phase is not Phase.ACTION:
            return []
        seat = self._to_act
        if self._offers:
            price = rebuy_price(self.config.stake, self._rebuys[seat])
            return sorted([Action("rebuy", amount=price), Action("decline")])
        return turn_actions(seat, self._hands[seat], drawn=self._drawn,
                            stock_size=self.stock_size, upcard=bool(self._pile.cards),
                            taken=self._taken, split=self._split_to_act)

    def card_use(self, action: Action) -> CardUse:
        """``discard``: its card is shown and leaves the hand. ``rumino`` and ``claim``: their
        ``cards`` are shown and stay in the hand (a claim's ``card`` is the public discard, not
        the claimant's). Every other action uses no card of the hand."""
        if action.kind in ("rumino", "claim"):
            return CardUse(kept=tuple(action.cards))
        if action.kind == "discard":
            return default_card_use(action)
        return CardUse()

    def apply(self, action: Action) -> None:
        """Apply ``to_act``'s action; raise :class:`IllegalMove` (state unchanged) otherwise.

        Rules: ``wrong-phase``, ``malformed-action``, ``unknown-action``, ``not-offered``,
        ``wrong-price``, ``already-drawn``, ``must-draw``, ``stock-empty``, ``no-upcard``,
        ``knock-over-limit``, ``not-a-rumino``, ``card-not-in-deck``, ``card-not-in-hand``,
        ``discard-taken-upcard``.
        """
        kept = self._kept
        if kept.listed(action) and is_shared_discard(action):
            kept.forget()
            assert action.card is not None
            self._discard_listed(self._to_act, action.card)
            return
        kept.forget()
        seat = self._to_act
        if self._phase is not Phase.ACTION:
            raise IllegalMove("wrong-phase",
                              f"no action can be taken in phase {self._phase.value}", seat)
        if not isinstance(action, Action):
            raise IllegalMove("malformed-action", f"an action must be an Action, not {action!r}",
                              seat)
        if self._offers:
            self._apply_offer(seat, action)
            return
        kind = action.kind
        if kind == "draw":
            check_shape(action, seat, value=True)
            self._draw(seat, action.value)
        elif kind == "knock":
            check_shape(action, seat)
            self._knock(seat)
        elif kind == "rumino":
            check_shape(action, seat, cards=True)
            self._show_rumino(seat, action.cards)
        elif kind == "discard":
            check_shape(action, seat, card=True)
            assert action.card is not None
            self._discard(seat, action.card)
        elif kind in ("rebuy", "decline"):
            raise IllegalMove("not-offered", f"seat {seat} has no rebuy offer now", seat)
        else:
            raise IllegalMove("unknown-action", f"rumino has no action {kind!r}", seat)

    def _apply_offer(self, seat: int, action: Action) -> None:
        self._kept.forget_facts()
        if action.kind == "rebuy":
            check_shape(action, seat, amount=True)
            price = rebuy_price(self.config.stake, self._rebuys[seat])
            if action.amount != price:
                raise IllegalMove("wrong-price", f"seat {seat}'s rebuy costs {price}, "
                                  f"not {action.amount}", seat)
            others = [self._scores[s] for s in range(self._n)
                      if s != seat and self._in_game[s] and self._scores[s] < ELIMINATION]
            self._scores[seat] = max(others)
            self._in_game[seat] = True
            self._paid[seat] += price
            self._rebuys[seat] += 1
        elif action.kind == "decline":
            check_shape(action, seat)
        else:
            raise IllegalMove("must-answer-offer", f"seat {seat} must answer its rebuy offer "
                              f"(rebuy or decline), not {action}", seat)
        self._offers.pop(0)
        if self._offers:
            self._to_act = self._offers[0]
        else:
            self._deal()

    def _draw(self, seat: int, source: str) -> None:
        if self._drawn:
            raise IllegalMove("already-drawn", f"seat {seat} has already drawn this turn", seat)
        if source == "stock":
            if self.stock_size <= 0:
                raise IllegalMove("stock-empty", "the stock is empty", seat)
            position = self._next_pos
            self._next_pos += 1
            self._pending = draw_steps(position, seat)
            self._pending_kind = _Pending.DRAW
            self._claim_open = False
            self._phase = Phase.CHANCE
            return
        if source != "upcard":
            raise IllegalMove("malformed-action", f"a draw is from 'stock' or 'upcard', "
                              f"not {source!r}", seat)
        if not self._pile.cards:
            raise IllegalMove("no-upcard", "there is no upcard to draw", seat)
        taken = self._pile.pop()
        self._hands[seat].append(taken)
        self._taken = taken
        self._drawn = True
        self._claim_open = False

    def _knock(self, seat: int) -> None:
        if self._drawn:
            raise IllegalMove("already-drawn", f"seat {seat} can only knock before drawing",
                              seat)
        hand = self._hands[seat]
        if None not in hand:
            dead = best_split([c for c in hand if c is not None]).deadwood
            if dead > KNOCK_LIMIT:
                raise IllegalMove("knock-over-limit", f"seat {seat} cannot knock with "
                                  f"{dead} deadwood (at most {KNOCK_LIMIT})", seat)
        self._knocker = seat
        self._end_hand(HandEnd.KNOCK)

    def _take_from_hand(self, seat: int, wanted: Sequence[Card]) -> list[Card | None]:
        """The hand of ``seat`` less ``wanted`` (known cards, else hidden slots), or raise."""
        return take_from_hand(self._hands, seat, wanted, seen=self._seen, deck=self._deck,
                              deck_set=self._deck_set)

    def _show_rumino(self, seat: int, shown: Sequence[Card]) -> None:
        if len(shown) != RUMINO_SIZE or not is_rumino(shown):
            raise IllegalMove("not-a-rumino", f"{' '.join(c.code for c in shown)} is not a "
                              "rumino (seven of a kind or seven in suit sequence)", seat)
        rest = self._take_from_hand(seat, shown)
        self._hands[seat] = [*rest, *shown]
        self._seen.update(shown)
        self._rumino_seat = seat
        self._rumino_cards = tuple(shown)
        self._end_hand(HandEnd.RUMINO)

    def _discard(self, seat: int, c: Card) -> None:
        if not self._drawn:
            raise IllegalMove("must-draw", f"seat {seat} must draw before discarding", seat)
        if c == self._taken:
            raise IllegalMove("discard-taken-upcard", f"seat {seat} cannot discard {c.code}, "
                              "the upcard it has just taken", seat)
        self._hands[seat] = self._take_from_hand(seat, [c])
        self._put_on_pile(seat, c)

    def _discard_listed(self, seat: int, c: Card) -> None:
        """The discard of ``c`` that :meth:`legal_actions` listed for this state (one of the
        shared discards of :func:`~.rumino_turns.turn_actions`): the seat has drawn, its hand
        is all known and of the French deck, holds ``c`` and ``c`` is not the upcard just
        taken, so only the first card of ``c``'s code leaves the hand, as
        :func:`~.rumino_turns.take_from_hand` takes it."""
        hand = self._hands[seat]
        code = c.code
        del hand[[None if held is None else held.code for held in hand].index(code)]
        self._put_on_pile(seat, c)

    def _put_on_pile(self, seat: int, c: Card) -> None:
        """``seat``'s discard ``c``, out of its hand, goes on the pile and ends the turn (and
        the hand when the stock is empty)."""
        self._seen.add(c)
        self._pile.push(c)
        self._drawn = False
        self._taken = None
        if self.stock_size <= 0:
            self._end_hand(HandEnd.EXHAUSTED)
            return
        self._discarder = seat
        self._claim_open = True
        playing = self._playing  # the seats of the hand in seat order, from the first player
        self._to_act = playing[(playing.index(seat) + 1) % len(playing)]

    def _end_hand(self, how: HandEnd) -> None:
        self._kept.forget_facts()
        self._end = how
        self._claim_open = False
        self._phase = Phase.HAND_OVER

    # ------------------------------------------------------------------ the claim

    def claimants(self) -> frozenset[int]:
        """After a discard, until the next player acts: the seats of the hand other than the
        discarder and the next player (the next player takes the discard by drawing it)."""
        if not self._claim_open or self._phase is not Phase.ACTION:
            return _NOBODY
        discarder, next_player = self._discarder, self._to_act
        return frozenset(self._playing).difference((discarder, next_player))

    def claim_actions(self, seat: int) -> list[Action]:
        """The claims ``seat`` can make on the discard (needs its hand known in this view)."""
        self._check_seat(seat)
        if seat not in self.claimants():
            return []
        return claim_options(seat, self._hands[seat], self._pile.cards)

    def apply_claim(self, seat: int, action: Action) -> None:
        """``seat`` takes the discard out of turn and shows the rumino it completes.

        Rules: ``no-claim`` (no window open, or ``seat`` is not a claimant), ``malformed-action``,
        ``wrong-card`` (not the discard), ``not-a-rumino``, ``card-not-in-hand`` (with full
        information, or a card known to be elsewhere).
        """
        self._kept.forget()
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise IllegalMove("no-claim", f"seat {seat!r} is not at this table", seat=None)
        if seat not in self.claimants():
            raise IllegalMove("no-claim", f"seat {seat} has no out-of-turn claim open now", seat)
        six = claimed_six(seat, action, self._pile.cards)
        rest = self._take_from_hand(seat, six)
        top = self._pile.pop()
        self._hands[seat] = [*rest, *six, top]
        self._seen.update(six)
        self._rumino_seat = seat
        self._rumino_cards = (*six, top)
        self._rumino_claimed = True
        self._end_hand(HandEnd.RUMINO)

    # ------------------------------------------------------------------ scoring

    def _hand_points(self) -> tuple[list[int], list[ScoreLine]]:
        return hand_points(self._end, self._hands, self._playing, rumino_seat=self._rumino_seat,
                           knocker=self._knocker, exhausted=self.config.exhausted)

    def _outcome(self, points: Sequence[int]) -> tuple[bool, int | None, list[int]]:
        """(match over, winner, payout) once ``points`` are added to the scores."""
        return match_outcome(self._end, points, rumino_seat=self._rumino_seat,
                             scores=self._scores, in_game=self._in_game, paid=self._paid)

    def hand_result(self) -> HandResult:
        """In HAND_OVER: the hand's lines and points (needs full information unless a rumino).

        Lines: ``rumino`` (values 1 for its holder), or ``knock`` / ``stock exhausted`` (values 1
        for the knocker / every player of the hand), ``deadwood`` (values = each player's
        deadwood, ``None`` for seats not dealt in; points = what it adds), ``gin`` after a knock
        (values 1 for a knocker with no deadwood, points -10); with a stake, ``paid in`` (values
        = each seat's payments so far) and ``payout`` (values = what each seat takes from the pool
        when this hand ends the match, else 0). Points are what each seat adds to its score.
        """
        self._need(Phase.HAND_OVER, "hand_result")
        points, lines = self._hand_points()
        if self.config.stake:
            zeros = (0,) * self._n
            _, _, payout = self._outcome(points)
            lines.append(ScoreLine("paid in", tuple(self._paid), zeros))
            lines.append(ScoreLine("payout", tuple(payout), zeros))
        return HandResult(tuple(lines), tuple(points))

    def next_hand(self) -> None:
        """In HAND_OVER: add the points; put out the players at 100 or more; then SHUFFLE (with
        rebuy offers when at least three remain and there is a stake) or MATCH_OVER."""
        self._kept.forget()
        self._need(Phase.HAND_OVER, "next_hand")
        points, _ = self._hand_points()
        over, winner, payout = self._outcome(points)
        self._kept.forget_facts()
        for s in range(self._n):
            self._scores[s] += points[s]
        if over:
            self._winner = winner
            self._payout = payout
            self._phase = Phase.MATCH_OVER
            return
        out = [s for s in range(self._n) if self._in_game[s] and self._scores[s] >= ELIMINATION]
        for s in out:
            self._in_game[s] = False
        remaining = sum(self._in_game)
        self._offers = out if self.config.stake and remaining >= 3 else []
        self._hand_number += 1
        self._reset_hand()
        self._phase = Phase.SHUFFLE

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees (:func:`~.rumino_view.observation`), its hand facts kept and
        the rest of the state handed over at once (:func:`~.rumino_view.seat_observation`)."""
        self._check_seat(seat)
        kept = self._kept
        facts, template = kept.facts(self)
        hands = self._hands
        hand = hands[seat]
        own = [c.code for c in hand if c is not None]
        return seat_observation(
            seat, facts, template, phase=self._phase, to_act=self._to_act, drawn=self._drawn,
            own=own, split=kept.split(seat, hand) if own else None,
            hand_sizes=[*map(len, hands)], discards=self._pile.codes(),
            stock_size=self.stock_size, claimants=self.claimants(), offering=bool(self._offers))

    def copy(self) -> RuminoMatch:
        """An independent copy (explicit, no deepcopy)."""
        other = _copy.copy(self)
        other._hands = [list(h) for h in self._hands]
        other._pile = self._pile.copy()
        other._seen = set(self._seen)
        other._scores = list(self._scores)
        other._in_game = list(self._in_game)
        other._paid = list(self._paid)
        other._rebuys = list(self._rebuys)
        other._payout = list(self._payout)
        other._offers = list(self._offers)
        other._kept = self._kept.fresh()
        return other

    def _need(self, phase: Phase, method: str) -> None:
        if self._phase is not phase:
            raise WrongPhase(
                f"{method} needs phase {phase.value}, but the match is in {self._phase.value}")

    # ------------------------------------------------------------------ testing aid

    @classmethod
    def from_position(
        cls,
        config: RuminoConfig,
        hands: Sequence[Iterable[Card | str] | None],
        discards: Iterable[Card | str],
        *,
        to_act: int = 0,
        stock_size: int = 50,
        drawn: bool = False,
        discarder: int | None = None,
        scores: Sequence[int] | None = None,
        dealer: int | None = None,
        rebuys: Sequence[int] | None = None,
    ) -> RuminoMatch:
        """A testing aid: a match in ACTION in the middle of hand 0.

        ``hands`` per seat (``None`` for a seat out of the game; a hand may hold ``None`` for a
        card hidden in this view), the discard pile (bottom first), ``to_act`` and whether it has
        ``drawn``, ``stock_size`` cards left, and ``discarder``: the seat that made the top
        discard (opens the claim window) or ``None``; ``scores`` so far and ``rebuys`` made so far
        per seat (their prices are added to what the seat paid). Raises :class:`GameError`
        naming an inconsistency.
        """
        state = cls(config)
        _place(state, hands, discards, to_act=to_act, stock_size=stock_size, drawn=drawn,
               discarder=discarder, scores=scores, dealer=dealer, rebuys=rebuys)
        return state


def _place(state: RuminoMatch, hands: Sequence[Iterable[Card | str] | None],
           discards: Iterable[Card | str], *, to_act: int, stock_size: int, drawn: bool,
           discarder: int | None, scores: Sequence[int] | None, dealer: int | None,
           rebuys: Sequence[int] | None) -> None:
    """Put the new match ``state`` in the position :meth:`RuminoMatch.from_position` describes,
    or raise :class:`GameError` naming an inconsistency."""
    config = state.config
    n = state._n
    if len(hands) != n:
        raise GameError(f"from_position needs {n} hands, got {len(hands)}")
    state._in_game = [h is not None for h in hands]
    state._hands = [[None if c is None else _as_card(c) for c in (h or ())] for h in hands]
    state._pile = DiscardPile([_as_card(c) for c in discards])
    if scores is not None:
        state._scores = list(scores)
    if rebuys is not None:
        state._rebuys = list(rebuys)
        state._paid = [paid_in(config.stake, r) for r in rebuys]
    active = [s for s in range(n) if state._in_game[s]]
    if to_act not in active:
        raise GameError(f"seat {to_act} is not in the game, so it cannot act")
    state._dealer = (to_act - 1) % n if dealer is None else dealer
    start = active.index(to_act)
    state._playing = tuple(active[start:] + active[:start])
    _check_placed([c for h in state._hands for c in h if c is not None]
                  + state._pile.cards, stock_size)
    state._next_pos = len(state._deck) - stock_size
    state._seen = set(state._pile.cards)
    state._drawn = drawn
    state._discarder = discarder
    state._claim_open = discarder is not None and not drawn
    state._to_act = to_act
    state._dealt_before = True
    state._phase = Phase.ACTION


SPEC = GameSpec(
    name="rumino",
    title="Rumino: rummy with knock and gin, the seven-card rumino wins at once, out at 100",
    rules_source="italian-card-games.txt",
    player_counts=PLAYER_COUNTS,
    config_class=RuminoConfig,
    presets={
        "classic": {"stake": 0, "exhausted": "score"},
        "stakes": {"stake": 1, "exhausted": "score"},
    },
    preset_docs={
        "classic": "italian-card-games.txt without money: knock at 7, gin -10, out at 100, "
        "the last player under 100 wins",
        "stakes": "the same played for a pool of one stake each, rebuys at 1, 2, 4... stakes "
        "while three or more remain",
    },
    factory=RuminoMatch,
    flags=flags_of(RuminoConfig),
    default_preset="classic",
    legend="suits: H hearts, D diamonds, C clubs, S spades; A ace (low), T ten, J jack, "
    "Q queen, K king; X1-X4 jokers (wild); the last digit is the copy (1 or 2)",
    screen=(
        ("upcard", "upcard"), ("stock_size", "stock"), ("hand_sizes", "cards in hand"),
        ("out", "out of the game"), ("scores", "scores"), ("pool", "pool"),
        ("rebuy_price", "rebuy price"), ("melds_text", "your melds"),
        ("deadwood", "your deadwood"),
    ),
)

SPECS = (SPEC,)
