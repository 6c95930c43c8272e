"""The ``id``, ``host`` and ``join`` commands, and ``resume`` from :mod:`.resume` (registered into
:mod:`p2pcards.cli`).

``host`` prints the table's rules (``--variant`` and every ``--set`` house rule) and the invite
on a line of its own (``p2pcards join p2pcards://...``), which commits to those rules; ``join``
prints them before signing anything, asks a person to confirm, and without ``--accept`` a bot
refuses any rule that is not the named preset's. Then ``host`` seats the joiners, plays, and
like ``join`` writes the transcript as the match goes and prints its path at the end, also after
a failure. Failures are one sentence on standard error; exit status 3 for network and peer
trouble, 1 for a protocol violation, 130 when the person leaves.
"""

from __future__ import annotations

import argparse
import functools
import os
import shlex
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio

from ..bots.loader import BotLoadError, check_bot_spec
from ..faces.terminal import YES_WORDS, BotLog, PersonUI, StdinLines
from ..games import get_game
from ..i18n import _
from ..net.codes import redeem_code
from ..net.errors import MatchFailure
from ..net.handshake import Reviewer, refuse_unusual
from ..net.hub import HostConfig, host_match, seat_plan
from ..net.interrupts import ON_SIGNAL, LeaveOnSignal
from ..net.peer import join_match
from ..net.player import Player
from ..net.seats import bot_player, seat_secrets
from ..records.identity_store import (
    IdentityStoreError,
    claim_identity,
    config_dir,
    identity_path,
    load_or_create_identity,
    transcripts_dir,
)
from ..records.player_name import ask_name, check_name, login_name, stored_name
from ..records.transcript import TranscriptWriter
from ..relay.client import RECONNECT_WINDOW
from ..seating.codes import Code, CodeError, looks_like_code, parse_code
from ..seating.genesis import DEFAULT_TIMEOUTS, Genesis
from ..seating.handshake import Review
from ..seating.invite import Invite, InviteError
from ..seating.rules import TableRules, parse_settings, show_value
from ..table import Table
from ..wire.identity import IdentityKey
from .again import again_answer, rematch_option
from .errors import EXIT_NETWORK, EXIT_USAGE, UserError, first_failure, silence_stdout
from .output import event, say, use_json
from .resume import RecordFacts, comeback_for, return_wait, return_wait_option
from .resume import register as register_resume
from .signals import on_signal
from .web import WebTable, web_options, web_table

__all__ = ["register", "default_transcript_path", "advertised_address"]



def join_line(*words: str) -> str:
    """The command a player types to join, ``p2pcards join WORDS...``, each word quoted for
    the shell where it needs to be: an invite always (its ``?`` and ``#`` are patterns to zsh,
    the macOS shell), a relay's IPv6 address too (its brackets)."""
    return shlex.join(["p2pcards", "join", *words])


def _say(text: str) -> None:
    say(text)


def _again_of(args: argparse.Namespace, web: WebTable | None,
              again: Callable[[Table], Awaitable[bool]] | None
              ) -> Callable[[Table], Awaitable[bool]] | None:
    """Whether this seat plays again after each match: asked on the page with ``--web``
    (unless ``--rematch N`` answers), else ``again``."""
    if web is None or getattr(args, "rematch", None) is not None:
        return again
    return web.page.again


def _notice(web: WebTable | None) -> Callable[[str], None]:
    """How the peer's notices are told: printed, and on the page too with ``--web`` (its
    connection line, its series tally, its latest notice)."""
    if web is None:
        return _say

    def both(text: str) -> None:
        _say(text)
        web.notice(text)
    return both


# ----------------------------------------------------------------------------- helpers


def default_transcript_path(genesis: Genesis, seat: int) -> Path:
    """``<config>/transcripts/<game>-<UTC time>-<table id prefix>-seat<N>.p2pt``.

    The seat is always in the name: peers of one table that share the directory (a demo, tests)
    write their transcripts at the same moment, and a name chosen by "is it taken?" races."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    prefix = genesis.table_id.hex()[:12]
    return transcripts_dir() / f"{genesis.game}-{stamp}-{prefix}-seat{seat}.p2pt"


class _Transcript:
    """Creates the transcript once the genesis is known and remembers where it is."""

    def __init__(self, requested: str | None) -> None:
        self.requested = requested
        self.path: Path | None = None
        self.earlier: list[Path] = []
        """The transcripts of the matches played before this one at the same table."""

    def __call__(self, genesis: Genesis, seat: int) -> TranscriptWriter:
        if self.path is not None:
            self.earlier.append(self.path)
        if self.requested:
            path = Path(self.requested).expanduser()
            if self.earlier:  # the next match of a series: PATH-2.p2pt, PATH-3.p2pt...
                path = path.with_name(f"{path.stem}-{len(self.earlier) + 1}{path.suffix}")
        else:
            try:
                path = default_transcript_path(genesis, seat)
            except OSError as exc:
                raise MatchFailure(f"cannot create the transcripts directory "
                                   f"{config_dir() / 'transcripts'}: {exc.strerror or exc}",
                                   EXIT_USAGE) from None
        path = path.absolute()
        try:
            writer = TranscriptWriter.create(path, genesis.encode(), fsync=False)
        except FileExistsError:
            raise MatchFailure(f"transcript {path} already exists; choose another --transcript",
                               EXIT_USAGE) from None
        except OSError as exc:
            raise MatchFailure(f"cannot create transcript {path}: {exc.strerror}",
                               EXIT_USAGE) from None
        self.path = path
        return writer

    def report(self, table: Table | None = None) -> None:
        if self.path is None:
            return
        for earlier in self.earlier:
            event({"event": "transcript", "complete": True, "path": str(earlier)},
                  f"transcript (complete): {earlier}")
        complete = table is not None and table.finished
        state = "complete" if complete else "incomplete"
        event({"event": "transcript", "complete": complete, "path": str(self.path)},
              f"transcript ({state}): {self.path}")


def _check_transcript_target(requested: str | None) -> None:
    """A ``--transcript`` path that cannot be created is a usage error before any invite is
    printed (nobody should join a table whose record cannot be written)."""
    if not requested:
        try:
            transcripts_dir()
        except OSError as exc:
            raise UserError(_("cannot create the transcripts directory "
                              "{directory}: {reason}")
                              .format(directory=config_dir() / 'transcripts',
                                      reason=exc.strerror or exc),
                            EXIT_USAGE) from None
        return
    path = Path(requested).expanduser().absolute()
    if path.is_dir():
        raise UserError(_("--transcript {requested} is a directory; name a file in it")
                          .format(requested=requested),
                        EXIT_USAGE)
    if path.exists() or path.is_symlink():
        raise UserError(_("--transcript {requested} already exists; choose another file")
                          .format(requested=requested),
                        EXIT_USAGE)
    parent = path.parent
    if not parent.is_dir():
        raise UserError(_("--transcript {requested}: the directory {parent} does not "
                          "exist").format(requested=requested, parent=parent),
                        EXIT_USAGE)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UserError(_("--transcript {requested}: the directory {parent} is not "
                          "writable").format(requested=requested, parent=parent),
                        EXIT_USAGE)


def advertised_address(listen_host: str) -> str:
    """The address to put in an invite: the listen address, or this machine's LAN address."""
    if listen_host not in ("", "0.0.0.0", "::"):
        return listen_host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
        address = probe.getsockname()[0]
        return str(address) if address and not address.startswith("0.") else "127.0.0.1"
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def _identity(args: argparse.Namespace) -> IdentityKey | None:
    if getattr(args, "ephemeral_identity", False) or args.seed is not None:
        return None  # fresh (or seeded) key, not stored
    try:
        key, created = load_or_create_identity()
    except IdentityStoreError as exc:
        raise UserError(str(exc), EXIT_USAGE) from None
    if created:
        _say(f"created your identity {key.public.fingerprint} in {identity_path()}")
    try:
        free = claim_identity()
    except IdentityStoreError as exc:
        raise UserError(str(exc), EXIT_USAGE) from None
    if not free:
        fresh = IdentityKey.generate()
        _say(f"your identity {key.public.fingerprint} already plays a seat in another p2pcards "
             f"on this machine, so this seat uses a fresh identity for this match: "
             f"{fresh.public.fingerprint}")
        return fresh
    return key


def _player_factory(args: argparse.Namespace, game: Callable[[Genesis], str],
                    lines: StdinLines | None = None,
                    web: WebTable | None = None) -> Callable[[Genesis, int], Player]:
    def make(genesis: Genesis, seat: int) -> Player:
        if web is not None:
            return web.player(genesis, seat)
        if args.bot:
            bot = bot_player(game(genesis), seat, args.seed, args.bot)
            return Player(bot.decide, BotLog(genesis, seat, _say).show, claim=bot.claim)
        return PersonUI(genesis, seat, lines or StdinLines()).player()
    return make


def _reviewer(accept: bool, lines: StdinLines | None) -> Reviewer:
    """How ``join`` decides on the table's rules before signing anything.

    Every joiner prints them. A person (``lines``) is asked to confirm; with ``--accept``
    nobody is asked and any rules are taken; a bot without ``--accept`` refuses house rules
    and unusual timeouts (:func:`~p2pcards.net.handshake.refuse_unusual`).
    """
    async def review(offer: Review) -> str | None:
        for line in offer.rules.describe():
            _say(line)
        if not offer.committed:
            _say("  this invite carries no rules digest (an older host): the rules above are "
                 "only what the host announces now")
        if accept:
            return None
        if lines is None:
            return await refuse_unusual(offer)
        print(_("sit at this table with these rules? [y/N] "), end="", flush=True)
        answer = await lines.readline()
        if answer is None:
            print()
            return "the person at this seat left before accepting the table's rules"
        if answer.strip().lower() in YES_WORDS:
            return None
        return "the person at this seat declined the table's rules"
    return review


def _run_match(main: Callable[[], Any], transcript: _Transcript,
               signals: LeaveOnSignal | None = None) -> int:
    table: Table | None = None

    async def guarded() -> Any:
        ON_SIGNAL.set(signals or LeaveOnSignal())
        return await main()

    try:
        table = trio.run(guarded)
    except BaseException as raw:  # noqa: BLE001 - unwrapped and re-raised below
        exc = first_failure(raw)
        if isinstance(exc, BrokenPipeError):
            silence_stdout()
            where = f" (transcript, incomplete: {transcript.path})" if transcript.path else ""
            raise UserError(_("standard output was closed, so the match is abandoned{where}")
                              .format(where=where),
                            EXIT_NETWORK) from None
        transcript.report(None)
        if isinstance(exc, MatchFailure):
            raise UserError(str(exc), exc.status) from None
        if isinstance(exc, KeyboardInterrupt):
            raise UserError(_("interrupted; the match is abandoned"), 130) from None
        raise
    transcript.report(table)
    return 0


def _parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UserError(_("--listen {text!r} must be HOST:PORT (port 0 picks a free one)")
                          .format(text=text))
    return host.strip("[]") or "0.0.0.0", int(port)


RELAY_PORT = 7447
"""The port ``p2pcards relay`` listens on by default, assumed when ``--relay`` names none."""


def parse_address(text: str, option: str) -> tuple[str, int]:
    """``HOST:PORT`` or ``HOST`` (port :data:`RELAY_PORT`); an IPv6 host in brackets."""
    host, port = text.strip(), str(RELAY_PORT)
    if host.startswith("[") and "]" in host:  # [v6] or [v6]:port
        inside, _bracket, rest = host[1:].partition("]")
        host, port = inside, rest[1:] if rest.startswith(":") else (rest or port)
    elif host.count(":") == 1:
        host, port = host.split(":")
    if not host or " " in host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UserError(_("{option} {text!r} must be HOST or HOST:PORT, for example "
                          "relay.example.org:{relay_port}")
                          .format(option=option, text=text, relay_port=RELAY_PORT))
    return host, int(port)


# ----------------------------------------------------------------------------- commands


def _cmd_id(args: argparse.Namespace) -> int:
    try:
        key, created = load_or_create_identity()
    except IdentityStoreError as exc:
        raise UserError(str(exc), EXIT_USAGE) from None
    print(key.public.fingerprint)
    if args.verbose or created:
        state = "created" if created else "stored"
        print(f"{state} in {identity_path()}", file=sys.stderr)
    return 0


def _dropout(choice: str | None, players: int) -> str | None:
    """The genesis dropout policy: ``--dropout`` (``forfeit`` by default with 3+ seats)."""
    if players < 3:
        if choice not in (None, "off"):
            raise UserError(_("--dropout is for tables of three or more seats: with two, a "
                              "seat that stops answering loses by timeout"))
        return None
    if choice == "off":
        return None
    return choice or "forfeit"


def _partner(args: argparse.Namespace, players: int) -> str | None:
    """``--partner NAME`` checked: a name, and a seat for a person besides the host."""
    if args.partner is None:
        return None
    problem = check_name(args.partner)
    if problem is not None:
        raise UserError(f"--partner: {problem}", EXIT_USAGE)
    if players - 1 - args.bots < 1:
        raise UserError(_("--partner names a player who joins: leave a seat for them "
                          "(fewer --bots)"), EXIT_USAGE)
    return str(args.partner).strip()


def _cmd_host(args: argparse.Namespace) -> int:
    _check_json(args)
    check_bot(args.bot)
    _check_web(args)
    _check_seed(args)
    spec = get_game(args.game)
    preset = args.variant or spec.default_preset
    players = args.players if args.players is not None else spec.preset_players(preset)[0]
    flags = parse_settings(spec.name, args.set)
    spec.preset(preset, players=players, **flags)  # bad combinations fail here, as GameError
    if args.bots < 0 or args.bots > players - 1:
        raise UserError(_("--bots must be between 0 and {most} for {players} players")
                          .format(most=players - 1, players=players))
    timeouts = dict(DEFAULT_TIMEOUTS)
    for option, value, keys in (("--timeout", args.timeout, ("step", "action")),
                                ("--move-timeout", args.move_timeout, ("action",))):
        if value is None:
            continue
        if not 1 <= value <= 86400:
            raise UserError(_("{option} must be between 1 and 86400 seconds").format(option=option))
        timeouts.update({key: value for key in keys})
    listen_host, listen_port = _parse_listen(args.listen)
    relay = None
    if args.relay is not None:
        if args.advertise and args.relay_only:
            raise UserError(_("--advertise does not apply with --relay-only: the invite names "
                              "only the relay"))
        relay = parse_address(args.relay, "--relay")
    elif args.relay_only:
        raise UserError(_("--relay-only needs --relay HOST[:PORT]"))
    if args.code and relay is None:
        raise UserError(_("--code needs --relay HOST[:PORT]: a code is redeemed through "
                          "a relay"))
    if not 0 < args.code_minutes <= 1440:
        raise UserError(_("--code-minutes must be more than 0 and at most 1440"))
    _check_transcript_target(args.transcript)
    identity = _identity(args)
    if identity is None and args.seed is None:
        identity = IdentityKey.generate()
    config = HostConfig(
        game=spec.name, preset=preset, players=players, bots=args.bots,
        listen_host=listen_host, listen_port=listen_port,
        advertise=args.advertise or advertised_address(listen_host), timeouts=timeouts,
        seed=args.seed, identity=identity, name=_seat_name(args), relay=relay,
        relay_only=args.relay_only, flags=flags,
        code_ttl=args.code_minutes * 60 if args.code else None,
        relay_patience=_patience(args), dropout=_dropout(args.dropout, players),
        port_mapping=not args.no_port_mapping,
        partner=_partner(args, players),
    )
    # one reader of the terminal for the codes' restart and the person's moves
    lines = StdinLines() if args.code or not args.bot else None
    config = replace(config, again=again_answer(args, lines))
    if config.partner is not None:
        try:
            seat_plan(config.table_rules(), players - 1 - args.bots, config.partner)
        except MatchFailure as exc:
            raise UserError(str(exc), EXIT_USAGE) from None
    transcript = _Transcript(args.transcript)
    facts = RecordFacts("host", transcript=lambda: transcript.path,
                        relay_patience=config.relay_patience, seed=args.seed)
    config = replace(config, comeback=comeback_for(facts, return_wait(args), _own(args),
                                                   _stored(args)))
    rules = config.table_rules()
    web: WebTable | None = None

    def on_invite(invite: Invite) -> None:
        facts.invite = str(invite)
        if relay is None:
            facts.listen = (listen_host, invite.port)
        via = _(" through the relay at {relay}").format(relay=args.relay) if relay else ""
        head = _("hosting {summary}, {bots} bot seat(s){via}; timeouts {step} s and {action} "
                 "s").format(summary=said_summary(rules), bots=args.bots, via=via,
                             step=rules.timeouts["step"], action=rules.timeouts["action"])
        if args.bots == players - 1:
            _say(_("{head}; bots take every other seat, so nobody needs an invite").format(
                head=head))
            return
        give = _("{head}; give this line to each player:").format(head=head)
        _say(give)
        event({"event": "invite", "invite": str(invite), "command": join_line(str(invite))},
              join_line(str(invite)))
        if web is not None:
            web.page.seating(f"{give} {join_line(str(invite))}")

    def on_code(code: Code, seconds: float) -> None:
        _say(_("or tell a player this code (one use, for the next {duration}):").format(
            duration=_duration(seconds)))
        _say(join_line(str(code), "--relay", args.relay))

    async def main() -> Table:
        nonlocal web
        async with web_table(args, _say, lambda: transcript.path) as web:
            player_for = _player_factory(args, lambda g: g.game, lines, web)
            again = functools.partial(_codes_again, lines) if lines is not None else None
            hosting = replace(config, again=_again_of(args, web, config.again))
            return await host_match(hosting, player_for, notice=_notice(web), on_invite=on_invite,
                                    transcript=transcript, on_code=on_code, codes_again=again)

    return _run_match(main, transcript, on_signal(args, lines))


CODES_AGAIN = "to offer new codes, type codes and press Enter"
"""What a host whose codes stopped after too many burns tells its person."""


async def _codes_again(lines: StdinLines) -> None:
    """Return when the person types ``codes`` on the terminal (never, once standard input is
    closed): a host's codes stopped after too many burns start again by hand only."""
    _say(CODES_AGAIN)
    while True:
        line = await lines.readline()
        if line is None:
            await trio.sleep_forever()
        elif line.strip().lower() == "codes":
            return
        else:
            _say(CODES_AGAIN)


def said_summary(rules: TableRules) -> str:
    """:meth:`TableRules.summary` in the language in use: ``briscola (classic), 2 players``,
    then each flag that differs from the preset, as typed."""
    changed = "".join(f", {d.flag}={show_value(d.table_value)}" for d in rules.differences())
    return _("{game} ({preset}), {players} players").format(
        game=rules.game, preset=rules.preset, players=rules.players) + changed


def _duration(seconds: float) -> str:
    """``10 minutes``, ``1 minute``, ``45 seconds``: a code's time as a person says it."""
    whole = max(1, round(seconds))
    if whole < 90:
        return _("1 second") if whole == 1 else _("{count} seconds").format(count=whole)
    minutes = round(whole / 60)
    return _("1 minute") if minutes == 1 else _("{count} minutes").format(count=minutes)


def _read_invite(text: str) -> str:
    """The invite argument, or with ``-`` the first line of standard input."""
    if text != "-":
        return text
    if sys.stdin.isatty():
        print(_("paste the invite line: "), end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    if not line.strip():
        raise UserError(_("no invite on standard input"))
    return line


def _cmd_join(args: argparse.Namespace) -> int:
    _check_json(args)
    if args.invite is None and args.bot is not None and (
            args.bot == "-" or "://" in args.bot or looks_like_code(args.bot)):
        args.invite, args.bot = args.bot, "smart"  # `join --bot INVITE`: the bot's value was
        # the invite, as `--bot` written before it used to mean a smart bot
    if args.invite is None:
        raise UserError(_("join needs the invite line the host printed (or - to read it "
                          "from standard input), or the code the host told you"), EXIT_USAGE)
    code: Code | None = None
    _check_web(args)
    _check_seed(args)
    try:
        check_bot(args.bot)
        text = _read_invite(args.invite)
        if looks_like_code(text):
            code = parse_code(text)
            invite = None
        else:
            invite = Invite.parse(text)
    except (InviteError, CodeError) as exc:
        raise UserError(str(exc)) from None
    relay = None
    if code is not None:
        if args.relay is None:
            raise UserError(_("a code is redeemed through a relay: add --relay HOST[:PORT], "
                              "the relay the host named"), EXIT_USAGE)
        relay = parse_address(args.relay, "--relay")
    elif args.relay is not None:
        raise UserError(_("--relay goes with a code; an invite names its relay itself"),
                        EXIT_USAGE)
    _check_transcript_target(args.transcript)
    identity = _identity(args)
    name = _seat_name(args)

    def secrets_for(seat: int) -> tuple[Any, str]:
        return seat_secrets(seat, args.seed, identity, name)

    transcript = _Transcript(args.transcript)
    lines = None if args.bot else StdinLines()
    again = again_answer(args, lines)
    relay_key = IdentityKey.generate()
    facts = RecordFacts("joiner", transcript=lambda: transcript.path,
                        relay_identity=relay_key.to_bytes(), relay_patience=_patience(args),
                        seed=args.seed)
    comeback = comeback_for(facts, return_wait(args), _own(args), _stored(args))

    async def main() -> Table:
        joining = invite
        if joining is None:
            assert code is not None and relay is not None
            joining = await redeem_code(relay, code)
            _say(f"the code {code} opened the invite of the host {joining.fingerprint}")
        facts.invite = str(joining)
        async with web_table(args, _say, lambda: transcript.path) as web:
            player_for = _player_factory(args, lambda g: g.game, lines, web)
            return await join_match(joining, player_for, secrets_for, bot=args.bot is not None,
                                    seed=args.seed,
                                    notice=_notice(web), transcript=transcript,
                                    review=_reviewer(args.accept, lines),
                                    relay_patience=_patience(args), relay_identity=relay_key,
                                    comeback=comeback, again=_again_of(args, web, again))

    return _run_match(main, transcript, on_signal(args, lines))


def _patience(args: argparse.Namespace) -> float:
    """``--relay-patience`` checked: how long a broken relay connection is re-established."""
    value = float(args.relay_patience)
    if not 1 <= value <= 86400:
        raise UserError(_("--relay-patience must be between 1 and 86400 seconds"))
    return value


def _own(args: argparse.Namespace) -> str:
    """Who plays the user's seat, as the match record says it."""
    return f"bot:{args.bot}" if args.bot else "person"


def _stored(args: argparse.Namespace) -> IdentityKey | None:
    """The user's stored identity when this seat may be playing with it (it is then never
    copied into the match record)."""
    if getattr(args, "ephemeral_identity", False) or args.seed is not None:
        return None
    try:
        return load_or_create_identity()[0]
    except IdentityStoreError:
        return None


def _seat_name(args: argparse.Namespace) -> str:
    """The name this seat plays under: ``--name``, else the kept name, else (a person at a
    terminal) the name asked once and kept, else the login name (a bot or no terminal)."""
    if args.name:
        problem = check_name(args.name)
        if problem is not None:
            raise UserError(_("--name: {problem}").format(problem=problem), EXIT_USAGE)
        return str(args.name).strip()
    kept = stored_name()
    if kept is not None:
        return kept
    if args.bot or args.seed is not None or not sys.stdin.isatty():
        return login_name()  # a seeded table names its seats seat0, seat1...
    try:
        return ask_name(input, _say)
    except IdentityStoreError as exc:
        raise UserError(str(exc), EXIT_USAGE) from None


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``id``, ``host``, ``join`` and ``resume`` to the ``p2pcards`` parser."""
    ident = sub.add_parser("id", help="print your identity fingerprint (made on first use)")
    ident.add_argument("-v", "--verbose", action="store_true", help="also say where it is kept")
    ident.set_defaults(handler=_cmd_id)

    host = sub.add_parser("host", help="host a table and print the invite for the others")
    host.add_argument("--game", default="scopa", help="game to play (default: scopa)")
    host.add_argument("--variant", help="preset of the game (see p2pcards rules GAME)")
    host.add_argument("--players", type=int, help="number of seats (default: the preset's first)")
    settings_option(host)
    host.add_argument("--bots", type=int, default=0, help="seats played by bots in this process")
    host.add_argument("--partner", metavar="NAME",
                      help="in a game of partnerships, seat the player who joins as NAME on "
                           "your side (and your bots on the other); the sides are said before "
                           "the match")
    host.add_argument("--listen", default="0.0.0.0:0",
                      help="HOST:PORT to listen on (default 0.0.0.0:0, a free port)")
    host.add_argument("--advertise", help="address to put in the invite (default: guessed)")
    host.add_argument("--no-port-mapping", action="store_true",
                      help="do not ask the home router (UPnP-IGD, NAT-PMP or PCP) to forward "
                           "the listening port to this table")
    host.add_argument("--relay", metavar="HOST[:PORT]",
                      help="also offer the relay at HOST:PORT (default port 7447) for players "
                           "who cannot reach you directly; the invite names your direct "
                           "addresses first")
    host.add_argument("--relay-only", action="store_true",
                      help="with --relay: do not listen, every player comes through the relay")
    _common(host)
    web_options(host)
    return_wait_option(host)
    host.add_argument("--code", action="store_true",
                      help="with --relay: also offer short codes (7-scopa-tavolo) to read over "
                           "the phone, one use each, a wrong try burns it; after 3 burned "
                           "codes no more are offered until you type codes and press Enter")
    host.add_argument("--code-minutes", type=float, default=10, metavar="M",
                      help="how long codes are offered (default 10 minutes)")
    host.add_argument("--timeout", type=int,
                      help="seconds any seat may take for any step (default: 60 for automatic "
                           "steps, 600 for a person's move)")
    host.add_argument("--move-timeout", type=int, metavar="S",
                      help="seconds a person may take for a move (default 600); overrides "
                           "--timeout for moves only")
    host.add_argument("--dropout", choices=("forfeit", "bot", "off"),
                      help="with 3 or more seats, what a seat that stops answering leads to: "
                           "the others rebuild its hand key from their shares, check the hand "
                           "and it forfeits (forfeit, the default); bot: the others rebuild its "
                           "hand key and a public bot plays the seat to the end of the match, "
                           "its cards shown to everyone; off shares no keys and ends the match")
    host.set_defaults(handler=_cmd_host)

    join = sub.add_parser("join", help="join a table with the invite the host gave you")
    join.add_argument("invite", nargs="?", help="p2pcards://HOST:PORT/NONCE#FINGERPRINT (or "
                                     "p2pcards+relay://...), or - to read it from standard "
                                     "input, or a code such as 7-scopa-tavolo (with --relay)")
    _common(join)
    web_options(join)
    join.add_argument("--relay", metavar="HOST[:PORT]",
                      help="the relay the host named, when you join with a code "
                           "(default port 7447)")
    join.add_argument("--accept", action="store_true",
                      help="sit at the table whatever its house rules and timeouts, without "
                           "asking (they are still printed); without it a person is asked and "
                           "a --bot refuses any rule that is not the named preset's")
    return_wait_option(join)
    join.set_defaults(handler=_cmd_join)
    register_resume(sub)


def _check_json(args: argparse.Namespace) -> None:
    """``--json`` is for a seat whose person does not read standard output (a bot, a web
    page); it turns standard output into JSON events (:mod:`.output`)."""
    if args.json and not args.bot and not args.web:
        raise UserError(_("--json is for a seat played by a bot (--bot) or at a browser page "
                          "(--web): a person at the terminal reads the table on standard "
                          "output"), EXIT_USAGE)
    use_json(args.json)


def _check_web(args: argparse.Namespace) -> None:
    """``--web`` is a person's table: not with ``--bot``; ``--no-browser`` needs ``--web``."""
    if args.web and args.bot:
        raise UserError(_("--web is for a person at the seat: leave out --bot"), EXIT_USAGE)
    if args.no_browser and not args.web:
        raise UserError(_("--no-browser goes with --web"), EXIT_USAGE)


def _check_seed(args: argparse.Namespace) -> None:
    """``--seed`` on a networked seat only with ``--insecure-public-keys``, and not that alone.

    A seed makes every key of the seat (identity, inbox, hand keys) a function of a small
    number: anyone who guesses it reads the seat's hidden cards and signs as it."""
    if args.seed is not None and not args.insecure_public_keys:
        raise UserError(_("--seed makes every key of this seat predictable, so anyone "
                          "who guesses the number can read its hidden cards and sign as "
                          "it: use it with p2pcards demo, or add --insecure-public-keys "
                          "to play a seeded seat anyway (tests only)"), EXIT_USAGE)
    if args.insecure_public_keys and args.seed is None:
        raise UserError(_("--insecure-public-keys goes with --seed"), EXIT_USAGE)


def check_bot(spec: str | None) -> None:
    """A ``--bot`` value that cannot work is a usage error before anything starts."""
    if spec is None:
        return
    try:
        check_bot_spec(spec)
    except BotLoadError as exc:
        raise UserError(str(exc), EXIT_USAGE) from None


def bot_option(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--bot [BOT]`` to ``parser``, its help saying ``what`` the bot does."""
    parser.add_argument("--bot", nargs="?", const="smart", default=None, metavar="BOT",
                        help=f"{what}: smart (the default), random, or your own as "
                             f"module:callable or file.py:callable (see docs/bots.md)")


def settings_option(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable ``--set FLAG=VALUE`` house rule to ``parser``."""
    parser.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                        help="a house rule: set one flag that p2pcards rules GAME lists "
                             "(repeatable), e.g. --set target=21")


def _common(parser: argparse.ArgumentParser) -> None:
    bot_option(parser, "a bot plays your seat")
    rematch_option(parser)
    parser.add_argument("--name", help="your name at this table (default: the name you gave "
                        "once, kept beside your identity; without a terminal, your login)")
    parser.add_argument("--transcript", help="where to write the transcript")
    parser.add_argument("--json", action="store_true",
                        help="with --bot or --web: print JSON events on standard output, one "
                             "object a line (connections, the invite, the series tally, the "
                             "transcripts, every other line as a notice)")
    parser.add_argument("--seed", type=int,
                        help="seeded keys and bots, for tests only: every key of the seat is "
                             "predictable, so it needs --insecure-public-keys")
    parser.add_argument("--insecure-public-keys", action="store_true",
                        help="with --seed: accept that the seat's keys are public (anyone who "
                             "guesses the seed reads its cards and signs as it)")
    parser.add_argument("--ephemeral-identity", action="store_true",
                        help="use a fresh identity key for this match instead of yours")
    parser.add_argument("--relay-patience", type=float, default=RECONNECT_WINDOW,
                        metavar="SECONDS",
                        help="through a relay: how long a broken connection to it is "
                             f"re-established before the match is given up (default "
                             f"{RECONNECT_WINDOW:g})")
