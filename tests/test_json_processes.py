"""``host --json`` and ``join --json`` with real processes over loopback TCP: standard output is
JSON Lines, one event an object, the ``connection`` events say how each link is connected with
the same fields as the ``connection:`` lines, and the invite, the series tally and the
transcripts are events too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_net_processes import BRISCOLA_2, Peer

from p2pcards.verify import verify_transcript


def events(peer: Peer) -> list[dict[str, Any]]:
    """Every line ``peer`` printed, each read as one JSON object."""
    assert peer.finish() == 0, peer.stderr
    return [json.loads(line) for line in peer.out]


def test_json_events_say_how_each_link_is_connected_and_where_the_transcripts_are(
        tmp_path: Path) -> None:
    hosting = Peer(tmp_path / "host", "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   *BRISCOLA_2, "--bot", "--name", "Alba", "--json", "--rematch", "2")
    invite = json.loads(hosting.wait_for(r'^\{"event":"invite",.*\}$')[0])
    assert invite["command"].startswith("p2pcards join ")
    bruno = Peer(tmp_path / "bruno", "join", invite["invite"], "--ephemeral-identity", "--bot",
                 "--name", "Bruno", "--json", "--rematch", "2")
    host_events, bruno_events = events(hosting), events(bruno)
    (host_link,) = [e for e in host_events if e["event"] == "connection"]
    (bruno_link,) = [e for e in bruno_events if e["event"] == "connection"]
    port = invite["invite"].split("//127.0.0.1:")[1].split("/")[0]
    assert bruno_link == {"event": "connection", "seat": None, "path": "direct", "how": "lan",
                          "where": f"127.0.0.1:{port}", "why": None}
    assert {k: host_link[k] for k in ("seat", "path", "how", "why")} == {
        "seat": 1, "path": "direct", "how": "lan", "why": None}
    assert host_link["where"].startswith("127.0.0.1:")
    for peer_events in (host_events, bruno_events):
        records = [e for e in peer_events if e["event"] == "transcript"]
        assert len(records) == 2 and all(record["complete"] for record in records)
        assert all(verify_transcript(Path(r["path"])).status == "valid" for r in records)
        tallies = [e for e in peer_events if e["event"] == "series"]
        assert [t["played"] for t in tallies] == [1, 2]
        assert tallies[-1]["sides"] == ["Alba [0]", "Bruno [1]"]
        assert sum(tallies[-1]["wins"]) <= 2 and len(tallies[-1]["points"]) == 2
        assert all(set(e) == {"event", "text"} for e in peer_events
                   if e["event"] == "notice")


def test_json_is_refused_for_a_person_at_the_terminal(tmp_path: Path) -> None:
    person = Peer(tmp_path, "host", "--listen", "127.0.0.1:0", *BRISCOLA_2, "--json")
    assert person.finish() == 2
    assert person.err == ["p2pcards: --json is for a seat played by a bot (--bot) or at a "
                          "browser page (--web): a person at the terminal reads the table on "
                          "standard output"]
