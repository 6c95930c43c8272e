"""Exit statuses of the command line, the one-sentence error every command may raise, and the
run of a parsed command that turns every user-facing failure into one sentence and a status."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from ..games.base import GameError
from ..i18n import LANGUAGE_VARIABLE, _, choose_language, set_language

EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_NETWORK = 3


class UserError(Exception):
    """A problem to report to the user as one sentence, with an exit status."""

    def __init__(self, message: str, status: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.status = status


def silence_stdout() -> None:
    """Point standard output at /dev/null, after the reader of a pipe went away (``| head``):
    Python would otherwise fail again when it flushes the closed pipe at exit."""
    import os
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def first_failure(exc: BaseException) -> BaseException:
    """The first :class:`~p2pcards.net.errors.MatchFailure`, ``KeyboardInterrupt`` or
    ``BrokenPipeError`` inside (nested) exception groups, else ``exc``."""
    from ..net.errors import MatchFailure

    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = first_failure(inner)
            if isinstance(found, MatchFailure | KeyboardInterrupt | BrokenPipeError):
                return found
    return exc


Handler = Callable[[argparse.Namespace], int]


def use_language(requested: str | None) -> None:
    """Read the catalog of the language asked for (``--lang``, else the one handed down by the
    process that started this one, else the locale) and hand the choice on to the processes
    this one starts (:data:`~p2pcards.i18n.LANGUAGE_VARIABLE`)."""
    code = choose_language(requested or os.environ.get(LANGUAGE_VARIABLE), os.environ)
    set_language(code)
    os.environ[LANGUAGE_VARIABLE] = code


def run_command(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` with ``parser`` and run the chosen command's handler; returns the exit
    status. A failure meant for the user ends as one sentence on standard error (never a
    traceback); without a command the help is printed."""
    args = parser.parse_args(argv)
    try:
        use_language(getattr(args, "lang", None))
    except (ValueError, OSError) as exc:
        print(f"p2pcards: {exc}", file=sys.stderr)
        return EXIT_USAGE
    handler: Handler | None = getattr(args, "handler", None)
    if getattr(args, "paranoid", False):
        from ..crypto.own import set_paranoid

        set_paranoid(True)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return handler(args)
    except UserError as exc:
        print(f"p2pcards: {exc}", file=sys.stderr)
        return exc.status
    except GameError as exc:
        print(f"p2pcards: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("p2pcards: " + _("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output's reader left (``| head``): stop quietly
        silence_stdout()
        return EXIT_NETWORK
