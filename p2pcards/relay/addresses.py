"""Who a client is, for the relay's per-address limits, and the counts kept per address. Sans-IO.

A client's *address* is its network address without the port. An IPv4 address counts as
itself; an IPv6 address counts by its /64 network, because one subscriber line, or one
virtual machine, commonly holds a whole /64 and could otherwise take a fresh address for
every connection. An IPv4 address written in IPv6 (``::ffff:192.0.2.1``) counts as the IPv4
address. Anything that does not parse (a test's ``"?"``) counts as itself.
"""

from __future__ import annotations

import ipaddress

__all__ = ["address_key", "peer_address", "AddressCounts"]


def address_key(host: str) -> str:
    """The name under which the relay counts a client whose network address is ``host``."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def peer_address(peer: str) -> str:
    """:func:`address_key` of a ``HOST:PORT`` peer (IPv6 hosts with or without brackets)."""
    host = peer.rpartition(":")[0] or peer
    return address_key(host.removeprefix("[").removesuffix("]"))


class AddressCounts:
    """How many of one kind of thing (connections, rooms) each address holds, at most
    ``limit`` each; addresses holding none are forgotten, so the table never outgrows what is
    held."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: dict[str, int] = {}

    def held(self, address: str) -> int:
        return self._held.get(address, 0)

    def full(self, address: str) -> bool:
        """Whether ``address`` holds its ``limit`` already."""
        return self.held(address) >= self.limit

    def add(self, address: str) -> None:
        self._held[address] = self.held(address) + 1

    def remove(self, address: str) -> None:
        count = self.held(address) - 1
        if count > 0:
            self._held[address] = count
        else:
            self._held.pop(address, None)

    def __len__(self) -> int:
        """The number of addresses that hold at least one."""
        return len(self._held)
