"""``p2pcards relay``: run a headless relay node until SIGINT or SIGTERM.

Registered into :mod:`p2pcards.cli` through its ``COMMANDS``. Logs go to standard error as
``event=... key=value`` lines, starting with ``event=listening address=HOST:PORT`` (with the real
port when ``--listen`` asks for port 0).
"""

from __future__ import annotations

import argparse
import gc
import signal

from ..i18n import _

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``relay`` subcommand."""
    from ..relay.limits import DEFAULT_LIMITS as D
    from ..relay.mailbox import DEFAULT_MAILBOX_LIMITS as M

    p = sub.add_parser("relay", help="run a relay node that forwards frames between peers",
                       description="Run a headless relay node. Every limit is enforced; see "
                       "docs/relay.md.")
    p.add_argument("--listen", default="0.0.0.0:7447", metavar="HOST:PORT",
                   help="address to listen on (default 0.0.0.0:7447; port 0 picks a free one)")
    options: list[tuple[str, type, float, str, str]] = [
        ("--max-rooms", int, D.max_rooms, "N", "rooms (tables) held at once"),
        ("--max-peers", int, D.max_peers_per_room, "N",
         "distinct identities admitted to one room (a table has at most 8 seats)"),
        ("--max-connections", int, D.max_connections, "N",
         "open TCP connections at once, handshaking or admitted"),
        ("--max-rooms-per-address", int, D.max_rooms_per_address, "N",
         "rooms one network address (an IPv6 client: its /64) may have created and still held; "
         "less than --max-rooms"),
        ("--max-connections-per-address", int, D.max_connections_per_address, "N",
         "open connections one network address (an IPv6 client: its /64) may hold, short-code "
         "connections included; less than --max-connections"),
        ("--max-payload", int, D.max_payload, "BYTES",
         "largest frame payload a client may send"),
        ("--frames-rate", float, D.frames_rate, "N", "sustained frames per second per connection"),
        ("--frames-burst", float, D.frames_burst, "N",
         "frames a connection may send in a burst before it is throttled"),
        ("--bytes-rate", float, D.bytes_rate, "BYTES",
         "sustained payload bytes per second per connection"),
        ("--bytes-burst", float, D.bytes_burst, "BYTES",
         "bytes a connection may send in a burst, at least --max-payload"),
        ("--room-bytes", int, D.max_room_bytes, "BYTES",
         "buffered bytes per room; a room that would exceed it is dropped"),
        ("--total-bytes", int, D.max_total_bytes, "BYTES", "buffered bytes across all rooms"),
        ("--inflight-bytes", int, D.max_inflight_bytes, "BYTES",
         "bytes of partly received or not yet forwarded frames across all connections; a "
         "connection that would exceed it is cut"),
        ("--idle-timeout", float, D.idle_timeout, "SECONDS",
         "seconds without any frame before an admitted client is cut"),
        ("--handshake-timeout", float, D.handshake_timeout, "SECONDS",
         "seconds a new connection has to finish its handshake"),
        ("--write-timeout", float, D.write_timeout, "SECONDS",
         "seconds one write to a client may block before it is cut as a slow reader"),
        ("--room-lifetime", float, D.room_lifetime, "SECONDS",
         "seconds a room may exist, whatever happens in it"),
        ("--empty-room-ttl", float, D.empty_room_ttl, "SECONDS",
         "seconds a room with nobody connected is kept for reconnections"),
        ("--codes", int, M.max_mailboxes, "N",
         "short-code numbers (mailboxes) held at once, open or used, at most 999"),
        ("--codes-per-address", int, M.per_ip, "N",
         "open short codes one network address may hold at once"),
        ("--code-ttl", float, M.ttl, "SECONDS",
         "longest a short code's number is held, whatever its host asks"),
        ("--code-exchange-timeout", float, M.exchange_timeout, "SECONDS",
         "seconds from a code's claim to the end of its exchange"),
        ("--code-message-bytes", int, M.max_message, "BYTES",
         "largest message of a code's exchange"),
        ("--code-tries-rate", float, M.claims_rate, "N",
         "sustained code tries per second per network address"),
        ("--code-tries-burst", float, M.claims_burst, "N",
         "code tries one network address may make at once before it is refused"),
        ("--number-tries-rate", float, M.plate_claims_rate, "N",
         "sustained tries per second of one code number, from any address"),
        ("--number-tries-burst", float, M.plate_claims_burst, "N",
         "tries of one code number at once, from any address, before it is refused"),
        ("--table-tries-rate", float, M.table_claims_rate, "N",
         "sustained tries per second of the codes of one table, from any address"),
        ("--table-tries-burst", float, M.table_claims_burst, "N",
         "tries of the codes of one table at once, from any address, before they are refused"),
    ]
    for flag, kind, default, metavar, what in options:
        p.add_argument(flag, type=kind, default=default, metavar=metavar,
                       help=f"{what} (default {_number(default)})")
    p.add_argument("--stats-interval", type=float, default=60.0, metavar="SECONDS",
                   help="seconds between stats lines (default 60)")
    p.set_defaults(handler=_cmd_relay)


def _number(value: float) -> str:
    """``262144`` for 262144.0, ``0.5`` for 0.5, ``0.0167: one every 60 s`` for 1/60: a default
    as a person writes it."""
    if float(value).is_integer():
        return str(int(value))
    every = 1 / value
    if value < 0.1 and abs(every - round(every)) < 1e-9:
        return f"{value:.3g}: one every {round(every)} s"
    return str(value)


def _cmd_relay(args: argparse.Namespace) -> int:
    import trio

    from ..relay.limits import RelayLimits
    from ..relay.mailbox import MailboxLimits
    from ..relay.server import RelayServer, parse_listen
    from .errors import EXIT_NETWORK, UserError

    try:
        host, port = parse_listen(args.listen)
        limits = RelayLimits(
            max_payload=args.max_payload, frames_rate=args.frames_rate,
            frames_burst=args.frames_burst, bytes_rate=args.bytes_rate,
            bytes_burst=args.bytes_burst, max_peers_per_room=args.max_peers,
            max_rooms=args.max_rooms, max_connections=args.max_connections,
            max_rooms_per_address=args.max_rooms_per_address,
            max_connections_per_address=args.max_connections_per_address,
            handshake_timeout=args.handshake_timeout, idle_timeout=args.idle_timeout,
            write_timeout=args.write_timeout, room_lifetime=args.room_lifetime,
            empty_room_ttl=args.empty_room_ttl, max_room_bytes=args.room_bytes,
            max_total_bytes=args.total_bytes, max_inflight_bytes=args.inflight_bytes)
        mailbox_limits = MailboxLimits(
            max_mailboxes=args.codes, per_ip=args.codes_per_address, ttl=args.code_ttl,
            exchange_timeout=args.code_exchange_timeout, max_message=args.code_message_bytes,
            claims_rate=args.code_tries_rate, claims_burst=args.code_tries_burst,
            plate_claims_rate=args.number_tries_rate,
            plate_claims_burst=args.number_tries_burst,
            table_claims_rate=args.table_tries_rate, table_claims_burst=args.table_tries_burst)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if not args.stats_interval > 0:
        raise UserError(_("--stats-interval must be positive"))
    server = RelayServer(limits, stats_interval=args.stats_interval,
                         mailbox_limits=mailbox_limits)
    # Everything loaded so far lives as long as the process: keep it out of the collector's
    # full passes, whose pauses otherwise show in the forwarding latency under load.
    gc.collect()
    gc.freeze()

    async def run() -> None:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:
                await nursery.start(server.serve, host, port)
                async for signum in signals:
                    server.log(f"event=signal signal={signal.Signals(signum).name}")
                    server.request_shutdown()
                    break

    failure: OSError | None = None
    try:
        trio.run(run)
    except* OSError as group:
        failure = group.exceptions[0]  # type: ignore[assignment]
    if failure is not None:
        raise UserError(_("cannot listen on {listen}: {reason}")
                          .format(listen=args.listen,
                                  reason=failure.strerror or failure),
                        EXIT_NETWORK)
    return 0
