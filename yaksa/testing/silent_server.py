"""A dead LM server on 127.0.0.1: it accepts TCP connections and never sends a byte (a hung process, a stuck proxy).

Example:
    with SilentServer() as dead:
        yaksa ask ... --api-base {dead.url}          # every call waits for its first-token limit
        dead.accepted                                # connections it took
"""

from __future__ import annotations

import socket
import threading


class SilentServer:
    def __init__(self):
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self._listener.settimeout(0.1)
        self._held: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True, name="silent-server")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"

    @property
    def accepted(self) -> int:
        return len(self._held)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                self._held.append(self._listener.accept()[0])
            except (TimeoutError, OSError):
                continue

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(2)
        for conn in self._held:
            conn.close()
        self._listener.close()
