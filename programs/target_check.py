"""Whether an answer is about the product the question names — the no-LM evaluator's target check.

A question that names a product the index knows (its `QuestionFrame` targets) asks about that product. An answer
whose cited leaflets are all other products' answers another question, however well it speaks to the aspect asked:
a re-search that added 소아 어린이 to "비판텐 계속 발라도 될까요" found children's fever syrups, and their 용법 lines
read as a perfect answer. DUR rows are about ingredients, not products, so an answer citing only rules is not judged.

Example:
    >>> from retrievers.documents import Document
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> frame = QuestionFrame("비판텐 계속 발라도 될까요", targets=Targets(products=("비판텐연고",)))
    >>> own = Document("easydrug:1:atpn", "비판텐연고\\n…", {"item_name": "비판텐연고(덱스판테놀)"})
    >>> other = Document("easydrug:2:useMethod", "어린이타이레놀현탁액\\n…", {"item_name": "어린이타이레놀현탁액"})
    >>> off_target(frame, [other]), off_target(frame, [own, other]), off_target(frame, [])
    (True, False, False)
"""

from __future__ import annotations

from programs.name_mentions import mentions
from retrievers.documents import Document


def off_target(frame, cited: list[Document]) -> bool:
    """The question names products (`frame.targets.products`) and the answer cites leaflets, none of them a named
    product's (a leaflet is a named product's when its name shares a 3-character run with the named one)."""
    named = frame.targets.products if frame is not None else ()
    leaflets = [d for d in cited if d.id.startswith("easydrug:")]
    if not named or not leaflets:
        return False
    return not any(mentions(str(d.metadata.get("item_name") or ""), n) for d in leaflets for n in named)
