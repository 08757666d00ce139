"""Stream one output field's text as the LM writes it, whether the reply is JSON (structured outputs) or DSPy's field
markers.

DSPy's `StreamListener` picks its parser from ``dspy.settings.adapter`` where the listener runs (the caller's
stream, not the LM call), and knows only DSPy's own adapters, so the JSON replies of `StructuredAdapter` never
streamed. `FieldListener` reads the reply itself: one that opens with ``{`` is parsed as partial JSON (``jiter``'s
trailing-strings mode), and the field's string value is sent as it grows, escapes decoded; any other reply is left
to DSPy's field-marker handling. A reply ends when the JSON object closes, or when a chunk of another completion
arrives.

Example:
    >>> import dspy
    >>> from litellm import ModelResponseStream
    >>> listener = FieldListener("answer", predict=dspy.Predict("question -> answer"))
    >>> chunks = ['{ "ans', 'wer": "네, ', '복용 가능', '합니다.\\\\n", "ok": tr', 'ue }']
    >>> out = [listener.receive(ModelResponseStream(id="a", choices=[{"delta": {"content": c}}])) for c in chunks]
    >>> [(o.chunk, o.is_last_chunk) for o in out if o]
    [('네, ', False), ('복용 가능', False), ('합니다.\\n', False), ('', True)]
"""

from __future__ import annotations

import re

import dspy
import jiter
from dspy.streaming import StreamListener, StreamResponse

# a string cut inside an escape (a lone backslash, or \\u with fewer than four hex digits): wait for the rest
_OPEN_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\(?:u[0-9a-fA-F]{0,3})?$")


class FieldListener(StreamListener):
    """A `dspy.streaming.StreamListener` for `signature_field_name` that also reads JSON replies.

    Args: as `StreamListener` (``allow_reuse`` is on: a predictor may be called again, e.g. a correction).
    """

    def __init__(self, signature_field_name: str, predict=None, predict_name: str | None = None):
        super().__init__(signature_field_name, predict=predict, predict_name=predict_name, allow_reuse=True)
        self._reset_reply()

    def _reset_reply(self) -> None:
        self.reply_id: str | None = None
        self.raw = ""
        self.mode: str | None = None  # "json" or "markers", decided by the reply's first character
        self.sent = 0  # characters of the field's value already sent
        self.json_done = False

    def receive(self, chunk) -> StreamResponse | None:
        try:
            text = chunk.choices[0].delta.content
        except Exception:
            return None
        if text is None:
            return None
        reply_id = getattr(chunk, "id", None)
        if self.mode == "json" and (self.json_done or (reply_id and self.reply_id and reply_id != self.reply_id)):
            self._reset_reply()  # the next completion (a correction, a retry) starts afresh
            self.stream_start = self.stream_end = False
        if self.mode is None:
            self.reply_id = reply_id
            if not (self.raw + text).strip():
                self.raw += text
                return None
            self.mode = "json" if (self.raw + text).lstrip().startswith("{") else "markers"
        if self.mode == "markers":
            with dspy.context(adapter=dspy.ChatAdapter()):
                out = super().receive(chunk)
                if self.stream_end:
                    self.mode = None  # the marker parser resets itself; the next reply picks its mode again
                return out
        return self._json(text)

    def _json(self, text: str) -> StreamResponse | None:
        self.raw += text
        self.stream_start = True
        try:
            complete = jiter.from_json(self.raw.encode("utf-8"))
        except ValueError:
            complete = None
        if isinstance(complete, dict):
            self.json_done = True
            return self._send(complete.get(self.signature_field_name), last=True)
        if _OPEN_ESCAPE.search(self.raw):
            return None
        try:
            partial = jiter.from_json(self.raw.encode("utf-8"), partial_mode="trailing-strings")
        except ValueError:
            return None
        if not isinstance(partial, dict) or self.signature_field_name not in partial:
            return None
        keys = list(partial)
        ended = keys.index(self.signature_field_name) < len(keys) - 1  # a later key began: the value is whole
        return self._send(partial[self.signature_field_name], last=ended)

    def _send(self, value, last: bool) -> StreamResponse | None:
        if self.stream_end:
            return None
        value = value if isinstance(value, str) else ""
        piece = value[self.sent :]
        self.sent = max(self.sent, len(value))
        if last:
            self.stream_end = True
        if piece or last:
            return StreamResponse(self.predict_name, self.signature_field_name, piece, is_last_chunk=last)
        return None

    def finalize(self) -> StreamResponse | None:
        if self.mode == "json":
            self.stream_end = True  # whatever the reply held was sent as it came
            return None
        with dspy.context(adapter=dspy.ChatAdapter()):
            return super().finalize()


def answer_listeners(program) -> list[FieldListener]:
    """One `FieldListener` per (predictor, field) the program streams to users (``program.stream_targets()``)."""
    targets = program.stream_targets() if hasattr(program, "stream_targets") else []
    names = {id(p): name for name, p in program.named_predictors()} if hasattr(program, "named_predictors") else {}
    return [FieldListener(field, predict=p, predict_name=names.get(id(p))) for p, field in targets]
