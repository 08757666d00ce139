"""What the tests and the benchmarks share, packaged so bench/ never imports tests/: a scripted LM keyed by
predictor, an OpenAI-compatible stub server on 127.0.0.1 and a reply function for any signature, a llama.cpp server
runner for the local LM, a fake search backend, a hash embedder, the mini corpus (a few real rows) with indexes over
it, and an HTTP app over them. Nothing here is used by the program itself."""
