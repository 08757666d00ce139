"""`FieldListener` sends a field's text as it arrives, from JSON replies cut anywhere (escapes, surrogate pairs,
spaces around the colon) and from DSPy field markers, and starts afresh for the next completion."""

import json

import dspy
from hypothesis import given, settings
from hypothesis import strategies as st
from litellm import ModelResponseStream

from programs.stream_listener import FieldListener, answer_listeners

VALUE = '네, 드실 수 있습니다.\n"주의": 간 손상 😀 \\ 끝 [문서 1]'


def chunk(text, rid="c1"):
    return ModelResponseStream(id=rid, choices=[{"delta": {"content": text}}])


def feed(listener, pieces, rid="c1"):
    return [out for p in pieces if (out := listener.receive(chunk(p, rid)))]


def cut(text, points):
    points = sorted({p for p in points if 0 < p < len(text)})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=200), max_size=40), st.booleans(), st.booleans())
def test_json_pieces_add_up_to_the_value_wherever_the_reply_is_cut(points, answer_first, ascii_only):
    fields = {"answer": VALUE, "verdict": "PASS"} if answer_first else {"verdict": "PASS", "answer": VALUE}
    reply = "{ " + ", ".join(f'"{k}" :  {json.dumps(v, ensure_ascii=ascii_only)}' for k, v in fields.items()) + " }"
    outs = feed(FieldListener("answer", predict=dspy.Predict("q -> answer")), cut(reply, points))
    assert "".join(o.chunk for o in outs) == VALUE
    assert [o.is_last_chunk for o in outs].count(True) == 1
    assert outs[-1].is_last_chunk


def test_text_is_sent_before_the_reply_ends():
    listener = FieldListener("answer", predict=dspy.Predict("q -> answer"))
    outs = feed(listener, ['{"answer": "첫 문장', "입니다. ", "둘째"])  # the JSON is still open
    assert "".join(o.chunk for o in outs) == "첫 문장입니다. 둘째"
    assert not any(o.is_last_chunk for o in outs)


def test_field_markers_still_stream():
    listener = FieldListener("answer", predict=dspy.Predict("q -> answer"))
    reply = "[[ ## answer ## ]]\n네, 괜찮습니다. [문서 1]\n\n[[ ## completed ## ]]"
    outs = feed(listener, cut(reply, range(5, len(reply), 5)))
    outs += [o for o in [listener.finalize()] if o]
    assert "".join(o.chunk for o in outs) == "네, 괜찮습니다. [문서 1]"


def test_a_second_completion_starts_afresh_even_after_a_cut_reply():
    listener = FieldListener("answer", predict=dspy.Predict("q -> answer"))
    first = feed(listener, ['{"answer": "초안이 길어서 잘', "렸"], rid="a")  # max_tokens: the JSON never closed
    second = feed(listener, ['{"answer": "교정된', ' 답변"}'], rid="b")
    assert "".join(o.chunk for o in first) == "초안이 길어서 잘렸"
    assert "".join(o.chunk for o in second) == "교정된 답변"
    assert second[-1].is_last_chunk


def test_the_program_listens_to_its_answer_writers_by_name():
    from yaksa.testing.fake_backend import FakeBackend
    from yaksa.testing.serve_app import make_program

    listeners = answer_listeners(make_program(backend=FakeBackend()))
    assert [(lst.predict_name, lst.signature_field_name) for lst in listeners] == [
        ("generator.generate", "answer"),
        ("generator.generate_low_relevance", "answer"),
        ("generator.generate_no_context", "answer"),
        ("verifier.correct", "corrected_answer"),
    ]
