"""TCP connections from one fixed local port, shared by several sockets at once.

Hole punching (:mod:`p2pcards.net.punch`) needs the connection to the relay and the attempts to
reach the other peer to leave from the same local port: a home router with an
endpoint-independent mapping then gives them the same public address, the one the relay
observed. Every such socket sets ``SO_REUSEADDR`` (and ``SO_REUSEPORT`` where it exists) before
it binds, which is what lets them share the port while connected to different addresses.
"""

from __future__ import annotations

import socket

import trio

__all__ = ["shared_port_stream", "shared_port_socket", "free_port"]


async def shared_port_socket(family: socket.AddressFamily, port: int) -> trio.socket.SocketType:
    """A TCP socket bound to ``port`` (any address of ``family``) that other sockets of this
    module may bind to as well."""
    sock = trio.socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        await sock.bind(("::" if family == socket.AF_INET6 else "0.0.0.0", port))
    except OSError:
        sock.close()
        raise
    return sock


async def shared_port_stream(host: str, port: int, local_port: int) -> trio.SocketStream:
    """Connect to ``host:port`` (an IP address or a name) from ``local_port``; :class:`OSError`
    when that fails."""
    infos = await trio.socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    if not infos:
        raise OSError(f"no address for {host}")
    family, _, _, _, address = infos[0]
    sock = await shared_port_socket(family, local_port)
    try:
        await sock.connect(address)
    except BaseException:
        sock.close()
        raise
    return trio.SocketStream(sock)


def free_port() -> int:
    """A local TCP port nothing is bound to now (the system's choice)."""
    with socket.socket() as probe:
        probe.bind(("", 0))
        return int(probe.getsockname()[1])
