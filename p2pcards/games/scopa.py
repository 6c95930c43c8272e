"""Scopa for 2, 3 or 4 players (4 = two partnerships, side = seat % 2; 3 = each for themselves).

Rules as implemented (``docs/games/scopa.md`` has the long form, presets and wire shapes):

- Deck: the Italian 40 (:data:`~p2pcards.cards.ITALIAN_40`); card values A=1 .. 7, J=8, Q=9, K=10.
- Hand ``h``: the first player is seat ``h % players`` (the dealer is the seat before it). Deal:
  deck positions 0.. go three at a time to each seat in playing order from the first player, then
  four face up to the table; every time all hands are empty and the stock is not, three more to
  each seat the same way (2 players: 6 rounds, 3 players: 4, 4 players: 3).
- Redeal (flag ``redeal_three_kings``): when three or four Kings open on the table the hand is
  thrown in and restarts: the phase goes back to SHUFFLE with the same hand number and first
  player, and the new deck's positions start again from 0.
- A play is ``Action("play", card=C, cards=T)``. ``T`` (sorted, no duplicates) is what ``C``
  captures from the table. If a table card has ``C``'s rank, ``C`` must take exactly one such card
  (the player chooses which). Otherwise ``C`` may take two or more table cards whose values add up
  to ``C``'s value; among several such sets the player chooses freely (``sum_choice="free"``) or
  must take one with the fewest cards (``sum_choice="fewest_cards"``). ``T=()`` trails ``C`` onto
  the table, legal only when ``C`` can capture nothing.
- A capture that leaves the table empty is a scopa (one point), except on the last play of the
  hand. When the hand ends, the table's leftover cards go to the side of the last seat that
  captured (never a scopa); if nobody captured during the hand they go to nobody.
- Scoring (see :mod:`p2pcards.games.scopa_scoring`): cards, denari, settebello, primiera, scope,
  then napola and rebello when their flags are on; ties per ``ties``; ``denari_needs_six``;
  ``primiera_needs_all_suits``; ``stop_at_target``.
- Match: to ``target`` (11, 21 or 31). After a hand, the one side with the highest score wins if
  that score reaches the target; a tie at the top plays on. With ``stop_at_target`` the hand's
  awards are counted one by one and the match ends at the first award that gives one side alone
  ``target`` or more.

Hidden information: everything that decides a capture is on the table, face up, and every played
card is shown, so every rule is checked at once even in a live view; the only hidden facts are the
other seats' hands, which a live view holds as ``None`` slots. A played card is accepted from a
``None`` slot unless this view already knows where that card is.

Flags (fields of :class:`ScopaConfig`): ``ties``, ``denari_needs_six``,
``primiera_needs_all_suits``, ``napola``, ``rebello``, ``sum_choice``, ``redeal_three_kings``,
``target``, ``stop_at_target``.
Presets: ``classic`` (scopa.txt, default), ``napola`` (scopa-napola-it.txt), ``italian`` (the
Scopa part of italian-card-games.txt, 2 players).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from ..cards import ITALIAN_40, Card, Deck, cards
from .base import (
    ALL_SEATS,
    Action,
    BadChance,
    BadSeat,
    ChanceStep,
    GameError,
    GameSpec,
    HandResult,
    IllegalMove,
    MatchProgress,
    Phase,
    UnknownFlag,
    UnknownHand,
    WrongPhase,
    Zone,
    flags_of,
)
from .scopa_config import PLAYER_COUNTS, ScopaConfig
from .scopa_scoring import leader_at_target, score_hand
from .tricks import action_card_order, all_known, index_in_hand

__all__ = [
    "BadChance",
    "BadSeat",
    "SPEC",
    "SPECS",
    "ScopaConfig",
    "ScopaMatch",
    "UnknownHand",
    "WrongPhase",
    "can_capture",
    "capture_options",
    "sum_combinations",
]

HAND_SIZE = 3
TABLE_START = 4
_MASK = (1 << 11) - 1  # subset sums above 10 never matter


def can_capture(table: Sequence[Card], rank: int) -> bool:
    """Whether a card of value ``rank`` captures something on ``table`` (an equal card, or a set
    of cards adding up to it)."""
    reach = 1
    for c in table:
        reach |= (reach << c.rank) & _MASK
    return bool(reach >> rank & 1)


def _card_order(c: Card) -> tuple[int, str, int]:
    """The order of :class:`Card` itself, as a plain tuple (faster to compare)."""
    return c.rank, c.suit, c.copy


def sum_combinations(table: Sequence[Card], rank: int) -> list[tuple[Card, ...]]:
    """Every set of two or more table cards adding up to ``rank``, each set sorted, when no table
    card equals ``rank`` (cards equal to ``rank`` are ignored here)."""
    pool = sorted((c for c in table if c.rank < rank), key=_card_order)
    out: list[tuple[Card, ...]] = []
    chosen: list[Card] = []

    def extend(start: int, remaining: int) -> None:
        for i in range(start, len(pool)):
            value = pool[i].rank
            if value > remaining:
                break
            chosen.append(pool[i])
            if value == remaining:
                out.append(tuple(chosen))
            else:
                extend(i + 1, remaining - value)
            chosen.pop()

    extend(0, rank)
    return out


def capture_options(table: Sequence[Card], played: Card, sum_choice: str) -> list[tuple[Card, ...]]:
    """The legal capture sets for ``played`` on ``table``: one single card per table card of the
    same rank if any; else the sum combinations (only the smallest ones with
    ``sum_choice="fewest_cards"``); ``[()]`` (trail) when nothing can be captured."""
    equal = [c for c in table if c.rank == played.rank]
    if equal:
        equal.sort(key=action_card_order)  # Card's own order, as plain tuples
        return [(c,) for c in equal]
    if not can_capture(table, played.rank):
        return [()]
    combos = sum_combinations(table, played.rank)
    if not combos:
        return [()]
    if sum_choice == "fewest_cards":
        fewest = min(len(c) for c in combos)
        combos = [c for c in combos if len(c) == fewest]
    return combos


_PLAYS: dict[tuple[str, ...], Action] = {}
"""Play actions by the codes of their card and capture set: actions are immutable, so every
state lists the same objects (at most one per card and capture set of the deck)."""
_DECK_IDS = frozenset(map(id, ITALIAN_40.cards))


def _play(c: Card, capture: tuple[Card, ...]) -> Action:
    """``Action("play", c, capture)``, the one object every state lists for it."""
    key = (c.code, *[x.code for x in capture])
    action = _PLAYS.get(key)
    if action is None:
        action = _PLAYS[key] = Action("play", c, capture)
    return action


_TRAILS: dict[str, Action] = {}
"""Trailing plays by the code of their card (the commonest play, looked up without a key)."""


def _trail(c: Card) -> Action:
    """``Action("play", c)``, the one object every state lists for it."""
    action = _TRAILS.get(c.code)
    if action is None:
        action = _TRAILS[c.code] = _play(c, ())
    return action


def _plays_on(table: Sequence[Card], hand: Sequence[Card], sum_choice: str) -> list[Action]:
    """Every play of ``hand`` on ``table`` in :class:`Action` order: for each card of the hand
    in card order, its :func:`capture_options` (which come out sorted). The table's ranks and
    subset sums are worked out once for the whole hand instead of once per card."""
    present = 0  # bit r: a table card of rank r
    reach = 1  # bit v: some set of table cards adds up to v
    for t in table:
        present |= 1 << t.rank
        reach |= (reach << t.rank) & _MASK
    out: list[Action] = []
    for c in sorted(hand, key=action_card_order):
        rank = c.rank
        if present >> rank & 1:
            equal = [t for t in table if t.rank == rank]
            equal.sort(key=action_card_order)
            out += [_play(c, (t,)) for t in equal]
        elif reach >> rank & 1:
            out += [_play(c, capture) for capture in capture_options(table, c, sum_choice)]
        else:
            out.append(_trail(c))
    return out


_DEALS: dict[tuple[int, int, int], tuple[ChanceStep, ...]] = {}
"""Deal steps by (players, first player, first deck position): immutable, made once."""


_code = attrgetter("code")
"""A card's code, read in C (for ``map`` over hands and the table)."""


def _codes(items: Sequence[Card]) -> str:
    return " ".join(c.code for c in items)


def _parse_cards(value: str | Sequence[Card | None]) -> list[Card | None]:
    if isinstance(value, str):
        return [None if code == "??" else cards(code)[0] for code in value.split()]
    return list(value)


class ScopaMatch(MatchProgress):
    """A Scopa match: the :class:`~p2pcards.games.base.MatchState` of the ``scopa`` game."""

    def __init__(self, config: ScopaConfig) -> None:
        if not isinstance(config, ScopaConfig):
            raise UnknownFlag(f"a Scopa match needs a ScopaConfig, not {type(config).__name__}")
        self.config = config
        self._players = config.players
        self._sides = 2 if config.players == 4 else config.players
        self._hand_number = 0
        self._phase = Phase.SHUFFLE
        self._match_scores = [0] * self._sides
        self._winner: int | None = None
        self._redeals = 0
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._listed: Sequence[Action] = ()
        """The plays :meth:`legal_actions` listed for this very state, if it was asked."""
        self._to_act = self.first_player
        self._hands: list[list[Card | None]] = [[] for _ in range(self._players)]
        self._table: list[Card] = []
        self._piles: list[list[Card]] = [[] for _ in range(self._sides)]
        self._scope_log: list[int] = []
        self._last_capturer: int | None = None
        self._next_pos = 0
        self._pending: tuple[ChanceStep, ...] = ()
        self._seen: set[Card] = set()
        self._result: HandResult | None = None

    # ----------------------------------------------------------------- simple properties



    @property
    def deck(self) -> Deck:
        return ITALIAN_40



    def side_of(self, seat: int) -> int:
        return seat % 2 if self._players == 4 else seat

    @property
    def first_player(self) -> int:
        """The seat that plays first in the current hand: ``hand_number % players``."""
        return self._hand_number % self._players

    @property
    def redeals(self) -> int:
        """How many times hands were thrown in for three kings since the match began."""
        return self._redeals

    @property
    def match_scores(self) -> tuple[int, ...]:
        return tuple(self._match_scores)

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """``seat``'s hand in this view (``None`` = a card this view does not know)."""
        return tuple(self._hands[seat])

    @property
    def table(self) -> tuple[Card, ...]:
        """The face-up table cards, in the order they came there."""
        return tuple(self._table)

    def captured(self, side: int) -> tuple[Card, ...]:
        """The cards ``side`` captured this hand (with the leftovers once the hand is over)."""
        return tuple(self._piles[side])

    @property
    def stock_size(self) -> int:
        """Cards of this hand's deck not dealt yet."""
        return len(ITALIAN_40) - self._next_pos

    @property
    def last_capturer(self) -> int | None:
        """The last seat that captured in this hand, if any."""
        return self._last_capturer

    def scope_count(self, side: int) -> int:
        """Scope made by ``side`` this hand."""
        return self._scope_log.count(side)

    def hand_known(self, seat: int) -> bool:
        """Whether every card of ``seat``'s hand is known in this view."""
        return None not in self._hands[seat]

    # ----------------------------------------------------------------- dealing

    def begin_hand(self) -> None:
        """In SHUFFLE: a fresh shuffled deck is ready; ask for the deal (hands, then table)."""
        self._need(Phase.SHUFFLE, "begin_hand")
        self._reset_hand()
        steps = self._deal_steps(0)
        table_at = len(steps)
        steps += tuple(
            ChanceStep(table_at + i, Zone.TABLE, None, ALL_SEATS) for i in range(TABLE_START)
        )
        self._pending = steps
        self._phase = Phase.CHANCE

    def _deal_steps(self, start: int) -> tuple[ChanceStep, ...]:
        key = (self._players, self.first_player, start)
        steps = _DEALS.get(key)
        if steps is None:
            steps = _DEALS[key] = self._make_deal_steps(start)
        return steps

    def _make_deal_steps(self, start: int) -> tuple[ChanceStep, ...]:
        steps = []
        position = start
        for offset in range(self._players):
            seat = (self.first_player + offset) % self._players
            seen_by = frozenset({seat})
            for _ in range(HAND_SIZE):
                steps.append(ChanceStep(position, Zone.HAND, seat, seen_by))
                position += 1
        return tuple(steps)

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """In CHANCE: the deck positions to reveal and where they go."""
        self._need(Phase.CHANCE, "pending_chance")
        return self._pending

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Fulfil :meth:`pending_chance`: one card per step, ``None`` for a hand card this view
        cannot see. Raises :class:`BadChance` (state unchanged) for impossible input."""
        self._need(Phase.CHANCE, "complete_chance")
        self._listed = ()
        steps = self._pending
        if len(revealed) != len(steps):
            raise BadChance(f"the deal needs {len(steps)} cards, not {len(revealed)}")
        first_deal = self._next_pos == 0
        fresh: set[Card] = set()
        if self._fresh_deck_cards(revealed):
            fresh.update(revealed)  # type: ignore[arg-type]  # every one a card, checked
        else:
            self._check_deal(steps, revealed, fresh)
        for step, got in zip(steps, revealed, strict=True):
            if step.zone is Zone.TABLE:
                assert got is not None
                self._table.append(got)
            else:
                assert step.seat is not None
                self._hands[step.seat].append(got)
        self._seen |= fresh
        self._next_pos += len(steps)
        self._pending = ()
        kings = sum(1 for c in self._table if c.rank == 10)
        if self.config.redeal_three_kings and first_deal and kings >= 3:
            self._redeals += 1
            self._phase = Phase.SHUFFLE
            return
        self._phase = Phase.ACTION
        self._to_act = self.first_player

    def _fresh_deck_cards(self, revealed: Sequence[Card | None]) -> bool:
        """Whether every revealed card is a distinct object of the deck not seen this hand: then
        the deal is sound whatever its steps (checked by identity in C, and one hash a card).
        ``False`` says nothing: :meth:`_check_deal` looks card by card."""
        ids = set(map(id, revealed))
        return (len(ids) == len(revealed) and ids <= _DECK_IDS
                and self._seen.isdisjoint(revealed))

    def _check_deal(self, steps: Sequence[ChanceStep], revealed: Sequence[Card | None],
                    fresh: set[Card]) -> None:
        """Check each revealed card against its step (:class:`BadChance` naming the first
        fault) and collect the cards in ``fresh``."""
        for step, got in zip(steps, revealed, strict=True):
            if got is None:
                if step.zone is not Zone.HAND:
                    raise BadChance(f"deck position {step.position} goes face up, so it is needed")
                continue
            if not isinstance(got, Card) or got not in ITALIAN_40:
                raise BadChance(f"deck position {step.position} got {got!r}, not a Scopa card")
            if got in self._seen or got in fresh:
                raise BadChance(f"deck position {step.position} repeats the card {got.code}")
            fresh.add(got)

    # ----------------------------------------------------------------- playing

    def legal_actions(self) -> list[Action]:
        """Sorted legal plays of :attr:`to_act` (empty outside ACTION). Raises
        :class:`UnknownHand` when this view does not know that seat's hand."""
        if self._phase is not Phase.ACTION:
            return []
        hand = self._hands[self._to_act]
        if not all_known(hand):
            raise UnknownHand(f"seat {self._to_act}'s hand is not known in this view")
        known: list[Card] = hand  # type: ignore[assignment]  # all_known: no None in it
        listed = self._listed = _plays_on(self._table, known, self.config.sum_choice)
        return list(listed)

    def apply(self, action: Action) -> None:
        """Play ``action`` for :attr:`to_act`, or raise :class:`IllegalMove` (state unchanged).

        An action that is one of the very objects :meth:`legal_actions` listed for this state
        (the list is kept private, and forgotten at every change of the state) is legal, so it
        is played without checking it again; any other action is checked rule by rule."""
        listed = self._listed
        self._listed = ()
        if id(action) in map(id, listed):
            seat = self._to_act
            played = action.card
            assert played is not None
            self._play_out(seat, index_in_hand(self._hands[seat], played), played, action.cards)
            return
        seat = self._to_act
        if self._phase is not Phase.ACTION:
            raise IllegalMove(
                "not-action-phase", f"no play is expected in phase {self._phase.value}"
            )
        if not isinstance(action, Action) or action.kind != "play":
            kind = action.kind if isinstance(action, Action) else type(action).__name__
            raise IllegalMove(
                "unknown-action", f"Scopa has only 'play' actions, not {kind!r}", seat
            )
        if action.value or action.amount:
            raise IllegalMove("malformed-action", "a Scopa play has no value or amount", seat)
        played = action.card
        if played is None:
            raise IllegalMove("card-hidden", "a Scopa play must name the card played", seat)
        hand = self._hands[seat]
        slot = index_in_hand(hand, played)
        if slot >= 0:
            pass
        elif None in hand and played in ITALIAN_40 and played not in self._seen:
            slot = hand.index(None)
        else:
            raise IllegalMove(
                "card-not-in-hand", f"{played.code} is not in seat {seat}'s hand", seat
            )
        capture = action.cards
        self._check_capture(seat, played, capture)
        self._play_out(seat, slot, played, capture)

    def _play_out(self, seat: int, slot: int, played: Card, capture: tuple[Card, ...]) -> None:
        """Play ``played`` from ``seat``'s hand ``slot``, taking ``capture`` (a legal play)."""
        hand = self._hands[seat]
        del hand[slot]
        self._seen.add(played)
        side = self.side_of(seat)
        if capture:
            table = self._table
            for c in capture:
                del table[index_in_hand(table, c)]
            pile = self._piles[side]
            pile.append(played)
            pile.extend(capture)
            self._last_capturer = seat
            if not table and not self._last_play():
                self._scope_log.append(side)
        else:
            self._table.append(played)
        self._advance(seat)

    def _check_capture(self, seat: int, played: Card, capture: tuple[Card, ...]) -> None:
        table = self._table
        rank = played.rank
        if not capture:
            if can_capture(table, rank):
                raise IllegalMove(
                    "must-capture",
                    f"{played.code} can capture on this table, so it cannot trail",
                    seat,
                )
            return
        keys = list(map(action_card_order, capture))  # Card's own order, as plain tuples
        if any(a >= b for a, b in zip(keys, keys[1:], strict=False)):
            raise IllegalMove(
                "capture-not-sorted", f"captured cards [{_codes(capture)}] are not sorted", seat
            )
        for c in capture:
            if index_in_hand(table, c) < 0:
                raise IllegalMove(
                    "capture-card-not-on-table", f"{c.code} is not on the table to capture", seat
                )
        equal = [c for c in table if c.rank == rank]
        if equal:
            if len(capture) != 1 or capture[0].rank != rank:
                raise IllegalMove(
                    "must-take-equal-rank",
                    f"{played.code} must take one table card of its rank ({_codes(equal)}), "
                    f"not [{_codes(capture)}]",
                    seat,
                )
            return
        total = sum(c.rank for c in capture)
        if total != rank:
            raise IllegalMove(
                "capture-sum-mismatch",
                f"{played.code} cannot take [{_codes(capture)}], whose values add up to {total}",
                seat,
            )
        if self.config.sum_choice == "fewest_cards":
            fewest = min(len(c) for c in sum_combinations(table, rank))
            if len(capture) > fewest:
                raise IllegalMove(
                    "must-take-fewest-cards",
                    f"{played.code} must take a set of {fewest} cards, not [{_codes(capture)}]",
                    seat,
                )

    def _last_play(self) -> bool:
        """Whether the play being applied (card already removed from hand) ends the hand."""
        return self._next_pos >= len(ITALIAN_40) and not any(self._hands)

    def _advance(self, seat: int) -> None:
        self._to_act = (seat + 1) % self._players
        if any(self._hands):
            return
        if self._next_pos < len(ITALIAN_40):
            self._pending = self._deal_steps(self._next_pos)
            self._phase = Phase.CHANCE
            return
        if self._last_capturer is not None:
            self._piles[self.side_of(self._last_capturer)].extend(self._table)
            self._table.clear()
        self._phase = Phase.HAND_OVER

    # ----------------------------------------------------------------- scoring and match

    def hand_result(self) -> HandResult:
        """In HAND_OVER: the breakdown (cards, denari, settebello, primiera, scope[, napola]
        [, rebello]) and the points this hand adds to the match."""
        self._need(Phase.HAND_OVER, "hand_result")
        if self._result is None:
            self._result = score_hand(self._piles, self._scope_log, self._match_scores, self.config)
        return self._result

    def next_hand(self) -> None:
        """In HAND_OVER: add the hand's points; the match ends when one side alone has the
        highest score and it reaches the target, else the next hand starts (SHUFFLE)."""
        result = self.hand_result()
        for side, points in enumerate(result.points):
            self._match_scores[side] += points
        self._winner = leader_at_target(self._match_scores, self.config.target)
        if self._winner is not None:
            self._phase = Phase.MATCH_OVER
            return
        self._hand_number += 1
        self._reset_hand()
        self._phase = Phase.SHUFFLE

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: its own hand, the table, counts of everything else."""
        players = self._players
        if not 0 <= seat < players:
            raise BadSeat(f"seat {seat!r} is not a seat of this {players}-player scopa table")
        phase = self._phase
        hand = self._hands[seat]
        return {
            "game": "scopa",
            "seat": seat,
            "side": seat % 2 if players == 4 else seat,
            "hand_number": self._hand_number,
            "phase": phase.value,
            "first_player": self._hand_number % players,
            "to_act": self._to_act if phase is Phase.ACTION else None,
            "hand": sorted(map(_code, hand) if all_known(hand)
                           else [c.code for c in hand if c is not None]),
            "hand_sizes": list(map(len, self._hands)),
            "table": list(map(_code, self._table)),
            "captured": list(map(len, self._piles)),
            "scope": list(map(self._scope_log.count, range(self._sides))),
            "stock": len(ITALIAN_40) - self._next_pos,
            "last_capturer": self._last_capturer,
            "match_scores": list(self._match_scores),
            "redeals": self._redeals,
        }

    def copy(self) -> ScopaMatch:
        """An independent copy (cards are immutable and shared)."""
        new = object.__new__(ScopaMatch)
        new.__dict__.update(self.__dict__)
        new._hands = [list(h) for h in self._hands]
        new._table = list(self._table)
        new._piles = [list(p) for p in self._piles]
        new._scope_log = list(self._scope_log)
        new._seen = set(self._seen)
        new._match_scores = list(self._match_scores)
        return new

    def _need(self, phase: Phase, what: str) -> None:
        if self._phase is not phase:
            raise WrongPhase(f"{what} needs phase {phase.value}, not {self._phase.value}")

    # ----------------------------------------------------------------- testing aid

    @classmethod
    def from_position(
        cls,
        config: ScopaConfig,
        hands: Sequence[str | Sequence[Card | None]],
        table: str | Sequence[Card] = (),
        *,
        to_act: int = 0,
        captured: Sequence[str | Sequence[Card]] | None = None,
        scope: Sequence[int] = (),
        last_capturer: int | None = None,
        stock: int = 0,
        match_scores: Sequence[int] | None = None,
        hand_number: int = 0,
    ) -> ScopaMatch:
        """A testing aid: a match in ACTION at a given position.

        ``hands[seat]`` and ``table`` are cards or space-separated codes (``??`` = unknown),
        ``captured[side]`` the piles so far, ``scope`` the side of each scopa made so far,
        ``stock`` how many cards remain to deal (a multiple of 3 x players), ``match_scores``
        the scores before this hand. Raises :class:`GameError` for an inconsistent position.
        """
        state = cls(config)
        state._hand_number = hand_number
        state._reset_hand()
        if len(hands) != state._players:
            raise GameError(f"a position needs {state._players} hands, not {len(hands)}")
        state._hands = [_parse_cards(h) for h in hands]
        state._table = [c for c in _parse_cards(table) if c is not None]
        piles = captured if captured is not None else [()] * state._sides
        if len(piles) != state._sides:
            raise GameError(f"a position needs {state._sides} capture piles, not {len(piles)}")
        state._piles = [[c for c in _parse_cards(p) if c is not None] for p in piles]
        known = [c for h in state._hands for c in h if c is not None]
        known += state._table + [c for p in state._piles for c in p]
        if len(set(known)) != len(known):
            raise GameError("a position names some card twice")
        if stock % (HAND_SIZE * state._players) or not 0 <= stock <= len(ITALIAN_40):
            raise GameError(f"a stock of {stock} cards cannot be dealt to {state._players} seats")
        if not 0 <= to_act < state._players:
            raise GameError(f"seat {to_act} cannot act with {state._players} players")
        state._seen = set(known)
        state._scope_log = list(scope)
        state._last_capturer = last_capturer
        state._next_pos = len(ITALIAN_40) - stock
        state._to_act = to_act
        if match_scores is not None:
            state._match_scores = list(match_scores)
        state._phase = Phase.ACTION
        return state


SPEC = GameSpec(
    name="scopa",
    title="Scopa",
    rules_source="scopa.txt",
    player_counts=PLAYER_COUNTS,
    config_class=ScopaConfig,
    presets={
        "classic": {},
        "napola": {
            "ties": "none",
            "denari_needs_six": True,
            "napola": True,
            "rebello": True,
            "sum_choice": "free",
        },
        "italian": {
            "players": (2,),
            "redeal_three_kings": True,
            "primiera_needs_all_suits": True,
            "ties": "none",
            "stop_at_target": True,
        },
    },
    preset_docs={
        "classic": "scopa.txt: ties give a point to each side, 2-4 players, to 11",
        "napola": "scopa-napola-it.txt: napola and rebello, ties to nobody, denari needs 6, to 11",
        "italian": "italian-card-games.txt (Scopa): 2 players, three-king redeal, primiera "
        "needs all suits, ties to nobody, scoring stops at 11",
    },
    factory=ScopaMatch,
    flags=flags_of(ScopaConfig),
    default_preset="classic",
)

SPECS = (SPEC,)
