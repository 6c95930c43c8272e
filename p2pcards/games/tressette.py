"""Tressette (tressette.txt) and Tresette (italian-card-games.txt): one engine, two game specs.

Rules implemented (flags in brackets; the pure rule functions are in
:mod:`p2pcards.games.tressette_rules`):

- Players and deck: ``tressette`` is for 3 or 4 seats, ``tresette`` for 4. With 4 seats, seats 0
  and 2 play against 1 and 3 (side = seat % 2) and the 40-card Italian deck is used; with 3 seats
  each plays for themselves (3 sides) and the 4 of Bastoni is removed (39 cards, 13 each).
- Deal: the whole deck, one card at a time: deck position ``i`` goes to seat ``i % players``,
  seen by that seat only. Hand ``h`` (0-based) is led by seat ``h % players``; afterwards the
  winner of each trick leads the next one.
- Tricks: a seat must follow the suit led when it can, otherwise it may play any card. The
  strongest card of the suit led wins (3, 2, Asso, Re, Cavallo, Fante, 7, 6, 5, 4) and its seat's
  side captures the trick.
- Card points in thirds: Asso 3, 3/2/Re/Cavallo/Fante 1, others 0 (32 thirds). The last trick is
  worth one more third [``last_trick="third"``, 33 thirds = 11 points] or a whole point
  [``last_trick="point"``]. A side's thirds become points rounded to the nearest integer
  [``thirds="round"``] or with the remainder dropped [``thirds="truncate"``]. Truncating "3 thirds
  per Asso, 1 per other counting card" is exactly the Tresette text's "1 point per Asso, 1 point per
  three 2s, 3s or face cards, remainder dropped", since the aces' thirds always make whole points.
- Buongioco [``declarations="buongioco"``]: on its own turn, before playing its second card (so
  during the first two tricks), a seat may declare combinations it holds at that moment: three or
  four aces, 2s or 3s (3 or 4 points) and the napoli, Asso-2-3 of one suit (3 points). Each
  declaration is one action naming the kind and its cards (a three-of-a-kind names the three held,
  so it also states the fourth is not held); several declarations add up; a card may serve in
  several. Points are added to the side's score after the rounding.
- Good play [``declarations="good-play"``]: on its first turn, before its first card, a seat
  holding a meld (three or four aces, 2s or 3s; napoli) may declare "good play" without details.
  When that seat wins its first trick, its next action must be the announcement of the types of
  all its melds (``"three-aces+napoli"``), before it leads (or, after the last trick, before the
  hand is scored). Four of a kind scores 4, any other meld 3. A declarer that wins no trick never
  announces and scores nothing for its melds.
- Signals [``signals=True``], riding on a play so that each turn stays one action: a leader may ask
  "play your best" (``best``); a follower may state how many cards of the suit led it holds
  (``count``, ``amount`` = the number *before* this card is played, so at least 1 when following
  suit and 0 when it cannot); any play may state that the seat holds exactly two, one or zero
  cards of some unnamed suit (``two``, ``one``, ``none``, counted before the card is played).
  A play carries at most one signal.
- Match [``match``]: ``to_31`` adds hand totals until some side has 31 or more; the side with the
  highest score then wins, and if several sides tie for the highest score at 31 or more, play goes
  on until the tie is broken. ``three_games``: the side with the highest hand total wins the hand
  (a tie for the highest total gives no game to anyone); the first side to win three hands wins.

Checks: everything public information allows is checked at once (the card is not already played
or known in another hand, a declaration's shape and timing, a ``count`` signal against the suit
actually played). Following suit, the truth of a declaration, an announcement and a signal need
the acting seat's hand: they are checked as soon as that hand is fully known in this view, and so
always in the full-information replay of the hand. A false claim raises ``IllegalMove`` with rule
``false-declaration``, ``false-announcement`` or ``false-signal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import ITALIAN_40, Card, Deck, italian_39
from .base import (
    Action,
    BadChance,
    BadPlayerCount,
    BadSeat,
    ChanceStep,
    GameError,
    GameSpec,
    HandResult,
    IllegalMove,
    MatchProgress,
    Phase,
    ScoreLine,
    UnknownFlag,
    UnknownHand,
    VariantConfig,
    WrongPhase,
    Zone,
    flags_of,
    sort_actions,
)
from .tressette_kept import KeptViews, Played
from .tressette_rules import (
    already_declared,
    announcement_fault,
    announcement_of,
    announcement_points,
    buongioco_fault,
    combination_points,
    combinations_held,
    good_play_fault,
    score_lines,
    signal_fault,
    trick_winner,
    true_signals,
)
from .tricks import action_card_order, all_known, index_in_hand

__all__ = [
    "SPECS",
    "TRESETTE",
    "TRESSETTE",
    "BadChance",
    "BadSeat",
    "TressetteConfig",
    "TressetteMatch",
    "UnknownHand",
    "WrongPhase",
]

TARGET_POINTS = 31
GAMES_TO_WIN = 3


@dataclass(frozen=True)
class TressetteConfig(VariantConfig):
    """The variant of a Tressette or Tresette match (see the module docstring for each rule)."""

    players: int = field(
        metadata={"doc": "3 (each for themselves, 39 cards) or 4 (two partnerships)"}
    )
    thirds: str = field(
        default="round",
        metadata={
            "doc": "card thirds to points: rounded to the nearest, or remainder dropped",
            "choices": ("round", "truncate"),
        },
    )
    last_trick: str = field(
        default="third",
        metadata={
            "doc": "the last trick is worth one third (counted before rounding) or a whole point",
            "choices": ("third", "point"),
        },
    )
    declarations: str = field(
        default="buongioco",
        metadata={
            "doc": "buongioco (shown combinations, first two tricks), good-play (melds), or none",
            "choices": ("buongioco", "good-play", "none"),
        },
    )
    signals: bool = field(
        default=False,
        metadata={
            "doc": "table talk on plays: best (lead), count (follow), two/one/none (any play)",
            "choices": (False, True),
        },
    )
    match: str = field(
        default="to_31",
        metadata={
            "doc": "to_31: first side to 31+ points (top ties play on); three_games: 3 hands won",
            "choices": ("to_31", "three_games"),
        },
    )


_NO_SIGNAL: tuple[tuple[str, int], ...] = (("", 0),)
_PLAY_ACTIONS: dict[tuple[tuple[str, int], ...], dict[str, tuple[Action, ...]]] = {}
"""The play actions of one card with each of a set of signals, by signal set and card code:
actions are immutable, so every state lists the same objects instead of building new ones. The
sizes are bounded by the deck (40 codes) and the signal sets a hand can give (a few dozen)."""


def play_actions(cards: Sequence[Card], signals: tuple[tuple[str, int], ...]) -> list[Action]:
    """``[Action("play", card=c, value=v, amount=a) for c in cards for v, a in signals]``,
    equal action for action and in that order, taken from :data:`_PLAY_ACTIONS`."""
    by_code = _PLAY_ACTIONS.get(signals)
    if by_code is None:
        by_code = _PLAY_ACTIONS[signals] = {}
    out: list[Action] = []
    for c in cards:
        plays = by_code.get(c.code)
        if plays is None:
            plays = by_code[c.code] = tuple(
                Action("play", card=c, value=v, amount=a) for v, a in signals
            )
        out += plays
    return out


def _check_config(config: TressetteConfig) -> None:
    if config.players not in (3, 4):
        raise BadPlayerCount(f"tressette is for 3 or 4 players, not {config.players!r}")
    for flag in flags_of(TressetteConfig):
        value = getattr(config, flag.name)
        if flag.choices and value not in flag.choices:
            raise UnknownFlag(
                f"flag {flag.name!r} takes one of {', '.join(map(str, flag.choices))}, "
                f"not {value!r}"
            )


class TressetteMatch(MatchProgress):
    """A match of Tressette or Tresette (the :class:`~p2pcards.games.base.MatchState` protocol).

    Hands are lists of ``Card | None`` (``None``: a card this view cannot see). Besides the
    protocol, :meth:`hand`, :attr:`table`, :meth:`captured`, :meth:`hand_known` and
    :meth:`from_position` (a testing aid) expose the position.
    """

    config: TressetteConfig

    def __init__(self, config: TressetteConfig) -> None:
        _check_config(config)
        self.config = config
        self._n = config.players
        self._deck = italian_39("4B") if self._n == 3 else ITALIAN_40
        self._sides = 3 if self._n == 3 else 2
        self._deck_ids = frozenset(map(id, self._deck.cards))
        self._deal_steps = tuple(  # the same deal every hand: immutable steps, built once
            ChanceStep(i, Zone.HAND, i % self._n, frozenset({i % self._n}))
            for i in range(len(self._deck))
        )
        self._phase = Phase.SHUFFLE
        self._hand_number = 0
        self._scores = [0] * self._sides
        self._winner: int | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        n = self._n
        self._hands: list[list[Card | None]] = [[] for _ in range(n)]
        self._dealt: list[tuple[Card | None, ...]] = [() for _ in range(n)]
        self._leader = self._hand_number % n
        self._to_act = self._leader
        self._trick: list[Played] = []
        self._last_trick: tuple[Played, ...] = ()
        self._listed: Sequence[Action] = ()
        """The actions :meth:`legal_actions` listed for this very state, if it was asked."""
        self._piles: list[list[Card]] = [[] for _ in range(self._sides)]
        self._played: set[Card] = set()
        self._plays = [0] * n
        self._tricks_done = 0
        self._last_side: int | None = None
        self._declared: list[tuple[int, str, tuple[Card, ...]]] = []
        self._good_play = [False] * n
        self._announced: list[str] = [""] * n
        self._announce_due: int | None = None
        self._result: HandResult | None = None
        self._kept = KeptViews(n)
        """The kept parts of this hand's observations (:mod:`~.tressette_kept`), told of every
        change of what they depend on."""

    # -- protocol properties ---------------------------------------------------------------



    @property
    def deck(self) -> Deck:
        return self._deck



    def side_of(self, seat: int) -> int:
        """Side of a seat: the seat itself with 3 players, ``seat % 2`` with 4."""
        self._check_seat(seat)
        return seat if self._n == 3 else seat % 2

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise BadSeat(f"seat {seat!r} is not a seat of this {self._n}-player table")

    @property
    def match_scores(self) -> tuple[int, ...]:
        """Points (``to_31``) or hands won (``three_games``) of each side."""
        return tuple(self._scores)

    # -- read-only position ------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """A seat's current hand in this view (``None`` = unknown card)."""
        self._check_seat(seat)
        return tuple(self._hands[seat])

    def hand_known(self, seat: int) -> bool:
        """Whether every card of ``seat``'s hand is known in this view."""
        self._check_seat(seat)
        return all_known(self._hands[seat])

    @property
    def table(self) -> tuple[tuple[int, Card], ...]:
        """The current trick: ``(seat, card)`` in playing order."""
        return tuple((p.seat, p.card) for p in self._trick)

    def captured(self, side: int) -> tuple[Card, ...]:
        """The cards a side has captured this hand."""
        if not isinstance(side, int) or not 0 <= side < self._sides:
            raise BadSeat(f"side {side!r} is not a side of this {self._sides}-side match")
        return tuple(self._piles[side])

    @property
    def announce_due(self) -> int | None:
        """The seat that must announce its melds before anything else, if any."""
        return self._announce_due

    # -- dealing -----------------------------------------------------------------------------

    def begin_hand(self) -> None:
        """A freshly shuffled deck is ready: ask for the whole deal (one CHANCE phase)."""
        if self._phase is not Phase.SHUFFLE:
            raise WrongPhase(f"begin_hand needs the shuffle phase, not {self._phase.value}")
        self._reset_hand()
        self._phase = Phase.CHANCE

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """Deck position ``i`` to the hand of seat ``i % players``, seen by that seat only."""
        if self._phase is not Phase.CHANCE:
            return ()
        return self._deal_steps

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Deal: one card (or ``None`` if unseen in this view) per deck position."""
        if self._phase is not Phase.CHANCE:
            raise WrongPhase(f"complete_chance needs the chance phase, not {self._phase.value}")
        self._listed = ()
        if len(revealed) != len(self._deck):
            raise BadChance(f"the deal needs {len(self._deck)} cards, got {len(revealed)}")
        known = [c for c in revealed if c is not None]
        if not self._distinct_deck_objects(known):
            for c in known:
                if not isinstance(c, Card) or c not in self._deck:
                    raise BadChance(f"{c!r} is not a card of the {self._deck.name} deck")
            if len(set(known)) != len(known):
                raise BadChance("the deal reveals the same card at two positions")
        n = self._n
        for seat, hand in enumerate(self._hands):
            hand.extend(revealed[seat::n])
        self._dealt = [tuple(h) for h in self._hands]
        self._kept.dealt(self._hands)
        self._phase = Phase.ACTION

    def _distinct_deck_objects(self, cards: Sequence[Card]) -> bool:
        """Whether ``cards`` are distinct objects of this match's deck: then each is a card of
        the deck and no two are equal (the deck's cards are distinct), which a deal must show,
        checked by identity in C. ``False`` says nothing: the caller checks card by card."""
        ids = set(map(id, cards))
        return len(ids) == len(cards) and ids <= self._deck_ids

    # -- legal actions -----------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of :attr:`to_act` (signals and claims only when true);
        :class:`UnknownHand` if that seat's hand is not known in this view."""
        if self._phase is not Phase.ACTION:
            return []
        seat = self._to_act
        hand = self._hands[seat]
        if not all_known(hand):
            raise UnknownHand(f"legal_actions needs seat {seat}'s hand, unknown in this view")
        known: list[Card] = hand  # type: ignore[assignment]  # all_known: no None in it
        if self._announce_due == seat:
            dealt = [c for c in self._dealt[seat] if c is not None]
            value = announcement_of(dealt)
            return [Action("announce", value=value)] if value else []
        led = self._trick[0].card.suit if self._trick else None
        playable = [c for c in known if c.suit == led] if led is not None else []
        # "declare" sorts before "play"; the plays come out in order card by card
        # a seat declares before its second card at the latest
        declarations = self._legal_declarations(seat, known) if self._plays[seat] < 2 else None
        out = sort_actions(declarations) if declarations else []
        out += play_actions(sorted(playable or known, key=action_card_order),
                            true_signals(known, led) if self.config.signals else _NO_SIGNAL)
        self._listed = out
        return list(out)

    def _legal_declarations(self, seat: int, hand: list[Card]) -> list[Action]:
        mode = self.config.declarations
        if mode == "buongioco" and self._plays[seat] < 2:
            return [
                Action("declare", cards=cards, value=kind)
                for kind, cards in combinations_held(hand)
                if not already_declared(self._declared, seat, kind, cards)
            ]
        if mode == "good-play" and self._plays[seat] == 0 and not self._good_play[seat]:
            return [Action("declare", value="good-play")] if announcement_of(hand) else []
        return []

    # -- applying actions --------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply :attr:`to_act`'s action or raise :class:`IllegalMove` (state unchanged).

        A play that is one of the very objects :meth:`legal_actions` listed for this state (the
        list is kept private, and forgotten at every change of the state) is legal, so it is
        played without checking it again; any other action is checked rule by rule."""
        listed = self._listed
        self._listed = ()
        seat = self._to_act
        if id(action) in map(id, listed) and action.kind == "play":
            card = action.card
            assert card is not None
            self._play_out(seat, index_in_hand(self._hands[seat], card), action)
            return
        self._kept.forget_claims()
        if self._phase is not Phase.ACTION:
            raise IllegalMove(
                "wrong-phase", f"no action is expected in the {self._phase.value} phase", seat
            )
        if self._announce_due == seat and action.kind != "announce":
            raise IllegalMove(
                "announcement-required",
                f"seat {seat} won its first trick after declaring good play and must announce "
                f"its melds before a {action.kind}",
                seat,
            )
        if action.kind == "play":
            self._apply_play(seat, action)
        elif action.kind == "declare":
            self._apply_declare(seat, action)
        elif action.kind == "announce":
            self._apply_announce(seat, action)
        else:
            raise IllegalMove(
                "unknown-action",
                f"{action.kind!r} is not a Tressette action (play, declare, announce)",
                seat,
            )

    def _known_elsewhere(self, seat: int, c: Card) -> bool:
        """Whether this view knows ``c`` is not in ``seat``'s hand (played or held by another)."""
        if c in self._played:
            return True
        return any(c in h for s, h in enumerate(self._hands) if s != seat)

    def _apply_play(self, seat: int, action: Action) -> None:
        c = action.card
        if c is None:
            raise IllegalMove("card-hidden", f"seat {seat}'s card must be revealed to play", seat)
        if action.cards:
            raise IllegalMove("malformed-action", "a play names its card in 'card' only", seat)
        hand = self._hands[seat]
        at = index_in_hand(hand, c)  # a card found in the hand is a card of the deck
        if at < 0 and c not in self._deck:
            raise IllegalMove(
                "card-not-in-deck", f"{c.code} is not a card of the {self._deck.name} deck", seat
            )
        if at < 0 and (all_known(hand) or self._known_elsewhere(seat, c)):
            raise IllegalMove(
                "card-not-in-hand", f"seat {seat} cannot play {c.code}: not in its hand", seat
            )
        led = self._trick[0].card.suit if self._trick else None
        if led is not None and c.suit != led:
            held = next((h for h in hand if h is not None and h.suit == led), None)
            if held is not None:
                raise IllegalMove(
                    "must-follow-suit",
                    f"seat {seat} must follow suit {led} (it holds {held.code}) "
                    f"but played {c.code}",
                    seat,
                )
        if action.value or action.amount:
            fault = signal_fault(seat, action.value, action.amount, c, led, hand,
                                 self.config.signals)
            if fault is not None:
                raise IllegalMove(*fault, seat)
        self._play_out(seat, at if at >= 0 else hand.index(None), action)

    def _play_out(self, seat: int, slot: int, action: Action) -> None:
        """Play ``action``'s card (a legal play) from ``seat``'s hand ``slot``."""
        c = action.card
        assert c is not None
        self._hands[seat].pop(slot)
        self._played.add(c)
        self._plays[seat] += 1
        played = Played(seat, c, action.value, action.amount)
        self._trick.append(played)
        self._kept.played(seat, slot, played)
        self._to_act = (seat + 1) % self._n
        if len(self._trick) == self._n:
            self._close_trick()

    def _close_trick(self) -> None:
        self._kept.trick_closed()
        trick = [(p.seat, p.card) for p in self._trick]
        winner = trick_winner(trick)
        side = winner if self._n == 3 else winner % 2
        self._piles[side] += [c for _, c in trick]
        self._last_trick = tuple(self._trick)
        self._trick = []
        self._tricks_done += 1
        self._leader = self._to_act = winner
        if self._good_play[winner] and not self._announced[winner]:
            self._announce_due = winner
        if not any(self._hands):
            self._last_side = side
            if self._announce_due is None:
                self._finish_hand()

    def _apply_declare(self, seat: int, action: Action) -> None:
        mode = self.config.declarations
        if mode == "none":
            raise IllegalMove("no-declarations", "this variant has no declarations", seat)
        if action.card is not None or action.amount:
            raise IllegalMove(
                "malformed-action", "a declaration has no 'card' and no 'amount'", seat
            )
        if mode == "good-play":
            self._declare_good_play(seat, action)
        else:
            self._declare_buongioco(seat, action)

    def _declare_good_play(self, seat: int, action: Action) -> None:
        fault = good_play_fault(seat, action.value, action.cards, self._plays[seat],
                                self._good_play[seat], self._hands[seat])
        if fault is not None:
            raise IllegalMove(*fault, seat)
        self._good_play[seat] = True

    def _declare_buongioco(self, seat: int, action: Action) -> None:
        kind, cards = action.value, action.cards
        fault = buongioco_fault(seat, kind, cards, self._plays[seat], self._declared,
                                self._hands, self._played)
        if fault is not None:
            raise IllegalMove(*fault, seat)
        self._declared.append((seat, kind, tuple(cards)))

    def _apply_announce(self, seat: int, action: Action) -> None:
        if self._announce_due != seat:
            raise IllegalMove(
                "announcement-not-due",
                f"seat {seat} may announce only upon winning its first trick after declaring "
                "good play",
                seat,
            )
        if action.card is not None or action.cards or action.amount:
            raise IllegalMove("malformed-action", "an announcement carries only its 'value'", seat)
        fault = announcement_fault(seat, action.value, self._dealt[seat])
        if fault is not None:
            raise IllegalMove(*fault, seat)
        self._announced[seat] = action.value
        self._announce_due = None
        if all(not h for h in self._hands) and not self._trick:
            self._finish_hand()

    # -- scoring and match -------------------------------------------------------------------

    def _declared_points(self) -> list[int]:
        points = [0] * self._sides
        for seat, kind, cards in self._declared:
            points[self.side_of(seat)] += combination_points(kind, cards)
        for seat, value in enumerate(self._announced):
            if value:
                points[self.side_of(seat)] += announcement_points(value)
        return points

    def _finish_hand(self) -> None:
        assert self._last_side is not None
        lines, totals = score_lines(
            self._piles,
            self._last_side,
            self._declared_points(),
            thirds=self.config.thirds,
            last_trick=self.config.last_trick,
        )
        points = totals
        if self.config.match == "three_games":
            top = max(totals)
            if totals.count(top) == 1:
                points = tuple(int(t == top) for t in totals)
            else:
                points = (0,) * self._sides
            lines = (*lines, ScoreLine("game won", totals, points))
        self._result = HandResult(lines=lines, points=points)
        self._phase = Phase.HAND_OVER
        self._kept.forget()

    def hand_result(self) -> HandResult:
        """The breakdown of the hand just finished (see :func:`tressette_rules.score_lines`;
        with ``three_games`` a last line ``game won`` gives 1 to the hand's winner)."""
        if self._result is None:
            raise WrongPhase(f"no hand result in the {self._phase.value} phase")
        return self._result

    def next_hand(self) -> None:
        """Add the hand's points; end the match or wait for the next shuffle."""
        if self._phase is not Phase.HAND_OVER or self._result is None:
            raise WrongPhase(f"next_hand needs the hand_over phase, not {self._phase.value}")
        for side, pts in enumerate(self._result.points):
            self._scores[side] += pts
        self._kept.forget()
        top = max(self._scores)
        target = TARGET_POINTS if self.config.match == "to_31" else GAMES_TO_WIN
        if top >= target and self._scores.count(top) == 1:
            self._winner = self._scores.index(top)
            self._phase = Phase.MATCH_OVER
            return
        self._hand_number += 1
        self._phase = Phase.SHUFFLE
        self._reset_hand()

    # -- observation and copy ----------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: its own hand, every seat's card count, the current and last
        trick with their signals, the declarations and announcements, scores. Played and
        declared cards are public; no other card of another seat appears.

        A fresh dict with fresh lists and maps at every call: what it shares with other seats
        and other plays of the same trick, and the seat's hand codes, are read from the kept
        views (:class:`~.tressette_kept.KeptViews`), then copied."""
        if type(seat) is not int or not 0 <= seat < self._n:
            self._check_seat(seat)
        kept = self._kept
        phase, acting, captured, scores = kept.view or kept.shared(
            self._phase, self._piles, self._scores)
        declarations, good_play, announcements = kept.claims or kept.claims_of(
            self._declared, self._good_play, self._announced)
        codes = kept.codes[seat] or kept.hand_codes(seat, self._hands[seat])
        sizes = kept.sizes
        return {  # [*x] copies as list(x) does, without the call
            "seat": seat,
            "phase": phase,
            "hand_number": self._hand_number,
            "to_act": self._to_act if acting else None,
            "leader": self._leader,
            "hand": [*codes],
            "hand_unknown": sizes[seat] - len(codes),
            "hand_sizes": [*sizes],
            "trick": [play.copy() for play in kept.trick_wire],
            "last_trick": [play.copy() for play in kept.last_wire],
            "tricks_done": self._tricks_done,
            "captured_counts": [*captured],
            "declarations": [{"seat": s, "value": k, "cards": [*cs]}
                             for s, k, cs in declarations] if declarations else [],
            "good_play": [*good_play],
            "announcements": {**announcements},
            "announce_due": self._announce_due,
            "match_scores": [*scores],
        }

    def copy(self) -> TressetteMatch:
        """An independent copy (cards are immutable, so lists are copied one level deep)."""
        new = object.__new__(TressetteMatch)
        new.__dict__.update(self.__dict__)
        new._scores = list(self._scores)
        new._hands = [list(h) for h in self._hands]
        new._dealt = list(self._dealt)
        new._trick = list(self._trick)
        new._piles = [list(p) for p in self._piles]
        new._played = set(self._played)
        new._plays = list(self._plays)
        new._declared = list(self._declared)
        new._good_play = list(self._good_play)
        new._announced = list(self._announced)
        new._kept = self._kept.copy()
        return new

    # -- testing aid -------------------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        config: TressetteConfig,
        hands: Sequence[Sequence[Card | None]],
        *,
        leader: int = 0,
        trick: Sequence[Card] = (),
        captured: Sequence[Sequence[Card]] | None = None,
        hand_number: int = 0,
        scores: Sequence[int] | None = None,
    ) -> TressetteMatch:
        """A match in the ACTION phase at a hand-built position (a testing aid).

        ``hands`` are the seats' current hands (``None`` = unknown); ``trick`` the cards already
        played to the current trick by ``leader``, ``leader + 1``, ...; ``captured`` each side's
        pile; ``scores`` the match scores so far. Each seat counts as having played only its
        card of ``trick`` (if any), and its dealt hand (for announcements) is its current hand
        plus that card.
        Raises :class:`GameError` on a card given twice or not in the deck.
        """
        state = cls(config)
        state._hand_number = hand_number
        state._reset_hand()
        if len(hands) != state._n:
            raise GameError(f"from_position needs {state._n} hands, got {len(hands)}")
        if scores is not None:
            if len(scores) != state._sides:
                raise GameError(f"from_position needs {state._sides} scores, got {len(scores)}")
            state._scores = list(scores)
        piles = [list(p) for p in (captured or [[] for _ in range(state._sides)])]
        known = [c for h in hands for c in h if c is not None] + list(trick)
        known += [c for p in piles for c in p]
        if len(set(known)) != len(known) or any(c not in state._deck for c in known):
            raise GameError("from_position: a card is given twice or is not in the deck")
        state._hands = [list(h) for h in hands]
        state._piles = piles
        state._played = set(trick) | {c for p in piles for c in p}
        state._leader = leader
        state._trick = [Played((leader + i) % state._n, c) for i, c in enumerate(trick)]
        for p in state._trick:
            state._plays[p.seat] = 1
        state._dealt = [
            tuple(h) + tuple(p.card for p in state._trick if p.seat == s)
            for s, h in enumerate(state._hands)
        ]
        state._to_act = (leader + len(trick)) % state._n
        state._phase = Phase.ACTION
        state._kept = KeptViews(state._n)
        state._kept.dealt(state._hands)
        state._kept.trick_wire = [p.to_wire() for p in state._trick]
        return state


_PRESET_TRESETTE: dict[str, object] = {
    "thirds": "truncate",
    "last_trick": "point",
    "declarations": "good-play",
    "signals": True,
    "match": "to_31",
}

TRESSETTE = GameSpec(
    name="tressette",
    title="Tressette: 3 or 4 players, must follow suit, Buongioco, thirds rounded",
    rules_source="tressette.txt",
    player_counts=(3, 4),
    config_class=TressetteConfig,
    presets={
        "classic": {},
        "three-games": {"match": "three_games"},
    },
    preset_docs={
        "classic": "tressette.txt: Buongioco, thirds rounded to nearest, last trick a third, to 31",
        "three-games": "tressette.txt's other format: the first to win 3 hands wins the match",
    },
    factory=TressetteMatch,
    flags=flags_of(TressetteConfig),
    default_preset="classic",
)

TRESETTE = GameSpec(
    name="tresette",
    title="Tresette: 4 players in partnerships, good-play melds, signals, thirds truncated",
    rules_source="italian-card-games.txt",
    player_counts=(4,),
    config_class=TressetteConfig,
    presets={"classic": _PRESET_TRESETTE},
    preset_docs={
        "classic": "italian-card-games.txt (Tresette): melds, signals, remainder dropped, "
        "last trick 1 point, to 31",
    },
    factory=TressetteMatch,
    flags=tuple(
        replace(f, default=_PRESET_TRESETTE.get(f.name, f.default))
        for f in flags_of(TressetteConfig)
    ),
    default_preset="classic",
)

SPECS = (TRESSETTE, TRESETTE)
