"""Who may begin a recovery (SPEC §9.13.5), with in-memory tables: only the hub's ``recover``
opens the round; a joiner's, signed for the awaited seat at the right place, is refused by every
table as ``out-of-turn`` and the match ends with no recovery; a transcript holding one is
invalid, naming the joiner. And the sans-IO judgement a seat makes of a recovery of itself
(:mod:`p2pcards.seating.recovery_watch`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from attacks import Driver, forged_recover, write_transcript
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from p2pcards.offline.memory import make_tables
from p2pcards.seating.recovery_watch import (
    SLACK_SECONDS,
    Turn,
    turn_limit,
    wrongful_elapsed,
    wrongful_message,
)
from p2pcards.table import HUB_SEAT, Violation
from p2pcards.verify import verify_transcript


def at_seat_twos_move(policy: str, seed: int = 4) -> Driver:
    driver = Driver.new("scopa", "classic", 3, seed=seed, dropout=policy)
    driver.run_until(lambda d: d.tables[2].needs_decision)
    return driver


@pytest.mark.parametrize("policy", ["forfeit", "bot"])
def test_a_joiners_recover_of_a_live_seat_is_refused_and_the_match_ends_without_one(
        tmp_path: Path, policy: str) -> None:
    driver = at_seat_twos_move(policy)
    tables = driver.tables
    assert tables[HUB_SEAT].can_recover(2)
    assert not tables[1].can_recover(2)
    forged = forged_recover(tables[1], 2)
    assert tables[0].recover_sender(forged) == (1, 2, driver.position)
    assert not tables[0].opens_recovery(forged)
    for seat in (0, 2):
        before = (tables[seat].expected, len(tables[seat].frames))
        with pytest.raises(Violation) as refused:
            tables[seat].receive(forged)
        assert (refused.value.rule, refused.value.seat) == ("out-of-turn", 1)
        assert (tables[seat].expected, len(tables[seat].frames)) == before
        assert tables[seat].recovery is None
    driver.run_out()
    assert not driver.violations
    for table in tables:
        assert table.finished and table.recovery is None and table.forfeit is None
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis,
                                                driver.longest_frames()))
    assert report.status == "valid" and report.dropout is None


@pytest.mark.parametrize("policy", ["forfeit", "bot"])
def test_a_transcript_whose_recovery_a_joiner_began_is_invalid_naming_it(
        tmp_path: Path, policy: str) -> None:
    """The transcript every seat would have written had the hub forwarded seat 1's
    ``recover`` of seat 2: the verifier names seat 1, and reports no dropout."""
    driver = at_seat_twos_move(policy)
    index = driver.position
    forged = forged_recover(driver.tables[1], 2)
    frames = [*driver.tables[0].frames, forged]
    report = verify_transcript(write_transcript(tmp_path / "t.p2pt", driver.genesis, frames))
    assert report.status == "invalid"
    violation = report.violation
    assert violation is not None
    assert (violation.rule, violation.seat, violation.index) == ("out-of-turn", 1, index)
    assert report.dropout is None


def test_the_hub_alone_may_begin_a_recovery_and_never_of_itself() -> None:
    driver = at_seat_twos_move("forfeit")
    assert [t.can_recover(2) for t in driver.tables] == [True, False, False]
    _, tables = make_tables("scopa", "", 3, seed=1, dropout="forfeit")
    hub = tables[HUB_SEAT]
    hub.start()
    assert not hub.can_recover(HUB_SEAT)


def test_the_dropped_seat_accepts_the_hubs_recover_of_itself() -> None:
    """The hub's word is the protocol's: the named seat's table accepts it (and the session
    then judges it, below)."""
    driver = at_seat_twos_move("forfeit")
    data = driver.tables[HUB_SEAT].recover(2).outgoing[0]
    driver.tables[2].receive(data)
    recovery = driver.tables[2].recovery
    assert recovery is not None and (recovery.seat, recovery.by) == (2, HUB_SEAT)


# --------------------------------------------------------------------- the seat's judgement

CONNECTION = object()


def turn(began: float = 100.0, connection: object | None = CONNECTION) -> Turn:
    return Turn(seat=2, kind="action", position=40, began=began, connection=connection)


def test_a_recovery_well_before_the_limit_on_the_same_connection_is_wrongful() -> None:
    assert wrongful_elapsed(turn(), seat=2, position=40, now=103.0, limit=600,
                            connection=CONNECTION) == pytest.approx(3.0)


@pytest.mark.parametrize(("change", "why"), [
    ({"connection": object()}, "the seat's connection was replaced: it was away"),
    ({"seat": 1}, "another seat's recovery"),
    ({"position": 41}, "another turn"),
    ({"now": 100.0 + 600 - SLACK_SECONDS}, "within the slack of the limit"),
    ({"now": 800.0}, "past the limit"),
])
def test_a_recovery_the_hub_may_have_been_right_about_is_not_wrongful(
        change: dict[str, object], why: str) -> None:
    args: dict[str, object] = {"seat": 2, "position": 40, "now": 103.0, "limit": 600,
                               "connection": CONNECTION}
    args.update(change)
    assert wrongful_elapsed(turn(), **args) is None, why  # type: ignore[arg-type]


def test_a_turn_begun_while_away_or_unknown_is_never_wrongful() -> None:
    assert wrongful_elapsed(turn(connection=None), seat=2, position=40, now=101.0, limit=600,
                            connection=CONNECTION) is None
    assert wrongful_elapsed(None, seat=2, position=40, now=101.0, limit=600,
                            connection=CONNECTION) is None


@given(began=st.floats(0, 1e6), waited=st.floats(0, 1e5), limit=st.integers(1, 86_400),
       same=st.booleans())
def test_wrongful_exactly_when_connected_throughout_and_short_of_the_limit(
        began: float, waited: float, limit: int, same: bool) -> None:
    connection = CONNECTION if same else object()
    found = wrongful_elapsed(turn(began), seat=2, position=40, now=began + waited,
                             limit=limit, connection=connection)
    elapsed = (began + waited) - began
    assert (found is not None) == (same and elapsed < limit - SLACK_SECONDS)
    if found is not None:
        assert found == pytest.approx(elapsed) and found < limit


def test_the_limit_is_the_hubs() -> None:
    made, _ = make_tables("scopa", "", 3, seed=1, dropout="forfeit")
    genesis = dataclasses.replace(made, timeouts={"step": 30, "action": 300})
    assert turn_limit(genesis, "action", 2, bots=()) == 300
    assert turn_limit(genesis, "action", 2, bots=(2,)) == 30
    assert turn_limit(genesis, "key", 2, bots=()) == 30


def test_the_sentence_names_the_hub_and_the_turn() -> None:
    text = wrongful_message("seat 0 Alice (ABCD-EFGH)", turn(), 3.2, 600)
    assert text.startswith("the hub (seat 0 Alice (ABCD-EFGH)) began a recovery of this seat "
                           "while it was connected and answering")
    assert "'action' message at envelope 40 was due for 3 of its 600 seconds" in text
    assert "\n" not in text


def test_a_hubs_recover_in_place_of_a_seats_sent_move_is_refused_by_that_seat() -> None:
    """The hub drops seat 2's move and recovers it instead: seat 2's chain holds its move at
    that place, so its table refuses the hub's ``recover`` (``wrong-sequence``, naming nobody)
    and the session can tell from :meth:`Table.recover_sender` that it claims seat 2's own
    place (and say that the hub recovered a seat that had answered)."""
    driver = at_seat_twos_move("forfeit")
    victim = driver.tables[2]
    position = victim.chain.next_seq
    action = driver.bots[2].choose(victim.observation(), victim.legal_actions())
    victim.decide(action)
    assert victim.chain.seat_of(position) == 2
    recover = driver.tables[HUB_SEAT].recover(2).outgoing[0]
    assert victim.recover_sender(recover) == (HUB_SEAT, 2, position)
    with pytest.raises(Violation) as refused:
        victim.receive(recover)
    assert (refused.value.rule, refused.value.seat) == ("wrong-sequence", None)
    assert victim.recovery is None


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(policy=st.sampled_from(["forfeit", "bot"]), players=st.sampled_from([3, 4]),
       steps=st.integers(0, 120), seed=st.integers(1, 30))
def test_at_any_moment_no_joiner_begins_a_recovery(policy: str, players: int, steps: int,
                                                     seed: int) -> None:
    """Wherever the match stands, a joiner's ``recover`` of the awaited seat is refused by
    every other table, naming that joiner, and changes nothing; the hub's alone opens one."""
    game = "scopa" if players == 3 else "briscola"
    driver = Driver.new(game, "classic", players, seed=seed, dropout=policy)
    for _ in range(steps):
        if not driver.step():
            break
    while driver.queue:
        driver.step()
    expected = driver.expected()
    assume(expected is not None and expected[1] != "accept")
    assert expected is not None
    awaited = expected[0]
    tables = driver.tables
    for sender in range(1, players):
        if sender == awaited:
            continue
        forged = forged_recover(tables[sender], awaited)
        for seat in range(players):
            if seat == sender:
                continue
            before = len(tables[seat].frames)
            with pytest.raises(Violation) as refused:
                tables[seat].receive(forged)
            assert (refused.value.rule, refused.value.seat) == ("out-of-turn", sender)
            assert len(tables[seat].frames) == before and tables[seat].recovery is None
    if awaited != HUB_SEAT:
        assert tables[HUB_SEAT].can_recover(awaited)
        assert tables[awaited].opens_recovery(tables[HUB_SEAT].recover(awaited).outgoing[0])
