"""A lab of Linux network namespaces: an "internet", home routers, and hosts behind them.

Each test builds its own :class:`Lab` (``with Lab() as lab:``), whose namespaces carry a prefix
unique to the process and the lab, so parallel pytest workers never collide; every namespace is
deleted when the ``with`` block ends, even when the test fails.

The internet is one namespace with a bridge (``203.0.113.1/24`` and ``2001:db8::1/64``) on which
every router's WAN side and every public host sits. A :meth:`Lab.router` is a namespace with a
``wan`` and a ``lan`` interface that forwards, masquerades its LAN (IPv4 in ``100.64.N.0/24``)
behind its WAN address (``203.0.113.(10+N)``) and keeps a stateful firewall for both IPv4 and
IPv6 (its LAN is the global ``2001:db8:N::/64``, routed, not translated): what goes out and its
replies pass, unsolicited inbound packets are dropped, as home routers do. ``nat="random"``
gives a new outside port to every connection (``masquerade random``), which behaves as a
symmetric NAT; the default keeps the mapping endpoint-independent. :meth:`Lab.miniupnpd` runs
miniupnpd on a router (UPnP-IGD, NAT-PMP and PCP), as a home router that maps ports on request
does. A :meth:`Lab.home` host sits
behind a router; :meth:`Lab.run` and :meth:`Lab.wrap` run commands and processes inside a
namespace; :meth:`Lab.cut` drops every packet a router forwards to or from one address, as a
broken link would.

Only documentation and shared ranges are used (203.0.113.0/24, 100.64.0.0/10,
2001:db8::/32). Tests that need the lab call :func:`require_netlab` first: it skips with one
sentence when the machine cannot build it (not root, no ``ip netns``, no ``nft``), and fails
with that sentence instead when ``P2PCARDS_REQUIRE_NETLAB=1`` (``.ci/run`` sets it).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType

import pytest

__all__ = ["Lab", "Router", "Host", "require_netlab", "netlab_missing", "REQUIRE_ENV",
           "INTERNET_V4", "INTERNET_V6", "miniupnpd_missing", "require_miniupnpd"]

REQUIRE_ENV = "P2PCARDS_REQUIRE_NETLAB"
INTERNET_V4 = "203.0.113.1"
INTERNET_V6 = "2001:db8::1"
STUN_SECOND = "203.0.113.2"
"""The internet's second address, from which the lab's STUN server answers a change of IP."""
SKIP_PREFIX = "the network lab needs"
_labs = itertools.count(1)


def netlab_missing() -> str | None:
    """Why the lab cannot be built on this machine, in one sentence, or ``None``."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return f"{SKIP_PREFIX} root (network namespaces and nftables)"
    if shutil.which("ip") is None:
        return f"{SKIP_PREFIX} iproute2's ip command (apt-get install iproute2)"
    if shutil.which("nft") is None:
        return f"{SKIP_PREFIX} nftables' nft command (apt-get install nftables)"
    probe = f"p2cprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"{SKIP_PREFIX} ip netns, which failed here: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def require_netlab() -> None:
    """Skip the calling test when the lab cannot be built, or fail it when it is required."""
    missing = netlab_missing()
    if missing is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{missing}, and {REQUIRE_ENV}=1 requires it")
    pytest.skip(missing)


def miniupnpd_missing() -> str | None:
    """Why a router cannot run miniupnpd here, in one sentence, or ``None``."""
    missing = netlab_missing()
    if missing is None and shutil.which("miniupnpd", path="/usr/sbin:/usr/bin:/sbin:/bin") is None:
        missing = f"{SKIP_PREFIX} miniupnpd (apt-get install miniupnpd-nftables)"
    return missing


def require_miniupnpd() -> None:
    """Skip the calling test when no router can run miniupnpd, or fail it when required."""
    missing = miniupnpd_missing()
    if missing is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{missing}, and {REQUIRE_ENV}=1 requires it")
    pytest.skip(missing)


@dataclass(frozen=True)
class Router:
    """A home router: its namespace and its addresses on the internet."""

    ns: str
    index: int
    wan4: str
    wan6: str


@dataclass(frozen=True)
class Host:
    """A machine: its namespace and addresses (``v6`` is global; ``v4`` is private behind a
    router, public on the internet)."""

    ns: str
    v4: str
    v6: str
    router: Router | None = None


@dataclass
class Lab:
    """The namespaces of one test. Use as a context manager; see the module docstring."""

    prefix: str = field(default_factory=lambda: f"p2c{os.getpid() % 100000}x{next(_labs)}")
    namespaces: list[str] = field(default_factory=list)
    internet: str = ""
    _routers: int = 0
    _publics: int = 0
    daemons: list[subprocess.Popen[str]] = field(default_factory=list)
    _stun: subprocess.Popen[str] | None = None

    def __enter__(self) -> Lab:
        try:
            self.internet = self._namespace("inet")
            sh = self.run
            sh(self.internet, "ip", "link", "add", "br0", "type", "bridge")
            sh(self.internet, "ip", "addr", "add", f"{INTERNET_V4}/24", "dev", "br0")
            sh(self.internet, "ip", "-6", "addr", "add", f"{INTERNET_V6}/64", "dev", "br0",
               "nodad")
            sh(self.internet, "ip", "link", "set", "br0", "up")
            sh(self.internet, "sysctl", "-qw", "net.ipv6.conf.all.forwarding=1")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Stop the lab's daemons, then delete every namespace of this lab (their other
        processes lose their network)."""
        for daemon in self.daemons:
            if daemon.poll() is None:
                daemon.terminate()
                try:
                    daemon.wait(10)
                except subprocess.TimeoutExpired:
                    daemon.kill()
                    daemon.wait(10)
        self.daemons.clear()
        for ns in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.namespaces.clear()

    # ------------------------------------------------------------------ building

    def _namespace(self, name: str) -> str:
        ns = f"{self.prefix}{name}"
        self.run(None, "ip", "netns", "add", ns)
        self.namespaces.append(ns)
        for setting in ("net.ipv6.conf.all.accept_dad=0", "net.ipv6.conf.default.accept_dad=0",
                        "net.ipv6.conf.all.accept_ra=0", "net.ipv6.conf.default.accept_ra=0"):
            self.run(ns, "sysctl", "-qw", setting)
        self.run(ns, "ip", "link", "set", "lo", "up")
        return ns

    def _plug(self, ns: str, tag: str, name: str) -> None:
        """A veth ``name`` in ``ns`` whose other end, ``tag`` + ``name``, is a port of the
        internet's bridge."""
        port = f"{tag}{name}"
        self.run(ns, "ip", "link", "add", name, "type", "veth", "peer", "name", port, "netns",
                 self.internet)
        self.run(self.internet, "ip", "link", "set", port, "master", "br0")
        self.run(self.internet, "ip", "link", "set", port, "up")
        self.run(ns, "ip", "link", "set", name, "up")

    def router(self, *, nat: str = "keep") -> Router:
        """A home router on the internet; ``nat`` is ``keep`` (endpoint-independent mapping)
        or ``random`` (a new port per connection: a symmetric NAT)."""
        if nat not in ("keep", "random"):
            raise ValueError(f"nat must be 'keep' or 'random', not {nat!r}")
        self._routers += 1
        n = self._routers
        ns = self._namespace(f"r{n}")
        router = Router(ns, n, f"203.0.113.{10 + n}", f"2001:db8::{10 + n:x}")
        self._plug(ns, f"r{n}", "wan")
        self.run(ns, "ip", "addr", "add", f"{router.wan4}/24", "dev", "wan")
        self.run(ns, "ip", "-6", "addr", "add", f"{router.wan6}/64", "dev", "wan", "nodad")
        self.run(ns, "ip", "route", "add", "default", "via", INTERNET_V4)
        self.run(ns, "ip", "-6", "route", "add", "default", "via", INTERNET_V6)
        self.run(ns, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        self.run(ns, "sysctl", "-qw", "net.ipv6.conf.all.forwarding=1")
        self.run(self.internet, "ip", "-6", "route", "add", f"2001:db8:{n}::/64", "via",
                 router.wan6)
        masquerade = "masquerade random" if nat == "random" else "masquerade"
        self.nft(ns, f"""
            table ip nat {{
                chain post {{
                    type nat hook postrouting priority 100;
                    ip saddr 100.64.{n}.0/24 oifname "wan" {masquerade}
                }}
            }}
            table inet filter {{
                chain forward {{
                    type filter hook forward priority 0; policy drop;
                    ct state established,related accept
                    iifname "lan" accept
                }}
                chain input {{
                    type filter hook input priority 0; policy accept;
                    iifname "wan" ct state new drop
                }}
            }}
            table inet cut {{
                chain forward {{ type filter hook forward priority -10; policy accept; }}
            }}
        """)
        return router

    def home(self, router: Router) -> Host:
        """A machine on ``router``'s LAN (the router's only one: one home, one player)."""
        n = router.index
        ns = self._namespace(f"h{n}")
        host = Host(ns, f"100.64.{n}.2", f"2001:db8:{n}::2", router)
        self.run(router.ns, "ip", "link", "add", "lan", "type", "veth", "peer", "name", "eth0",
                 "netns", ns)
        self.run(router.ns, "ip", "addr", "add", f"100.64.{n}.1/24", "dev", "lan")
        self.run(router.ns, "ip", "-6", "addr", "add", f"2001:db8:{n}::1/64", "dev", "lan",
                 "nodad")
        self.run(router.ns, "ip", "link", "set", "lan", "up")
        self.run(ns, "ip", "addr", "add", f"{host.v4}/24", "dev", "eth0")
        self.run(ns, "ip", "-6", "addr", "add", f"{host.v6}/64", "dev", "eth0", "nodad")
        self.run(ns, "ip", "link", "set", "eth0", "up")
        self.run(ns, "ip", "route", "add", "default", "via", f"100.64.{n}.1")
        self.run(ns, "ip", "-6", "route", "add", "default", "via", f"2001:db8:{n}::1")
        return host

    def public(self) -> Host:
        """A machine straight on the internet (a relay's, say), no router in front."""
        self._publics += 1
        n = self._publics
        ns = self._namespace(f"p{n}")
        host = Host(ns, f"203.0.113.{100 + n}", f"2001:db8::{100 + n:x}")
        self._plug(ns, f"p{n}", "eth0")
        self.run(ns, "ip", "addr", "add", f"{host.v4}/24", "dev", "eth0")
        self.run(ns, "ip", "-6", "addr", "add", f"{host.v6}/64", "dev", "eth0", "nodad")
        self.run(ns, "ip", "route", "add", "default", "via", INTERNET_V4)
        self.run(ns, "ip", "-6", "route", "add", "default", "via", INTERNET_V6)
        return host

    def miniupnpd(self, router: Router, *, upnp: bool = True) -> subprocess.Popen[str]:
        """Run miniupnpd on ``router`` with a config of its own (external interface ``wan``,
        listening on ``lan``, NAT-PMP and PCP on, UPnP-IGD on unless ``upnp`` is false), not
        as a system service; returns once it answers on the LAN. Its mappings are nftables
        rules in the router's table ``inet miniupnpd``; forwarded packets that they translate
        pass the router's firewall. miniupnpd refuses to forward ports when its WAN address is
        in a reserved range, as every lab address is, unless STUN tells it that its WAN side is
        unfiltered: the lab's STUN server (``tests/lab_stun.py``) does."""
        self._start_stun()
        self.run(router.ns, "nft", "insert", "rule", "inet", "filter", "input", "iifname",
                 "wan", "ip", "saddr", f"{{ {INTERNET_V4}, {STUN_SECOND} }}", "udp", "sport",
                 "{ 3478, 3479 }", "accept")
        self.run(router.ns, "nft", "add", "rule", "inet", "filter", "forward", "ct", "status",
                 "dnat", "accept")
        self.nft(router.ns, """
            table inet miniupnpd {
                chain forwardupnp {
                }
                chain forward {
                    type filter hook forward priority -5; policy accept;
                    jump forwardupnp
                }
                chain preupnp {
                }
                chain postupnp {
                }
                chain prerouting {
                    type nat hook prerouting priority -100; policy accept;
                    jump preupnp
                }
                chain postrouting {
                    type nat hook postrouting priority 110; policy accept;
                    jump postupnp
                }
            }
        """)
        config = tempfile.NamedTemporaryFile(  # noqa: SIM115 (kept until the lab ends)
            "w", prefix=f"{router.ns}-", suffix=".conf", delete=False)
        with config:
            config.write("\n".join((
                "ext_ifname=wan", "listening_ip=lan", "http_port=0", "enable_natpmp=yes",
                f"enable_upnp={'yes' if upnp else 'no'}", "secure_mode=yes",
                "system_uptime=yes", f"uuid={uuid.uuid4()}", "ext_perform_stun=yes",
                f"ext_stun_host={INTERNET_V4}", "upnp_table_name=miniupnpd",
                "upnp_nat_table_name=miniupnpd", "upnp_forward_chain=forwardupnp",
                "upnp_nat_chain=preupnp", "upnp_nat_postrouting_chain=postupnp",
                f"allow 1024-65535 100.64.{router.index}.0/24 1024-65535",
                "deny 0-65535 0.0.0.0/0 0-65535", "")))
        daemon = subprocess.Popen(
            [*self.wrap(router.ns), "miniupnpd", "-d", "-f", config.name, "-P",
             f"{config.name}.pid"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            text=True)
        self.daemons.append(daemon)
        self._wait_listening(router.ns, "udp", 5351, daemon)
        return daemon

    def _start_stun(self) -> None:
        """The STUN server on the internet's two addresses (once per lab)."""
        if self._stun is not None:
            return
        self.run(self.internet, "ip", "addr", "add", f"{STUN_SECOND}/24", "dev", "br0")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lab_stun.py")
        self._stun = subprocess.Popen(
            [*self.wrap(self.internet), sys.executable, script, INTERNET_V4, STUN_SECOND],
            stdout=subprocess.PIPE, text=True)
        self.daemons.append(self._stun)
        assert self._stun.stdout is not None
        if self._stun.stdout.readline().strip() != "stun: ready":
            raise RuntimeError("the lab's STUN server did not start")

    def _wait_listening(self, ns: str, protocol: str, port: int,
                        daemon: subprocess.Popen[str]) -> None:
        """Return once something in ``ns`` listens on ``protocol`` ``port``."""
        for _ in range(600):
            if daemon.poll() is not None:
                raise RuntimeError(f"miniupnpd in {ns} exited with status {daemon.returncode}")
            sockets = self.run(ns, "ss", "-lnH", "--udp" if protocol == "udp" else "--tcp")
            if any(line.split()[3].endswith(f":{port}") for line in sockets.splitlines()
                   if len(line.split()) > 3):
                return
            subprocess.run(["sleep", "0.1"], check=True)
        raise RuntimeError(f"miniupnpd in {ns} never listened on {protocol} port {port}")

    def mappings(self, router: Router) -> str:
        """The port forwardings miniupnpd holds on ``router`` (its nftables DNAT rules)."""
        return self.run(router.ns, "nft", "list", "chain", "inet", "miniupnpd", "preupnp")

    # ------------------------------------------------------------------ using

    def cut(self, router: Router, address: str) -> None:
        """Drop every packet ``router`` forwards to or from ``address`` (a link cut mid-test)."""
        family = "ip6" if ":" in address else "ip"
        for way in ("saddr", "daddr"):
            self.run(router.ns, "nft", "add", "rule", "inet", "cut", "forward", family, way,
                     address, "drop")

    def heal(self, router: Router) -> None:
        """Undo every :meth:`cut` of ``router``."""
        self.run(router.ns, "nft", "flush", "chain", "inet", "cut", "forward")

    def nft(self, ns: str, ruleset: str) -> None:
        """Load an nftables ruleset into ``ns``."""
        done = subprocess.run([*self.wrap(ns), "nft", "-f", "-"], input=ruleset, text=True,
                              capture_output=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"nft -f in {ns} failed: {done.stderr.strip()}")

    @staticmethod
    def wrap(ns: str) -> tuple[str, ...]:
        """The command prefix that runs a program inside ``ns``."""
        return ("ip", "netns", "exec", ns)

    def run(self, ns: str | None, *command: str) -> str:
        """Run ``command`` (in ``ns``, or the machine's own namespace for ``None``); its
        output. A failure raises with the command and its error output."""
        full: Sequence[str] = [*(self.wrap(ns) if ns else ()), *command]
        done = subprocess.run(full, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(full)} failed: {done.stderr.strip()}")
        return done.stdout
