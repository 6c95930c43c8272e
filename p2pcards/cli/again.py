"""Whether a seat plays another match at the same table (``host`` and ``join``; SPEC §11.8)."""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable

from ..faces.terminal import YES_WORDS, StdinLines
from ..i18n import N_, _
from ..table import Table
from .errors import EXIT_USAGE, UserError

__all__ = ["AGAIN_QUESTION", "again_answer", "rematch_option"]

AGAIN_QUESTION = N_("play again? (y/N) ")


def rematch_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rematch", type=int, metavar="N",
                        help="play up to N matches in a row at this table, saying yes to "
                             "another match without being asked (a person at a terminal is "
                             "otherwise asked after each match; a bot declines)")


def again_answer(args: argparse.Namespace, lines: StdinLines | None
                 ) -> Callable[[Table], Awaitable[bool]] | None:
    """The answer of this seat after each match: yes until ``--rematch N`` matches are played;
    without it, a person at the terminal is asked :data:`AGAIN_QUESTION` (a line of standard
    input answers it); ``None`` (no rematch: the connections close at the end) for a bot, and
    for a web table, whose page asks instead (``host``'s and ``join``'s ``_again_of``)."""
    limit: int | None = getattr(args, "rematch", None)
    if limit is not None:
        if not 1 <= limit <= 1000:
            raise UserError(_("--rematch must be between 1 and 1000 matches"), EXIT_USAGE)
        played = 0

        async def counted(table: Table) -> bool:
            nonlocal played
            played += 1
            return played < limit
        return counted
    if args.bot or getattr(args, "web", False) or lines is None:
        return None

    async def ask(table: Table) -> bool:
        print(_(AGAIN_QUESTION), end="", flush=True)
        answered = False
        try:
            line = await lines.readline()
            answered = True
        finally:
            if not answered:  # withdrawn (another seat declined, Ctrl-C): end the line
                print(flush=True)
        if line is None:
            print()
            return False
        return line.strip().lower() in YES_WORDS
    return ask
