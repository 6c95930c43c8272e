"""The test starter (tests/starter.py): a command it forks behaves as ``python -m p2pcards``
started by :mod:`subprocess` does (output, exit status, signals, its own pid and streams), and a
test that lets go of a running process does not stop the starter."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from starter import forking, start
from test_net_processes import DEADLINE

HOSTING = ("host", "--listen", "127.0.0.1:0", "--ephemeral-identity", "--bot")


def spawned(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pcards", *args], env=env, text=True,
                          capture_output=True, timeout=DEADLINE, check=False)


@pytest.mark.parametrize("args", [["rules", "scopa"], ["verify", "/no/such/transcript"],
                                  ["host", "--players", "nine"]])
def test_a_started_command_prints_and_exits_as_python_m_p2pcards(
        tmp_path: Path, args: list[str]) -> None:
    env = dict(os.environ, P2PCARDS_HOME=str(tmp_path))
    process = start(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.read(), process.stderr.read()
    status = process.wait(DEADLINE)
    same = spawned(args, env)
    assert (status, out, err) == (same.returncode, same.stdout, same.stderr)


def test_a_started_command_reads_its_standard_input_and_has_a_pid_of_its_own(
        tmp_path: Path) -> None:
    env = dict(os.environ, P2PCARDS_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    process = start(["join", "-", "--bot"], env=env, stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.pid != os.getpid() and Path(f"/proc/{process.pid}").exists()
    assert process.stdin is not None and process.stderr is not None
    process.stdin.write("not an invite\n")
    process.stdin.close()
    assert process.wait(DEADLINE) == 2
    assert process.stderr.read().startswith("p2pcards: ")


def test_a_started_process_ends_by_the_signal_it_is_sent(tmp_path: Path) -> None:
    env = dict(os.environ, P2PCARDS_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    killed = start(HOSTING, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    interrupted = start(HOSTING, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for process in (killed, interrupted):
        assert process.stdout is not None
        assert process.stdout.readline()  # hosting: it printed its first line
        assert process.poll() is None
    killed.kill()
    interrupted.send_signal(signal.SIGINT)
    assert killed.wait(DEADLINE) == -signal.SIGKILL
    assert interrupted.wait(DEADLINE) == 130  # the command's own answer to ^C
    assert interrupted.stderr is not None
    assert "Traceback" not in interrupted.stderr.read()


@pytest.mark.skipif(not forking(), reason="the processes are spawned here, not forked")
def test_a_process_let_go_of_does_not_stop_the_starters(tmp_path: Path) -> None:
    """Both starters (processes go to them in turn) see a process end after the test dropped
    it without waiting, and still start and report the next ones."""
    env = dict(os.environ, P2PCARDS_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    for _ in range(2):
        dropped = start(HOSTING, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pid = dropped.pid
        del dropped
        gc.collect()
        os.kill(pid, signal.SIGKILL)
    for _ in range(2):
        assert start(["rules"], env=env, stdout=subprocess.DEVNULL).wait(DEADLINE) == 0
