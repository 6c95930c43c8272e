"""With no ``--name``, a person at a terminal is asked for a name once and it is kept beside
their identity; a run without a terminal, or a bot's seat, is never asked."""

from __future__ import annotations

import os
import pty
import subprocess
import threading
import time
from pathlib import Path

import pytest
from starter import start
from test_net_processes import DEADLINE, Peer

from p2pcards.records.player_name import ask_name, check_name, login_name, store_name, stored_name
from p2pcards.verify import load

QUESTION = "the other players will see you by a name"
HOST = ("host", "--game", "briscola", "--players", "2", "--bots", "1",
        "--listen", "127.0.0.1:0")


def test_a_name_is_checked_in_one_sentence() -> None:
    assert check_name("Anna") is None and check_name("  Bruno Rossi ") is None
    assert check_name("   ") == "a name needs at least one letter"
    assert check_name("x" * 41) == "a name has at most 40 characters, this one has 41"
    assert check_name("An\x1bna") == "a name cannot hold control characters"


def test_asking_repeats_until_a_good_name_and_keeps_it(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))
    typed = iter(["", "x" * 41, " Anna \n"])
    said: list[str] = []
    assert stored_name() is None
    assert ask_name(lambda prompt: next(typed), said.append) == "Anna"
    assert said[1:] == ["a name needs at least one letter",
                        "a name has at most 40 characters, this one has 41"]
    assert stored_name() == "Anna" and (tmp_path / "name").read_text() == "Anna\n"
    store_name("Bruno")
    assert stored_name() == "Bruno"


def test_end_of_input_while_asked_plays_under_the_login(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PCARDS_HOME", str(tmp_path))

    def closed(prompt: str) -> str:
        raise EOFError

    assert ask_name(closed, lambda text: None) == login_name()
    assert stored_name() is None


class TerminalPeer:
    """A ``p2pcards`` process (:func:`starter.start`) whose standard input is a
    pseudo-terminal."""

    def __init__(self, home: Path, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = dict(os.environ, P2PCARDS_HOME=str(home), PYTHONUNBUFFERED="1")
        self.process = start(args, env=env, stdin=slave, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        os.close(slave)
        self.out: list[str] = []
        self._reader = threading.Thread(target=self._collect, daemon=True)
        self._reader.start()

    def _collect(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.out.append(line.rstrip("\n"))

    def wait_for(self, text: str) -> None:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            if any(text in line for line in list(self.out)):
                return
            if self.process.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no line with {text!r}; stdout {self.out}")

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def finish(self) -> int:
        try:
            code = self.process.wait(DEADLINE)
            self._reader.join(DEADLINE)
            return code
        finally:
            os.close(self.master)

    def transcript(self) -> Path:
        line = next(line for line in self.out if line.startswith("transcript ("))
        return Path(line.split(": ", 1)[1])


def seat_zero_name(peer: TerminalPeer | Peer) -> str:
    return load(peer.transcript())[1].seats[0].name


def play_and_leave(home: Path, answer: str | None) -> TerminalPeer:
    """Host a table at a terminal, answer the name question if ``answer``, then leave."""
    peer = TerminalPeer(home, *HOST)
    try:
        if answer is not None:
            peer.wait_for(QUESTION)
            peer.type(answer + "\n")
        peer.wait_for("type ? for the moves")
        peer.type("q\ny\n")
        assert peer.finish() == 130, peer.out
    finally:
        if peer.process.poll() is None:
            peer.process.kill()
    return peer


def test_a_person_at_a_terminal_is_asked_once_and_the_name_is_kept(tmp_path: Path) -> None:
    first = play_and_leave(tmp_path, "Anna")
    assert seat_zero_name(first) == "Anna"
    assert (tmp_path / "name").read_text() == "Anna\n"
    again = play_and_leave(tmp_path, None)
    assert not any(QUESTION in line for line in again.out)
    assert seat_zero_name(again) == "Anna"


def test_no_terminal_is_never_asked_and_plays_under_the_login(tmp_path: Path) -> None:
    peer = Peer(tmp_path, *HOST, "--bot")
    assert peer.finish() == 0, peer.stderr
    assert QUESTION not in peer.stdout and not (tmp_path / "name").exists()
    assert seat_zero_name(peer) == login_name()
