"""Helpers of ``bench.webhook_bench``: a CPU cap per worker process (a Linux cgroup), and
the fake Bot API over HTTP noting which worker process each call came from.

The cap: cgroup v1 (a folder per worker under ``/sys/fs/cgroup/cpu/``, ``cpu.cfs_quota_us``
of ``cpu.cfs_period_us``) or cgroup v2 (a folder under ``/sys/fs/cgroup/`` with
``cpu.max``; the v2 path is written to the kernel's documentation but not measured here).
It needs root; without it, or without a cgroup file system, ``CpuCap.reason`` says why
and the workers run uncapped.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
from collections import Counter
from pathlib import Path

from bot.console.fake_api import FakeBotAPI, dispatch, read_call, write_answer

V1 = Path("/sys/fs/cgroup/cpu")
V2 = Path("/sys/fs/cgroup")
PERIOD_US = 100_000


class CpuCap:
    """``cap`` CPUs for each worker process, each in a cgroup folder of its own."""

    def __init__(self, cap: float | None) -> None:
        self.cap = cap
        self.folders: list[Path] = []
        self.root: Path | None = None
        self.version = 0
        self.reason = ""
        if cap is None or cap <= 0:
            self.reason = "no cap asked for"
        elif os.geteuid() != 0:
            self.reason = "not root: cannot write cgroups"
        elif (V1 / "cpu.cfs_quota_us").exists():
            self.root, self.version = V1, 1
        elif (V2 / "cgroup.controllers").exists() and "cpu" in (
                V2 / "cgroup.controllers").read_text().split():
            self.root, self.version = V2, 2
        else:
            self.reason = "no cgroup cpu controller (v1 /sys/fs/cgroup/cpu or v2 cpu.max)"

    @property
    def active(self) -> bool:
        return self.root is not None

    def describe(self) -> str:
        if not self.active:
            return f"uncapped ({self.reason})"
        return f"{self.cap} CPU a worker (cgroup v{self.version})"

    def apply(self, pids: list[int]) -> None:
        """Put each process in a new folder of its own with the cap."""
        if self.root is None or self.cap is None:
            return
        quota = int(self.cap * PERIOD_US)
        if self.version == 2:
            control = self.root / "cgroup.subtree_control"
            if "cpu" not in control.read_text().split():
                control.write_text("+cpu")
        for n, pid in enumerate(pids):
            folder = self.root / f"tally-bench-{os.getpid()}-{len(self.folders)}-{n}"
            folder.mkdir()
            self.folders.append(folder)
            if self.version == 1:
                (folder / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (folder / "cpu.cfs_quota_us").write_text(str(quota))
            else:
                (folder / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            (folder / "cgroup.procs").write_text(str(pid))

    def throttled_seconds(self) -> float:
        """How long the capped processes were held back so far (v1 ``cpu.stat``)."""
        total = 0.0
        for folder in self.folders:
            for line in (folder / "cpu.stat").read_text().splitlines():
                key, value = line.split()
                if key == "throttled_time":  # v1, ns
                    total += int(value) / 1e9
                elif key == "throttled_usec":  # v2
                    total += int(value) / 1e6
        return total

    def remove(self) -> None:
        """Move what is left back to the root cgroup, then remove the folders."""
        assert self.root is not None or not self.folders
        for folder in self.folders:
            try:
                for pid in (folder / "cgroup.procs").read_text().split():
                    with contextlib.suppress(ProcessLookupError):
                        (self.root / "cgroup.procs").write_text(pid)  # type: ignore[operator]
                folder.rmdir()
            except FileNotFoundError:
                pass
        self.folders = []


# --- which worker process a Bot API call came from ---------------------------------------

_peer: contextvars.ContextVar[int] = contextvars.ContextVar("peer", default=0)


def _socket_inode(local_port: int, remote_port: int) -> str | None:
    """The inode of the open TCP socket from ``local_port`` to ``remote_port`` (Linux;
    a socket in TIME_WAIT on the same ports has none)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            if (int(fields[1].rsplit(":", 1)[1], 16) == local_port
                    and int(fields[2].rsplit(":", 1)[1], 16) == remote_port
                    and fields[9] != "0"):
                return fields[9]
    return None


def owner(port: int, server_port: int, pids: list[int]) -> int:
    """Which of ``pids`` holds the client socket from ``port`` to ``server_port`` (0: none
    of them)."""
    inode = _socket_inode(port, server_port)
    if inode is None:
        return 0
    target = f"socket:[{inode}]"
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    if os.readlink(fd) == target:
                        return pid
                except OSError:
                    continue
        except OSError:
            continue
    return 0


class CallsByWorker:
    """Counts the answers (``sendMessage`` calls) each worker process made."""

    def __init__(self) -> None:
        self.pids: list[int] = []
        self.answers: Counter[int] = Counter()

    def note(self, method: str) -> None:
        if method.lower() == "sendmessage":
            self.answers[_peer.get()] += 1

    def reset(self) -> None:
        self.answers.clear()


async def serve_http_counting(api: FakeBotAPI, counts: CallsByWorker,
                              host: str = "127.0.0.1") -> asyncio.base_events.Server:
    """``bot.console.fake_api.serve_http``, noting the calling worker of each call."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        port = int(writer.get_extra_info("peername")[1])
        server_port = int(writer.get_extra_info("sockname")[1])
        _peer.set(owner(port, server_port, counts.pids) if counts.pids else 0)
        try:
            while True:
                method, params = await read_call(reader)
                if _peer.get() == 0 and counts.pids:  # a connection older than the pids
                    _peer.set(owner(port, server_port, counts.pids))
                counts.note(method)
                status, payload = await dispatch(api, method, params)
                await write_answer(writer, status, payload)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(handle, host, 0)
