"""Card codes and decks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.cards import (
    FRENCH_108,
    HIDDEN,
    ITALIAN_40,
    BadCardCode,
    Card,
    card,
    cards,
    get_deck,
    italian_39,
)


def test_italian_deck_shape() -> None:
    assert len(ITALIAN_40) == 40
    assert len(set(ITALIAN_40)) == 40
    assert [c.code for c in ITALIAN_40.cards[:10]] == "AD 2D 3D 4D 5D 6D 7D JD QD KD".split()
    assert card("7D") == Card(7, "D")
    assert card("7D").name == "7 di Denari"
    assert card("KB").name == "Re di Bastoni"


def test_french_deck_shape() -> None:
    assert len(FRENCH_108) == 108
    assert len({c.code for c in FRENCH_108}) == 108
    assert card("TS2") == Card(10, "S", 2)
    assert sum(1 for c in FRENCH_108 if c.suit == "X") == 4


def test_reduced_decks() -> None:
    tressette3 = italian_39("4B")
    assert len(tressette3) == 39 and card("4B") not in tressette3
    briscola3 = italian_39("2B")
    assert card("2B") not in briscola3 and card("2D") in briscola3
    assert get_deck(tressette3.name) == tressette3
    assert get_deck("italian40") is ITALIAN_40


@given(st.sampled_from(ITALIAN_40.cards + FRENCH_108.cards))
def test_code_round_trip(c: Card) -> None:
    assert card(c.code) == c


@given(st.text(max_size=5))
def test_bad_codes_name_the_code(text: str) -> None:
    valid = {c.code for c in ITALIAN_40.cards + FRENCH_108.cards} | {HIDDEN.code}
    if text in valid:
        return
    with pytest.raises(BadCardCode) as info:
        card(text)
    assert repr(text) in str(info.value)


def test_deck_parse_is_strict() -> None:
    with pytest.raises(BadCardCode, match="'4B' is not a card of the italian40-4B deck"):
        italian_39("4B").parse("4B")
    with pytest.raises(BadCardCode, match="not a card code"):
        ITALIAN_40.parse("8D")  # Italian eights are J (Fante)
    with pytest.raises(BadCardCode, match="unknown deck"):
        get_deck("tarot78")
    assert cards("7D AC") == (Card(7, "D"), Card(1, "C"))


def test_hidden_placeholder_parses_and_is_in_no_deck() -> None:
    from p2pcards.cards import FRENCH_108, HIDDEN, ITALIAN_40, SPANISH_40

    assert card("??") is HIDDEN
    assert HIDDEN.code == "??" and HIDDEN.name == "a hidden card"
    for deck in (ITALIAN_40, SPANISH_40, FRENCH_108):
        assert HIDDEN not in deck


def test_default_card_use_of_an_action() -> None:
    from p2pcards.cards import HIDDEN
    from p2pcards.games.base import Action, CardUse, default_card_use

    assert default_card_use(Action("play", card("7D"), cards("4D 3D"))) == CardUse(
        shown=(card("7D"),))
    assert default_card_use(Action("pass")).empty
    assert default_card_use(Action("discard", HIDDEN)) == CardUse(hidden=(HIDDEN,))
