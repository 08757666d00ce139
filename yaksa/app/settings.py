"""Settings of the HTTP server: limits, timeouts, the optional bearer token, and how answers are scored; the
``[serve]`` table of yaksa.toml sets them (`ServeSettings.load`), ``YAKSA_API_TOKEN`` sets the token.

Example:
    >>> s = ServeSettings(max_concurrent=4)
    >>> s.max_question_chars, s.heartbeat_s
    (500, 5.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from programs.question import MAX_QUESTION_CHARS
from retrievers.config_file import environment, load_settings

SCORES = ("auto", "quality", "ragas", "off")


def check_token(token: str | None) -> None:
    """Refuse a bearer token no request could match: blank, or with whitespace around it (HTTP strips it from the
    header), which would lock every client out with 401.

    Raises:
        ValueError: one line saying what is wrong and how to fix it.
    """
    if token is not None and (not token.strip() or token != token.strip()):
        what = "only whitespace" if not token.strip() else "starts or ends with whitespace"
        raise ValueError(
            f"the API token (YAKSA_API_TOKEN / api_token) is {what}: no request could send it, so every client "
            "would get 401; set a token without spaces around it, or unset it"
        )


@dataclass(frozen=True)
class ServeSettings:
    """Limits and behaviour of `yaksa serve`.

    Attributes:
        max_question_chars: longer questions get 422 (at most `MAX_QUESTION_CHARS`).
        max_body_bytes: larger request bodies get 413 before they are parsed.
        body_timeout_s: a request body not fully received within this gets 408 (a slow client cannot hold a
            connection).
        header_timeout_s: a connection whose request headers are not complete within this is closed.
        allowed_hosts: Host header names answered (others get 400); None answers any. `yaksa serve` on a
            loopback address allows only ``127.0.0.1``, ``localhost`` and ``::1`` (DNS rebinding).
        max_concurrent: questions in flight at once (both endpoints); one more gets 429.
        workers: threads running programs at once; admitted questions beyond it wait (the stream keeps beating).
        request_timeout_s: a question that takes longer ends with 504 (or an ``error`` event on the stream).
        heartbeat_s: seconds between ``heartbeat`` events on the stream.
        progress_interval_s: seconds between ``progress`` events while scores are computed.
        scores: ``quality`` (the program's own quality evaluation, free), ``ragas`` (quality plus RAGAS
            faithfulness / answer relevancy with the judge LM), ``auto`` (ragas when a judge LM is configured and
            metrics.ragas_metrics imports, else quality) or ``off``.
        scores_timeout_s: the scores give up after this long (the answer was already sent).
        scores_expected_s: how long scoring is expected to take, for the progress bar (None: 1 s for quality,
            60 s for RAGAS, the seed's figure).
        api_token: when set, /v1/* need ``Authorization: Bearer <token>`` (default: env ``YAKSA_API_TOKEN``); a
            token that is blank or has surrounding whitespace is refused (ValueError): no header could match it.
        trace_sample: the share of questions recorded as MLflow traces when a tracking URI is configured
            (``$MLFLOW_TRACKING_URI``), 0 to 1 (env ``YAKSA_TRACE_SAMPLE``).
    """

    max_question_chars: int = MAX_QUESTION_CHARS
    max_body_bytes: int = 64 * 1024
    body_timeout_s: float = 10.0
    header_timeout_s: float = 10.0
    allowed_hosts: tuple[str, ...] | None = None
    max_concurrent: int = 64
    workers: int = 32
    request_timeout_s: float = 120.0
    heartbeat_s: float = 5.0
    progress_interval_s: float = 1.0
    scores: str = "auto"
    scores_timeout_s: float = 180.0
    scores_expected_s: float | None = None
    api_token: str | None = field(default_factory=lambda: environment("serve", "api_token"))
    trace_sample: float = 1.0

    def __post_init__(self):
        if not 1 <= self.max_question_chars <= MAX_QUESTION_CHARS:
            raise ValueError(f"max_question_chars must be between 1 and {MAX_QUESTION_CHARS}")
        if self.max_concurrent < 1 or self.workers < 1:
            raise ValueError("max_concurrent and workers must be at least 1")
        if min(self.request_timeout_s, self.heartbeat_s, self.body_timeout_s, self.header_timeout_s) <= 0:
            raise ValueError("timeouts must be positive")
        if self.scores not in SCORES:
            raise ValueError(f"scores must be one of {', '.join(SCORES)}")
        check_token(self.api_token)
        try:
            sample = float(self.trace_sample)  # from the environment it is text
        except (TypeError, ValueError):
            raise ValueError(f"trace_sample must be a number between 0 and 1, not {self.trace_sample!r}") from None
        if not 0.0 <= sample <= 1.0:
            raise ValueError(f"trace_sample must be between 0 and 1, not {sample:g}")
        object.__setattr__(self, "trace_sample", sample)

    @classmethod
    def load(cls, path=None, **values) -> ServeSettings:
        """The defaults, then the ``[serve]`` table of yaksa.toml (or `path`), then the environment, then `values`
        (None: not given).

        Raises:
            ConfigFileError: an unknown key or a bad value in ``[serve]``.
        """
        return load_settings(cls, "serve", path, **values)

    def replace(self, **changes) -> ServeSettings:
        return replace(self, **changes)
