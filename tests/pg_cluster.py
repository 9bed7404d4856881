"""A throwaway PostgreSQL server for the tests: `initdb` and `pg_ctl` from Debian's
/usr/lib/postgresql/NN/bin (not on PATH), in a temporary directory, on a free port.

Never the system cluster on 5432: the data directory, the unix socket and the log live in a fresh
temporary directory, removed when the cluster stops. PostgreSQL refuses to run as root, so when the
tests run as root the cluster belongs to the `postgres` user (the directory is handed to it and the
programs run through `runuser`). Durability is switched off (fsync, synchronous_commit): a test
database is thrown away anyway, and it makes each commit cheap.

The server's pid goes to the process guard (tests/process_guard.py): `pg_ctl` starts it detached,
so it is not a descendant of pytest, and the guard would not otherwise see it outlive the session.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

from tests import process_guard

ROOT = Path("/usr/lib/postgresql")
_DB_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def bin_dir() -> Path | None:
    """The newest installed PostgreSQL's program directory, or None when there is none."""
    found = []
    for entry in ROOT.glob("*/bin") if ROOT.is_dir() else ():
        if (entry / "initdb").is_file() and (entry / "pg_ctl").is_file() and entry.parent.name.isdigit():
            found.append((int(entry.parent.name), entry))
    return max(found)[1] if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL server: `start()`, `create_database()`, `url()`, `stop()`."""

    def __init__(self, programs: Path) -> None:
        self.programs = programs
        self.dir = Path(tempfile.mkdtemp(prefix="hordes-pg-"))  # short: a socket path is at most 107 bytes
        self.data = self.dir / "data"
        self.port = _free_port()
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self.pid: int | None = None
        self._admin: sa.Engine | None = None

    def _run(self, *argv: str) -> None:
        command = [str(self.programs / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}")

    def start(self) -> None:
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.dir, account.pw_uid, account.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", self.user, "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")  # fmt: skip
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        )
        self._run("pg_ctl", "start", "-w", "-t", "60", "-s", "-D", str(self.data), "-l",
                  str(self.dir / "server.log"), "-o", options)  # fmt: skip
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])
        process_guard.watch(self.pid)

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL of a database of this cluster, over TCP on the loopback."""
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def admin(self) -> sa.Engine:
        if self._admin is None:
            self._admin = sa.create_engine(self.url(), isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        return self._admin

    def create_database(self, name: str) -> str:
        """A new empty database `name` (dropped first if it exists); returns its URL."""
        if not _DB_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a plain database name")
        with self.admin().connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            # template0 copied file by file: about 50 ms, where the default (template1, copied
            # through the WAL) takes about 250 ms; a suite makes one database per test
            conn.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE template0 STRATEGY FILE_COPY'))
        return self.url(name)

    def drop_database(self, name: str) -> None:
        with self.admin().connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def stop(self) -> None:
        if self._admin is not None:
            self._admin.dispose()
        if self.pid is not None:
            with contextlib.suppress(RuntimeError):  # already gone: the guard says so if it is not
                self._run("pg_ctl", "stop", "-w", "-t", "30", "-s", "-m", "immediate", "-D", str(self.data))
            deadline = time.monotonic() + 30
            while process_guard.alive(self.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
        shutil.rmtree(self.dir, ignore_errors=True)
