"""The HTTP face of yaksa: a FastAPI app (`create_app`) over one loaded CRAG program, its server-sent-event stream,
limits, and the one-page Korean UI in ``static/``. `yaksa serve` (yaksa/commands/serve.py) runs it with uvicorn."""

from yaksa.app.api import create_app
from yaksa.app.settings import ServeSettings

__all__ = ["create_app", "ServeSettings"]
