"""The command line shared by the vector generators: write the regenerated files, or with
``--check`` compare them with the committed ones (exit status 1 naming each file that differs)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["vector_main"]


def vector_main(build: Callable[[], Mapping[str, str]], default_dir: Path, prog: str,
                description: str | None, argv: list[str] | None = None) -> int:
    """Run a generator's command line: ``build()`` gives file name -> exact text."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--check", action="store_true",
                        help="compare with the files instead of writing them")
    parser.add_argument("--dir", type=Path, default=default_dir, help="vector directory")
    args = parser.parse_args(argv)
    files = build()
    if args.check:
        bad = [name for name, text in files.items()
               if not (args.dir / name).is_file()
               or (args.dir / name).read_text(encoding="utf-8") != text]
        for name in bad:
            print(f"{args.dir / name}: differs from the regenerated vector", file=sys.stderr)
        if not bad:
            print(f"{len(files)} vector file(s) match")
        return 1 if bad else 0
    args.dir.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.dir / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} vector file(s) to {args.dir}")
    return 0
