"""Web references: no key, a working client, a slow client, a failing client."""

import threading
import time

from retrievers.web import collect_web_references, search_web, start_web_references


class Client:
    def __init__(self, results=None, delay=0.0, error=None, wait=None):
        self.results, self.delay, self.error, self.wait = results or [], delay, error, wait
        self.calls = []

    def __call__(self, key):
        return self

    def search(self, query, max_results, timeout):
        self.calls.append((query, max_results, timeout))
        time.sleep(self.delay)
        if self.wait is not None:
            self.wait.wait(timeout=60)
        if self.error:
            raise self.error
        return {"results": self.results}


LINKS = [{"title": f"t{i}", "url": f"https://example.org/{i}"} for i in range(8)] + [{"title": "x", "url": "ftp://x"}]


def test_no_key_gives_an_empty_list_and_a_note(monkeypatch):
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    refs = collect_web_references(start_web_references("게보린"))
    assert refs.links == []
    assert "TAVILY_API_KEY not set" in refs.note


def test_at_most_five_http_links():
    client = Client(LINKS)
    refs = search_web("게보린", api_key="k", client_factory=client)
    assert len(refs.links) == 5
    assert all(r["url"].startswith("https://") for r in refs.links)
    assert client.calls == [("게보린", 5, 5.0)]


def test_slow_lookups_are_dropped_after_the_timeout():
    release = threading.Event()
    client = Client(LINKS, wait=release)  # answers only when released: after the collector gave up
    refs = collect_web_references(start_web_references("게보린", api_key="k", client_factory=client), 0.1)
    release.set()
    assert refs.links == []  # had the collector waited for the lookup, it would have its links
    assert "timed out" in refs.note


def test_failures_give_an_empty_list():
    refs = search_web("게보린", api_key="k", client_factory=Client(error=RuntimeError("down")))
    assert refs.links == []
    assert refs.note == "web search failed: RuntimeError"
