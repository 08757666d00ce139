"""The metric of compile / evaluate: the one reported (quality, RAGAS, combined, or the turn metric) and the form an
optimizer sees (GEPA gets textual feedback)."""

from __future__ import annotations

from yaksa.errors import UserError


def build_metric(args, lms, feedback: bool = False):
    """(the metric to report, the metric the optimizer sees)."""
    if args.program == "turn":
        from metrics.turn import turn_metric

        def turn_feedback(example, pred, trace=None, pred_name=None, pred_trace=None):
            import dspy

            value = turn_metric(example, pred, None)
            if feedback:
                text = f"gold intents {example.intents}, score {example.score}; got {pred.intents}, {pred.score}"
                return dspy.Prediction(score=value, feedback=text)
            return turn_metric(example, pred, trace) if trace is not None and pred_name is None else value

        return turn_metric, turn_feedback
    from metrics.combined import for_optimizer, make_metric, parse_weights

    try:
        weights = parse_weights(args.weights) if getattr(args, "weights", None) else None
        metric = make_metric(args.metric, judge=lms.get("judge"), weights=weights)
    except ValueError as e:
        raise UserError(str(e)) from None
    return metric, for_optimizer(metric, feedback=feedback)
