"""``yaksa eval-turn``: score how well a prompt turn to an AI was written, on five rubrics by intent."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from yaksa.errors import UserError
from yaksa.text_input import clean_text, read_stdin, read_text

TURN_KEYS = ("prompt", "ai_reply", "problem_title", "algorithms")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "eval-turn",
        help="score a user's prompt turn to an AI (coding-problem session) on five rubrics by intent",
        description="Judge how well a prompt to an AI was written: its intents, then clarity, problem relevance, "
        "examples, rules and context, once per intent, and the turn score (their mean). Without an LM, intents "
        "come from keyword rules and rubric scores from the metric bands.",
    )
    parser.add_argument("prompt", nargs="?", help="the user's prompt ('-' reads standard input); or use --file")
    parser.add_argument("--reply", default="", help="the AI's reply, for reference")
    parser.add_argument("--title", default="", help="the problem's title")
    parser.add_argument("--algorithms", default="", help="the problem's required algorithms, comma-separated")
    parser.add_argument(
        "--file",
        type=Path,
        help="turns to judge: a JSON object, a JSON list or JSON lines, each with 'prompt' and optionally "
        "'ai_reply', 'problem_title', 'algorithms'",
    )
    parser.add_argument("--json", action="store_true", help="print the turn log as JSON (a list with --file)")
    parser.add_argument("--lm", help="litellm model string of the judge LM, e.g. openai/gpt-4o-mini (env YAKSA_LM)")
    parser.add_argument("--api-base", help="base URL of an OpenAI-compatible server (env YAKSA_API_BASE)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.file and args.prompt:
        raise UserError("give a prompt or --file, not both")
    turns = _turns_from_file(args.file) if args.file else [_turn_from_args(args)]

    import dspy

    from programs.turn.evaluator import TurnEvaluator
    from programs.turn.lm import turn_lm

    try:
        lm = turn_lm(args.lm, args.api_base)
    except ValueError as error:
        raise UserError(str(error)) from None
    program = TurnEvaluator()
    with dspy.context(lm=lm):
        logs = [program(**turn).turn_log for turn in turns]
    if args.json:
        payload = [log.to_dict() for log in logs] if args.file else logs[0].to_dict()
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(render(log, number if args.file else None) for number, log in enumerate(logs, 1)))
    return 0


def _turn_from_args(args: argparse.Namespace) -> dict:
    if args.prompt is None:
        raise UserError("give the prompt to evaluate, or --file with turns")
    prompt = read_stdin() if args.prompt == "-" else clean_text(args.prompt, "PROMPT")
    if not prompt.strip():
        raise UserError("the prompt is empty")
    return {"prompt": prompt, "ai_reply": args.reply, "problem_title": args.title, "algorithms": args.algorithms}


def _turns_from_file(path: Path) -> list[dict]:
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise UserError(f"{path} is neither JSON nor JSON lines: {error}") from None
    if isinstance(data, dict):
        data = data.get("turns", [data])
    if not isinstance(data, list) or not data:
        raise UserError(f"{path} holds no turns: expected an object, a list of objects or JSON lines")
    turns = []
    for number, item in enumerate(data, 1):
        if not isinstance(item, dict) or not isinstance(item.get("prompt"), str) or not item["prompt"].strip():
            raise UserError(f"{path}: turn {number} has no 'prompt' text")
        turns.append({key: item[key] for key in TURN_KEYS if item.get(key) is not None})
    return turns


def render(log, number: int | None = None) -> str:
    """The turn log as text: score, intents, how it was judged, metrics, then each evaluation's rubrics."""
    score = "no score" if log.turn_score is None else f"{log.turn_score:g} / 100"
    lines = [f"{'Turn' if number is None else f'Turn {number}'}: {score}"]
    lines.append(f"Intents: {', '.join(log.intents)} (from {log.intent_source})")
    if log.lm is None:
        lines.append(
            "LM: none - intents from keyword rules, rubric scores from the metric bands alone "
            "(pass --lm MODEL or set YAKSA_LM to judge with an LM)"
        )
    else:
        lines.append(f"LM: {log.lm}")
    lines.append("Metrics: " + ", ".join(f"{key}={_value(value)}" for key, value in log.metrics.items()))
    for evaluation in log.evaluations:
        lines.append("")
        if not evaluation.ok:
            lines.append(f"[{evaluation.intent}] {evaluation.eval_type}: FAILED - {evaluation.error}")
            continue
        lines.append(f"[{evaluation.intent}] {evaluation.eval_type}: {evaluation.score:g} ({evaluation.scored_by})")
        lines.append(f"  Rules criterion: {evaluation.criterion}")
        width = max(len(key) for key in evaluation.rubrics)
        for key, rubric in evaluation.rubrics.items():
            lines.append(f"  {key:<{width}}  {rubric.score:>5g}  {rubric.reason}")
        lines.append(f"  Reasoning: {evaluation.final_reasoning}")
    if log.notes:
        lines.append("")
        lines.extend(f"Note: {note}" for note in log.notes)
    return "\n".join(lines)


def _value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
