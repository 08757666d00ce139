"""The page in headless Chromium (Debian's /usr/bin/chromium driven by Playwright; no browser download): ask a
question, watch the answer stream in, open a citation dialog, save a screenshot; the no-LM and out-of-scope notices.

Screenshots go to $YAKSA_SCREENSHOT_DIR (default: pytest's tmp dir)."""

import os
from pathlib import Path

import pytest

from programs.lm_config import load_lm_config
from tests.programs.test_stub_lm import by_prompt
from yaksa.testing.serve_app import LiveServer, make_app
from yaksa.testing.stub_openai import StubOpenAI

CHROMIUM = "/usr/bin/chromium"
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

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (.ci/browser-deps.sh)"),
]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("YAKSA_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_streamed_cited_answer_and_citation_dialog_with_an_lm(browser, shots):
    with StubOpenAI([by_prompt]) as stub:
        config = load_lm_config("/nonexistent", env={}, model="openai/stub", api_base=stub.url, api_key="x")
        config.num_retries = 0
        with LiveServer(make_app(lms=config.build())) as server:
            page = browser.new_page(viewport={"width": 1000, "height": 900}, locale="ko-KR")
            tokens = []
            page.on("console", lambda m: tokens.append(m.text))
            page.goto(server.url + "/")
            assert page.locator("#lm-banner").is_hidden()
            page.fill("#question", "게보린 먹고 속이 쓰려요")
            page.click("#submit")
            page.wait_for_selector("#answer .cite", timeout=20_000)
            page.locator("#status", has_text="답변 완료").wait_for()  # locators: no eval (the page's CSP forbids it)
            answer = page.inner_text("#answer")
            assert answer.startswith("게보린을 먹고 속이 쓰리면") and "전문가와 꼭 상담하세요" in answer
            page.locator("#scores-table > *").first.wait_for(state="attached", timeout=20_000)
            page.click("#answer .cite >> nth=0")
            dialog = page.locator("dialog#doc")
            dialog.wait_for(state="visible")
            assert "[문서 1] 게보린정" in page.inner_text("#doc-title") and page.inner_text("#doc-text").strip()
            path = shots / "serve-answer-citation.png"
            page.screenshot(path=str(path), full_page=True)
            assert path.stat().st_size > 10_000
            page.keyboard.press("Escape")
            page.click("button[data-tab=scores]")
            assert "종합" in page.inner_text("#scores-table")
            page.click("button[data-tab=web]")
            assert "식품의약품안전처" in page.inner_text("#tab-web")
            page.close()
    assert [r.get("stream") for r in stub.requests][:2] == [True, True]  # every call streams; the answer shows


def test_no_lm_banner_and_out_of_scope_notice(browser, shots):
    with LiveServer(make_app()) as server:
        page = browser.new_page(viewport={"width": 1000, "height": 800}, locale="ko-KR")
        page.goto(server.url + "/")
        page.wait_for_selector("#lm-banner:not(.hidden)")
        assert "LM" in page.inner_text("#lm-banner")
        page.fill("#question", "게보린 부작용")
        page.click("#submit")
        page.wait_for_selector("#answer .cite", timeout=20_000)
        page.locator("#status", has_text="답변 완료").wait_for()  # locators: no eval (the page's CSP forbids it)
        assert page.locator("#notice").is_hidden()  # the no-LM banner above already says it
        assert "언어 모델(LM) 없이" in page.inner_text("#answer") and "[문서 1]" in page.inner_text("#tab-sources")
        page.fill("#question", "삼성전자 주가 알려줘")
        page.click("#submit")
        page.locator("#notice", has_text="범위 밖").wait_for(timeout=20_000)
        assert page.locator("#notice").get_attribute("class").endswith("warn")
        page.screenshot(path=str(shots / "serve-out-of-scope.png"), full_page=True)
        page.close()
