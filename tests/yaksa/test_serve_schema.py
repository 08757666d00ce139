"""Schemathesis against the app's OpenAPI spec, in process (ASGI): every response of /v1/ask, /v1/ask/stream,
/v1/search and /healthz matches the documented status codes, content types and schemas, and no input makes a 5xx.

The app runs the real CRAG program over the fake backend with no LM, so each generated case is a real question.
Generation is derandomized (the same cases every run) so CI results do not depend on the draw."""

import schemathesis
from hypothesis import HealthCheck, settings

from yaksa.app import ServeSettings
from yaksa.testing.serve_app import make_app

schema = schemathesis.openapi.from_asgi("/openapi.json", make_app())


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
def test_api_matches_its_openapi_spec(case):
    case.call_and_validate()


TOKEN = "s3cret"
guarded_app = make_app(settings=ServeSettings(api_token=TOKEN, scores="off"))
guarded = schemathesis.openapi.from_asgi("/openapi.json", guarded_app)


@guarded.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True, database=None)
def test_token_guarded_api_matches_its_spec_and_rejects_missing_tokens(case):
    case.call_and_validate(headers={"Authorization": f"Bearer {TOKEN}"})
