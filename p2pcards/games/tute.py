"""Tute for 4 players in two partnerships (the Tute part of ``italian-card-games.txt``).

Rules as implemented (flags in brackets; the pure rules are in :mod:`.tute_rules`):

Deck and seats
    The Spanish 40-card deck (:data:`~p2pcards.cards.SPANISH_40`; codes as the Italian deck, read
    as oros ``D``, copas ``C``, espadas ``S``, bastos ``B``; sota ``J``, caballo ``Q``, rey ``K``).
    Seats 0 and 2 play against 1 and 3 (side = seat % 2). Hand ``h`` (0-based) is led by seat
    ``h % 4``; its dealer is the seat before it. (The text's counter-clockwise direction only maps
    to this numbering.)

Deal (one CHANCE phase of 40 steps)
    Deck position ``i`` goes to the hand of seat ``(first + i) % 4``, seen by that seat only,
    except the last position (39), the dealer's last card: it goes to the dealer's hand but is
    seen by every seat (``visible_to=ALL_SEATS``) and its suit is trumps for the hand.

Play
    The leader plays any card; the others must follow suit, head the trick, trump and overtrump
    (:func:`.tute_rules.play_error`: rules ``must-follow-suit``, ``must-head``, ``must-trump``,
    ``must-overtrump``) [``partner_relief``: a seat whose partner is winning only has to follow
    suit]. The highest trump, else the highest card of the suit led, wins; the winner's side takes
    the cards and the winner leads next.

Declarations (``Action("declare", cards=..., value=kind)``)
    Before leading, a seat that has just won a trick may make one declaration, showing the cards,
    which stay in its hand (``CardUse(kept=...)``): ``cuarenta`` (K and Q of trumps, 40 points),
    ``veinte`` (K and Q of another suit, 20 points), or ``tute`` (the four kings: the hand ends at
    once and that side wins it). Each suit's marriage is declared at most once per hand. No
    declaration after the last trick (there is no next lead). [``cuarenta_first``, on by default:
    las cuarenta may only be declared while no veinte has been declared in the hand, and a seat
    holding the K and Q of trumps may not declare a veinte before them: rule ``cuarenta-first``.]

Scoring
    Card points (120) plus 10 for the last trick plus the declarations: 130 + declarations per
    hand. The side with more points wins the hand; equal totals are a drawn hand. A tute wins
    the hand whatever the points.

Match [``hands``]
    The side that wins more of ``hands`` hands wins the match; if the sides are level after them
    (drawn hands count for nobody), further hands are played until one side is ahead.

Checks: what public information allows is checked at once (the card is not already known to be
elsewhere; the shape, timing and order of a declaration; an obligation broken by the cards known
to be in the hand: the dealer's trump card and declared cards). The obligations and the truth of a
declaration need the acting seat's whole hand: they are checked as soon as it is known in this
view, and so always in the full replay of the hand. A false declaration raises ``IllegalMove``
with rule ``false-declaration``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from ..cards import ITALIAN_SUITS, SPANISH_40, Card, Deck, card
from .base import (
    ALL_SEATS,
    Action,
    BadChance,
    BadPlayerCount,
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
    UnknownFlag,
    UnknownHand,
    VariantConfig,
    WrongPhase,
    Zone,
    flags_of,
    sort_actions,
)
from .tricks import PlayActions, action_card_order, all_known, index_in_hand
from .tute_rules import (
    CUARENTA,
    KING,
    LAST_TRICK_POINTS,
    QUEEN,
    TUTE,
    VEINTE,
    allowed_plays,
    declaration_points,
    marriage_error,
    marriages_held,
    play_error,
    points_of,
    trick_winner_seat,
)

__all__ = ["SPEC", "SPECS", "TuteConfig", "TuteMatch"]

PLAYERS = 4
HAND_SIZE = 10
MAX_HANDS = 99

_KINGS = tuple(Card(KING, s) for s in ITALIAN_SUITS)
_KING_CODES = tuple(c.code for c in _KINGS)
_TUTE_ACTION = Action("declare", cards=_KINGS, value=TUTE)
_MARRIAGE_ACTIONS = {
    (kind, suit): Action("declare", cards=(Card(KING, suit), Card(QUEEN, suit)), value=kind)
    for kind in (CUARENTA, VEINTE) for suit in ITALIAN_SUITS
}
"""The declarations a seat can make: immutable, so made once and listed by every state."""

_play_action = PlayActions()
_code = attrgetter("code")
"""A card's code, read in C (for ``map`` over a hand)."""
"""``Action("play", c)``, the one object every state lists for that card."""


def _deal_steps(first: int, size: int) -> tuple[ChanceStep, ...]:
    """Position ``i`` to seat ``(first + i) % 4``; the last one (the dealer's) seen by all."""
    last = size - 1
    return tuple(
        ChanceStep(i, Zone.HAND, (first + i) % PLAYERS,
                   ALL_SEATS if i == last else frozenset({(first + i) % PLAYERS}))
        for i in range(size)
    )


_DEALS = {first: _deal_steps(first, len(SPANISH_40)) for first in range(PLAYERS)}
"""The deal of each first leader: the same immutable steps every hand."""
_DECK_IDS = frozenset(map(id, SPANISH_40.cards))


@dataclass(frozen=True)
class TuteConfig(VariantConfig):
    """The variant of a Tute match; validated on construction."""

    players: int = field(metadata={"doc": "always 4: two partnerships, seats 0+2 and 1+3"})
    hands: int = field(
        default=3,
        metadata={"doc": "hands in the match (1-99); the side winning more hands wins, "
                         "extra hands break a tie"},
    )
    cuarenta_first: bool = field(
        default=True,
        metadata={"doc": "las cuarenta only before any veinte, and a seat holding it declares "
                         "it before its veintes", "choices": (True, False)},
    )
    partner_relief: bool = field(
        default=False,
        metadata={"doc": "a seat whose partner is winning the trick need only follow suit "
                         "(no heading, trumping or overtrumping)", "choices": (True, False)},
    )

    def __post_init__(self) -> None:
        if self.players != PLAYERS:
            raise BadPlayerCount(f"tute is for 4 players, not {self.players!r}")
        if type(self.hands) is not int or not 1 <= self.hands <= MAX_HANDS:
            raise UnknownFlag(f"flag 'hands' of tute takes 1 to {MAX_HANDS}, not {self.hands!r}")
        for name in ("cuarenta_first", "partner_relief"):
            if not isinstance(getattr(self, name), bool):
                raise UnknownFlag(f"flag {name!r} of tute takes a bool, not "
                                  f"{getattr(self, name)!r}")


@dataclass(frozen=True, slots=True)
class Declaration:
    """One declaration of the hand: who, what, which cards, after which trick (1-based)."""

    seat: int
    kind: str
    cards: tuple[Card, ...]
    trick: int

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "cards": [c.code for c in self.cards],
                "trick": self.trick}


def _as_card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else card(value)


class TuteMatch(MatchProgress):
    """A Tute match (the :class:`~p2pcards.games.base.MatchState` protocol).

    Hands are lists of ``Card | None`` (``None``: a card this view cannot see). See the module
    docstring for the rules.
    """

    config: TuteConfig

    def __init__(self, config: TuteConfig) -> None:
        if not isinstance(config, TuteConfig):
            raise GameError(f"tute needs a TuteConfig, got {type(config).__name__}")
        self.config = config
        self._n = PLAYERS
        self._sides = 2
        self._deck = SPANISH_40
        self._phase = Phase.SHUFFLE
        self._hand_number = 0
        self._hands_won = [0, 0]
        self._winner: int | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._hands: list[list[Card | None]] = [[] for _ in range(self._n)]
        self._known: set[Card] = set()
        """Cards this view knows the place of (own hand, public cards, played cards)."""
        self._public: list[set[Card]] = [set() for _ in range(self._n)]
        """Cards of each hand every seat knows (the trump card, declared cards)."""
        self._trump_card: Card | None = None
        self._leader = self._hand_number % self._n
        self._to_act = self._leader
        self._trick: list[tuple[int, Card]] = []
        self._last_trick: tuple[tuple[int, Card], ...] = ()
        self._last_wire: tuple[tuple[int, str], ...] = ()
        """:attr:`_last_trick` with card codes, made once per trick for the observations."""
        self._last_winner: int | None = None
        self._listed: Sequence[Action] = ()
        """The actions :meth:`legal_actions` listed for this very state, if it was asked."""
        self._tricks_done = 0
        self._played: list[Card] = []
        self._played_codes: list[str] = []
        """The codes of :attr:`_played`, in order, kept beside it for the observations."""
        self._piles: list[list[Card]] = [[], []]
        self._pile_points = [0, 0]
        """Card points of each pile, added up as tricks are taken."""
        self._may_declare: int | None = None
        self._declarations: list[Declaration] = []
        self._tute: int | None = None
        self._last_side: int | None = None
        self._result: HandResult | None = None

    # -- protocol properties --------------------------------------------------------------

    @property
    def deck(self) -> Deck:
        return self._deck

    def side_of(self, seat: int) -> int:
        """Seat ``s`` plays for side ``s % 2``."""
        self._check_seat(seat)
        return seat % 2

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise BadSeat(f"seat {seat!r} is not a seat of this 4-player tute table")

    @property
    def match_scores(self) -> tuple[int, ...]:
        """Hands won by each side."""
        return tuple(self._hands_won)

    # -- read-only position ---------------------------------------------------------------

    @property
    def dealer(self) -> int:
        """The dealer of the current hand: the seat before the first leader."""
        return (self._hand_number - 1) % self._n

    @property
    def trump_card(self) -> Card | None:
        """The dealer's last card, shown to all (``None`` before the deal)."""
        return self._trump_card

    @property
    def trump(self) -> str | None:
        """The trump suit of the hand (``None`` before the deal)."""
        return self._trump_card.suit if self._trump_card is not None else None

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick as ``(seat, card)`` pairs in playing order."""
        return tuple(self._trick)

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        """The declarations of this hand, in order."""
        return tuple(self._declarations)

    @property
    def may_declare(self) -> int | None:
        """The seat that has just won a trick and may still declare before leading."""
        return self._may_declare

    def hand(self, seat: int) -> tuple[Card | None, ...]:
        """A seat's hand in this view (``None`` = unknown card)."""
        self._check_seat(seat)
        return tuple(self._hands[seat])

    def hand_known(self, seat: int) -> bool:
        """Whether every card of ``seat``'s hand is known in this view."""
        self._check_seat(seat)
        return all_known(self._hands[seat])

    def captured(self, side: int) -> tuple[Card, ...]:
        """The cards a side has won this hand."""
        if not isinstance(side, int) or not 0 <= side < self._sides:
            raise BadSeat(f"side {side!r} is not a side of this tute match")
        return tuple(self._piles[side])

    # -- dealing ----------------------------------------------------------------------------

    def begin_hand(self) -> None:
        """In SHUFFLE: a shuffled deck is ready; ask for the whole deal (one CHANCE phase)."""
        self._need(Phase.SHUFFLE, "begin_hand")
        self._reset_hand()
        self._phase = Phase.CHANCE

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """Position ``i`` to seat ``(first + i) % 4``; the last one (the dealer's) seen by all."""
        self._need(Phase.CHANCE, "pending_chance")
        return _DEALS[self._leader]

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """The deal: one card per position (``None`` where this view cannot see it).

        Raises :class:`BadChance` (state unchanged) for a wrong count, a card not in the deck, a
        card given twice or an unknown trump card.
        """
        self._need(Phase.CHANCE, "complete_chance")
        self._listed = ()
        steps = self.pending_chance()
        if len(revealed) != len(steps):
            raise BadChance(f"the tute deal needs {len(steps)} cards, got {len(revealed)}")
        known = [c for c in revealed if c is not None]
        ids = set(map(id, known))
        if len(ids) != len(known) or not ids <= _DECK_IDS:  # else: distinct cards of the deck
            for c in known:
                if not isinstance(c, Card) or c not in self._deck:
                    raise BadChance(f"{c!r} is not a card of the {self._deck.name} deck")
            if len(set(known)) != len(known):
                raise BadChance("the deal reveals the same card at two positions")
        trump = revealed[-1]
        if trump is None:
            raise BadChance("the dealer's last card is shown to every seat; it cannot be unknown")
        for step, given in zip(steps, revealed, strict=True):
            assert step.seat is not None
            self._hands[step.seat].append(given)
        self._trump_card = trump
        self._public[self.dealer].add(trump)
        self._known = set(known)
        self._phase = Phase.ACTION
        self._to_act = self._leader

    # -- legal actions ----------------------------------------------------------------------

    def _relieved(self, seat: int) -> bool:
        if not self.config.partner_relief or not self._trick:
            return False
        assert self._trump_card is not None
        return trick_winner_seat(self._trick, self._trump_card.suit) % 2 == seat % 2

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of :attr:`to_act`: plays, and declarations when due.

        Raises :class:`UnknownHand` if that seat's hand is not known in this view.
        """
        if self._phase is not Phase.ACTION:
            return []
        seat = self._to_act
        hand = self._hands[seat]
        if not all_known(hand):
            raise UnknownHand(f"legal_actions needs seat {seat}'s hand, unknown in this view")
        assert self._trump_card is not None
        known: list[Card] = hand  # type: ignore[assignment]  # all_known: no None in it
        plays = allowed_plays(known, self._trick, self._trump_card.suit,
                              relieved=self._relieved(seat))
        # "declare" sorts before "play"; plays sorted by card are in action order
        out = (sort_actions(self._legal_declarations(seat, known))
               if self._may_declare == seat else [])
        out += map(_play_action, sorted(plays, key=action_card_order))
        self._listed = out
        return list(out)

    def _legal_declarations(self, seat: int, hand: list[Card]) -> list[Action]:
        assert self._trump_card is not None
        trump = self._trump_card.suit
        out: list[Action] = []
        codes = {c.code for c in hand}  # a hand holds cards of the deck: equal codes, equal cards
        if all(code in codes for code in _KING_CODES):
            out.append(_TUTE_ACTION)
        for suit in ITALIAN_SUITS:
            if "K" + suit not in codes or "Q" + suit not in codes:
                continue
            kind = CUARENTA if suit == trump else VEINTE
            if self._order_error(seat, kind, suit, hand) is None:
                out.append(_MARRIAGE_ACTIONS[kind, suit])
        return out

    def _order_error(self, seat: int, kind: str, suit: str,
                     hand: list[Card]) -> tuple[str, str] | None:
        """The rule id and reason that forbid declaring ``kind`` of ``suit`` now (``hand``: the
        cards known to be held), or ``None``."""
        if any(d.kind in (CUARENTA, VEINTE) and d.cards[0].suit == suit
               for d in self._declarations):
            return "already-declared", f"the marriage of {suit} was already declared this hand"
        if not self.config.cuarenta_first:
            return None
        assert self._trump_card is not None
        trump = self._trump_card.suit
        if kind == CUARENTA and any(d.kind == VEINTE for d in self._declarations):
            return "cuarenta-first", "las cuarenta may not be declared once las veinte has been"
        if (kind == VEINTE and trump in marriages_held(hand)
                and not any(d.kind == VEINTE for d in self._declarations)
                and not any(d.kind == CUARENTA for d in self._declarations)):
            return "cuarenta-first", (f"seat {seat} holds las cuarenta and must declare them "
                                      "before las veinte")
        return None

    # -- applying actions -------------------------------------------------------------------

    def card_use(self, action: Action) -> CardUse:
        """A play shows its card and takes it from the hand; a declaration shows its cards and
        keeps them in the hand."""
        if action.kind == "declare":
            return CardUse(kept=action.cards)
        return super().card_use(action)

    def apply(self, action: Action) -> None:
        """Apply ``to_act``'s play or declaration; :class:`IllegalMove` (state unchanged)
        naming the rule otherwise (see the module docstring and :data:`RULE_IDS`).

        A play that is one of the very objects :meth:`legal_actions` listed for this state (the
        list is kept private, and forgotten at every change of the state) is legal, so it is
        played without checking it again; any other action is checked rule by rule."""
        listed = self._listed
        self._listed = ()
        seat = self._to_act
        if id(action) in map(id, listed) and action.kind == "play":
            played = action.card
            assert played is not None
            self._hands[seat].pop(index_in_hand(self._hands[seat], played))
            self._play_out(seat, played)
            return
        if self._phase is not Phase.ACTION:
            raise IllegalMove("wrong-phase", f"nothing can be played in phase "
                              f"{self._phase.value}", seat)
        if not isinstance(action, Action):
            raise IllegalMove("malformed-action", f"an action must be an Action, not {action!r}",
                              seat)
        if action.kind == "play":
            self._apply_play(seat, action)
        elif action.kind == "declare":
            self._apply_declare(seat, action)
        else:
            raise IllegalMove("unknown-action", f"tute has 'play' and 'declare' actions, not "
                              f"{action.kind!r}", seat)

    def _take(self, seat: int, c: Card, *, keep: bool) -> bool:
        """Whether ``c`` may be in ``seat``'s hand in this view; if so and ``keep`` is false,
        take it out; if kept, make sure the hand lists it (it becomes public)."""
        hand = self._hands[seat]
        if c in hand:
            if not keep:
                hand.remove(c)
            return True
        if None in hand and c not in self._known and c in self._deck:
            hand[hand.index(None)] = c
            self._known.add(c)
            if not keep:
                hand.remove(c)
            return True
        return False

    def _apply_play(self, seat: int, action: Action) -> None:
        played = action.card
        if action.cards or action.value or action.amount:
            raise IllegalMove("malformed-action", f"a tute play names one card only, not "
                              f"{action}", seat)
        if played is None or played.suit == "?":
            raise IllegalMove("card-hidden", f"seat {seat} must show the card it plays", seat)
        hand = self._hands[seat]
        at = index_in_hand(hand, played)  # a card found in the hand is a card of the deck
        if at < 0 and played not in self._deck:
            raise IllegalMove("card-not-in-deck", f"{played.code} is not in the "
                              f"{self._deck.name} deck", seat)
        if at < 0 and (all_known(hand) or played in self._known):
            raise IllegalMove("card-not-in-hand", f"seat {seat} cannot play {played.code}: it "
                              "is not in that seat's hand", seat)
        assert self._trump_card is not None
        if self._trick:  # a lead breaks no obligation
            trump = self._trump_card.suit
            known = [c for c in hand if c is not None]
            if at < 0:
                known.append(played)
            rule = play_error(known, played, self._trick, trump, relieved=self._relieved(seat))
            if rule is not None:
                led = self._trick[0][1]
                raise IllegalMove(rule, f"seat {seat} played {played.code} to a trick led with "
                                  f"{led.code} (trumps {trump}) breaking the rule {rule}", seat)
        if at >= 0:
            hand.pop(at)
        else:
            taken = self._take(seat, played, keep=False)
            assert taken
        self._play_out(seat, played)

    def _play_out(self, seat: int, played: Card) -> None:
        """Put ``played`` (a legal play, already out of ``seat``'s hand) on the trick."""
        public = self._public[seat]
        if public:
            public.discard(played)
        self._may_declare = None
        self._played.append(played)
        self._played_codes.append(played.code)
        self._trick.append((seat, played))
        if len(self._trick) < self._n:
            self._to_act = (seat + 1) % self._n
            return
        self._close_trick()

    def _apply_declare(self, seat: int, action: Action) -> None:
        if action.card is not None or action.amount:
            raise IllegalMove("malformed-action", "a declaration names its cards in 'cards' and "
                              "its kind in 'value' only", seat)
        assert self._trump_card is not None
        trump = self._trump_card.suit
        problem = marriage_error(action.value, action.cards, trump)
        if problem is not None:
            raise IllegalMove("bad-declaration", f"seat {seat}'s declaration: {problem}", seat)
        if self._may_declare != seat:
            raise IllegalMove("declaration-not-due", f"seat {seat} may declare only after "
                              "winning a trick, once, before leading", seat)
        codes = " ".join(c.code for c in action.cards)
        hand = self._hands[seat]
        if any(c not in hand and (None not in hand or c in self._known) for c in action.cards):
            raise IllegalMove("false-declaration", f"seat {seat} declared {action.value} "
                              f"{codes} without holding those cards", seat)
        known = [c for c in hand if c is not None]
        known += [c for c in action.cards if c not in known]
        if action.value != TUTE:
            why = self._order_error(seat, action.value, action.cards[0].suit, known)
            if why is not None:
                raise IllegalMove(why[0], f"seat {seat} cannot declare {action.value}: {why[1]}",
                                  seat)
        for c in action.cards:
            taken = self._take(seat, c, keep=True)
            assert taken
            self._public[seat].add(c)
        self._declarations.append(Declaration(seat, action.value, action.cards,
                                              self._tricks_done))
        self._may_declare = None
        if action.value == TUTE:
            self._tute = seat
            self._finish_hand()

    def _close_trick(self) -> None:
        assert self._trump_card is not None
        winner = trick_winner_seat(self._trick, self._trump_card.suit)
        side = winner % 2
        taken = [c for _, c in self._trick]
        self._piles[side] += taken
        self._pile_points[side] += points_of(taken)
        self._last_trick = tuple(self._trick)
        self._last_wire = tuple([(s, c.code) for s, c in self._trick])
        self._last_winner = winner
        self._trick = []
        self._tricks_done += 1
        self._leader = self._to_act = winner
        if self._tricks_done == HAND_SIZE:
            self._last_side = side
            self._finish_hand()
        else:
            self._may_declare = winner

    # -- scoring and match ----------------------------------------------------------------

    def card_points(self) -> tuple[int, ...]:
        """Card points each side has won so far in this hand."""
        return tuple(self._pile_points)

    def _finish_hand(self) -> None:
        cards = self.card_points()
        last = tuple(LAST_TRICK_POINTS if self._last_side == s else 0 for s in range(2))
        declared = [0, 0]
        for d in self._declarations:
            declared[d.seat % 2] += declaration_points(d.kind)
        totals = tuple(cards[s] + last[s] + declared[s] for s in range(2))
        lines = [
            ScoreLine("card points", cards, cards),
            ScoreLine("last trick", tuple(int(self._last_side == s) for s in range(2)), last),
            ScoreLine("declarations", tuple(declared), tuple(declared)),
        ]
        if self._tute is not None:
            won = tuple(int(self._tute % 2 == s) for s in range(2))
            lines.append(ScoreLine("tute", won, (0, 0)))
        elif totals[0] != totals[1]:
            won = tuple(int(totals[s] > totals[1 - s]) for s in range(2))
        else:
            won = (0, 0)
        lines.append(ScoreLine("hand won", totals, won))
        self._result = HandResult(lines=tuple(lines), points=won)
        self._phase = Phase.HAND_OVER

    def hand_result(self) -> HandResult:
        """In HAND_OVER: ``card points``, ``last trick`` (values: 1 for the side that took it,
        points 10), ``declarations``, ``tute`` (only when one was declared: values 1 for its side,
        no points) and ``hand won`` (values: the totals; points: 1 for the winning side). The
        hand's points are the ``hand won`` points: 1 to the winner, nothing on a draw."""
        if self._phase is not Phase.HAND_OVER or self._result is None:
            raise WrongPhase(f"hand_result needs the hand_over phase, not {self._phase.value}")
        return self._result

    def next_hand(self) -> None:
        """Add the hand won; end the match after ``hands`` hands if a side is ahead, else go on
        to the next shuffle."""
        result = self.hand_result()
        for side, pts in enumerate(result.points):
            self._hands_won[side] += pts
        a, b = self._hands_won
        if self._hand_number + 1 >= self.config.hands and a != b:
            self._winner = 0 if a > b else 1
            self._phase = Phase.MATCH_OVER
            return
        self._hand_number += 1
        self._reset_hand()
        self._phase = Phase.SHUFFLE

    # -- observation and copy ---------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees (card codes as text): ``game``, ``seat``, ``side``, ``players``,
        ``phase``, ``hand_number``, ``dealer``, ``to_act`` (``None`` outside ACTION), ``hand``
        (own known cards), ``hand_sizes``, ``shown_cards`` (``[seat, code]`` pairs: cards still
        in a hand that every seat knows, the trump card and declared cards), ``trump_card``,
        ``trump_suit``, ``trick`` (``[seat, code]`` pairs), ``last_trick``
        (``{"cards", "winner"}`` or ``None``), ``tricks_done``, ``played`` (every card played
        this hand, in order), ``captured_points`` per side
        (every won card was played face up), ``declarations``, ``may_declare``, ``hands``,
        ``match_scores`` (hands won), ``winner``. No other card of another seat appears."""
        self._check_seat(seat)
        trump = self._trump_card
        last = None
        if self._last_trick:
            last = {"cards": list(map(list, self._last_wire)), "winner": self._last_winner}
        own = self._hands[seat]
        return {
            "game": "tute",
            "seat": seat,
            "side": seat % 2,
            "players": self._n,
            "phase": self._phase.value,
            "hand_number": self._hand_number,
            "dealer": self.dealer,
            "to_act": self._to_act if self._phase is Phase.ACTION else None,
            "hand": list(map(_code, own)) if all_known(own)
            else [c.code for c in own if c is not None],
            "hand_sizes": list(map(len, self._hands)),
            "shown_cards": [[s, code] for s, p in enumerate(self._public) if p
                            for code in sorted(map(_code, p))],
            "trump_card": trump.code if trump is not None else None,
            "trump_suit": trump.suit if trump is not None else None,
            "trick": [[s, c.code] for s, c in self._trick],
            "last_trick": last,
            "tricks_done": self._tricks_done,
            "played": list(self._played_codes),
            "captured_points": list(self._pile_points),
            "declarations": [d.to_wire() for d in self._declarations]
            if self._declarations else [],
            "may_declare": self._may_declare,
            "hands": self.config.hands,
            "match_scores": list(self._hands_won),
            "winner": self._winner,
        }

    def copy(self) -> TuteMatch:
        """An independent copy (cards are immutable, so containers are copied one level)."""
        new = object.__new__(TuteMatch)
        new.__dict__.update(self.__dict__)
        new._hands = [list(h) for h in self._hands]
        new._known = set(self._known)
        new._public = [set(p) for p in self._public]
        new._trick = list(self._trick)
        new._played = list(self._played)
        new._played_codes = list(self._played_codes)
        new._piles = [list(p) for p in self._piles]
        new._pile_points = list(self._pile_points)
        new._declarations = list(self._declarations)
        new._hands_won = list(self._hands_won)
        return new

    def _need(self, phase: Phase, method: str) -> None:
        if self._phase is not phase:
            raise WrongPhase(f"{method} needs phase {phase.value}, but the match is in "
                             f"{self._phase.value}")

    # -- testing aid ------------------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        config: TuteConfig,
        hands: Sequence[Sequence[Card | str | None]],
        trump: Card | str,
        *,
        leader: int = 0,
        trick: Sequence[Card | str] = (),
        captured: Sequence[Sequence[Card | str]] | None = None,
        tricks_done: int | None = None,
        may_declare: bool = False,
        declarations: Sequence[tuple[int, str, Sequence[Card | str]]] = (),
        hand_number: int = 0,
        hands_won: Sequence[int] = (0, 0),
    ) -> TuteMatch:
        """A match in ACTION at a hand-built position (a testing aid).

        ``hands`` per seat (``None`` = unknown card), ``trump`` the trump card (wherever it is
        now), ``trick`` the cards played so far by ``leader``, ``leader + 1``, ...; ``captured``
        each side's pile; ``tricks_done`` (default: captured cards / 4); ``may_declare``: the
        leader has just won a trick; ``declarations`` already made as ``(seat, kind, cards)``.
        Raises :class:`GameError` on a card given twice or not in the deck.
        """
        state = cls(config)
        state._hand_number = hand_number
        state._reset_hand()
        state._hands_won = list(hands_won)
        if len(hands) != PLAYERS:
            raise GameError(f"from_position needs 4 hands, got {len(hands)}")
        state._hands = [[None if c is None else _as_card(c) for c in h] for h in hands]
        piles = [[_as_card(c) for c in p] for p in (captured or ([], []))]
        trick_cards = [_as_card(c) for c in trick]
        placed = [c for h in state._hands for c in h if c is not None]
        placed += trick_cards + [c for p in piles for c in p]
        if len(set(placed)) != len(placed) or any(c not in state._deck for c in placed):
            raise GameError("from_position: a card is given twice or is not in the deck")
        state._trump_card = _as_card(trump)
        state._piles = piles
        state._pile_points = [points_of(p) for p in piles]
        state._known = set(placed)
        state._leader = leader % PLAYERS
        state._trick = [((leader + i) % PLAYERS, c) for i, c in enumerate(trick_cards)]
        state._played = [c for p in piles for c in p] + trick_cards
        state._played_codes = [c.code for c in state._played]
        state._tricks_done = (sum(map(len, piles)) // PLAYERS if tricks_done is None
                              else tricks_done)
        state._declarations = [Declaration(s, k, tuple(_as_card(c) for c in cs), 0)
                               for s, k, cs in declarations]
        for d in state._declarations:
            state._public[d.seat].update(c for c in d.cards if c in state._hands[d.seat])
        state._may_declare = state._leader if may_declare and not trick_cards else None
        state._to_act = (leader + len(trick_cards)) % PLAYERS
        state._phase = Phase.ACTION
        return state


RULE_IDS = (
    "must-follow-suit", "must-head", "must-trump", "must-overtrump", "false-declaration",
    "cuarenta-first", "already-declared", "declaration-not-due", "bad-declaration",
    "card-not-in-hand", "card-not-in-deck", "card-hidden", "malformed-action", "unknown-action",
    "wrong-phase",
)
"""Every :class:`IllegalMove` rule id this engine raises."""

LEGEND = ("palos: D oros, C copas, S espadas, B bastos; A as, J sota, Q caballo, K rey "
          "(e.g. KD = rey de oros)")

SPEC = GameSpec(
    name="tute",
    title="Tute: 4 players in partnerships, Spanish deck, must head and trump, 40 and 20",
    rules_source="italian-card-games.txt",
    player_counts=(PLAYERS,),
    config_class=TuteConfig,
    presets={
        "classic": {"hands": 3},
        "single": {"hands": 1},
        "long": {"hands": 7},
        "free-cuarenta": {"hands": 3, "cuarenta_first": False},
        "partner-relief": {"hands": 3, "partner_relief": True},
    },
    preset_docs={
        "classic": "italian-card-games.txt: best of 3 hands, las cuarenta only as the first "
                   "declaration",
        "single": "one hand decides the match (a drawn hand is replayed)",
        "long": "best of 7 hands",
        "free-cuarenta": "las cuarenta may be declared at any time, in any order",
        "partner-relief": "house rule: no obligation to head, trump or overtrump while the "
                          "partner is winning the trick",
    },
    factory=TuteMatch,
    flags=flags_of(TuteConfig),
    default_preset="classic",
    legend=LEGEND,
    screen=(
        ("trump_card", "triunfo"), ("trick", "baza en juego"), ("last_trick", "última baza"),
        ("shown_cards", "cartas vistas"), ("hand_sizes", "cartas en mano"),
        ("declarations", "cantes"), ("captured_points", "puntos"),
        ("match_scores", "manos ganadas"),
    ),
)

SPECS = (SPEC,)
