"""The MLflow pyfunc flavour of a compiled yaksa program: ``mlflow.pyfunc.load_model(uri).predict({"question": ...})``.

The registered model holds the JSON state as the artifact ``program`` (``artifacts/yaksa_state.json``) and this small
wrapper, logged as a model-from-code (`programs/pyfunc_model.py`): `mlflow.pyfunc.load_model` runs that file and
unpickles nothing. `programs.load` reads only the JSON artifact and is the lighter path for apps.

Example (not run as a doctest: it needs an MLflow registry with a registered yaksa-crag):
    >>> model = mlflow.pyfunc.load_model("models:/yaksa-crag@champion")      # doctest: +SKIP
    >>> model.predict({"question": "게보린 먹고 속이 쓰려요"})[0]["answer"]  # doctest: +SKIP
"""

from __future__ import annotations

import mlflow.pyfunc


class YaksaModel(mlflow.pyfunc.PythonModel):
    """Loads the JSON state with `programs.loading.load` and answers one row per question."""

    def load_context(self, context):
        from programs.loading import load

        self.program = load(context.artifacts["program"])

    def predict(self, context, model_input, params=None):
        rows = _rows(model_input)
        out = []
        for row in rows:
            if "question" in row:
                pred = self.program(question=row["question"], user=row.get("user"))
                out.append(
                    {
                        "answer": pred.answer,
                        "citations": pred.citations,
                        "contexts": pred.contexts,
                        "out_of_scope": pred.out_of_scope,
                        "stop_reason": pred.run_log.get("stop_reason", ""),
                        "lm_calls": pred.run_log.get("lm_calls", {}).get("total", 0),
                    }
                )
            else:
                pred = self.program(**row)
                out.append(dict(pred.items()))
        return out


def _rows(model_input) -> list[dict]:
    if hasattr(model_input, "to_dict"):  # a pandas DataFrame
        return model_input.to_dict(orient="records")
    if isinstance(model_input, dict):
        return [model_input]
    if isinstance(model_input, str):
        return [{"question": model_input}]
    return [dict(r) if isinstance(r, dict) else {"question": str(r)} for r in model_input]
