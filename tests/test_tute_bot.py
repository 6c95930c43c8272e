"""The Tute bot: only legal actions, declares what it may, and a smart side beats a random side
over a fixed set of seeded matches."""

from __future__ import annotations

from p2pcards.bots import RandomBot, make_bot
from p2pcards.bots.tute import TuteBot
from p2pcards.cards import card, cards
from p2pcards.games import get_game
from p2pcards.games.base import Action
from p2pcards.games.tute import TuteMatch
from p2pcards.offline.simulate import play_match

SPEC = get_game("tute")


def test_make_bot_gives_the_tute_bot() -> None:
    assert isinstance(make_bot("tute", "smart", 1), TuteBot)


def test_the_bot_declares_the_most_valuable_and_cashes_a_top_card() -> None:
    config = SPEC.preset("free-cuarenta", players=4)
    state = TuteMatch.from_position(config, [cards("KB QB KC QC AS 4D"), cards("2S"),
                                             cards("3S"), cards("5S")], card("7B"),
                                    captured=[cards("2D 4C 5C 6C"), []], may_declare=True)
    bot = TuteBot(1)
    choice = bot.choose(state.observation(0), state.legal_actions())
    assert choice == Action("declare", cards=cards("KB QB"), value="cuarenta")
    state.apply(choice)
    assert bot.choose(state.observation(0), state.legal_actions()) == Action("play", card("AS"))


def test_smart_side_beats_random_side() -> None:
    config = SPEC.preset("classic", players=4)
    wins = 0
    for seed in range(12):
        bots = [make_bot("tute", "smart", seed) if s % 2 == 0 else RandomBot(seed)
                for s in range(4)]
        wins += play_match(SPEC, config, bots, seed=seed).state.winner == 0
    assert wins > 8, f"smart bots won only {wins} of 12 tute matches"
