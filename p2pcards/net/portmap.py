"""Ask the home router to forward the host's listening TCP port while a table lives.

Two ways are tried, in order, within one short budget (hosting is never delayed by more than
about :data:`BUDGET` seconds):

1. UPnP-IGD through the ``miniupnpc`` binding (SSDP discovery, then SOAP to the router). Its
   calls block, so they run in a worker thread, each under a timeout.
2. PCP (RFC 6887), and NAT-PMP (RFC 6886) when the gateway speaks only that, over UDP to the
   default gateway's port 5351; the messages are in :mod:`.natpmp`.

:func:`hold_port_mapping` gets a mapping, renews it at half its lease while the table lives
and removes it when the table ends, also on Ctrl-C and errors. :func:`mapped_address` is the
external ``(host, port)`` a joiner on the internet reaches the table at.
"""

from __future__ import annotations

import ipaddress
import math
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import trio

from ..i18n import pgettext
from . import natpmp
from .natpmp import Mapping, PortMapRefused

__all__ = ["BUDGET", "LEASE", "PortMapping", "hold_port_mapping", "mapped_address",
           "wants_port_mapping", "default_gateway"]

BUDGET = 2.0
"""Seconds the host waits at most, before it prints its invite, for a router to map its port."""
LEASE = 3600
"""Seconds of lease asked for; the mapping is renewed at half of what the router grants."""
REMOVE_TIMEOUT = 2.0
"""Seconds the removal of a mapping may take when the table ends."""
DESCRIPTION = "p2pcards table"
"""The name the mapping carries in the router's list of UPnP mappings."""

Notice = Callable[[str], None]


class PortMapper(Protocol):
    """One way to map a port: ``map`` asks for (or renews) the mapping, ``unmap`` removes it."""

    method: str

    async def map(self, lifetime: int) -> Mapping: ...

    async def unmap(self) -> None: ...


@dataclass(frozen=True)
class PortMapping:
    """A granted mapping: how it was made and the external address it opens."""

    method: str
    external_host: str
    external_port: int
    lifetime: int

    @property
    def where(self) -> str:
        """``HOST:PORT`` of the external side."""
        return f"{self.external_host}:{self.external_port}"


def mapped_address(mapping: PortMapping) -> tuple[str, int]:
    """The external address and port a joiner on the internet reaches the table at (the
    ``mapped`` address candidate of the invite)."""
    return mapping.external_host, mapping.external_port


def wants_port_mapping(listen_host: str) -> bool:
    """Whether a host listening on ``listen_host`` should ask its router for a mapping: not when
    it listens on loopback only (nobody outside the machine can connect anyway)."""
    try:
        return not ipaddress.ip_address(listen_host or "0.0.0.0").is_loopback
    except ValueError:
        return listen_host != "localhost"


def default_gateway(route_table: str | None = None) -> str | None:
    """The IPv4 default gateway from Linux's ``/proc/net/route`` (or the text given), if any."""
    if route_table is None:
        try:
            route_table = Path("/proc/net/route").read_text()
        except OSError:
            return None
    for line in route_table.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 3 and fields[1] == "00000000" and fields[2] != "00000000":
            return str(ipaddress.IPv4Address(bytes.fromhex(fields[2])[::-1]))
    return None


class UpnpMapper:
    """A TCP mapping through a UPnP Internet Gateway Device, with ``miniupnpc``."""

    method = "UPnP-IGD"

    def __init__(self, port: int, client: Any, external_host: str) -> None:
        self.port = port
        self.external_port = port
        self._client = client
        self.external_host = external_host

    @classmethod
    async def discover(cls, port: int, seconds: float) -> UpnpMapper:
        """Find the router by SSDP within ``seconds``; raises :class:`PortMapRefused`."""
        import miniupnpc  # type: ignore[import-not-found]

        def find() -> tuple[Any, str]:
            client = miniupnpc.UPnP()
            client.discoverdelay = max(100, int(seconds * 600))
            if client.discover() == 0:
                raise PortMapRefused("no UPnP-IGD router answered on the LAN")
            client.selectigd()
            return client, str(client.externalipaddress())

        client, external = await _in_thread(find, seconds, "UPnP-IGD discovery")
        return cls(port, client, external)

    async def map(self, lifetime: int) -> Mapping:
        def add() -> None:
            self._client.addportmapping(self.external_port, "TCP", self._client.lanaddr,
                                        self.port, DESCRIPTION, "", lifetime)

        await _in_thread(add, REMOVE_TIMEOUT, "the UPnP-IGD mapping request")
        return Mapping(self.port, self.external_port, lifetime, self.external_host)

    async def unmap(self) -> None:
        await _in_thread(lambda: self._client.deleteportmapping(self.external_port, "TCP"),
                         REMOVE_TIMEOUT, "the UPnP-IGD removal")


class PcpMapper:
    """A TCP mapping by PCP, or NAT-PMP once the gateway answered PCP with its version 0."""

    def __init__(self, port: int, gateway: str) -> None:
        self.port = port
        self.gateway = gateway
        self.nonce = secrets.token_bytes(12)
        self.method = "PCP"
        self._external_host: str | None = None

    async def map(self, lifetime: int) -> Mapping:
        if self.method == "PCP":
            try:
                return await self._pcp(lifetime)
            except PortMapRefused as refusal:
                if "NAT-PMP only" not in str(refusal):
                    raise
                self.method = "NAT-PMP"
        return await self._natpmp(lifetime)

    async def unmap(self) -> None:
        if self.method == "PCP":
            await self._pcp(0)
        else:
            await _exchange(self.gateway, natpmp.natpmp_delete_request(self.port))

    async def _pcp(self, lifetime: int) -> Mapping:
        own = _source_address(self.gateway)
        request = natpmp.pcp_map_request(own, self.nonce, self.port, self.port, lifetime)
        return natpmp.parse_pcp_map(await _exchange(self.gateway, request), self.nonce,
                                    self.port)

    async def _natpmp(self, lifetime: int) -> Mapping:
        if self._external_host is None:
            answer = await _exchange(self.gateway, natpmp.natpmp_external_address_request())
            self._external_host = natpmp.parse_natpmp_external_address(answer)
        request = natpmp.natpmp_map_request(self.port, self.port, lifetime)
        mapping = natpmp.parse_natpmp_map(await _exchange(self.gateway, request), self.port)
        return Mapping(mapping.internal_port, mapping.external_port, mapping.lifetime,
                       self._external_host)


async def _exchange(gateway: str, request: bytes, *, first_wait: float = 0.25,
                    tries: int = 3) -> bytes:
    """Send ``request`` to the gateway's port 5351 and return its answer, resending after
    0.25 s, 0.5 s, ... (RFC 6886 §3.1). Raises :class:`PortMapRefused` on silence or when the
    gateway's port is closed."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with sock:
        try:
            await sock.connect((gateway, natpmp.NATPMP_PORT))
            wait = first_wait
            for _ in range(tries):
                await sock.send(request)
                with trio.move_on_after(wait):
                    return await sock.recv(1100)
                wait *= 2
        except OSError as error:
            raise PortMapRefused(f"the gateway {gateway} refused NAT-PMP/PCP: "
                                 f"{error.strerror or error}") from None
    raise PortMapRefused(f"the gateway {gateway} did not answer NAT-PMP/PCP")


def _source_address(gateway: str) -> str:
    """This machine's address towards ``gateway`` (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect((gateway, natpmp.NATPMP_PORT))
        return str(probe.getsockname()[0])
    finally:
        probe.close()


async def _in_thread(call: Callable[[], Any], seconds: float, what: str) -> Any:
    """Run a blocking ``call`` in a worker thread; past ``seconds`` give up on it (the thread
    is left to finish on its own) and raise :class:`PortMapRefused`."""
    with trio.move_on_after(seconds):
        try:
            return await trio.to_thread.run_sync(call, abandon_on_cancel=True)
        except PortMapRefused:
            raise
        except Exception as error:  # miniupnpc raises bare Exception with the router's text
            raise PortMapRefused(f"{what} failed: {error}") from None
    raise PortMapRefused(f"{what} took more than {seconds:g} s")


async def _first_mapping(port: int, budget: float,
                         upnp: bool) -> tuple[PortMapper, Mapping] | str:
    """The first way that maps ``port`` within ``budget`` seconds, or why none did."""
    reasons: list[str] = []
    deadline = trio.current_time() + budget
    attempts: list[Callable[[], Awaitable[PortMapper]]] = []
    if upnp:
        attempts.append(lambda: UpnpMapper.discover(port, budget * 0.6))
    gateway = default_gateway()
    if gateway is not None:
        attempts.append(lambda: _pcp_mapper(port, gateway))
    else:
        reasons.append("no IPv4 default gateway for NAT-PMP/PCP")
    for attempt in attempts:
        with trio.move_on_at(deadline):
            try:
                mapper = await attempt()
                return mapper, await mapper.map(LEASE)
            except PortMapRefused as refusal:
                reasons.append(str(refusal))
                continue
        reasons.append("the time for port mapping ran out")
        break
    return "; ".join(reasons) or "no way to map a port"


async def _pcp_mapper(port: int, gateway: str) -> PortMapper:
    return PcpMapper(port, gateway)


async def hold_port_mapping(port: int, notice: Notice, *, budget: float = BUDGET,
                            upnp: bool = True,
                            task_status: trio.TaskStatus[PortMapping | None]
                            = trio.TASK_STATUS_IGNORED) -> None:
    """Map TCP ``port`` on the router for as long as this task runs (start it with
    ``nursery.start``): reports the :class:`PortMapping`, or ``None`` when no router mapped it
    within ``budget`` seconds, then renews it at half its lease and removes it when cancelled.
    Prints one ``port mapping:`` line either way, and one when a renewal fails."""
    found = await _first_mapping(port, budget, upnp)
    if isinstance(found, str):
        notice(pgettext("network", "port mapping: none ({why})").format(why=found))
        task_status.started(None)
        return
    mapper, granted = found
    mapping = PortMapping(mapper.method, granted.external_address or "?",
                          granted.external_port, granted.lifetime)
    notice(pgettext("network", "port mapping: {method} maps {where} on the router to this "
                    "table (lease {lease} s)").format(method=mapper.method, where=mapping.where,
                                                      lease=granted.lifetime))
    task_status.started(mapping)
    try:
        await _renew(mapper, granted.lifetime, notice)
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(REMOVE_TIMEOUT):
            try:
                await mapper.unmap()
            except PortMapRefused as refusal:
                notice(pgettext("network", "port mapping: could not remove it ({why})").format(
                    why=refusal))


async def _renew(mapper: PortMapper, lifetime: int, notice: Notice) -> None:
    """Renew the mapping at half its lease until cancelled (forever when the lease is 0)."""
    while True:
        await trio.sleep(lifetime / 2 if lifetime > 0 else math.inf)
        try:
            lifetime = (await mapper.map(LEASE)).lifetime
        except PortMapRefused as refusal:
            notice(pgettext("network", "port mapping: renewal failed ({why}); retrying in 60 "
                            "s").format(why=refusal))
            lifetime = 120
