"""``p2pcards relay``: run a headless relay node until SIGINT or SIGTERM.

Registered into :mod:`p2pcards.cli` through ``_EXTRA_COMMANDS``. Logs go to standard error as
``event=... key=value`` lines, starting with ``event=listening address=HOST:PORT`` (with the real
port when ``--listen`` asks for port 0).
"""

from __future__ import annotations

import argparse
import gc
import signal

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``relay`` subcommand."""
    from ..relay.limits import DEFAULT_LIMITS as D

    p = sub.add_parser("relay", help="run a relay node that forwards frames between peers",
                       description="Run a headless relay node. Every limit is enforced; see "
                       "docs/relay.md.")
    p.add_argument("--listen", default="0.0.0.0:7447", metavar="HOST:PORT",
                   help="address to listen on (default 0.0.0.0:7447; port 0 picks a free one)")
    p.add_argument("--max-rooms", type=int, default=D.max_rooms, metavar="N",
                   help=f"rooms (tables) held at once (default {D.max_rooms})")
    p.add_argument("--max-peers", type=int, default=D.max_peers_per_room, metavar="N",
                   help="distinct identities admitted to one room (default "
                        f"{D.max_peers_per_room}; a table has at most 8 seats)")
    p.add_argument("--max-connections", type=int, default=D.max_connections, metavar="N",
                   help="open TCP connections at once, handshaking or admitted (default "
                        f"{D.max_connections})")
    p.add_argument("--max-payload", type=int, default=D.max_payload, metavar="BYTES",
                   help=f"largest frame payload a client may send (default {D.max_payload})")
    p.add_argument("--frames-rate", type=float, default=D.frames_rate, metavar="N",
                   help=f"sustained frames per second per connection (default "
                        f"{D.frames_rate:g})")
    p.add_argument("--frames-burst", type=float, default=D.frames_burst, metavar="N",
                   help=f"frames a connection may send in a burst before it is throttled "
                        f"(default {D.frames_burst:g})")
    p.add_argument("--bytes-rate", type=float, default=D.bytes_rate, metavar="BYTES",
                   help=f"sustained payload bytes per second per connection (default "
                        f"{D.bytes_rate:g})")
    p.add_argument("--bytes-burst", type=float, default=D.bytes_burst, metavar="BYTES",
                   help=f"bytes a connection may send in a burst, at least --max-payload "
                        f"(default {D.bytes_burst:g})")
    p.add_argument("--room-bytes", type=int, default=D.max_room_bytes, metavar="BYTES",
                   help=f"buffered bytes per room; a room that would exceed it is dropped "
                        f"(default {D.max_room_bytes})")
    p.add_argument("--total-bytes", type=int, default=D.max_total_bytes, metavar="BYTES",
                   help=f"buffered bytes across all rooms (default {D.max_total_bytes})")
    p.add_argument("--inflight-bytes", type=int, default=D.max_inflight_bytes, metavar="BYTES",
                   help="bytes of partly received or not yet forwarded frames across all "
                        f"connections; a connection that would exceed it is cut (default "
                        f"{D.max_inflight_bytes})")
    p.add_argument("--idle-timeout", type=float, default=D.idle_timeout, metavar="SECONDS",
                   help=f"seconds without any frame before an admitted client is cut "
                        f"(default {D.idle_timeout:g})")
    p.add_argument("--handshake-timeout", type=float, default=D.handshake_timeout,
                   metavar="SECONDS",
                   help=f"seconds a new connection has to finish its handshake (default "
                        f"{D.handshake_timeout:g})")
    p.add_argument("--write-timeout", type=float, default=D.write_timeout, metavar="SECONDS",
                   help=f"seconds one write to a client may block before it is cut as a slow "
                        f"reader (default {D.write_timeout:g})")
    p.add_argument("--room-lifetime", type=float, default=D.room_lifetime, metavar="SECONDS",
                   help=f"seconds a room may exist, whatever happens in it (default "
                        f"{D.room_lifetime:g})")
    p.add_argument("--empty-room-ttl", type=float, default=D.empty_room_ttl, metavar="SECONDS",
                   help=f"seconds a room with nobody connected is kept for reconnections "
                        f"(default {D.empty_room_ttl:g})")
    p.add_argument("--stats-interval", type=float, default=60.0, metavar="SECONDS",
                   help="seconds between stats lines (default 60)")
    p.set_defaults(handler=_cmd_relay)


def _cmd_relay(args: argparse.Namespace) -> int:
    import trio

    from ..relay.limits import RelayLimits
    from ..relay.server import RelayServer, parse_listen
    from .errors import EXIT_NETWORK, UserError

    try:
        host, port = parse_listen(args.listen)
        limits = RelayLimits(
            max_payload=args.max_payload, frames_rate=args.frames_rate,
            frames_burst=args.frames_burst, bytes_rate=args.bytes_rate,
            bytes_burst=args.bytes_burst, max_peers_per_room=args.max_peers,
            max_rooms=args.max_rooms, max_connections=args.max_connections,
            handshake_timeout=args.handshake_timeout, idle_timeout=args.idle_timeout,
            write_timeout=args.write_timeout, room_lifetime=args.room_lifetime,
            empty_room_ttl=args.empty_room_ttl, max_room_bytes=args.room_bytes,
            max_total_bytes=args.total_bytes, max_inflight_bytes=args.inflight_bytes)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if not args.stats_interval > 0:
        raise UserError("--stats-interval must be positive")
    server = RelayServer(limits, stats_interval=args.stats_interval)
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
        raise UserError(f"cannot listen on {args.listen}: {failure.strerror or failure}",
                        EXIT_NETWORK)
    return 0
