"""Direct play across home routers: for each NAT pair of the network lab, how often a joiner
ends up directly connected, and how long it takes from ``join`` to seated.

Needs root, iproute2 and nftables (the lab of ``tests/netlab.py``). For each pair the lab is
built once: a relay on the lab's internet, a host behind router A, a joiner behind router B.
Each attempt starts a bot host (``--relay``) and a bot joiner of a 2-seat Briscola table, reads
the joiner's ``connection:`` line and the time from starting ``join`` to its ``seated`` line,
then stops both. Printed per pair: how many attempts went direct (and how), the median and
largest time to seated. Nothing here asserts: the figures go to the report.

    python benchmarks/netlab.py [--attempts 20] [--pairs keep-keep,keep-random,...]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from netlab import (  # noqa: E402
    INTERNET_V4,
    INTERNET_V6,
    Lab,
    miniupnpd_missing,
    netlab_missing,
)

PAIRS = {
    "keep-keep": ("keep", "keep", INTERNET_V4, (), None),
    "keep-random": ("keep", "random", INTERNET_V4, (), None),
    "random-random": ("random", "random", INTERNET_V4, (), None),
    "ipv6": ("keep", "keep", INTERNET_V6, (), None),
    "upnp-random": ("random", "random", INTERNET_V4, (), "upnp"),
    "pcp-random": ("random", "random", INTERNET_V4, (), "pcp"),
    "relay-only": ("keep", "keep", INTERNET_V4, ("--relay-only",), None),
}
"""Router A's and B's mapping, the relay's address, more host options (``relay-only``: the
baseline, every table through the relay) and what router A maps on request: ``upnp``
(miniupnpd with UPnP-IGD, NAT-PMP and PCP), ``pcp`` (miniupnpd with NAT-PMP and PCP only) or
nothing. The two mapping pairs put both players behind routers that map at random, where only
the mapped port can make the table direct."""
BRISCOLA_2 = ("--game", "briscola", "--variant", "italian", "--players", "2")
WAIT = 120.0
ONE_ADDRESS_CAPS = ("--max-rooms-per-address", "999", "--max-connections-per-address", "4000")
"""Every attempt's host comes from router A's one address, and a stopped host's room outlives
it for a while: the relay's per-address caps would refuse the later attempts."""


def _lines_until(process: subprocess.Popen[str], pattern: str) -> tuple[str, float]:
    """The first stdout line matching ``pattern`` and when it came (monotonic)."""
    assert process.stdout is not None
    end = time.monotonic() + WAIT
    regex = re.compile(pattern)
    while time.monotonic() < end:
        line = process.stdout.readline()
        if not line:
            break
        if regex.search(line):
            return line.strip(), time.monotonic()
    raise RuntimeError(f"no line matching {pattern!r}")


def _start(lab: Lab, ns: str, home: Path, *args: str,
           errors: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    return subprocess.Popen([*lab.wrap(ns), sys.executable, "-m", "p2pcards", *args],
                            env=dict(os.environ, P2PCARDS_HOME=str(home), PYTHONUNBUFFERED="1",
                                     PYTHONPATH=str(ROOT)),
                            text=True, stdout=subprocess.PIPE, stderr=errors,
                            stdin=subprocess.DEVNULL)


def _relay_listening(relay: subprocess.Popen[str]) -> None:
    """Wait for the relay's ``event=listening`` log line (on its standard error)."""
    assert relay.stderr is not None
    for line in relay.stderr:
        if line.startswith("event=listening"):
            threading.Thread(target=relay.stderr.read, daemon=True).start()  # keep it drained
            return
    raise RuntimeError("the relay did not start")


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()


def attempt(lab: Lab, host_ns: str, join_ns: str, relay: str, home: Path,
            options: tuple[str, ...]) -> tuple[str, float]:
    """One table: the joiner's ``connection:`` line and seconds from ``join`` to seated."""
    hosting = _start(lab, host_ns, home / "host", "host", "--relay", relay,
                     "--ephemeral-identity", *BRISCOLA_2, "--bot", *options, errors=None)
    joining: subprocess.Popen[str] | None = None
    try:
        line, _ = _lines_until(hosting, r"^p2pcards join '")
        invite = line.split("'")[1]
        started = time.monotonic()
        joining = _start(lab, join_ns, home / "guest", "join", invite, "--ephemeral-identity",
                         "--bot", "--accept")
        connection, _ = _lines_until(joining, r"^connection: ")
        _, seated = _lines_until(joining, r"^seated at seat ")
        return connection, seated - started
    finally:
        _stop(hosting)
        if joining is not None:
            _stop(joining)


def measure(pair: str, attempts: int) -> str:
    nat_a, nat_b, relay_address, options, mapping = PAIRS[pair]
    with Lab() as lab, tempfile.TemporaryDirectory() as scratch:
        router_a = lab.router(nat=nat_a)
        alice, bob = lab.home(router_a), lab.home(lab.router(nat=nat_b))
        if mapping is not None:
            lab.miniupnpd(router_a, upnp=mapping == "upnp")
        relay_where = (f"[{relay_address}]:7447" if ":" in relay_address
                       else f"{relay_address}:7447")
        relay = _start(lab, lab.internet, Path(scratch) / "relay", "relay", "--listen",
                       relay_where, *ONE_ADDRESS_CAPS, errors=subprocess.PIPE)
        try:
            _relay_listening(relay)
            kinds: list[str] = []
            times: list[float] = []
            for number in range(attempts):
                line, seconds = attempt(lab, alice.ns, bob.ns, relay_where,
                                        Path(scratch) / str(number), options)
                found = re.match(r"connection: (direct \(([^)]*)\)|relay)", line)
                kinds.append(found[2] if found and found[2] else "relay")
                times.append(seconds)
        finally:
            _stop(relay)
    direct = sum(1 for k in kinds if k != "relay")
    hows = ", ".join(sorted(set(kinds)))
    return (f"{pair:14} {direct:3}/{attempts} direct ({hows}); join to seated: median "
            f"{statistics.median(times):.2f} s, max {max(times):.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=20)
    parser.add_argument("--pairs", default=",".join(PAIRS))
    args = parser.parse_args()
    missing = netlab_missing()
    if missing is not None:
        print(f"netlab.py: {missing}", file=sys.stderr)
        return 2
    for pair in args.pairs.split(","):
        if pair not in PAIRS:
            print(f"netlab.py: unknown pair {pair!r} (known: {', '.join(PAIRS)})",
                  file=sys.stderr)
            return 2
        if PAIRS[pair][4] is not None and miniupnpd_missing() is not None:
            print(f"netlab.py: {pair}: {miniupnpd_missing()}", file=sys.stderr)
            return 2
        print(measure(pair, args.attempts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
