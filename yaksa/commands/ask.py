"""``yaksa ask QUESTION``: answer one drug question with the CRAG program and print the answer, its citations
(product and section), web references, and optionally the whole prediction as JSON or the trace.

Example:
    $ yaksa ask "게보린 먹고 속이 쓰려요"
    $ yaksa ask "임신 중에 타이레놀 먹어도 되나요?" --user '{"pregnant": true}' --lm openai/gpt-4o-mini --json
    $ printf '게보린 부작용\n타이레놀 용법\n' | yaksa ask --json -     # one JSON object per line, in order
"""

from __future__ import annotations

import json
import sys

from yaksa.cli import UserError
from yaksa.text_input import check_json, clean_text, read_text

MAX_QUESTION_CHARS = 500


def register(subparsers) -> None:
    p = subparsers.add_parser("ask", help="answer one drug question with cited sources (Corrective RAG)")
    p.add_argument(
        "question",
        help="the question, in Korean (or English); with --json, '-' reads one question per stdin line and writes "
        "one JSON object per line (a bad line gets an {\"error\": ...} object on its line)",
    )
    p.add_argument("--lm", help="litellm model string for every role, e.g. openai/gpt-4o-mini (default: none, no LM)")
    for role in ("query", "generate", "verify", "judge"):
        p.add_argument(f"--lm-{role}", help=f"model for the {role} role only")
    p.add_argument("--api-base", help="base URL of an OpenAI-compatible server (vLLM, llama.cpp, Ollama)")
    p.add_argument("--config", help="config file with an [lm] section (default: ./yaksa.toml or $YAKSA_CONFIG)")
    p.add_argument("--profile", default="full_context_engineering", help="strategy / ablation profile")
    p.add_argument(
        "--model",
        help="a compiled program: a JSON state path or an MLflow URI such as models:/yaksa-crag@champion "
        "(read as JSON, nothing unpickled; its profile replaces --profile)",
    )
    p.add_argument(
        "--user",
        help='user profile JSON or @file.json: {"age": 70, "sex": "여", "conditions": [...], '
        '"medicines": [...], "pregnant": false}',
    )
    p.add_argument("--budget", type=int, help="LM calls allowed for this question (default 12)")
    p.add_argument("--json", action="store_true", help="print the whole prediction and trace as JSON")
    p.add_argument("--trace", action="store_true", help="print the steps the program took")
    p.add_argument("--no-stream", action="store_true", help="do not stream tokens when an LM is configured")
    p.add_argument("--no-web", action="store_true", help="skip web references even when TAVILY_API_KEY is set")
    from yaksa.commands._lab import add_lm_limit_args

    add_lm_limit_args(p, time_budget=True)
    p.set_defaults(func=run)


def open_backend():
    """The default search backend (patched in tests)."""
    try:
        from retrievers.searcher import open_searcher
    except ModuleNotFoundError as e:
        raise UserError(f"the search index is not available ({e.name}); build it with `yaksa index`") from None
    try:
        return open_searcher()
    except RuntimeError as e:  # IndexMissing / IndexCorrupt say which `yaksa index` command fixes them
        if type(e).__name__ in ("IndexMissing", "IndexCorrupt"):
            raise UserError(str(e)) from None
        raise


def parse_user(text: str | None):
    from programs.profile import ProfileError, UserProfile

    if not text:
        return UserProfile()
    text = read_text(text[1:], f"the --user file {text[1:]}") if text.startswith("@") else clean_text(text, "--user")
    try:
        return UserProfile.from_dict(check_json(json.loads(text), "--user"))
    except json.JSONDecodeError as e:
        raise UserError(f"--user is not valid JSON ({e.msg} at character {e.pos})") from None
    except RecursionError:
        raise UserError("--user is nested too deeply to be a user profile") from None
    except ProfileError as e:
        raise UserError(f"--user: {e}") from None


def build_program(args):
    from programs.crag import CRAG
    from programs.profiles import PROFILES, get_profile
    from yaksa.commands._lab import lm_config

    if args.profile not in PROFILES:
        raise UserError(f"unknown profile {args.profile!r}; choose one of: {', '.join(PROFILES)}")
    overrides = {}
    if args.budget is not None:
        if args.budget < 0:
            raise UserError("--budget must be 0 or more")
        overrides["lm_call_budget"] = args.budget
    if args.no_web:
        overrides["web_references"] = False
    if getattr(args, "time_budget", None) is not None:
        if args.time_budget < 0:
            raise UserError("--time-budget must be 0 (no limit) or more seconds")
        overrides["time_budget_s"] = args.time_budget
    settings = get_profile(args.profile, **overrides)
    config = lm_config(args, cache=False)
    if getattr(args, "model", None):
        from programs.loading import StateError, load

        try:
            program = load(args.model, backend=open_backend(), lms=config.build())
            for warning in getattr(program, "load_warnings", []):
                print(f"yaksa: warning: {warning}", file=sys.stderr)
        except StateError:
            raise  # one line with its fix (yaksa/errors.py)
        except Exception as e:  # an MLflow registry or artifact error: one line
            raise UserError(f"cannot load {args.model}: {type(e).__name__}: {str(e)[:200]}") from None
        if overrides:
            program.settings = program.settings.replace(**overrides)
        return program, config
    return CRAG(backend=open_backend(), settings=settings, lms=config.build()), config


def run(args) -> int:
    if args.question == "-" and args.json:
        return run_batch(args)
    question = " ".join(clean_text(args.question or "", "QUESTION").split())
    if not question:
        raise UserError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        print(f"yaksa: warning: question cut to {MAX_QUESTION_CHARS} characters", file=sys.stderr)
        question = question[:MAX_QUESTION_CHARS]
    user = parse_user(args.user)
    program, config = build_program(args)
    stream = config.configured and not args.json and not args.no_stream
    pred = _stream(program, question, user) if stream else program(question=question, user=user)
    unreachable = pred.trace.get("unreachable") or []
    if unreachable:
        where = sorted({config.base(role) or "the provider's default endpoint" for role in unreachable})
        raise UserError(
            f"the LM for {', '.join(unreachable)} could not be reached at {', '.join(where)} "
            "(check --lm / --api-base / YAKSA_API_BASE, or raise --first-token-timeout for a slow server)"
        )
    for cut in pred.trace.get("cut") or []:  # slow calls and the time budget: the answer stands, say what was cut
        print(f"yaksa: warning: {cut['role']} LM call cut ({cut['why']}: {cut['detail']})", file=sys.stderr)
    if args.json:
        print(json.dumps(prediction_json(pred, config), ensure_ascii=False, indent=2))
        return 0
    if not stream:
        print(pred.answer)
    print_sources(pred)
    if args.trace:
        print_trace(pred.trace)
    return 0


def run_batch(args, stream=None) -> int:
    """Answer one question per stdin line, writing one compact JSON object per line, in order."""
    from yaksa.text_input import stdin_lines

    user = parse_user(args.user)
    program, config = build_program(args)
    for n, text in stdin_lines(stream):
        print(json.dumps(batch_answer(program, config, text, user, n), ensure_ascii=False), flush=True)
    return 0


def batch_answer(program, config, text, user, line: int) -> dict:
    """The JSON object of one batch line: the prediction, or ``{"line", "error"}`` when the line cannot be answered
    (`text` is the decoded line, or the error `stdin_lines` gave for it)."""
    if isinstance(text, Exception):
        return {"line": line, "error": str(text)}
    question = " ".join(text.split())
    if not question:
        return {"line": line, "error": f"line {line} is empty"}
    if len(question) > MAX_QUESTION_CHARS:
        question = question[:MAX_QUESTION_CHARS]
    try:
        pred = program(question=question, user=user)
    except Exception as e:  # one bad question must not stop the batch
        return {"line": line, "question": question, "error": f"{type(e).__name__}: {str(e)[:200]}"}
    return {"line": line, **prediction_json(pred, config)}


def _stream(program, question, user):
    """Print answer tokens as the generator writes them; print the final answer again if verification changed it."""
    import dspy
    from dspy.streaming import StreamListener, StreamResponse

    listeners = [StreamListener(field, predict=p, allow_reuse=True) for p, field in program.stream_targets()]
    streaming = dspy.streamify(program, stream_listeners=listeners, async_streaming=False)
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


def prediction_json(pred, config=None) -> dict:
    return {
        "question": pred.question,
        "answer": pred.answer,
        "citations": pred.citations,
        "contexts": pred.contexts,
        "web_refs": pred.web_refs,
        "out_of_scope": pred.out_of_scope,
        "trace": pred.trace,
        "lm": config.describe() if config else None,
    }
