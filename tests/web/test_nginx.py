"""Issue 15: the nginx configuration of docs/deploy.md, run by Debian's nginx in front of two
`hordes serve` processes on one PostgreSQL. `make test` installs Debian's nginx when it is absent
(and stops the system nginx the package starts); without it the test skips, or fails under CI=true.
The block is taken from the page itself, with only its `listen` line (no TLS here) and its upstream
addresses replaced, so that the page cannot drift from what works."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg_cluster import Cluster
from tests.web.conftest import TEST_DATABASE
from tests.web.live_server import free_port, server_processes
from tests.web.test_postgres import api, wait_for, ws

# These tests start their own PostgreSQL databases: the suite's second pass over tests/web (on
# PostgreSQL, HORDES_TEST_DATABASE=postgresql) would only run them again.
pytestmark = pytest.mark.skipif(TEST_DATABASE == "postgresql", reason="run in the first pass already")

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def nginx_program() -> str | None:
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if Path("/usr/sbin/nginx").is_file() else None


def deploy_block() -> str:
    """The nginx block of docs/deploy.md."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.S)
    assert len(blocks) == 1, "docs/deploy.md should hold one nginx block"
    return blocks[0]


def local_config(block: str, port: int, upstreams: list[str], prefix: Path) -> str:
    """A whole nginx.conf around the page's block: its listen line on a loopback port, its upstream
    servers those of the test, every file nginx writes inside `prefix`."""
    servers = "".join(f"    server {u};\n" for u in upstreams)
    block, n = re.subn(
        r"upstream hordes \{\n(?:\s*server [^;]+;\n)+\}", f"upstream hordes {{\n{servers}}}", block
    )
    assert n == 1, "the nginx block's `upstream hordes` lists no servers"
    block, n = re.subn(r"listen 443 ssl;", f"listen 127.0.0.1:{port};", block)
    assert n == 1, "the nginx block has no `listen 443 ssl;` line"
    temp = "".join(
        f"    {kind}_temp_path {prefix / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"pid {prefix / 'nginx.pid'};\nerror_log {prefix / 'error.log'};\nworker_processes 1;\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{\n    access_log off;\n{temp}{block}}}\n"
    )


@contextlib.contextmanager
def nginx(program: str, config: str, prefix: Path, port: int) -> Iterator[None]:
    conf = prefix / "nginx.conf"
    conf.write_text(config)
    prefix.chmod(0o777)  # its worker may run as another user when the tests run as root
    proc = subprocess.Popen(
        [program, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its workers are in its group, killed with it
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                log = (prefix / "error.log").read_text() if (prefix / "error.log").exists() else ""
                err = proc.stderr.read().decode() if proc.stderr and proc.poll() is not None else ""
                raise RuntimeError(f"nginx did not start:\n{err}{log}")
            time.sleep(0.05)
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def metric(base: str, name: str) -> int:
    """One figure of a process's own /metrics (`name` a regular expression, labels included)."""
    text = urllib.request.urlopen(base + "/metrics", timeout=10).read().decode()
    match = re.search(rf"^{name} (\d+)$", text, re.M)
    assert match, text
    return int(match.group(1))


@pytest.fixture
def pg_url(pg_cluster: Cluster, request: pytest.FixtureRequest) -> Iterator[str]:
    name = "n_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    url = pg_cluster.create_database(name)
    yield url
    pg_cluster.drop_database(name)


def test_issue15_p6_the_page_nginx_config_fronts_two_processes_without_sticky_sessions(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Through nginx: a game is made, joined and watched by two websockets (upgraded by the proxy),
    and moved by the API. Round robin puts the two watchers on different processes (each process's
    /metrics counts one game socket) and stores moves on both, so each watcher sees moves made through
    the other process; every watcher sees every move, and /metrics is refused from outside."""
    program = nginx_program()
    if program is None:
        why = "nginx is not installed (Debian's nginx package; `make test` installs it)"
        if os.environ.get("CI"):  # `make test` installs it, so in CI its absence is a failure
            pytest.fail(why)
        pytest.skip(why)
    pg = request.getfixturevalue("pg_url")
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    port = free_port()
    with server_processes(2, tmp_path, "--database", pg) as started:
        bases = [base for _proc, base in started]
        upstreams = [base.removeprefix("http://") for base in bases]
        with nginx(program, local_config(deploy_block(), port, upstreams, prefix), prefix, port):
            front = f"http://127.0.0.1:{port}"
            g = api(front, "/api/games", {"variant": "chess", "opponent": "friend", "color": "white"})
            black = api(front, f"/api/games/{g['id']}/join", {"invite": g["invite_token"]})["token"]
            with ws(front, f"/ws/game/{g['id']}") as one, ws(front, f"/ws/game/{g['id']}") as two:
                for watcher in (one, two):
                    assert json.loads(watcher.recv(10))["type"] == "game"
                # each socket is counted before its snapshot is sent: both counts are final here
                assert [metric(base, r'hordes_open_sockets\{kind="game"\}') for base in bases] == [1, 1]
                line = [("e2e4", g["token"]), ("e7e5", black), ("g1f3", g["token"]), ("b8c6", black)]
                for ply, (uci, token) in enumerate(line):
                    api(front, f"/api/games/{g['id']}/moves", {"uci": uci}, {"X-Seat-Token": token})
                    for watcher in (one, two):
                        seen = wait_for(watcher, lambda f: f["type"] == "move")
                        assert (seen["ply"], seen["uci"]) == (ply + 1, uci)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(front + "/metrics", timeout=10)
            assert refused.value.code == 403
        stored = [metric(base, "hordes_moves_stored_total") for base in bases]
        assert sum(stored) == len(line) and all(stored), stored
