"""Shared checks of the banking games at the table level: the ledger in every signed hand result,
a forged ledger re-signed by every seat, and a demo between processes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from attacks import craft, decode, envelope_hash_of, identity_of, recorded_match, write_transcript
from test_net_processes import Peer

from p2pcards.records.transcript import read_transcript
from p2pcards.table import HandScored
from p2pcards.verify import verify_transcript


def ledger_in_results(game: str, players: int = 2) -> None:
    """Every hand's result carries the balances; they chain from the starting chips."""
    run = recorded_match(game, "classic", players, 1)
    scored = [e for e in run.events[0] if isinstance(e, HandScored)]
    balances = [100] * players
    for event in scored:
        lines = {ln.category: ln for ln in event.result.lines}
        balances = [b + p for b, p in zip(balances, event.result.points, strict=True)]
        assert list(lines["balance"].values) == balances == list(event.match_scores)
        assert sum(balances) == 100 * players
    bodies = [decode(f, run.genesis)[1].body for f in run.frames]
    results = [b for b in bodies if "result" in b and "scores" in b]
    assert len(results) == players * len(scored)


def forged_ledger_is_rejected(tmp_path: Path, game: str, players: int = 2) -> None:
    """Every seat re-signs a first-hand result whose ledger moves one chip: still rejected."""
    run = recorded_match(game, "classic", players, 1)
    opened = [decode(f, run.genesis)[1] for f in run.frames]
    first = next(i for i, p in enumerate(opened) if p.kind == "result")
    forged: list[bytes] = []
    prev = opened[first].prev
    for k in range(players):
        payload = opened[first + k]
        body: dict[str, Any] = dict(payload.body)
        result = dict(body["result"])
        points = list(result["points"])
        points[0] += 1
        points[1] -= 1
        lines = []
        for line in result["lines"]:
            line = dict(line)
            if line["category"] in ("balance", "won/lost"):
                values = list(line["values"])
                values[0] += 1
                values[1] -= 1
                line["values"] = values
                if line["category"] == "won/lost":
                    line["points"] = list(points)
            lines.append(line)
        result.update(points=points, lines=lines)
        scores = list(body["scores"])
        scores[0] += 1
        scores[1] -= 1
        body.update(result=result, scores=scores)
        data = craft(identity_of(run.tables[payload.seat]), table_id=payload.table_id,
                     seq=payload.seq, prev=prev, seat=payload.seat, kind="result", body=body)
        forged.append(data)
        prev = envelope_hash_of(data)
    frames = run.frames[:first] + forged
    report = verify_transcript(write_transcript(tmp_path / "forged.p2pt", run.genesis, frames))
    assert report.status == "invalid"
    assert report.violation is not None
    assert (report.violation.rule, report.violation.index) == ("result-mismatch", first)
    assert report.violation.seat == opened[first].seat
    # the honest transcript verifies
    honest = verify_transcript(write_transcript(tmp_path / "honest.p2pt", run.genesis,
                                                run.frames))
    assert honest.status == "valid"


def demo_between_processes(tmp_path: Path, game: str, players: int) -> None:
    """``p2pcards demo`` with ``players`` processes: the match ends, verifies, and ``show``
    prints the ledger of every hand."""
    demo = Peer(tmp_path, "demo", "--game", game, "--players", str(players), "--seed", "3")
    assert demo.finish() == 0, demo.stderr
    assert re.search(r"^verified \d+ envelopes: ", demo.stdout, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    report = verify_transcript(path)
    assert report.status == "valid" and report.hands
    assert sum(report.scores) == 100 * players
    assert len(read_transcript(path).envelopes) == report.envelopes
    show = Peer(tmp_path, "show", str(path))
    assert show.finish() == 0, show.stderr
    assert show.stdout.count("balance") >= len(report.hands)
    assert "won/lost" in show.stdout and "next banker" in show.stdout
