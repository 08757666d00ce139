"""The HTTP face of yaksa: a FastAPI app (`create_app`) over one loaded CRAG program, its server-sent-event stream,
limits, and the one-page Korean UI in ``static/``. `yaksa serve` (yaksa/commands/serve.py) runs it with uvicorn.

`create_app` and `ServeSettings` are imported on first use, so reading the settings (``yaksa serve --help``) does
not load FastAPI or DSPy."""

__all__ = ["create_app", "ServeSettings"]


def __getattr__(name: str):
    if name == "create_app":
        from yaksa.app.api import create_app

        return create_app
    if name == "ServeSettings":
        from yaksa.app.settings import ServeSettings

        return ServeSettings
    raise AttributeError(f"module 'yaksa.app' has no attribute {name!r}")
