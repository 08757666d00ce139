"""The page in headless Chromium (Debian's /usr/bin/chromium driven by Playwright; no browser download): ask a
question with the profile fields filled in, watch the answer stream in token by token before the final answer and
the progress bar move, open a citation dialog, save a screenshot; the no-LM and out-of-scope notices. No page may
log a console error.

The test skips where Chromium or Playwright is missing, unless ``YAKSA_REQUIRE_BROWSER=1`` (set by ``.ci/run``):
then it fails, so CI cannot be green without a browser ever starting. Screenshots go to $YAKSA_SCREENSHOT_DIR
(default: pytest's tmp dir)."""

import importlib.util
import json
import os
import time
from pathlib import Path

import pytest

from programs.lm_config import LMOverrides, load_lm_config
from tests.helpers.shared_mlflow_server import *  # noqa: F403
from tests.programs.test_stub_lm import by_prompt, chat
from yaksa.testing.serve_app import LiveServer, make_app
from yaksa.testing.stub_openai import StubOpenAI

CHROMIUM = os.environ.get("YAKSA_CHROMIUM", "/usr/bin/chromium")  # Debian's build
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REQUIRED = os.environ.get("YAKSA_REQUIRE_BROWSER") == "1"
ANSWER = "게보린을 먹고 속이 쓰리면 위장 장애일 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요."
DRIP = 0.25  # seconds between streamed tokens of the answer
# records what the page shows after every change of the DOM (CDP-injected: the page's CSP does not apply to it)
WATCH = """
document.addEventListener("DOMContentLoaded", () => {
  const $ = (id) => document.getElementById(id);
  const snap = () => window.yaksaSeen({
    answer: $("answer").innerText, status: $("status").textContent,
    answerBar: $("answer-bar").style.width, scoresBar: $("scores-bar").style.width,
  });
  new MutationObserver(snap).observe(document.body,
    { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["style"] });
});
"""


def missing() -> str | None:
    """Why the browser test cannot run here, or None."""
    if not os.path.exists(CHROMIUM):
        return f"no {CHROMIUM} (install it with .ci/browser-deps.sh)"
    if importlib.util.find_spec("playwright") is None:
        return "no playwright package (pip install -e '.[dev]')"
    return None


pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not REQUIRED and missing() is not None, reason=f"needs the browser: {missing()}"),
]


@pytest.fixture(scope="module")
def browser():
    if missing():
        pytest.fail(f"YAKSA_REQUIRE_BROWSER=1 but {missing()}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("YAKSA_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Watched:
    """A page whose console errors, uncaught errors and DOM states (with their time) are recorded."""

    def __init__(self, browser, viewport):
        self.page = browser.new_page(viewport=viewport, locale="ko-KR")
        self.errors: list[str] = []
        self.seen: list[tuple[float, dict]] = []
        self.requests: list = []
        self.page.on("console", lambda m: self.errors.append(f"{m.text} {m.location}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r) if r.url.endswith("/v1/ask/stream") else None)
        self.page.expose_function("yaksaSeen", lambda state: self.seen.append((time.monotonic(), state)))
        self.page.add_init_script(WATCH)


def drip_the_answer(request):
    """The stub: the answer-writing call streams its answer one word every DRIP seconds; the rest as `by_prompt`."""
    system = request["messages"][0]["content"]
    outputs = system.split("Your output fields are:", 1)[-1]
    if request.get("stream") and "`answer`" in outputs and "`context`" in system and "`verdict`" not in system:
        return {"drip": DRIP, "content": chat(answer=ANSWER)}
    return by_prompt(request)


def test_streamed_cited_answer_progress_profile_and_citation_dialog_with_an_lm(browser, shots):
    with StubOpenAI([drip_the_answer]) as stub:
        config = load_lm_config(
            "/nonexistent", env={}, overrides=LMOverrides(model="openai/stub", api_base=stub.url, api_key="x")
        )
        config.num_retries = 0
        with LiveServer(make_app(lms=config.build())) as server:
            w = Watched(browser, {"width": 1000, "height": 900})
            page = w.page
            page.goto(server.url + "/")
            assert page.locator("#lm-banner").is_hidden()
            page.fill("#question", "게보린 먹고 속이 쓰려요")
            page.click("details summary")  # the profile fields
            page.fill("#age", "34")
            page.check("#pregnant")
            page.fill("#medicines", "타이레놀, 와파린")
            page.click("#submit")
            page.wait_for_selector("#answer .cite", timeout=20_000)
            page.locator("#status", has_text="답변 완료").wait_for(timeout=20_000)  # locators: the CSP forbids eval
            final = page.inner_text("#answer")
            assert final.startswith("게보린을 먹고 속이 쓰리면")
            assert "전문가와 꼭 상담하세요" in final
            page.locator("#scores-table > *").first.wait_for(state="attached", timeout=20_000)

            # the answer streamed in: growing partial answers were shown before the final one, over the drip's time
            done_at = next(t for t, s in w.seen if "답변 완료" in s["status"])
            partial = [(t, s["answer"]) for t, s in w.seen if t < done_at and s["answer"].strip()]
            lengths = [len(a) for _, a in partial]
            assert len(set(lengths)) >= 5, partial
            assert lengths == sorted(lengths)
            assert all(final.startswith(a.rstrip()[:10]) for _, a in partial)
            assert done_at - partial[0][0] >= 4 * DRIP  # tokens came one by one, not all with the final answer
            # the progress bar moved through the steps to 100%, never back
            widths = [float(s["answerBar"].rstrip("%")) for _, s in w.seen if s["answerBar"]]
            steps = sorted(set(widths))
            assert widths == sorted(widths)
            assert len([p for p in steps if 0 < p < 100]) >= 2
            assert widths[-1] == 100
            assert float(w.seen[-1][1]["scoresBar"].rstrip("%")) == 100
            # the profile fields reached the request, and the model saw them
            assert len(w.requests) == 1
            body = json.loads(w.requests[0].post_data)
            assert body["user"] == {"age": 34, "pregnant": True, "medicines": ["타이레놀", "와파린"]}
            generate = [r for r in stub.requests if "`profile_summary`" in r["messages"][0]["content"]]
            assert generate
            assert "34세" in generate[0]["messages"][-1]["content"]
            assert "와파린" in generate[0]["messages"][-1]["content"]

            page.click("#answer .cite >> nth=0")
            dialog = page.locator("dialog#doc")
            dialog.wait_for(state="visible")
            assert "[문서 1] 게보린정" in page.inner_text("#doc-title")
            assert page.inner_text("#doc-text").strip()
            path = shots / "serve-answer-citation.png"
            page.screenshot(path=str(path), full_page=True)
            assert path.stat().st_size > 10_000
            page.keyboard.press("Escape")
            page.click("button[data-tab=scores]")
            assert "종합" in page.inner_text("#scores-table")
            page.click("button[data-tab=web]")
            assert "식품의약품안전처" in page.inner_text("#tab-web")
            page.close()
            assert w.errors == []
    assert all(r.get("stream") for r in stub.requests)  # every call streams; the answer shows as it comes


def test_no_lm_banner_and_out_of_scope_notice(browser, shots):
    with LiveServer(make_app()) as server:
        w = Watched(browser, {"width": 1000, "height": 800})
        page = w.page
        page.goto(server.url + "/")
        page.wait_for_selector("#lm-banner:not(.hidden)")
        assert "LM" in page.inner_text("#lm-banner")
        page.fill("#question", "게보린 부작용")
        page.click("#submit")
        page.wait_for_selector("#answer .cite", timeout=20_000)
        page.locator("#status", has_text="답변 완료").wait_for()  # locators: no eval (the page's CSP forbids it)
        assert page.locator("#notice").is_hidden()  # the no-LM banner above already says it
        assert "언어 모델(LM) 없이" in page.inner_text("#answer")
        assert "[문서 1]" in page.inner_text("#tab-sources")
        assert page.locator("#feedback").is_hidden()  # no tracking URI: no trace to rate
        page.fill("#question", "삼성전자 주가 알려줘")
        page.click("#submit")
        page.locator("#notice", has_text="범위 밖").wait_for(timeout=20_000)
        assert page.locator("#notice").get_attribute("class").endswith("warn")
        page.screenshot(path=str(shots / "serve-out-of-scope.png"), full_page=True)
        page.close()
        assert w.errors == []
        assert "user" not in json.loads(w.requests[0].post_data)  # empty profile fields send no profile


def test_thumbs_down_with_a_comment_lands_as_feedback_on_the_answers_trace(browser, shared_mlflow_server, monkeypatch):
    import mlflow
    from mlflow import MlflowClient

    monkeypatch.setenv("MLFLOW_EXPERIMENT_NAME", "browser-feedback")
    with LiveServer(make_app()) as server:
        w = Watched(browser, {"width": 1000, "height": 800})
        traced = []
        w.page.on("response", lambda r: traced.append(r) if r.url.endswith("/v1/feedback") else None)
        page = w.page
        page.goto(server.url + "/")
        page.fill("#question", "게보린 부작용")
        page.click("#submit")
        page.locator("#status", has_text="답변 완료").wait_for(timeout=20_000)
        page.wait_for_selector("#feedback:not(.hidden)")
        page.fill("#feedback-comment", "용법도 알려 주세요")
        page.click("#thumbs-down")
        page.locator("#feedback-note", has_text="고맙습니다").wait_for(timeout=20_000)
        assert page.locator("#thumbs-up").is_disabled()
        page.close()
    assert w.errors == []
    sent = json.loads(traced[0].request.post_data)
    assert (sent["value"], sent["comment"]) == (False, "용법도 알려 주세요")
    mlflow.flush_trace_async_logging()
    feedback = MlflowClient().get_trace(sent["trace_id"]).info.assessments
    assert [(a.name, a.value, a.rationale) for a in feedback] == [("user_feedback", False, "용법도 알려 주세요")]
