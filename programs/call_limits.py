"""The limits of one LM call (`programs.lm_call` enforces them; `programs.lm_config` reads them from ``[lm]``).

A light module (no DSPy import), so the command line can show the defaults in its help.

Example:
    >>> CallLimits().first_token_s, CallLimits().idle_s
    (60.0, 30.0)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CallLimits:
    """How long one LM call may wait.

    Attributes:
        first_token_s: seconds until the first streamed token (or, without streaming, the whole reply).
        idle_s: seconds between two tokens once the stream has started.
        stream: ask the server to stream; off for servers without server-sent events.
    """

    first_token_s: float = 60.0
    idle_s: float = 30.0
    stream: bool = True
