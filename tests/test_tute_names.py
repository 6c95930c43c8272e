"""Spanish card names: the deck-aware naming in cards.py, the terminal face and ``p2pcards show``
of a Tute match (Spanish names beside the codes), Italian games unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from attacks import recorded_match, write_transcript

from p2pcards import cli
from p2pcards.cards import (
    ITALIAN_40,
    SPANISH_40,
    card,
    card_name,
    cards,
    deck_family,
    italian_39,
    name_cards,
    suit_name,
)
from p2pcards.faces.terminal import state_table
from p2pcards.faces.wording import action_text, own_names
from p2pcards.games.base import Action


def test_spanish_names_of_cards_and_suits() -> None:
    assert card_name(card("KD"), SPANISH_40) == "Rey de Oros"
    assert card_name(card("QC"), SPANISH_40) == "Caballo de Copas"
    assert card_name(card("JS"), "spanish40") == "Sota de Espadas"
    assert card_name(card("AB"), SPANISH_40) == "As de Bastos"
    assert card_name(card("7D"), SPANISH_40) == "7 de Oros"
    assert [suit_name(s, SPANISH_40) for s in "DCSB"] == ["Oros", "Copas", "Espadas", "Bastos"]


def test_italian_names_stay_the_default() -> None:
    assert card_name(card("KD")) == card_name(card("KD"), ITALIAN_40) == "Re di Denari"
    assert card_name(card("QC"), italian_39("4B")) == "Cavallo di Coppe"
    assert suit_name("B") == "Bastoni"
    assert (deck_family(ITALIAN_40), deck_family(SPANISH_40), deck_family(None)) == (
        "italian", "spanish", "italian")
    assert not own_names(ITALIAN_40) and own_names(SPANISH_40)


def test_actions_and_card_lists_read_with_spanish_names() -> None:
    declare = Action("declare", cards=cards("KB QB"), value="cuarenta")
    assert action_text(declare, SPANISH_40) == (
        "declare [KB QB] cuarenta (Rey de Bastos, Caballo de Bastos)")
    assert action_text(declare, ITALIAN_40) == "declare [KB QB] cuarenta"
    assert name_cards(["3S", "??"], SPANISH_40) == "3S 3 de Espadas, ??"


def test_the_screen_names_the_hand_and_trump_in_spanish() -> None:
    from rich.console import Console

    console = Console(record=True, width=200)
    console.print(state_table({"hand": ["KD", "AS"], "trump_card": "7B"}, "tute",
                              (("trump_card", "triunfo"),), SPANISH_40))
    text = console.export_text()
    assert "KD Rey de Oros, AS As de Espadas" in text
    assert "7B 7 de Bastos" in text


def test_show_prints_a_tute_match_with_spanish_names(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    run = recorded_match("tute", "single", 4, 2)
    path = write_transcript(tmp_path / "tute.p2pt", run.genesis, run.frames)
    assert cli.main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "de Oros" in out or "de Copas" in out or "de Espadas" in out or "de Bastos" in out
    assert "di Denari" not in out and "Re di" not in out
    played = [line for line in out.splitlines() if ": play " in line]
    assert played and all(re.search(r"play (\w\w) \((As|Rey|Caballo|Sota|\d) de ", line)
                          for line in played)
    assert "deal to seat" in out
