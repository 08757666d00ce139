"""Test servers get their ports without a race (yaksa/testing/ports.py): an in-process server's port is held from the
moment it is chosen, and a server in another process that dies before answering is started again on a new port."""

import socket
import sys

import httpx
import pytest

from yaksa.testing.ports import bound_socket, start_process_server, stop
from yaksa.testing.serve_app import LiveServer, make_app


def test_a_live_server_holds_its_port_from_the_start():
    server = LiveServer(make_app())
    with socket.socket() as thief, pytest.raises(OSError):
        thief.bind(("127.0.0.1", server.port))  # chosen but not yet served: still nobody else's
    with server:
        assert httpx.get(server.url + "/healthz", timeout=10).status_code == 200


def test_a_bound_socket_refuses_a_second_bind():
    with bound_socket() as held, socket.socket() as other, pytest.raises(OSError):
        other.bind(("127.0.0.1", held.getsockname()[1]))


def test_a_process_server_that_dies_before_answering_is_started_again_on_another_port():
    ports = []

    def command(port):
        ports.append(port)
        if len(ports) == 1:  # as if another process had taken the port: the server exits at once
            return [sys.executable, "-c", "raise SystemExit(3)"]
        return [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]

    process, port = start_process_server(command, lambda p: f"http://127.0.0.1:{p}/", timeout_s=30)
    try:
        assert len(ports) == 2
        assert port == ports[-1]
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
    finally:
        stop(process)
    assert process.poll() is not None


def test_a_process_server_that_never_answers_is_reported():
    with pytest.raises(RuntimeError, match="exited with 3"):
        start_process_server(lambda p: [sys.executable, "-c", "raise SystemExit(3)"], lambda p: "http://x/", attempts=2)
