"""A question telling that a medicine has been used for a while without getting better asks how long to go on.

"파스 3일 붙였는데 여전히 아파요", "일주일 발랐는데 멍이 그대로예요 더 발라도 돼요?": the leaflets answer this in their
own sentence, "N일 정도 사용하여도 증상의 개선이 없을 경우 사용을 중지하고 의사 또는 약사와 상의하십시오", which is the
duration aspect's. A time spent (a number of days, weeks or months, 며칠, 일주일, 한 달 …) and a word saying it has
not got better (그대로, 여전히, 안 나아요, 효과가 없어요 …) make the question read as that aspect, first when it asks
whether to go on (더 발라도 돼요). Domain knowledge of how leaflets and people say it; each word is tested.

Example:
    >>> unimproved_after("파스 3일 붙였는데 여전히 아파요"), unimproved_after("일주일째 먹는데 효과가 없어요")
    (True, True)
    >>> unimproved_after("파스 3일 붙여도 돼요?"), unimproved_after("아직도 아파요")
    (False, False)
    >>> unimproved_after("하루 늦게 먹었어요 효과 그대로인가요?")
    False
"""

from __future__ import annotations

import re

SPENT = re.compile(
    r"\d+\s*(?:일|주|주일|개월|달)(?!\s*(?:전|후|뒤)(?!에?\s*부터))(?!\s*\d*\s*(?:회|번|알|정|포|병|캡슐|방울))"
    r"|하루\s*(?:째|동안|종일)|이틀|사흘|나흘|닷새|엿새|이레|열흘|일주일|보름|한\s*달|며칠|몇\s*일|몇\s*주|몇\s*달|한참|오래"
)  # 하루에 몇 번, 1일 3회: how often, not how long
NOT_BETTER = re.compile(
    r"그대로(?!인가|일까|인지|죠)|여전|안\s*나아|안\s*나았|안\s*낫|낫지\s*않|나아지지|좋아지지|안\s*좋아지|효과가?\s*(?:없|별로|안)|차도가?\s*없"
    r"|똑같|안\s*멈|멈추지\s*않|계속\s*(?:아파|아프|나와|나요|가려|가렵)"
)


# asking whether to go on (더 발라도 되나요, 계속 먹어야 하나요), not how much or how soon
GO_ON = re.compile(r"(?:더|계속|또|다시|그냥)\s*\S*?도\s*(?:돼|되|괜찮|될)|\S+야\s*(?:하나|하나요|돼|되|할까)")


def unimproved_after(question: str) -> bool:
    """The question says a time spent (`SPENT`) and that it has not got better (`NOT_BETTER`; 효과 그대로인가요 asks
    whether it still works, which is no complaint)."""
    return bool(SPENT.search(question)) and bool(NOT_BETTER.search(question))


def asks_to_go_on(question: str) -> bool:
    """The question asks whether to go on using it (`GO_ON`): then how long is what it asks first.

    >>> asks_to_go_on("일주일 발랐는데 그대로예요 더 발라도 되나요?"), asks_to_go_on("하루에 몇 번 붙여요?")
    (True, False)
    """
    return bool(GO_ON.search(question))
