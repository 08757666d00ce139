"""The pyfunc model as code: MLflow logs this file (``python_model=`` its path) and runs it when the model is loaded,
so `mlflow.pyfunc.load_model` builds a fresh `YaksaModel` instead of unpickling one. The compiled program itself is
the JSON artifact ``program``, read by `programs.loading.load` (nothing unpickled there either)."""

import mlflow

from programs.pyfunc import YaksaModel

mlflow.models.set_model(YaksaModel())
