"""The sentences a person reads when a match fails or waits on the network (a seat that
aborted, stopped answering, closed its connection, did not answer or did not come back) and
when it starts; in the language in use (:mod:`p2pcards.i18n`, context ``network``). Each
names the seats as the caller's label does (:func:`.player.seat_label`). Pure: no trio,
sockets or clocks.
"""

from __future__ import annotations

from ..i18n import pgettext
from ..seating.genesis import Genesis

__all__ = ["aborted", "caught_up_too_late", "did_not_answer", "did_not_come_back",
           "left_the_table", "may_come_back", "relay_reconnecting", "relay_unreachable",
           "stopped_answering", "table_starts"]


def aborted(who: str, reason: str) -> str:
    """``Bruno aborted the match: REASON`` (the reason is the sender's own words)."""
    return pgettext("network", "{who} aborted the match: {reason}").format(who=who,
                                                                           reason=reason)


def stopped_answering(who: str, seconds: int) -> str:
    """A connection whose keepalives stopped."""
    return pgettext("network", "{who} stopped answering: nothing arrived for {seconds} seconds "
                    "(its program, its machine or the network is gone)").format(
        who=who, seconds=seconds)


def left_the_table(who: str) -> str:
    """A connection its peer closed."""
    return pgettext("network", "{who} left the table: the connection closed").format(who=who)


def may_come_back(why: str, back: str) -> str:
    """A lost connection the table waits for (``back``: ``M:SS``)."""
    return pgettext("network", "{why}; it may come back within {back}").format(why=why,
                                                                               back=back)


def relay_unreachable(where: str) -> str:
    """The relay between this peer and the others does not answer."""
    return pgettext("network", "the relay at {where} is unreachable").format(where=where)


def relay_reconnecting(why: str, seconds: int, names: str, back: str) -> str:
    """The relay is what cannot be reached: it is tried again for ``seconds`` more."""
    return pgettext("network", "{why}; reconnecting ({seconds} s left); {names} may come back "
                    "within {back}").format(why=why, seconds=seconds, names=names, back=back)


def did_not_come_back(why: str, seconds: str) -> str:
    """A lost connection whose return wait ran out (``seconds``: the wait, as written)."""
    return pgettext("network", "{why}, and did not come back within {seconds} seconds").format(
        why=why, seconds=seconds)


def caught_up_too_late(who: str, seconds: str) -> str:
    """A connection that came back but did not catch up within the return wait."""
    return pgettext("network", "{who} came back on a new connection but did not catch up "
                    "within {seconds} seconds").format(who=who, seconds=seconds)


def did_not_answer(who: str, seconds: float) -> str:
    """A seat whose turn's timeout ran out."""
    return pgettext("network", "{who} did not answer within {seconds} seconds").format(
        who=who, seconds=seconds)


def table_starts(genesis: Genesis) -> str:
    """``every seat is taken; table 0123456789abcdef starts``, on every seat's screen."""
    return pgettext("network", "every seat is taken; table {table} starts").format(
        table=genesis.table_id.hex()[:16])
