"""``POST /v1/feedback``: a reader's 👍 / 👎 (and comment) on an answer, logged as MLflow feedback on the trace this
server recorded for it (409 when tracing is off, 404 for a trace it did not record, 502 when the store fails)."""

import logging

from fastapi import APIRouter

from yaksa.app.deps import HostDep
from yaksa.app.http_errors import ApiError, responses
from yaksa.app.schemas import FeedbackRequest, FeedbackResponse
from yaksa.app.service import in_thread
from yaksa.text_input import TextInputError, clean_text

log = logging.getLogger("yaksa.serve")
router = APIRouter()


@router.post(
    "/v1/feedback",
    response_model=FeedbackResponse,
    summary="a reader's 👍 / 👎 (and comment) on an answer, logged as MLflow feedback on its trace",
    responses=responses(400, 401, 404, 409, 413, 422, 502),
)
async def feedback(body: FeedbackRequest, host: HostDep):
    tracer = host.tracer
    if tracer is None:
        raise ApiError(409, "tracing_off", "this server records no traces (start it with MLFLOW_TRACKING_URI set)")
    try:
        comment = clean_text(body.comment, "comment") if body.comment else None
    except TextInputError as e:
        raise ApiError(400, "bad_text", str(e)) from None
    if not tracer.issued(body.trace_id):
        raise ApiError(404, "unknown_trace", f"this server answered no traced question {body.trace_id}")
    from yaksa.traces import FeedbackError, log_feedback

    try:
        assessment_id = await in_thread(
            lambda: log_feedback(body.trace_id, body.value, comment), host.limiter("scores")
        )
    except FeedbackError as e:
        log.error("feedback on %s: %s", body.trace_id, e.__cause__ or e)
        raise ApiError(502, "tracking_unavailable", str(e)) from None
    return {"trace_id": body.trace_id, "assessment_id": assessment_id}
