"""Interned cards: every way of making a card hands out the one object of its (rank, suit, copy),
so equality and hashing by identity agree with equality of the fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
from collections.abc import Callable
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.cards import (
    FRENCH_108,
    HIDDEN,
    ITALIAN_40,
    SPANISH_40,
    Card,
    Deck,
    card,
    cards,
    get_deck,
    italian_39,
)
from p2pcards.games import all_games
from p2pcards.games.base import Action


def _package_decks() -> tuple[Deck, ...]:
    """Every deck the package plays with: the base decks, the reduced ones, and the deck of a
    new match of every game, preset and player count."""
    found: dict[str, Deck] = {}
    for deck in (ITALIAN_40, SPANISH_40, FRENCH_108, italian_39("4B"), italian_39("2B")):
        found.setdefault(deck.name, deck)
    for spec in all_games():
        for preset in spec.presets:
            for players in spec.preset_players(preset):
                deck = spec.new_match(spec.preset(preset, players=players)).deck
                found.setdefault(deck.name, deck)
    return tuple(found.values())


DECKS = _package_decks()
ALL_CARDS = tuple(dict.fromkeys(c for deck in DECKS for c in deck.cards)) + (HIDDEN,)


def _fields(c: Card) -> tuple[int, str, int]:
    return (c.rank, c.suit, c.copy)


def _by_keywords(c: Card) -> Card:
    return Card(rank=c.rank, suit=c.suit, copy=c.copy)


def _by_replace_of_another(c: Card) -> Card:
    other = ITALIAN_40.cards[0] if c is not ITALIAN_40.cards[0] else FRENCH_108.cards[0]
    return dataclasses.replace(other, rank=c.rank, suit=c.suit, copy=c.copy)


def _by_deck_parse(c: Card) -> Card:
    deck = next((d for d in DECKS if c in d.cards), None)
    return card(c.code) if deck is None else get_deck(deck.name).parse(c.code)


def _by_action_wire(c: Card) -> Card:
    again = Action.from_wire(Action("play", c, (c,)).to_wire())
    assert again.card is again.cards[0]
    assert again.card is not None
    return again.card


def _by_pickle(protocol: int) -> Callable[[Card], Card]:
    def round_trip(c: Card) -> Card:
        again = pickle.loads(pickle.dumps(c, protocol=protocol))
        assert isinstance(again, Card)
        return again
    return round_trip


MAKERS: dict[str, Callable[[Card], Card]] = {
    "positional": lambda c: Card(c.rank, c.suit, c.copy),
    "keywords": _by_keywords,
    "code": lambda c: card(c.code),
    "codes": lambda c: cards(c.code)[0],
    "deck parse": _by_deck_parse,
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "deepcopy in a list": lambda c: copy.deepcopy([c, c])[1],
    "replace": dataclasses.replace,
    "replace of another card": _by_replace_of_another,
    "action wire": _by_action_wire,
    **{f"pickle {protocol}": _by_pickle(protocol)
       for protocol in range(pickle.HIGHEST_PROTOCOL + 1)},
}


def test_the_package_decks_are_all_collected() -> None:
    names = {deck.name for deck in DECKS}
    assert {"italian40", "spanish40", "french108"} <= names
    assert len(ALL_CARDS) == 40 + 108 + 1


@pytest.mark.parametrize("way", sorted(MAKERS))
def test_every_way_of_making_a_card_gives_the_one_object(way: str) -> None:
    make = MAKERS[way]
    for c in ALL_CARDS:
        assert make(c) is c, f"{way} made a second {c.code}"


def test_the_decks_share_their_cards() -> None:
    assert all(a is b for a, b in zip(ITALIAN_40.cards, SPANISH_40.cards, strict=True))
    for deck in DECKS:
        for c in deck.cards:
            assert Card(c.rank, c.suit, c.copy) is c


@given(st.sampled_from(ALL_CARDS), st.sampled_from(ALL_CARDS))
def test_equality_hash_and_order_follow_the_fields(a: Card, b: Card) -> None:
    assert (a == b) is (_fields(a) == _fields(b))
    assert (a != b) is (_fields(a) != _fields(b))
    assert (a < b) is (_fields(a) < _fields(b))
    assert (a <= b) is (_fields(a) <= _fields(b))
    assert (a > b) is (_fields(a) > _fields(b))
    assert (a >= b) is (_fields(a) >= _fields(b))
    if a == b:
        assert hash(a) == hash(b)


@given(st.sampled_from(ALL_CARDS), st.sampled_from(sorted(MAKERS)),
       st.lists(st.sampled_from(ALL_CARDS), max_size=12))
def test_a_card_is_found_by_an_equal_card_made_another_way(
        c: Card, way: str, others: list[Card]) -> None:
    twin = MAKERS[way](c)
    as_set = set(others) | {c}
    as_dict = {o: o.code for o in others} | {c: c.code}
    assert twin in as_set and as_dict[twin] == c.code
    hand = [*others, c]
    assert twin in hand and hand.index(twin) == hand.index(c)
    hand.remove(twin)
    assert hand.count(c) == others.count(c)
    assert (Action("play", twin) == Action("play", c)) and hash(Action("play", twin)) == hash(
        Action("play", c))


def test_fields_of_equal_value_give_the_same_card() -> None:
    """Fields that compare equal made equal cards before interning, so they give the same one."""
    ace = card("AD")
    assert Card(True, "D") is ace and Card(1, "D", False) is ace
    assert Card(1.0, "D") == ace  # type: ignore[arg-type]


def test_a_card_equals_no_other_kind_of_value() -> None:
    seven = card("7D")
    for other in ("7D", (7, "D", 0), (7, "D"), 7, None, object()):
        assert seven != other and not seven == other  # noqa: SIM201
        assert seven.__eq__(other) is NotImplemented
        assert seven.__ne__(other) is NotImplemented
    assert seven == mock.ANY  # the other side still answers
    with pytest.raises(TypeError):
        _ = seven < 7  # type: ignore[operator]


def test_cards_stay_immutable_and_print_as_before() -> None:
    seven = card("7D")
    with pytest.raises(dataclasses.FrozenInstanceError):
        seven.rank = 8  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del seven.suit
    assert Card(7, "D") is seven and seven.rank == 7
    assert (repr(seven), str(seven), seven.code, seven.name) == (
        "Card(7D)", "7D", "7D", "7 di Denari")
    assert repr(card("TS2")) == "Card(TS2)" and card("X3").name == "Joker 3"
    assert Card.__match_args__ == ("rank", "suit", "copy")
    assert [f.name for f in dataclasses.fields(Card)] == ["rank", "suit", "copy", "code"]
    assert dataclasses.asdict(seven) == {"rank": 7, "suit": "D", "copy": 0, "code": "7D"}
    match seven:
        case Card(7, "D", 0):
            pass
        case _:
            pytest.fail("a card no longer matches its fields")


def test_a_copied_match_shares_the_cards_of_the_original() -> None:
    spec = next(s for s in all_games() if s.name == "burraco")
    state = spec.new_match(spec.preset(players=4))
    twin = copy.deepcopy(state)
    assert twin.deck.cards == state.deck.cards
    assert all(a is b for a, b in zip(twin.deck.cards, state.deck.cards, strict=True))


def test_a_pickle_made_in_another_process_gives_the_interned_cards() -> None:
    script = ("import pickle, sys\n"
              "from p2pcards.cards import FRENCH_108, HIDDEN, ITALIAN_40\n"
              "made = (ITALIAN_40.cards, FRENCH_108.cards, HIDDEN)\n"
              "sys.stdout.buffer.write(pickle.dumps(made))\n")
    made = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True,
                          timeout=120).stdout
    italian, french, hidden = pickle.loads(made)
    assert all(a is b for a, b in zip(italian, ITALIAN_40.cards, strict=True))
    assert all(a is b for a, b in zip(french, FRENCH_108.cards, strict=True))
    assert hidden is HIDDEN
