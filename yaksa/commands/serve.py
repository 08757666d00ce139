"""``yaksa serve``: the HTTP API and the Korean page over one loaded program (yaksa/app, docs/serve.md).

The program is loaded once, before the server starts, so a bad path or a missing index is a one-line error:

    $ yaksa serve                                          # a fresh CRAG over the shipped index, no LM
    $ yaksa serve --model out/crag.json --lm openai/gpt-4o-mini --port 8000
    $ yaksa serve --model models:/yaksa-crag@champion      # an MLflow registered model by alias
    $ YAKSA_API_TOKEN=secret yaksa serve --host 0.0.0.0    # other hosts need a token
"""

from __future__ import annotations

import ipaddress
import os
import sys

from yaksa.cli import UserError


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help="HTTP API (JSON and server-sent events) and a web page for questions")
    p.add_argument("--model", help="a compiled program: a JSON state path or models:/NAME@ALIAS (default: a fresh one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--lm", help="litellm model string for every role (default: none, no LM)")
    for role in ("query", "generate", "verify", "judge"):
        p.add_argument(f"--lm-{role}", help=f"model for the {role} role only")
    p.add_argument("--api-base", help="base URL of an OpenAI-compatible server (vLLM, llama.cpp, Ollama)")
    p.add_argument("--config", help="config file with an [lm] section (default: ./yaksa.toml or $YAKSA_CONFIG)")
    from yaksa.commands._lab import add_lm_limit_args

    add_lm_limit_args(p, time_budget=True)
    p.add_argument("--profile", help="strategy profile when --model is not given (default full_context_engineering)")
    p.add_argument("--no-web", action="store_true", help="no web references even when TAVILY_API_KEY is set")
    p.add_argument("--max-concurrent", type=int, default=64, help="questions in flight before 429 (default 64)")
    p.add_argument("--workers", type=int, default=32, help="threads running the program at once (default 32)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per question before 504 (default 120)")
    p.add_argument(
        "--scores",
        choices=("auto", "quality", "ragas", "off"),
        default="auto",
        help="scores sent after the answer: auto = RAGAS when a judge LM is set, else the quality evaluation",
    )
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.add_argument(
        "--insecure",
        action="store_true",
        help="allow a non-loopback --host without YAKSA_API_TOKEN (anyone who can reach it may ask)",
    )
    p.set_defaults(func=run)


def load_program(args):
    """The program to serve: `--model` (JSON state or models:/ URI) or a fresh CRAG, over the default index."""
    from programs.profiles import PROFILES, get_profile
    from yaksa.commands._lab import lm_config
    from yaksa.commands.ask import open_backend

    if args.profile and args.profile not in PROFILES:
        raise UserError(f"unknown profile {args.profile!r}; choose one of: {', '.join(PROFILES)}")
    config = lm_config(args, cache=False)
    lms = config.build()
    backend = open_backend()
    if args.model:
        program = _load_model(args.model, backend, lms)
    else:
        from programs.crag import CRAG

        program = CRAG(backend=backend, settings=get_profile(args.profile), lms=lms)
    if args.no_web:
        program.settings = program.settings.replace(web_references=False)
    budget = program.settings.time_budget_s if args.time_budget is None else args.time_budget
    if budget < 0:
        raise UserError("--time-budget must be 0 (no limit) or more seconds")
    if not budget or budget > args.timeout * 0.9:  # the question ends with its best answer before the 504
        budget = round(args.timeout * 0.9, 1)
    program.settings = program.settings.replace(time_budget_s=budget)
    return program


def _load_model(uri: str, backend, lms):
    from programs.crag import CRAG

    try:
        from programs.loading import StateError, load
    except ImportError:  # programs.load is not installed: JSON state paths only
        if uri.startswith(("models:/", "runs:/")):
            raise UserError(f"{uri}: loading MLflow models needs programs/loading.py; pass a JSON state path") from None
        program = CRAG(backend=backend, lms=lms)
        try:
            program.load(uri)
        except (OSError, ValueError, KeyError) as e:
            raise UserError(f"cannot load {uri}: {e}") from None
        return program
    try:
        program = load(uri, backend=backend, lms=lms)
    except StateError as e:
        if "no 'yaksa' header" not in str(e):
            raise UserError(f"cannot load {uri}: {e}") from None
        program = CRAG(backend=backend, lms=lms)  # a plain `program.save(path)` state: the default profile
        try:
            program.load(uri)
        except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
            raise UserError(
                f"{uri} is not a saved program (neither a yaksa state nor a CRAG DSPy state: {type(e).__name__}): "
                "save one with `yaksa compile --out FILE`"
            ) from None
    except OSError as e:
        raise UserError(f"cannot load {uri}: {e}") from None
    except Exception as e:  # MLflow: unknown model or alias, unreachable store
        raise UserError(f"cannot load {uri}: {type(e).__name__}: {str(e)[:200]}") from None
    if not isinstance(program, CRAG):
        raise UserError(f"{uri} is a {type(program).__name__}, not a CRAG program; yaksa serve answers questions")
    return program


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(args) -> int:
    import uvicorn

    from yaksa.app import ServeSettings, create_app
    from yaksa.app.protocol import with_header_timeout

    if not 0 < args.port < 65536:
        raise UserError("--port must be between 1 and 65535")
    token = os.environ.get("YAKSA_API_TOKEN") or None
    if not _loopback(args.host) and not token:
        if not args.insecure:
            raise UserError(
                f"--host {args.host} is reachable from other machines: set YAKSA_API_TOKEN, "
                "or pass --insecure to serve without a token"
            )
        print(
            f"yaksa: warning: listening on {args.host} without YAKSA_API_TOKEN: anyone who can reach it may ask",
            file=sys.stderr,
        )
    try:
        settings = ServeSettings(
            max_concurrent=args.max_concurrent,
            workers=args.workers,
            request_timeout_s=args.timeout,
            scores=args.scores,
            api_token=token,
            allowed_hosts=LOOPBACK_NAMES if _loopback(args.host) else None,
        )
    except ValueError as e:
        raise UserError(str(e)) from None
    program = load_program(args)
    try:
        app = create_app(program, settings=settings)
    except ValueError as e:  # --scores ragas without a judge LM
        raise UserError(str(e)) from None
    print(f"yaksa: serving on http://{args.host}:{args.port}/ (API docs: /docs)", file=sys.stderr)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=5,
        http=with_header_timeout(settings.header_timeout_s),
    )
    return 0
