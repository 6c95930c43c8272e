"""The pseudo-locale check (:mod:`languages`) of what ``p2pcards rules`` and the text form of
``p2pcards verify`` print, and of the network sentences that end or start a match: rendered
with the pseudo catalog, no plain English word is left but what is typed or recorded as it is
in every language (game, preset and flag names and values, seat names, keys, hashes, message
kinds, the verifier's own findings, which ``--json`` carries too)."""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from attacks import recorded_match, write_transcript
from languages import PLAIN_WORD, pseudo, pseudo_translations
from rich.console import Console

from p2pcards import i18n
from p2pcards.cli.rules import describe_game, list_games
from p2pcards.cli.verify import render_many, render_report
from p2pcards.games import all_games
from p2pcards.net import sentences
from p2pcards.net.leave import left_on_policy, left_sentence
from p2pcards.net.player import PlayerQuit, host_label, seat_label
from p2pcards.verify import VerifyReport, verify_transcript
from p2pcards.verify.many import verify_transcripts
from p2pcards.verify.replay import DropoutReport, WithheldKey

KEY = re.compile(r"[A-Z2-7]{4}(?:-[A-Z2-7]{4})+|[0-9a-f]{8,}")


@pytest.fixture
def pseudo_language() -> Iterator[None]:
    i18n.install(pseudo_translations(), "it")
    yield
    i18n.set_language("en")


def english_left(lines: list[str], kept: set[str], recorded: set[str] = frozenset()
                 ) -> list[str]:
    """The lines that still show a plain ASCII word outside ``kept`` once the ``recorded``
    texts (names, paths, findings), keys and hashes are taken out."""
    found = []
    for line in lines:
        rest = line
        for text in sorted(recorded, key=len, reverse=True):
            rest = rest.replace(text, " ")
        words = [w for w in PLAIN_WORD.findall(KEY.sub(" ", rest)) if w not in kept]
        if words:
            found.append(f"{line.strip()!r}: {' '.join(words)}")
    return found


def typed_words(*values: object) -> set[str]:
    """The plain words of what a person types or a transcript records as it is."""
    text = " ".join(str(getattr(v, "code", v)) for v in values)
    return set(PLAIN_WORD.findall(text))


# ----------------------------------------------------------------------------- rules


def test_rules_have_no_untranslated_text(pseudo_language: None) -> None:
    lines = list_games()
    kept: set[str] = {"on", "off"}
    for spec in all_games():
        lines += describe_game(spec.name)
        kept |= typed_words(spec.name, spec.rules_source, *spec.presets)
        for preset in spec.presets.values():
            kept |= typed_words(*preset, *preset.values())
        for flag in spec.flags:
            kept |= typed_words(flag.name, flag.default, *flag.choices)
    assert english_left(lines, kept) == []
    assert pseudo("Seven and a Half: a banking game, beat the bank without going over 7½") \
        in "\n".join(lines)


# ----------------------------------------------------------------------------- verify


def rendered(report: object, many: bool = False) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=400, color_system=None, highlight=False)
    if many:
        render_many(report, console)  # type: ignore[arg-type]
    else:
        render_report(report, console)  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def recorded_texts(report: VerifyReport) -> set[str]:
    """What a report shows as it is recorded: names, the path, the verifier's own findings
    and notes (``--json`` carries them too)."""
    recorded = {s.name for s in report.seats if s.name} | set(report.notes)
    recorded.add(report.path or "")
    if report.violation is not None:
        recorded.add(report.violation.message)
    for evidence in report.evidence:
        recorded |= {evidence.message, evidence.claim or ""}
    return recorded - {""}


def typed_in(report: VerifyReport) -> set[str]:
    """The words of a report that are typed or recorded as they are: game, preset, flags and
    their values, message kinds, rules."""
    typed: list[object] = [report.game, report.preset, *report.config,
                           *report.config.values()]
    if report.violation is not None:
        typed.append(report.violation.rule)
    if report.stop is not None and report.stop.expected is not None:
        typed.append(report.stop.expected[1])
    if report.dropout is not None:
        typed.append(report.dropout.kind)
    return typed_words(*typed)


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    run = recorded_match("scopa", "classic", 2, 1)
    folder = tmp_path_factory.mktemp("verdicts")
    frames = list(run.frames)
    swapped = [*frames[:6], frames[7], frames[6], *frames[8:]]
    return {"valid": write_transcript(folder / "whole.p2pt", run.genesis, frames),
            "incomplete": write_transcript(folder / "cut.p2pt", run.genesis,
                                           frames[: len(frames) // 2]),
            "invalid": write_transcript(folder / "swapped.p2pt", run.genesis, swapped)}


@pytest.mark.parametrize("status", ["valid", "incomplete", "invalid"])
def test_a_verdict_has_no_untranslated_text(status: str, transcripts: dict[str, Path],
                                             pseudo_language: None) -> None:
    report = verify_transcript(transcripts[status])
    assert report.status == status
    if status == "valid":
        report = dataclasses.replace(report, dropout=DropoutReport(
            seat=1, kind="action", by=0, index=9, rebuilt=True, audited=True, forfeit=True,
            bot=False))
    if status == "incomplete":
        assert report.stop is not None
        report = dataclasses.replace(report, stop=dataclasses.replace(
            report.stop, withheld=WithheldKey(seat=1, hand=1, index=12)))
    lines = rendered(report)
    assert english_left(lines, typed_in(report), recorded_texts(report)) == []
    word = {"valid": "VALID", "incomplete": "INCOMPLETE", "invalid": "INVALID"}[status]
    assert pseudo(word) in lines[0]


def test_transcripts_checked_together_have_no_untranslated_text(
        transcripts: dict[str, Path], pseudo_language: None) -> None:
    both = verify_transcripts([transcripts["valid"], transcripts["incomplete"]])
    kept: set[str] = set()
    recorded = set(both.notes)
    for single in both.reports:
        kept |= typed_in(single)
        recorded |= recorded_texts(single)
    lines = rendered(both, many=True)
    assert english_left(lines, kept, recorded) == []


# ----------------------------------------------------------------------------- network


def test_the_network_sentences_have_no_untranslated_text(pseudo_language: None) -> None:
    run = recorded_match("scopa", "classic", 2, 1)
    genesis = run.genesis
    names = {seat.name for seat in genesis.seats}
    who = seat_label(genesis, 1)
    said = [
        sentences.aborted(who, "{reason}"),
        sentences.stopped_answering(who, 12),
        sentences.left_the_table(who),
        sentences.may_come_back(sentences.left_the_table(who), "10:00"),
        sentences.relay_reconnecting(sentences.relay_unreachable("127.0.0.1:7447"), 30,
                                     who, "10:00"),
        sentences.did_not_come_back(sentences.stopped_answering(who, 12), "600"),
        sentences.caught_up_too_late(who, "600"),
        sentences.did_not_answer(who, 120),
        sentences.table_starts(genesis),
        left_sentence(genesis, 1),
        host_label(genesis),
        str(PlayerQuit()),
        left_on_policy(dataclasses.replace(genesis, dropout="bot"), 1),
        left_on_policy(dataclasses.replace(genesis, dropout="forfeit"), 1),
    ]
    assert english_left(said, {"reason"}, names) == []
