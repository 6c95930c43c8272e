"""Cards and decks, each card with one short, stable text code.

Codes are used everywhere a card is named: the command line, transcripts, JSON exports, test
vectors. They never change meaning between versions.

Italian 40-card deck (Scopa, Briscola, Tressette, Calabrasella, Seven and a Half, Ziginette):
rank then suit, e.g. ``7D`` (the settebello), ``AC`` (Asso di Coppe), ``KB`` (Re di Bastoni).

- ranks: ``A 2 3 4 5 6 7 J Q K`` = Asso, 2..7, Fante (8), Cavallo (9), Re (10)
- suits: ``D`` Denari (coins), ``C`` Coppe (cups), ``S`` Spade (swords), ``B`` Bastoni (sticks)

The Spanish 40-card deck of Tute has the same shape and uses the same codes, read as oros (``D``),
copas (``C``), espadas (``S``), bastos (``B``); sota, caballo, rey are ``J Q K``.

French double deck with jokers (Burraco, Rumino), 108 cards: rank, suit, then which copy
(``1`` or ``2``): ``AH1``, ``TS2`` (ten of spades), ``QD1``; suits ``H D C S``; jokers ``X1`` to
``X4``. A card's identity includes its copy so that every physical card is distinct.

``??`` is :data:`HIDDEN`, the placeholder of a card an action moves without showing it.

Every deck has a canonical order (the order of :attr:`Deck.cards`), used by the mental-poker
layer to build the initial encrypted deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

__all__ = [
    "BadCardCode",
    "Card",
    "Deck",
    "ITALIAN_40",
    "FRENCH_108",
    "ITALIAN_SUITS",
    "ITALIAN_RANKS",
    "SPANISH_40",
    "card",
    "card_name",
    "cards",
    "deck_family",
    "name_cards",
    "suit_name",
    "italian_39",
    "get_deck",
    "HIDDEN",
]


class BadCardCode(ValueError):
    """A text that is not the code of any card (of the deck in question)."""


ITALIAN_SUITS = ("D", "C", "S", "B")
"""Denari, Coppe, Spade, Bastoni: the canonical suit order."""

ITALIAN_RANKS = tuple(range(1, 11))
"""1 (Asso) .. 7, 8 (Fante), 9 (Cavallo), 10 (Re)."""

SUIT_NAMES = {"D": "Denari", "C": "Coppe", "S": "Spade", "B": "Bastoni"}
SPANISH_SUIT_NAMES = {"D": "Oros", "C": "Copas", "S": "Espadas", "B": "Bastos"}
FRENCH_SUITS = ("H", "D", "C", "S")
FRENCH_SUIT_NAMES = {"H": "Hearts", "D": "Diamonds", "C": "Clubs", "S": "Spades", "X": "Joker"}

_ITALIAN_RANK_CHARS = {1: "A", 8: "J", 9: "Q", 10: "K"}
_ITALIAN_RANK_NAMES = {1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re"}
_SPANISH_RANK_NAMES = {1: "As", 8: "Sota", 9: "Caballo", 10: "Rey"}
_FRENCH_RANK_CHARS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
JOKER_SUIT = "X"
HIDDEN_SUIT = "?"
HIDDEN_CODE = "??"


_INTERNED: dict[tuple[object, ...], Card] = {}
"""Every card made so far, by its compared fields: the one object of each (rank, suit, copy)."""


@dataclass(frozen=True, order=True, slots=True, init=False)
class Card:
    """One physical card.

    ``rank`` is 1..10 for Italian and Spanish cards (8, 9, 10 are the face cards), 1..13 for French
    cards and 0 for a joker; ``suit`` is one letter; ``copy`` is 0 for single-deck cards and 1 or 2
    for the two copies of the French double deck (jokers are copies 1..4 of rank 0, suit ``X``).
    Ordering is (rank, suit, copy); it is only used to make outputs deterministic.

    Cards are interned: there is one object per (rank, suit, copy), and ``Card(...)``,
    :func:`card`, every deck, :func:`copy.copy`, :func:`copy.deepcopy`, :mod:`pickle` and
    :func:`dataclasses.replace` all hand out that object. Two cards are therefore equal exactly
    when they are the same object, so equality and hashing are identity's (the hash is not the
    same from one process to the next, as a text's is not). The table keeps every card ever
    made; the package only makes the cards of its decks and :data:`HIDDEN`.
    """

    rank: int
    suit: str
    copy: int = 0
    code: str = field(init=False, compare=False, repr=False)
    """The card's stable text code (see the module docstring), computed once when the card is
    made: engines, encoders and the table read it at every step."""

    def __new__(cls, rank: int, suit: str, copy: int = 0) -> Card:
        """The one card of (rank, suit, copy), made the first time it is asked for."""
        key = (rank, suit, copy) if cls is Card else (cls, rank, suit, copy)
        found = _INTERNED.get(key)
        if found is None:
            found = _INTERNED.setdefault(key, _new_card(cls, rank, suit, copy))
        return found

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self is other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self is not other
        return NotImplemented

    __hash__ = object.__hash__

    def __reduce__(self) -> tuple[type[Card], tuple[int, str, int]]:
        return (self.__class__, (self.rank, self.suit, self.copy))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    @property
    def name(self) -> str:
        """A human name, e.g. ``7 di Denari`` or ``Re di Coppe``."""
        if self.suit == HIDDEN_SUIT:
            return "a hidden card"
        if self.suit == JOKER_SUIT:
            return f"Joker {self.copy}"
        if self.copy:
            rank = _FRENCH_RANK_CHARS.get(self.rank, str(self.rank))
            return f"{rank} of {FRENCH_SUIT_NAMES[self.suit]} ({self.copy})"
        rank_name = _ITALIAN_RANK_NAMES.get(self.rank, str(self.rank))
        return f"{rank_name} di {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


def _new_card(cls: type[Card], rank: int, suit: str, copy: int) -> Card:
    """A new card object with its code, not yet in the table (only :meth:`Card.__new__` calls
    this)."""
    made = object.__new__(cls)
    object.__setattr__(made, "rank", rank)
    object.__setattr__(made, "suit", suit)
    object.__setattr__(made, "copy", copy)
    object.__setattr__(made, "code", _code_of(rank, suit, copy))
    return made


def _code_of(rank: int, suit: str, copy: int) -> str:
    if suit == HIDDEN_SUIT:
        return HIDDEN_CODE
    if suit == JOKER_SUIT:
        return f"X{copy}"
    if copy:
        return f"{_FRENCH_RANK_CHARS.get(rank, str(rank))}{suit}{copy}"
    return f"{_ITALIAN_RANK_CHARS.get(rank, str(rank))}{suit}"


def _italian_cards() -> tuple[Card, ...]:
    return tuple(Card(rank, suit) for suit in ITALIAN_SUITS for rank in ITALIAN_RANKS)


def _french_cards() -> tuple[Card, ...]:
    out = [
        Card(rank, suit, copy)
        for copy in (1, 2)
        for suit in FRENCH_SUITS
        for rank in range(1, 14)
    ]
    out.extend(Card(0, JOKER_SUIT, copy) for copy in (1, 2, 3, 4))
    return tuple(out)


def _parse_any(code: str) -> Card:
    """Parse a code of any deck family; raises :class:`BadCardCode` naming the code."""
    if not isinstance(code, str):
        raise BadCardCode(f"card code must be text, got {type(code).__name__} {code!r}")
    found = _ALL_BY_CODE.get(code)
    if found is None:
        raise BadCardCode(
            f"{code!r} is not a card code (expected e.g. '7D', 'AC', 'KB', 'TS2', 'X1')"
        )
    return found


@dataclass(frozen=True)
class Deck:
    """A named deck: its cards in canonical order.

    ``name`` is stable and goes into the signed genesis of a table; :func:`get_deck` finds a deck by
    that name.
    """

    name: str
    cards: tuple[Card, ...]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, item: object) -> bool:
        return item in self._index

    @cached_property
    def _index(self) -> dict[Card, int]:
        return {c: i for i, c in enumerate(self.cards)}

    @cached_property
    def _by_code(self) -> dict[str, Card]:
        return {c.code: c for c in self.cards}

    def index(self, card_: Card) -> int:
        """The card's position in the canonical order; :class:`BadCardCode` if not in this deck."""
        try:
            return self._index[card_]
        except KeyError:
            raise BadCardCode(f"card {card_.code} is not in the {self.name} deck") from None

    def parse(self, code: str) -> Card:
        """The card of this deck with that code; :class:`BadCardCode` naming the code otherwise."""
        if not isinstance(code, str):
            raise BadCardCode(f"card code must be text, got {type(code).__name__} {code!r}")
        found = self._by_code.get(code)
        if found is None:
            _parse_any(code)  # a malformed code gets the generic message
            raise BadCardCode(f"{code!r} is not a card of the {self.name} deck")
        return found

    def without(self, *removed: Card) -> Deck:
        """This deck less some cards, named ``<name>-<codes>``."""
        for c in removed:
            self.index(c)
        suffix = "-".join(c.code for c in removed)
        return Deck(f"{self.name}-{suffix}", tuple(c for c in self.cards if c not in removed))


HIDDEN = Card(0, HIDDEN_SUIT)
"""The placeholder of a card an action moves without showing it (code ``??``): a card passed
privately to another seat or discarded face down. It is in no deck; the table substitutes the real
card for it where the viewer may know it (see :class:`p2pcards.games.base.CardUse`)."""

ITALIAN_40 = Deck("italian40", _italian_cards())
SPANISH_40 = Deck("spanish40", _italian_cards())
FRENCH_108 = Deck("french108", _french_cards())

_ALL_BY_CODE: dict[str, Card] = {c.code: c for c in (*ITALIAN_40.cards, *FRENCH_108.cards)}
_ALL_BY_CODE[HIDDEN_CODE] = HIDDEN


def card(code: str) -> Card:
    """Parse one card code of any deck: ``card("7D")``. Raises :class:`BadCardCode`."""
    return _parse_any(code)


def cards(codes: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several codes, given as an iterable or one space-separated string."""
    items = codes.split() if isinstance(codes, str) else codes
    return tuple(_parse_any(c) for c in items)


def italian_39(removed: str | Card) -> Deck:
    """The Italian deck less one card, for 3-player variants (e.g. ``italian_39("4B")``)."""
    removed_card = _parse_any(removed) if isinstance(removed, str) else removed
    return ITALIAN_40.without(removed_card)


def get_deck(name: str) -> Deck:
    """The deck with that :attr:`Deck.name` (including ``italian40-XY`` reduced decks)."""
    base = {d.name: d for d in (ITALIAN_40, SPANISH_40, FRENCH_108)}
    if name in base:
        return base[name]
    head, _, rest = name.partition("-")
    if head in base and rest:
        return base[head].without(*(base[head].parse(code) for code in rest.split("-")))
    raise BadCardCode(f"unknown deck {name!r} (known: {', '.join(sorted(base))})")


def deck_family(deck: Deck | str | None) -> str:
    """The naming family of a deck (or deck name): ``spanish``, ``french`` or ``italian`` (the
    default, also for ``None``). Reduced decks (``italian40-4B``) keep their family."""
    name = deck.name if isinstance(deck, Deck) else (deck or "")
    head = name.partition("-")[0]
    if head == SPANISH_40.name:
        return "spanish"
    if head == FRENCH_108.name:
        return "french"
    return "italian"


def card_name(c: Card, deck: Deck | str | None = None) -> str:
    """A card's human name in the language of ``deck``: ``Rey de Oros`` in the Spanish deck,
    ``Re di Denari`` in the Italian one (:attr:`Card.name`, also the default)."""
    if deck_family(deck) == "spanish" and c.suit in SPANISH_SUIT_NAMES and not c.copy:
        rank = _SPANISH_RANK_NAMES.get(c.rank, str(c.rank))
        return f"{rank} de {SPANISH_SUIT_NAMES[c.suit]}"
    return c.name


def suit_name(suit: str, deck: Deck | str | None = None) -> str:
    """A suit letter's name in the language of ``deck`` (``D``: Oros, Denari or Diamonds)."""
    family = deck_family(deck)
    table = (SPANISH_SUIT_NAMES if family == "spanish"
             else FRENCH_SUIT_NAMES if family == "french" else SUIT_NAMES)
    return table.get(suit, suit)


def name_cards(codes: Iterable[str | Card], deck: Deck | str | None = None) -> str:
    """``"KD QD"`` as ``"KD Rey de Oros, QD Caballo de Oros"``: codes with their names in the
    language of ``deck``; ``??`` and texts that are not card codes are kept as they are."""
    out = []
    for item in codes:
        try:
            c = item if isinstance(item, Card) else _parse_any(item)
        except BadCardCode:
            out.append(str(item))
            continue
        if c.suit == HIDDEN_SUIT:
            out.append(c.code)
            continue
        out.append(f"{c.code} {card_name(c, deck)}")
    return ", ".join(out)
