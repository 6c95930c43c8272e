"""The host's side of the candidates (SPEC §11.9): listen, and find every address to invite at.

:func:`open_listeners` listens on the address asked for; on the wildcard ``0.0.0.0`` it also
listens on ``::`` at the same port when the machine has IPv6, so that a global IPv6 address is
a candidate too. :func:`direct_candidates` lists the addresses a joiner may reach the host at,
in the order the joiner should try them: the advertised address (or this machine's LAN
address), a global IPv6 address, then more LAN addresses. A port mapped on the router
(``mapped``) and the address a relay observed (``observed``) are added by their own sources
after these, before the relay room.

The local addresses are found the way a connected UDP socket picks its source address: no
packet is sent.
"""

from __future__ import annotations

import contextlib
import socket

import trio

from ..seating.candidates import Candidate, classify

__all__ = ["open_listeners", "direct_candidates", "source_address", "WILDCARDS"]

WILDCARDS = ("", "0.0.0.0", "::")
_PROBES = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}
"""Documentation addresses a UDP socket is connected to, only to learn its source address."""


def source_address(family: socket.AddressFamily) -> str | None:
    """The address this machine would send from to the internet in ``family``, if any."""
    probe = socket.socket(family, socket.SOCK_DGRAM)
    try:
        probe.connect((_PROBES[family], 9))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    if address in ("0.0.0.0", "::") or address.startswith("fe80:"):
        return None
    return address


async def open_listeners(host: str, port: int) -> list[trio.SocketListener]:
    """Listen on ``host:port``; on ``0.0.0.0`` also on ``::`` (IPv6 only) at the same port when
    this machine can. Raises :class:`OSError` when the first listener cannot be opened."""
    listeners = list(await trio.open_tcp_listeners(port, host=host or "0.0.0.0"))
    if host in ("", "0.0.0.0") and socket.has_ipv6:
        bound = listeners[0].socket.getsockname()[1]
        six = trio.socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        try:
            six.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            six.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            await six.bind(("::", bound))
            six.listen()
        except OSError:
            six.close()
        else:
            listeners.append(trio.SocketListener(six))
    return listeners


def direct_candidates(listeners: list[trio.SocketListener], advertise: str) -> list[Candidate]:
    """The direct candidates of a host listening on ``listeners``: ``advertise`` first (when
    given), then, for a wildcard listener, this machine's IPv6 and IPv4 source addresses
    (``127.0.0.1`` when there is nothing else: never an empty list)."""
    found: list[Candidate] = []
    port = listeners[0].socket.getsockname()[1]
    if advertise:
        found.append(Candidate(classify(advertise), advertise, port))
    for listener in listeners:
        family = listener.socket.family
        address, bound = listener.socket.getsockname()[:2]
        if address not in WILDCARDS:
            found.append(Candidate(classify(address), address, bound))
            continue
        with contextlib.suppress(KeyError):
            source = source_address(family)
            if source is not None:
                found.append(Candidate(classify(source), source, bound))
    if not found:
        found.append(Candidate("lan", "127.0.0.1", port))
    unique = list(dict.fromkeys(found))
    order = {"lan": 0, "ipv6": 1, "public": 2}
    first, rest = unique[:1], unique[1:]
    return first + sorted(rest, key=lambda c: order.get(c.kind, 3))
