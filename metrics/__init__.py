"""Functions (example, prediction[, trace]) -> score. Judge metrics may call an LM; nothing else here does."""
