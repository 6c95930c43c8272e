"""The shared API of every rules engine.

An engine is pure: no I/O, no cryptography, no clocks, no randomness. It never shuffles: it asks
for cards through *chance steps* and the caller (the table state machine, a simulation, the
verifier) fulfils them.

Life of a match, as seen by a caller::

    game = get_game("scopa")                      # a GameSpec
    config = game.preset("classic", players=2)    # a frozen VariantConfig
    state = game.new_match(config)                # a MatchState
    while not state.match_over:
        match state.phase:
            case Phase.SHUFFLE:  # a fresh shuffled deck is needed (new hand or redeal)
                state.begin_hand()
            case Phase.CHANCE:   # deck positions must be revealed to some seats
                steps = state.pending_chance()
                state.complete_chance([card_or_None for each step])
            case Phase.ACTION:   # state.to_act must choose
                state.apply(action)    # raises IllegalMove naming the rule
            case Phase.HAND_OVER:
                result = state.hand_result()   # score breakdown by category
                state.next_hand()

Two modes with one engine:

- *full information* (verifier, simulations, the replay after each hand): every chance step is
  completed with the real card, so every rule is checked at once;
- *live view* of one seat: chance steps that seat cannot see are completed with ``None`` (an
  unknown card). Rules that need hidden cards (must follow suit, truth of a declaration) cannot be
  checked then and are left to the full replay after the keys are revealed; everything public
  information allows is checked at once.

An :class:`Action` names the card(s) played. A card leaving an unknown slot of a hand is revealed
by the caller (reveal token) before ``apply``; the engine then removes an unknown slot from that
seat's hand. Actions whose card stays hidden from some seats (a card passed privately) are given to
those seats' live views with ``card=None``.

Which cards of the acting seat's hand an action uses, and how (shown to all and leaving the hand,
shown and kept, moved face down, passed privately to one seat), is the engine's answer to
:meth:`MatchProgress.card_use`; the table proves each of them with the mental-poker layer. A card
that a viewer may not learn travels in the action as :data:`~p2pcards.cards.HIDDEN` (``??``); the
table puts the real card in its place for the seats that may see it and, after the keys are
revealed, in the full replay. Engines accept actions holding ``HIDDEN`` in their live views.

Bids and a called card are actions; bets and chips are actions with an integer ``amount`` and a
side-state of chip counts; drawing from a stock is a chance step the engine requests after a
``draw`` action. An out-of-turn claim (Rumino) is offered by :meth:`MatchProgress.claimants`: while
``to_act`` is due to act, the seats it names may send a claim instead, and whichever message comes
first in the chain is applied (one linear chain, ordered by the hub).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Protocol, cast

from ..cards import HIDDEN, Card, Deck, card

__all__ = [
    "ALL_SEATS",
    "default_card_use",
    "sort_actions",
    "Action",
    "BadChance",
    "BadPlayerCount",
    "BadSeat",
    "CardUse",
    "ChanceStep",
    "Flag",
    "GameError",
    "GameSpec",
    "HandResult",
    "IllegalMove",
    "MatchProgress",
    "MatchState",
    "Phase",
    "ScoreLine",
    "UnknownFlag",
    "UnknownGame",
    "UnknownHand",
    "UnknownVariant",
    "VariantConfig",
    "WrongPhase",
    "Zone",
]


class GameError(Exception):
    """Base class of every error raised by the rules engines."""


class IllegalMove(GameError):
    """An action the rules forbid. ``rule`` is a short stable identifier (``must-follow-suit``);
    the message is a sentence naming the rule and the card or value at fault."""

    def __init__(self, rule: str, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.seat = seat


class UnknownGame(GameError, ValueError):
    """No game by that name."""


class UnknownVariant(GameError, ValueError):
    """No preset by that name for the game."""


class UnknownFlag(GameError, ValueError):
    """A flag name the game does not have, or a value it does not accept."""


class BadPlayerCount(GameError, ValueError):
    """A number of players the game or preset does not support."""


class WrongPhase(GameError, RuntimeError):
    """A method called in a phase where it has no meaning (e.g. ``begin_hand`` mid-hand)."""


class BadSeat(GameError, ValueError):
    """A seat or side number outside the table."""


class UnknownHand(GameError):
    """The acting seat's hand is not known in this view, so its legal actions cannot be listed."""


class BadChance(GameError, ValueError):
    """Cards given to ``complete_chance`` that cannot be right: the wrong count, a card not in the
    deck, a card already placed, an unknown card where everyone sees it."""


class Phase(enum.Enum):
    """What the match is waiting for."""

    SHUFFLE = "shuffle"
    """A fresh shuffled deck is needed: call :meth:`MatchState.begin_hand`."""
    CHANCE = "chance"
    """Deck positions must be revealed: :meth:`MatchState.pending_chance`."""
    ACTION = "action"
    """``to_act`` must choose one of :meth:`MatchState.legal_actions`."""
    HAND_OVER = "hand_over"
    """Score with :meth:`MatchState.hand_result`, then :meth:`MatchState.next_hand`."""
    MATCH_OVER = "match_over"
    """Nothing more: see :attr:`MatchState.winner`."""


class Zone(enum.Enum):
    """Where a chance step sends a card."""

    HAND = "hand"
    TABLE = "table"
    """Face up on the table (Scopa's opening four)."""
    TRUMP = "trump"
    """The face-up trump card under the stock (Briscola)."""
    STOCK = "stock"
    WIDOW = "widow"
    DISCARD = "discard"
    SHOW = "show"
    """An already dealt card of ``seat``'s hand shown to other seats (Briscola partners' look)."""


ALL_SEATS: frozenset[int] = frozenset({-1})
"""``visible_to`` value meaning: every seat (and every observer) sees it."""


@dataclass(frozen=True, slots=True)
class ChanceStep:
    """One card movement the caller must fulfil.

    ``position`` is the index in this hand's shuffled deck (0 = top). For ``Zone.SHOW``,
    ``position`` is the index in ``seat``'s current hand list instead. ``visible_to`` is the set of
    seats that learn the card (:data:`ALL_SEATS` for everyone; empty for nobody).
    """

    position: int
    zone: Zone
    seat: int | None
    visible_to: frozenset[int]

    def visible(self, seat: int) -> bool:
        """Whether ``seat`` learns this card."""
        return self.visible_to == ALL_SEATS or seat in self.visible_to


@dataclass(frozen=True, order=True, slots=True)
class Action:
    """A decision of one seat. Sorting is deterministic (by kind, card, cards, value, amount).

    - ``kind``: ``play``, ``declare``, ``signal``, ``bid``, ``pass``, ``call``, ``draw``, ...
    - ``card``: the card played (``None`` when hidden from the viewer)
    - ``cards``: further cards (a capture set, a meld, a declared combination)
    - ``value``: a text argument (a signal name, a declaration kind, a suit)
    - ``amount``: an integer argument (a bet, a bid)
    """

    kind: str
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    value: str = ""
    amount: int = 0

    def to_wire(self) -> dict[str, Any]:
        """A plain dict (card codes as text), omitting empty fields; stable across versions."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.card is not None:
            out["card"] = self.card.code
        if self.cards:
            out["cards"] = [c.code for c in self.cards]
        if self.value:
            out["value"] = self.value
        if self.amount:
            out["amount"] = self.amount
        return out

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Action:
        """Inverse of :meth:`to_wire`; raises :class:`GameError` naming a malformed field."""
        if not isinstance(data, Mapping):
            raise GameError(f"an action must be a map, got {type(data).__name__}")
        unknown = set(data) - {"kind", "card", "cards", "value", "amount"}
        if unknown:
            raise GameError(f"unknown action field(s): {', '.join(sorted(map(str, unknown)))}")
        kind = data.get("kind")
        if not isinstance(kind, str) or not kind:
            raise GameError("an action needs a non-empty text 'kind'")
        raw_card = data.get("card")
        raw_cards = data.get("cards", [])
        value = data.get("value", "")
        amount = data.get("amount", 0)
        if raw_card is not None and not isinstance(raw_card, str):
            raise GameError("action field 'card' must be a card code")
        if not isinstance(raw_cards, list | tuple) or not all(
            isinstance(c, str) for c in raw_cards
        ):
            raise GameError("action field 'cards' must be a list of card codes")
        if not isinstance(value, str):
            raise GameError("action field 'value' must be text")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise GameError("action field 'amount' must be an integer")
        try:
            return cls(
                kind=kind,
                card=card(raw_card) if raw_card is not None else None,
                cards=tuple(card(c) for c in raw_cards),
                value=value,
                amount=amount,
            )
        except ValueError as exc:
            raise GameError(f"bad card in action: {exc}") from None

    def __str__(self) -> str:
        parts = [self.kind]
        if self.card is not None:
            parts.append(self.card.code)
        if self.cards:
            parts.append("[" + " ".join(c.code for c in self.cards) + "]")
        if self.value:
            parts.append(self.value)
        if self.amount:
            parts.append(str(self.amount))
        return " ".join(parts)


def _action_key(a: Action) -> tuple[Any, ...]:
    card = a.card
    return (a.kind, () if card is None else (card.rank, card.suit, card.copy),
            tuple([(c.rank, c.suit, c.copy) for c in a.cards]), a.value, a.amount)


_new_object = object.__new__
_set_kind, _set_card, _set_cards, _set_value, _set_amount = (
    Action.__dict__[name].__set__ for name in ("kind", "card", "cards", "value", "amount"))


def actions_with_cards(kind: str, combos: Iterable[tuple[Card, ...]],
                       amount: int = 0) -> list[Action]:
    """``[Action(kind, cards=c, amount=amount) for c in combos]``, equal action for action,
    built without the frozen dataclass's guarded field assignments: about 2.5 times cheaper, for
    the hundreds of melds or discards some states offer."""
    out: list[Action] = []
    append = out.append
    for combo in combos:
        action = _new_object(Action)
        _set_kind(action, kind)
        _set_card(action, None)
        _set_cards(action, combo)
        _set_value(action, "")
        _set_amount(action, amount)
        append(action)
    return out


def sort_actions(actions: Iterable[Action]) -> list[Action]:
    """``actions`` in :class:`Action`'s order (kind, card, cards, value, amount; cards by rank,
    suit and copy), as ``sorted`` would put them, but compared as plain tuples: much cheaper
    for the long lists of the meld games. Where ``sorted`` would compare a missing card with a
    card (an error), the missing card comes first."""
    return sorted(actions, key=_action_key)


@dataclass(frozen=True, slots=True)
class CardUse:
    """How one action uses cards of the acting seat's own hand: what the table must prove.

    Cards the action names that are *not* listed here (a Scopa capture's table cards, a called
    card that is only named) are not taken from the actor's hand and need no proof.

    - ``shown``: shown to every seat and leaving the hand (a card played, a face-up discard, the
      cards of a meld). Each needs the owner's reveal token unless already public.
    - ``kept``: shown to every seat and staying in the hand (a marriage declared in Tute). Once
      shown, the card is public: playing it later needs no further token.
    - ``hidden``: leaving the hand face down, seen by nobody until the end-of-hand audit
      (Calabrasella's discards). In the action they appear as :data:`HIDDEN`; the table publishes
      their deck positions, so their number is proven.
    - ``passed`` and ``to``: leaving the hand for seat ``to``'s hand, seen by that seat only (the
      card called in Calabrasella and the card given back). In the action they appear as
      :data:`HIDDEN` to every seat but ``to``, which learns the card from a sealed token.

    The order inside each tuple follows the order of the cards in the action (``card`` first, then
    ``cards``); the table substitutes real cards for :data:`HIDDEN` in that order.
    """

    shown: tuple[Card, ...] = ()
    kept: tuple[Card, ...] = ()
    hidden: tuple[Card, ...] = ()
    passed: tuple[Card, ...] = ()
    to: int | None = None

    @property
    def empty(self) -> bool:
        """True when the action takes nothing from the actor's hand."""
        return not (self.shown or self.kept or self.hidden or self.passed)


def default_card_use(action: Action) -> CardUse:
    """The usual answer of :meth:`MatchProgress.card_use`: ``action.card``, when there is one,
    leaves the actor's hand face up; ``action.cards`` are not the actor's (table cards)."""
    if action.card is None:
        return CardUse()
    if action.card == HIDDEN:
        return CardUse(hidden=(action.card,))
    return CardUse(shown=(action.card,))


@dataclass(frozen=True)
class ScoreLine:
    """One scoring category of a hand: what each side had (``values``, e.g. cards captured or a
    primiera total, ``None`` where not applicable) and the points each side got for it."""

    category: str
    values: tuple[int | None, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class HandResult:
    """The score of one hand, per side (seat for individual play, partnership otherwise)."""

    lines: tuple[ScoreLine, ...]
    points: tuple[int, ...]
    """The points each side adds to its match score for this hand (after any rule that stops
    counting when a target is reached)."""

    def to_wire(self) -> dict[str, Any]:
        """A plain dict for transcripts and JSON."""
        return {
            "points": list(self.points),
            "lines": [
                {"category": ln.category, "values": list(ln.values), "points": list(ln.points)}
                for ln in self.lines
            ],
        }


@dataclass(frozen=True)
class Flag:
    """A documented variant flag: name, default value, and the one-line description ``rules``
    prints. ``choices`` restricts the accepted values when not empty."""

    name: str
    default: object
    description: str
    choices: tuple[object, ...] = ()


class VariantConfig:
    """Base of each game's frozen config dataclass.

    Subclasses are ``@dataclass(frozen=True)`` with a ``players`` field and one field per flag;
    each field's ``metadata["doc"]`` is its one-line description.
    """

    players: int

    def to_wire(self) -> dict[str, Any]:
        """All fields as plain values (cards as codes), for the genesis record."""
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = value.code if isinstance(value, Card) else value
        return out


class MatchProgress:
    """The :class:`MatchState` properties every engine stores the same way.

    Engines inherit it and keep ``_phase``, ``_to_act``, ``_hand_number``, ``_sides`` and
    ``_winner`` up to date; the properties only read them.
    """

    _phase: Phase
    _to_act: int
    _hand_number: int
    _sides: int
    _winner: int | None

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_act(self) -> int:
        """The seat that must act (only meaningful in :attr:`Phase.ACTION`)."""
        return self._to_act

    @property
    def hand_number(self) -> int:
        """0-based index of the current hand."""
        return self._hand_number

    @property
    def num_sides(self) -> int:
        return self._sides

    @property
    def match_over(self) -> bool:
        return self._phase is Phase.MATCH_OVER

    @property
    def winner(self) -> int | None:
        """The winning side once the match is over; ``None`` while it goes on (or a draw)."""
        return self._winner

    def card_use(self, action: Action) -> CardUse:
        """Which cards of ``to_act``'s hand ``action`` uses and how (see :class:`CardUse`).

        Called with the actor's full action and with the masked action other seats receive
        (:data:`HIDDEN` in place of unseen cards): both must give the same structure. The default
        is :func:`default_card_use`; games whose actions move several cards override it.
        """
        return default_card_use(action)

    def claimants(self) -> frozenset[int]:
        """Seats other than ``to_act`` that may act out of turn now (an out-of-turn claim).

        Empty for every game without such claims (the default). While ``to_act`` is due, a seat
        listed here may send one of :meth:`claim_actions` instead; the first of the two messages
        in the chain is applied, and the other seat's message is then out of turn.
        """
        return frozenset()

    def claim_actions(self, seat: int) -> list[Action]:
        """Sorted claims ``seat`` may make now (empty unless ``seat in claimants()``)."""
        return []

    def apply_claim(self, seat: int, action: Action) -> None:
        """Apply an out-of-turn claim of ``seat``, or raise :class:`IllegalMove` (state unchanged).

        A claim the public information cannot refute (the claimed hand is hidden) is accepted live
        and checked in the full replay after the keys are revealed.
        """
        raise IllegalMove("no-claim", "no out-of-turn claim is open now", seat=seat)

    def hand_card(self, seat: int, position: int) -> Card:
        """The card at ``position`` of ``seat``'s hand, in the order of that seat's observation
        (``observation(seat)["hand"]``): the card a :attr:`Zone.SHOW` chance step shows, read
        with full information (a simulation completing its chance steps).

        The default builds the seat's whole observation to read one card; a game with shown
        cards overrides it to read its own hand list (same card, same order).
        """
        code: str = cast("MatchState", self).observation(seat)["hand"][position]
        return card(code)

    def legal_action_bound(self) -> int | None:
        """The most legal actions any decision of a match with this state's config can offer,
        when the game can state it, or ``None`` (the default) when it does not.

        A bound is a promise: no state reachable under the config lists more actions in
        :meth:`MatchState.legal_actions`. The bot environment sizes its action space to at least
        this bound, so a game whose rare decisions offer far more actions than sample playouts
        show (every bet amount at a crowded table) states it here.
        """
        return None


class MatchState(Protocol):
    """A whole match of one game: hands one after another until the match ends.

    Seats are numbered 0..players-1 in playing order (seat ``s+1`` plays after seat ``s``).
    Sides are numbered 0..sides-1: in partnership games seat ``s`` belongs to side ``s % 2``.
    """

    config: Any

    @property
    def phase(self) -> Phase: ...

    @property
    def to_act(self) -> int:
        """The seat that must act (only meaningful in :attr:`Phase.ACTION`)."""
        ...

    @property
    def deck(self) -> Deck:
        """The deck of the current hand, in canonical order."""
        ...

    @property
    def hand_number(self) -> int:
        """0-based index of the current hand."""
        ...

    @property
    def num_sides(self) -> int: ...

    def side_of(self, seat: int) -> int: ...

    def begin_hand(self) -> None:
        """In :attr:`Phase.SHUFFLE`: a freshly shuffled deck is ready; start dealing it."""
        ...

    def pending_chance(self) -> tuple[ChanceStep, ...]:
        """In :attr:`Phase.CHANCE`: the steps to fulfil, all at once."""
        ...

    def complete_chance(self, revealed: Sequence[Card | None]) -> None:
        """Fulfil :meth:`pending_chance`, one card (or ``None`` = unknown to this view) per step."""
        ...

    def legal_actions(self) -> list[Action]:
        """Sorted legal actions of :attr:`to_act`; needs that seat's hand to be known."""
        ...

    def apply(self, action: Action) -> None:
        """Apply ``to_act``'s action, or raise :class:`IllegalMove` naming the rule and leave the
        state unchanged."""
        ...

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` can see, as plain data (cards as codes; others' hidden cards as counts)."""
        ...

    def hand_result(self) -> HandResult:
        """In :attr:`Phase.HAND_OVER`: the score of the hand just finished."""
        ...

    def next_hand(self) -> None:
        """In :attr:`Phase.HAND_OVER`: add the hand's points and move on (SHUFFLE or MATCH_OVER)."""
        ...

    @property
    def match_scores(self) -> tuple[int, ...]:
        """Points (or games won, per the match format) of each side so far."""
        ...

    @property
    def match_over(self) -> bool: ...

    @property
    def winner(self) -> int | None:
        """The winning side once the match is over; ``None`` for a draw or while it goes on."""
        ...

    def copy(self) -> MatchState:
        """An independent deep copy (for simulation and speculative checks)."""
        ...

    def card_use(self, action: Action) -> CardUse:
        """Which cards of the actor's hand ``action`` uses (see :class:`CardUse`)."""
        ...

    def claimants(self) -> frozenset[int]:
        """Seats that may make an out-of-turn claim now (usually none)."""
        ...

    def claim_actions(self, seat: int) -> list[Action]:
        """The claims ``seat`` may make now."""
        ...

    def apply_claim(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s out-of-turn claim or raise :class:`IllegalMove`."""
        ...

    def hand_card(self, seat: int, position: int) -> Card:
        """The card at ``position`` of ``seat``'s hand (see :meth:`MatchProgress.hand_card`)."""
        ...

    def legal_action_bound(self) -> int | None:
        """The most legal actions a decision of this match can offer, or ``None`` when the
        game does not state a bound (see :meth:`MatchProgress.legal_action_bound`)."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """A game: its name, player counts, config class, presets and factory.

    ``presets`` maps a preset name to flag overrides; a preset may restrict player counts via the
    reserved key ``"players"`` (a tuple of counts).
    """

    name: str
    title: str
    rules_source: str
    player_counts: tuple[int, ...]
    config_class: type[Any]
    presets: Mapping[str, Mapping[str, object]]
    preset_docs: Mapping[str, str]
    factory: Any
    """``factory(config) -> MatchState``."""
    flags: tuple[Flag, ...] = field(default=())
    default_preset: str = ""
    legend: str = ""
    """One line a person's screen prints once: how to read the card codes of this game."""
    screen: tuple[tuple[str, str], ...] = ()
    """Observation keys a person's screen shows, with their labels, in order (the hand is always
    shown last); empty: the terminal face's generic list."""

    RESERVED: ClassVar[frozenset[str]] = frozenset({"players"})

    def preset_players(self, preset: str) -> tuple[int, ...]:
        """The player counts a preset allows."""
        overrides = self._preset(preset)
        allowed = overrides.get("players", self.player_counts)
        assert isinstance(allowed, tuple)
        return allowed

    def _preset(self, preset: str) -> Mapping[str, object]:
        try:
            return self.presets[preset]
        except KeyError:
            raise UnknownVariant(
                f"{self.name} has no preset {preset!r} (presets: {', '.join(self.presets)})"
            ) from None

    def preset(self, name: str = "", players: int | None = None, **flags: object) -> Any:
        """The frozen config of preset ``name`` (default preset if empty) for ``players`` seats,
        with optional flag overrides. Raises UnknownVariant, BadPlayerCount or UnknownFlag."""
        name = name or self.default_preset
        overrides = self._preset(name)
        allowed = self.preset_players(name)
        count = allowed[0] if players is None else players
        if count not in allowed:
            raise BadPlayerCount(
                f"{self.name} preset {name!r} is for {_counts(allowed)} players, not {count}"
            )
        values = {f.name: f.default for f in self.flags}
        values.update({k: v for k, v in overrides.items() if k not in self.RESERVED})
        for key, value in flags.items():
            self.check_flag(key, value)
            values[key] = value
        return self.config_class(players=count, **values)

    def check_flag(self, key: str, value: object) -> None:
        """Raise :class:`UnknownFlag` unless ``key`` is a flag accepting ``value``."""
        by_name = {f.name: f for f in self.flags}
        if key not in by_name:
            raise UnknownFlag(
                f"{self.name} has no flag {key!r} (flags: {', '.join(sorted(by_name))})"
            )
        flag = by_name[key]
        if flag.choices and value not in flag.choices:
            raise UnknownFlag(
                f"flag {key!r} of {self.name} takes one of "
                f"{', '.join(map(str, flag.choices))}, not {value!r}"
            )
        if not flag.choices and type(value) is not type(flag.default):
            raise UnknownFlag(
                f"flag {key!r} of {self.name} takes a {type(flag.default).__name__}, "
                f"not {value!r}"
            )

    def config_from_wire(self, data: Mapping[str, Any]) -> Any:
        """Rebuild a config from :meth:`VariantConfig.to_wire` output, checking every field."""
        if not isinstance(data, Mapping):
            raise UnknownFlag(f"{self.name} config must be a map")
        players = data.get("players")
        if not isinstance(players, int) or players not in self.player_counts:
            raise BadPlayerCount(
                f"{self.name} is for {_counts(self.player_counts)} players, not {players!r}"
            )
        values: dict[str, object] = {}
        for f in self.flags:
            if f.name not in data:
                raise UnknownFlag(f"{self.name} config lacks flag {f.name!r}")
            raw = data[f.name]
            is_card = isinstance(f.default, Card) and isinstance(raw, str)
            value: object = card(raw) if is_card else raw
            self.check_flag(f.name, value)
            values[f.name] = value
        extra = set(data) - {"players"} - {f.name for f in self.flags}
        if extra:
            raise UnknownFlag(f"{self.name} has no flag {sorted(map(str, extra))[0]!r}")
        return self.config_class(players=players, **values)

    def new_match(self, config: Any) -> MatchState:
        """A new match in :attr:`Phase.SHUFFLE`."""
        state: MatchState = self.factory(config)
        return state


def _counts(counts: Iterable[int]) -> str:
    items = [str(c) for c in counts]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def flags_of(config_class: type[Any]) -> tuple[Flag, ...]:
    """The :class:`Flag` list of a config dataclass, from its fields' defaults and
    ``metadata["doc"]`` / ``metadata["choices"]`` (``players`` excluded)."""
    out = []
    for f in fields(config_class):
        if f.name == "players":
            continue
        out.append(
            Flag(
                name=f.name,
                default=f.default,
                description=str(f.metadata.get("doc", "")),
                choices=tuple(f.metadata.get("choices", ())),
            )
        )
    return tuple(out)


def with_flags(config: Any, **changes: object) -> Any:
    """A copy of a frozen config with some fields changed."""
    return replace(config, **changes)
