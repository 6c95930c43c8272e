"""Burraco: a legal meld of four cards typed in one line is laid (as the listed three-card
meld and one addition, each checked by the table), and a typed meld that is not legal gets one
sentence saying so."""

from __future__ import annotations

import re
from pathlib import Path

from test_net_processes import host

from p2pcards.cards import cards
from p2pcards.faces.typed_melds import typed_meld
from p2pcards.verify import verify_transcript


def test_only_meld_with_four_or_more_distinct_cards_is_a_typed_meld() -> None:
    assert typed_meld("meld kc1 KH2 [KH1 2C2]") == cards("KC1 KH2 KH1 2C2")
    assert typed_meld("meld KC1 KH2 KH1") is None  # three cards are in the list already
    assert typed_meld("meld KC1 KH2 KH1 KH1") is None
    assert typed_meld("meld KC1 KH2 KH1 ZZ") is None
    assert typed_meld("add KC1 KH2 KH1 2C2") is None


def test_a_person_types_a_four_card_meld_in_a_real_burraco_match(tmp_path: Path) -> None:
    """Seed 19 deals the person KD1 KC1 KS2 and the wild 2D1; after drawing, a meld typed with
    no sense is refused, then the three kings and the wild are typed in any order."""
    typed = "draw\nmeld 5S2 6D2 7H1 QD1\nmeld KC1 2D1 KS2 KD1\nq\ny\n"
    hosting, _ = host(tmp_path, "--game", "burraco", "--players", "4", "--bots", "3",
                      "--seed", "19", "--insecure-public-keys", stdin=typed)
    assert hosting.finish() == 130, hosting.stderr
    out = hosting.stdout
    assert "5S2 6D2 7H1 QD1 is not a meld you can lay now" in out
    laid = re.findall(r"(?:^|: )you: (meld|add) \[([^\]]+)\]", out, re.MULTILINE)
    assert [kind for kind, _ in laid] == ["meld", "add"], out
    assert sorted(laid[1][1].split()) == sorted(["KC1", "2D1", "KS2", "KD1"])
    melds = re.findall(r"│ our melds\s+│ (.+?)\s+│", out)
    assert any(all(code in row for code in ("KC1", "2D1", "KS2", "KD1")) for row in melds), out
    assert verify_transcript(hosting.transcript()).status == "incomplete"
