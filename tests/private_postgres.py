"""A PostgreSQL server of a test's own, in a temporary folder on a free port: a test may
restart it (or worse) without touching the server the other tests share, so it need not
run alone. Needs PostgreSQL's server programs (``initdb``, ``pg_ctl``); as root they run
as the ``postgres`` user, which PostgreSQL requires."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import logging
import os
import pwd
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)


def _bindir() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    # Debian keeps the server programs off the PATH, one folder per major version.
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


def unavailable() -> str | None:
    """Why no private server can run here, or None."""
    if _bindir() is None:
        return "no PostgreSQL server programs (initdb, pg_ctl) here"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, and there is no postgres user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root, and no runuser to run the server as postgres"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str  # SQLAlchemy's URL of its database ``postgres``
    _ctl: list[str]

    async def restart(self, timeout: float = 60) -> None:
        """Stopped at once (connections cut, as ``pg_ctl -m fast``) and started again;
        returns when it accepts connections."""
        await _run([*self._ctl, "-w", "-m", "fast", "restart"], timeout)


async def _run(argv: list[str], timeout: float) -> None:
    proc = await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {out.decode(errors='replace')}")


@asynccontextmanager
async def private_postgres() -> AsyncIterator[Server]:
    bindir = _bindir()
    assert bindir is not None, unavailable()
    # In /tmp, not a long $TMPDIR: the server's socket path must stay under 108 bytes; and
    # a folder the postgres user may enter.
    folder = Path(tempfile.mkdtemp(prefix="tally-pg-",
                                   dir="/tmp" if os.path.isdir("/tmp") else None))
    as_user: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    ctl = [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log")]
    try:
        await _run([*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust",
                    "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"], 120)
        for attempt in range(3):  # a free port may be taken before the server binds it
            port = _free_port()
            try:
                # Not durable (a test's throwaway data), and its socket in its own folder.
                await _run([*ctl, "-w", "-o", f"-p {port} -k {folder} "
                            "-c listen_addresses=127.0.0.1 -c fsync=off "
                            "-c synchronous_commit=off -c full_page_writes=off", "start"], 60)
                break
            except RuntimeError:
                if attempt == 2:
                    raise
        yield Server(f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres", ctl)
    finally:
        if (data / "postmaster.pid").exists():
            try:
                await _run([*ctl, "-m", "immediate", "stop"], 60)
            except (RuntimeError, TimeoutError) as exc:  # the test's own error comes first
                log.warning("could not stop the private PostgreSQL in %s: %s", folder, exc)
        with contextlib.suppress(OSError):
            shutil.rmtree(folder)
