"""A long fuzzing run of the running bot: ``python -m bench.fuzz_bench [--inputs 5000]``.

The same inputs and checks as ``tests/bot/test_fuzz.py`` (see :mod:`tests.bot.fuzz`), from
a seeded ``random.Random`` instead of hypothesis, for as many inputs as asked. Prints what
the inputs got (recorded, refused, ...) and how far the process's peak memory grew per
thousand inputs (a ratio, not a time: the goal is that it stays flat). Stops at the first
input that breaks a rule, printing it and the seed to replay it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import tempfile
from collections import Counter
from pathlib import Path

from tests.bot.fuzz import World, random_input


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run(inputs: int, seed: int) -> int:
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        world = await World.start(Path(tmp))
        start = _peak_mb()
        try:
            for i in range(inputs):
                inp = random_input(rng, world)
                before = world.refusals
                try:
                    await world.step(inp)
                except AssertionError as exc:
                    print(f"input {i} (seed {seed}) broke a rule: {exc}")
                    return 1
                kinds["press" if inp.press else "line"] += 1
                kinds["refused or read-only" if world.refusals > before else "other"] += 1
                if (i + 1) % 1000 == 0:
                    print(f"{i + 1} inputs, peak memory +{_peak_mb() - start:.0f} MB")
        finally:
            await world.stop()
    grown = _peak_mb() - start
    print(f"{inputs} inputs: {dict(kinds)}")
    print(f"peak memory grew {grown:.0f} MB, {grown / max(1, inputs) * 1000:.1f} MB per 1000 "
          "inputs")
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--inputs", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    raise SystemExit(asyncio.run(run(args.inputs, args.seed)))


if __name__ == "__main__":
    main()
