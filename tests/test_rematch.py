"""The rematch exchange's messages (SPEC §11.8): a seat's signed answer, the checks a joiner
makes on the next genesis, and the series tally."""

from __future__ import annotations

from dataclasses import replace

import trio
import trio.testing
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.net.framed import FramedStream
from p2pcards.net.leave import leave_message, leaving_seat
from p2pcards.net.rematch import (
    Series,
    again_message,
    check_again,
    closed_sentence,
    collect_answers,
    next_genesis_problems,
    send_decline,
)
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


def channel_pair() -> tuple[FramedStream, FramedStream]:
    """The hub's end and a joiner's end of one in-memory connection."""
    hub_end, seat_end = trio.testing.memory_stream_pair()
    return FramedStream(hub_end, label="seat"), FramedStream(seat_end, label="the host")


async def test_a_signed_no_is_read_before_the_close_that_follows_it() -> None:
    hub_one, bruno = channel_pair()
    hub_two, carla = channel_pair()
    await bruno.send_message(again_message(FIRST, 1, SEATS[1].identity, next_entries()[1]))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(send_decline, carla, again_message(FIRST, 2, SEATS[2].identity, None))
        answers = await collect_answers(FIRST, {1: hub_one, 2: hub_two}, 30)
        await hub_two.aclose()  # the hub ends the decliner's connection: its wait is over
    assert (answers.declined, answers.signed is not None) == (2, True)


async def test_a_connection_that_closes_unanswered_is_that_seats_decline() -> None:
    hub_one, bruno = channel_pair()
    hub_two, carla = channel_pair()
    await bruno.send_message(again_message(FIRST, 1, SEATS[1].identity, next_entries()[1]))
    await carla.aclose()
    answers = await collect_answers(FIRST, {1: hub_one, 2: hub_two}, 30)
    assert (answers.declined, answers.signed) == (2, None)
    assert closed_sentence(FIRST, 2) == "Carla declined another match (the connection closed)"


async def test_a_yes_taken_back_before_the_next_genesis_is_a_decline() -> None:
    hub_one, bruno = channel_pair()
    hub_two, carla = channel_pair()
    await bruno.send_message(again_message(FIRST, 1, SEATS[1].identity, next_entries()[1]))
    await bruno.send_message(again_message(FIRST, 1, SEATS[1].identity, None))
    answers = await collect_answers(FIRST, {1: hub_one, 2: hub_two}, 30)
    assert answers.declined == 1 and answers.yes == {}
    await carla.aclose()


async def test_every_yes_ends_the_round_with_each_seats_entry() -> None:
    channels, entries = {}, next_entries()
    for seat in (1, 2):
        hub_end, joiner = channel_pair()
        await joiner.send_message(again_message(FIRST, seat, SEATS[seat].identity,
                                                entries[seat]))
        channels[seat] = hub_end
    answers = await collect_answers(FIRST, channels, 30)
    assert answers.declined is None and answers.yes == {1: entries[1], 2: entries[2]}
