"""Small test-only engines that exercise every card use, public cards in hands and claims.

They are registered only inside the tests (:func:`registered`), never in the package. Each is a
complete :class:`~p2pcards.games.base.MatchState` with live views (unknown cards are ``None``) so
the table drives them exactly as it drives a real game.

``toy-pass`` (2 to 8 seats), one hand per ``hands``:

1. deal: ``per`` cards to each seat (``per`` = 4 up to 4 seats, else 2), privately; one more card
   face up into seat 0's hand; one upcard face up on the table;
2. seat 1 ``call``\\ s a card (``value`` = its code) it does not hold and has not seen;
3. seat 0 ``give``\\ s that card to seat 1, passed privately (``card`` = ``??`` on the wire),
   or says ``none`` if it does not hold it (a lie is caught by the full replay:
   ``false-denial``; giving another card is caught by seat 1 at once: ``must-give-called``);
4. after a give, seat 1 passes any card of its hand back to seat 0 (``giveback``, private);
5. the last seat ``discard``\\ s two cards face down;
6. seat 0 ``take``\\ s the upcard into its hand (a public card into a hidden hand);
7. seat 1 ``declare``\\ s one card: shown and kept in its hand;
8. seat 0 ``meld``\\ s two cards: shown, leaving its hand;
9. every seat with cards ``play``\\ s one, in turn from seat 0, until every hand is empty.

A seat scores one point per Denari card it played or melded.

``toy-claim`` (2 to 8 seats): each seat is dealt 3 cards (2 above 6 seats); seats then ``play``
in turn. While a seat is due to play after a card was played, every other seat with cards may
claim out of turn:
``snap`` shows a card of its hand of the last card's suit (checked at once, ``false-snap``);
``bluff`` shows nothing and names a suit (``value``) the claimant says it holds (checked in the
full replay, ``false-bluff``). A claim scores a point and the claimant plays next.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from p2pcards.cards import HIDDEN, ITALIAN_40, Card, Deck, card
from p2pcards.games import _registry
from p2pcards.games.base import (
    ALL_SEATS,
    Action,
    CardUse,
    ChanceStep,
    GameSpec,
    HandResult,
    IllegalMove,
    MatchProgress,
    Phase,
    ScoreLine,
    VariantConfig,
    WrongPhase,
    Zone,
    flags_of,
)

SMALL = Deck("toy20", tuple(c for c in ITALIAN_40.cards if c.rank <= 5))


@dataclass(frozen=True)
class ToyConfig(VariantConfig):
    players: int
    hands: int = field(default=1, metadata={"doc": "hands in a match"})


class _Base(MatchProgress):
    """Hands of ``Card | None`` per seat, a public ``seen`` set, scores, deck positions."""

    def __init__(self, config: ToyConfig) -> None:
        self.config = config
        self._players = config.players
        self._phase = Phase.SHUFFLE
        self._to_act = 0
        self._hand_number = 0
        self._sides = config.players
        self._winner = None
        self._scores = [0] * config.players
        self._hands: list[list[Card | None]] = [[] for _ in range(config.players)]
        self._seen: set[Card] = set()
        self._points = [0] * config.players
        self._pending: tuple[ChanceStep, ...] = ()

    @property
    def deck(self) -> Deck:
        return SMALL

    def side_of(self, seat: int) -> int:
        return seat

    @property
    def match_scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    def copy(self) -> Any:
        return copy.deepcopy(self)

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        if self._phase is not Phase.CHANCE:
            raise WrongPhase("no chance step is pending")
        return self._pending

    def hand_result(self) -> HandResult:
        if self._phase is not Phase.HAND_OVER:
            raise WrongPhase("the hand is not over")
        points = tuple(self._points)
        return HandResult((ScoreLine("points", points, points),), points)

    def next_hand(self) -> None:
        if self._phase is not Phase.HAND_OVER:
            raise WrongPhase("the hand is not over")
        for s in range(self._players):
            self._scores[s] += self._points[s]
        self._hand_number += 1
        if self._hand_number >= self.config.hands:
            self._phase = Phase.MATCH_OVER
            best = max(self._scores)
            leaders = [s for s in range(self._players) if self._scores[s] == best]
            self._winner = leaders[0] if len(leaders) == 1 else None
        else:
            self._phase = Phase.SHUFFLE

    def observation(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "hand": [c.code if c else "??" for c in self._hands[seat]],
                "scores": list(self._scores)}

    # -------------------------------------------------------------- hand bookkeeping

    def _known_elsewhere(self, seat: int, c: Card) -> bool:
        return any(c in h for s, h in enumerate(self._hands) if s != seat)

    def _take(self, seat: int, c: Card) -> None:
        """Remove ``c`` (or, for ``HIDDEN`` or an unseen card, an unknown slot) from a hand."""
        hand = self._hands[seat]
        if c == HIDDEN:
            if None not in hand:
                raise IllegalMove("card-not-in-hand", f"seat {seat} has no hidden card", seat)
            hand.remove(None)
        elif c in hand:
            hand.remove(c)
        elif None in hand and c not in self._seen and not self._known_elsewhere(seat, c):
            hand.remove(None)
        else:
            raise IllegalMove("card-not-in-hand", f"{c} is not in seat {seat}'s hand", seat)

    def _check_holds(self, seat: int, c: Card) -> None:
        hand = self._hands[seat]
        if c == HIDDEN:
            if None not in hand:
                raise IllegalMove("card-not-in-hand", f"seat {seat} has no hidden card", seat)
        elif c not in hand and not (None in hand and c not in self._seen
                                    and not self._known_elsewhere(seat, c)):
            raise IllegalMove("card-not-in-hand", f"{c} is not in seat {seat}'s hand", seat)


class PassGame(_Base):
    """``toy-pass``: see the module docstring."""

    def __init__(self, config: ToyConfig) -> None:
        super().__init__(config)
        self._per = 4 if config.players <= 4 else 2
        self._stage = ""
        self._called: Card | None = None
        self._upcard: Card | None = None

    def begin_hand(self) -> None:
        if self._phase is not Phase.SHUFFLE:
            raise WrongPhase("begin_hand needs the SHUFFLE phase")
        n = self._players
        self._hands = [[] for _ in range(n)]
        self._seen = set()
        self._points = [0] * n
        self._called = None
        self._upcard = None
        steps = [ChanceStep(s * self._per + k, Zone.HAND, s, frozenset({s}))
                 for s in range(n) for k in range(self._per)]
        top = n * self._per
        steps.append(ChanceStep(top, Zone.HAND, 0, ALL_SEATS))
        steps.append(ChanceStep(top + 1, Zone.TABLE, None, ALL_SEATS))
        self._pending = tuple(steps)
        self._stage = "deal"
        self._phase = Phase.CHANCE

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        if self._phase is not Phase.CHANCE or len(revealed) != len(self._pending):
            raise WrongPhase("wrong chance completion")
        for step, c in zip(self._pending, revealed, strict=True):
            if step.zone is Zone.HAND:
                assert step.seat is not None
                self._hands[step.seat].append(c)
                if step.visible_to == ALL_SEATS:
                    assert c is not None
                    self._seen.add(c)
            else:
                assert c is not None
                self._upcard = c
                self._seen.add(c)
        self._pending = ()
        self._turn("call", 1)

    def _turn(self, stage: str, seat: int) -> None:
        self._stage, self._to_act, self._phase = stage, seat, Phase.ACTION

    def card_use(self, action: Action) -> CardUse:
        kind = action.kind
        if kind in ("give", "giveback") and action.card is not None:
            return CardUse(passed=(action.card,), to=1 if kind == "give" else 0)
        if kind == "discard":
            return CardUse(hidden=action.cards)
        if kind == "declare" and action.card is not None:
            return CardUse(kept=(action.card,))
        if kind == "meld":
            return CardUse(shown=action.cards)
        if kind == "play" and action.card is not None:
            return CardUse(shown=(action.card,))
        return CardUse()

    def legal_actions(self) -> list[Action]:
        seat = self._to_act
        hand = self._hands[seat]
        if None in hand:
            raise IllegalMove("unknown-hand", "this view does not know the hand", seat)
        known = [c for c in hand if c is not None]
        stage = self._stage
        if stage == "call":
            return sorted(Action("call", value=c.code) for c in SMALL.cards
                          if c not in known and c not in self._seen)
        if stage == "give":
            assert self._called is not None
            if self._called in known:
                return [Action("give", self._called)]
            return [Action("none")]
        if stage == "giveback":
            return sorted(Action("giveback", c) for c in known)
        if stage == "discard":
            return sorted(Action("discard", cards=(a, b)) for i, a in enumerate(known)
                          for b in known[i + 1:])
        if stage == "take":
            return [Action("take")]
        if stage == "declare":
            return sorted(Action("declare", c) for c in known)
        if stage == "meld":
            return sorted(Action("meld", cards=(a, b)) for i, a in enumerate(known)
                          for b in known[i + 1:])
        return sorted(Action("play", c) for c in known)

    def apply(self, action: Action) -> None:
        if self._phase is not Phase.ACTION:
            raise WrongPhase("no action is due")
        seat = self._to_act
        if action.kind != self._stage and not (self._stage == "give" and action.kind == "none"):
            raise IllegalMove("wrong-action", f"a {self._stage!r} action is due, not "
                              f"{action.kind!r}", seat)
        before = copy.deepcopy(self.__dict__)
        try:
            self._apply(seat, action)
        except IllegalMove:
            self.__dict__.update(before)
            raise

    def _apply(self, seat: int, action: Action) -> None:
        n = self._players
        kind = action.kind
        if kind == "call":
            called = card(action.value)
            if called not in SMALL or called in self._hands[seat] or called in self._seen:
                raise IllegalMove("bad-call", f"{called} cannot be called", seat)
            self._called = called
            self._turn("give", 0)
        elif kind == "none":
            hand = self._hands[seat]
            if None not in hand and self._called in hand:
                raise IllegalMove("false-denial", f"seat {seat} holds {self._called}", seat)
            self._turn("discard", n - 1)
        elif kind == "give":
            assert action.card is not None
            if action.card != HIDDEN and action.card != self._called:
                raise IllegalMove("must-give-called", f"gave {action.card}, not the called "
                                  f"{self._called}", seat)
            self._take(seat, action.card)
            self._hands[1].append(None if action.card == HIDDEN else action.card)
            self._turn("giveback", 1)
        elif kind == "giveback":
            assert action.card is not None
            self._take(seat, action.card)
            self._hands[0].append(None if action.card == HIDDEN else action.card)
            self._turn("discard", n - 1)
        elif kind == "discard":
            if len(action.cards) != 2:
                raise IllegalMove("bad-discard", "discard exactly two cards", seat)
            for c in action.cards:
                self._take(seat, c)
            self._turn("take", 0)
        elif kind == "take":
            assert self._upcard is not None
            self._hands[0].append(self._upcard)
            self._upcard = None
            self._turn("declare", 1)
        elif kind == "declare":
            c = action.card
            assert c is not None
            hand = self._hands[seat]
            self._check_holds(seat, c)
            if c not in hand:
                hand[hand.index(None)] = c
            self._seen.add(c)
            self._turn("meld", 0)
        elif kind == "meld":
            if len(action.cards) != 2:
                raise IllegalMove("bad-meld", "meld exactly two cards", seat)
            for c in action.cards:
                self._take(seat, c)
                self._seen.add(c)
                self._points[seat] += c.suit == "D"
            self._next_player(0)
        elif kind == "play":
            c = action.card
            assert c is not None
            self._take(seat, c)
            self._seen.add(c)
            self._points[seat] += c.suit == "D"
            self._next_player(seat + 1)

    def _next_player(self, start: int) -> None:
        n = self._players
        for k in range(n):
            s = (start + k) % n
            if self._hands[s]:
                self._turn("play", s)
                return
        self._phase = Phase.HAND_OVER


class ClaimGame(_Base):
    """``toy-claim``: see the module docstring."""

    def __init__(self, config: ToyConfig) -> None:
        super().__init__(config)
        self._last: Card | None = None

    def begin_hand(self) -> None:
        if self._phase is not Phase.SHUFFLE:
            raise WrongPhase("begin_hand needs the SHUFFLE phase")
        n = self._players
        self._hands = [[] for _ in range(n)]
        self._seen = set()
        self._points = [0] * n
        self._last = None
        per = 3 if n <= 6 else 2
        self._pending = tuple(ChanceStep(s * per + k, Zone.HAND, s, frozenset({s}))
                              for s in range(n) for k in range(per))
        self._phase = Phase.CHANCE

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        for step, c in zip(self._pending, revealed, strict=True):
            assert step.seat is not None
            self._hands[step.seat].append(c)
        self._pending = ()
        self._phase, self._to_act = Phase.ACTION, 0

    def legal_actions(self) -> list[Action]:
        hand = self._hands[self._to_act]
        if None in hand:
            raise IllegalMove("unknown-hand", "this view does not know the hand", self._to_act)
        return sorted(Action("play", c) for c in hand if c is not None)

    def apply(self, action: Action) -> None:
        seat = self._to_act
        if self._phase is not Phase.ACTION:
            raise WrongPhase("no action is due")
        if action.kind != "play" or action.card is None:
            raise IllegalMove("wrong-action", "only 'play' is due", seat)
        self._take(seat, action.card)
        self._seen.add(action.card)
        self._last = action.card
        self._advance(seat + 1)

    def _advance(self, start: int) -> None:
        n = self._players
        for k in range(n):
            s = (start + k) % n
            if self._hands[s]:
                self._to_act = s
                return
        self._phase = Phase.HAND_OVER

    def claimants(self) -> frozenset[int]:
        if self._phase is not Phase.ACTION or self._last is None:
            return frozenset()
        return frozenset(s for s in range(self._players)
                         if s != self._to_act and self._hands[s])

    def claim_actions(self, seat: int) -> list[Action]:
        if seat not in self.claimants() or self._last is None:
            return []
        hand = self._hands[seat]
        if None in hand:
            return []
        return sorted(Action("snap", c) for c in hand
                      if c is not None and c.suit == self._last.suit)

    def apply_claim(self, seat: int, action: Action) -> None:
        if seat not in self.claimants():
            raise IllegalMove("no-claim", f"seat {seat} may not claim now", seat)
        assert self._last is not None
        if action.kind == "snap" and action.card is not None:
            if action.card.suit != self._last.suit:
                raise IllegalMove("false-snap", f"{action.card} does not match "
                                  f"{self._last}", seat)
            self._take(seat, action.card)
            self._seen.add(action.card)
        elif action.kind == "bluff" and len(action.value) == 1:
            hand = self._hands[seat]
            if None not in hand and not any(c is not None and c.suit == action.value
                                            for c in hand):
                raise IllegalMove("false-bluff", f"seat {seat} holds no {action.value}", seat)
        else:
            raise IllegalMove("bad-claim", f"{action} is not a claim", seat)
        self._points[seat] += 1
        self._last = None
        if self._hands[seat]:
            self._to_act = seat
        else:
            self._advance(seat + 1)


def _spec(name: str, factory: Any) -> GameSpec:
    return GameSpec(name=name, title=name, rules_source="tests/toy_games.py",
                    player_counts=tuple(range(2, 9)), config_class=ToyConfig,
                    presets={"classic": {}}, preset_docs={"classic": "the only preset"},
                    factory=factory, flags=flags_of(ToyConfig), default_preset="classic")


PASS = _spec("toy-pass", PassGame)
CLAIM = _spec("toy-claim", ClaimGame)


@contextmanager
def registered(*specs: GameSpec) -> Iterator[None]:
    """Register test-only games for the duration of a ``with`` block."""
    registry = _registry()
    for spec in specs:
        registry[spec.name] = spec
    try:
        yield
    finally:
        for spec in specs:
            registry.pop(spec.name, None)
