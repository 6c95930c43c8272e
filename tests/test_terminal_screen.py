"""The person's screen: sorted hands, moves in the same order, Tresette's signals on one line
per card, labelled columns, announcements, the waiting status, help and the confirmation of
``q``. Pure parts directly, the whole screen through a real ``p2pcards host`` process whose
standard input a test types into."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from test_net_processes import host

from p2pcards.cards import card
from p2pcards.faces.announce import Announcer
from p2pcards.faces.order import display_order, sort_hand
from p2pcards.faces.terminal import PersonUI, move_labels, move_lines, parse_choice
from p2pcards.games import all_games, get_game
from p2pcards.games.base import Action, Phase
from p2pcards.offline.memory import make_tables
from p2pcards.offline.simulate import fulfil_chance
from p2pcards.verify import verify_transcript

# ----------------------------------------------------------------------------- order


def test_hands_are_sorted_by_suit_then_the_games_rank() -> None:
    hand = ["QB", "2D", "JC", "4S", "3S", "AC", "KB", "KC", "AD", "7D", "AS", "2B", "5D"]
    assert sort_hand(hand, "tressette") == [
        "2D", "AD", "7D", "5D", "AC", "KC", "JC", "3S", "AS", "4S", "2B", "KB", "QB"]
    assert sort_hand(hand, "briscola") == [
        "AD", "7D", "5D", "2D", "AC", "KC", "JC", "AS", "3S", "4S", "KB", "QB", "2B"]
    assert sort_hand(hand, "scopa") == [
        "AD", "2D", "5D", "7D", "AC", "JC", "KC", "AS", "3S", "4S", "2B", "QB", "KB"]
    assert sort_hand(["X2", "KS1", "AH2", "TS1", "AH1", "5D1"], "burraco") == [
        "AH1", "AH2", "5D1", "TS1", "KS1", "X2"]


def test_moves_follow_the_hand_kinds_first_seen_first() -> None:
    legal = [Action("play", card=card(c)) for c in ("7D", "AC", "3D")] + [
        Action("declare", value="good-play"), Action("play", card=card("3D"), value="best")]
    order = display_order(legal, "tressette")
    assert [str(legal[i]) for i in order] == [
        "play 3D", "play 3D best", "play 7D", "play AC", "declare good-play"]


def _positions(game: str, seed: int, steps: int) -> list[tuple[str, dict[str, object],
                                                              list[Action]]]:
    """Observations and legal moves of seat to act along a random full-information match."""
    spec = get_game(game)
    players = min(spec.player_counts)
    state = spec.new_match(spec.preset(spec.default_preset, players=players))
    rng = random.Random(seed)
    out = []
    shuffled: list = []
    for _ in range(steps):
        if state.phase is Phase.SHUFFLE:
            shuffled = list(state.deck.cards)
            rng.shuffle(shuffled)
            state.begin_hand()
        elif state.phase is Phase.CHANCE:
            fulfil_chance(state, shuffled)
        elif state.phase is Phase.ACTION:
            legal = state.legal_actions()
            out.append((game, state.observation(state.to_act), legal))
            state.apply(rng.choice(legal))
        else:
            break
    return out


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([g.name for g in all_games()]), st.integers(0, 10_000))
def test_the_displayed_moves_are_the_legal_moves_each_once_and_typeable(game: str,
                                                                        seed: int) -> None:
    for name, observation, legal in _positions(game, seed, 60)[-3:]:
        order = display_order(legal, name)
        assert sorted(order) == list(range(len(legal)))
        shown = [legal[i] for i in order]
        hand = observation.get("hand")
        if isinstance(hand, list):
            assert sorted(sort_hand(hand, name)) == sorted(hand)
        for label, action in zip(move_labels(shown), shown, strict=True):
            assert parse_choice(label, shown) == action


# ----------------------------------------------------------------------------- signals


def test_tresette_signals_are_one_line_per_card_and_typed_with_a_letter() -> None:
    ace, three = card("AS"), card("3S")
    legal = [Action("play", card=ace), Action("play", card=ace, value="best"),
             Action("play", card=ace, value="two"), Action("play", card=three),
             Action("play", card=three, value="count", amount=2)]
    assert move_labels(legal) == ["1", "1b", "1c", "2", "2b"]
    assert move_lines(legal) == [
        "   1. play AS — with a signal: 1b best · 1c two",
        "   2. play 3S — with a signal: 2b count 2"]
    assert parse_choice("1c", legal) == legal[2]
    assert parse_choice("2B", legal) == legal[4]
    assert parse_choice("2", legal) == legal[3]
    assert parse_choice("3", legal) == "3 is not a move number (1 to 2)"


# ----------------------------------------------------------------------------- announcements


def test_a_scopa_and_a_tricks_winner_are_announced() -> None:
    names = {0: "you", 1: "Bob [1]"}
    announcer = Announcer(lambda s: names[s], lambda s: names[s])
    assert announcer.update({"scope": [0, 0]}, []) == []
    assert announcer.update({"scope": [0, 1]}, []) == ["★ Bob [1]: scopa!"]
    assert announcer.update({"scope": [0, 1]}, []) == []
    trick = {"cards": [[0, "JB"], [1, "2D"]], "winner": 1}
    assert announcer.update({"last_trick": trick}, []) == ["★ trick to Bob [1] (JB 2D)"]
    listed = [{"seat": 1, "card": "5D"}, {"seat": 0, "card": "3D"}]
    assert announcer.update({"last_trick": listed, "leader": 0}, []) == [
        "★ trick to you (5D 3D)"]


# ----------------------------------------------------------------------------- waiting


def test_the_wait_for_another_seat_is_said_once_then_at_reminders() -> None:
    genesis, _ = make_tables("briscola", "italian", 2, seed=1)
    out = io.StringIO()
    ui = PersonUI(genesis, 0, lines=None, console=Console(file=out, width=200))  # type: ignore[arg-type]
    ui.status((1,), 600.0)
    ui.status((1,), 599.0)  # a short wait (an automatic step) says nothing
    assert out.getvalue() == ""
    ui.status((1,), 596.5)
    ui.status((1,), 595.0)
    ui.status((1,), 299.4)
    ui.status((1,), 200.0)
    ui.status((1,), 59.2)
    ui.status((), None)
    name = genesis.seats[1].name or "seat"
    assert out.getvalue().splitlines() == [
        f"waiting for {name} [1]: 9:57 left before the timeout",
        f"still waiting for {name} [1]: 5:00 left",
        f"still waiting for {name} [1]: 1:00 left"]


# ----------------------------------------------------------------------------- a whole screen


def test_a_person_reads_the_turns_the_labels_the_help_and_confirms_leaving(
        tmp_path: pytest.TempPathFactory) -> None:
    typed = "?\nq\nn\n1\n" + "1\n" * 6 + "q\ny\n"
    hosting, _ = host(tmp_path, "--game", "briscola", "--players", "2", "--bots", "1",
                      "--seed", "3", "--insecure-public-keys", stdin=typed)
    assert hosting.finish() == 130
    out = hosting.stdout
    assert "type ? for the moves and card values of this game" in out
    assert "Briscola: play any card, you need not follow suit." in out  # the help, on ?
    assert out.count("leave the table? the match ends for everyone") == 2
    assert "→ " in out and " to play" in out
    assert "│ cards in hand │ you 3 · " in out
    assert "★ trick to " in out
    assert hosting.stderr == "p2pcards: you left the table; the match is abandoned"
    assert verify_transcript(hosting.transcript()).status == "incomplete"


def test_a_second_shuffle_within_a_hand_is_not_a_new_hand() -> None:
    from p2pcards.faces.wording import hand_heading
    from p2pcards.table import HandStarted

    begun: set[int] = set()
    assert hand_heading(HandStarted(0, 0), begun) == "— hand 1 begins"
    assert hand_heading(HandStarted(0, 1), begun) == "— the cards are shuffled again (hand 1)"
    assert hand_heading(HandStarted(1, 2), begun) == "— hand 2 begins"


def test_the_sides_are_said_before_the_first_hand_in_a_game_of_partners() -> None:
    genesis, tables = make_tables("briscola", "italian", 4, seed=2)
    out = io.StringIO()
    ui = PersonUI(genesis, 1, lines=None, console=Console(file=out, width=120))  # type: ignore[arg-type]
    assert ui.sides_line() == "sides: you + seat3 [3] against seat0 [0] + seat2 [2]"
    ui.show(tables[1], [])
    ui.show(tables[1], [])
    assert out.getvalue().count("sides: you + seat3 [3] against seat0 [0] + seat2 [2]") == 1
    alone, _ = make_tables("briscola", "italian", 2, seed=2)
    assert PersonUI(alone, 0, lines=None).sides_line() is None  # type: ignore[arg-type]
