"""The conformance corpus of protocol/vectors/conformance/: `p2pcards verify --json` reaches the
verdict written next to each transcript, and the committed files are exactly what
tests/conformance.py makes from its seeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conformance import CASES, CORPUS, make_transcripts, reference_verify, verdict_of

VERDICT_KEYS = ("status", "rule", "seat", "index", "detected_at", "source", "verified",
                "truncated_at", "evidence")


def expectations() -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CORPUS.glob("*.json"))]


def test_every_case_has_its_verdict_file() -> None:
    assert sorted(e["case"] for e in expectations()) == sorted(CASES)


@pytest.mark.parametrize("expected", expectations(), ids=lambda e: e["case"])
def test_verify_json_reaches_the_expected_verdict(expected: dict[str, Any]) -> None:
    report = reference_verify([CORPUS / name for name in expected["files"]])
    got = verdict_of(report)
    assert {k: got[k] for k in VERDICT_KEYS} == {k: expected[k] for k in VERDICT_KEYS}


def test_the_command_line_agrees(tmp_path: Path) -> None:
    """The installed entry point, in its own process, on two cases (exit 1 and exit 2)."""
    env = {**os.environ, "PYTHONPATH": str(CORPUS.parents[2])}
    for case, exit_code in (("replay", 1), ("truncated", 2)):
        expected = json.loads((CORPUS / f"{case}.json").read_text(encoding="utf-8"))
        proc = subprocess.run(
            [sys.executable, "-m", "p2pcards", "verify", "--json",
             *(str(CORPUS / n) for n in expected["files"])],
            capture_output=True, text=True, env=env, timeout=300, check=False)
        assert proc.returncode == exit_code, proc.stderr
        got = verdict_of(json.loads(proc.stdout))
        assert {k: got[k] for k in VERDICT_KEYS} == {k: expected[k] for k in VERDICT_KEYS}


def test_the_committed_corpus_is_what_the_script_makes() -> None:
    transcripts, meta = make_transcripts()
    committed = {p.name for p in CORPUS.iterdir() if p.suffix in (".p2pt", ".json")}
    assert committed == set(transcripts) | {f"{case}.json" for case in meta}
    for name, data in transcripts.items():
        assert (CORPUS / name).read_bytes() == data, f"{name} differs from what the script makes"
    for case, info in meta.items():
        written = json.loads((CORPUS / f"{case}.json").read_text(encoding="utf-8"))
        assert {k: written[k] for k in ("case", "files", "about")} == info
    total = sum(len(d) for d in transcripts.values())
    assert total < 5_500_000, f"the corpus grew to {total} bytes"
