"""The ``p2pcards`` command line.

Every user-facing failure ends as one sentence on standard error and a non-zero exit status,
never a traceback: exit 1 for a verification failure, 2 for bad usage or input, 3 for a network
or peer failure.

A command's module (:mod:`.play`, :mod:`.verify`, :mod:`.relay`, :mod:`.demo`) is imported
only when that command runs: :data:`COMMANDS` names every command with its help line, and
:func:`main` registers in full only the module of the command it was given, the others as their
name and help line alone, which is all the top-level help and a wrong command's error show. A
relay or a ``verify`` then starts without importing the peer's network, the web table or Trio.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Sequence
from typing import NamedTuple

from .. import __version__
from ..i18n import LANGUAGES
from .errors import EXIT_INVALID, EXIT_NETWORK, EXIT_USAGE, UserError, run_command

__all__ = ["COMMANDS", "EXIT_INVALID", "EXIT_NETWORK", "EXIT_USAGE", "UserError",
           "build_parser", "main"]

class Command(NamedTuple):
    """One command of the command line: its name, its help line, and the module of
    :mod:`p2pcards.cli` whose ``register(sub)`` adds it (with the commands beside it in
    :data:`COMMANDS` that name the same module); ``None`` for ``rules``, registered here."""

    name: str
    help: str
    module: str | None


COMMANDS: tuple[Command, ...] = (
    Command("rules", "list games, or a game's presets and flags", None),
    Command("verify", "verify a match transcript (exit 0 valid, 1 invalid, 2 incomplete or "
            "unreadable)", "verify"),
    Command("show", "replay a match transcript hand by hand", "verify"),
    Command("relay", "run a relay node that forwards frames between peers", "relay"),
    Command("id", "print your identity fingerprint (made on first use)", "play"),
    Command("host", "host a table and print the invite for the others", "play"),
    Command("join", "join a table with the invite the host gave you", "play"),
    Command("resume", "come back into an unfinished match after a crash", "play"),
    Command("demo", "bots play a full match between local processes", "demo"),
)
"""Every command in the order ``--help`` lists them; the commands of one module are adjacent
and in the order its ``register`` adds them (tests/test_cli_help.py holds the help lines to
the registered ones)."""


def _cmd_rules(args: argparse.Namespace) -> int:
    from .rules import describe_game, list_games

    lines = describe_game(args.game) if args.game else list_games()
    print("\n".join(lines))
    return 0


def build_parser(modules: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with every subcommand. With ``modules`` (modules of
    :data:`COMMANDS`), only those modules are imported and their commands registered in full;
    every other command is there by its name and help line alone (it parses no options and
    runs nothing)."""
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
    registered: set[str] = set()
    for entry in COMMANDS:
        if entry.module is None:
            _register_rules(sub)
        elif modules is None or entry.module in modules:
            if entry.module not in registered:
                registered.add(entry.module)
                _register_module(sub, entry.module)
        else:
            sub.add_parser(entry.name, help=entry.help)
    for name in sub.choices:
        _lang_option(sub.choices[name], argparse.SUPPRESS)
    return parser


def _register_rules(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rules = sub.add_parser("rules", help=COMMANDS[0].help)
    rules.add_argument("game", nargs="?", help="a game name, e.g. scopa")
    rules.set_defaults(handler=_cmd_rules)


def _register_module(sub: argparse._SubParsersAction[argparse.ArgumentParser], module: str) -> None:
    """Import ``p2pcards.cli.MODULE`` and let it add its commands to ``sub``. Each import is
    spelled out, so that the package's import graph (tests/test_layers.py) sees every one."""
    if module == "verify":
        from .verify import register
    elif module == "relay":
        from .relay import register
    elif module == "play":
        from .play import register
    elif module == "demo":
        from .demo import register
    else:
        raise ValueError(f"{module!r} is not a module of p2pcards' commands")
    register(sub)


def _lang_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    """``--lang``, accepted before the command and after it."""
    parser.add_argument("--lang", choices=LANGUAGES, default=default,
                        help="the language of screens and messages: en, it or es (default: "
                             "from LC_ALL, LC_MESSAGES or LANG, else English)")


def modules_for(argv: Sequence[str]) -> frozenset[str]:
    """The module of :data:`COMMANDS` that the command of ``argv`` needs, the command read as
    the top-level parser reads it: the first argument that is neither an option nor the value
    of ``--lang`` (or of an abbreviation argparse accepts, such as ``--la``). Empty when that
    argument names no command with a module (``rules``, a wrong command, or none at all: the
    top-level help and a wrong command's error need only the names and help lines)."""
    takes_value = False
    for position, argument in enumerate(argv):
        if takes_value:
            takes_value = False
        elif argument == "--":
            return _module_named(argv[position + 1:position + 2])
        elif argument.startswith("-") and argument != "-":
            takes_value = (len(argument) > 2 and "=" not in argument
                           and "--lang".startswith(argument))
        else:
            return _module_named([argument])
    return frozenset()


def _module_named(command: Sequence[str]) -> frozenset[str]:
    """The module of the one command in ``command`` (empty: none), as a set."""
    return frozenset(entry.module for entry in COMMANDS
                     if entry.name in command and entry.module is not None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    return run_command(build_parser(modules_for(arguments)), arguments)
