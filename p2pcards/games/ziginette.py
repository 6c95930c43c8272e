"""Ziginette, 2 to 8 players: one banker against the punters, every card face up.

Rule text: the Ziginette part of ``italian-card-games.txt``. Shared banking rules (the draw for
the first banker, limits, the ledger, match end): :mod:`.banking`. Every card is dealt face up, so
nothing is hidden from anyone; the mental-poker deck is what makes the order fair: nobody, the
banker included, can know or steer the next card. Rules as implemented:

Seats
    Seats play in order 0, 1, 2, ...; the punters bet in order from the seat after the banker. The
    text's "the player on the losing banker's right" is, in the counter-clockwise order of the
    Italian texts, the next seat: ``banker + 1`` (skipping seats that cannot hold the bank).

A hand
    1. The banker sends ``minimum`` and ``maximum`` (see :mod:`.banking`; the cap is the bank's
       balance).
    2. One chance batch turns up three cards for everyone: two board cards (the next two deck
       positions, ``Zone.TABLE``, no seat) and the banker's card (the third, ``Zone.TABLE``,
       ``seat`` = banker). If two of the three have the same rank (a *playette*), the hand is
       redealt: the deck is shuffled again (``Phase.SHUFFLE``) and the three cards dealt afresh
       from position 0 of the new deck; the limits stand.
    3. A betting round: each punter with chips, in order, sends any number of ``bet`` actions
       (``value`` = the code of a board card, ``amount``) and then ``done``. A seat bets at most
       once on each board card (and never again on it after it is matched). A bet must be within
       the limits, covered by the punter's free chips (balance minus its bets still on the board)
       and by the bank's free chips (balance minus every bet still on the board).
    4. If no bet is on the board after a betting round, the hand ends (step 5). Otherwise the next
       deck position is turned face up (``Zone.TABLE``, no seat):

       - the banker's rank: the bank pays every bet on the board at even money and the hand
         ends; the bank passes to the next seat;
       - the rank of a board card: the bank collects every bet on that card, the card leaves the
         board and its rank is dead. If the board is empty the hand ends (step 5); if bets remain
         the next card is turned; otherwise a betting round follows (step 3);
       - a dead rank: discarded; the next card is turned;
       - a new rank: it becomes a board card and a betting round follows (step 3).
    5. The banker sends ``deal-again`` (keeps the bank; new limits in the next hand) or
       ``pass-bank`` (the next seat banks).

    Three cards of the banker's rank stay in the deck until one is turned, so the deck never runs
    out before the hand ends.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..cards import Card, card
from .banking import BankingConfig, BankingMatch, amount_list, check_plain, table_step
from .base import (
    Action,
    ChanceStep,
    GameError,
    GameSpec,
    IllegalMove,
    Phase,
    ScoreLine,
    flags_of,
    sort_actions,
)

__all__ = ["ZiginetteConfig", "ZiginetteMatch", "SPECS"]

_RANK_NAMES = {1: "A", 8: "J", 9: "Q", 10: "K"}
_SEAT_KEYS = tuple(str(s) for s in range(8))
"""Seat numbers as the text keys of a board card's bets in a view."""
_DONE = Action("done")
_CHOICES = tuple(sort_actions([Action("deal-again"), Action("pass-bank")]))


def _card_order(c: Card) -> tuple[int, str, int]:
    """The order of :class:`Card` (rank, suit, copy) as a plain key."""
    return (c.rank, c.suit, c.copy)


def _rank(rank: int) -> str:
    return _RANK_NAMES.get(rank, str(rank))


_CardLine = tuple[dict[int, int], int, dict[str, int], str]
"""A board card's part of the views: the bets it was made from and their number, the bets with
the seats as text keys in seat order (never handed out: copied), and the card's text."""
_BoardView = tuple[tuple[tuple[str, dict[str, int], dict[int, int]], ...], str]
"""See :meth:`ZiginetteMatch._make_board_view`."""
_DeadView = tuple[tuple[int, ...], str, tuple[str, ...]]
"""See :meth:`ZiginetteMatch._make_dead_view`."""


def _card_line(code: str, bets: dict[int, int]) -> _CardLine:
    """The part of the views of the board card ``code`` holding ``bets`` (seat -> amount). A
    card's bets only grow during a hand (a seat bets once on a card) and are a new map at the
    next deal, so the same map of the same size holds the same bets: the line is kept while
    both hold."""
    placed = sorted(bets.items())
    text = " ".join([f"[{s}] {a}" for s, a in placed])
    return (bets, len(bets), {_SEAT_KEYS[s]: a for s, a in placed},
            f"{code}: {text or 'no bets'}")


@dataclass(frozen=True)
class ZiginetteConfig(BankingConfig):
    """The variant of a Ziginette match (flags of :class:`.BankingConfig`)."""

    GAME = "ziginette"


_TURN_BATCHES: tuple[tuple[ChanceStep, ...], ...] = tuple(
    (table_step(position, None),) for position in range(40))
"""Per deck position, the chance batch turning it up alone: made once, as the steps are."""
_DEAL_BATCHES: dict[tuple[int, int], tuple[ChanceStep, ...]] = {}


def _deal_batch(first: int, banker: int) -> tuple[ChanceStep, ...]:
    """The chance batch of a deal from deck position ``first``: two board cards, then the
    banker's card in front of ``banker``; made once per position and banker."""
    batch = _DEAL_BATCHES.get((first, banker))
    if batch is None:
        batch = _DEAL_BATCHES[first, banker] = (
            table_step(first, None), table_step(first + 1, None), table_step(first + 2, banker))
    return batch


class _Stage(enum.Enum):
    LIMITS = "limits"
    DEAL = "deal"
    BETTING = "betting"
    TURNING = "turning"
    CHOICE = "choice"
    DONE = "done"


_LIMITS = _Stage.LIMITS
_DEAL = _Stage.DEAL
_BETTING = _Stage.BETTING
_TURNING = _Stage.TURNING
_CHOICE = _Stage.CHOICE
_DONE_STAGE = _Stage.DONE
_ACTION = Phase.ACTION
_CHANCE = Phase.CHANCE


class ZiginetteMatch(BankingMatch):
    """A Ziginette match (implements :class:`~p2pcards.games.base.MatchState`)."""

    GAME = "ziginette"
    PAYOUT_RATIO = 1
    VIEW_KEYS = ("board", "board_text", "banker_card", "dead", "dead_text", "matched", "turned",
                 "stakes", "playettes", "event", "hand", "cards_left")
    config: ZiginetteConfig

    def __init__(self, config: ZiginetteConfig) -> None:
        if not isinstance(config, ZiginetteConfig):
            raise GameError(f"ziginette needs a ZiginetteConfig, got {type(config).__name__}")
        super().__init__(config)
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._stage = _LIMITS
        self._board: list[Card] = []
        self._board_bets: dict[str, dict[int, int]] = {}
        """Per board card's code, in board order, its bets (seat -> amount): keyed by the code
        a ``bet`` names, so a bet finds its card without making or hashing a card."""
        self._banker_card: Card | None = None
        self._dead: set[int] = set()
        self._matched: list[Card] = []
        """The board cards matched this deal (each leaves the board, so never twice)."""
        self._bet_queue: list[int] = []
        self._staked: dict[int, int] = {}
        self._clear_open_bets()
        self._turned: list[Card] = []
        self._turned_codes: list[str] = []
        """The codes of ``_turned``, kept beside it for the views."""
        self._playettes = 0
        self._last_event = ""
        self._card_lines: dict[str, _CardLine] = {}
        """Per board card code, its part of the views (see :meth:`_card_line`)."""
        self._board_view: _BoardView | None = None
        """The views' board (see :meth:`_make_board_view`); dropped whenever the board or a bet
        on it changes."""
        self._dead_view: _DeadView | None = None
        """The views' dead ranks and matched cards (see :meth:`_make_dead_view`); dropped when
        a rank dies."""
        self._stake_amounts: list[int] = [0] * self._n
        """The views' ``stakes``: per seat, the chips it staked this hand."""

    # ------------------------------------------------------------------ queries

    @property
    def board(self) -> tuple[Card, ...]:
        """The board cards open to bets, in the order they were dealt."""
        return tuple(self._board)

    @property
    def banker_card(self) -> Card | None:
        return self._banker_card

    def bets_on(self, board_card: Card) -> dict[int, int]:
        """The bets on a board card, seat -> amount."""
        bets = self._board_bets.get(board_card.code) if isinstance(board_card, Card) else None
        return {} if bets is None else dict(bets)

    @property
    def playettes(self) -> int:
        """Redeals of the current hand because of a pair among the first three cards."""
        return self._playettes

    def _committed(self, seat: int) -> int:
        """Chips of ``seat``'s bets still on the board."""
        return self._open_by_seat.get(seat, 0)

    def _live_total(self) -> int:
        """Chips of every bet still on the board."""
        return self._open_total

    def _clear_open_bets(self) -> None:
        """No bet is on the board any more: the running totals of :meth:`_committed` and
        :meth:`_live_total` start again (kept beside ``_board_bets`` and changed with it)."""
        self._open_by_seat: dict[int, int] = {}
        self._open_total = 0

    def _take_off_board(self, bets: dict[int, int]) -> None:
        """Settled ``bets`` (seat -> amount) leave the board's running totals."""
        for seat, amount in bets.items():
            self._open_by_seat[seat] -= amount
            self._open_total -= amount

    def _bank_free(self) -> int:
        assert self._banker is not None
        return max(0, self._ledger.balances[self._banker] - self._live_total())

    # ------------------------------------------------------------------ flow

    def _start_deal(self) -> None:
        assert self._banker is not None
        self._stage = _DEAL
        first = self._next_pos
        self._next_pos = first + 3
        self._request(_deal_batch(first, self._banker))

    def _betting_round(self) -> None:
        assert self._banker is not None
        self._stage = _BETTING
        self._bet_queue = [s for k in range(1, self._n)
                           if self._ledger.balances[s := (self._banker + k) % self._n] > 0]
        self._next_bettor()

    def _next_bettor(self) -> None:
        if self._bet_queue:
            self._act(self._bet_queue[0])
            return
        if self._live_total() == 0:
            self._choice("no bets on the board")
            return
        self._turn_card()

    def _turn_card(self) -> None:
        if self._next_pos >= self._deck_size:  # pragma: no cover - the banker's rank is left
            self._choice("the deck ran out")
            return
        self._stage = _TURNING
        position = self._next_pos
        self._next_pos = position + 1
        self._pending = _TURN_BATCHES[position]
        self._phase = _CHANCE

    def _choice(self, why: str) -> None:
        assert self._banker is not None
        self._stage = _CHOICE
        self._last_event = f"hand over: {why}; the banker deals again or passes the bank"
        self._act(self._banker)

    def _on_chance(self, steps: tuple[ChanceStep, ...], cards: list[Card | None]) -> None:
        if self._stage is _DEAL:
            self._on_deal(cards)
            return
        new = cards[0]
        assert new is not None and len(cards) == 1  # one public card turned at a time
        self._turned.append(new)
        self._turned_codes.append(new.code)
        rank = new.rank
        banker_card = self._banker_card
        assert banker_card is not None
        if rank == banker_card.rank:
            self._bank_pays(new)
            return
        for board_card in self._board:
            if board_card.rank == rank:
                self._bank_collects(board_card, new)
                return
        if rank in self._dead:
            self._last_event = f"{new.code} is dead"
            self._turn_card()
            return
        self._board.append(new)
        self._board_bets[new.code] = {}
        self._board_view = None
        self._last_event = f"{new.code} is a new board card"
        self._betting_round()

    def _on_deal(self, cards: list[Card | None]) -> None:
        """The two board cards and the banker's card are turned: a playette (two of one rank)
        deals again, otherwise the first betting round starts."""
        known = [c for c in cards if c is not None]
        assert len(known) == len(cards)  # every Ziginette card is public
        if len({c.rank for c in known}) < 3:
            self._playettes += 1
            self._last_event = (f"playette ({' '.join(c.code for c in known)}): "
                                "the cards are shuffled and dealt again")
            self._stage = _LIMITS
            self._phase = Phase.SHUFFLE
            return
        self._board = known[:2]
        self._board_bets = {c.code: {} for c in self._board}
        self._board_view = None
        self._clear_open_bets()
        self._banker_card = known[2]
        self._turned = list(known)
        self._turned_codes = [c.code for c in known]
        self._last_event = ""
        self._betting_round()

    def _bank_pays(self, new: Card) -> None:
        """``new`` has the banker's rank: the bank pays every bet on the board, the hand ends."""
        banker = self._banker
        assert banker is not None
        for code, bets in self._board_bets.items():
            for seat, amount in sorted(bets.items()):
                self._pay(banker, seat, amount, f"banker matched: paid on {code}")
        self._board_bets = {c.code: {} for c in self._board}
        self._board_view = None
        self._clear_open_bets()
        self._last_event = f"{new.code} matches the banker's card: the bank pays every bet"
        self._stage = _DONE_STAGE
        self._finish_hand(self._pass_bank_from(banker))

    def _bank_collects(self, match: Card, new: Card) -> None:
        """``new`` has the rank of the board card ``match``: the bank collects its bets, it
        leaves the board and its rank dies."""
        banker = self._banker
        assert banker is not None
        code = match.code
        bets = self._board_bets.pop(code)
        for seat, amount in sorted(bets.items()):
            self._pay(seat, banker, amount, f"{code} matched")
        self._board.remove(match)
        self._take_off_board(bets)
        self._board_view = None
        self._matched.append(match)
        self._dead.add(new.rank)
        self._dead_view = None
        self._last_event = f"{new.code} matches {code}: the bank collects its bets"
        if not self._board:
            self._choice("every board card is matched")
        elif self._open_total == 0:
            self._betting_round()
        else:
            self._turn_card()

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of ``to_act``."""
        if self._phase is not _ACTION:
            self._need(Phase.ACTION, "legal_actions")
        seat = self._to_act
        if self._maximum is None:
            return self._limit_actions()
        if self._stage is _CHOICE:
            return list(_CHOICES)
        out: list[Action] = []
        assert self._banker is not None
        bank_free = max(0, self._ledger.balances[self._banker] - self._open_total)
        low, high = self._bet_range(seat, self._open_by_seat.get(seat, 0), bank_free)
        if low <= high:
            # the sorted order: bets by board card code, then amount; ``done`` after them
            open_codes = sorted([code for code, bets in self._board_bets.items()
                                 if seat not in bets])
            for code in open_codes:
                out += amount_list("bet", low, high, code)
        out.append(_DONE)
        return out

    def apply(self, action: Action) -> None:
        """Apply ``to_act``'s action or raise :class:`IllegalMove` (state unchanged)."""
        if self._phase is not _ACTION:
            self._need(Phase.ACTION, "apply")
        seat = self._to_act
        check_plain(action, seat, self.GAME)
        if self._maximum is None:
            self._apply_limit(action, seat)
            return
        if self._stage is _CHOICE:
            if action.value or action.amount:
                raise IllegalMove("malformed-action", f"{action.kind} takes no value or amount",
                                  seat)
            if action.kind == "deal-again":
                nxt = seat
            elif action.kind == "pass-bank":
                nxt = self._pass_bank_from(seat)
            else:
                raise IllegalMove("deal-again-or-pass", f"the banker must deal again or pass "
                                  f"the bank, not {action.kind!r}", seat)
            self._stage = _DONE_STAGE
            self._finish_hand(nxt)
            return
        if action.kind == "done":
            if action.value or action.amount:
                raise IllegalMove("malformed-action", "done takes no value or amount", seat)
            self._bet_queue.pop(0)
            self._next_bettor()
            return
        if action.kind != "bet":
            raise IllegalMove("bet-or-done", f"seat {seat} may bet on a board card or be done, "
                              f"not {action.kind!r}", seat)
        code = action.value
        bets = self._board_bets.get(code) if type(code) is str else None
        if bets is None:
            code, bets = self._bets_named(code, seat)
        if seat in bets:
            raise IllegalMove("already-bet", f"seat {seat} already bet on {code}", seat)
        self._check_bet(action, seat, self._committed(seat), self._bank_free())
        amount = action.amount
        bets[seat] = amount
        self._board_view = None
        self._open_by_seat[seat] = self._open_by_seat.get(seat, 0) + amount
        self._open_total += amount
        self._staked[seat] = self._staked.get(seat, 0) + amount
        self._stake_amounts[seat] += amount

    def _bets_named(self, value: object, seat: int) -> tuple[str, dict[int, int]]:
        """The code and bets of the board card a ``bet``'s ``value`` names when it is not
        plainly one of the codes on the board; :class:`IllegalMove` (``not-on-board``) if it
        is no card code or no board card open to bets."""
        try:
            target = card(value)  # type: ignore[arg-type]  # anything else is not a code
        except ValueError:
            raise IllegalMove("not-on-board", f"{value!r} is not a card code", seat) from None
        bets = self._board_bets.get(target.code)
        if bets is None:
            raise IllegalMove("not-on-board", f"{target.code} is not a board card open to bets",
                              seat)
        return target.code, bets

    # ------------------------------------------------------------------ result

    def _stakes(self) -> tuple[int | None, ...]:
        return tuple(self._staked.get(s) for s in range(self._n))

    def _extra_lines(self) -> tuple[ScoreLine, ...]:
        zeros = (0,) * self._n
        banker_rank = self._banker_card.rank if self._banker_card is not None else None
        cards = tuple(len(self._turned) if s == self._banker else None for s in range(self._n))
        rank = tuple(banker_rank if s == self._banker else None for s in range(self._n))
        return (ScoreLine("banker's rank", rank, zeros), ScoreLine("cards turned", cards, zeros))

    # ------------------------------------------------------------------ views

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees (everything is public): the keys of
        :meth:`.BankingMatch._common_view` plus ``board`` (``{"card", "bets"}`` per board card,
        bets as ``{seat: amount}`` with text keys), ``board_text``, ``banker_card``, ``dead``
        (dead rank numbers) and ``dead_text``, ``matched`` (board cards taken), ``turned``
        (every card turned this deal), ``stakes`` per seat (0: none), ``playettes``, ``event``
        (the last thing that happened), ``hand`` (the board cards this seat has a bet on) and
        ``cards_left``."""
        view = self._common_view(seat)
        board_view = self._board_view
        if board_view is None:
            board_view = self._board_view = self._make_board_view()
        board = []
        hand = []
        for code, bets, placed in board_view[0]:
            board.append({"card": code, "bets": bets.copy()})
            if seat in placed:
                hand.append(code)
        dead = self._dead_view
        if dead is None:
            dead = self._dead_view = self._make_dead_view()
        banker_card = self._banker_card
        view["board"] = board
        view["board_text"] = board_view[1]
        view["banker_card"] = None if banker_card is None else banker_card.code
        view["dead"] = list(dead[0])
        view["dead_text"] = dead[1]
        view["matched"] = list(dead[2])
        view["turned"] = self._turned_codes.copy()
        view["stakes"] = self._stake_amounts.copy()
        view["playettes"] = self._playettes
        view["event"] = self._last_event or "—"
        view["hand"] = hand
        view["cards_left"] = self._deck_size - self._next_pos
        return view

    def _make_board_view(self) -> _BoardView:
        """Per board card in board order, its code, its bets with text keys (never handed out:
        copied) and its bets as placed (seat -> amount, read only for the seats); then the
        views' ``board_text``. Each card's part is kept while its bets stay the same (see
        :func:`_card_line`)."""
        lines = self._card_lines
        cards = []
        texts = []
        for code, bets in self._board_bets.items():  # keys in board order
            line = lines.get(code)
            if line is None or line[0] is not bets or line[1] != len(bets):
                line = lines[code] = _card_line(code, bets)
            cards.append((code, line[2], bets))
            texts.append(line[3])
        return tuple(cards), "   ".join(texts) or "—"

    def _make_dead_view(self) -> _DeadView:
        """The views' ``dead`` ranks (sorted), ``dead_text`` and ``matched`` codes (card
        order)."""
        dead = tuple(sorted(self._dead))
        return (dead, " ".join([_rank(r) for r in dead]) or "—",
                tuple([c.code for c in sorted(self._matched, key=_card_order)]))

    def hand_card(self, seat: int, position: int) -> Card:
        """The card at ``position`` of ``seat``'s ``hand`` as its observation lists it (the
        board cards it has a bet on, in board order), without building the observation.
        :class:`IndexError` past the end, as the observation's list gives."""
        if not (isinstance(seat, int) and 0 <= seat < self._n):
            self._check_seat(seat)
        placed = [code for code, bets in self._board_bets.items() if seat in bets]
        return card(placed[position])

    def copy(self) -> ZiginetteMatch:
        other = super().copy()
        assert isinstance(other, ZiginetteMatch)
        return other


SPEC = GameSpec(
    name="ziginette",
    title="Ziginette: a banking game, bet that your card is matched after the banker's",
    rules_source="italian-card-games.txt",
    player_counts=(2, 3, 4, 5, 6, 7, 8),
    config_class=ZiginetteConfig,
    presets={
        "classic": {"chips": 100, "hands": 2, "until_broke": True},
        "long": {"chips": 200, "hands": 20, "until_broke": False},
    },
    preset_docs={
        "classic": "100 chips each, 2 hands, the match ends as soon as a seat is broke",
        "long": "200 chips each, 20 hands, broke seats sit out",
    },
    factory=ZiginetteMatch,
    flags=flags_of(ZiginetteConfig),
    default_preset="classic",
    legend="suits: D denari, C coppe, S spade, B bastoni; A asso, J fante, Q cavallo, K re; "
    "a bet on a board card wins if the banker's rank comes first, loses if its own does",
    screen=(("bank", "bank"), ("limits_text", "limits"), ("chips", "chips"),
            ("banker_card", "banker's card"), ("board_text", "board and bets"),
            ("dead_text", "dead ranks"), ("event", "last"), ("cards_left", "cards left")),
)

SPECS = (SPEC,)
