"""``yaksa eval-answers``: run the CRAG program over questions with gold documents and report, per question kind,
how often the answer cites a gold document and quotes a gold answer phrase (and whether the phrase was in its context),
the routes taken, stops, rewrites, LM calls, answer length and latency, the retrieval evaluator's AUC, how often a bad
first retrieval was corrected, what the answers to unanswerable questions did, and the phrase figures per first
aspect and population group. Logged to MLflow with a table."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from programs.ablations import DEFAULT_ABLATION
from yaksa.commands._backend import backend_for
from yaksa.commands._lm_flags import add_lm_args, lm_config
from yaksa.errors import UserError

SETS = {
    "dev": "retrieval/dev.jsonl",
    "test": "retrieval/test.jsonl",
    "qa-dev": "qa/dev.jsonl",
    "real-dev": "real_questions/dev.jsonl",
    "real-test": "real_questions/test.jsonl",  # report only: never read its misses one by one to fix them
}


def register(sub) -> None:
    p = sub.add_parser(
        "eval-answers",
        help="answer a question set with gold documents and report citations, routes, corrections and cost",
        description="Answer every question of a set with gold document ids (default: the retrieval dev split) "
        "and report per kind: the share of answers citing a gold document in their text, the share quoting the gold "
        "sentence that carries the question's slot word (술, 임신 …), sentences the grounding check removed, "
        "near-duplicate sentences quoted twice, the first route and the "
        "routes taken, stop reasons, rewrites, LM calls, parse failures, answer length (without notices) and "
        "latency; the retrieval evaluator's AUC (first relevance vs a gold document in the first top 5); and, among "
        "questions whose first top 5 had no gold document, the share routed to a corrective route and the share "
        "whose rewrite found one. With gold answer phrases (the real-question sets, real-dev / real-test, whose rows "
        "are grouped as answerable / not_in_corpus / not_in_leaflets): the share of answers quoting one, of contexts "
        "holding one, per first aspect and per population group; for questions out of scope or unanswerable, the "
        "share declined or said not covered and the share quoting an unrelated product. "
        "Runs without an LM unless --lm is given. Logs an MLflow run (yaksa-answers).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--split", default="dev", choices=sorted(SETS), help="shipped question set")
    p.add_argument(
        "--questions",
        help="a JSONL file of {id, question, gold, kind} (or real-question rows with answerable, gold_phrases, "
        "aspects, population) instead of a shipped set",
    )
    p.add_argument("--limit", type=int, default=0, help="answer only the first N questions (0: all)")
    p.add_argument(
        "--profile", default=DEFAULT_ABLATION, help=f"strategy / ablation profile (default {DEFAULT_ABLATION})"
    )
    p.add_argument("--index-dir", help="search index folder (default: the built index)")
    add_lm_args(p)
    p.add_argument("--no-mlflow", action="store_true", help="do not log an MLflow run")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--rows",
        metavar="FILE",
        help="also write one JSON line per question (its figures and the answer) to FILE, to compare two runs",
    )
    p.set_defaults(func=run)


def load_set(args) -> list[dict]:
    from pathlib import Path

    from metrics.retrieval_eval import SETS_DIR  # trainsets/retrieval
    from yaksa.commands._datasets import read_jsonl

    path = Path(args.questions) if args.questions else SETS_DIR.parent / SETS[args.split]
    rows = read_jsonl(path)
    bad = [i for i, r in enumerate(rows, 1) if not isinstance(r, dict) or not str(r.get("question") or "").strip()]
    if bad:
        raise UserError(f"{path}: rows {bad[:5]} have no question")
    if args.limit < 0:
        raise UserError("--limit must be 0 or more")
    return rows[: args.limit] if args.limit else rows


def run(args) -> int:
    from programs.crag import CRAG
    from yaksa.commands._program import crag_settings

    settings = crag_settings(args, web_references=False)
    questions = load_set(args)
    config = lm_config(args)
    backend = backend_for(args)
    lms = config.build()
    program = CRAG(backend=backend, settings=settings, lms=lms)
    if args.no_mlflow:
        report(args, questions, [answer(program, q["question"]) for q in _progress(questions)], backend)
        return 0
    _evaluate_in_mlflow(args, questions, program, backend, config, lms)
    return 0


def _progress(questions: list[dict]):
    from tqdm import tqdm

    return tqdm(questions, desc="answering", unit="q")


def answer(program, question: str) -> dict:
    """The prediction as ``yaksa ask --json`` writes it, with the milliseconds it took (``latency_ms``)."""
    from yaksa.prediction_json import prediction_json

    start = time.perf_counter()
    as_json = prediction_json(program(question=question))
    return {**as_json, "latency_ms": (time.perf_counter() - start) * 1000}


def report(args, questions: list[dict], predictions: list[dict], backend) -> tuple[dict, list[dict]]:
    """Rows and summary of the predictions; prints the summary and writes ``--rows``."""
    from metrics.answer_eval import answer_row, summarise

    text_of = doc_text(backend)
    rows = [answer_row(q, p, p["latency_ms"], text_of) for q, p in zip(questions, predictions, strict=True)]
    if args.rows:
        answers = [{**r, "answer": p.get("answer", "")} for r, p in zip(rows, predictions, strict=True)]
        write_rows(Path(args.rows), answers)
    summary = summarise(rows)
    if questions and all("aspects" in q and "targets" in q for q in questions):
        summary["frame"] = understanding_accuracy(questions, backend)
    print(json.dumps(summary, ensure_ascii=False, indent=1) if args.json else format_summary(summary))
    return summary, rows


def dataset_name(args) -> str:
    """The evaluation dataset's name: the split, or the question file's stem; ``[:N]`` with --limit N."""
    name = args.split if not args.questions else Path(args.questions).stem
    return f"{name}[:{args.limit}]" if args.limit else name


def _evaluate_in_mlflow(args, questions, program, backend, config, lms) -> None:
    """One MLflow run: the question set registered as an evaluation dataset, answered and scored by
    ``mlflow.genai.evaluate`` (per-scorer metrics and per-question assessments), then the summary, its metrics and the
    per-question table as without it."""
    import mlflow

    from metrics.lm_scorers import lm_scorers
    from metrics.scorers import answer_scorers
    from yaksa.commands import _eval_datasets, _genai_eval
    from yaksa.commands._lm_flags import describe_lms
    from yaksa.prediction_json import prediction_json
    from yaksa.tracking import experiment

    experiment("yaksa-answers")
    name = dataset_name(args)
    source = str(args.questions or SETS[args.split])
    with mlflow.start_run(run_name=f"eval-answers-{args.split if not args.questions else 'file'}") as run:
        dataset, version = _eval_datasets.register(name, questions, source)
        scorers = answer_scorers(backend) + lm_scorers(lms.get("judge"))
        mlflow.log_params(
            {
                "split": args.split,
                "profile": args.profile,
                "n": len(questions),
                "dataset": name,
                "dataset_version": version,
                "scorers": ",".join(s.name for s in scorers),
                **describe_lms(config),
            }
        )
        predictions, scores = _genai_eval.evaluate(program, dataset, questions, scorers, prediction_json)
        summary, rows = report(args, questions, predictions, backend)
        _log(summary, rows)
        means = ", ".join(f"{k.split('/')[0]} {v:.3f}" for k, v in sorted(scores.items()) if k.endswith("/mean"))
        print(f"scorers (mean): {means}")
        print(
            f"logged MLflow run {run.info.run_id} (experiment yaksa-answers, dataset {name} version {version}); "
            "per-question assessments are on the run's traces"
        )


def understanding_accuracy(questions: list[dict], backend) -> dict:
    """Per-field accuracy of the no-LM question reading (`QuestionFrame`) against the set's labels."""
    from metrics.frame_accuracy import frame_accuracy
    from retrievers.lexicon import Lexicon
    from retrievers.names import NameIndex
    from retrievers.question_frame import read_frame

    # a searcher knows the index's names and tokenizer; another backend is read with the shipped rules alone
    names = backend.names if backend.names is not None else NameIndex()
    lexicon = backend.lexicon if backend.lexicon is not None else Lexicon.load()
    tokenize = backend.tokenizer if backend.tokenizer is not None else (lambda _q: ())
    frames = [read_frame(q["question"], names, lexicon, tokenize(q["question"])) for q in questions]
    return frame_accuracy(questions, frames)


def write_rows(path: Path, rows: list[dict]) -> None:
    """One JSON line per question, written whole or not at all (a temporary file renamed over `path`)."""
    try:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        tmp.replace(path)
    except OSError as e:
        raise UserError(f"cannot write --rows {path}: {e.strerror or e}") from None


def doc_text(backend):
    """id -> document text over the backend's documents ("" for an id it does not hold)."""
    docs, by_id = backend.docs, backend.by_id
    return lambda i: docs[by_id[i]].text if i in by_id else ""


def format_summary(summary: dict) -> str:
    from metrics.answer_eval import RESERVED

    head = f"{'kind':<20}{'n':>4}{'gold@5':>8}{'cited':>7}{'misses':>8}{'→corr.':>8}{'fixed':>7}{'ok→corr.':>9}"
    lines = [head + f"{'LM':>6}{'chars':>7}{'slot':>7}{'cut':>5}{'dup':>5}{'phrase':>8}{'p@ctx':>7}{'p50 ms':>8}"]
    for kind, g in summary.items():
        if kind in RESERVED and kind != "all":
            continue
        lines.append(
            f"{kind:<20}{g['n']:>4}{_f(g['gold_in_first_top5']):>8}{_f(g['cites_gold']):>7}{g['misses']:>8}"
            f"{_f(g['misses_corrective']):>8}{_f(g['misses_corrected']):>7}{_f(g['found_corrective']):>9}"
            f"{_f(g['lm_calls_mean']):>6}{g['chars_median'] or 0:>7.0f}{_f(g['slot_quoted']):>7}"
            f"{g['sentences_removed']:>5}{g['duplicate_quotes']:>5}{_f(g['phrase_quoted']):>8}"
            f"{_f(g['phrase_in_context']):>7}{g['ms_p50'] or 0:>8.0f}"
        )
    a, oos = summary["all"], summary["out_of_scope"]
    lines += [
        f"first routes: {a['first_route']}",
        f"routes taken: {a['routes_taken']}",
        f"stop reasons: {a['stop_reasons']}",
        f"outcomes: {a['outcomes']}",
        f"retrieval evaluator AUC (relevance vs gold in first top 5): {a['evaluator_auc']}",
        f"out of scope: {oos['n']} questions, blocked {_f(oos['blocked'])}, declined or said not covered "
        f"{_f(oos['declined_or_not_covered'])}, quoted an unrelated product {_f(oos['quoted_unrelated'])}",
        *(
            f"  {kind}: {g['n']}, declined {_f(g['declined'])}, said not covered {_f(g['said_not_covered'])}, "
            f"quoted an unrelated product {_f(g['quoted_unrelated'])}, honest {_f(g['honest'])}, "
            f"outcomes {g['outcomes']}"
            for kind, g in summary["unanswerable"].items()
        ),
        "(gold@5: a gold document in the first top 5; cited: the answer cites one; →corr.: misses routed to "
        "rewrite/low-relevance/no-context; fixed: a rewrite found a gold document; ok→corr.: found ones rerouted; "
        "chars: median answer length without notices; slot: share quoting the gold sentence with the question's "
        "slot word, where the gold document has one; cut: sentences the grounding check removed; dup: near-duplicate "
        "sentences quoted twice; phrase: share quoting a gold answer phrase, p@ctx: share with one in the "
        "generator's context, over questions with gold phrases)",
        f"grounding check: {a['sentences_checked']} sentences checked, {a['sentences_removed']} removed, "
        f"{a['grounding_fallbacks']} fallbacks to the extractive answer; slot questions: {a['slot_questions']}",
    ]
    if a["phrase_questions"]:
        lines.append(
            f"gold phrase: {a['phrase_questions']} questions, quoted {_f(a['phrase_quoted'])}, in the generator's "
            f"context {_f(a['phrase_in_context'])}, in the documents answered from {_f(a['phrase_in_documents'])}; "
            f"in context but not quoted: {a['context_not_quoted']}"
        )
        lines += _breakdown("first aspect", summary["by_aspect"]) + _breakdown("population", summary["by_population"])
    if "self_check" in summary:
        c = summary["self_check"]
        lines.append(
            f"self-check (answer says it misses the aspect asked): flags {_f(c['flags_missing'])} of the "
            f"{c['missing']} answers quoting no gold phrase, {_f(c['flags_others'])} of the {c['others']} others"
        )
    if "frame" in summary:
        f = summary["frame"]
        lines.append(
            f"question understanding ({f['n']} questions): aspects {_f(f['aspects'])} (first {_f(f['aspects_primary'])}"
            f", all labelled found {_f(f['aspects_recall'])}, exact {_f(f['aspects_exact'])}), population "
            f"{_f(f['population'])}, products {_f(f['products'])}, classes {_f(f['classes'])}, other drugs "
            f"{_f(f['other_drugs'])}, comparison {_f(f['comparison'])}"
        )
    return "\n".join(lines)


def _breakdown(name: str, groups: dict) -> list[str]:
    lines = [f"{name:<20}{'n':>4}{'phrase':>8}{'p@ctx':>7}{'p@docs':>8}{'cited':>7}{'ctx, not quoted':>17}"]
    for value, g in groups.items():
        lines.append(
            f"{value:<20}{g['phrase_questions']:>4}{_f(g['phrase_quoted']):>8}{_f(g['phrase_in_context']):>7}"
            f"{_f(g['phrase_in_documents']):>8}{_f(g['cites_gold']):>7}{g['context_not_quoted']:>17}"
        )
    return lines


def _f(x) -> str:
    return "-" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)


def metric_values(summary: dict, prefix: str = "") -> dict[str, float]:
    """The summary's numbers as MLflow metrics, nested keys joined with dots (``by_aspect.alcohol.phrase_quoted``).

    >>> metric_values({"all": {"n": 3, "cites_gold": None, "first_route": {"generate": 3}}, "x": {"ok": True}})
    {'all.n': 3, 'all.first_route.generate': 3}
    """
    out = {}
    for key, value in summary.items():
        if isinstance(value, dict):
            out.update(metric_values(value, f"{prefix}{key}."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out[f"{prefix}{key}"] = value
    return out


def _log(summary: dict, rows: list[dict]) -> None:
    """The summary's figures as metrics, the summary itself and the per-question table, to the active run."""
    import mlflow

    from yaksa.commands._mlflow_table import log_table

    mlflow.log_metrics(metric_values(summary))
    mlflow.log_dict(summary, "summary.json")
    log_table([{**r, "routes": ",".join(r["routes"])} for r in rows], "answers")
