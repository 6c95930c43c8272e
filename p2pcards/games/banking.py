"""What the banking games (Seven and a Half, Ziginette) share: the config flags of a chip match,
the draw for the first banker, the banker's limits, cover checks, the hand result with the ledger,
and the end of the match.

Subclasses (:mod:`.sette_e_mezzo`, :mod:`.ziginette`) implement the play of one hand; they call
:meth:`BankingMatch._finish_hand` when it is over.

The draw for the first banker
    Before the first hand, one deck cycle is used for the draw alone: deck positions
    ``0 .. players-1`` are turned face up for everyone, position ``i`` in front of seat ``i``
    (``Zone.TABLE``, ``seat = i``). The highest card takes the bank: Re (K) > Cavallo (Q) >
    Fante (J) > 7 > ... > 2 > Asso; between equal ranks Denari > Coppe > Spade > Bastoni, so
    there is never a tie. Then the deck is shuffled afresh for the first hand
    (``Phase.SHUFFLE``). The mental-poker shuffle makes every position a fair draw that no seat
    can steer.

Limits
    At the start of every hand (not again at a redeal) the banker sends ``minimum`` then
    ``maximum``, each with an integer ``amount``: ``1 <= minimum <= maximum <= cap``, where the cap
    is what the bank can pay on one bet (its balance divided by the largest payout ratio of the
    game: 2 in Seven and a Half, 1 in Ziginette).

Match
    ``chips`` per seat to start; the match ends after ``hands`` hands, or, with ``until_broke``, as
    soon as a seat has no chips left; in any case when fewer than two seats have chips. A seat
    with no chips sits out: it cannot bet and cannot hold the bank. The winner is the seat with the
    most chips; a tie for the most is a draw.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import sub as _sub
from typing import Any, ClassVar

from ..cards import ITALIAN_40, ITALIAN_SUITS, Card, Deck
from .base import (
    ALL_SEATS,
    Action,
    BadChance,
    BadPlayerCount,
    BadSeat,
    ChanceStep,
    HandResult,
    IllegalMove,
    MatchProgress,
    Phase,
    ScoreLine,
    UnknownFlag,
    VariantConfig,
    WrongPhase,
    Zone,
)
from .chips import Ledger, Transfer

__all__ = ["BankingConfig", "BankingMatch", "PLAYER_COUNTS", "draw_key", "draw_winner",
           "amount_actions", "amount_list", "hand_step", "show_step", "table_step"]

PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8)
MAX_CHIPS = 1_000_000
MAX_HANDS = 1000

_INDEX_OF_CANONICAL: dict[int, int] = {id(c): i for i, c in enumerate(ITALIAN_40.cards)}
"""Deck index of each of the module's own Italian cards, by object identity: the cards the deal
hands out, checked without hashing (the deck lives as long as the module, so no other object can
share these identities)."""
_SHOW = Zone.SHOW
_INDEX_OF_CARD: dict[Card, int] = {c: i for i, c in enumerate(ITALIAN_40.cards)}
"""Deck index of every Italian card, by value: for equal cards that are other objects."""
_PHASE_VALUES: dict[Phase, str] = {p: p.value for p in Phase}
"""Each phase's text, looked up without the enum's ``value`` property."""
_ACTION = Phase.ACTION
_ACTION_TEXT = Phase.ACTION.value
_CHANCE = Phase.CHANCE
_SHUFFLE = Phase.SHUFFLE
_HAND_OVER = Phase.HAND_OVER


@dataclass(frozen=True)
class BankingConfig(VariantConfig):
    """Flags shared by the banking games; validated on construction."""

    players: int
    chips: int = field(default=100, metadata={
        "doc": "chips each seat starts with (10 to 1000000)"})
    hands: int = field(default=6, metadata={
        "doc": "the match ends after this many hands (1 to 1000)"})
    until_broke: bool = field(default=True, metadata={
        "doc": "the match also ends as soon as a seat has no chips left (otherwise broke seats "
        "sit out)"})

    GAME: ClassVar[str] = "banking"

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or self.players not in PLAYER_COUNTS:
            raise BadPlayerCount(f"{self.GAME} is for 2 to 8 players, not {self.players!r}")
        if type(self.chips) is not int or not 10 <= self.chips <= MAX_CHIPS:
            raise UnknownFlag(f"flag 'chips' of {self.GAME} takes an integer from 10 to "
                              f"{MAX_CHIPS}, not {self.chips!r}")
        if type(self.hands) is not int or not 1 <= self.hands <= MAX_HANDS:
            raise UnknownFlag(f"flag 'hands' of {self.GAME} takes an integer from 1 to "
                              f"{MAX_HANDS}, not {self.hands!r}")
        if not isinstance(self.until_broke, bool):
            raise UnknownFlag(f"flag 'until_broke' of {self.GAME} takes a bool, "
                              f"not {self.until_broke!r}")


def draw_key(c: Card) -> tuple[int, int]:
    """Sort key of the bank draw: rank first (Re highest), then Denari > Coppe > Spade > Bastoni."""
    return (c.rank, len(ITALIAN_SUITS) - ITALIAN_SUITS.index(c.suit))


def draw_winner(drawn: Sequence[Card]) -> int:
    """The seat whose drawn card is highest (``drawn[i]`` is seat ``i``'s card)."""
    return max(range(len(drawn)), key=lambda s: draw_key(drawn[s]))


class BankingMatch(MatchProgress):
    """The common state of a banking match; subclasses play the hands."""

    GAME: ClassVar[str] = "banking"
    PAYOUT_RATIO: ClassVar[int] = 1
    """The most a bank pays per chip staked on one bet (caps ``maximum``)."""
    VIEW_KEYS: ClassVar[tuple[str, ...]] = ()
    """The keys a game's view adds after the common ones, in their order: the kept common view
    holds them already (as ``None``), so a view is one copy whose values are then set."""

    config: BankingConfig

    def __init__(self, config: BankingConfig) -> None:
        self.config = config
        self._n = config.players
        self._sides = self._n
        self._deck = ITALIAN_40
        self._deck_size = len(ITALIAN_40)
        self._phase = Phase.SHUFFLE
        self._hand_number = 0
        self._winner: int | None = None
        self._to_act = 0
        self._ledger = Ledger.opening(self._n, config.chips)
        self._banker: int | None = None
        self._drawn: tuple[Card, ...] = ()
        self._drawing = False
        self._pending: tuple[ChanceStep, ...] = ()
        self._shared: dict[str, Any] | None = None
        """:meth:`_shared_view`, made from the state ``_shared_key`` names."""
        self._shared_key: tuple[object, ...] = ()
        self._chips_of: tuple[int | None, ...] = (None,) * self._n
        """The balances ``_chip_parts`` were made from."""
        self._chip_parts: list[str] = [""] * self._n
        """Per seat, its part of the views' ``chips``."""
        self._chips = ""
        """The views' ``chips``, joined from ``_chip_parts``."""
        self._reset_common()

    def _reset_common(self) -> None:
        self._minimum: int | None = None
        self._maximum: int | None = None
        self._hand_start = self._ledger
        self._transfers: list[Transfer] = []
        self._next_banker: int | None = None
        self._seen: set[int] = set()
        self._next_pos = 0

    # ------------------------------------------------------------------ read-only state

    @property
    def deck(self) -> Deck:
        return self._deck

    @property
    def ledger(self) -> Ledger:
        """The chip balances now (stakes not yet settled are still in their owners' balances)."""
        return self._ledger

    @property
    def banker(self) -> int | None:
        """The seat holding the bank (``None`` before the draw)."""
        return self._banker

    @property
    def limits(self) -> tuple[int, int] | None:
        """``(minimum, maximum)`` of the current hand once announced."""
        if self._minimum is None or self._maximum is None:
            return None
        return self._minimum, self._maximum

    @property
    def drawn(self) -> tuple[Card, ...]:
        """The cards of the draw for the first banker, seat order (empty before it)."""
        return self._drawn

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        """The chip transfers of the current hand so far, in order."""
        return tuple(self._transfers)

    @property
    def match_scores(self) -> tuple[int, ...]:
        """The chip balances (the ledger)."""
        return self._ledger.balances

    def side_of(self, seat: int) -> int:
        """Every seat plays for itself."""
        self._check_seat(seat)
        return seat

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise BadSeat(f"seat {seat!r} is not a seat of this {self._n}-player {self.GAME} "
                          "table")

    def _need(self, phase: Phase, method: str) -> None:
        if self._phase is not phase:
            raise WrongPhase(
                f"{method} needs phase {phase.value}, but the match is in {self._phase.value}")

    # ------------------------------------------------------------------ hand start

    def _can_bank(self, seat: int) -> bool:
        return self._ledger.balances[seat] >= self.PAYOUT_RATIO

    def _next_seat(self, seat: int, accept: Any) -> int | None:
        """The first seat after ``seat`` (going round, ``seat`` itself last) passing ``accept``."""
        for k in range(1, self._n + 1):
            s = (seat + k) % self._n
            if accept(s):
                return s
        return None

    def begin_hand(self) -> None:
        """In SHUFFLE: a shuffled deck is ready. Before the first hand it serves the draw for the
        bank; otherwise the banker announces limits (or, at a redeal, the deal starts)."""
        if self._phase is not _SHUFFLE:
            self._need(Phase.SHUFFLE, "begin_hand")
        self._seen = set()
        self._next_pos = 0
        if self._banker is None:
            self._drawing = True
            self._request(tuple([table_step(i, i) for i in range(self._n)]))
            return
        if self._minimum is None:
            if not self._can_bank(self._banker):
                nxt = self._next_seat(self._banker, self._can_bank)
                assert nxt is not None  # the match ends before no seat can bank
                self._banker = nxt
            self._hand_start = self._ledger
            self._act(self._banker)
            return
        self._start_deal()

    def _start_deal(self) -> None:
        """Limits are known and a fresh deck is ready: request the first cards of the hand."""
        raise NotImplementedError

    def _request(self, steps: tuple[ChanceStep, ...]) -> None:
        self._pending = steps
        self._phase = _CHANCE

    def _act(self, seat: int) -> None:
        self._to_act = seat
        self._phase = _ACTION

    def _take_position(self) -> int:
        pos = self._next_pos
        self._next_pos += 1
        return pos

    @property
    def cards_left(self) -> int:
        """Deck positions not yet dealt in the current deck."""
        return self._deck_size - self._next_pos

    # ------------------------------------------------------------------ chance

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        if self._phase is not _CHANCE:
            self._need(Phase.CHANCE, "pending_chance")
        return self._pending

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Fulfil :meth:`pending_chance` (``None`` where this view cannot see). Raises
        :class:`BadChance` (state unchanged) for a wrong count, a card not in the deck or already
        dealt, a hidden public card, or a shown card that contradicts what this view knows."""
        if self._phase is not _CHANCE:
            self._need(Phase.CHANCE, "complete_chance")
        given = list(revealed)
        steps = self._pending
        if len(given) != len(steps):
            raise BadChance(f"{len(given)} cards given for {len(steps)} pending chance steps")
        seen = self._seen
        if len(steps) == 1 and not self._drawing:
            self._complete_one(steps, given)
            return
        fresh: set[int] = set()
        shown: list[int] = []
        canonical = _INDEX_OF_CANONICAL
        for step, c in zip(steps, given, strict=True):
            if c is None:
                if step.visible_to == ALL_SEATS:
                    raise BadChance(f"the public card at {_where(step)} must be revealed, not "
                                    "None")
                continue
            index = canonical.get(id(c))
            if index is None:
                index = self._deck_index(c, step)
            if step.zone is _SHOW:
                self._check_shown(step, c)
                shown.append(index)
                continue
            if index in seen or index in fresh:
                raise BadChance(f"{c.code} at {_where(step)} was already dealt in this deck")
            fresh.add(index)
        self._pending = ()
        seen |= fresh
        seen.update(shown)
        if self._drawing:
            self._drawing = False
            cards = tuple(c for c in given if c is not None)
            self._drawn = cards
            self._banker = draw_winner(cards)
            self._phase = Phase.SHUFFLE
            return
        self._on_chance(steps, given)

    def _complete_one(self, steps: tuple[ChanceStep, ...], given: list[Card | None]) -> None:
        """:meth:`complete_chance` of a batch of one step (a card turned, hit or shown), with
        the same checks in the same order."""
        step = steps[0]
        c = given[0]
        if c is None:
            if step.visible_to == ALL_SEATS:
                raise BadChance(f"the public card at {_where(step)} must be revealed, not None")
        else:
            index = _INDEX_OF_CANONICAL.get(id(c))
            if index is None:
                index = self._deck_index(c, step)
            if step.zone is _SHOW:
                self._check_shown(step, c)
            elif index in self._seen:
                raise BadChance(f"{c.code} at {_where(step)} was already dealt in this deck")
            self._seen.add(index)
        self._pending = ()
        self._on_chance(steps, given)

    def _deck_index(self, c: object, step: ChanceStep) -> int:
        """The deck index of ``c``, a card given for ``step`` that is not one of the deck's own
        objects; :class:`BadChance` if it is no card of the deck."""
        index = _INDEX_OF_CARD.get(c) if isinstance(c, Card) else None
        if index is None:
            raise BadChance(f"{c!r} at {_where(step)} is not a card of the {self._deck.name} "
                            "deck")
        return index

    def _was_dealt(self, c: Card) -> bool:
        """Whether ``c`` (a card of the deck) has come out of the current deck in this view."""
        index = _INDEX_OF_CANONICAL.get(id(c))
        return (_INDEX_OF_CARD[c] if index is None else index) in self._seen

    def _check_shown(self, step: ChanceStep, c: Card) -> None:
        """Raise :class:`BadChance` if ``c`` cannot be the shown card of ``step``."""
        raise BadChance(f"{self.GAME} shows no dealt cards")

    def _on_chance(self, steps: tuple[ChanceStep, ...], cards: list[Card | None]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ limits

    def _cap(self) -> int:
        assert self._banker is not None
        return self._ledger.balances[self._banker] // self.PAYOUT_RATIO

    def _limit_actions(self) -> list[Action]:
        cap = self._cap()
        if self._minimum is None:
            return amount_list("minimum", 1, cap)
        return amount_list("maximum", self._minimum, cap)

    @property
    def _announcing(self) -> bool:
        return self._maximum is None

    def _apply_limit(self, action: Action, seat: int) -> None:
        kind = "minimum" if self._minimum is None else "maximum"
        if action.kind != kind:
            raise IllegalMove("limits-first", f"the banker must announce the {kind} bet now, "
                              f"not {action.kind!r}", seat)
        if action.card is not None or action.cards or action.value:
            raise IllegalMove("malformed-action", f"a {kind} names only an amount, not {action}",
                              seat)
        low = 1 if self._minimum is None else self._minimum
        cap = self._cap()
        if not low <= action.amount <= cap:
            raise IllegalMove("bad-limit", f"the {kind} bet must be from {low} to {cap} chips "
                              f"(what the bank can pay), not {action.amount}", seat)
        if self._minimum is None:
            self._minimum = action.amount
            return
        self._maximum = action.amount
        self._start_deal()

    def _bet_range(self, seat: int, committed: int, bank_free: int) -> tuple[int, int]:
        """The amounts ``seat`` may stake now: within the limits, covered by ``seat`` (with
        ``committed`` chips already at risk) and by the bank (``bank_free`` chips still able to
        pay, per chip of payout). Empty when the high end is below the low end."""
        assert self._minimum is not None and self._maximum is not None
        own = self._ledger.balances[seat] - committed
        return self._minimum, min(self._maximum, own, bank_free)

    def _check_bet(self, action: Action, seat: int, committed: int, bank_free: int) -> None:
        """The checks of a ``bet``'s amount, in the order the game pages state: an amount is
        given (``malformed-action``), it is within the limits (``outside-limits``), the bettor
        covers it (``cannot-cover``), the bank covers it (``bank-cannot-cover``)."""
        low, high = self._bet_range(seat, committed, bank_free)
        amount = action.amount
        if not amount:
            raise IllegalMove("malformed-action", "a bet needs an amount of chips", seat)
        if not self._minimum or not self._maximum:  # pragma: no cover - limits always set here
            raise IllegalMove("no-limits", "no limits have been announced", seat)
        if not self._minimum <= amount <= self._maximum:
            raise IllegalMove("outside-limits", f"a bet must be from {self._minimum} to "
                              f"{self._maximum} chips, not {amount}", seat)
        if amount > self._ledger.balances[seat] - committed:
            raise IllegalMove("cannot-cover", f"seat {seat} cannot cover a bet of {amount}: it "
                              f"has {self._ledger.balances[seat] - committed} chips free", seat)
        if amount > high or amount < low:
            raise IllegalMove("bank-cannot-cover", f"the bank cannot cover a bet of {amount} "
                              f"more (it can still pay {bank_free})", seat)

    # ------------------------------------------------------------------ ledger

    def _pay(self, payer: int, payee: int, amount: int, reason: str) -> None:
        self._ledger = self._ledger.transfer(payer, payee, amount)
        if amount:
            self._transfers.append(Transfer(payer, payee, amount, reason))

    def _finish_hand(self, next_banker: int) -> None:
        self._next_banker = next_banker
        self._phase = Phase.HAND_OVER

    # ------------------------------------------------------------------ result and match end

    def _stakes(self) -> tuple[int | None, ...]:
        """Each seat's total stake this hand (``None`` for the banker and seats that never bet)."""
        raise NotImplementedError

    def _extra_lines(self) -> tuple[ScoreLine, ...]:
        return ()

    def hand_result(self) -> HandResult:
        """In HAND_OVER: ``banker``, ``bet``, game lines, ``won/lost`` (the points: each seat's
        chip change), ``balance`` (the ledger after the hand) and ``next banker``."""
        if self._phase is not _HAND_OVER:
            self._need(Phase.HAND_OVER, "hand_result")
        assert self._banker is not None and self._next_banker is not None
        zeros = _zeros(self._n)
        # the ledger's deltas (both ledgers have this table's seats), subtracted in C
        deltas = tuple(map(_sub, self._ledger.balances, self._hand_start.balances))
        marks = _mark(self._n, self._banker)
        nxt = _mark(self._n, self._next_banker)
        lines = (
            ScoreLine("banker", marks, zeros),
            ScoreLine("bet", self._stakes(), zeros),
            *self._extra_lines(),
            ScoreLine("won/lost", deltas, deltas),
            ScoreLine("balance", self._ledger.balances, zeros),
            ScoreLine("next banker", nxt, zeros),
        )
        return HandResult(lines, deltas)

    def next_hand(self) -> None:
        """In HAND_OVER: the bank moves to the next banker; then SHUFFLE or MATCH_OVER."""
        if self._phase is not _HAND_OVER:
            self._need(Phase.HAND_OVER, "hand_result")  # the message it always had
        assert self._banker is not None and self._next_banker is not None
        balances = self._ledger.balances
        broke = balances.count(0)  # balances are non-negative: the others are solvent
        config = self.config
        over = (self._hand_number + 1 >= config.hands or self._n - broke < 2
                or (config.until_broke and broke > 0))
        self._banker = self._next_banker
        if over:
            best = max(balances)
            top = [s for s in range(self._n) if balances[s] == best]
            self._winner = top[0] if len(top) == 1 else None
            self._phase = Phase.MATCH_OVER
            return
        self._hand_number += 1
        self._reset_common()
        self._reset_hand()
        self._phase = Phase.SHUFFLE

    def _reset_hand(self) -> None:
        raise NotImplementedError

    def _pass_bank_from(self, seat: int) -> int:
        """The next seat after ``seat`` able to hold the bank (``seat`` itself if none)."""
        nxt = self._next_seat(seat, self._can_bank)
        return seat if nxt is None else nxt

    # ------------------------------------------------------------------ views

    def _common_view(self, seat: int) -> dict[str, Any]:
        """The keys every banking view shares, then the game's own (:attr:`VIEW_KEYS`, left for
        the game to set), as a fresh dict with fresh lists: a copy of the view every seat shares
        (:meth:`_shared_view`) with the seat's own keys, the phase and the seat to act set."""
        if not (isinstance(seat, int) and 0 <= seat < self._n):
            self._check_seat(seat)
        ledger = self._ledger
        banker = self._banker
        shared = self._shared
        if shared is None or self._shared_key != (ledger, banker, self._minimum, self._maximum,
                                                  self._hand_number, self._winner, self._drawn):
            shared = self._shared_view()  # made again where its inputs changed
        view = shared.copy()
        view["seat"] = seat
        view["side"] = seat
        phase = self._phase
        if phase is _ACTION:
            view["phase"] = _ACTION_TEXT
            view["to_act"] = self._to_act
        else:
            view["phase"] = _PHASE_VALUES[phase]
        if seat == banker:
            view["bank"] = "you"
        limits = shared["limits"]
        if limits is not None:
            view["limits"] = [*limits]
        balances = ledger.balances
        view["balances"] = [*balances]
        view["drawn"] = [*shared["drawn"]]
        view["match_scores"] = [*balances]
        return view

    def _shared_view(self) -> dict[str, Any]:
        """The common view as every seat but the banker sees it, before the phase and the seat
        to act, lists as tuples (never handed out: :meth:`_common_view` copies it). Kept while
        the ledger, the banker, the limits, the hand number, the winner and the draw stay what
        they were when it was made; when some of them change, the keys made from them are made
        again."""
        key = (self._ledger, self._banker, self._minimum, self._maximum, self._hand_number,
               self._winner, self._drawn)
        shared = self._shared
        if shared is None:
            shared = self._shared = self._make_shared_view()
            self._shared_key = key
        elif self._shared_key != key:  # compared by value: always right
            self._renew_shared(shared, self._shared_key)
            self._shared_key = key
        return shared

    def _make_shared_view(self) -> dict[str, Any]:
        """:meth:`_shared_view` made afresh, keys in the order of every banking view."""
        shared: dict[str, Any] = {
            "game": self.GAME,
            "seat": None,
            "side": None,
            "players": self._n,
            "phase": None,
            "hand_number": self._hand_number,
            "to_act": None,
            "banker": None,
            "bank": None,
            "limits": None,
            "limits_text": None,
            "balances": None,
            "chips": None,
            "drawn": self._drawn_codes(),
            "match_scores": None,
            "hands": self.config.hands,
            "start_chips": self.config.chips,
            "winner": self._winner,
        }
        for key in self.VIEW_KEYS:
            shared[key] = None
        self._set_shared_ledger(shared)
        self._set_shared_bank(shared)
        self._set_shared_limits(shared)
        return shared

    def _renew_shared(self, shared: dict[str, Any], made_of: tuple[object, ...]) -> None:
        """Make again the keys of ``shared`` whose inputs differ from ``made_of`` (the key of
        :meth:`_shared_view` it was made with)."""
        ledger, banker, minimum, maximum, hand_number, winner, drawn = made_of
        if ledger is not self._ledger:
            self._set_shared_ledger(shared)
        if banker != self._banker:
            self._set_shared_bank(shared)
        if minimum != self._minimum or maximum != self._maximum:
            self._set_shared_limits(shared)
        shared["hand_number"] = self._hand_number
        shared["winner"] = self._winner
        if drawn is not self._drawn:
            shared["drawn"] = self._drawn_codes()

    def _set_shared_ledger(self, shared: dict[str, Any]) -> None:
        balances = self._ledger.balances
        shared["balances"] = balances
        shared["chips"] = self._chips_text()
        shared["match_scores"] = balances

    def _set_shared_bank(self, shared: dict[str, Any]) -> None:
        banker = self._banker
        shared["banker"] = banker
        shared["bank"] = "—" if banker is None else f"seat {banker}"

    def _set_shared_limits(self, shared: dict[str, Any]) -> None:
        minimum = self._minimum
        maximum = self._maximum
        if minimum is not None and maximum is not None:
            shared["limits"] = (minimum, maximum)
            shared["limits_text"] = f"{minimum} to {maximum}"
        else:
            shared["limits"] = None
            shared["limits_text"] = "not announced"

    def _chips_text(self) -> str:
        """``[seat] balance`` of every seat; the part of a seat is made again only when its
        balance changes."""
        balances = self._ledger.balances
        made_of = self._chips_of
        if balances is made_of:
            return self._chips
        parts = self._chip_parts
        for s in range(self._n):
            value = balances[s]
            if made_of[s] != value:
                parts[s] = f"[{s}] {value}"
        self._chips_of = balances
        text = self._chips = "  ".join(parts)
        return text

    def _drawn_codes(self) -> tuple[str, ...]:
        """The codes of the draw's cards."""
        return tuple([c.code for c in self._drawn])

    def copy(self) -> BankingMatch:
        """An independent deep copy (the ledger itself is frozen and shared)."""
        return _copy.deepcopy(self)


@lru_cache(maxsize=16)
def _zeros(players: int) -> tuple[int, ...]:
    """``0`` for each of ``players`` seats: the points of a hand result's information lines."""
    return (0,) * players


@lru_cache(maxsize=256)
def _mark(players: int, seat: int) -> tuple[int | None, ...]:
    """``1`` at ``seat`` and ``None`` at every other of ``players`` seats (a hand result's
    marker line)."""
    return tuple(1 if s == seat else None for s in range(players))


def _where(step: ChanceStep) -> str:
    """Where the card of a chance step goes, for a message."""
    if step.zone is Zone.SHOW:
        return f"hand index {step.position} of seat {step.seat}"
    return f"deck position {step.position}"


def check_plain(action: Action, seat: int, game: str) -> None:
    """Raise :class:`IllegalMove` unless ``action`` names no card (no action of the banking
    games moves a card of the actor's hand)."""
    if not isinstance(action, Action):
        raise IllegalMove("malformed-action", f"an action must be an Action, not {action!r}",
                          seat)
    if action.card is not None or action.cards:
        raise IllegalMove("malformed-action", f"no {game} action names a card: {action}", seat)



_AMOUNT_RUNS: dict[tuple[str, str], list[Action]] = {}
"""Per ``(kind, value)``: ``Action(kind, value=value, amount=a)`` at index ``a``, made once."""


def amount_actions(kind: str, low: int, high: int, value: str = "") -> tuple[Action, ...]:
    """``Action(kind, value=value, amount=a)`` for every ``a`` from ``low`` to ``high``, in that
    order. Kept once made: the banking games offer these runs of amounts at most decisions, and
    actions are immutable, so the same objects serve every state."""
    return tuple(amount_list(kind, low, high, value))


def amount_list(kind: str, low: int, high: int, value: str = "") -> list[Action]:
    """:func:`amount_actions` as a fresh list (the engines' legal actions are lists)."""
    if high < low:
        return []
    if low < 0:
        return [Action(kind, value=value, amount=a) for a in range(low, high + 1)]
    run = _AMOUNT_RUNS.get((kind, value))
    if run is None:
        run = _AMOUNT_RUNS[kind, value] = []
    if len(run) <= high:
        run.extend(Action(kind, value=value, amount=a) for a in range(len(run), high + 1))
    return run[low:high + 1]


_HAND_STEPS: dict[tuple[int, int, bool], ChanceStep] = {}
_TABLE_STEPS: dict[tuple[int, int | None], ChanceStep] = {}
_SHOW_STEPS: dict[int, ChanceStep] = {}


def hand_step(position: int, seat: int, public: bool) -> ChanceStep:
    """The chance step dealing deck ``position`` into ``seat``'s hand, seen by everyone if
    ``public``, else by ``seat`` alone. Chance steps are immutable, so each is made once and
    the same object serves every state (deck positions and seats are few)."""
    key = (position, seat, public)
    step = _HAND_STEPS.get(key)
    if step is None:
        step = _HAND_STEPS[key] = ChanceStep(position, Zone.HAND, seat,
                                             ALL_SEATS if public else frozenset({seat}))
    return step


def table_step(position: int, seat: int | None) -> ChanceStep:
    """The chance step turning deck ``position`` face up on the table (in front of ``seat``, or
    of no seat), seen by everyone; made once, as :func:`hand_step`."""
    key = (position, seat)
    step = _TABLE_STEPS.get(key)
    if step is None:
        step = _TABLE_STEPS[key] = ChanceStep(position, Zone.TABLE, seat, ALL_SEATS)
    return step


def show_step(seat: int) -> ChanceStep:
    """The chance step showing everyone ``seat``'s hole card (hand index 0); made once, as
    :func:`hand_step`."""
    step = _SHOW_STEPS.get(seat)
    if step is None:
        step = _SHOW_STEPS[seat] = ChanceStep(0, Zone.SHOW, seat, ALL_SEATS)
    return step
