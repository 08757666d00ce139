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

from programs.ablations import DEFAULT_ABLATION
from yaksa.app.settings import SCORES, ServeSettings, check_token
from yaksa.commands import _backend, _lm_flags
from yaksa.errors import UserError


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help="HTTP API (JSON and server-sent events) and a web page for questions")
    p.add_argument("--model", help="a compiled program: a JSON state path or models:/NAME@ALIAS (default: a fresh one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    _lm_flags.add_lm_args(p, cache_flag=False, time_budget=True)
    p.add_argument("--profile", help=f"strategy profile when --model is not given (default {DEFAULT_ABLATION})")
    p.add_argument("--no-web", action="store_true", help="no web references even when TAVILY_API_KEY is set")
    d = ServeSettings(api_token=None)  # the defaults the flags stand for; [serve] in yaksa.toml may change them
    p.add_argument("--max-concurrent", type=int, help=f"questions in flight before 429 (default {d.max_concurrent})")
    p.add_argument("--workers", type=int, help=f"threads running the program at once (default {d.workers})")
    p.add_argument("--timeout", type=float, help=f"seconds per question before 504 (default {d.request_timeout_s:g})")
    p.add_argument(
        "--scores",
        choices=SCORES,
        help=f"scores sent after the answer (default {d.scores}): auto = RAGAS when a judge LM is set, else the "
        "quality evaluation",
    )
    p.add_argument(
        "--trace-sample",
        type=float,
        help=f"share of questions recorded as MLflow traces when MLFLOW_TRACKING_URI is set, 0 to 1 "
        f"(default {d.trace_sample:g}; env YAKSA_TRACE_SAMPLE)",
    )
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.add_argument(
        "--insecure",
        action="store_true",
        help="allow a non-loopback --host without YAKSA_API_TOKEN (anyone who can reach it may ask)",
    )
    p.set_defaults(func=run)


def load_program(args, timeout_s: float):
    """The program to serve: `--model` (JSON state or models:/ URI) or a fresh CRAG, over the default index."""
    from yaksa.commands._program import crag_settings

    settings = crag_settings(args)
    config = _lm_flags.lm_config(args, cache=False)
    lms = config.build()
    backend = _backend.open_backend()
    if args.model:
        program = _load_model(args.model, backend, lms)
    else:
        from programs.crag import CRAG

        program = CRAG(backend=backend, settings=settings, lms=lms)
    if args.no_web:
        program.settings = program.settings.replace(web_references=False)
    budget = program.settings.time_budget_s if args.time_budget is None else args.time_budget
    if not budget or budget > timeout_s * 0.9:  # the question ends with its best answer before the 504
        budget = round(timeout_s * 0.9, 1)
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

    from yaksa.app import create_app
    from yaksa.app.protocol import with_header_timeout

    if not 0 < args.port < 65536:
        raise UserError("--port must be between 1 and 65535")
    token = os.environ.get("YAKSA_API_TOKEN") or None
    try:
        check_token(token)  # a blank token would lock everyone out: say so before anything starts
    except ValueError as e:
        raise UserError(str(e)) from None
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
        settings = ServeSettings.load(
            args.config,
            max_concurrent=args.max_concurrent,
            workers=args.workers,
            request_timeout_s=args.timeout,
            scores=args.scores,
            trace_sample=args.trace_sample,
            api_token=token,
            allowed_hosts=LOOPBACK_NAMES if _loopback(args.host) else None,
        )
    except ValueError as e:  # a bad value in [serve] or a flag: one line naming it
        raise UserError(str(e)) from None
    program = load_program(args, settings.request_timeout_s)
    from yaksa.traces import TracingUnavailable

    try:
        app = create_app(program, settings=settings)
    except (ValueError, TracingUnavailable) as e:  # --scores ragas without a judge LM; a tracking server that is down
        raise UserError(str(e)) from None
    print(f"yaksa: serving on http://{args.host}:{args.port}/ (API docs: /docs)", file=sys.stderr)
    if app.state.host.tracer is not None:
        print(
            f"yaksa: tracing {settings.trace_sample:.0%} of questions to {os.environ['MLFLOW_TRACKING_URI']} "
            f"(experiment {app.state.host.tracer.experiment})",
            file=sys.stderr,
        )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=5,
        http=with_header_timeout(settings.header_timeout_s),
    )
    return 0
