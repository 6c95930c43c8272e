"""A property of the public bot of ``dropout = bot`` (SPEC §9.13.7): whatever game, seat (but
the hub's, which begins every recovery), moment and message a seat drops out at, the others
finish the match with the bot in its seat, agree on every envelope and score, and the
transcript verifies (in its own file, so that the parallel run can place it apart from the
other bot tests). Each example is a whole match of 3 or 4 seats, so it draws 4 of them: every
kind of message at which a seat drops out is also an exact case, in Scopa at 3 seats
(test_dropout_bot.py's test_scopa_goes_on_with_the_bot_whatever_message_was_due), and
Calabrasella's, Rumino's and Briscola's own bot cases are there too."""

from __future__ import annotations

import pytest
from attacks import Driver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_dropout_bot import KINDS, drop, finish_and_check

from p2pcards.table import HUB_SEAT


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from([("scopa", 3), ("briscola", 4), ("tressette", 3),
                             ("calabrasella", 3), ("sette-e-mezzo", 4), ("rumino", 3),
                             ("ziginette", 3), ("tute", 4)]),
       kind=st.sampled_from(KINDS), dropper=st.integers(1, 3), seed=st.integers(1, 50),
       skip=st.integers(0, 2))
def test_after_any_dropout_the_bot_plays_the_seat_to_the_end(
        tmp_path_factory: pytest.TempPathFactory, case: tuple[str, int], kind: str,
        dropper: int, seed: int, skip: int) -> None:
    game, players = case
    dropper = 1 + (dropper - 1) % (players - 1)  # any seat but the hub's, which begins it
    driver = Driver.new(game, "classic", players, seed=seed, dropout="bot")
    drop(driver, dropper, HUB_SEAT, kind, skip)
    finish_and_check(tmp_path_factory.mktemp("bot"), driver, dropper, kind)
