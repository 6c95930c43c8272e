"""The network lab does what :mod:`netlab` claims: home routers let their hosts out, answer
them, drop what nobody asked for, and map ports as configured; a cut link drops packets."""

from __future__ import annotations

import subprocess
import sys

from netlab import Lab, require_netlab

LISTEN = """
import socket, sys
family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
server = socket.socket(family)
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind((sys.argv[1], int(sys.argv[2])))
server.listen()
print("listening", flush=True)
while True:
    conn, peer = server.accept()
    print("from", peer[0], peer[1], flush=True)
    conn.close()
"""

CONNECT = """
import socket, sys
family = socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET
s = socket.socket(family)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
if len(sys.argv) > 4:
    s.bind(("", int(sys.argv[4])))
s.settimeout(float(sys.argv[3]))
try:
    s.connect((sys.argv[1], int(sys.argv[2])))
    print("connected", flush=True)
except OSError as exc:
    print("failed", type(exc).__name__, flush=True)
"""


class Listener:
    """A TCP server in a namespace that prints the address of every connection it accepts."""

    def __init__(self, lab: Lab, ns: str, address: str, port: int) -> None:
        self.process = subprocess.Popen(
            [*lab.wrap(ns), sys.executable, "-c", LISTEN, address, str(port)],
            stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "listening"

    def peers(self, expected: int) -> list[tuple[str, int]]:
        """The addresses of the first ``expected`` connections (waits for them, since a
        connection is up before the server's accept prints it), then any more the server
        printed by then; stops the server."""
        assert self.process.stdout is not None
        lines = [self.process.stdout.readline() for _ in range(expected)]
        self.process.terminate()
        out, _ = self.process.communicate(timeout=120)
        return [(line.split()[1], int(line.split()[2])) for line in lines + out.splitlines()
                if line.startswith("from ")]


def connect(lab: Lab, ns: str, address: str, port: int, local_port: int | None = None) -> bool:
    """Whether a TCP connection comes up (20 s at most: only a dropped packet takes so long)."""
    extra = [] if local_port is None else [str(local_port)]
    out = lab.run(ns, sys.executable, "-c", CONNECT, address, str(port), "20", *extra)
    return out.strip() == "connected"


def dropped(lab: Lab, ns: str, address: str, port: int) -> bool:
    """Whether a TCP connection fails to come up within 2 s (its packets are dropped)."""
    out = lab.run(ns, sys.executable, "-c", CONNECT, address, str(port), "2")
    return out.strip() != "connected"


def test_home_routers_let_hosts_out_and_keep_unsolicited_packets_out() -> None:
    require_netlab()
    with Lab() as lab:
        keep = lab.router()
        random = lab.router(nat="random")
        alice, bob = lab.home(keep), lab.home(random)
        server = lab.public()

        listener = Listener(lab, server.ns, server.v4, 9000)
        assert connect(lab, alice.ns, server.v4, 9000, local_port=40000)
        assert connect(lab, alice.ns, server.v4, 9000, local_port=40000)
        assert connect(lab, bob.ns, server.v4, 9000, local_port=40001)
        assert connect(lab, bob.ns, server.v4, 9000, local_port=40001)
        seen = listener.peers(4)
        alice_seen = [p for p in seen if p[0] == keep.wan4]
        bob_seen = [p for p in seen if p[0] == random.wan4]
        assert len(alice_seen) == len(bob_seen) == 2
        assert alice_seen[0] == alice_seen[1]  # endpoint-independent: one mapping
        assert bob_seen[0][1] != bob_seen[1][1]  # random: a new port per connection

        inside = Listener(lab, alice.ns, "0.0.0.0", 9001)
        assert dropped(lab, server.ns, keep.wan4, 9001)  # nothing forwarded in
        assert dropped(lab, server.ns, alice.v4, 9001)  # the LAN is not routed
        assert dropped(lab, bob.ns, keep.wan4, 9001)
        assert inside.peers(0) == []


def test_ipv6_is_routed_but_firewalled_and_a_cut_drops_a_link() -> None:
    require_netlab()
    with Lab() as lab:
        router = lab.router()
        alice = lab.home(router)
        server = lab.public()

        outside = Listener(lab, server.ns, "::", 9000)
        assert connect(lab, alice.ns, server.v6, 9000)
        assert [address for address, _ in outside.peers(1)] == [alice.v6]  # routed, no NAT
        inside = Listener(lab, alice.ns, "::", 9001)
        assert dropped(lab, server.ns, alice.v6, 9001)
        assert inside.peers(0) == []

        again = Listener(lab, server.ns, server.v4, 9002)
        lab.cut(router, server.v4)
        assert dropped(lab, alice.ns, server.v4, 9002)
        lab.heal(router)
        assert connect(lab, alice.ns, server.v4, 9002)
        assert [address for address, _ in again.peers(1)] == [router.wan4]
        assert lab.run(alice.ns, "ip", "-6", "addr").count("tentative") == 0
