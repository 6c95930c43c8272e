"""Timings of the mental-poker layer (p2pcards.crypto), printed as a table.

Run: ``python benchmarks/mental_poker.py [--repeat N]``. Costs are also given in units of one
variable-base scalar multiplication (libsodium ``crypto_scalarmult_ed25519_noclamp``, which
includes its own subgroup check of the input point), the unit the design targets use.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import nacl.bindings as sodium

from p2pcards.cards import FRENCH_108, ITALIAN_40, Deck
from p2pcards.crypto import (
    EncryptedDeck,
    HandKey,
    ProofContext,
    ShuffleProof,
    SystemRandomness,
    initial_deck,
    joint_key,
    shuffle,
    verify_shuffle,
)
from p2pcards.crypto.simulation import run_hand


def best(fn: Callable[[], object], repeat: int, number: int = 1) -> float:
    """Median seconds per call over ``repeat`` runs of ``number`` calls."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t0) / number)
    return statistics.median(runs)


def measure_deck(deck: Deck, repeat: int) -> list[tuple[str, float]]:
    """Shuffle + prove, verify, and decoding of one shuffle of ``deck``."""
    rng = SystemRandomness()
    ctx = ProofContext(b"\x00" * 32, 0, 0, "shuffle-0")
    keys = [HandKey.generate(rng) for _ in range(2)]
    h = joint_key(key.public for key in keys)
    d0 = initial_deck(deck, h)
    d1, proof = shuffle(d0, h, ctx, rng)  # also warms the generator cache
    n = len(deck)
    deck_wire, proof_wire = d1.to_wire(), proof.to_wire()

    def decode() -> None:
        EncryptedDeck.from_wire(deck_wire, deck)
        ShuffleProof.from_wire(proof_wire, n)

    return [
        (f"{n} cards: shuffle + prove", best(lambda: shuffle(d0, h, ctx, rng), repeat)),
        (f"{n} cards: verify", best(lambda: verify_shuffle(d0, d1, h, proof, ctx), repeat)),
        (f"{n} cards: decode + validate deck and proof", best(decode, repeat)),
    ]


def shuffle_phase(deck: Deck, seats: int, repeat: int) -> dict[str, float]:
    """The whole shuffle phase of one hand: every seat shuffles and proves in turn, and every
    other seat verifies each shuffle. Seconds: ``prove`` and ``verify`` (medians of one call),
    ``cpu`` (all ``seats`` shuffles and ``seats·(seats−1)`` verifications, one after another),
    ``path`` (the critical path with one process per seat: each seat verifies the previous
    shuffle, then shuffles; the last shuffle is verified by all at once)."""
    rng = SystemRandomness()
    keys = [HandKey.generate(rng) for _ in range(seats)]
    h = joint_key(key.public for key in keys)
    proves: list[float] = []
    verifies: list[float] = []
    totals: list[float] = []
    for _ in range(repeat):
        current = initial_deck(deck, h)
        t_phase = time.perf_counter()
        for seat in range(seats):
            ctx = ProofContext(b"\x00" * 32, 0, seat, "shuffle")
            t0 = time.perf_counter()
            out, proof = shuffle(current, h, ctx, rng)
            proves.append(time.perf_counter() - t0)
            for _verifier in range(seats - 1):
                t0 = time.perf_counter()
                verify_shuffle(current, out, h, proof, ctx)  # raises ProofError if wrong
                verifies.append(time.perf_counter() - t0)
            current = out
        totals.append(time.perf_counter() - t_phase)
    prove, verify = statistics.median(proves), statistics.median(verifies)
    return {"prove": prove, "verify": verify, "cpu": statistics.median(totals),
            "path": seats * (prove + verify)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = SystemRandomness()

    k = rng.scalar().to_bytes()
    p = sodium.crypto_scalarmult_ed25519_base_noclamp(k)
    q = sodium.crypto_scalarmult_ed25519_base_noclamp(rng.scalar().to_bytes())
    unit = best(lambda: sodium.crypto_scalarmult_ed25519_noclamp(k, p), args.repeat, 500)
    base = best(lambda: sodium.crypto_scalarmult_ed25519_base_noclamp(k), args.repeat, 500)
    add = best(lambda: sodium.crypto_core_ed25519_add(p, q), args.repeat, 500)
    valid = best(lambda: sodium.crypto_core_ed25519_is_valid_point(p), args.repeat, 500)

    rows: list[tuple[str, float]] = [
        ("variable-base scalar mult", unit),
        ("fixed-base scalar mult", base),
        ("point addition", add),
        ("point validation (decode)", valid),
    ]
    for deck in (ITALIAN_40, FRENCH_108):
        rows.extend(measure_deck(deck, args.repeat))
    deal = best(lambda: run_hand(ITALIAN_40, 2, rng, verify_by_all=True), args.repeat)
    rows.append(("2-seat deal of all 40 cards", deal))

    print(f"{'operation':<46} {'ms':>9} {'× var mult':>11} {'per card':>9}")
    print("-" * 78)
    for name, seconds in rows:
        n_cards = int(name.split()[0]) if name[0].isdigit() and "cards:" in name else 0
        per_card = f"{seconds / unit / n_cards:9.2f}" if n_cards else f"{'':>9}"
        print(f"{name:<46} {seconds * 1000:9.3f} {seconds / unit:11.1f} {per_card}")
    print()
    print(f"{'4-seat shuffle phase':<22} {'prove ms':>9} {'verify ms':>10} {'prove/card':>11} "
          f"{'verify/card':>12} {'all CPU s':>10} {'path s':>7} {'2 cores s':>10}")
    print("-" * 98)
    for deck in (ITALIAN_40, FRENCH_108):
        ph = shuffle_phase(deck, 4, max(1, args.repeat // 2))
        n = len(deck)
        print(f"{deck.name + f' ({n} cards)':<22} {ph['prove'] * 1000:9.1f} "
              f"{ph['verify'] * 1000:10.1f} {ph['prove'] / unit / n:11.2f} "
              f"{ph['verify'] / unit / n:12.2f} {ph['cpu']:10.2f} {ph['path']:7.2f} "
              f"{max(ph['path'], ph['cpu'] / 2):10.2f}")
    print("prove/card and verify/card are in variable-base multiplications; 'all CPU' is the")
    print("4 shuffles and 12 verifications one after another; 'path' the critical path with a")
    print("process per seat (each seat verifies the previous shuffle, then shuffles: 4 proofs")
    print("and 4 verifications); '2 cores' the larger of the path and half the CPU total.")
    print()
    print("The 2-seat deal: keys with proofs (each verified by the other seat), two shuffles")
    print("each verified by the other seat, a proven and verified token for every card from")
    print("the seat that does not own it, and decryption by the owner.")


if __name__ == "__main__":
    main()
