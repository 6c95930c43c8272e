"""Exit statuses of the command line and the one-sentence error every command may raise."""

from __future__ import annotations

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
