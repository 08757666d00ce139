"""The graph's nodes receive the question's parts and state, never the CRAG module; every node has its edge."""

import inspect

from programs import graph
from programs.crag import CRAG
from programs.parts import Parts
from programs.run import Run
from programs.state import QuestionState
from yaksa.testing.fake_backend import FakeBackend


def test_every_node_takes_the_parts_and_the_state_and_has_an_edge():
    assert set(graph.NODES) == set(graph.EDGES)
    for name, node in graph.NODES.items():
        params = inspect.signature(node).parameters
        assert [(p, params[p].annotation) for p in params] == [("p", "Parts"), ("st", "QuestionState")], name


def test_a_node_runs_on_parts_alone():
    program = CRAG(backend=FakeBackend())
    parts = program.parts()
    assert isinstance(parts, Parts) and parts.settings is program.settings and parts.backend is program.backend
    st = QuestionState("게보린 먹고 속이 쓰려요", run=Run(budget_limit=0))
    info = graph.retrieve(parts, st)
    assert info["purpose"] == "question" and info["hits"][0]["id"].startswith("easydrug:")
    info = graph.grade(parts, st)
    assert st.relevance_history == [info["relevance"]] and st.route == info["route"]
