"""dspy.Modules composing signatures and retrievers: CRAG, its strategies and safety stops, the no-LM fallbacks,
the turn evaluator. A program never imports a metric."""
