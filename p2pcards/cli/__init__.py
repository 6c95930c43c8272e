"""The ``p2pcards`` command line.

Every user-facing failure ends as one sentence on standard error and a non-zero exit status,
never a traceback: exit 1 for a verification failure, 2 for bad usage or input, 3 for a network
or peer failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..games.base import GameError
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
    parser.add_argument("--paranoid", action="store_true",
                        help="every seat of this process also checks the proofs of its own "
                        "messages (slower; for debugging)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    rules = sub.add_parser("rules", help="list games, or a game's presets and flags")
    rules.add_argument("game", nargs="?", help="a game name, e.g. scopa")
    rules.set_defaults(handler=_cmd_rules)

    for register in _EXTRA_COMMANDS:
        register(sub)
    return parser


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
    handler: Handler | None = getattr(args, "handler", None)
    if args.paranoid:
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
        print("p2pcards: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output's reader left (``| head``): stop quietly
        silence_stdout()
        return EXIT_NETWORK
