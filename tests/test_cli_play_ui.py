"""The terminal UI's pure parts: choosing a move from typed text, and describing events."""

from __future__ import annotations

from p2pcards.bots import make_bot
from p2pcards.cards import card
from p2pcards.faces.terminal import parse_choice, side_names
from p2pcards.faces.wording import describe_event
from p2pcards.games.base import Action
from p2pcards.offline.memory import make_tables, run_in_memory
from p2pcards.table import ActionPlayed, HandScored, MatchEnded

LEGAL = [
    Action("play", card("7D"), (card("4D"), card("3D"))),
    Action("play", card("7D"), (card("7C"),)),
    Action("play", card("KB")),
]


def test_numbers_pick_listed_moves() -> None:
    assert parse_choice("1", LEGAL) is LEGAL[0]
    assert parse_choice(" 3\n", LEGAL) is LEGAL[2]
    assert parse_choice("0", LEGAL) == "0 is not a move number (1 to 3)"
    assert parse_choice("4", LEGAL) == "4 is not a move number (1 to 3)"
    assert parse_choice("", LEGAL) == "type a move number"


def test_card_codes_pick_a_move_only_when_unambiguous() -> None:
    assert parse_choice("kb", LEGAL) is LEGAL[2]
    assert parse_choice("7d", LEGAL) == "several moves play 7D: choose by number (1, 2)"
    assert parse_choice("play 7D [7C]", LEGAL) is LEGAL[1]
    assert parse_choice("AS", LEGAL) == "'AS' is neither a move number nor a card you can play"


def test_events_are_described_from_the_seat_point_of_view() -> None:
    genesis, tables = make_tables("briscola", "italian", 2, seed=5)
    run = run_in_memory(genesis, tables, [make_bot("briscola", "smart", i) for i in range(2)])
    events = run.events[0]
    first_play = next(e for e in events if isinstance(e, ActionPlayed))
    who = "you" if first_play.seat == 0 else "seat1 [1]"
    assert describe_event(first_play, genesis, 0) == f"{who}: {first_play.action}"
    scored = next(e for e in events if isinstance(e, HandScored))
    points = scored.result.points
    assert describe_event(scored, genesis, 0) == (
        f"hand 1 scored: you {points[0]}, seat1 [1] {points[1]} "
        f"(match {scored.match_scores[0]}-{scored.match_scores[1]})")
    ended = next(e for e in events if isinstance(e, MatchEnded))
    assert ended.winner is not None
    text = describe_event(ended, genesis, None)
    assert text == (f"match over: seat{ended.winner} [{ended.winner}] won "
                    f"({ended.match_scores[0]}-{ended.match_scores[1]})")


def test_teams_are_named_by_their_seats() -> None:
    genesis, _ = make_tables("briscola", "classic", 4, seed=1)
    assert side_names(genesis, 2, me=1) == ["seat0 [0] + seat2 [2]", "you + seat3 [3]"]


def test_hand_starts_are_numbered_from_one() -> None:
    from p2pcards.table import HandStarted

    genesis, _ = make_tables("scopa", "classic", 2, seed=1)
    assert describe_event(HandStarted(0, 0), genesis, 0) == "— hand 1 begins"
    assert describe_event(HandStarted(2, 3), genesis, None) == "— hand 3 begins"


def test_revealed_cards_are_grouped_by_where_they_go() -> None:
    from p2pcards.table import CardsRevealed

    genesis, tables = make_tables("briscola", "italian", 2, seed=2)
    run = run_in_memory(genesis, tables, [make_bot("briscola", "smart", i) for i in range(2)])
    deal = next(e for e in run.events[1] if isinstance(e, CardsRevealed))
    mine = [c.code for s, c in zip(deal.steps, deal.cards, strict=True)
            if c is not None and s.seat == 1]
    trump = [c.code for s, c in zip(deal.steps, deal.cards, strict=True)
             if c is not None and s.seat is None]
    assert len(mine) == 3 and len(trump) == 1
    assert describe_event(deal, genesis, 1) == f"you receive: {' '.join(mine)}; trump: {trump[0]}"
