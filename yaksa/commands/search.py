"""``yaksa search``: ranked documents for a query (or one query per stdin line with ``-``)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from yaksa.commands._backend import open_searcher_or_explain
from yaksa.errors import UserError
from yaksa.text_input import TextInputError, clean_text, stdin_lines


def register(sub) -> None:
    p = sub.add_parser(
        "search",
        help="search the corpus (no LM)",
        description="Print ranked documents: id, score, product, section, snippet. "
        "`yaksa search --json -` reads one query per line from stdin and writes one JSON array per line.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("query", help="the question, or - to read one query per line from stdin")
    p.add_argument("-k", type=int, help="how many documents (default: top_k of the retrieval settings)")
    p.add_argument("--json", action="store_true", help='JSON array of {"id", "score", "metadata"}')
    p.add_argument("--index-dir", help="index folder (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    p.add_argument("--fusion", choices=["weighted", "rrf"], help="score fusion (default from yaksa.toml)")
    p.add_argument("--reranker", help="flag:<path> or cross-encoder:<path> (default from yaksa.toml: none)")
    p.add_argument("--explain", action="store_true", help="show every stage's score and the timings")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.k is not None and not 1 <= args.k <= 100:
        raise UserError("-k must be between 1 and 100")
    query = args.query if args.query == "-" else clean_text(args.query, "QUERY")
    searcher = open_searcher_or_explain(args.index_dir, fusion=args.fusion, reranker=args.reranker)
    if args.query == "-":
        return _batch(searcher, args)
    result = _retrieve(searcher, query, args.k)
    for w in result.warnings:
        print(f"warning: {w}", file=sys.stderr)
    if args.json:
        print(json.dumps([] if result.out_of_scope else [h.to_json() for h in result.hits], ensure_ascii=False))
        return 0
    _print_human(result, args.explain)
    return 0


def _retrieve(searcher, query: str, k: int):
    from retrievers.query_analysis import QueryError

    try:
        return searcher.retrieve(query, k=k)
    except QueryError as e:
        raise UserError(str(e)) from None
    except Exception as e:
        raise _store_error(e) from None


def _batch(searcher, args) -> int:
    from retrievers.query_analysis import QueryError

    for _, query in stdin_lines():
        try:
            if isinstance(query, TextInputError):
                raise query
            result = searcher.retrieve(query, k=args.k)
            rows = [] if result.out_of_scope else [h.to_json() for h in result.hits]
        except (QueryError, TextInputError) as e:
            print(f"warning: line skipped: {e}", file=sys.stderr)
            rows = []
        except Exception as e:
            raise _store_error(e) from None
        print(json.dumps(rows, ensure_ascii=False), flush=True)
    return 0


def _store_error(error: Exception) -> Exception:
    """A vector store (a Chroma server) that stopped answering becomes one line; anything else is re-raised."""
    from retrievers.vector_store import VectorStoreError

    if not isinstance(error, VectorStoreError):
        return error
    url = os.environ.get("YAKSA_CHROMA_URL") or "the vector store"
    return UserError(
        f"the Chroma server at {url} stopped answering ({str(error)[:200]}); start it again or unset YAKSA_CHROMA_URL"
    )


def _print_human(result, explain: bool) -> None:
    from programs.citations import product
    from programs.citations import section as section_of
    from retrievers.oos_guard import OOS_MESSAGE

    if result.out_of_scope:
        print(OOS_MESSAGE)
        print(f"  ({result.oos_reason})")
        return
    print(
        f"scorer: {result.scorer}"
        + (f"   names: {', '.join(result.names)}" if result.names else "")
        + (f"   sections: {', '.join(result.sections)}" if result.sections else "")
    )
    for rank, hit in enumerate(result.hits, 1):
        where, section = product(hit.doc), section_of(hit.doc)
        if "dur_type" in hit.doc.metadata:
            where = f"DUR {where}"
        body = hit.doc.text.split("\n", 1)[-1].replace("\n", " ")
        snippet = body[:90] + ("…" if len(body) > 90 else "")
        print(f"{rank}. {hit.id}  {hit.score:.3f}  {where} · {section}")
        print(f"   {snippet}")
        if explain:
            print(f"   scores: {hit.scores}")
    if explain:
        print(f"timings (ms): {result.timings}")
