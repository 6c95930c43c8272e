"""NAT-PMP (RFC 6886) and PCP (RFC 6887) messages for one TCP port mapping, without any I/O.

This module only turns requests into bytes and answers into values: the UDP exchange with the
gateway lives in :mod:`p2pcards.net.portmap`. Every answer that is malformed, does not match the
request, or reports a refusal raises :class:`PortMapRefused` with one sentence naming what is
wrong.
"""

from __future__ import annotations

import ipaddress
import struct
from dataclasses import dataclass

NATPMP_PORT = 5351
"""The UDP port on the default gateway where NAT-PMP and PCP servers listen."""

NATPMP_VERSION = 0
PCP_VERSION = 2
OP_EXTERNAL_ADDRESS = 0
OP_MAP_TCP = 2
PCP_OP_MAP = 1
PROTOCOL_TCP = 6
RESPONSE_BIT = 0x80

NATPMP_RESULTS = {
    1: "unsupported version",
    2: "not authorized or refused",
    3: "network failure",
    4: "out of resources",
    5: "unsupported opcode",
}
PCP_RESULTS = {
    1: "unsupported version",
    2: "not authorized",
    3: "malformed request",
    4: "unsupported opcode",
    5: "unsupported option",
    6: "malformed option",
    7: "network failure",
    8: "no resources",
    9: "unsupported protocol",
    10: "user exceeded quota",
    11: "cannot provide the external port or address",
    12: "address mismatch",
    13: "excessive remote peers",
}


class PortMapRefused(Exception):
    """The gateway refused a mapping or answered something that cannot be used."""


@dataclass(frozen=True)
class Mapping:
    """A TCP mapping the gateway granted: external port and lease in seconds."""

    internal_port: int
    external_port: int
    lifetime: int
    external_address: str | None = None


def natpmp_external_address_request() -> bytes:
    """The two-byte NAT-PMP request for the gateway's external IPv4 address (RFC 6886 §3.2)."""
    return struct.pack("!BB", NATPMP_VERSION, OP_EXTERNAL_ADDRESS)


def natpmp_map_request(internal_port: int, external_port: int, lifetime: int) -> bytes:
    """The 12-byte NAT-PMP request to map a TCP port (RFC 6886 §3.3).

    A lifetime of 0 with external port 0 deletes the mapping of ``internal_port``.
    """
    _check_port("internal port", internal_port, allow_zero=False)
    _check_port("suggested external port", external_port, allow_zero=True)
    return struct.pack("!BBHHHI", NATPMP_VERSION, OP_MAP_TCP, 0, internal_port,
                       external_port, lifetime)


def natpmp_delete_request(internal_port: int) -> bytes:
    """The NAT-PMP request that removes the TCP mapping of ``internal_port`` (RFC 6886 §3.4)."""
    return natpmp_map_request(internal_port, 0, 0)


def parse_natpmp_external_address(answer: bytes) -> str:
    """The external IPv4 address from a NAT-PMP answer to the address request."""
    _natpmp_header(answer, OP_EXTERNAL_ADDRESS, 12)
    return str(ipaddress.IPv4Address(answer[8:12]))


def parse_natpmp_map(answer: bytes, internal_port: int) -> Mapping:
    """The mapping granted in a NAT-PMP answer to a TCP map request for ``internal_port``."""
    _natpmp_header(answer, OP_MAP_TCP, 16)
    inside, outside, lifetime = struct.unpack("!HHI", answer[8:16])
    if inside != internal_port:
        raise PortMapRefused(f"the NAT-PMP answer is for internal port {inside}, "
                             f"not the requested {internal_port}")
    return Mapping(inside, outside, lifetime)


def _natpmp_header(answer: bytes, opcode: int, size: int) -> None:
    """Check a NAT-PMP answer's version, opcode, size and result code."""
    if len(answer) < 4:
        raise PortMapRefused(f"the NAT-PMP answer has {len(answer)} bytes, too few for a header")
    version, op, result = struct.unpack("!BBH", answer[:4])
    if version != NATPMP_VERSION:
        raise PortMapRefused(f"the NAT-PMP answer has version {version}, not {NATPMP_VERSION}")
    if op != RESPONSE_BIT | opcode:
        raise PortMapRefused(f"the NAT-PMP answer has opcode {op}, not {RESPONSE_BIT | opcode}")
    if result != 0:
        reason = NATPMP_RESULTS.get(result, "an unknown result code")
        raise PortMapRefused(f"the gateway refused by NAT-PMP: {reason} (code {result})")
    if len(answer) < size:
        raise PortMapRefused(f"the NAT-PMP answer has {len(answer)} bytes, not {size}")


def pcp_map_request(client_address: str, nonce: bytes, internal_port: int,
                    external_port: int, lifetime: int) -> bytes:
    """The 60-byte PCP MAP request for a TCP port (RFC 6887 §7.1 and §11.1).

    ``client_address`` is the host's own address towards the gateway (an IPv4 address is
    written IPv4-mapped); ``nonce`` is 12 random bytes that the answer must echo. A lifetime of
    0 deletes the mapping. The suggested external address is left all zero (any).
    """
    if len(nonce) != 12:
        raise ValueError(f"a PCP mapping nonce has 12 bytes, not {len(nonce)}")
    _check_port("internal port", internal_port, allow_zero=False)
    _check_port("suggested external port", external_port, allow_zero=True)
    header = struct.pack("!BBHI", PCP_VERSION, PCP_OP_MAP, 0, lifetime)
    header += _ip16(client_address)
    payload = nonce + struct.pack("!B3xHH", PROTOCOL_TCP, internal_port, external_port)
    payload += bytes(16)
    return header + payload


def parse_pcp_map(answer: bytes, nonce: bytes, internal_port: int) -> Mapping:
    """The mapping granted in a PCP answer to a MAP request with ``nonce``."""
    if len(answer) >= 4 and answer[0] == NATPMP_VERSION and answer[3] == 1:
        raise PortMapRefused("the gateway speaks NAT-PMP only, not PCP (unsupported version)")
    if len(answer) < 24:
        raise PortMapRefused(f"the PCP answer has {len(answer)} bytes, too few for a header")
    version, op, result, lifetime = struct.unpack("!BBxBI", answer[:8])
    if version != PCP_VERSION:
        raise PortMapRefused(f"the PCP answer has version {version}, not {PCP_VERSION}")
    if op != RESPONSE_BIT | PCP_OP_MAP:
        raise PortMapRefused(f"the PCP answer has opcode {op}, not {RESPONSE_BIT | PCP_OP_MAP}")
    if result != 0:
        reason = PCP_RESULTS.get(result, "an unknown result code")
        raise PortMapRefused(f"the gateway refused by PCP: {reason} (code {result})")
    if len(answer) < 60:
        raise PortMapRefused(f"the PCP MAP answer has {len(answer)} bytes, not 60")
    if answer[24:36] != nonce:
        raise PortMapRefused("the PCP answer carries another mapping nonce than the request")
    protocol, inside, outside = struct.unpack("!B3xHH", answer[36:44])
    if protocol != PROTOCOL_TCP or inside != internal_port:
        raise PortMapRefused(f"the PCP answer maps protocol {protocol} port {inside}, "
                             f"not TCP port {internal_port}")
    return Mapping(inside, outside, lifetime, _unmap(answer[44:60]))


def _ip16(address: str) -> bytes:
    """An address as PCP's 16 bytes: IPv6 as is, IPv4 as ::ffff:a.b.c.d."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv4Address):
        return bytes(10) + b"\xff\xff" + ip.packed
    return ip.packed


def _unmap(raw: bytes) -> str:
    """PCP's 16 address bytes as text, IPv4-mapped addresses as plain IPv4."""
    ip = ipaddress.IPv6Address(raw)
    return str(ip.ipv4_mapped) if ip.ipv4_mapped is not None else str(ip)


def _check_port(what: str, port: int, *, allow_zero: bool) -> None:
    """Refuse a port number outside 1..65535 (or 0..65535 where 0 means any)."""
    low = 0 if allow_zero else 1
    if not low <= port <= 65535:
        raise ValueError(f"the {what} {port} is outside {low}..65535")
