"""The group operations of the mental poker in Ed25519 and in Ristretto255: cost per call, and the
cost per deck that the same counts would have in each group.

Run from the repository root: ``python benchmarks/group_cost.py [--sodium PATH] [--rbcl DIR]
[--rounds N] [--quick]``.

Measured in one run, per call, each libsodium operation the mental poker uses (variable-base
multiplication ``var``, fixed-base ``base``, ``add``, ``sub``, point validation ``valid``, hash to
the group ``unif``, scalar reduction ``reduce``):

- in Ed25519 through PyNaCl, as :mod:`p2pcards.crypto.group` calls it;
- in Ed25519 and in Ristretto255 (RFC 9496) through :mod:`ctypes` on a system libsodium, found
  with ``ctypes.util.find_library("sodium")`` or given with ``--sodium PATH``; when there is none,
  the script says so and stops (exit status 0), as PyNaCl binds no Ristretto255;
- with ``--rbcl DIR`` (a scratch directory holding the ``rbcl`` wheel and its ``barriers``, e.g.
  ``pip install --no-deps --target DIR rbcl barriers``; put on ``sys.path`` only here), in
  Ed25519 and Ristretto255 through ctypes on the libsodium that rbcl bundles, and in Ristretto255
  through rbcl's own Python functions. rbcl writes its bundled library to a new temporary file at
  every import and never removes it: the script imports it twice in subprocesses, shows the
  files left behind (size, import time) and then removes them, and the one of its own import.

Each time is the least, over ``--rounds`` rounds that alternate all bindings, of the mean CPU
time (of this process, so that waiting for a core on a loaded machine does not count) of a batch
of calls on varied inputs; X25519 (the sealed tokens, through ``cryptography``, the same in
both groups) is timed the same way. Every figure is a ratio to the Ed25519 variable-base
multiplication (``crypto_scalarmult_ed25519_noclamp``) of the same library: PyNaCl's for PyNaCl,
the system library's for both groups through ctypes on it, rbcl's bundled library's for rbcl
(whose Python functions have no Ed25519).

Then the calls of the seeded matches of ``crypto_cost.py`` (2-seat Scopa, seeds 1-3; 4-seat
Burraco, seed 1; every seat's work added up; counted in subprocesses by its own functions) are
weighted with these ratios and printed per deck, with the ratio to issue 29's 3,625 and 31,369.
The projection to Ristretto255 assumes: one Ristretto255 call for each Ed25519 call of the same
kind (the same protocol, the same counts: no call is saved by the group, not even the
``is_valid_point`` calls that Ristretto255's decoding would make unnecessary); one hash to the
group (``crypto_core_ristretto255_from_hash``, 64 bytes in) for each ``from_uniform`` (the
Ed25519 hash to the group is two ``from_uniform`` and one addition, so this over-counts that
small part); the scalar reduction weighs nothing, as in ``crypto_cost.py`` (it is the same
function in both groups); X25519 is unchanged. The Python work around the calls is not counted.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import crypto_cost

ORDER = 2**252 + 27742317777372353535851937790883648493
"""ℓ, the order of the prime-order group (the same in both groups)."""
KINDS = ("var", "base", "add", "sub", "valid", "unif", "reduce", "x25519")
"""The kinds of calls, with the short names of ``crypto_cost.SHORT``."""
BATCH_SECONDS = 0.01
"""The time one batch of calls of one kind is made to last."""
INPUTS = 32
"""Distinct inputs cycled through in each batch."""


@dataclass(frozen=True)
class Binding:
    """One way of reaching one group's operations: each callable makes one call and returns its
    result (points and scalars as 32 bytes). ``unit`` is the label of the Ed25519 binding whose
    variable-base multiplication is this binding's unit of cost."""

    label: str
    about: str
    group: str
    unit: str
    var: Callable[[bytes, bytes], bytes]
    base: Callable[[bytes], bytes]
    add: Callable[[bytes, bytes], bytes]
    sub: Callable[[bytes, bytes], bytes]
    valid: Callable[[bytes], bool]
    unif: Callable[[bytes], bytes]
    unif_bytes: int
    reduce: Callable[[bytes], bytes]


class SodiumError(Exception):
    """A libsodium function reached through ctypes refused its input."""


def ctypes_binding(lib: ctypes.CDLL, group: str, label: str, about: str, unit: str) -> Binding:
    """The operations of ``group`` (``"Ed25519"`` or ``"Ristretto255"``) of the libsodium
    ``lib``, each called through ctypes with a fresh 32-byte output buffer."""
    lib.sodium_init()
    ed = group == "Ed25519"
    prefix = "ed25519" if ed else "ristretto255"
    names = {
        "var": "crypto_scalarmult_ed25519_noclamp" if ed else "crypto_scalarmult_ristretto255",
        "base": ("crypto_scalarmult_ed25519_base_noclamp" if ed
                 else "crypto_scalarmult_ristretto255_base"),
        "add": f"crypto_core_{prefix}_add",
        "sub": f"crypto_core_{prefix}_sub",
        "valid": f"crypto_core_{prefix}_is_valid_point",
        "unif": "crypto_core_ed25519_from_uniform" if ed else "crypto_core_ristretto255_from_hash",
        "reduce": f"crypto_core_{prefix}_scalar_reduce",
    }
    fns = {kind: getattr(lib, name) for kind, name in names.items()}
    for kind, fn in fns.items():
        fn.restype = None if kind == "reduce" else ctypes.c_int
        arity = 1 if kind == "valid" else 3 if kind in ("var", "add", "sub") else 2
        fn.argtypes = [ctypes.c_char_p] * arity

    def out_of(kind: str) -> Callable[..., bytes]:
        fn = fns[kind]

        def call(*args: bytes) -> bytes:
            out = ctypes.create_string_buffer(32)
            if fn(out, *args):
                raise SodiumError(f"{names[kind]} refused its input")
            return out.raw

        return call

    def valid(point: bytes) -> bool:
        return bool(fns["valid"](point))

    return Binding(label, about, group, unit, out_of("var"), out_of("base"), out_of("add"),
                   out_of("sub"), valid, out_of("unif"), 32 if ed else 64, out_of("reduce"))


def pynacl_binding() -> Binding:
    """Ed25519 through PyNaCl's ``nacl.bindings``, the calls :mod:`p2pcards.crypto.group`
    makes."""
    import nacl
    import nacl.bindings as sodium

    return Binding(
        "PyNaCl Ed", f"Ed25519 through PyNaCl {nacl.__version__} (its own libsodium)",
        "Ed25519", "PyNaCl Ed", sodium.crypto_scalarmult_ed25519_noclamp,
        sodium.crypto_scalarmult_ed25519_base_noclamp, sodium.crypto_core_ed25519_add,
        sodium.crypto_core_ed25519_sub, sodium.crypto_core_ed25519_is_valid_point,
        sodium.crypto_core_ed25519_from_uniform, 32, sodium.crypto_core_ed25519_scalar_reduce)


def rbcl_binding(rbcl: Any, unit: str) -> Binding:
    """Ristretto255 through rbcl's own Python functions (each checks its arguments' types and
    lengths, then calls its bundled libsodium through ctypes)."""
    return Binding(
        "rbcl Rist", "Ristretto255 through rbcl's Python functions", "Ristretto255", unit,
        rbcl.crypto_scalarmult_ristretto255, rbcl.crypto_scalarmult_ristretto255_base,
        rbcl.crypto_core_ristretto255_add, rbcl.crypto_core_ristretto255_sub,
        rbcl.crypto_core_ristretto255_is_valid_point, rbcl.crypto_core_ristretto255_from_hash,
        64, rbcl.crypto_core_ristretto255_scalar_reduce)


def scalar(value: int) -> bytes:
    """The canonical 32-byte encoding of ``value mod ℓ``."""
    return (value % ORDER).to_bytes(32, "little")


def check_algebra(b: Binding, rng: random.Random) -> None:
    """Raise :class:`AssertionError` unless ``b`` computes in a group of order ℓ with unclamped
    scalars: ``s·(t·B) = (st)·B``, ``t·B + u·B = (t+u)·B``, ``(t+u)·B - u·B = t·B``, a product is
    a valid point and 32 bytes of ``ff`` are not, a hash to the group is valid, a wide reduction
    is the integer modulo ℓ. So a column of the timings is of the operation it names."""
    s, t, u = (rng.randrange(1, ORDER) for _ in range(3))
    tb, ub = b.base(scalar(t)), b.base(scalar(u))
    assert b.var(scalar(s), tb) == b.base(scalar(s * t)), f"{b.label}: s·(t·B) != (st)·B"
    assert b.add(tb, ub) == b.base(scalar(t + u)), f"{b.label}: addition"
    assert b.sub(b.base(scalar(t + u)), ub) == tb, f"{b.label}: subtraction"
    assert b.valid(tb) and not b.valid(b"\xff" * 32), f"{b.label}: validation"
    assert b.valid(b.unif(rng.randbytes(b.unif_bytes))), f"{b.label}: hash to the group"
    wide = rng.randbytes(64)
    assert b.reduce(wide) == scalar(int.from_bytes(wide, "little")), f"{b.label}: reduction"


def workloads(b: Binding, rng: random.Random) -> dict[str, tuple[Callable[..., object],
                                                                 list[tuple[bytes, ...]]]]:
    """For each kind but X25519, the function of ``b`` and :data:`INPUTS` argument tuples of
    varied inputs: nonzero canonical scalars, points of the group made by ``b`` itself."""
    scalars = [scalar(rng.randrange(1, ORDER)) for _ in range(INPUTS)]
    points = [b.base(s) for s in scalars]
    others = points[1:] + points[:1]
    return {
        "var": (b.var, [(s, p) for s, p in zip(scalars, others, strict=True)]),
        "base": (b.base, [(s,) for s in scalars]),
        "add": (b.add, list(zip(points, others, strict=True))),
        "sub": (b.sub, list(zip(points, others, strict=True))),
        "valid": (b.valid, [(p,) for p in points]),
        "unif": (b.unif, [(rng.randbytes(b.unif_bytes),) for _ in range(INPUTS)]),
        "reduce": (b.reduce, [(rng.randbytes(64),) for _ in range(INPUTS)]),
    }


def x25519_workload(rng: random.Random) -> tuple[Callable[..., object], list[tuple[Any, ...]]]:
    """One X25519 key agreement through ``cryptography``, as ``p2pcards.crypto.sealed`` makes
    it, with varied keys."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    keys = [X25519PrivateKey.from_private_bytes(rng.randbytes(32)) for _ in range(INPUTS)]
    peers = [k.public_key() for k in keys[1:] + keys[:1]]
    return agree, list(zip(keys, peers, strict=True))


def agree(own: Any, peer: Any) -> bytes:
    """One X25519 key agreement of ``own`` (a private key of ``cryptography``) with ``peer``."""
    return bytes(own.exchange(peer))


def batch_mean(fn: Callable[..., object], args: list[tuple[Any, ...]], calls: int) -> float:
    """CPU seconds of this process per call of ``calls`` calls of ``fn``, cycling through
    ``args`` (CPU time, so that the time the process waits for a core does not count)."""
    batch = [args[i % len(args)] for i in range(calls)]
    started = time.process_time()
    for a in batch:
        fn(*a)
    return (time.process_time() - started) / calls


def time_all(jobs: dict[tuple[str, str], tuple[Callable[..., object], list[tuple[Any, ...]]]],
             rounds: int) -> dict[tuple[str, str], float]:
    """CPU seconds per call of each job: the least, over ``rounds`` rounds that each run every job
    once in turn, of the mean of a batch sized (from a first short run) to last about
    :data:`BATCH_SECONDS`."""
    sizes = {key: max(5, int(BATCH_SECONDS / max(batch_mean(fn, args, 5), 1e-7)))
             for key, (fn, args) in jobs.items()}
    best = {key: float("inf") for key in jobs}
    for _ in range(rounds):
        for key, (fn, args) in jobs.items():
            best[key] = min(best[key], batch_mean(fn, args, sizes[key]))
    return best


def weights(per_call: dict[tuple[str, str], float], b: Binding) -> dict[str, float]:
    """Each kind's cost through ``b`` in units of the variable-base multiplication of its unit
    binding (X25519 in the same unit)."""
    unit = per_call[(b.unit, "var")]
    out = {kind: per_call[(b.label, kind)] / unit for kind in KINDS if kind != "x25519"}
    out["x25519"] = per_call[("x25519", "x25519")] / unit
    return out


def per_deck(counts: Counter[str], decks: int, w: dict[str, float]) -> float:
    """The counted calls per deck weighted by ``w`` (kinds by ``crypto_cost.SHORT``; the scalar
    reduction weighs nothing, as in ``crypto_cost.py``)."""
    return sum(w[crypto_cost.SHORT[name]] * n for name, n in counts.items()
               if crypto_cost.SHORT[name] != "reduce") / decks


def issue_weights() -> dict[str, float]:
    """The weights of issue 29, which ``crypto_cost.py`` uses, by short kind."""
    return {crypto_cost.SHORT[name]: w for name, w in crypto_cost.WEIGHTS.items()}


def load_library(path: str | None) -> tuple[ctypes.CDLL | None, str]:
    """The system libsodium (``path``, or the one ``find_library`` finds), or ``None`` with the
    sentence saying why there is none."""
    name = path or ctypes.util.find_library("sodium")
    if name is None:
        return None, "No system libsodium was found (ctypes.util.find_library('sodium'))"
    try:
        return ctypes.CDLL(name), name
    except OSError as exc:
        why = str(exc).removeprefix(f"{name}: ")
        return None, f"No libsodium could be loaded from {name} ({why})"


def version_of(lib: ctypes.CDLL) -> str:
    """libsodium's own version string."""
    fn = lib.sodium_version_string
    fn.restype = ctypes.c_char_p
    return str(fn().decode())


RBCL_PROBE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
wall, cpu = time.perf_counter(), time.process_time()
import rbcl
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"path": sys.modules["rbcl._sodium"].lib_path, "wall": wall, "cpu": cpu}))
"""


def rbcl_imports(directory: str, times: int) -> list[dict[str, Any]]:
    """Import rbcl from ``directory`` in ``times`` fresh interpreters; for each, the file it
    wrote its libsodium to, whether that file is still there after the interpreter exited, its
    size, and the import's wall and CPU seconds."""
    seen = []
    for _ in range(times):
        done = subprocess.run([sys.executable, "-c", RBCL_PROBE, directory],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise SystemExit(f"rbcl could not be imported from {directory}: {last}")
        probe = json.loads(done.stdout)
        probe["left"] = os.path.exists(probe["path"])
        probe["size"] = os.path.getsize(probe["path"]) if probe["left"] else 0
        seen.append(probe)
    return seen


def import_rbcl(directory: str) -> Any:
    """rbcl imported from ``directory`` (put first on ``sys.path`` for this)."""
    sys.path.insert(0, directory)
    try:
        import rbcl
    finally:
        sys.path.remove(directory)
    return rbcl


def report_rbcl_imports(probes: list[dict[str, Any]]) -> None:
    """Print what rbcl's imports left in the temporary directory, then remove those files."""
    print("\nrbcl's import writes its bundled libsodium to a new temporary file every time:")
    for p in probes:
        print(f"  {p['path']}  {p['size']:,} bytes  "
              f"{'left behind after exit' if p['left'] else 'removed'}  "
              f"import {p['wall'] * 1000:.0f} ms wall, {p['cpu'] * 1000:.0f} ms CPU")
        if p["left"]:
            os.remove(p["path"])
    print(f"  ({sum(p['left'] for p in probes)} of {len(probes)} files were left; "
          "this script removed them)")


def count_matches(root: str, quick: bool) -> dict[str, tuple[int, Counter[str]]]:
    """Decks and calls of each workload of ``crypto_cost.py``, counted in parallel
    subprocesses (Scopa alone with ``quick``)."""
    games = [w[0] for w in crypto_cost.WORKLOADS[: 1 if quick else None]]
    with ThreadPoolExecutor(len(games)) as pool:
        results = list(pool.map(lambda g: crypto_cost.counted_totals(root, g), games))
    return dict(zip(games, results, strict=True))


def print_calls(bindings: list[Binding], per_call: dict[tuple[str, str], float]) -> None:
    """µs per call and the ratio to the unit, a row per kind and a column per binding."""
    print("\nper call: µs (ratio to the Ed25519 variable-base multiplication of the same library)")
    for b in bindings:
        print(f"  {b.label:<14}{b.about}; unit: {b.unit} var")
    print(f"\n  {'kind':<8}" + "".join(f"{b.label:>15}" for b in bindings))
    for kind in KINDS:
        cells = []
        for b in bindings:
            us = per_call[("x25519", "x25519") if kind == "x25519" else (b.label, kind)] * 1e6
            cells.append(f"{us:7.1f} ({weights(per_call, b)[kind]:.2f})")
        print(f"  {kind:<8}" + "".join(f"{c:>15}" for c in cells))


def print_decks(bindings: list[Binding], per_call: dict[tuple[str, str], float],
                counted: dict[str, tuple[int, Counter[str]]]) -> None:
    """Per-deck cost of each workload with the issue's weights and with each binding's."""
    games = list(counted)
    print("\nper deck, every seat's work added up, in Ed25519 variable-base multiplications of "
          "the same library;\n'/ issue': ratio to issue 29's figure; '/ Ed25519': Ristretto255's "
          "cost over Ed25519's on the same library")
    head = "".join(f"{g + f' ({counted[g][0]} decks)':>18}{'/ issue':>8}" for g in games)
    print(f"  {'weights':<29}{head}   / Ed25519")
    rows: list[tuple[str, dict[str, float], Binding | None]] = [
        ("issue 29's (crypto_cost.py)", issue_weights(), None)]
    rows += [(f"{b.label} ({b.group})", weights(per_call, b), b) for b in bindings]
    ed_of = {b.unit: weights(per_call, b) for b in bindings if b.label == b.unit}
    for title, w, b in rows:
        line = f"  {title:<29}"
        ratios: list[str] = []
        for g in games:
            decks, counts = counted[g]
            cost = per_deck(counts, decks, w)
            line += f"{cost:>18,.0f}{cost / crypto_cost.ISSUE[g]:>8.3f}"
            if b is not None and b.group != "Ed25519" and b.unit in ed_of:
                ratios.append(f"{cost / per_deck(counts, decks, ed_of[b.unit]):.3f}")
        print(line + ("   " + " / ".join(ratios) if ratios else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sodium", help="the system libsodium to load (default: the one "
                        "ctypes.util.find_library('sodium') finds)")
    parser.add_argument("--rbcl", metavar="DIR", help="also measure the rbcl wheel installed "
                        "in DIR (with --target, not on the path otherwise)")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds (default 15)")
    parser.add_argument("--quick", action="store_true", help="count 2-seat Scopa only")
    args = parser.parse_args()
    root = str(Path(__file__).resolve().parent.parent)
    print(f"Group operations in Ed25519 and Ristretto255; load average at start "
          f"{'/'.join(f'{x:.1f}' for x in os.getloadavg())}")
    lib, where = load_library(args.sodium)
    if lib is None and not args.rbcl:
        print(f"{where}, so Ristretto255 cannot be measured (PyNaCl binds none): nothing "
              "measured.")
        return
    rng = random.Random(29)
    bindings = [pynacl_binding()]
    if lib is None:
        print(f"{where}, so only rbcl's Ristretto255 is measured.")
    else:
        about = f"through ctypes on {where} (libsodium {version_of(lib)})"
        bindings += [ctypes_binding(lib, "Ed25519", "sys Ed", f"Ed25519 {about}", "sys Ed"),
                     ctypes_binding(lib, "Ristretto255", "sys Rist", f"Ristretto255 {about}",
                                    "sys Ed")]
    probes: list[dict[str, Any]] = []
    own_file = None
    if args.rbcl:
        directory = str(Path(args.rbcl).resolve())
        probes = rbcl_imports(directory, 2)
        rbcl = import_rbcl(directory)
        own_file = sys.modules["rbcl._sodium"].lib_path
        bundled = rbcl._sodium
        about = f"through ctypes on rbcl's libsodium {version_of(bundled)}"
        bindings += [ctypes_binding(bundled, "Ed25519", "rbcl-lib Ed", f"Ed25519 {about}",
                                    "rbcl-lib Ed"),
                     ctypes_binding(bundled, "Ristretto255", "rbcl-lib Rist",
                                    f"Ristretto255 {about}", "rbcl-lib Ed"),
                     rbcl_binding(rbcl, "rbcl-lib Ed")]
    for b in bindings:
        check_algebra(b, rng)
    counted = count_matches(root, args.quick)
    jobs = {(b.label, kind): job for b in bindings for kind, job in workloads(b, rng).items()}
    jobs[("x25519", "x25519")] = x25519_workload(rng)
    per_call = time_all(jobs, args.rounds)
    print_calls(bindings, per_call)
    print_decks(bindings, per_call, counted)
    if args.rbcl:
        report_rbcl_imports(probes)
        if own_file and os.path.exists(own_file):
            os.remove(own_file)
            print(f"  and the file of this script's own import, {own_file}")
    print(f"\nload average at end {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
