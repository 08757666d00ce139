"""`yaksa compile --promote` moves `@champion` only to a strictly better model, scored like with like: every
candidate on one fixed dev set (the same whatever --seed), the version tagged with that set's version and the LMs,
a champion measured the same way compared by its recorded score (a flaky LM never re-scores it down), and the
decision a compare-and-set under a lock, so concurrent promotes end on the better model."""

import argparse
import json
import threading
import time

import mlflow
import pytest
from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from yaksa import cli
from yaksa.commands import _registry
from yaksa.testing.any_signature import ANSWER, any_signature, chat
from yaksa.testing.stub_openai import StubOpenAI

TRAIN = ["게보린 부작용", "게보린 먹는 법", "타이레놀 효능", "게보린 효과", "베아제 효능", "부루펜 부작용"]
DEV = ["타이레놀 부작용", "게보린 주의사항", "베아제 보관", "부루펜 먹는 법"]  # seed 0 draws 2 of them, seed 1 others
EXAMPLED = "예시를 따른 답변입니다. 위장 장애가 나타날 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요."
FALLBACK = "관련 문서가 부족합니다. 전문가와 꼭 상담하세요."
COMPILE = ["compile", "--optimizer", "bootstrap", "--train", "3", "--dev", "2", "--profile", "baseline"]
COMPILE += ["--threads", "1", "--experiment", "test", "--promote", "--no-cache"]


class FlakyLM:
    """An LM server whose judge scores an answer written with demos in the prompt 0.9, a plain answer 0.6 and
    anything else (a fallback writer's, the extractive one) 0.3; once `flaky`, it fails (HTTP 500) every answer
    prompt that carries demos, as an overloaded server fails long prompts."""

    def __init__(self):
        self.flaky = False
        self.failed = 0

    def __call__(self, request: dict):
        messages = request.get("messages") or []
        system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
        if "`grounding`" in system:
            answer = messages[-1]["content"].split("[[ ## answer ## ]]", 1)[-1].strip()
            score = 0.9 if answer.startswith("예시를") else 0.6 if answer.startswith(ANSWER[:6]) else 0.3
            return chat(grounding=score, completeness=score, accuracy=score, missing_info="[]",
                        improvement_suggestions="[]", needs_retrieval="false", reason="채점")  # fmt: skip
        outputs = system.split("Your output fields are:", 1)[-1].split("All interactions", 1)[0]
        if "`answer`" in outputs and "You are a pharmacist answering" in system:  # the main answer writer
            if len(messages) > 2 and self.flaky:
                self.failed += 1
                return {"status": 500, "body": "overloaded"}
            return chat(answer=EXAMPLED if len(messages) > 2 else ANSWER)
        if "`answer`" in outputs:  # the low-relevance / no-context writers
            return chat(answer=FALLBACK)
        return any_signature(request)


@pytest.fixture
def qa(tmp_path):
    folder = tmp_path / "promotion-qa"
    folder.mkdir()
    for name, questions in (("train", TRAIN), ("dev", DEV)):
        rows = [{"id": f"{name}{n}", "question": q, "answer": "위장 장애"} for n, q in enumerate(questions)]
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return folder


@pytest.fixture
def flaky(lab):
    lm = FlakyLM()
    with StubOpenAI([lm]) as server:
        lm.argv = ["--lm", "openai/stub", "--api-base", server.url]
        lm.url = server.url
        yield lm


def champion() -> str:
    return str(MlflowClient().get_model_version_by_alias("yaksa-crag", "champion").version)


def test_a_worse_candidate_does_not_take_the_alias_when_the_lm_turns_flaky(lab, qa, flaky, capsys):
    assert cli.main([*COMPILE, "--seed", "0", "--data", str(qa), *flaky.argv]) == 0
    assert champion() == "1"
    assert float(MlflowClient().get_model_version("yaksa-crag", "1").tags["dev_score"]) == pytest.approx(0.9)

    flaky.flaky = True  # the server now fails the long prompts v1 sends; v2 (no demos) is compiled on another seed
    capsys.readouterr()
    assert cli.main([*COMPILE, "--seed", "1", "--demos", "0", "--data", str(qa), *flaky.argv]) == 0
    out = capsys.readouterr().out
    assert champion() == "1", out
    assert "@champion stays at version 1" in out
    # v2 scores 0.45: its plain answer (0.6) on one dev question; on the other the stub's 게보린 query is merged with
    # the question's own hits, so the answer's 게보린 sentence cites another leaflet and the extractive answer (0.3)
    # replaces it
    assert "0.900 >= 0.450, recorded score" in out
    assert flaky.failed == 0  # the champion was not re-scored through the flaky server
    assert float(MlflowClient().get_model_version("yaksa-crag", "2").tags["dev_score"]) == pytest.approx(0.45)


def test_the_registered_version_carries_the_dataset_version_and_the_lms(lab, qa, flaky):
    assert cli.main([*COMPILE, "--seed", "1", "--data", str(qa), *flaky.argv]) == 0
    assert cli.main([*COMPILE, "--seed", "2", "--data", str(qa), *flaky.argv]) == 0
    client = MlflowClient()
    v1, v2 = (client.get_model_version("yaksa-crag", v) for v in ("1", "2"))
    runs = {v.run_id: mlflow.get_run(v.run_id) for v in (v1, v2)}
    assert runs[v1.run_id].data.params["dataset_hash"] != runs[v2.run_id].data.params["dataset_hash"]  # other draws
    # ...but both were scored for promotion on the same fixed dev set
    assert len(v1.tags["dataset_version"]) == 12
    assert v1.tags["dataset_version"] == v2.tags["dataset_version"]
    assert v1.tags["dev_n"] == "2"
    assert f"generate=openai/stub@{flaky.url}" in v1.tags["lm"]
    assert f"judge=openai/stub@{flaky.url}" in v1.tags["lm"]
    assert v1.tags["metric"] == "quality"
    assert "promotion_dev_score" in runs[v1.run_id].data.metrics  # seed 1's own draw is not the fixed set


def registered_versions(qa, n: int) -> list[str]:
    """`n` registered versions of yaksa-crag (runs with a placeholder model; promotion reads only tags)."""
    client = MlflowClient()
    client.create_registered_model("yaksa-crag")
    mlflow.set_experiment("test")
    versions = []
    for _ in range(n):
        with mlflow.start_run() as run:
            mlflow.log_text("{}", "model/MLmodel")
        versions.append(client.create_model_version("yaksa-crag", f"runs:/{run.info.run_id}/model", run.info.run_id))
    return [str(v.version) for v in versions]


def promote_args(qa) -> argparse.Namespace:
    return argparse.Namespace(
        program="crag", metric="quality", weights=None, optimizer="bootstrap", profile="baseline", promote=True,
        data=qa, dev=2, seed=0, threads=1,
    )  # fmt: skip


def test_two_concurrent_promotes_end_with_the_better_model(lab, qa, monkeypatch):
    better, worse = registered_versions(qa, 2)
    slow_read = 0.2  # every registry read takes a while, so both promotes have read before either writes
    for method in ("get_model_version_by_alias", "get_registered_model", "get_model_version"):
        real = getattr(MlflowClient, method)

        def read(self, *args, _real=real, **kwargs):
            time.sleep(slow_read)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(MlflowClient, method, read)
    real_set = MlflowClient.set_registered_model_alias

    def late_worse_write(self, name, alias, version):
        if str(version) == worse:
            time.sleep(0.5)  # the worse one writes last: without a lock, last writer wins
        return real_set(self, name, alias, version)

    monkeypatch.setattr(MlflowClient, "set_registered_model_alias", late_worse_write)
    args = promote_args(qa)
    results, errors = {}, []

    def run(version, score):
        try:
            results[version] = _registry.register_version("yaksa-crag", version, "r", args, score, "h", None, {})
        except Exception as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(v, s)) for v, s in ((better, 0.9), (worse, 0.6))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert champion() == better
    assert results[better]["promoted"]


def test_an_equal_score_does_not_move_the_alias_and_a_better_one_does(lab, qa):
    first, equal, higher = registered_versions(qa, 3)
    args = promote_args(qa)
    assert _registry.register_version("yaksa-crag", first, "r", args, 0.7, "h", None, {})["promoted"]
    assert not _registry.register_version("yaksa-crag", equal, "r", args, 0.7, "h", None, {})["promoted"]
    assert champion() == first
    assert _registry.register_version("yaksa-crag", higher, "r", args, 0.71, "h", None, {})["promoted"]
    assert champion() == higher


def test_a_champion_scored_with_another_lm_is_re_scored_on_the_fixed_set(lab, qa, monkeypatch):
    first, second = registered_versions(qa, 2)
    args = promote_args(qa)
    _registry.register_version("yaksa-crag", first, "r", args, 0.9, "h", None, {})
    MlflowClient().set_model_version_tag("yaksa-crag", first, "lm", "generate=openai/other@http://elsewhere")
    seen = []

    def fake_evaluate(program, devset, metric, threads, kind, progress=True):
        seen.append([e.question for e in devset])
        return {"score": 0.5}

    monkeypatch.setattr(_registry._evaluation, "evaluate", fake_evaluate)
    monkeypatch.setattr("programs.loading.load", lambda uri, **kw: seen.append(uri) or object())
    result = _registry.register_version("yaksa-crag", second, "r", args, 0.6, "h", None, {})
    assert seen[0] == f"models:/yaksa-crag/{first}"
    assert seen[1] == [DEV[1], DEV[3]]  # the seed-0 draw, whatever the run's seed
    assert result["promoted"] and result["reason"] == "re-scored"
    assert champion() == second
