"""Exact cases for the normative points of protocol/SPEC.md that the conformance corpus does not
carry as files: damaged frames (§7), result equality by canonical bytes (§9.4 `result`), the
seat name length (§9.1), the genesis config checks (§9.1) and the card-code grammar (§2.4)."""

from __future__ import annotations

import dataclasses
import struct
from pathlib import Path

import pytest
from attacks import decode, identity_of, resign
from conformance import briscola, transcript

from p2pcards.cards import BadCardCode, card, get_deck
from p2pcards.offline.memory import make_genesis
from p2pcards.seating.genesis import Genesis, GenesisError
from p2pcards.seating.secrets import new_seat
from p2pcards.table import Table, Violation
from p2pcards.verify import UnreadableTranscript, verify_transcript


def _file(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("prefix", [0, 1_048_577, 0xFFFFFFFF])
def test_a_bad_length_prefix_makes_the_file_unreadable(tmp_path: Path, prefix: int) -> None:
    run = briscola()
    head = transcript(run.genesis, run.frames[:4])
    path = _file(tmp_path, "t.p2pt", head + struct.pack(">I", prefix) + b"abc")
    with pytest.raises(UnreadableTranscript, match=f"byte offset {len(head)}"):
        verify_transcript(path)


def test_a_frame_of_exactly_the_maximum_is_framing_not_unreadable(tmp_path: Path) -> None:
    """1,048,576 is the last length accepted: the frame is read (and its content refused)."""
    run = briscola()
    head = transcript(run.genesis, run.frames[:2])
    path = _file(tmp_path, "t.p2pt", head + struct.pack(">I", 1_048_576) + bytes(1_048_576))
    report = verify_transcript(path)
    assert report.status == "invalid"
    assert report.violation is not None and report.violation.rule == "bad-envelope"


@pytest.mark.parametrize("tail", [b"\x00", b"\x00\x00\x01", b"\x00\x00\x01\x00abc"])
def test_a_cut_frame_after_the_finished_match_is_incomplete(tmp_path: Path, tail: bytes) -> None:
    run = briscola()
    full = transcript(run.genesis, run.frames)
    report = verify_transcript(_file(tmp_path, "t.p2pt", full + tail))
    assert report.status == "incomplete"
    assert report.stop is not None
    assert (report.stop.verified, report.stop.truncated_at) == (len(run.frames), len(full))


@pytest.mark.parametrize(("field", "value"), [("over", 0), ("hand", False)])
def test_a_result_equal_only_by_python_equality_is_refused(field: str, value: object) -> None:
    run = briscola()
    genesis, frames = run.genesis, run.frames
    k = next(i for i, f in enumerate(frames) if decode(f, genesis)[1].kind == "result")
    observer = Table(genesis, seat=None)
    observer.start()
    for frame in frames[:k]:
        observer.receive(frame)
    payload = decode(frames[k], genesis)[1]
    assert payload.body[field] == value  # equal in Python, not on the wire
    forged = resign(frames[k], genesis, identity_of(run.tables[payload.seat]),
                    body={**payload.body, field: value})
    with pytest.raises(Violation) as caught:
        observer.receive(forged)
    assert (caught.value.rule, caught.value.seat, caught.value.index) == (
        "result-mismatch", payload.seat, k)


@pytest.mark.parametrize(("name", "ok"), [("\U0001F0A1" * 40, True), ("a" * 41, False),
                                          ("", True), ("é" * 40, True)])
def test_seat_names_count_code_points(name: str, ok: bool) -> None:
    seats = [new_seat().info(n) for n in (name if ok else "x", "y")]
    if not ok:
        seats[0] = dataclasses.replace(seats[0], name=name)
    genesis = Genesis("scopa", "classic", make_genesis("scopa", "classic", seats).config,
                      tuple(seats), make_genesis("scopa", "classic", seats).timeouts)
    if ok:
        assert Genesis.decode(genesis.encode()) == genesis
    else:
        with pytest.raises(GenesisError, match="40 characters"):
            Genesis.decode(genesis.encode())


@pytest.mark.parametrize("change", [{"partners_look": 1}, {"match": "one_hand"},
                                    {"removed_two": "4B"}, {"colour": True}])
def test_genesis_config_values_are_checked(change: dict[str, object]) -> None:
    seats = [new_seat().info(n) for n in ("a", "b")]
    good = make_genesis("briscola", "classic", seats)
    bad = dataclasses.replace(good, config={**good.config, **change})
    with pytest.raises(GenesisError):
        Genesis.decode(bad.encode())


@pytest.mark.parametrize("code", ["1D", "7d", "10D", " 7D", "AH", "X5", "TD", "AB1", "?"])
def test_codes_outside_the_grammar_are_refused(code: str) -> None:
    with pytest.raises(BadCardCode):
        card(code)


def test_deck_names_and_orders() -> None:
    italian = [c.code for c in get_deck("italian40").cards]
    assert italian[:11] == ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD", "KD", "AC"]
    assert italian[-1] == "KB"
    assert [c.code for c in get_deck("spanish40").cards] == italian
    reduced = get_deck("italian40-4B")
    assert len(reduced.cards) == 39 and [c.code for c in reduced.cards] == [
        c for c in italian if c != "4B"]
    french = [c.code for c in get_deck("french108").cards]
    assert french[:3] == ["AH1", "2H1", "3H1"] and french[13] == "AD1"
    assert french[52] == "AH2" and french[-4:] == ["X1", "X2", "X3", "X4"]


@pytest.mark.parametrize(("kind", "codes"), [("aces", "AB AC AD"), ("threes", "3D 3C 3S 3B"),
                                             ("napoli", "AS 2S 3S")])
def test_declaration_cards_are_a_set(kind: str, codes: str) -> None:
    """protocol/games/tressette.md §5: any order of the cards is accepted, with one meaning."""
    from itertools import permutations

    from p2pcards.cards import cards
    from p2pcards.games.tressette_rules import (
        combination_error,
        combination_points,
        holds_combination,
    )

    named = cards(codes)
    hand = list(named) + list(cards("7D 7C"))
    for order in permutations(named):
        assert combination_error(kind, order) is None
        assert holds_combination(hand, kind, order)
        assert combination_points(kind, order) == combination_points(kind, named)
    assert combination_error(kind, (*named[:2], named[0])) is not None  # a card named twice


@pytest.mark.parametrize(("denari", "points"), [("", 0), ("AD", 0), ("AD 2D", 0),
                                                ("AD 2D 3D", 3), ("AD 2D 3D 4D 6D", 4),
                                                ("2D 3D 4D", 0),
                                                ("AD 2D 3D 4D 5D 6D 7D JD QD KD", 10)])
def test_napola_run(denari: str, points: int) -> None:
    """protocol/games/scopa.md §6: a run of 1 or 2 Denari from the Asso scores nothing."""
    from p2pcards.cards import cards
    from p2pcards.games.scopa_scoring import napola_run

    assert napola_run(cards(denari + " 7C AS")) == points


def test_scopa_file_examples() -> None:
    """The worked examples of protocol/games/scopa.md, section 8."""
    from p2pcards.cards import cards
    from p2pcards.games import get_game
    from p2pcards.games.scopa import ScopaMatch
    from p2pcards.games.scopa_scoring import primiera

    assert primiera(cards("7D 6C AS 5B 2D 4C"), False) == 70
    assert primiera(cards("7D 7C 7S 2D"), False) == 63
    assert primiera(cards("7D 7C 7S 2D"), True) is None

    def captures(table: str, flag: str) -> set[tuple[str, ...]]:
        config = get_game("scopa").preset("classic", players=2, sum_choice=flag)
        match = ScopaMatch.from_position(config, ["7D", "KC"], table, to_act=0)
        return {tuple(c.code for c in a.cards) for a in match.legal_actions()
                if a.card is not None and a.card.code == "7D"}

    assert captures("3C 4S 7B", "free") == {("7B",)}
    assert ("3C", "4S") in captures("3C 4S 5B", "free")
    assert captures("AC 2S 3D 4B", "free") == {("3D", "4B"), ("AC", "2S", "4B")}
    assert captures("AC 2S 3D 4B", "fewest_cards") == {("3D", "4B")}
