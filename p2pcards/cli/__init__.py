"""The ``p2pcards`` command line.

Every user-facing failure ends as one sentence on standard error and a non-zero exit status,
never a traceback: exit 1 for a verification failure, 2 for bad usage or input, 3 for a network
or peer failure.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..games.base import GameError
from ..i18n import LANGUAGE_VARIABLE, LANGUAGES, _, choose_language, set_language
from .errors import EXIT_INVALID, EXIT_NETWORK, EXIT_USAGE, UserError, silence_stdout

__all__ = ["EXIT_INVALID", "EXIT_NETWORK", "EXIT_USAGE", "UserError", "build_parser", "main"]

def _cmd_rules(args: argparse.Namespace) -> int:
    from ..rules_text import describe_game, list_games

    lines = describe_game(args.game) if args.game else list_games()
    print("\n".join(lines))
    return 0


Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="p2pcards",
        description="Play Italian card games peer to peer, with no server and no trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"p2pcards {__version__}")
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


def _use_language(requested: str | None) -> None:
    """Read the catalog of the language asked for (``--lang``, else the locale) and hand the
    choice to the processes this one starts (:data:`~p2pcards.i18n.LANGUAGE_VARIABLE`)."""
    code = choose_language(requested or os.environ.get(LANGUAGE_VARIABLE), os.environ)
    set_language(code)
    os.environ[LANGUAGE_VARIABLE] = code


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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _use_language(args.lang)
    except (ValueError, OSError) as exc:
        print(f"p2pcards: {exc}", file=sys.stderr)
        return EXIT_USAGE
    handler: Handler | None = getattr(args, "handler", None)
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
