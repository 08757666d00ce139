"""`yaksa eval-answers`, `yaksa fit-relevance` and `yaksa ask --json -` as users run them, over the real searcher
on the mini corpus."""

import io
import json
import sys

import pytest

from yaksa import cli
from yaksa.commands import _backend
from yaksa.testing.mini_index import real_searcher

ROWS = [
    {"id": "1", "kind": "product", "question": "게보린 부작용", "gold": ["easydrug:197900277:se"]},
    {"id": "2", "kind": "product", "question": "베아제 효능", "gold": ["easydrug:198700405:efcy"]},
    {"id": "3", "kind": "vague", "question": "이 약 어떻게 먹어요?", "gold": ["easydrug:197900277:useMethod"]},
    {"id": "4", "kind": "oos", "question": "삼성전자 주가", "gold": []},
]


@pytest.fixture(autouse=True)
def mini(monkeypatch, tmp_path):
    monkeypatch.setattr(_backend, "open_backend", real_searcher)
    for name in ("YAKSA_LM", "YAKSA_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def write(tmp_path, rows):
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return str(path)


def test_eval_answers_reports_per_kind(tmp_path, capsys):
    assert cli.main(["eval-answers", "--questions", write(tmp_path, ROWS), "--no-mlflow", "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{") :])
    assert summary["product"]["n"] == 2
    assert summary["product"]["cites_gold"] == 1.0
    assert summary["vague"]["n"] == 1
    assert sum(summary["vague"]["first_route"].values()) == 1
    assert (summary["out_of_scope"]["n"], summary["out_of_scope"]["blocked"]) == (1, 1.0)
    assert summary["all"]["lm_calls_mean"] == 0
    assert summary["all"]["chars_median"] > 0


def test_eval_answers_logs_an_mlflow_run_with_a_table(tmp_path, capsys, monkeypatch):
    import mlflow

    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path}/m.db")
    assert cli.main(["eval-answers", "--questions", write(tmp_path, ROWS)]) == 0
    assert "logged MLflow run" in capsys.readouterr().out
    run = mlflow.search_runs(experiment_names=["yaksa-answers"]).iloc[0]
    assert run["metrics.product.cites_gold"] == 1.0
    artifacts = {a.path for a in mlflow.MlflowClient().list_artifacts(run["run_id"])}
    assert {"answers.json", "answers.csv", "summary.json"} <= artifacts


def test_eval_answers_refuses_rows_without_a_question(tmp_path, capsys):
    assert cli.main(["eval-answers", "--questions", write(tmp_path, [{"gold": []}]), "--no-mlflow"]) == 2
    assert "have no question" in capsys.readouterr().err


def test_ask_json_batch_answers_every_line_in_order(monkeypatch, capsys):
    raw = io.BytesIO("게보린 부작용\n\n".encode() + b"\xff bad\n" + "삼성전자 주가\n".encode())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw))
    assert cli.main(["ask", "--json", "-"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["line"] for x in lines] == [1, 2, 3, 4]
    assert "[문서 1]" in lines[0]["answer"]
    assert lines[0]["trace"]["steps"][0]["step"] == "retrieve"
    assert lines[1]["error"] == "line 2 is empty"
    assert "not valid UTF-8" in lines[2]["error"]
    assert lines[3]["out_of_scope"] is True


def test_fit_relevance_fits_reports_and_writes(tmp_path, capsys, monkeypatch):
    from metrics import retrieval_eval
    from tests.metrics.test_calibration import QUESTIONS
    from yaksa.commands import fit_relevance

    monkeypatch.setattr(retrieval_eval, "load_questions", lambda split: QUESTIONS)
    monkeypatch.setattr(fit_relevance, "load_real", lambda split: REAL_QUESTIONS)
    monkeypatch.setattr(fit_relevance, "open_searcher_or_explain", lambda index_dir=None: real_searcher())
    out = tmp_path / "model.json"
    assert cli.main(["fit-relevance", "-C", "1", "--out", str(out), "--no-mlflow"]) == 0
    text = capsys.readouterr().out
    assert "calibration on the test split" in text
    assert "cross-validated on dev + real-dev" in text
    assert "AUC" in text
    assert out.exists()
    report = json.loads(out.read_text())["report"]
    assert report["results"]["n"] == 9
    assert report["real"] == "dev"
    cv = report["cross_validated"]
    assert cv["all"]["n"] == 9 + 2 and cv["dev"]["n"] == 9 and cv["real-dev"]["n"] == 2  # the unanswerable row left out
    assert cli.main(["fit-relevance", "-C", "0", "--no-mlflow"]) == 2


# real-question rows: a named question found, a kind of medicine's aspect whose gold leaflet is not in the mini corpus,
# and an unanswerable one (never fitted on)
REAL_QUESTIONS = [
    {"question": "게보린 먹고 술 마셔도 돼요", "answerable": True, "gold": ["easydrug:197900277:intrc"]},
    {"question": "감기약 먹고 운전해도 돼요?", "answerable": True, "gold": ["easydrug:200807251:atpn"]},
    {"question": "탈모약 먹어도 돼요", "answerable": False, "gold": ["easydrug:197900277:atpn"]},
]


def test_eval_answers_counts_the_invented_claims_the_grounding_check_caught(tmp_path, capsys):
    """An OpenAI-compatible stub whose every answer adds an invented dose with [문서 9]: all caught, per kind."""
    from tests.yaksa.test_grounding_stub import inventing
    from yaksa.testing.stub_openai import StubOpenAI

    rows = [r for r in ROWS if r["gold"]][:2]
    with StubOpenAI([inventing]) as server:
        argv = ["eval-answers", "--questions", write(tmp_path, rows), "--no-mlflow", "--json"]
        assert cli.main([*argv, "--lm", "openai/stub", "--api-base", server.url]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{") :])
    # the invented dose of both answers, and for 베아제 효능 the stub's 게보린 sentence: the stub's optimised query
    # (게보린 속쓰림) is merged with the question's own hits, not swapped for them, so [문서 1] is 베아제's leaflet
    assert summary["all"]["sentences_removed"] == 3
    assert summary["all"]["answers_with_removals"] == 1.0
    assert summary["all"]["duplicate_quotes"] == 0


def test_eval_answers_reports_slot_sentences_and_no_removals_without_an_lm(tmp_path, capsys):
    rows = [{"id": "s", "kind": "slot", "question": "게보린 먹고 술 마셔도 돼?", "gold": ["easydrug:197900277:intrc"]}]
    assert cli.main(["eval-answers", "--questions", write(tmp_path, rows), "--no-mlflow", "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{") :])
    assert summary["slot"]["slot_questions"] == 1
    assert summary["slot"]["slot_quoted"] == 1.0
    assert summary["slot"]["sentences_removed"] == 0
    assert summary["slot"]["sentences_checked"] > 0


def real_row(qid, question, aspect, gold=(), phrases=(), group=None, kind=None, products=(), ingredients=()):
    """A row shaped like trainsets/real_questions: no kind, labels instead."""
    return {
        "id": qid,
        "question": question,
        "source": "https://example.org/q",
        "targets": {"products": list(products), "ingredients": list(ingredients), "classes": [], "symptoms": []},
        "aspects": [aspect],
        "population": {"group": group, "detail": None},
        "other_drugs": [],
        "comparison": aspect == "comparison",
        "answerable": kind is None,
        "unanswerable_kind": kind,
        "gold": list(gold),
        "gold_phrases": list(phrases),
    }


REAL_ROWS = [  # gold phrases as the leaflets write them: U+00A0 where the answer has a space
    real_row(
        "a1", "게보린 먹고 술 마셔도 돼?", "alcohol", ["easydrug:197900277:intrc"], ["알코올과 함께\u00a0이 약을"]
    ),
    real_row(
        "a2",
        "게보린 임신 중에 먹어도 돼요?",
        "pregnancy",
        ["easydrug:197900277:atpn"],
        ["임부 또는 임신하고 있을 가능성이 있는 여성"],
        group="pregnant",
    ),
    # the answer quotes 게보린's cautions; 부루펜's, with the phrase, is in the context
    real_row(
        "a3",
        "게보린 먹다가 부루펜으로 바꿔도 돼요?",
        "comparison",
        ["easydrug:197700120:atpn"],
        ["위장관궤양, 위장관출혈"],
    ),
    real_row("u1", "루테인 영양제 저녁에 먹어도 되나요", "timing_food", kind="not_in_corpus", ingredients=["루테인"]),
    real_row("u2", "리피토 먹는데 자몽주스 마셔도 되나요", "food_drink", kind="not_in_corpus", products=["리피토"]),
    real_row("u3", "삼성전자 주가 어때요", "efficacy", kind="not_in_corpus"),
]


def test_eval_answers_reports_gold_phrases_and_unanswerable_outcomes_of_real_questions(tmp_path, capsys):
    assert cli.main(["eval-answers", "--questions", write(tmp_path, REAL_ROWS), "--no-mlflow", "--json"]) == 0
    out = capsys.readouterr().out
    s = json.loads(out[out.index("{") :])
    a = s["answerable"]
    assert (a["n"], a["phrase_questions"], a["phrase_quoted"], a["phrase_in_context"]) == (3, 3, 0.6667, 1.0)
    assert a["context_not_quoted"] == 1
    assert s["by_aspect"]["alcohol"]["phrase_quoted"] == 1.0
    assert (s["by_aspect"]["comparison"]["phrase_quoted"], s["by_aspect"]["comparison"]["context_not_quoted"]) == (0, 1)
    assert s["by_population"]["pregnant"]["phrase_quoted"] == 1.0
    assert s["by_population"]["none"]["phrase_questions"] == 2
    u = s["unanswerable"]["not_in_corpus"]
    # 루테인 and 리피토 get the not-in-corpus answer (programs/outcome.py), 주가 is out of scope: none quotes a leaflet
    assert (u["n"], u["declined"], u["said_not_covered"], u["quoted_unrelated"]) == (3, 1.0, 0.6667, 0.0)
    assert u["declined_or_not_covered"] == 1.0 and u["honest"] == 1.0
    assert u["outcomes"] == {"not_in_corpus": 2, "out_of_scope": 1}
    assert s["out_of_scope"]["blocked"] == 0.3333


def test_eval_answers_prints_and_logs_the_phrase_figures(tmp_path, capsys, monkeypatch):
    import mlflow

    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path}/m.db")
    assert cli.main(["eval-answers", "--questions", write(tmp_path, REAL_ROWS)]) == 0
    out = capsys.readouterr().out
    assert "gold phrase: 3 questions, quoted 0.667, in the generator's context 1.000" in out
    line = "not_in_corpus: 3, declined 1.000, said not covered 0.667, quoted an unrelated product 0.000, honest 1.000"
    assert line in out
    assert any(line.split()[:2] == ["comparison", "1"] for line in out.splitlines())
    run = mlflow.search_runs(experiment_names=["yaksa-answers"]).iloc[0]
    assert run["metrics.answerable.phrase_quoted"] == 0.6667
    assert run["metrics.by_aspect.comparison.context_not_quoted"] == 1
    assert run["metrics.unanswerable.not_in_corpus.quoted_unrelated"] == 0.0


def test_eval_answers_runs_the_shipped_real_question_split(capsys):
    assert cli.main(["eval-answers", "--split", "real-dev", "--limit", "3", "--no-mlflow", "--json"]) == 0
    out = capsys.readouterr().out
    s = json.loads(out[out.index("{") :])
    assert s["answerable"]["n"] == 3
    assert s["answerable"]["phrase_questions"] == 3
    assert sum(g["phrase_questions"] for g in s["by_population"].values()) == 3


def test_eval_answers_reports_question_understanding_and_writes_rows(tmp_path, capsys):
    rows_file = tmp_path / "rows.jsonl"
    argv = ["eval-answers", "--questions", write(tmp_path, REAL_ROWS), "--no-mlflow", "--json", "--rows"]
    assert cli.main([*argv, str(rows_file)]) == 0
    out = capsys.readouterr().out
    frame = json.loads(out[out.index("{") :])["frame"]
    assert frame["n"] == 6
    # a1 (술 → alcohol) and a2 (임신 → pregnancy, group pregnant) are read as labelled; a3 asks to switch (바꿔)
    assert frame["population"] == 1.0 and frame["comparison"] == 1.0
    assert 0.5 <= frame["aspects_primary"] <= 1.0
    lines = [json.loads(line) for line in rows_file.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in lines] == [r["id"] for r in REAL_ROWS]
    assert "게보린" in lines[0]["answer"] and lines[0]["phrase_quoted"] is True


def test_eval_answers_rows_to_an_unwritable_place_is_one_line(tmp_path, capsys):
    argv = ["eval-answers", "--questions", write(tmp_path, REAL_ROWS[:1]), "--no-mlflow", "--rows"]
    assert cli.main([*argv, str(tmp_path / "no" / "such" / "dir" / "rows.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "cannot write --rows" in err and "Traceback" not in err


def test_eval_answers_prints_and_logs_the_self_check_flags(tmp_path, capsys, monkeypatch):
    import mlflow

    # the answer quotes 게보린's storage, which says nothing of its expiry: the self-check flags it
    expiry = real_row("a4", "게보린 유통기한 지난 거 먹어도 돼요?", "expiry", ["easydrug:197900277:atpn"], ["사용기한"])
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path}/m.db")
    assert cli.main(["eval-answers", "--questions", write(tmp_path, [*REAL_ROWS[:3], expiry])]) == 0
    out = capsys.readouterr().out
    # a3 and a4 quote no gold phrase, a4 is flagged; a1 and a2 quote one and speak to what they were asked
    assert "self-check (answer says it misses the aspect asked): flags 0.500 of the 2 answers" in out
    assert "0.000 of the 2 others" in out
    run = mlflow.search_runs(experiment_names=["yaksa-answers"]).iloc[0]
    assert run["metrics.self_check.flags_missing"] == 0.5
    assert run["metrics.self_check.flags_others"] == 0.0


def test_fit_self_check_fits_on_the_real_dev_answers_reports_and_writes_a_model_the_program_reads(
    tmp_path, capsys, monkeypatch
):
    from programs.answer_doubt import FEATURES, DoubtModel
    from yaksa.commands import fit_relevance

    asked = []
    monkeypatch.setattr(fit_relevance, "load_real", lambda split: asked.append(split) or DOUBT_QUESTIONS)
    out = tmp_path / "doubt.json"
    assert cli.main(["fit-self-check", "-C", "1", "--out", str(out), "--no-mlflow", "--report", "real-test"]) == 0
    text = capsys.readouterr().out
    assert asked == ["dev", "test"]
    assert "real-dev, 5-fold cross-validated: n=12 missing=6" in text
    assert "real-test (report only)" in text
    model = DoubtModel.load(out)
    assert len(model.model.coef) == len(FEATURES) and 0 <= model.threshold <= 1
    assert model.report["cross_validated"]["n"] == 12 and model.report["real-test"]["missing"] == 6
    assert cli.main(["fit-self-check", "--flag-share", "1.5", "--no-mlflow"]) == 2
    assert "--flag-share must be between 0 and 1" in capsys.readouterr().err


# six answers that quote their phrase (a line of the product's own leaflet) and six whose phrase no leaflet has
_QUOTED = [("게보린 부작용", "쇽 증상"), ("게보린 먹고 술 마셔도 돼요", "알코올"), ("베아제 어떻게 먹어요", "1회"),
           ("판콜에이 부작용", "발진"), ("겔포스 어떻게 먹어요", "1회"), ("훼스탈플러스 효능", "소화")]  # fmt: skip
_NEVER = ["게보린 보관 방법", "베아제 임산부", "판콜에이 운전", "겔포스 어린이", "훼스탈 술", "게보린 효과 언제"]
DOUBT_QUESTIONS = [
    {"question": q, "answerable": True, "gold": [], "gold_phrases": [phrase]} for q, phrase in _QUOTED
] + [{"question": q, "answerable": True, "gold": [], "gold_phrases": ["어느 설명서에도 없는 문장"]} for q in _NEVER]
