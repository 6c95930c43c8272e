"""``p2pcards verify FILE... [--json]`` and ``p2pcards show FILE``: the transcript commands.

``verify`` exit statuses: 0 the transcript is valid (the whole match, every check passed);
1 a violation was found (:data:`p2pcards.cli.EXIT_INVALID`), by the chain or proven by an
evidence record; 2 the transcript is incomplete (cut short, or the chain stops before the match
ends) or not a readable transcript at all.
``--json`` prints :meth:`p2pcards.verify.VerifyReport.to_dict` as JSON instead of the text report
(an unreadable file gives ``{"status": "unreadable", "error": SENTENCE}``, the sentence also on
standard error, and status 2).

With several files (the transcripts of several seats of one table), each is reported, then what
they prove together (:mod:`p2pcards.verify.many`): an equivocation is shown with both envelopes.
The status is then that of :class:`p2pcards.verify.many.MultiReport`, and ``--json`` prints its
``to_dict``.

``show`` replays a match hand by hand for a person: the deal, every play with its seat and card
(captures included), and each hand's result. Hidden cards are shown once the hand's keys have been
revealed, so the whole deal is printed with its hand. It stops with status 1 or 2 where ``verify``
would, after printing what it replayed. ``show --json`` prints the same story as one JSON
document. Hands are numbered from 1 in every form, text and JSON, of both commands.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from ..cards import Card, Deck
from ..faces.game_words import word
from ..faces.names import SeatNames
from ..faces.screen_text import result_row
from ..faces.wording import action_text, cards_label
from ..games.base import ChanceStep, Zone
from ..i18n import _, english
from ..seating.genesis import Genesis
from ..table import (
    ActionPlayed,
    BotSeated,
    CardsRevealed,
    Event,
    HandScored,
    KeyRebuilt,
    MatchEnded,
    SeatDropped,
    Table,
    revealed_cards,
)
from ..table.card_use import fill
from ..verify import (
    UnreadableTranscript,
    VerifyReport,
    WithheldKey,
    load,
    replay_transcript,
    verify_transcript,
)
from ..verify.many import MultiReport, verify_transcripts
from .errors import EXIT_INVALID, EXIT_USAGE, UserError
from .web import show_web, web_options

__all__ = ["register", "render_report", "EXIT_INCOMPLETE"]

EXIT_INCOMPLETE = EXIT_USAGE
"""``verify`` status for an incomplete or unreadable transcript."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``verify`` and ``show`` subcommands."""
    verify = sub.add_parser(
        "verify",
        help="verify a match transcript (exit 0 valid, 1 invalid, 2 incomplete or unreadable)")
    verify.add_argument("file", nargs="+",
                        help="a transcript file; several transcripts of one table are also "
                        "checked against each other")
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    verify.set_defaults(handler=_cmd_verify)
    show = sub.add_parser("show", help="replay a match transcript hand by hand")
    show.add_argument("file", help="a transcript file")
    show.add_argument("--json", action="store_true",
                      help="print the match as JSON (hands numbered from 1, as in the text)")
    web_options(show, "step through the match on")
    show.set_defaults(handler=_cmd_show)


def _status_code(report: VerifyReport | MultiReport) -> int:
    if report.status == "valid":
        return 0
    if report.status == "invalid":
        return EXIT_INVALID
    return EXIT_INCOMPLETE


def _cmd_verify(args: argparse.Namespace) -> int:
    files: list[str] = args.file
    try:
        if len(files) == 1:
            report: VerifyReport | MultiReport = verify_transcript(files[0])
        else:
            report = verify_transcripts(files)
    except UnreadableTranscript as exc:
        if args.json:
            return _json_error(str(exc), EXIT_INCOMPLETE)
        raise UserError(str(exc), EXIT_INCOMPLETE) from None
    if args.json:
        print(report.to_json())
    elif isinstance(report, MultiReport):
        render_many(report, Console(highlight=False))
    else:
        render_report(report, Console(highlight=False))
    return _status_code(report)


def _short(value: Any, limit: int = 240) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def render_many(report: MultiReport, console: Console) -> None:
    """Print each transcript's report, then what the transcripts prove together."""
    for single in report.reports:
        render_report(single, console)
        console.print()
    colour = {"valid": "green", "invalid": "red", "incomplete": "yellow"}[report.status]
    together = _("together ({count} transcripts of table {table}...)").format(
        count=len(report.reports), table=report.table_id[:16])
    console.print(f"[bold]{together}[/bold]: [bold {colour}]{verdict_word(report.status)}"
                  f"[/bold {colour}]")
    for eq in report.equivocations:
        console.print("[red]" + _("equivocation") + "[/red] " + _(
            "by seat {seat} (key {key}): two different envelopes signed for seq {seq}").format(
            seat=eq.seat, key=eq.fingerprint, seq=eq.seq), soft_wrap=True)
        for view in eq.envelopes:
            console.print(f"  {view.file}, {view.where}: " + _(
                "seq {seq}, seat {seat}, kind {kind}, hash {hash}, prev {prev}").format(
                seq=view.seq, seat=view.seat, kind=view.kind, hash=view.hash, prev=view.prev),
                soft_wrap=True, markup=False)
            console.print("    " + _("body {body}").format(body=_short(view.body)),
                          soft_wrap=True, markup=False)
    if not report.equivocations:
        console.print(_("no seat signed two different envelopes for one position"))
    for note in report.notes:
        console.print(_("note: {note}").format(note=note), markup=False)


def verdict_word(status: str) -> str:
    """``VALID``, ``INVALID`` or ``INCOMPLETE`` in the language in use."""
    words = {"valid": _("VALID"), "invalid": _("INVALID"), "incomplete": _("INCOMPLETE")}
    return words[status]


def _seats_or(suspects: tuple[int, ...]) -> str:
    """``seat 1 or seat 2``."""
    return _(" or ").join(_("seat {seat}").format(seat=s) for s in suspects)


def _no_seat(rule: str, suspects: tuple[int, ...]) -> str:
    if rule == "fork":
        return _("the hub or {seats}").format(seats=_seats_or(suspects))
    if rule == "genesis-mismatch":
        return _("the genesis was altered or is not this table's")
    if rule == "wrong-table":
        return _("an envelope of another table")
    if rule == "wrong-sequence":
        return _("the hub withheld envelopes, or {seats} signed a false sequence number").format(
            seats=_seats_or(suspects))
    return _("an unattributable envelope")


def _side_name(report: VerifyReport, side: int) -> str:
    seats = [s for s in report.seats if s.side == side]
    if len(seats) == 1:
        return _("seat {seat}").format(seat=seats[0].seat)
    return _("side {side} (seats {seats})").format(
        side=side, seats=", ".join(str(s.seat) for s in seats))


def render_report(report: VerifyReport, console: Console) -> None:
    """Print ``report`` for a person, in the language in use (``--json`` stays English; the
    rules' own sentences about a violation, ``v.message``, stay as the verifier wrote them)."""
    colour = {"valid": "green", "invalid": "red", "incomplete": "yellow"}[report.status]
    console.print(f"[bold]{report.path or _('transcript')}[/bold]: [bold {colour}]"
                  f"{verdict_word(report.status)}[/bold {colour}]")
    console.print(_("game {game}, preset {preset}, table {table}...").format(
        game=report.game, preset=report.preset, table=report.table_id[:16]))
    flags = ", ".join(f"{k}={v}" for k, v in sorted(report.config.items()))
    console.print(_("variant: {flags}").format(flags=flags), soft_wrap=True)
    seats = RichTable(_("seat"), _("name"), _("side"), _("key fingerprint"))
    for s in report.seats:
        seats.add_row(str(s.seat), s.name, str(s.side), s.fingerprint)
    console.print(seats)
    if report.hands:
        sides = len(report.scores)
        hands = RichTable(_("hand"), *(f"{_side_name(report, i)}" for i in range(sides)),
                          _("breakdown"), title=_("hands"))
        for h in report.hands:
            breakdown = "; ".join(_breakdown(cat, values, pts) for cat, values, pts in h.lines)
            hands.add_row(str(h.hand + 1),
                          *(f"{p:+d} = {m}" for p, m in zip(h.points, h.match_scores, strict=True)),
                          breakdown)
        console.print(hands)
    console.print(_("envelopes: {count} in the file, {verified} verified").format(
        count=report.envelopes, verified=report.verified))
    if report.dropout is not None:
        console.print(dropout_line(report), soft_wrap=True, markup=False)
    if report.status == "valid":
        _print_result(report, console)
    elif report.violation is not None and report.violation.source == "evidence":
        v = report.violation
        by = (" " + _("by seat {seat} (key {key})").format(seat=v.seat, key=v.fingerprint)
              if v.seat is not None else "")
        console.print("[red]" + _("violation") + "[/red]" + _(", rule {rule}").format(
            rule=f"[bold]{v.rule}[/bold]") + (f",{by}" if by else "") + ":", soft_wrap=True)
        console.print(f"  {v.message}", soft_wrap=True, markup=False)
    elif report.violation is not None:
        _print_violation(report, console)
    elif report.stop is not None:
        _print_stop(report, console)
    for e in report.evidence:
        tag = {"proven": "green", "other": "yellow"}.get(e.verdict, "red")
        verdict = _evidence_verdict(e.verdict)
        console.print(_("evidence record {record} (byte offset {offset})").format(
            record=e.record, offset=e.offset) + f": [{tag}]{verdict}[/{tag}]", soft_wrap=True)
        console.print(f"  {e.message}", soft_wrap=True, markup=False)
        if e.verdict != "proven" and e.claim:
            console.print("  " + _("the recorder's claim: {claim}").format(claim=e.claim),
                          soft_wrap=True, markup=False)
        for digest in e.envelopes:
            console.print("  " + _("envelope hash {hash}").format(hash=digest))
    for note in report.notes:
        console.print(_("note: {note}").format(note=note), markup=False)


def _evidence_verdict(verdict: str) -> str:
    """An evidence record's verdict (``proven``, ``not-proven``...) in words."""
    words = {"proven": _("proven"), "other": _("other"), "not-proven": _("not proven"),
             "unverifiable": _("unverifiable")}
    return words.get(verdict, verdict.replace("-", " "))


def _print_result(report: VerifyReport, console: Console) -> None:
    scores = " - ".join(str(s) for s in report.scores)
    if report.winner_side is None:
        console.print(_("result: {scores}, no winner").format(scores=scores))
    else:
        console.print(_("result: {scores}, won by {side}").format(
            scores=scores, side=_side_name(report, report.winner_side)))


def _print_violation(report: VerifyReport, console: Console) -> None:
    v = report.violation
    assert v is not None
    who = (_("seat {seat} (key {key})").format(seat=v.seat, key=v.fingerprint)
           if v.seat is not None else _("no seat: {why}").format(why=_no_seat(v.rule, v.suspects)))
    console.print("[red]" + _("violation") + "[/red] " + _(
        "by {who}, rule {rule}, at envelope {index} (found at envelope {found}):").format(
        who=who, rule=f"[bold]{v.rule}[/bold]", index=v.index, found=v.detected_at),
        soft_wrap=True)
    console.print(f"  {v.message}", soft_wrap=True, markup=False)
    for digest in v.evidence:
        console.print("  " + _("evidence: envelope hash {hash}").format(hash=digest))


def _print_stop(report: VerifyReport, console: Console) -> None:
    stop = report.stop
    assert stop is not None
    console.print(_("incomplete: {verified} envelopes verified, {hands} hand(s) complete").format(
        verified=stop.verified, hands=stop.hands_complete))
    if stop.truncated_at is not None:
        console.print("  " + _("the file ends inside a frame at byte offset {offset}").format(
            offset=stop.truncated_at))
    if stop.expected is not None:
        console.print("  " + _("waiting for seat {seat} to send a {kind!r} message").format(
            seat=stop.expected[0], kind=stop.expected[1]))
    if stop.withheld is not None:
        console.print(withheld_line(stop.withheld), soft_wrap=True, markup=False)


def withheld_line(withheld: WithheldKey) -> str:
    """``  the match cannot be checked: seat 1 withheld ...``: why an incomplete match stays
    unchecked when a key reveal is missing at a table without a dropout policy."""
    return "  " + _(
        "the match cannot be checked: seat {seat} withheld its hand key of hand {hand} (its "
        "'reveal' was due at envelope {index}), and with no dropout policy nobody can rebuild "
        "it, so that hand's hidden cards and the moves that played them stay unchecked (a hub "
        "that did not forward the reveal looks the same)").format(
        seat=withheld.seat, hand=withheld.hand, index=withheld.index)


def dropout_line(report: VerifyReport) -> str:
    """``dropout: seat 2 stopped answering ...``: what the recovery of a dropped seat did."""
    d = report.dropout
    assert d is not None
    text = _("dropout: seat {seat} stopped answering when its {kind!r} message was due "
             "(envelope {index}, recovery begun by seat {by})").format(
        seat=d.seat, kind=d.kind, index=d.index, by=d.by)
    if d.rebuilt:
        text += _("; its hand key was rebuilt from the other seats' checked shares")
        if d.audited:
            text += _(" and the hand audited and replayed with every card known")
    if d.forfeit:
        text += _("; seat {seat} forfeits the match").format(seat=d.seat)
    if d.bot:
        text += _("; the public bot played seat {seat} from then on, its cards open to "
                  "all").format(seat=d.seat)
    return text


def _breakdown(category: str, values: Any, points: Any) -> str:
    """One score line: its points per side, or, for a line that gives no points (Calabrasella's
    card points and totals), what each side had, in brackets."""
    if not any(points) and values and any(v is not None for v in values):
        return f"{word(category)} (" + "/".join("-" if v is None else str(v)
                                                for v in values) + ")"
    return f"{word(category)} " + "/".join(str(p) for p in points)


# ------------------------------------------------------------------------------------ show


def _where(step: ChanceStep) -> str:
    """Where a dealt card went, as ``--json`` writes it (``seat 1``, ``seat 1 (shown)``,
    ``table``): English in every language; :func:`_where_said` says it for a person."""
    if step.zone is Zone.HAND or step.zone is Zone.SHOW:
        who = f"seat {step.seat}"
        return f"{who} (shown)" if step.zone is Zone.SHOW else who
    return str(step.zone.value)


def _where_said(where: str) -> str:
    """:func:`_where`'s text in the language in use."""
    seat, shown = where.removeprefix("seat ").removesuffix(" (shown)"), where.endswith(")")
    if not seat.isdigit():
        return word(where)
    said = _("seat {seat}").format(seat=seat)
    return _("{seat} (shown)").format(seat=said) if shown else said


class _Show:
    """Collects the match's story hand by hand (:attr:`hands`, JSON-ready) as the replay runs;
    ``on_hand`` is told each hand as soon as it is scored (the text form prints it then)."""

    def __init__(self, genesis: Genesis, on_hand: Callable[[dict[str, Any]], None]) -> None:
        self.names = [s.name for s in genesis.seats]
        self.seat_names = SeatNames(genesis, None)
        self.on_hand = on_hand
        self.hands: list[dict[str, Any]] = []
        self.match: dict[str, Any] | None = None
        self.lines: list[Any] = []
        self.cards: dict[int, list[Card]] = {}
        self.batches: dict[int, int] = {}
        self.deck: Deck | None = None
        self.last_cycle: Any = None
        self.said: dict[tuple[int, int], str] = {}
        """Each play's text in the language in use, by (hand, position in its story); the
        story itself (``--json``) is English."""

    def seat(self, seat: int) -> str:
        name: str = self.names[seat]
        said = _("seat {seat}").format(seat=seat)
        return f"{said} ({name})" if name else said

    def side_names(self, count: int) -> list[str]:
        """The names of ``count`` scoring sides: each seat's name, or a side's seats' names
        joined by ``+``."""
        return self.seat_names.side_list(count)

    def on_events(self, table: Table, index: int, events: list[Event]) -> None:
        cycle = table.cycle
        self.deck = table.engine.deck
        previous = self.last_cycle
        if previous is not None and previous is not cycle and previous.number not in self.cards:
            # a cycle that ended without a scored hand (a voided deal): its keys are revealed too
            cards = revealed_cards(table, previous)
            if cards is not None:
                self.cards[previous.number] = cards
        self.last_cycle = cycle
        for event in events:
            if isinstance(event, CardsRevealed):
                assert cycle is not None
                batch = self.batches.get(cycle.number, 0)
                self.batches[cycle.number] = batch + 1
                positions = cycle.chance_positions[batch]
                self.lines.append(("deal", event.steps, tuple(positions), event.cards,
                                   cycle.number))
            elif isinstance(event, ActionPlayed):
                assert cycle is not None
                secret = next((m.secret for m in reversed(cycle.actions)
                               if m.index == event.index), ())
                self.lines.append(("play", event.seat, event.action, index, cycle.number,
                                   secret, event.seat == table.bot_seat))
            elif isinstance(event, SeatDropped | KeyRebuilt | BotSeated):
                self.lines.append(("note", self.dropout_note(event)))
            elif isinstance(event, HandScored):
                self.hands.append(self.hand(event))
                self.on_hand(self.hands[-1])
            elif isinstance(event, MatchEnded):
                self.match = {"scores": list(event.match_scores), "winner_side": event.winner}
        if cycle is not None and cycle.number not in self.cards:
            cards = revealed_cards(table)
            if cards is not None:
                self.cards[cycle.number] = cards

    def dropout_note(self, event: SeatDropped | KeyRebuilt | BotSeated) -> str:
        """One line of the story about a dropout (SPEC §9.13)."""
        who = self.seat(event.seat)
        if isinstance(event, SeatDropped):
            return (f"{who} stopped answering when its {event.kind!r} message was due; "
                    f"{self.seat(event.by)} began its recovery")
        if isinstance(event, KeyRebuilt):
            checked = ", and the hand checked with every card" if event.audited else ""
            return f"{who}: hand key rebuilt from the other seats' shares{checked}"
        return f"{who} is played by the public bot from here on, its cards open to all"

    def hand(self, event: HandScored) -> dict[str, Any]:
        """The hand just scored: its deals and plays in order, then its result."""
        story: list[dict[str, Any]] = []
        for line in self.lines:
            if line[0] == "note":
                story.append({"type": "note", "text": line[1]})
            elif line[0] == "deal":
                _kind, steps, positions, seen, number = line
                known = self.cards.get(number)
                groups: dict[str, list[str]] = {}
                for step, position, card in zip(steps, positions, seen, strict=True):
                    shown = card if card is not None else (
                        known[position] if known is not None else None)
                    groups.setdefault(_where(step), []).append(
                        shown.code if shown is not None else "??")
                story.extend({"type": "deal", "to": where, "cards": codes}
                             for where, codes in groups.items())
            else:
                _kind, seat, action, index, number, secret, bot = line
                known = self.cards.get(number)
                played = action
                shown_as = None
                if secret and known is not None:
                    played = fill(action, [known[p] for p in secret])
                    shown_as = str(action)
                self.said[(event.hand + 1, len(story))] = action_text(played, self.deck)
                with english():
                    text = action_text(played, self.deck)
                story.append({"type": "play", "index": index, "seat": seat,
                              "name": self.names[seat], "move": text,
                              "shown_as": shown_as, "bot": bot})
        self.lines = []
        return {
            "hand": event.hand + 1, "story": story, "points": list(event.result.points),
            "match_scores": list(event.match_scores),
            "lines": [{"category": ln.category, "values": list(ln.values),
                       "points": list(ln.points)} for ln in event.result.lines],
        }


def _print_hand(console: Console, hand: dict[str, Any], show: _Show) -> None:
    console.rule(_("hand {number}").format(number=hand["hand"]))
    for position, item in enumerate(hand["story"]):
        if item["type"] == "deal":
            text = cards_label(item["cards"], show.deck)
            console.print("  " + _("deal to {where}: {cards}").format(
                where=_where_said(item["to"]), cards=text), markup=False)
        elif item["type"] == "note":
            console.print(f"  -- {item['text']}", markup=False, soft_wrap=True)
        else:
            text = show.said.get((hand["hand"], position), item["move"])
            if item["shown_as"] is not None:
                text += "  " + _("(shown as {move} until the key reveal)").format(
                    move=item["shown_as"])
            where = _("bot") if item["bot"] else item["index"]  # a bot's move is in no envelope
            console.print(f"  [{where}] {show.seat(item['seat'])}: {text}", markup=False)
    for line in hand_result_lines(hand, show.side_names(len(hand["points"]))):
        console.print(line, markup=False, soft_wrap=True)


def hand_result_lines(hand: dict[str, Any], sides: list[str]) -> list[str]:
    """A scored hand's result as a person reads it, each number beside its side's name:
    ``  result: +2 to Anna [0], +3 to Bruno [1]; match Anna [0] 10 · Bruno [1] 11``, then one line
    per score category, ``    cards: Anna [0] 22 → 1 · Bruno [1] 18 → 0`` (what each side had,
    then the points it gave; Seven and a Half's totals as 7½)."""
    def labelled(values: list[str]) -> str:
        return " · ".join(f"{side} {value}" for side, value in zip(sides, values, strict=False))

    gained = ", ".join(_("{points} to {side}").format(points=f"{p:+d}", side=side)
                       for side, p in zip(sides, hand["points"], strict=False))
    match = labelled([str(m) for m in hand["match_scores"]])
    lines = ["  " + _("result: {gained}; match {match}").format(gained=gained, match=match)]
    for ln in hand["lines"]:
        category, values = result_row(ln["category"], ln["values"])
        cells = [f"{v} → {p}" for v, p in zip(values, ln["points"], strict=False)]
        lines.append(f"    {word(category)}: {labelled(cells)}")
    return lines


def _cmd_show(args: argparse.Namespace) -> int:
    try:
        transcript, genesis = load(args.file)
    except UnreadableTranscript as exc:
        if args.json:
            return _json_error(str(exc), EXIT_INCOMPLETE)
        raise UserError(str(exc), EXIT_INCOMPLETE) from None
    if args.web or args.no_browser:
        if args.json or not args.web:
            raise UserError(_("--web shows the match in a browser: without --json; "
                              "--no-browser goes with --web"), EXIT_USAGE)
        return show_web(args.file, transcript, genesis, not args.no_browser,
                        lambda text: print(text, flush=True))
    console = Console(highlight=False)
    names = [s.name for s in genesis.seats]
    if not args.json:
        console.print(f"[bold]{genesis.game}[/bold] ({genesis.preset}), "
                      + ", ".join(_("seat {seat}").format(seat=i) + f": {n or '-'}"
                                  for i, n in enumerate(names)))
    story = _Show(genesis, lambda hand: None if args.json else _print_hand(console, hand, story))
    table, violation, stopped = replay_transcript(transcript, genesis, story.on_events)
    if violation is not None:
        status, code = "invalid", EXIT_INVALID
        ending = f"stopped at envelope {stopped}: {violation}"
    elif transcript.truncated or not table.finished:
        status, code = "incomplete", EXIT_INCOMPLETE
        ending = f"the transcript stops after {stopped} envelopes, before the match ends"
    else:
        status, code, ending = "valid", 0, None
    evidence = verify_transcript(transcript).evidence if transcript.evidence else ()
    if any(e.verdict == "proven" for e in evidence):  # a proven accusation: as verify says
        status, code = "invalid", EXIT_INVALID
    if args.json:
        print(json.dumps({
            "path": str(args.file), "status": status, "game": genesis.game,
            "preset": genesis.preset, "table_id": genesis.table_id.hex(),
            "seats": [{"seat": i, "name": n} for i, n in enumerate(names)],
            "hands": story.hands, "match": story.match, "envelopes": stopped,
            "stopped": ending, "evidence": [e.to_dict() for e in evidence]},
            indent=2, ensure_ascii=False))
        return code
    if story.match is not None:
        won = story.match["winner_side"]
        sides = story.side_names(len(story.match["scores"]))
        scores = " · ".join(f"{side} {score}" for side, score
                            in zip(sides, story.match["scores"], strict=False))
        result = (_("no winner") if won is None
                  else _("{winner} won").format(winner=sides[won]))
        console.print(_("match over: {scores}; {result}").format(scores=scores, result=result),
                      soft_wrap=True, markup=False)
    if violation is not None:
        console.print(_("stopped at envelope {number}: {violation}").format(
            number=stopped, violation=violation), markup=False, style="red")
    elif ending is not None:
        console.print(_("the transcript stops after {number} envelopes, before the match "
                        "ends").format(number=stopped))
    for e in evidence:  # what the recorder accused someone of, as checked by the verifier
        console.print(f"evidence record {e.record}: {e.verdict.replace('-', ' ')}: "
                      f"{e.message}", markup=False, soft_wrap=True)
    return code


def _json_error(message: str, status: int) -> int:
    """``--json`` on a file that cannot be read: the error as a JSON object on standard output
    (and the same one sentence on standard error), with the same exit status as the text form."""
    print(json.dumps({"status": "unreadable", "error": message}, indent=2, ensure_ascii=False))
    print(f"p2pcards: {message}", file=sys.stderr)
    return status
