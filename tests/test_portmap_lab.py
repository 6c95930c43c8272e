"""Port mapping through a real home router of the network lab that runs miniupnpd.

The host sits behind a router that drops unsolicited packets; the joiner sits on the internet
and can reach the host only through the port the router maps on the host's request. Whole
matches of 2-seat Briscola between real processes, verified afterwards; the mapping is gone
once the host has exited.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from netlab import Lab, require_miniupnpd
from test_net_processes import BRISCOLA_2, Peer

from p2pcards.verify import verify_transcript

INVITE = r"^p2pcards join '?([^' ]+)'?$"


@pytest.mark.parametrize(("upnp", "method"), [(True, "UPnP-IGD"), (False, "PCP")])
def test_a_joiner_on_the_internet_reaches_the_host_through_the_mapped_port(
        tmp_path: Path, upnp: bool, method: str) -> None:
    require_miniupnpd()
    with Lab() as lab:
        router = lab.router()
        home = lab.home(router)
        outside = lab.public()
        lab.miniupnpd(router, upnp=upnp)

        hosting = Peer(tmp_path / "host", "host", *BRISCOLA_2, "--bot", "--listen",
                       "0.0.0.0:7447", "--advertise", home.v4, "--ephemeral-identity",
                       wrap=lab.wrap(home.ns))
        try:
            seen = hosting.wait_for(r"^port mapping: (\S+) maps (\S+):(\d+) on the router")
            assert seen.groups() == (method, router.wan4, "7447")
            invite = hosting.wait_for(INVITE)[1]
            assert f"m~{router.wan4}:7447" in invite  # the mapped port is one more candidate
            assert "dport 7447" in lab.mappings(router)
            guest = Peer(tmp_path / "guest", "join", invite, "--bot", "--ephemeral-identity",
                         wrap=lab.wrap(outside.ns))
            assert (guest.finish(), hosting.finish()) == (0, 0), (guest.stderr, hosting.stderr)
            assert any(line.startswith("connection: direct (port mapping)") for line in guest.out)
        finally:
            hosting.kill()
        assert verify_transcript(hosting.transcript()).status == "valid"
        assert "Traceback" not in hosting.stderr + guest.stderr
        assert "dport 7447" not in lab.mappings(router)


NATPMP = """
import sys, trio
from p2pcards.net.portmap import PcpMapper
async def main() -> None:
    mapper = PcpMapper(7448, sys.argv[1])
    mapper.method = "NAT-PMP"
    granted = await mapper.map(120)
    print("mapped", granted.external_address, granted.external_port, granted.lifetime,
          flush=True)
    sys.stdin.readline()
    await mapper.unmap()
    print("removed", flush=True)
trio.run(main)
"""


def test_nat_pmp_maps_and_removes_a_port_on_a_router_without_upnp() -> None:
    require_miniupnpd()
    with Lab() as lab:
        router = lab.router()
        home = lab.home(router)
        lab.miniupnpd(router, upnp=False)
        process = subprocess.Popen([*lab.wrap(home.ns), sys.executable, "-c", NATPMP,
                                    f"100.64.{router.index}.1"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stdin is not None
        line = process.stdout.readline()
        assert re.fullmatch(rf"mapped {re.escape(router.wan4)} 7448 \d+\n", line), (
            line, process.stderr.read() if process.poll() is not None else "")
        assert "dport 7448" in lab.mappings(router)
        process.stdin.write("\n")
        process.stdin.flush()
        out, err = process.communicate(timeout=60)
        assert out == "removed\n", err
        assert "dport 7448" not in lab.mappings(router)


def test_ctrl_c_removes_the_mapping_and_no_port_mapping_asks_for_none(tmp_path: Path) -> None:
    require_miniupnpd()
    with Lab() as lab:
        router = lab.router()
        home = lab.home(router)
        lab.miniupnpd(router)

        hosting = Peer(tmp_path / "host", "host", *BRISCOLA_2, "--bot", "--listen",
                       "0.0.0.0:7449", "--advertise", home.v4, "--ephemeral-identity",
                       wrap=lab.wrap(home.ns))
        try:
            hosting.wait_for(r"^port mapping: \S+ maps ")
            assert "dport 7449" in lab.mappings(router)
            hosting.process.send_signal(signal.SIGINT)
            assert hosting.finish() != 0
        finally:
            hosting.kill()
        assert "dport 7449" not in lab.mappings(router)
        assert "Traceback" not in hosting.stderr

        plain = Peer(tmp_path / "plain", "host", *BRISCOLA_2, "--bot", "--listen",
                     "0.0.0.0:7450", "--advertise", home.v4, "--ephemeral-identity",
                     "--no-port-mapping", wrap=lab.wrap(home.ns))
        try:
            plain.wait_for(r"^p2pcards join ")
            assert "dport 7450" not in lab.mappings(router)
        finally:
            plain.kill()
        assert not any(line.startswith("port mapping") for line in plain.out)
