"""CPU seconds per test, for finding what the suite spends (the machine it runs on is
shared, so wall time says little): ``pytest -p tests.cpu_report`` with
``TESTS_CPU_DIR=<folder>`` writes, for each test, the user and system CPU of the test's
process and of the child processes it waited for, as one JSON line per test into a file
per pytest process. ``python -m tests.cpu_report <folder>`` sums them per file."""

from __future__ import annotations

import json
import os
import resource
import sys
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Generator[None, Any, None]:
    folder = os.environ.get("TESTS_CPU_DIR")
    start = _cpu()
    yield
    if folder:
        line = json.dumps({"test": item.nodeid, "cpu": round(_cpu() - start, 4)})
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(Path(folder) / f"{worker}-{os.getpid()}.jsonl", "a") as f:
            f.write(line + "\n")


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get("TESTS_CPU_DIR")
    if folder:  # the whole process: start-up and collection included
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(Path(folder) / f"{worker}-{os.getpid()}.total", "w") as f:
            f.write(f"{_cpu():.2f}\n")


def main(folder: str, top: int = 40) -> None:
    per_file: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    tests: list[tuple[float, str]] = []
    for path in Path(folder).glob("*.jsonl"):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            name = row["test"].split("::")[0]
            per_file[name] += row["cpu"]
            count[name] += 1
            tests.append((row["cpu"], row["test"]))
    processes = sum(float(p.read_text()) for p in Path(folder).glob("*.total"))
    print(f"tests {sum(per_file.values()):.1f} s of CPU in {len(tests)} tests; "
          f"pytest's processes in all {processes:.1f} s")
    for name, cpu in sorted(per_file.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{cpu:8.1f}  {count[name]:5d}  {name}")
    print("longest tests:")
    for cpu, test in sorted(tests, reverse=True)[:top]:
        print(f"{cpu:8.2f}  {test}")


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:3]))
