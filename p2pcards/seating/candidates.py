"""Address candidates: the ways a joiner may reach a host, and what each way is called.

A host can often be reached in several ways: on the LAN, at a global IPv6 address, through a
port its router maps for it, at the public address a relay observed, and through the relay
room. An invite (:mod:`.invite`) lists them in the order a joiner tries them; the joiner races
them (:mod:`.race`) and keeps the first connection on which the host proves its identity key,
so a wrong or stale candidate costs one failed try and never a false host.

Sans-IO: classification and text forms only.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["Candidate", "CandidateError", "Kind", "KINDS", "classify", "parse_address",
           "format_address", "how"]

Kind = Literal["lan", "ipv6", "mapped", "observed", "public", "relay", "punched"]
KINDS: tuple[Kind, ...] = ("lan", "ipv6", "mapped", "observed", "public", "relay", "punched")
"""``lan``: a private, shared or link-local address; ``ipv6``: a global IPv6 address;
``mapped``: a port the host's router maps to it (UPnP-IGD, NAT-PMP or PCP); ``observed``: the
public address a relay saw the host's connection come from; ``public``: any other address
(a public host, a port forwarded by hand); ``relay``: the relay room; ``punched``: a
connection opened by hole punching through the relay (never written in an invite)."""

_HOW: dict[Kind, str] = {
    "lan": "LAN", "ipv6": "IPv6", "mapped": "port mapping", "observed": "public address",
    "public": "public address", "relay": "relay", "punched": "hole punched",
}

_ADDRESS = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+):(?P<port>[0-9]{1,5})$")


class CandidateError(ValueError):
    """A candidate that cannot be parsed; the message names it."""


@dataclass(frozen=True)
class Candidate:
    """One way to reach the host: a kind and a TCP address (the relay's, for ``relay``)."""

    kind: Kind
    host: str
    port: int

    def __post_init__(self) -> None:
        if not 1 <= self.port <= 65535:
            raise CandidateError(f"candidate port {self.port} is not between 1 and 65535")

    @property
    def where(self) -> str:
        """``HOST:PORT`` (IPv6 in brackets)."""
        return format_address(self.host, self.port)

    @property
    def direct(self) -> bool:
        return self.kind != "relay"


_LOCAL = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16",
    "127.0.0.0/8", "fc00::/7", "fe80::/10", "::1/128"))
"""Private, shared (carrier-grade NAT), link-local and loopback ranges: reachable on a LAN at
most. Documentation ranges are not among them: they stand for public addresses in examples."""


def classify(host: str) -> Kind:
    """The kind an address is on its own: ``lan``, ``ipv6`` or ``public`` (a host name is
    ``public``: nothing says it is local)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "public"
    if any(address in network for network in _LOCAL if network.version == address.version):
        return "lan"
    return "ipv6" if address.version == 6 else "public"


def how(kind: Kind) -> str:
    """How a connection of this kind is described: ``LAN``, ``IPv6``, ``hole punched``..."""
    return _HOW[kind]


def parse_address(text: str, what: str = "address") -> tuple[str, int]:
    """``HOST:PORT`` or ``[V6]:PORT`` as ``(host, port)``; :class:`CandidateError` otherwise."""
    match = _ADDRESS.match(text)
    if match is None:
        raise CandidateError(f"{what} {text[:60]!r} is not of the form HOST:PORT")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise CandidateError(f"{what} {text[:60]!r} has port {port}, not between 1 and 65535")
    return match["host"].strip("[]"), port


def format_address(host: str, port: int) -> str:
    """The inverse of :func:`parse_address`."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
