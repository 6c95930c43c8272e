"""Loading a user's bot from ``--bot``: built-in kinds, module:callable, file.py:callable, and a
clear one-sentence error for every way it can go wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2pcards.bots import RandomBot
from p2pcards.bots.loader import BotLoadError, describe_bot_spec, load_bot
from p2pcards.games import get_game
from p2pcards.offline.simulate import play_match

BOT_SOURCE = '''
class FirstMove:
    """Always plays the first legal move."""

    name = "first"

    def __init__(self, game, seat, seed):
        self.game, self.seat, self.seed = game, seat, seed

    def choose(self, observation, legal):
        return legal[0]


def make(game, seat, seed):
    return FirstMove(game, seat, seed)


class Broken:
    def __init__(self, game, seat, seed):
        raise RuntimeError("no model file")


def nameless(game, seat, seed):
    return object()

NOT_CALLABLE = 3
'''


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    path = tmp_path / "mybot.py"
    path.write_text(BOT_SOURCE)
    return path


def test_builtin_kinds() -> None:
    assert isinstance(load_bot("random", "scopa", 0, 1), RandomBot)
    assert load_bot("smart", "briscola", 0, 1).name != "random"
    assert describe_bot_spec("smart") == "smart"
    assert describe_bot_spec("mybot:FirstMove") == "FirstMove"


def test_a_bot_from_a_file_gets_its_seat_and_plays_a_whole_match(bot_file: Path) -> None:
    bots = [load_bot(f"{bot_file}:make", "scopa", seat, 7) for seat in range(2)]
    assert [(b.game, b.seat, b.seed) for b in bots] == [  # type: ignore[attr-defined]
        ("scopa", 0, 7), ("scopa", 1, 7)]
    spec = get_game("scopa")
    result = play_match(spec, spec.preset(players=2), bots, seed=3)
    assert result.state.match_over


def test_a_bot_from_a_module_on_the_path(bot_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(bot_file.parent))
    bot = load_bot("mybot:FirstMove", "briscola", 1, None)
    assert bot.name == "first"
    sys.modules.pop("mybot", None)


@pytest.mark.parametrize(("suffix", "message"), [
    (":Broken", "making the bot failed: RuntimeError: no model file"),
    (":nameless", "has no choose"),
    (":NOT_CALLABLE", "is not callable"),
    (":missing", "has no attribute 'missing'"),
])
def test_bad_bots_are_one_sentence_errors(bot_file: Path, suffix: str, message: str) -> None:
    with pytest.raises(BotLoadError, match=message):
        load_bot(f"{bot_file}{suffix}", "scopa", 0, None)


@pytest.mark.parametrize(("spec", "message"), [
    ("clever", "expected smart, random, module:callable"),
    ("no_such_module_xyz:Bot", "no module named 'no_such_module_xyz'"),
    ("/nowhere/bot.py:Bot", "no file"),
])
def test_bad_specs_are_one_sentence_errors(spec: str, message: str) -> None:
    with pytest.raises(BotLoadError, match=message):
        load_bot(spec, "scopa", 0, None)


def test_a_file_that_fails_to_load_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_text("raise ImportError('needs torch')\n")
    with pytest.raises(BotLoadError, match="loading .* failed: ImportError: needs torch"):
        load_bot(f"{path}:Bot", "scopa", 0, None)


def _demo(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "P2PCARDS_HOME": str(tmp_path / "home"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    return subprocess.run([sys.executable, "-m", "p2pcards", "demo", *args], cwd=tmp_path,
                          env=env, text=True, capture_output=True, timeout=600)


def test_a_user_bot_that_raises_leaves_the_table_with_one_sentence(bot_file: Path) -> None:
    bot_file.write_text(BOT_SOURCE + '''

class GivesUp:
    name = "gives-up"

    def __init__(self, game, seat, seed):
        self.turns = 0

    def choose(self, observation, legal):
        self.turns += 1
        if self.turns > 2:
            raise ValueError("out of ideas")
        return legal[0]
''')
    done = _demo(bot_file.parent, "--game", "briscola", "--seed", "4",
                 f"--bot={bot_file}:GivesUp")
    assert done.returncode != 0
    assert "the bot 'gives-up' at seat" in done.stdout
    assert "raised ValueError: out of ideas; the seat leaves the table" in done.stdout
    assert "exited with status 4" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert "the transcript verifies but the match is incomplete" in done.stdout


@pytest.mark.slow
def test_a_user_bot_plays_a_whole_networked_match(bot_file: Path) -> None:
    done = _demo(bot_file.parent, "--game", "scopa", "--seed", "2", f"--bot={bot_file}:make")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"2 bot players ({bot_file}:make)" in done.stdout
    assert "checks out" in done.stdout


def test_a_bad_bot_is_a_usage_error_before_anything_starts(tmp_path: Path) -> None:
    done = _demo(tmp_path, "--bot", "no_such_module_xyz:Bot")
    assert done.returncode == 2
    assert "no module named 'no_such_module_xyz'" in done.stderr


def test_bot_written_before_the_invite_still_means_a_smart_bot(tmp_path: Path) -> None:
    """``join --bot INVITE`` (the old spelling) takes the invite as the invite, not as a bot."""
    env = {**os.environ, "P2PCARDS_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "p2pcards", "join", "--bot",
         "p2pcards://127.0.0.1:1/43b76593a3bd35de55e5baf34fb33ee9#ZL4Q-XJJC-YUG7-B7XZ",
         "--ephemeral-identity"], env=env, text=True, capture_output=True, timeout=120)
    assert done.returncode == 3, done.stderr  # it tried to connect: a network error, not usage
    assert "could not connect to 127.0.0.1:1" in done.stderr
    missing = subprocess.run([sys.executable, "-m", "p2pcards", "join"], env=env, text=True,
                             capture_output=True, timeout=120)
    assert missing.returncode == 2
    assert "join needs the invite line" in missing.stderr
