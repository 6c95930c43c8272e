"""The ``p2pcards`` command line.

Every user-facing failure ends as one sentence on standard error and a non-zero exit status,
never a traceback: exit 1 for a verification failure, 2 for bad usage or input, 3 for a network
or peer failure.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from .. import __version__
from ..i18n import LANGUAGES
from .errors import EXIT_INVALID, EXIT_NETWORK, EXIT_USAGE, UserError, run_command

__all__ = ["EXIT_INVALID", "EXIT_NETWORK", "EXIT_USAGE", "UserError", "build_parser", "main"]

def _cmd_rules(args: argparse.Namespace) -> int:
    from .rules import describe_game, list_games

    lines = describe_game(args.game) if args.game else list_games()
    print("\n".join(lines))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="p2pcards",
        description="Play Italian card games peer to peer, with no server and no trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"p2pcards {__version__}")
    parser.add_argument("--paranoid", action="store_true",
                        help="every seat of this process also checks the proofs of its own "
                        "messages (slower; for debugging)")
    _lang_option(parser, None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rules = sub.add_parser("rules", help="list games, or a game's presets and flags")
    rules.add_argument("game", nargs="?", help="a game name, e.g. scopa")
    rules.set_defaults(handler=_cmd_rules)

    for register in _EXTRA_COMMANDS:
        register(sub)
    for command in sub.choices.values():
        _lang_option(command, argparse.SUPPRESS)
    return parser


def _lang_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    """``--lang``, accepted before the command and after it."""
    parser.add_argument("--lang", choices=LANGUAGES, default=default,
                        help="the language of screens and messages: en, it or es (default: "
                             "from LC_ALL, LC_MESSAGES or LANG, else English)")


_EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = []


def _register_verify(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .verify import register

    register(sub)


_EXTRA_COMMANDS.append(_register_verify)


def _register_relay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .relay import register

    register(sub)


_EXTRA_COMMANDS.append(_register_relay)


def _register_net(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .play import register

    register(sub)


_EXTRA_COMMANDS.append(_register_net)


def _register_demo(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .demo import register

    register(sub)


_EXTRA_COMMANDS.append(_register_demo)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    return run_command(build_parser(), argv)
