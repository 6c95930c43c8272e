"""The rematch exchange's messages (SPEC §11.8): a seat's signed answer, the checks a joiner
makes on the next genesis, and the series tally."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from p2pcards.net.leave import leave_message, leaving_seat
from p2pcards.net.rematch import Series, again_message, check_again, next_genesis_problems
from p2pcards.offline.memory import make_genesis, new_seat

SEATS = [new_seat() for _ in range(3)]
NAMES = ["Alba", "Bruno", "Carla"]
FIRST = make_genesis("scopa", "classic", [s.info(n) for s, n in zip(SEATS, NAMES, strict=True)])


def next_entries() -> list:
    return [new_seat(identity=s.identity).info(n) for s, n in zip(SEATS, NAMES, strict=True)]


def test_a_signed_yes_and_a_signed_no_are_read_back_for_their_seat_only() -> None:
    entry = next_entries()[1]
    yes = again_message(FIRST, 1, SEATS[1].identity, entry)
    assert check_again(FIRST, yes, {1}) == (1, entry)
    assert check_again(FIRST, yes, {2}) is None  # not from the connection of seat 1
    no = again_message(FIRST, 2, SEATS[2].identity, None)
    assert check_again(FIRST, no, {0, 1, 2}) == (2, None)


def test_a_forged_or_changed_answer_counts_as_none() -> None:
    entry = next_entries()[1]
    yes = again_message(FIRST, 1, SEATS[1].identity, entry)
    other = again_message(FIRST, 1, SEATS[1].identity, None)
    assert check_again(FIRST, {**yes, "entry": None}, {1}) is None  # the proof is of a yes
    assert check_again(FIRST, {**other, "seat": 2}, {2}) is None
    stale = replace(entry, nonce=FIRST.seats[1].nonce)
    assert check_again(FIRST, again_message(FIRST, 1, SEATS[1].identity, stale), {1}) is None
    renamed = replace(entry, name="Brunone")
    assert check_again(FIRST, again_message(FIRST, 1, SEATS[1].identity, renamed), {1}) is None


def test_the_next_genesis_is_checked_against_the_finished_one() -> None:
    entries = next_entries()
    second = make_genesis("scopa", "classic", entries)
    assert second.table_id != FIRST.table_id
    assert next_genesis_problems(FIRST, second, 1, entries[1]) == []
    other_rules = make_genesis("scopa", "classic", entries, {"target": 21})
    assert "its rules are not those of the match just played" in next_genesis_problems(
        FIRST, other_rules, 1, entries[1])
    swapped = make_genesis("scopa", "classic", [entries[0], entries[2], entries[1]])
    assert "its seat 1 is not the same player" in next_genesis_problems(
        FIRST, swapped, 1, entries[1])
    replayed = make_genesis("scopa", "classic", [entries[0], FIRST.seats[1], entries[2]])
    assert next_genesis_problems(FIRST, replayed, 1, entries[1]) == [
        "its seat 1 keeps its old nonce", "its seat 1 is not the entry this seat sent"]


def test_a_leave_is_the_signed_leave_of_its_own_seat_and_table() -> None:
    message = leave_message(FIRST, 1, SEATS[1].identity)
    assert leaving_seat(FIRST, message, {1}) == 1
    assert leaving_seat(FIRST, message, {2}) is None
    assert leaving_seat(FIRST, {**message, "seat": 2}, {2}) is None
    second = make_genesis("scopa", "classic", next_entries())
    assert leaving_seat(second, message, {1}) is None  # a leave of another table


@given(st.lists(st.one_of(st.none(), st.integers(0, 2)), max_size=30))
def test_the_tally_counts_every_match_and_each_win_once(winners: list[int | None]) -> None:
    series = Series(NAMES)
    for winner in winners:
        series.record(winner)
    assert series.played == len(winners)
    assert sum(series.wins) == sum(1 for w in winners if w is not None)
    assert series.wins == [winners.count(side) for side in range(3)]
    assert series.line().startswith(f"series after {len(winners)} match")
