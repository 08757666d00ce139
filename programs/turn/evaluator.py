"""The turn evaluator: intent analysis, routing, one evaluation per intent run in parallel, and the turn log."""

from __future__ import annotations

import contextvars
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

import dspy

from programs.turn.evaluate_turn import ENTRY_POINTS, Turn
from programs.turn.intents import IntentSpec, keyword_intents
from programs.turn.no_lm import NO_LM_NOTE
from programs.turn.router import route_intents
from programs.turn.text_features import TextFeatures, text_features
from programs.turn.turn_log import IntentEvaluation, aggregate_turn_log
from signatures.turn import AnalyzeIntent, EvaluateTurn


class TurnEvaluator(dspy.Module):
    """Score how well a user wrote one prompt turn to an AI during a coding-problem session.

    The turn's intents are named (``AnalyzeIntent``), each intent is routed to its evaluation, the evaluations of a
    multi-intent turn run concurrently through one shared routine (``EvaluateTurn`` with the intent's eval type and
    Rules criterion), and the turn score is their mean. With no LM configured, intents come from keyword rules and
    rubric scores from the metric bands, and the turn log says so.

    Example:
        ```python
        import dspy
        from programs.turn.evaluator import TurnEvaluator

        dspy.configure(lm=dspy.LM("openai/gpt-4o-mini"))
        result = TurnEvaluator()(prompt="투 포인터로 풀어줘. N <= 10^5", problem_title="두 수의 합")
        result.intents      # ['GENERATION']
        result.score        # e.g. 72.0
        result.turn_log     # TurnLog with per-intent rubric scores and reasons
        ```
    """

    def __init__(self, num_threads: int = 8):
        super().__init__()
        self.analyze_intent = dspy.Predict(AnalyzeIntent)
        self.evaluate = dspy.Predict(EvaluateTurn)
        self.num_threads = num_threads

    def forward(
        self, prompt: str, ai_reply: str = "", problem_title: str = "", algorithms: Iterable[str] | str = ()
    ) -> dspy.Prediction:
        turn = Turn(prompt.strip(), (ai_reply or "").strip(), (problem_title or "").strip(), _names(algorithms))
        if not turn.prompt:
            raise ValueError("the prompt to evaluate is empty")
        features = text_features(turn.prompt)
        lm = dspy.settings.lm
        if lm is None:
            intents, source, notes, predictor = keyword_intents(turn.prompt), "keyword rules", [NO_LM_NOTE], None
        else:
            (intents, source, notes), predictor = self._analyze(turn), self.evaluate
        specs = route_intents(intents)
        evaluations = self._evaluate_all(specs, turn, features, predictor)
        log = aggregate_turn_log(
            turn.prompt,
            [spec.name for spec in specs],
            evaluations,
            features.as_dict(),
            source,
            lm=None if lm is None else str(getattr(lm, "model", lm)),
            notes=notes,
        )
        return dspy.Prediction(intents=log.intents, score=log.turn_score, turn_log=log)

    def _analyze(self, turn: Turn) -> tuple[list[str], str, list[str]]:
        """Intents from the LM; if its answer is unusable, from the keyword rules, with a note saying so."""
        try:
            intents = list(self.analyze_intent(user_prompt=turn.prompt, problem_title=turn.problem_title).intents)
        except Exception as error:
            note = f"intent analysis failed ({type(error).__name__}); intents from keyword rules instead."
            return keyword_intents(turn.prompt), "keyword rules", [note]
        return intents, "lm", []

    def _evaluate_all(
        self, specs: list[IntentSpec], turn: Turn, features: TextFeatures, predictor
    ) -> list[IntentEvaluation]:
        """Run each routed evaluation; several run concurrently, each thread in a copy of the caller's context.

        The context copy carries DSPy's settings (the LM, a trace being recorded while compiling) into the threads.
        A plain thread pool rather than ``dspy.Parallel``: this runs inside ``dspy.Evaluate``'s own threads, and
        nested parallel executors race on their shared progress-bar registry.
        """

        def run(spec: IntentSpec) -> IntentEvaluation:
            try:
                return ENTRY_POINTS[spec.node](turn, features, predictor)
            except Exception as error:  # the routine reports its own failures; this is a last guard
                scored_by = "lm" if predictor is not None else "metric bands"
                return IntentEvaluation(
                    spec.name, spec.node, spec.eval_type, spec.criterion, "failed", scored_by, error=repr(error)
                )

        if len(specs) == 1:
            return [run(specs[0])]
        with ThreadPoolExecutor(max_workers=min(self.num_threads, len(specs))) as pool:
            futures = [pool.submit(contextvars.copy_context().run, run, spec) for spec in specs]
            return [future.result() for future in futures]


def _names(algorithms: Iterable[str] | str) -> tuple[str, ...]:
    """Algorithm names from a list or a comma-separated string, blanks dropped."""
    items = algorithms.split(",") if isinstance(algorithms, str) else list(algorithms or ())
    return tuple(name.strip() for name in items if name and name.strip())
