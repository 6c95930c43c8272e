"""Every command and every option of the command line says what it is for in ``--help``."""

from __future__ import annotations

import argparse

from p2pcards.cli import build_parser


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
