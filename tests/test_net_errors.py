"""A nursery's group of exceptions leaves the network layer as one sentence when it is a match
failure, and stays a group (a bug stays visible) when anything else is in it."""

from __future__ import annotations

import pytest
import trio

from p2pcards.net.errors import MatchFailure, PeerGone
from p2pcards.net.nursery import one_failure, unwrap_failure


def test_the_first_match_failure_of_nested_groups_is_the_one_raised() -> None:
    failure = PeerGone("the host left")
    group = BaseExceptionGroup("outer", [ExceptionGroup("inner", [failure]),
                                         MatchFailure("second")])
    assert unwrap_failure(group) is failure


def test_a_group_with_anything_but_failures_and_cancellations_stays_a_group() -> None:
    bug = ExceptionGroup("outer", [ExceptionGroup("inner", [MatchFailure("x"),
                                                            KeyError("bug")])])
    assert unwrap_failure(bug) is bug
    with pytest.raises(ExceptionGroup), one_failure():
        raise bug


async def test_a_failure_in_a_task_leaves_the_nursery_as_that_failure() -> None:
    async def fail() -> None:
        raise MatchFailure("the relay at r:1 failed")

    with pytest.raises(MatchFailure, match=r"^the relay at r:1 failed$"), one_failure():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(fail)
            await trio.sleep_forever()
