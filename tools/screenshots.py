"""Text screenshots of p2pcards for the user guide, captured from real runs of the program in
English and in Italian, so that they can be refreshed whenever the screens change.

    python3 tools/screenshots.py          # rewrite every screenshot in docs/user-guide.md
    python3 tools/screenshots.py --check  # exit 1, naming each screenshot that is stale

A screenshot in the guide is a fenced block right after a marker line
``<!-- screenshot NAME LANG -->``. The shots (:data:`SHOTS`): ``match``, a person's first turns
at a Briscola table hosted against a bot (``p2pcards host --bots 1 --seed 3``, one move, then
``q``); ``rules``, ``p2pcards rules briscola``; ``show``, the start and the end of
``p2pcards show`` of a whole Briscola match two bots played through a real host. Seeded runs
make the same screens every time; the lines that name a temporary file are left out.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "user-guide.md"
LANGUAGES = ("en", "it")
TABLE = ("--game", "briscola", "--players", "2", "--bots", "1", "--seed", "3",
         "--insecure-public-keys", "--listen", "127.0.0.1:0")
MATCH_INPUT = "1\nq\ny\n"
"""The person plays their first move, then leaves (``y`` confirms in every language)."""
SHOW_HEAD, SHOW_TAIL = 9, 5
"""How many lines of ``show`` the screenshot keeps from its start and from its end."""
MARKER = re.compile(r"^<!-- screenshot (\w+) (\w+) -->\n```\n(.*?)```\n", re.M | re.S)
SHOTS = ("match", "rules", "show")
WIDTH = "100"


def run(home: Path, language: str, *args: str, stdin: str = "") -> str:
    """What ``p2pcards --lang LANGUAGE ARGS`` prints on its standard output, run from this
    tree with ``home`` as its ``P2PCARDS_HOME`` and a terminal ``WIDTH`` columns wide."""
    env = dict(os.environ, P2PCARDS_HOME=str(home), COLUMNS=WIDTH, PYTHONPATH=str(ROOT),
               PYTHONUNBUFFERED="1")
    env.pop("P2PCARDS_LANG", None)
    done = subprocess.run([sys.executable, "-m", "p2pcards", "--lang", language, *args],
                          input=stdin, capture_output=True, text=True, env=env, timeout=600,
                          check=False)
    return done.stdout


def without_files(text: str) -> str:
    """``text`` without the lines that name a file of the run's temporary home."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith("transcript ("))


def match_shot(home: Path, language: str) -> str:
    return without_files(run(home, language, "host", *TABLE,
                             stdin=MATCH_INPUT))


def rules_shot(language: str) -> str:
    with tempfile.TemporaryDirectory() as home:
        return run(Path(home), language, "rules", "briscola")


def show_shot(transcript: Path, language: str) -> str:
    lines = run(transcript.parent, language, "show", str(transcript)).splitlines()
    kept = lines[:SHOW_HEAD] + ["  …"] + lines[-SHOW_TAIL:]
    return "".join(line + "\n" for line in kept)


@contextmanager
def whole_match() -> Iterator[Path]:
    """The transcript of a whole Briscola match two bots play through a real host."""
    with tempfile.TemporaryDirectory() as home:
        run(Path(home), "en", "host", "--bot", *TABLE)
        found = sorted((Path(home) / "transcripts").glob("*.p2pt"))
        if not found:
            raise RuntimeError("the bots' match wrote no transcript")
        yield found[0]


def captures(languages: tuple[str, ...] = LANGUAGES,
             shots: tuple[str, ...] = SHOTS) -> dict[tuple[str, str], str]:
    """Every screenshot ``(name, language)`` of ``shots`` in ``languages``, captured now."""
    taken: dict[tuple[str, str], str] = {}
    for language in languages:
        if "match" in shots:
            with tempfile.TemporaryDirectory() as home:
                taken["match", language] = match_shot(Path(home), language)
        if "rules" in shots:
            taken["rules", language] = rules_shot(language)
    if "show" in shots:
        with whole_match() as transcript:
            for language in languages:
                taken["show", language] = show_shot(transcript, language)
    return taken


def in_guide(text: str) -> dict[tuple[str, str], str]:
    """The screenshots the guide ``text`` holds, by ``(name, language)``."""
    return {(m[1], m[2]): m[3] for m in MARKER.finditer(text)}


def refreshed(text: str, taken: dict[tuple[str, str], str]) -> str:
    """The guide ``text`` with each screenshot of ``taken`` replaced by its new capture."""
    def replace(m: re.Match[str]) -> str:
        shot = taken.get((m[1], m[2]), m[3])
        return f"<!-- screenshot {m[1]} {m[2]} -->\n```\n{shot}```\n"
    return MARKER.sub(replace, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="only say which one is stale")
    args = parser.parse_args(argv)
    text = GUIDE.read_text(encoding="utf-8")
    taken = captures()
    stale = sorted(key for key, shot in taken.items() if in_guide(text).get(key) != shot)
    for name, language in stale:
        verb = "is stale" if args.check else "written"
        print(f"screenshot {name} {language} {verb}", file=sys.stderr)
    if not args.check:
        GUIDE.write_text(refreshed(text, taken), encoding="utf-8")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
