"""``yaksa ask QUESTION``: answer one drug question with the CRAG program and print the answer, its citations
(product and section), web references, and optionally the whole prediction as JSON or the trace.

Example:
    $ yaksa ask "게보린 먹고 속이 쓰려요"
    $ yaksa ask "임신 중에 타이레놀 먹어도 되나요?" --user '{"pregnant": true}' --lm openai/gpt-4o-mini --json
    $ printf '게보린 부작용\n타이레놀 용법\n' | yaksa ask --json -     # one JSON object per line, in order
    $ yaksa ask "게보린 부작용" --lm openai/x --api-base http://127.0.0.1:8899/v1 --strict   # exit 3 on a fallback
    $ MLFLOW_TRACKING_URI=http://127.0.0.1:5000 yaksa ask "게보린 부작용" --json   # "trace_id": its MLflow trace

Every mode prints the answer the program produced, also when an LM could not be reached or a step fell back to its
heuristic (a warning on stderr says what failed); the exit status tells a fallback apart only with ``--strict``.
The ``--json`` trace keeps the LM servers' own error text (``errors``, ``fallbacks``, ``cut``): this is the user's
own machine and their own servers, and the text is what tells them what to fix (``yaksa serve`` sends codes only).
With a tracking URI configured, or ``--trace``, each question is an MLflow trace (yaksa/traces.py).
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

from programs.ablations import DEFAULT_ABLATION
from programs.question import EmptyQuestion, clean_question
from programs.settings import CragSettings
from yaksa.commands import _backend, _lm_flags
from yaksa.commands._answer_output import (
    STRICT_EXIT,
    degraded,
    print_lm_warnings,
    print_sources,
    print_trace,
    stream_answer,
)
from yaksa.commands._program import crag_settings, settings_overrides
from yaksa.errors import UserError
from yaksa.prediction_json import prediction_json
from yaksa.text_input import check_json, clean_text, read_text
from yaksa.traces import QuestionTrace, QuestionTracer, TracingUnavailable, flush


def register(subparsers) -> None:
    p = subparsers.add_parser("ask", help="answer one drug question with cited sources (Corrective RAG)")
    p.add_argument(
        "question",
        help="the question, in Korean (or English); with --json, '-' reads one question per stdin line and writes "
        'one JSON object per line (a bad line gets an {"error": ...} object on its line)',
    )
    p.add_argument("--profile", help=f"strategy / ablation profile (default {DEFAULT_ABLATION})")
    p.add_argument(
        "--model",
        help="a compiled program: a JSON state path or an MLflow URI such as models:/yaksa-crag@champion "
        "(read as JSON, nothing unpickled; its profile replaces --profile)",
    )
    p.add_argument(
        "--user",
        help='user profile JSON or @file.json: {"age": 70, "sex": "여", "conditions": [...], '
        '"medicines": [...], "pregnant": false, "breastfeeding": false}',
    )
    p.add_argument(
        "--budget", type=int, help=f"LM calls allowed for this question (default {CragSettings().lm_call_budget})"
    )
    p.add_argument("--json", action="store_true", help="print the whole prediction and trace as JSON")
    p.add_argument(
        "--trace",
        action="store_true",
        help="print the steps the program took, and record the question's MLflow trace (also on whenever "
        "MLFLOW_TRACKING_URI is set; --json then carries its trace_id)",
    )
    p.add_argument("--no-stream", action="store_true", help="do not stream tokens when an LM is configured")
    p.add_argument("--no-web", action="store_true", help="skip web references even when TAVILY_API_KEY is set")
    p.add_argument(
        "--strict",
        action="store_true",
        help=f"exit with status {STRICT_EXIT} when an LM call failed or was cut, or a step fell back to its heuristic "
        "(the answer is printed all the same); without it such an answer exits 0 with a warning",
    )
    _lm_flags.add_lm_args(p, cache_flag=False, time_budget=True)
    p.set_defaults(func=run)


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

    settings = crag_settings(args)
    config = _lm_flags.lm_config(args, cache=False)
    if getattr(args, "model", None):
        from programs.loading import StateError, load

        try:
            program = load(args.model, backend=_backend.open_backend(), lms=config.build())
            for warning in getattr(program, "load_warnings", []):
                print(f"yaksa: warning: {warning}", file=sys.stderr)
        except StateError:
            raise  # one line with its fix (yaksa/errors.py)
        except Exception as e:  # an MLflow registry or artifact error: one line
            raise UserError(f"cannot load {args.model}: {type(e).__name__}: {str(e)[:200]}") from None
        overrides = settings_overrides(args)
        if overrides:
            program.settings = program.settings.replace(**overrides)
        return program, config
    return CRAG(backend=_backend.open_backend(), settings=settings, lms=config.build()), config


def run(args) -> int:
    if args.question == "-" and args.json:
        return run_batch(args)
    if args.question == "-":
        raise UserError("`-` reads one question per stdin line only with --json (`yaksa ask --json -`); "
                        "give the question itself in text mode")  # fmt: skip
    try:
        question, warnings = clean_question(clean_text(args.question or "", "QUESTION"))
    except EmptyQuestion as e:
        raise UserError(str(e)) from None
    for warning in warnings:
        print(f"yaksa: warning: {warning}", file=sys.stderr)
    user = parse_user(args.user)
    program, config = build_program(args)
    tracer = question_tracer(args, config)
    stream = config.configured and not args.json and not args.no_stream
    with traced(tracer, question, user) as traced_question:
        pred = stream_answer(program, question, user) if stream else program(question=question, user=user)
        traced_question.finish(pred)
    if tracer is not None:
        flush()  # the trace is in the store when the command ends
    if args.json:
        out = prediction_json(pred, config)
        print(json.dumps({**out, "trace_id": traced_question.trace_id}, ensure_ascii=False, indent=2))
    else:
        if not stream:
            print(pred.answer)
        print_sources(pred)
        if args.trace:
            print_trace(pred.trace)
    print_lm_warnings(pred.trace, config)  # after the answer, on stderr: whatever failed, the answer is printed
    return STRICT_EXIT if args.strict and degraded(pred.trace) else 0


def question_tracer(args, config):
    """The MLflow tracer of this command: on with ``--trace`` or a configured tracking URI (None: off, also when the
    tracking server does not answer: a warning, and the question is answered untraced)."""
    tracer = QuestionTracer.from_environment(autolog_lm=config.configured, force=bool(getattr(args, "trace", False)))
    if tracer is not None:
        try:
            tracer.setup()
        except TracingUnavailable as e:
            print(f"yaksa: warning: {e}; this answer is not traced", file=sys.stderr)
            return None
    return tracer


@contextmanager
def traced(tracer, question: str, user):
    """The question's trace when `tracer` is on, else an empty `QuestionTrace` (its ``trace_id`` None)."""
    if tracer is None:
        yield QuestionTrace()
        return
    with tracer.question(question, user, source="ask") as handle:
        yield handle


def run_batch(args, stream=None) -> int:
    """Answer one question per stdin line, writing one compact JSON object per line, in order."""
    from yaksa.text_input import stdin_lines

    user = parse_user(args.user)
    program, config = build_program(args)
    tracer = question_tracer(args, config)
    fell_back = False
    for n, text in stdin_lines(stream):
        answer = batch_answer(program, config, text, user, n, tracer)
        fell_back = fell_back or degraded(answer.get("trace") or {})
        print(json.dumps(answer, ensure_ascii=False), flush=True)
    if tracer is not None:
        flush()
    return STRICT_EXIT if getattr(args, "strict", False) and fell_back else 0


def batch_answer(program, config, text, user, line: int, tracer=None) -> dict:
    """The JSON object of one batch line: the prediction, or ``{"line", "error"}`` when the line cannot be answered
    (`text` is the decoded line, or the error `stdin_lines` gave for it)."""
    if isinstance(text, Exception):
        return {"line": line, "error": str(text)}
    try:
        question, _ = clean_question(text)
    except EmptyQuestion:
        return {"line": line, "error": f"line {line} is empty"}
    try:
        with traced(tracer, question, user) as handle:
            pred = program(question=question, user=user)
            handle.finish(pred)
    except Exception as e:  # one bad question must not stop the batch
        return {"line": line, "question": question, "error": f"{type(e).__name__}: {str(e)[:200]}"}
    return {"line": line, **prediction_json(pred, config), "trace_id": handle.trace_id}
