"""Group operations of whole matches, counted and weighted: the cost of the mental poker per deck.

Run from the repository root: ``python benchmarks/crypto_cost.py [--baseline DIR] [--paranoid]
[--phases] [--cpu] [--quick]``.

Every group operation of :mod:`p2pcards.crypto` goes through libsodium's functions as
:mod:`p2pcards.crypto.group` reaches them (its module name ``sodium``); this script replaces that
name, in this process only, by a proxy that counts each call before making it. X25519 (sealed
tokens) is counted at :mod:`p2pcards.crypto.sealed`: each key agreement and each derivation of a
public key is one X25519. The counts are deterministic: the matches are seeded (tables by
``local.make_tables(..., seed=s)``, bots ``make_bot(game, "smart", 10*s + seat)``, in memory), and
every seat's work is added up.

The weights are in units of one variable-base scalar multiplication
(``crypto_scalarmult_ed25519_noclamp`` = 1), measured once on one machine (issue 29): base
multiplication 0.20, addition or subtraction 0.18, ``is_valid_point`` 0.48, ``from_uniform``
0.26, X25519 0.44. A scalar reduction (``crypto_core_ed25519_scalar_reduce``, a hash to a
scalar) is counted but weighs nothing. The hashed generators and card points are computed once
per process (they are cached), inside the first match of each deck.

Printed per workload (2-seat Scopa, seeds 1-3; 4-seat Burraco, seed 1): decks, the weighted
cost per deck, its ratio to the figure of issue 29 (3,625 and 31,369) and to the target (half
of it), and where the cost goes: the entry point into :mod:`p2pcards.crypto` that the table
called (found on the call stack) with its calls of each kind. ``--baseline DIR`` counts the
same matches on another checkout (e.g. ``git worktree add /tmp/old <commit>``) in a subprocess
and prints the ratio new / old; the matches are the same ones as long as the wire format is.
``--paranoid`` counts with every seat checking its own messages too (the debug switch).
``--phases`` also prints the same units per deck by phase (shuffle, shuffle proof, proof check,
keys and key proofs, tokens made, tokens checked, sealed tokens, own shares, decryption, audit,
deck set-up, point validations: every ``is_valid_point`` whatever asked for it) and by who made
the call (the seat of the table on the call stack), so the floor is visible.
``--cpu`` also times (process CPU time) a 2-seat Scopa match in memory, and ``p2pcards demo``
(a process per seat over loopback TCP, children's CPU time), for this checkout and the
baseline, alternating, and prints the ratios.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

WEIGHTS: dict[str, float] = {
    "crypto_scalarmult_ed25519_noclamp": 1.0,
    "crypto_scalarmult_ed25519_base_noclamp": 0.20,
    "crypto_core_ed25519_add": 0.18,
    "crypto_core_ed25519_sub": 0.18,
    "crypto_core_ed25519_is_valid_point": 0.48,
    "crypto_core_ed25519_from_uniform": 0.26,
    "x25519": 0.44,
}
SHORT = {
    "crypto_scalarmult_ed25519_noclamp": "var",
    "crypto_scalarmult_ed25519_base_noclamp": "base",
    "crypto_core_ed25519_add": "add",
    "crypto_core_ed25519_sub": "sub",
    "crypto_core_ed25519_is_valid_point": "valid",
    "crypto_core_ed25519_from_uniform": "unif",
    "crypto_core_ed25519_scalar_reduce": "reduce",
    "x25519": "x25519",
}
ISSUE = {"scopa": 3625.0, "burraco": 31369.0}
"""Cost per deck in issue 29, counted the same way on the code of that day."""
TARGET = 0.5
WORKLOADS: list[tuple[str, int, tuple[int, ...]]] = [
    ("scopa", 2, (1, 2, 3)),
    ("burraco", 4, (1,)),
]


def weighted(counts: Counter[str]) -> float:
    """The cost of ``counts`` in units of one variable-base scalar multiplication."""
    return sum(WEIGHTS.get(name, 0.0) * n for name, n in counts.items())


PHASES: list[tuple[str, tuple[str, ...]]] = [
    ("audit", ("audit_hand", "deck_cards")),
    ("shuffle proof", ("prove_shuffle",)),
    ("shuffle proof check", ("verify_shuffle",)),
    ("shuffle", ("shuffle",)),
    ("tokens checked", ("verify_token",)),
    ("sealed tokens", ("seal_token", "open_token")),
    ("tokens made", ("token",)),
    ("keys and key proofs", ("HandKey.share", "HandKey.public", "verify_key_share", "joint_key",
                             "InboxKey.publish", "InboxKey.public", "InboxKey.open_box",
                             "verify_inbox", "verify_opening", "deal_key", "DealtKey")),
    ("own shares", ("HandKey.partial",)),
    ("decryption", ("decrypt", "decrypt_card", "DeckCycle.decrypt_shares")),
    ("deck set-up", ("initial_deck", "hash_to_point", "shuffle_generators", "card_points")),
]
"""Phases of :option:`--phases`, each with the functions whose presence on the call stack puts a
call in it; the first phase that matches wins (an audit's proof checks count as audit)."""
VALIDATIONS = "point validations"


def phase_of(name: str, stack: list[str]) -> str:
    """The phase of one libsodium call ``name`` made with the functions ``stack`` (qualified
    names, innermost first) on the call stack."""
    if name == "crypto_core_ed25519_is_valid_point":
        return VALIDATIONS
    if name == "x25519":
        return "sealed tokens"
    for phase, functions in PHASES:
        if any(f == fn or f.startswith(fn + ".") for f in stack for fn in functions):
            return phase
    return "other"


class Counting:
    """Counts the libsodium calls of :mod:`p2pcards.crypto`, per entry point into the package,
    and per phase and seat (:func:`phase_of`)."""

    def __init__(self) -> None:
        self.by_entry: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.by_phase: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.by_seat: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self._crypto_dir = ""
        self.totals_only = False
        """Count every call under the entry point ``?`` without reading the call stack (the
        totals are the same, in about two thirds of the time)."""

    def install(self) -> None:
        """Put the counting proxy in place of ``group.sodium`` and wrap X25519 in ``sealed``."""
        import nacl.bindings

        from p2pcards.crypto import group, sealed

        self._crypto_dir = str(Path(group.__file__).parent)
        counting = self

        class Proxy:
            def __getattr__(self, name: str) -> Any:
                real = getattr(nacl.bindings, name)

                def call(*args: Any) -> Any:
                    counting.count(name)
                    return real(*args)

                return call

        group.sodium = Proxy()  # type: ignore[attr-defined]
        sealed._key_nonce = self._wrapped(sealed._key_nonce, "x25519")  # type: ignore[attr-defined]
        sealed.x25519_public = self._wrapped(sealed.x25519_public, "x25519")

    def _wrapped(self, fn: Callable[..., Any], name: str) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            self.count(name)
            return fn(*args)

        return call

    def count(self, name: str) -> None:
        if self.totals_only:
            self.by_entry["?"][name] += 1
            return
        entry, stack, seat = self._where()
        self.by_entry[entry][name] += 1
        phase = phase_of(name, stack)
        self.by_phase[phase][name] += 1
        self.by_seat[f"{phase}\0{seat}"][name] += 1

    def _where(self) -> tuple[str, list[str], str]:
        """The outermost function of the crypto package on the stack (what the table called),
        the qualified names of the functions on the stack (innermost first) and the seat of the
        table that made the call (``?`` when none is on the stack)."""
        frame = inspect.currentframe()
        entry = "?"
        entered = left = False
        stack: list[str] = []
        seat = "?"
        while frame is not None:
            code = frame.f_code
            stack.append(code.co_qualname)
            if code.co_filename.startswith(self._crypto_dir):
                if not left:
                    entry, entered = code.co_qualname, True
            elif entered and "benchmarks" not in code.co_filename:
                left = True
            owner = frame.f_locals.get("self")
            if seat == "?" and type(owner).__name__ == "Table":
                seat = str(getattr(owner, "seat", "?"))
                break
            frame = frame.f_back
        return entry, stack, seat

    def total(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for counts in self.by_entry.values():
            out.update(counts)
        return out


def count_workload(game: str, players: int, seeds: tuple[int, ...],
                   paranoid: bool) -> dict[str, Any]:
    """Play the seeded matches in memory with counting on; decks and counts per entry point."""
    from p2pcards.bots import make_bot

    local = _memory_runner()
    counting = COUNTING
    counting.by_entry.clear()
    counting.by_phase.clear()
    counting.by_seat.clear()
    decks = 0
    for seed in seeds:
        genesis, tables = local.make_tables(game, "", players, seed=seed)
        if paranoid:
            for table in tables:
                table.paranoid = True  # type: ignore[attr-defined]
        bots = [make_bot(game, "smart", seed * 10 + i) for i in range(players)]
        run = local.run_in_memory(genesis, tables, bots)
        decks += run.tables[0]._cycle_count
    return {"decks": decks,
            "by_entry": {k: dict(v) for k, v in counting.by_entry.items()},
            "by_phase": {k: dict(v) for k, v in counting.by_phase.items()},
            "by_seat": {k: dict(v) for k, v in counting.by_seat.items()}}


COUNTING = Counting()


def _memory_runner() -> Any:
    """The in-memory runner of the checkout on ``sys.path``: ``p2pcards.offline.memory``, or
    ``p2pcards.local`` in a checkout from before the packages."""
    try:
        from p2pcards.offline import memory
    except ImportError:
        from p2pcards import local as memory  # type: ignore[attr-defined,no-redef]
    return memory


def in_memory_cpu(seed: int) -> float:
    """Process CPU seconds of one 2-seat Scopa match in memory (set-up and play)."""
    from p2pcards.bots import make_bot

    local = _memory_runner()
    started = time.process_time()
    genesis, tables = local.make_tables("scopa", "", 2, seed=seed)
    bots = [make_bot("scopa", "smart", seed * 10 + i) for i in range(2)]
    local.run_in_memory(genesis, tables, bots)
    return time.process_time() - started


def demo_cpu(root: str, seed: int) -> float:
    """CPU seconds of all processes of ``p2pcards demo`` (2-seat Scopa) run from ``root``."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, P2PCARDS_HOME=home, PYTHONPATH=root)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [sys.executable, "-m", "p2pcards", "demo", "--game", "scopa", "--players", "2",
             "--seed", str(seed)], env=env, cwd=root, capture_output=True, text=True,
            check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"demo from {root} failed ({done.returncode}): {done.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def child(root: str, args: list[str]) -> Any:
    """Run this script's ``--child`` mode on the checkout ``root``; its JSON answer."""
    done = subprocess.run([sys.executable, __file__, "--root", root, "--child", *args],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"counting on {root} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def counted_totals(root: str, game: str) -> tuple[int, Counter[str]]:
    """The decks and the libsodium calls of each kind (every seat's work added up) of the seeded
    matches of ``game`` (one of :data:`WORKLOADS`), counted on the checkout ``root`` in a
    subprocess, as this script counts them (without reading the call stack)."""
    counted = child(root, ["--game", game, "--totals-only"])
    total: Counter[str] = Counter()
    for counts in counted["by_entry"].values():
        total.update(counts)
    return int(counted["decks"]), total


def child_main(args: argparse.Namespace) -> None:
    """Answer one question on the checkout on ``sys.path`` as JSON (counts or CPU seconds)."""
    if args.cpu_seed is not None:
        in_memory_cpu(args.cpu_seed)  # warm-up: caches, imports
        print(json.dumps(in_memory_cpu(args.cpu_seed)))
        return
    COUNTING.install()
    COUNTING.totals_only = args.totals_only
    game, players, seeds = next(w for w in WORKLOADS if w[0] == args.game)
    print(json.dumps(count_workload(game, players, seeds, args.paranoid)))


def print_phases(new: dict[str, Any]) -> None:
    """The units per deck by phase (with the calls of each kind) and by phase and seat."""
    decks = new["decks"]
    phases = {k: Counter(v) for k, v in new["by_phase"].items()}
    kinds = [k for k in SHORT if any(c[k] for c in phases.values())]
    seats = sorted({key.split("\0")[1] for key in new["by_seat"]})
    order = [p for p, _ in PHASES] + [VALIDATIONS, "other"]
    print(f"\n  {'phase':<24}{'units/deck':>11}" + "".join(f"{SHORT[k]:>9}" for k in kinds)
          + "   units/deck by seat " + " ".join(f"{s:>8}" for s in seats))
    for phase in sorted(phases, key=lambda p: -weighted(phases[p])):
        counts = phases[phase]
        by_seat = [weighted(Counter(new["by_seat"].get(f"{phase}\0{s}", {}))) / decks
                   for s in seats]
        print(f"  {phase:<24}{weighted(counts) / decks:>11,.1f}"
              + "".join(f"{counts[k] / decks:>9.1f}" for k in kinds)
              + "                      " + " ".join(f"{v:>8,.1f}" for v in by_seat))
    assert set(phases) <= set(order), set(phases) - set(order)
    print()


def print_workload(game: str, new: dict[str, Any], old: dict[str, Any] | None,
                   phases: bool = False) -> bool:
    """Print one workload's table; whether its cost per deck meets the target."""
    decks = new["decks"]
    entries = {k: Counter(v) for k, v in new["by_entry"].items()}
    total: Counter[str] = Counter()
    for counts in entries.values():
        total.update(counts)
    per_deck = weighted(total) / decks
    print(f"\n{game}: {decks} decks, cost per deck {per_deck:,.0f} "
          f"(issue 29: {ISSUE[game]:,.0f}, ratio {per_deck / ISSUE[game]:.3f}, "
          f"target <= {TARGET})")
    if old is not None:
        old_total: Counter[str] = Counter()
        for counts in old["by_entry"].values():
            old_total.update(counts)
        old_per_deck = weighted(old_total) / old["decks"]
        print(f"  baseline: {old['decks']} decks, cost per deck {old_per_deck:,.0f}, "
              f"ratio new / baseline {per_deck / old_per_deck:.3f}")
    kinds = [k for k in SHORT if total[k]]
    print(f"  {'entry point':<34}{'units/deck':>11}" + "".join(f"{SHORT[k]:>9}" for k in kinds))
    for entry, counts in sorted(entries.items(), key=lambda kv: -weighted(kv[1])):
        print(f"  {entry:<34}{weighted(counts) / decks:>11,.1f}"
              + "".join(f"{counts[k] / decks:>9.1f}" for k in kinds))
    print(f"  {'all (per deck)':<34}{per_deck:>11,.1f}"
          + "".join(f"{total[k] / decks:>9.1f}" for k in kinds))
    met = per_deck / ISSUE[game] <= TARGET
    if phases:
        print_phases(new)
    print(f"  target {'met' if met else 'NOT met'}: {per_deck / ISSUE[game]:.3f} of issue 29")
    return met


def cpu_comparison(root: str, baseline: str, rounds: int) -> None:
    """In-memory and demo CPU time of a 2-seat Scopa match, this checkout against the
    baseline, alternating; medians and their ratio (target 0.6)."""
    rows: dict[str, dict[str, list[float]]] = {"in memory": defaultdict(list),
                                               "demo": defaultdict(list)}
    for r in range(rounds):
        seed = 1 + r % 3
        for name, where in (("new", root), ("old", baseline)):
            rows["in memory"][name].append(float(child(where, ["--cpu-seed", str(seed)])))
            rows["demo"][name].append(demo_cpu(where, seed))
    print(f"\n2-seat Scopa, CPU seconds, median of {rounds} (seeds 1-3 in turn), "
          "this checkout against the baseline in the same run:")
    for what, by in rows.items():
        new, old = statistics.median(by["new"]), statistics.median(by["old"])
        print(f"  {what:<10} new {new:6.2f} s   old {old:6.2f} s   ratio {new / old:.3f}  "
              f"(target <= 0.6: {'met' if new / old <= 0.6 else 'NOT met'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent),
                        help="the checkout to measure (default: the one this script is in)")
    parser.add_argument("--baseline", help="another checkout, counted the same way")
    parser.add_argument("--paranoid", action="store_true",
                        help="every seat checks its own messages too")
    parser.add_argument("--phases", action="store_true",
                        help="also print the units per deck by phase and by seat")
    parser.add_argument("--cpu", action="store_true",
                        help="also time whole matches against the baseline (needs --baseline)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds for --cpu")
    parser.add_argument("--quick", action="store_true", help="2-seat Scopa only")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    parser.add_argument("--totals-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cpu-seed", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    root = str(Path(args.root).resolve())
    sys.path.insert(0, root)
    if args.child:
        child_main(args)
        return
    print(f"Group operations per deck, every seat's work added up, in units of one "
          f"variable-base scalar multiplication; checkout {root}"
          + (" (paranoid: own messages checked too)" if args.paranoid else ""))
    all_met = True
    for game, _, _ in WORKLOADS[:1] if args.quick else WORKLOADS:
        extra = ["--paranoid"] if args.paranoid else []
        new = child(root, ["--game", game, *extra])
        old = child(str(Path(args.baseline).resolve()), ["--game", game]) if args.baseline \
            else None
        all_met = print_workload(game, new, old, args.phases) and all_met
    print(f"\ncounted cost per deck <= {TARGET} x issue 29 for every workload: "
          f"{'met' if all_met else 'NOT met'}")
    if args.cpu:
        if not args.baseline:
            raise SystemExit("--cpu needs --baseline DIR")
        cpu_comparison(root, str(Path(args.baseline).resolve()), args.rounds)


if __name__ == "__main__":
    main()
