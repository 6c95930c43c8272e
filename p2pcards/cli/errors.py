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
