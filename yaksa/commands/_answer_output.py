"""How ``yaksa ask`` shows an answer: streamed tokens, the sources (product and section of each citation), the
trace, and what failed on the way (`print_lm_warnings`, `degraded`). ``--json`` prints the prediction's JSON object
(yaksa/prediction_json.py)."""

from __future__ import annotations

import json
import sys

STRICT_EXIT = 3  # ``yaksa ask --strict``: the answer was printed, but an LM call failed or a step fell back


def degraded(trace: dict) -> bool:
    """True when an LM call failed or was cut, or a step fell back to its heuristic, while answering.

    Example:
        >>> degraded({"errors": [], "fallbacks": [], "cut": []}), degraded({"fallbacks": ["grade: ..."]})
        (False, True)
    """
    return any(trace.get(key) for key in ("errors", "fallbacks", "cut", "unreachable"))


def print_lm_warnings(trace: dict, config) -> None:
    """One stderr line per problem: an unreachable LM (with its server), each other cut call, failed LM calls."""
    unreachable = trace.get("unreachable") or []
    if unreachable:
        where = sorted({config.base(role) or "the provider's default endpoint" for role in unreachable})
        print(
            f"yaksa: warning: the LM for {', '.join(unreachable)} could not be reached at {', '.join(where)}; "
            "the answer was made without it (check --lm / --api-base / YAKSA_API_BASE, or raise "
            "--first-token-timeout for a slow server)",
            file=sys.stderr,
        )
    for cut in trace.get("cut") or []:  # slow calls and the time budget: the answer stands, say what was cut
        if cut["why"] == "unreachable" and cut["role"] in unreachable:
            continue
        print(f"yaksa: warning: {cut['role']} LM call cut ({cut['why']}: {cut['detail']})", file=sys.stderr)
    said = set(unreachable) | {c["role"] for c in trace.get("cut") or []}
    failed = [e for e in trace.get("error_codes") or [] if e.get("role") not in said]
    if failed:
        what = ", ".join(dict.fromkeys(f"{e['role']}: {e['error']}" for e in failed))
        print(
            f"yaksa: warning: {len(failed)} LM call(s) failed ({what}); those steps fell back to their heuristics "
            "(--json shows the errors)",
            file=sys.stderr,
        )


def stream_answer(program, question, user):
    """Print answer tokens as the generator writes them; print the final answer again if verification changed it."""
    import dspy
    from dspy.streaming import StreamResponse

    from programs.stream_listener import answer_listeners

    streaming = dspy.streamify(program, stream_listeners=answer_listeners(program), async_streaming=False)
    streamed, pred, source = [], None, None
    for chunk in streaming(question=question, user=user):
        if isinstance(chunk, StreamResponse):
            if source is not None and chunk.predict_name != source:
                print("\n--- 교정 중 ---", flush=True)  # a correction follows the draft: one generation at a time
                streamed = []
            source = chunk.predict_name
            streamed.append(chunk.chunk)
            print(chunk.chunk, end="", flush=True)
        elif isinstance(chunk, dspy.Prediction):
            pred = chunk
    if streamed:
        print()
    if pred.answer.strip() != "".join(streamed).strip():
        if streamed:
            print("\n--- 최종 답변 (근거 확인·검증·교정 후; 위의 초안 대신 이 답변을 보세요) ---")
        print(pred.answer)
    return pred


def print_sources(pred) -> None:
    if pred.citations:
        print("\n출처 (식품의약품안전처 e약은요 · DUR):")
        for c in pred.citations:
            mark = "" if c["cited"] else " (인용되지 않음)"
            print(f"  [문서 {c['n']}] {c['product']} · {c['section']} ({c['id']}){mark}")
    if pred.web_refs:
        print("\n웹 참고 링크 (답변 근거 아님):")
        for ref in pred.web_refs:
            print(f"  - {ref['title']}: {ref['url']}")
    t = pred.trace
    ms = t["timings"].get("total_ms", 0)
    print(f"\n(LM 호출 {t['lm_calls']['total']}회 · {ms:.0f} ms · 종료 사유: {t['stop_reason']})")
    for w in t.get("warnings", []):
        print(f"yaksa: warning: {w}", file=sys.stderr)


def print_trace(trace: dict) -> None:
    print("\n추적:")
    for step in trace["steps"]:
        info = {k: v for k, v in step.items() if k != "step" and k != "hits"}
        hits = f" hits={[h['id'] for h in step['hits']]}" if "hits" in step else ""
        print(f"  - {step['step']}: {json.dumps(info, ensure_ascii=False)}{hits}")
    print(f"  lm_calls={trace['lm_calls']} stop={trace['stop_reason']} iterations={trace['iterations']}")
