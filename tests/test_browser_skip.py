"""Without a browser the browser tests are skipped with one sentence, unless
``P2PCARDS_REQUIRE_BROWSER`` (set by ``.ci/run``) requires them; then they fail with it.

Each case runs pytest itself in a subprocess on one browser test of ``test_card_art.py``, with
``P2PCARDS_CHROMIUM`` pointing at a path that does not exist.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from browser import REQUIRE_ENV

ROOT = Path(__file__).resolve().parent.parent
SENTENCE = ("no browser for the browser tests: /nonexistent/chromium not found; install "
            "Chromium and its driver")


def run_pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != REQUIRE_ENV}
    environment.update(P2PCARDS_CHROMIUM="/nonexistent/chromium", **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-p",
         "no:randomly", "tests/test_card_art.py", "-k", "back_is_one",
         "--basetemp", str(tmp_path / "inner")],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)


def test_no_browser_skips_with_one_sentence_at_the_end_of_the_run(tmp_path: Path) -> None:
    run = run_pytest(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    said = [line for line in lines if SENTENCE in line]
    assert len(said) == 1, run.stdout
    assert said[0].startswith("1 browser test skipped, ")
    assert "1 skipped" in lines[-1] and "failed" not in lines[-1]


def test_a_required_browser_fails_rather_than_skips(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, **{REQUIRE_ENV: "1"})
    assert run.returncode == 1, run.stdout + run.stderr
    assert SENTENCE in run.stdout and f"{REQUIRE_ENV} is set" in run.stdout
    assert "skipped, no browser" not in run.stdout
    assert "skipped" not in run.stdout.splitlines()[-1]


def test_the_ci_script_requires_the_browser() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert f"export {REQUIRE_ENV}=1" in script
