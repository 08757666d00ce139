"""Ports on 127.0.0.1 for test servers, without the race of "find a free port, close it, bind it again later".

* an in-process server (uvicorn) gets a socket that is already bound and stays open until the server owns it
  (`bound_socket`): no other process can take the port in between;
* a server in another process cannot be handed a socket, so `start_process_server` starts it on a free port and,
  should it die before it answers (its port was taken meanwhile), starts it again on another port.

Example:
    sock = bound_socket()
    uvicorn.Server(config).run(sockets=[sock])         # port: sock.getsockname()[1]

    process, port = start_process_server(lambda port: ["mlflow", "server", "--port", str(port)],
                                         lambda port: f"http://127.0.0.1:{port}/health")
"""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable


def bound_socket(port: int = 0) -> socket.socket:
    """A TCP socket bound to 127.0.0.1 (`port`, or a free one when 0), not yet listening; the caller owns it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        sock.close()
        raise
    return sock


def free_port() -> int:
    """A port that is free right now. Another process may take it before it is bound again: use `bound_socket` for
    in-process servers and `start_process_server` (which retries) for servers in another process."""
    with bound_socket() as sock:
        return sock.getsockname()[1]


def start_process_server(
    command: Callable[[int], list[str]],
    ready_url: Callable[[int], str],
    timeout_s: float = 90.0,
    attempts: int = 3,
    **popen,
) -> tuple[subprocess.Popen, int]:
    """Start ``command(port)`` on a free port and wait until ``ready_url(port)`` answers; (process, port).

    A process that exits before it answers is started again on a new port (`attempts` times in all): the usual
    cause is that another process took the port between `free_port` and the server's bind.

    Raises:
        RuntimeError: the server never answered (the last exit code, or the timeout, is in the message).
    """
    popen = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, **popen}
    why = "never started"
    for _ in range(attempts):
        port = free_port()
        process = subprocess.Popen(command(port), **popen)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(ready_url(port), timeout=2):
                    if process.poll() is None:  # answered, and still running
                        return process, port
            except OSError:
                time.sleep(0.5)
        if process.poll() is None:  # alive but silent: give up
            stop(process)
            raise RuntimeError(f"{command(port)[:3]} did not answer within {timeout_s:g} s")
        why = f"exited with {process.returncode}"
    raise RuntimeError(f"{command(0)[:3]} {why} ({attempts} ports tried)")


def stop(process: subprocess.Popen, wait_s: float = 10.0) -> None:
    """Terminate `process`, and kill it if it does not end within `wait_s`."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(wait_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
