"""Every command and every option of the command line says what it is for in ``--help``."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from p2pcards.cli import COMMANDS, build_parser, modules_for


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_command_and_option_has_a_description() -> None:
    parser = build_parser()
    commands = _subcommands(parser)
    assert {"rules", "verify", "show", "relay", "host", "join", "demo", "id"} <= set(commands)
    helps = {a.dest: a.help for a in parser._actions
             if isinstance(a, argparse._SubParsersAction) for a in a._choices_actions}
    missing = [name for name in commands if not helps.get(name)]
    for name, sub in commands.items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def _command_helps(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    return [(action.dest, action.help) for action in parser._actions
            if isinstance(action, argparse._SubParsersAction) for action in action._choices_actions]


def test_the_table_of_commands_is_what_their_modules_register() -> None:
    """:data:`p2pcards.cli.COMMANDS` (names and help lines, in order) is what the modules add,
    so a command left out of the parser, or a help line changed in one place only, fails."""
    full = build_parser()
    assert _command_helps(full) == [(entry.name, entry.help) for entry in COMMANDS]
    assert list(_subcommands(full)) == [entry.name for entry in COMMANDS]


@pytest.mark.parametrize("command", [entry.name for entry in COMMANDS])
def test_the_parser_built_for_one_command_reads_and_helps_as_the_full_one(command: str) -> None:
    """The parser :func:`p2pcards.cli.main` builds for ``command`` prints the same top-level
    help and the same help of the command as the parser with every module registered."""
    full = build_parser()
    lazy = build_parser(modules_for([command]))
    assert lazy.format_help() == full.format_help()
    assert _subcommands(lazy)[command].format_help() == _subcommands(full)[command].format_help()
    assert list(_subcommands(lazy)) == list(_subcommands(full))


@pytest.mark.parametrize("argv", [
    ["host", "--bot"], ["--lang", "it", "join", "-"], ["--lang=es", "verify", "x.p2pt"],
    ["--la", "en", "relay"], ["--l", "it", "--paranoid", "demo"], ["--paranoid", "resume"],
    ["id", "-v"], ["show", "--", "host"], ["rules", "scopa"],
])
def test_the_command_is_read_as_the_full_parser_reads_it(argv: list[str]) -> None:
    command = build_parser().parse_args(argv).command
    assert modules_for(argv) == {entry.module for entry in COMMANDS
                                 if entry.name == command and entry.module is not None}


@pytest.mark.parametrize("argv", [[], ["--help"], ["--lang", "it"], ["nope"], ["-", "host"],
                                  ["--lang", "verify"]])
def test_no_command_or_a_wrong_one_needs_no_module(argv: list[str]) -> None:
    """The top-level help and a wrong command's error are read from the table alone (for
    ``--lang verify``, argparse too reads ``verify`` as the language, and refuses it)."""
    assert modules_for(argv) == frozenset()


def test_a_relay_process_imports_no_code_of_the_peers() -> None:
    """In a fresh interpreter, the parser for ``p2pcards relay`` imports the relay's module
    and none of the peer's network, web table or transcript commands."""
    code = ("import sys; from p2pcards.cli import build_parser, modules_for; "
            "build_parser(modules_for(['relay'])); "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith("
            "('p2pcards.cli.', 'p2pcards.net', 'p2pcards.table', 'hypercorn', 'rich')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300).stdout
    assert out.split() == ["p2pcards.cli.errors", "p2pcards.cli.relay"]
