"""uvicorn's h11 protocol with a header timeout: a connection whose request line and headers have not all arrived
within `header_timeout_s` is closed (uvicorn only times out idle keep-alive connections, so a client that sends
half a header holds its connection for ever). The body's own timeout is `yaksa.app.limits.RequestGuard`'s.

Example:
    uvicorn.run(app, http=with_header_timeout(10.0))
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol


def with_header_timeout(header_timeout_s: float) -> type[H11Protocol]:
    """An H11Protocol class that closes connections whose headers are slower than `header_timeout_s`."""

    class TimedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            waiting = self.cycle is None or self.cycle.response_complete
            super().data_received(data)
            if waiting and self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # the headers of a request are complete
            elif waiting and self._header_timer is None:
                self._arm()  # the next request on a kept-alive connection has begun

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.cycle is None or self.cycle.response_complete:
                if not self.transport.is_closing():
                    self.transport.close()

    return TimedH11Protocol
