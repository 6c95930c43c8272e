"""How Ctrl-C and SIGTERM end a seat's match from the command line (``host``, ``join``,
``resume``): see :mod:`p2pcards.net.interrupts`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable

from ..faces.terminal import YES_WORDS, StdinLines
from ..i18n import _
from ..net.interrupts import LEAVE_QUESTION, LeaveOnSignal

__all__ = ["leave_question", "on_signal"]


def leave_question(lines: StdinLines) -> Callable[[], Awaitable[bool]]:
    """Ctrl-C at a person's terminal: ask whether to leave the match (yes leaves, as ``q``
    does; anything else goes on; end of input leaves)."""
    async def ask() -> bool:
        print("\n" + _(LEAVE_QUESTION), end="", flush=True)
        answer = await lines.question()
        if answer is None:
            print()
            return True
        if answer.strip().lower() in YES_WORDS:
            return True
        print(_("staying at the table"), flush=True)
        return False
    return ask


def on_signal(args: argparse.Namespace, lines: StdinLines | None) -> LeaveOnSignal:
    """How SIGINT and SIGTERM end this seat's match (:mod:`~p2pcards.net.interrupts`): a
    person at a terminal is asked first; a bot, a web page or no terminal leaves at once."""
    at_terminal = not getattr(args, "bot", None) and not getattr(args, "web", False)
    if at_terminal and lines is not None and sys.stdin.isatty():
        return LeaveOnSignal(leave_question(lines))
    return LeaveOnSignal()
