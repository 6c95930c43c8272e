"""Seven and a Half (Sette e mezzo), 2 to 8 players: one banker against the punters.

Rule text: the Seven and a Half part of ``italian-card-games.txt``. Shared banking rules (the
draw for the first banker, limits, the ledger, match end): :mod:`.banking`. Rules as implemented:

Values (in half-points internally, so every total is an integer)
    Asso 1 point (2 half-points), 2..7 face value (4..14), Fante, Cavallo, Re half a point (1).
    The Re di Denari (``KD``) is wild: any whole number 1..7, chosen at the end by the engine as
    the best value for its holder (the highest that does not bust). A hand busts when its total,
    counting ``KD`` as 1, is over 7 1/2 (15 half-points). A *two-card 7 1/2* is a hand of exactly
    two cards worth 7 1/2: a 7 and a face card, or ``KD`` and another face card.

Seats
    Seats play in order 0, 1, 2, ...; "to the banker's left" is the next seat. The punters play
    in order from the seat after the banker.

A hand
    1. The banker sends ``minimum`` and ``maximum`` (see :mod:`.banking`; the cap is half the
       bank's balance, since a bet may be paid 2 to 1).
    2. Each punter with chips, in order, sends ``bet`` (``amount``) or ``pass`` (sits the hand
       out). A bet must be within the limits, covered by the punter's balance, and the bank must
       cover it: twice the sum of all bets may not exceed the bank's balance.
    3. If nobody bet, the hand is over (no card is dealt). Otherwise one chance batch deals one
       hole card, face down and seen by its owner only, to each punter who bet, in order, then to
       the banker: deck positions ``0, 1, ...`` in that order.
    4. Each punter in turn: ``hit`` (the next deck position, face up to all, into that punter's
       hand) or ``stand``. A punter whose total is over 7 1/2 must send ``bust``: its hole card is
       shown to all (``Zone.SHOW``, hand index 0) and its bet is paid to the bank at once. A punter
       holding a two-card 7 1/2 must send ``seven-and-a-half``: its hole card is shown to all and
       it stands. Other seats cannot check these claims while the hole card is hidden; the full
       replay after the key reveal does.
    5. If a punter still stands, the banker's hole card is shown to all and the banker plays
       freely, ``hit`` or ``stand``, seeing every face-up card. A banker who busts or makes a
       two-card 7 1/2 stops at once.
    6. Every hole card not yet shown is shown to all (punters in order, then the banker), and the
       hand is settled.
    When the deck runs out, nobody can hit.

Settlement (per punter still in the hand, ``b`` = its bet)
    - punter's two-card 7 1/2: the banker's two-card 7 1/2 pushes (0), anything else pays ``2b``;
    - banker's two-card 7 1/2 (punter without one): the punter pays ``b``;
    - banker bust: the bank pays ``b``;
    - otherwise the higher total wins ``b``; equal totals push.
    Losses are collected before winnings are paid (bust bets were collected at step 4).

Bank passing
    The first punter from the banker's left holding a two-card 7 1/2 takes the bank for the next
    hand, unless the banker also had one. Otherwise the banker keeps it. A bank that cannot pay
    2 to 1 on a 1-chip bet passes to the next seat that can.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from .banking import (
    BankingConfig,
    BankingMatch,
    amount_list,
    check_plain,
    hand_step,
    show_step,
)
from .base import (
    Action,
    BadChance,
    ChanceStep,
    GameError,
    GameSpec,
    IllegalMove,
    Phase,
    ScoreLine,
    UnknownHand,
    Zone,
    flags_of,
    sort_actions,
)

__all__ = ["SetteConfig", "SetteMatch", "SPECS", "best_total", "min_total", "two_card_seven",
           "TARGET", "WILD"]

TARGET = 15
"""7 1/2 in half-points."""
WILD = Card(10, "D")
"""The Re di Denari."""


def _is_wild(c: Card) -> bool:
    """Whether ``c`` is the Re di Denari (compared field by field: cheaper than ``==``)."""
    return c.rank == 10 and c.suit == "D" and c.copy == 0


def half_points(c: Card) -> int:
    """A card's value in half-points, the wild ``KD`` counted as 1 (2 half-points)."""
    rank = c.rank
    if rank >= 8:
        return 2 if _is_wild(c) else 1
    return 2 * rank


def min_total(cards: list[Card]) -> int:
    """The lowest total of ``cards`` in half-points (``KD`` as 1): over 15 is a bust."""
    total = 0
    for c in cards:
        rank = c.rank
        total += (2 if _is_wild(c) else 1) if rank >= 8 else 2 * rank
    return total


def best_total(cards: list[Card]) -> int:
    """The best total of ``cards`` in half-points: ``KD`` takes the highest whole value 1..7 that
    does not bust (1 if every value busts)."""
    rest = 0
    wild = False
    for c in cards:
        rank = c.rank
        if rank < 8:
            rest += 2 * rank
        elif _is_wild(c):
            wild = True
        else:
            rest += 1
    if not wild:
        return rest
    value = max(1, min(7, (TARGET - rest) // 2))
    return rest + 2 * value


def two_card_seven(cards: list[Card]) -> bool:
    """Whether ``cards`` is a two-card 7 1/2."""
    return len(cards) == 2 and best_total(cards) == TARGET


@dataclass(frozen=True)
class SetteConfig(BankingConfig):
    """The variant of a Seven and a Half match (flags of :class:`.BankingConfig`)."""

    GAME = "sette-e-mezzo"


class _Stage(enum.Enum):
    LIMITS = "limits"
    BETS = "bets"
    PUNTERS = "punters"
    BANKER = "banker"
    DONE = "done"


class _Status:
    """A dealt seat's status: plain texts, as :meth:`SetteMatch.status` gives them."""

    PLAYING = "playing"
    STOOD = "stood"
    BUST = "bust"
    SEVEN = "two-card 7½"


_LIMITS = _Stage.LIMITS
_BETS = _Stage.BETS
_PUNTERS = _Stage.PUNTERS
_BANKER = _Stage.BANKER
_DONE = _Stage.DONE
_ACTION = Phase.ACTION
_SHOW = Zone.SHOW

_PASS = Action("pass")
_STAND_ONLY = (Action("stand"),)
_HIT_OR_STAND = tuple(sort_actions([Action("hit"), Action("stand")]))
_SEVEN_ONLY = (Action("seven-and-a-half"),)
_BUST_ONLY = (Action("bust"),)


_HIT_BATCHES: dict[tuple[int, int], tuple[ChanceStep, ...]] = {}


def _hit_batch(position: int, seat: int) -> tuple[ChanceStep, ...]:
    """The chance batch of a hit: deck ``position`` face up into ``seat``'s hand; made once
    per position and seat, as the steps are."""
    batch = _HIT_BATCHES.get((position, seat))
    if batch is None:
        batch = _HIT_BATCHES[position, seat] = (hand_step(position, seat, True),)
    return batch


_SEAT_KEYS = tuple(str(s) for s in range(8))
"""Seat numbers as the text keys of a view's ``status``."""
_SEAT_TAGS = tuple(f"[{s}] " for s in range(8))
"""The start of a seat's line of the table."""

_Line = tuple[tuple[str, ...], tuple[str, ...], str, str, tuple[str, ...], int | None]
"""A dealt seat's line of the table: codes seen with the hole card, codes seen without it, the
text of each, and the seat's own ``hand`` and ``total`` (see :meth:`SetteMatch._line`)."""


def _own_total(hand: list[Card | None] | None) -> int | None:
    """A view's ``total``: the best total of its own ``hand``, ``None`` before the deal or while
    a card of it is unknown to the view."""
    if not hand:
        return None
    for c in hand:
        if c is None:
            return None
    return best_total(hand)  # type: ignore[arg-type]  # no None left


class SetteMatch(BankingMatch):
    """A Seven and a Half match (implements :class:`~p2pcards.games.base.MatchState`).

    Each dealt seat's hand is a list, hole card first, then hits in order; a live view holds
    ``None`` for a hole card it has not seen.
    """

    GAME = "sette-e-mezzo"
    PAYOUT_RATIO = 2
    VIEW_KEYS = ("bets", "bets_text", "cards", "table_text", "status", "hand", "total",
                 "cards_left")
    config: SetteConfig

    def __init__(self, config: SetteConfig) -> None:
        if not isinstance(config, SetteConfig):
            raise GameError(f"sette-e-mezzo needs a SetteConfig, got {type(config).__name__}")
        super().__init__(config)
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._stage = _LIMITS
        self._bet_queue: list[int] = []
        self._bets: dict[int, int] = {}
        self._betting_done: set[int] = set()
        self._cards: dict[int, list[Card | None]] = {}
        self._facts: dict[int, tuple[bool, bool]] = {}
        """Per seat whose cards this view knows, whether its hand is over 7½ and whether it is
        a two-card 7½ (:meth:`_hand_facts`); dropped whenever the seat's cards change."""
        self._status: dict[int, str] = {}
        self._shown: set[int] = set()
        self._order: list[int] = []
        self._turn = 0
        self._after_chance: str = ""
        self._lines: dict[int, _Line] = {}
        """Per dealt seat, its line of the table as views show it (see :meth:`_line`)."""
        self._stale: set[int] = set()
        """Seats whose cards, status or bet changed since their line was made: their lines,
        rows and texts are made again at the next view (:meth:`_refresh_lines`)."""
        self._lines_banker: int | None = None
        """The banker the kept lines were made with."""
        self._rows: list[tuple[str, ...]] = [()] * self._n
        """Per seat, its row of the views' ``cards`` as the seats that do not see its hidden
        hole card see it (``()`` for a seat not dealt in)."""
        self._texts: list[str] = [""] * self._n
        """Per seat, its part of ``table_text`` as those seats see it (``""``: not dealt in)."""
        self._table_text: str | None = None
        """``table_text`` of ``_texts``; ``None`` once a text changed."""
        self._bet_amounts: list[int] = [0] * self._n
        """The views' ``bets``: per seat, its bet (0 without one)."""
        self._bet_parts: list[str] = [""] * self._n
        """Per seat, its part of the views' ``bets_text`` (``""`` without a bet)."""
        self._bets_text: str | None = None
        """The views' ``bets_text``; ``None`` after a bet until a view makes it."""
        self._status_view: dict[str, str] | None = None
        """The ``status`` of the views (never handed out: copied); dropped at every status."""

    def _set_status(self, seat: int, status: str) -> None:
        """``seat``'s status becomes ``status``; what the views kept of it is dropped."""
        self._status[seat] = status
        self._status_view = None
        self._drop_line(seat)

    def _drop_line(self, seat: int) -> None:
        """``seat``'s cards, status or bet changed: its line is made again at the next view."""
        self._stale.add(seat)
    # ------------------------------------------------------------------ queries

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """``seat``'s cards this hand, hole card first (``None``: hidden from this view)."""
        self._check_seat(seat)
        return tuple(self._cards.get(seat, []))

    @property
    def bets(self) -> dict[int, int]:
        """The bet of each punter in the hand."""
        return dict(self._bets)

    def status(self, seat: int) -> str:
        """``playing``, ``stood``, ``bust``, ``two-card 7½``, or ``""`` (not dealt in)."""
        return self._status.get(seat, "")

    def legal_action_bound(self) -> int:
        """At most every chip at the table, ``chips`` times the seats (payments only move
        chips), is in the banker's balance: a limit is announced from 1 to half of it (what
        the bank can pay at 2 to 1), a bet is at most that and may be passed, and the other
        decisions offer two actions."""
        return self.config.chips * self.config.players // self.PAYOUT_RATIO + 1

    def _known(self, seat: int) -> list[Card] | None:
        """``seat``'s cards, or ``None`` if this view misses one (its hole card)."""
        hand = self._cards.get(seat)
        if hand is None:
            return []
        for c in hand:
            if c is None:
                return None
        return list(hand)  # type: ignore[arg-type]  # no None left

    def _hand_facts(self, seat: int) -> tuple[bool, bool] | None:
        """Whether ``seat``'s hand is over 7½ and whether it is a two-card 7½, or ``None`` if
        this view misses one of its cards. Kept per seat until its cards change."""
        facts = self._facts.get(seat)
        if facts is None:
            cards = self._known(seat)
            if cards is None:
                return None
            facts = self._facts[seat] = (min_total(cards) > TARGET, two_card_seven(cards))
        return facts

    def _bank_free(self) -> int:
        """Chips of bet the bank can still cover (each may be paid 2 to 1)."""
        assert self._banker is not None
        free = self._ledger.balances[self._banker] - 2 * sum(self._bets.values())
        return max(0, free // 2)

    # ------------------------------------------------------------------ flow

    def _start_deal(self) -> None:
        assert self._banker is not None
        self._stage = _BETS
        self._bet_queue = [s for k in range(1, self._n)
                           if self._ledger.balances[s := (self._banker + k) % self._n] > 0]
        self._next_bettor()

    def _next_bettor(self) -> None:
        if self._bet_queue:
            self._act(self._bet_queue.pop(0))
            return
        assert self._banker is not None
        if not self._bets:
            self._stage = _DONE
            self._finish_hand(self._banker)
            return
        self._order = [s for k in range(1, self._n)
                       if (s := (self._banker + k) % self._n) in self._bets]
        steps = []
        for seat in [*self._order, self._banker]:
            steps.append(hand_step(self._take_position(), seat, False))
            self._cards[seat] = []
            self._facts.pop(seat, None)
            self._set_status(seat, _Status.PLAYING)
        self._stage = _PUNTERS
        self._turn = 0
        self._after_chance = "deal"
        self._request(tuple(steps))

    def _show_hole(self, seats: list[int], then: str) -> None:
        self._after_chance = then
        self._request(tuple([show_step(s) for s in seats]))

    def _next_punter(self) -> None:
        while self._turn < len(self._order):
            seat = self._order[self._turn]
            if self._status[seat] == _Status.PLAYING:
                self._act(seat)
                return
            self._turn += 1
        assert self._banker is not None
        standing = [s for s in self._order if self._status[s] in (_Status.STOOD, _Status.SEVEN)]
        if standing:
            self._stage = _BANKER
            self._show_hole([self._banker], "banker")
            return
        self._final_reveal()

    def _final_reveal(self) -> None:
        assert self._banker is not None
        self._stage = _DONE
        hidden = [s for s in [*self._order, self._banker] if s not in self._shown]
        if hidden:
            self._show_hole(hidden, "settle")
            return
        self._settle()

    def _check_shown(self, step: ChanceStep, c: Card) -> None:
        assert step.seat is not None
        hand = self._cards.get(step.seat, [])
        if step.position != 0 or not hand:
            raise BadChance(f"only a hole card (hand index 0) is shown in sette-e-mezzo, not "
                            f"index {step.position} of seat {step.seat}")
        hole = hand[0]
        if hole is not None and hole is not c and hole != c:
            raise BadChance(f"seat {step.seat} was dealt {hole.code}, not {c.code}")
        if hole is None and self._was_dealt(c):
            raise BadChance(f"{c.code} shown as seat {step.seat}'s hole card was dealt elsewhere")

    def _on_chance(self, steps: tuple[ChanceStep, ...], cards: list[Card | None]) -> None:
        facts = self._facts
        stale = self._stale
        for step, c in zip(steps, cards, strict=True):
            seat = step.seat
            assert seat is not None
            if step.zone is _SHOW:
                self._cards[seat][0] = c
                self._shown.add(seat)
            else:
                self._cards[seat].append(c)
            facts.pop(seat, None)
            stale.add(seat)
        then = self._after_chance
        self._after_chance = ""
        if then == "deal":
            self._next_punter()
        elif then == "hit":
            self._act(self._order[self._turn])
        elif then == "punter-shown":
            self._turn += 1
            self._next_punter()
        elif then == "banker":
            self._banker_turn()
        elif then == "settle":
            self._settle()
        else:  # pragma: no cover - every request names what follows
            raise AssertionError(then)

    def _banker_turn(self) -> None:
        assert self._banker is not None
        facts = self._hand_facts(self._banker)
        assert facts is not None  # the banker's hole card is public now
        if facts[0]:
            self._set_status(self._banker, _Status.BUST)
            self._final_reveal()
        elif facts[1]:
            self._set_status(self._banker, _Status.SEVEN)
            self._final_reveal()
        else:
            self._act(self._banker)

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of ``to_act`` (its hand must be known in this view)."""
        if self._phase is not _ACTION:
            self._need(Phase.ACTION, "legal_actions")
        seat = self._to_act
        if self._maximum is None:
            return self._limit_actions()
        if self._stage is _BETS:
            low, high = self._bet_range(seat, 0, self._bank_free())
            actions = amount_list("bet", low, high)
            actions.append(_PASS)
            return actions
        facts = self._hand_facts(seat)
        if facts is None:
            raise UnknownHand(f"seat {seat}'s hole card is unknown in this view")
        free_play = _HIT_OR_STAND if self._next_pos < self._deck_size else _STAND_ONLY
        if seat == self._banker:
            return list(free_play)
        if facts[1]:
            return list(_SEVEN_ONLY)
        if facts[0]:
            return list(_BUST_ONLY)
        return list(free_play)

    def apply(self, action: Action) -> None:
        """Apply ``to_act``'s action or raise :class:`IllegalMove` (state unchanged)."""
        if self._phase is not _ACTION:
            self._need(Phase.ACTION, "apply")
        seat = self._to_act
        check_plain(action, seat, self.GAME)
        if self._maximum is None:
            self._apply_limit(action, seat)
            return
        if self._stage is _BETS:
            self._apply_bet(action, seat)
            return
        if action.value or action.amount:
            raise IllegalMove("malformed-action", f"{action.kind} takes no value or amount", seat)
        if seat == self._banker:
            self._apply_banker(action, seat)
        else:
            self._apply_punter(action, seat)

    def _apply_bet(self, action: Action, seat: int) -> None:
        if action.kind == "pass":
            if action.value or action.amount:
                raise IllegalMove("malformed-action", "pass takes no value or amount", seat)
            self._next_bettor()
            return
        if action.kind != "bet":
            raise IllegalMove("bet-or-pass", f"seat {seat} must bet or pass now, not "
                              f"{action.kind!r}", seat)
        if action.value:
            raise IllegalMove("malformed-action", "a bet names only an amount", seat)
        self._check_bet(action, seat, 0, self._bank_free())
        amount = action.amount
        self._bets[seat] = amount
        self._bet_amounts[seat] = amount
        self._bet_parts[seat] = f"[{seat}] {amount}"
        self._bets_text = None
        self._drop_line(seat)
        self._next_bettor()

    def _hit(self, seat: int) -> None:
        if self._next_pos >= self._deck_size:
            raise IllegalMove("deck-empty", "the deck is exhausted: nobody can hit", seat)
        self._after_chance = "hit" if seat != self._banker else "banker"
        self._request(_hit_batch(self._take_position(), seat))

    def _apply_punter(self, action: Action, seat: int) -> None:
        hand = self._cards[seat]
        facts = self._hand_facts(seat)
        known = facts is not None
        if facts is not None:
            bust, seven = facts
        else:  # live view of another seat: only what the face-up cards prove
            bust = min_total([c for c in hand[1:] if c is not None]) + 1 > TARGET
            seven = False
        kind = action.kind
        if kind in ("hit", "stand"):
            if bust:
                raise IllegalMove("must-bust", f"seat {seat} is over 7½ and must declare bust",
                                  seat)
            if seven:
                raise IllegalMove("must-show-seven", f"seat {seat} holds a two-card 7½ and "
                                  "must show it", seat)
            if kind == "hit":
                self._hit(seat)
            else:
                self._set_status(seat, _Status.STOOD)
                self._turn += 1
                self._next_punter()
            return
        if kind == "bust":
            if known and not bust:
                raise IllegalMove("not-bust", f"seat {seat} is not over 7½", seat)
            if len(hand) < 2:
                raise IllegalMove("not-bust", "one card cannot be over 7½", seat)
            assert self._banker is not None
            self._set_status(seat, _Status.BUST)
            self._pay(seat, self._banker, self._bets[seat], "bust")
            self._show_hole([seat], "punter-shown")
            return
        if kind == "seven-and-a-half":
            if len(hand) != 2 or (known and not seven):
                raise IllegalMove("not-seven", f"seat {seat} does not hold a two-card 7½", seat)
            public = [c for c in hand[1:] if c is not None]
            face = public[0] if public else None
            if face is not None and not known and not (face.rank >= 7):
                raise IllegalMove("not-seven", f"{face.code} cannot make a two-card 7½", seat)
            self._set_status(seat, _Status.SEVEN)
            self._show_hole([seat], "punter-shown")
            return
        raise IllegalMove("unknown-action", f"seat {seat} may hit, stand, bust or show a "
                          f"two-card 7½, not {kind!r}", seat)

    def _apply_banker(self, action: Action, seat: int) -> None:
        if action.kind == "hit":
            self._hit(seat)
        elif action.kind == "stand":
            self._set_status(seat, _Status.STOOD)
            self._final_reveal()
        else:
            raise IllegalMove("unknown-action", f"the banker may hit or stand, not "
                              f"{action.kind!r}", seat)

    # ------------------------------------------------------------------ settlement

    def _settle(self) -> None:
        assert self._banker is not None
        bank = self._banker
        banker_cards = self._known(bank)
        assert banker_cards is not None
        b_total = best_total(banker_cards)
        b_bust = min_total(banker_cards) > TARGET
        b_seven = len(banker_cards) == 2 and b_total == TARGET  # two_card_seven
        losses: list[tuple[int, int, str]] = []
        wins: list[tuple[int, int, str]] = []
        for seat in self._order:
            cards = self._known(seat)
            assert cards is not None
            bet = self._bets[seat]
            if self._status[seat] == _Status.BUST or min_total(cards) > TARGET:
                continue  # collected when the punter busted
            total = best_total(cards)
            if len(cards) == 2 and total == TARGET:  # a two-card 7½
                if not b_seven:
                    wins.append((seat, 2 * bet, "two-card 7½ paid 2:1"))
            elif b_seven:
                losses.append((seat, bet, "banker's two-card 7½"))
            elif b_bust:
                wins.append((seat, bet, "banker bust"))
            elif total > b_total:
                wins.append((seat, bet, "higher"))
            elif total < b_total:
                losses.append((seat, bet, "lower"))
        for seat, amount, why in losses:
            self._pay(seat, bank, amount, why)
        for seat, amount, why in wins:
            self._pay(bank, seat, amount, why)
        nxt = bank
        if not b_seven:
            for seat in self._order:
                cards = self._known(seat)
                if cards is not None and two_card_seven(cards):
                    nxt = seat
                    break
        if not self._can_bank(nxt):
            nxt = self._pass_bank_from(nxt)
        self._finish_hand(nxt)

    def _stakes(self) -> tuple[int | None, ...]:
        return tuple(self._bets.get(s) for s in range(self._n))

    def _extra_lines(self) -> tuple[ScoreLine, ...]:
        zeros = (0,) * self._n
        totals: list[int | None] = []
        sevens: list[int | None] = []
        for s in range(self._n):
            cards = self._known(s) if s in self._cards else None
            if cards is None:
                totals.append(None)
                sevens.append(None)
                continue
            total = best_total(cards)  # once: a two-card 7½ is two cards totalling 15
            totals.append(total)
            sevens.append(int(len(cards) == 2 and total == TARGET))
        return (ScoreLine("total (half-points)", tuple(totals), zeros),
                ScoreLine("two-card 7½", tuple(sevens), zeros))

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: the keys of :meth:`.BankingMatch._common_view` plus ``bets``
        (per seat, 0 without a bet), ``bets_text``, ``cards`` (per seat, ``??`` for a hole card
        this seat has not seen), ``table_text``, ``status`` (seat number as text -> status, for
        the seats dealt in), ``hand`` (own cards,
        hole first), ``total`` (own best total in half-points, ``None`` before the deal) and
        ``cards_left``."""
        view = self._common_view(seat)
        if self._lines_banker != self._banker:
            self._stale.update(self._cards)
            self._lines_banker = self._banker
        if self._stale:
            self._refresh_lines()
        bets_text = self._bets_text
        if bets_text is None:
            bets_text = self._bets_text = "  ".join(filter(None, self._bet_parts)) or "—"
        statuses = self._status_view
        if statuses is None:
            statuses = self._status_view = {_SEAT_KEYS[s]: self._status[s]
                                            for s in sorted(self._status)}
        view["bets"] = self._bet_amounts.copy()
        view["bets_text"] = bets_text
        cards = list(map(list, self._rows))
        text = self._table_text
        if text is None:
            text = self._table_text = "   ".join(filter(None, self._texts)) or "—"
        if seat in self._cards:
            line = self._lines[seat]
            if seat not in self._shown:  # its own hole card, hidden from the others
                cards[seat] = list(line[0])
                texts = self._texts.copy()
                texts[seat] = line[2]
                text = "   ".join(filter(None, texts))
            view["hand"] = list(line[4])
            view["total"] = line[5]
        else:
            view["hand"] = []
            view["total"] = None
        view["cards"] = cards
        view["table_text"] = text
        view["status"] = statuses.copy()
        view["cards_left"] = self._deck_size - self._next_pos
        return view

    def _refresh_lines(self) -> None:
        """Make the lines, rows and texts of the seats that changed since the last view."""
        dealt = self._cards
        lines = self._lines
        rows = self._rows
        texts = self._texts
        for s in self._stale:
            if s not in dealt:
                lines.pop(s, None)
                rows[s] = ()
                texts[s] = ""
                continue
            line = lines[s] = self._line(s)
            shown = s in self._shown
            rows[s] = line[0] if shown else line[1]
            texts[s] = line[2] if shown else line[3]
        self._stale = set()
        self._table_text = None

    def _line(self, seat: int) -> _Line:
        """Dealt ``seat``'s line of the table: its card codes (``??`` for a hole card this view
        has not seen) and its text, once as a seat that sees the hole card (its owner, or anyone
        once shown) and once as the others (the first code ``??``); then the seat's own view of
        its hand (the codes it knows) and its ``total``."""
        cards = self._cards[seat]
        codes = tuple(["??" if c is None else c.code for c in cards])
        hidden = ("??", *codes[1:]) if codes else codes
        label = "bank" if seat == self._banker else f"bet {self._bets.get(seat, 0)}"
        tail = f" ({label}, {self._status.get(seat, '')})"
        tag = _SEAT_TAGS[seat]
        known = codes if "??" not in codes else tuple([c.code for c in cards if c is not None])
        return (codes, hidden, tag + " ".join(codes) + tail, tag + " ".join(hidden) + tail,
                known, _own_total(cards))

    def hand_card(self, seat: int, position: int) -> Card:
        """The card at ``position`` of ``seat``'s own ``hand`` as its observation lists it (the
        cards this view knows, hole card first), read from the hand itself: what a shown
        card's chance step shows, without building the seat's whole observation.
        :class:`IndexError` past the end, as the observation's list gives."""
        if not (isinstance(seat, int) and 0 <= seat < self._n):
            self._check_seat(seat)
        hand: list[Card] | None = self._known(seat)
        if hand is None:  # a hole card hidden from this view is not in its own ``hand``
            hand = [c for c in self._cards[seat] if c is not None]
        return hand[position]

    def copy(self) -> SetteMatch:
        other = super().copy()
        assert isinstance(other, SetteMatch)
        return other


SPEC = GameSpec(
    name="sette-e-mezzo",
    title="Seven and a Half: a banking game, beat the bank without going over 7½",
    rules_source="italian-card-games.txt",
    player_counts=(2, 3, 4, 5, 6, 7, 8),
    config_class=SetteConfig,
    presets={
        "classic": {"chips": 100, "hands": 3, "until_broke": True},
        "long": {"chips": 200, "hands": 24, "until_broke": False},
    },
    preset_docs={
        "classic": "100 chips each, 3 hands, the match ends as soon as a seat is broke",
        "long": "200 chips each, 24 hands, broke seats sit out",
    },
    factory=SetteMatch,
    flags=flags_of(SetteConfig),
    default_preset="classic",
    legend="suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K re; "
    "J Q K are worth ½, KD is wild (1 to 7); ?? a hole card you cannot see",
    screen=(("bank", "bank"), ("limits_text", "limits"), ("chips", "chips"),
            ("bets_text", "bets"), ("table_text", "table"), ("total", "your total"),
            ("cards_left", "cards left")),
)

SPECS = (SPEC,)
