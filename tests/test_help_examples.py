"""``?`` gives each game's own examples: cards of that game's deck, moves of that game written
exactly as its move list writes them, and that deck's card names."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from test_terminal_screen import _positions

from p2pcards.cards import BadCardCode, card
from p2pcards.faces.help import EXAMPLES, help_lines
from p2pcards.faces.terminal import PersonUI
from p2pcards.games import all_games, get_game
from p2pcards.offline.memory import make_tables

GAMES = [g.name for g in all_games()]
CODE = re.compile(r"(?<![\w-])([A2-9TJQKX][DCSBH]?[1-4]?)(?![\w-])")


def deck_codes(game: str) -> set[str]:
    spec = get_game(game)
    return {c.code for c in spec.new_match(spec.preset()).deck.cards}


def looks_like_a_card(token: str) -> bool:
    try:
        card(token)
    except BadCardCode:
        return False
    return len(token) >= 2


def test_every_game_has_its_own_examples() -> None:
    assert set(EXAMPLES) == set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_card_the_help_names_is_a_card_of_the_games_deck(game: str) -> None:
    codes = deck_codes(game)
    text = "\n".join(help_lines(game, signals=game == "tresette"))
    named = [t for t in CODE.findall(text) if looks_like_a_card(t)]
    assert [t for t in named if t not in codes] == []
    examples = EXAMPLES[game]
    if examples.card is not None:
        assert examples.card in codes and f"({examples.card})" in text
    for move in examples.moves:
        assert {c.code for c in move.cards} <= codes and str(move) in text
        assert move.card is None or move.card.code in codes


@pytest.mark.parametrize("game", GAMES)
def test_each_example_is_a_kind_of_move_the_game_lists(game: str) -> None:
    seen: set[tuple[str, str]] = set()
    for seed in range(4):
        for _, _, legal in _positions(game, seed, 400):
            seen.update((a.kind, a.value) for a in legal)
    kinds = {kind for kind, _ in seen}
    for move in EXAMPLES[game].moves:
        assert move.kind in kinds, (move, sorted(kinds))
        assert not move.value or (move.kind, move.value) in seen or move.kind == "bet"


def test_burraco_help_at_the_table_speaks_of_french_cards() -> None:
    genesis, _ = make_tables("burraco", "classic", 4, seed=1)
    console = Console(width=200, record=True, file=io.StringIO())
    PersonUI(genesis, 0, lines=None, console=console).print_help()  # type: ignore[arg-type]
    text = console.export_text()
    assert "discard QS2" in text and "meld [7H1 8H1 9H2 TH1]" in text and "X1-X4 jokers" in text
    assert "7D" not in text and "denari" not in text
