"""Cost of a whole 2-seat Scopa match over the full protocol, and of verifying it afterwards.

Run from the repository root: ``python benchmarks/protocol.py [--quick] [--repeat N]
[--seed S] [--bots random|smart] [--profile]``.

Each run plays one match among in-memory bots (``memory.make_tables(..., seed=...)`` then
``memory.run_in_memory``: both seats in this process, every envelope delivered to the other
seat), then verifies it as an observer (``table.replay_frames(genesis, frames)``).

Time is split by wrapping, in this process only, the entry points the table uses into each part
(the package itself is never changed): the cryptography of :mod:`p2pcards.crypto` (by operation),
the rules engine (every method and property of the engine class), the canonical msgpack encoding
(:mod:`p2pcards.wire.codec` and the envelope header reader), Ed25519 signatures
(``IdentityKey.sign``, ``PublicIdentity.verify``) and the bots. Time is charged to the outermost
wrapped call only (a group operation inside a proof verification belongs to the verification);
"rest" is what no wrapper covers: the table's own logic, envelopes, the hash chain.

The target of the issue: verifying a match costs at most 1.5 times the cryptographic operations
it must check, measured in the same run: shuffle proof verifications, token proof verifications,
key proof verifications (with the check of every revealed hand secret against its public key)
and decryptions (every card of every hand once the keys are revealed, and sealed tokens).
Decoding and validating received points is cryptography too but outside that sum; it is shown
on its own line, with a second ratio against all cryptography.

A plain run (no wrappers) of play and verification is timed first, so the cost of the wrappers
themselves can be seen. ``--profile`` also prints the functions of the observer's
``Table.receive`` that take most inline time (cProfile).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import platform
import pstats
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Benchmark the checkout this file is in, whatever copy of the package is installed.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from p2pcards import crypto, table  # noqa: E402
from p2pcards.bots import make_bot  # noqa: E402
from p2pcards.crypto import group  # noqa: E402
from p2pcards.offline import memory  # noqa: E402
from p2pcards.seating.genesis import Genesis  # noqa: E402
from p2pcards.wire import codec, envelope, identity  # noqa: E402

TARGET_RATIO = 1.5

MUST_CHECK = ("key proof verify", "shuffle proof verify", "token proof verify", "decryption")
"""The categories the issue's target counts, in print order."""

OTHER_CRYPTO = ("decode + validate", "proving", "deck setup", "other group ops", "crypto to_wire")
NON_CRYPTO = ("engine", "encoding", "signatures", "bots")
CATEGORIES = MUST_CHECK + OTHER_CRYPTO + NON_CRYPTO


@dataclass
class Meter:
    """Seconds and call counts per category, charged to the outermost wrapped call only."""

    seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    calls: Counter[str] = field(default_factory=Counter)
    depth: int = 0

    def reset(self) -> None:
        self.seconds.clear()
        self.calls.clear()

    def timed(self, category: str | Callable[[], str],
              fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` wrapped; ``category`` may be a function of the caller (read when outermost)."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return fn(*args, **kwargs)
            name = category if isinstance(category, str) else category()
            self.depth = 1
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[name] += time.perf_counter() - t0
                self.calls[name] += 1
                self.depth = 0

        return wrapper


def _group_op_category() -> str:
    """Where a bare group operation comes from, read from the table's frame that called it."""
    frame = sys._getframe(2)  # 0: this function, 1: the wrapper, 2: the caller of the operation
    if not frame.f_code.co_filename.endswith("table.py"):
        return "other group ops"
    name = frame.f_code.co_name
    if name == "_on_reveal":
        return "key proof verify"  # the revealed secret checked against the public key
    if name in ("_end_cycle", "<listcomp>"):
        return "decryption"  # the end-of-hand decryption of every position
    return "other group ops"


@contextmanager
def instrumented(meter: Meter, engine_class: type) -> Iterator[None]:
    """Install the timing wrappers for the duration of the block, then restore everything."""
    saved: list[tuple[object, str, object]] = []

    def patch(owner: object, name: str, category: str | Callable[[], str]) -> None:
        raw = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        saved.append((owner, name, raw))
        if isinstance(raw, classmethod):
            new: object = classmethod(meter.timed(category, raw.__func__))
        elif isinstance(raw, staticmethod):
            new = staticmethod(meter.timed(category, raw.__func__))
        elif isinstance(raw, property):
            assert raw.fget is not None
            new = property(meter.timed(category, raw.fget), raw.fset, raw.fdel)
        else:
            new = meter.timed(category, raw)
        setattr(owner, name, new)

    for name in ("verify_key_share",):
        patch(crypto, name, "key proof verify")
    patch(crypto, "verify_shuffle", "shuffle proof verify")
    patch(crypto, "verify_token", "token proof verify")
    for name in ("decrypt_card", "decrypt", "open_token"):
        patch(crypto, name, "decryption")
    patch(crypto.HandKey, "partial", "decryption")
    for owner in (crypto.EncryptedDeck, crypto.ShuffleProof, crypto.RevealToken, crypto.KeyShare):
        patch(owner, "from_wire", "decode + validate")
        patch(owner, "to_wire", "crypto to_wire")
    patch(crypto.Scalar, "from_bytes", "decode + validate")
    for name in ("shuffle", "token", "seal_token"):
        patch(crypto, name, "proving")
    patch(crypto.HandKey, "generate", "proving")
    patch(crypto.HandKey, "share", "proving")
    for name in ("joint_key", "initial_deck"):
        patch(crypto, name, "deck setup")
    for name in ("__rmul__", "__add__", "__sub__", "__eq__"):
        patch(group.Point, name, _group_op_category)
    for name, value in list(vars(engine_class).items()):
        if name.startswith("_") or not (callable(value) or isinstance(value, property)):
            continue
        patch(engine_class, name, "engine")
    patch(codec, "pack", "encoding")
    patch(codec, "unpack", "encoding")
    patch(envelope, "_peek_header", "encoding")
    patch(identity.IdentityKey, "sign", "signatures")
    patch(identity.PublicIdentity, "verify", "signatures")
    try:
        yield
    finally:
        for target, attr, original in reversed(saved):
            setattr(target, attr, original)


class TimedBot:
    """A bot whose decisions are charged to the ``bots`` category."""

    def __init__(self, bot: Any, meter: Meter) -> None:
        self.name = bot.name
        self.choose = meter.timed("bots", bot.choose)


@dataclass
class PhaseFigures:
    """The figures of one phase (play or verify) of one run."""

    total: float
    seconds: dict[str, float]
    calls: dict[str, int]

    @property
    def must_check(self) -> float:
        return sum(self.seconds.get(c, 0.0) for c in MUST_CHECK)

    @property
    def crypto(self) -> float:
        return self.must_check + sum(self.seconds.get(c, 0.0) for c in OTHER_CRYPTO)

    @property
    def rest(self) -> float:
        return self.total - sum(self.seconds.values())


@dataclass
class Run:
    frames: int
    hands: int
    scores: tuple[int, ...]
    plain_play: float
    plain_verify: float
    play: PhaseFigures
    verify: PhaseFigures


def one_run(seed: int, bots_kind: str) -> Run:
    """Play and verify one match, first plainly, then again with the wrappers installed."""
    genesis, tables = memory.make_tables("scopa", "", 2, seed=seed)
    bots = [make_bot("scopa", bots_kind, seed * 10 + i) for i in range(2)]
    t0 = time.perf_counter()
    plain = memory.run_in_memory(genesis, tables, bots)
    plain_play = time.perf_counter() - t0
    t0 = time.perf_counter()
    table.replay_frames(genesis, plain.frames)
    plain_verify = time.perf_counter() - t0

    meter = Meter()
    genesis, tables = memory.make_tables("scopa", "", 2, seed=seed)
    timed_bots = [TimedBot(make_bot("scopa", bots_kind, seed * 10 + i), meter) for i in range(2)]
    with instrumented(meter, type(tables[0].engine)):
        t0 = time.perf_counter()
        run = memory.run_in_memory(genesis, tables, timed_bots)
        play = PhaseFigures(time.perf_counter() - t0, dict(meter.seconds), dict(meter.calls))
        meter.reset()
        t0 = time.perf_counter()
        observer = table.replay_frames(genesis, run.frames)
        verify = PhaseFigures(time.perf_counter() - t0, dict(meter.seconds), dict(meter.calls))
    if run.frames != plain.frames:
        raise RuntimeError("the instrumented match differs from the plain one (same seed)")
    if tuple(observer.engine.match_scores) != run.match_scores:
        raise RuntimeError("the verifier's scores differ from the players'")
    hands = sum(1 for data in run.frames if _kind_of(genesis, data) == "result") // 2
    return Run(len(run.frames), hands, run.match_scores, plain_play, plain_verify, play, verify)


def _kind_of(genesis: Genesis, data: bytes) -> str:
    payload = envelope.Payload.decode(envelope.Envelope.decode(data).payload)
    return payload.kind


def _row(label: str, play: float, verify: float, play_calls: int | str = "",
         verify_calls: int | str = "") -> str:
    return (f"{label:<34} {play * 1000:>10.1f} {play_calls!s:>7} "
            f"{verify * 1000:>10.1f} {verify_calls!s:>7}")


def print_run(run: Run) -> None:
    p, v = run.play, run.verify
    print(f"{run.frames} envelopes, {run.hands} hands, final scores {run.scores}")
    print(f"plain (no wrappers): play {run.plain_play * 1000:.1f} ms, "
          f"verify {run.plain_verify * 1000:.1f} ms")
    print()
    header = f"{'':<34} {'play ms':>10} {'calls':>7} {'verify ms':>10} {'calls':>7}"
    print(header)
    print("-" * len(header))
    print(_row("total (instrumented)", p.total, v.total))
    for cat in CATEGORIES:
        if cat == OTHER_CRYPTO[0]:
            print(_row("= crypto the issue counts", p.must_check, v.must_check))
        if cat == NON_CRYPTO[0]:
            print(_row("= all crypto", p.crypto, v.crypto))
        print(_row("  " + cat, p.seconds.get(cat, 0.0), v.seconds.get(cat, 0.0),
                   p.calls.get(cat, 0), v.calls.get(cat, 0)))
    print(_row("  rest (table, envelopes, chain)", p.rest, v.rest))
    print()
    for label, phase in (("play", p), ("verify", v)):
        print(f"{label:<6}: total / counted crypto = {phase.total / phase.must_check:.3f} "
              f"(target <= {TARGET_RATIO}), total / all crypto = "
              f"{phase.total / phase.crypto:.3f}")


def profile_observer(seed: int, bots_kind: str, top: int) -> None:
    """cProfile of the observer's replay (Table.receive of every frame), by inline time."""
    genesis, tables = memory.make_tables("scopa", "", 2, seed=seed)
    bots = [make_bot("scopa", bots_kind, seed * 10 + i) for i in range(2)]
    run = memory.run_in_memory(genesis, tables, bots)
    profiler = cProfile.Profile()
    profiler.runcall(table.replay_frames, genesis, run.frames)
    print(f"cProfile of the observer's replay (top {top} by inline time):")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time of a 2-seat Scopa match over the protocol, and of its verification.")
    parser.add_argument("--quick", action="store_true", help="one run only")
    parser.add_argument("--repeat", type=int, default=3, help="runs (seeds seed..seed+N-1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", choices=("random", "smart"), default="random")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of the observer's replay")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else max(1, args.repeat)
    print(f"Python {platform.python_version()} on {platform.machine()}; 2-seat Scopa "
          f"(classic), {args.bots} bots, full mental poker, both seats in one process")
    runs = []
    for i in range(repeat):
        print()
        print(f"--- run {i + 1} of {repeat} (seed {args.seed + i})")
        run = one_run(args.seed + i, args.bots)
        print_run(run)
        runs.append(run)
    if repeat > 1:
        print()
        print(f"--- median of {repeat} runs")
        for label in ("play", "verify"):
            phases = [r.play if label == "play" else r.verify for r in runs]
            totals = [f.total for f in phases]
            counted = [f.must_check for f in phases]
            ratios = [f.total / f.must_check for f in phases]
            print(f"{label:<6}: total {statistics.median(totals) * 1000:.1f} ms, counted crypto "
                  f"{statistics.median(counted) * 1000:.1f} ms, ratio "
                  f"{statistics.median(ratios):.3f} (runs: "
                  + ", ".join(f"{x:.3f}" for x in ratios) + ")")
    if args.profile:
        print()
        profile_observer(args.seed, args.bots, 25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
