"""The server-sent events of ``POST /v1/ask/stream``, in the order a client sees them.

=============  ============================================================================================
event          data
=============  ============================================================================================
accepted       ``{"request_id", "question", "profile"}``: sent at once, before any work
status         ``{"step", "label", "detail"}``: one per pipeline step (retrieve, grade, generate, verify ...)
progress       ``{"stage": "answer" | "scores", "percent"}``: 0-100, never goes back within a stage
token          ``{"text", "source": "lm" | "final", "generation"}``: answer text as the generator writes it; a new
               ``generation`` number starts a new text (a draft, then a regeneration), never appended; ``final`` when
               no LM streamed (the no-LM extractive answer is sent in pieces, so every client can build the
               answer from tokens)
answer         ``{"answer", "citations", "out_of_scope", "mode", "method", "uses_lm", "notice", "warnings",
               "trace"}``: the final answer (after verification and correction) with the cited documents
verification   ``{"status", "rounds"}``: PASS / FAIL / off / skipped, and the verify rounds
web            ``{"links", "note"}``: web reference links (never in any LM context)
scores         ``{"kind", "scores", "method", "note"}``: quality and, when configured, RAGAS scores; sent after
               the answer, so the answer never waits for them
heartbeat      ``{"elapsed_s", "stage"}``: every 5 s while anything is still running
error          ``{"error", "message"}``: the stream ends after it (timeout, program error)
done           ``{"elapsed_ms"}``: the last event
=============  ============================================================================================

Example:
    >>> encode("token", {"text": "게보린"}, 3)
    'id: 3\\nevent: token\\ndata: {"text": "게보린"}\\n\\n'
"""

from __future__ import annotations

import json
import re
from typing import Any

from yaksa.app.public_trace import public_step

EVENTS = (
    "accepted",
    "status",
    "progress",
    "token",
    "answer",
    "verification",
    "web",
    "scores",
    "heartbeat",
    "error",
    "done",
)

STEP_LABELS = {
    "retrieve": "문서 검색",
    "optimize_query": "검색어 최적화",
    "grade": "문서 관련성 평가",
    "rewrite": "질문 다시 쓰기",
    "skip_search": "같은 검색어라 검색 생략",
    "class_sections": "같은 종류 약의 설명서에서 찾기",
    "dur_rules": "DUR 규칙 확인",
    "pair_rules": "두 약에 대한 병용금기만 남기기",
    "refine_knowledge": "핵심 문장 추리기",
    "generate": "답변 작성",
    "verify": "답변 검증",
    "skip_generate": "같은 문서라 재작성 생략",
    "evaluate": "답변 품질 평가",
    "fallback": "대체 경로 사용",
    "stop": "중단",
    "web_references": "웹 참고 링크",
}

# a rough share of the work done when each step is reported, for the progress bar (monotonic per stream)
STEP_PROGRESS = {
    "retrieve": 15,
    "optimize_query": 25,
    "grade": 35,
    "rewrite": 40,
    "class_sections": 42,
    "dur_rules": 45,
    "pair_rules": 46,
    "refine_knowledge": 50,
    "generate": 70,
    "verify": 80,
    "evaluate": 90,
    "web_references": 95,
}


def encode(event: str, data: dict[str, Any], event_id: int) -> str:
    """One SSE message; `data` is a single JSON line (newlines inside strings are escaped by JSON)."""
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}")
    return f"id: {event_id}\nevent: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def status_data(step: dict) -> dict:
    """A trace step as a status event: its name, a Korean label, and its details (hit lists cut to ids; an error
    as its code, never its text: yaksa/app/public_trace.py)."""
    detail = {k: v for k, v in public_step(step).items() if k != "step"}
    if isinstance(detail.get("hits"), list):
        detail["hits"] = [h.get("id") for h in detail["hits"] if isinstance(h, dict)][:10]
    name = step.get("step", "")
    return {"step": name, "label": STEP_LABELS.get(name, name), "detail": detail}


def answer_pieces(text: str, size: int = 24) -> list[str]:
    """Cut an answer into token-like pieces of about `size` characters at word ends (the no-LM answer's stream).

    The pieces join back to `text` exactly.
    """
    pieces, current = [], ""
    for part in re.findall(r"\S+\s*|\s+", text):
        current += part
        if len(current) >= size:
            pieces.append(current)
            current = ""
    return pieces + [current] if current else pieces
