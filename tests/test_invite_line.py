"""The invite line a host prints is quoted for the shell: pasted as it is into a shell that
refuses unmatched patterns (zsh's default, bash with ``failglob``), it joins the table."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from test_net_processes import BRISCOLA_2, DEADLINE, Peer

from p2pcards.cli.play import join_line
from p2pcards.seating.invite import Invite
from p2pcards.verify import verify_transcript

INVITE = "p2pcards://127.0.0.1:7300/" + "5f" * 16 + "?rules=" + "9a" * 16 + "#JAJX-SQVL-PT7R-BAEY"


def test_the_invite_is_one_quoted_word_and_parses_with_its_quotes() -> None:
    line = join_line(INVITE)
    assert line == f"p2pcards join '{INVITE}'"
    assert shlex.split(line) == ["p2pcards", "join", INVITE]
    assert Invite.parse(line) == Invite.parse(INVITE) == Invite.parse(f"'{INVITE}'")


def test_a_code_line_quotes_only_what_needs_it() -> None:
    assert join_line("125-remo-pioggia", "--relay", "relay.example.org:7447") == (
        "p2pcards join 125-remo-pioggia --relay relay.example.org:7447")
    assert join_line("125-remo-pioggia", "--relay", "[::1]:7447") == (
        "p2pcards join 125-remo-pioggia --relay '[::1]:7447'")


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"),
                        min_size=1), min_size=1, max_size=4))
def test_every_word_comes_back_from_the_shell_as_it_was(words: list[str]) -> None:
    assert shlex.split(join_line(*words)) == ["p2pcards", "join", *words]


def test_the_printed_line_pasted_into_a_strict_shell_joins(tmp_path: Path) -> None:
    hosting = Peer(tmp_path / "host", "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   *BRISCOLA_2, "--bot", "--seed", "3", "--insecure-public-keys", "--transcript",
                   str(tmp_path / "host.p2pt"))
    try:
        line = hosting.wait_for(r"^p2pcards join .+$")[0]
        assert line.startswith("p2pcards join 'p2pcards://") and line.endswith("'")
        shim = tmp_path / "bin" / "p2pcards"
        shim.parent.mkdir()
        shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m p2pcards \"$@\"\n")
        shim.chmod(0o755)
        env = dict(os.environ, P2PCARDS_HOME=str(tmp_path / "joiner"),
                   PATH=f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
        command = (f"{line} --bot --accept --ephemeral-identity --seed 4 --insecure-public-keys "
                   f"--transcript {shlex.quote(str(tmp_path / 'joiner.p2pt'))}")
        joined = subprocess.run(["bash", "-O", "failglob", "-c", command], env=env, text=True,
                                capture_output=True, timeout=DEADLINE, cwd=tmp_path)
        assert joined.returncode == 0, joined.stdout + joined.stderr
        assert hosting.finish() == 0, hosting.stdout + hosting.stderr
    finally:
        hosting.kill()
    assert verify_transcript(tmp_path / "joiner.p2pt").status == "valid"


def test_unquoted_the_same_line_is_refused_by_that_shell(tmp_path: Path) -> None:
    """The reason for the quotes: the shell itself refuses the bare invite."""
    refused = subprocess.run(["bash", "-O", "failglob", "-c", f"echo {INVITE}"],
                             text=True, capture_output=True, timeout=60, cwd=tmp_path)
    assert refused.returncode != 0 and "no match" in refused.stderr
