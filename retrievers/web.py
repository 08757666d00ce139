"""Web references from Tavily: at most 5 links, found in parallel with answer generation, shown next to the answer
and never put into an LM context (pharmacist-rag-pipeline stage 5.5). No key, a timeout or an error gives an empty
list and a note for the trace.

Example:
    >>> refs = start_web_references("게보린 부작용", api_key="").result()
    >>> refs.links, refs.note
    ([], 'TAVILY_API_KEY not set; no web references')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field

MAX_LINKS = 5
TIMEOUT_S = 5.0
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="yaksa-web")


@dataclass
class WebReferences:
    """Links (title, url) and a note on how the lookup went."""

    links: list[dict] = field(default_factory=list)
    note: str = ""


def _tavily(api_key: str):
    from tavily import TavilyClient

    return TavilyClient(api_key=api_key)


def search_web(
    query: str,
    api_key: str | None = None,
    max_results: int = MAX_LINKS,
    timeout: float = TIMEOUT_S,
    client_factory: Callable[[str], object] = _tavily,
) -> WebReferences:
    """Ask Tavily for links about `query` (blocking, bounded by `timeout`)."""
    key = os.environ.get("TAVILY_API_KEY", "") if api_key is None else api_key
    if not key:
        return WebReferences([], "TAVILY_API_KEY not set; no web references")
    try:
        response = client_factory(key).search(query, max_results=max_results, timeout=timeout)
    except Exception as e:
        return WebReferences([], f"web search failed: {type(e).__name__}")
    links = []
    for item in (response or {}).get("results", [])[:max_results]:
        url = str(item.get("url", "")).strip()
        if url.startswith(("http://", "https://")):
            links.append({"title": str(item.get("title", "")).strip() or url, "url": url})
    return WebReferences(links, f"{len(links)} web references")


def start_web_references(
    query: str,
    api_key: str | None = None,
    max_results: int = MAX_LINKS,
    timeout: float = TIMEOUT_S,
    client_factory: Callable[[str], object] = _tavily,
) -> Future:
    """Start `search_web` in a background thread; collect with `collect_web_references`."""
    key = os.environ.get("TAVILY_API_KEY", "") if api_key is None else api_key
    if not key:
        done: Future = Future()
        done.set_result(WebReferences([], "TAVILY_API_KEY not set; no web references"))
        return done
    return _POOL.submit(search_web, query, key, max_results, timeout, client_factory)


def collect_web_references(future: Future | None, timeout: float = TIMEOUT_S) -> WebReferences:
    """The references, or an empty list when they are not ready within `timeout` seconds."""
    if future is None:
        return WebReferences([], "web references off")
    try:
        return future.result(timeout=max(timeout, 0.0))
    except FutureTimeout:
        future.cancel()
        return WebReferences([], f"web search timed out after {timeout:.0f} s")
    except Exception as e:
        return WebReferences([], f"web search failed: {type(e).__name__}")
