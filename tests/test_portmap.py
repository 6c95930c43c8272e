"""The port-mapping module's pure parts and its renewal schedule (on Trio's virtual clock)."""

from __future__ import annotations

import trio
import trio.testing

from p2pcards.net.natpmp import Mapping, PortMapRefused
from p2pcards.net.portmap import (
    PortMapping,
    _renew,
    default_gateway,
    mapped_address,
    wants_port_mapping,
)

ROUTES = """Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
eth0\t00020064\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
eth0\t00000000\t01024064\t0003\t0\t0\t0\t00000000\t0\t0\t0
"""


def test_default_gateway_is_read_from_the_route_table() -> None:
    assert default_gateway(ROUTES) == "100.64.2.1"
    assert default_gateway(ROUTES.splitlines()[0] + "\n") is None


def test_loopback_hosts_ask_for_no_mapping() -> None:
    assert not wants_port_mapping("127.0.0.1")
    assert not wants_port_mapping("::1")
    assert not wants_port_mapping("localhost")
    assert wants_port_mapping("0.0.0.0")
    assert wants_port_mapping("")
    assert wants_port_mapping("100.64.1.2")


def test_mapped_address_is_the_external_side() -> None:
    mapping = PortMapping("PCP", "203.0.113.11", 40000, 3600)
    assert mapped_address(mapping) == ("203.0.113.11", 40000)
    assert mapping.where == "203.0.113.11:40000"


class CountingMapper:
    """A router that grants ``lease`` seconds and refuses the renewals listed in ``refuse``."""

    method = "test"

    def __init__(self, lease: int, refuse: set[int]) -> None:
        self.lease = lease
        self.refuse = refuse
        self.times: list[float] = []

    async def map(self, lifetime: int) -> Mapping:
        self.times.append(trio.current_time())
        if len(self.times) in self.refuse:
            raise PortMapRefused("the gateway refused by PCP: no resources (code 8)")
        return Mapping(7447, 7447, self.lease)

    async def unmap(self) -> None:
        raise AssertionError("renewal never removes")


def test_renewal_comes_at_half_the_lease_and_retries_after_a_refusal() -> None:
    mapper = CountingMapper(lease=100, refuse={2})
    lines: list[str] = []

    async def main() -> None:
        with trio.move_on_after(300):
            await _renew(mapper, 100, lines.append)

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    assert mapper.times == [50, 100, 160, 210, 260]
    assert lines == ["port mapping: renewal failed (the gateway refused by PCP: no resources "
                     "(code 8)); retrying in 60 s"]
