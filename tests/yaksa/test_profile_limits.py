"""Every user-profile item is bounded, with the limit in the error, the same way on `yaksa ask --user` and
`POST /v1/ask`: an over-long medicine or condition never reaches an LM prompt."""

import json

import pytest
from fastapi.testclient import TestClient

from programs.profile import MAX_ITEM_CHARS, MAX_ITEMS, MAX_SEX_CHARS, ProfileError, UserProfile
from yaksa import cli
from yaksa.testing.scripted_lm import ScriptedLM
from yaksa.testing.serve_app import make_app

HUGE = "x" * 20_000
LONGEST_PRODUCT = (  # the corpus's longest product name: a user may paste it
    "케논에스플라스타(케토프로펜) 수출명: 케논에스플라스타(Kenon-S Plaster), 케토플라스트패취(Ketoplast Patch), "
    "케토밴드(Ketoband), 케토티디디에스 플라스타( Keto-TDDS Plaster), 케토덤플라스타(Ketoderm Plaster)"
)
TOO_MUCH = [
    ({"medicines": [HUGE]}, f"medicines item 1 has 20000 characters; at most {MAX_ITEM_CHARS}"),
    ({"conditions": ["고혈압", "y" * 201]}, f"conditions item 2 has 201 characters; at most {MAX_ITEM_CHARS}"),
    ({"medicines": ["타이레놀"] * (MAX_ITEMS + 1)}, f"medicines has 11 items; at most {MAX_ITEMS}"),
    ({"sex": "여" * 11}, f"sex has 11 characters; at most {MAX_SEX_CHARS}"),
]


pytestmark = pytest.mark.usefixtures("ask_on_mini_index")


COMMA_LIST = ({"conditions": ",".join(["당뇨"] * 12)}, f"conditions has 12 items; at most {MAX_ITEMS}")


@pytest.mark.parametrize("data, message", [*TOO_MUCH, COMMA_LIST])
def test_the_profile_names_the_limit(data, message):
    with pytest.raises(ProfileError) as e:
        UserProfile.from_dict(data)
    assert str(e.value) == message


def test_items_at_the_limit_are_kept():
    p = UserProfile.from_dict({"medicines": [LONGEST_PRODUCT] + ["m"] * (MAX_ITEMS - 1), "sex": "여"})
    assert len(LONGEST_PRODUCT) <= MAX_ITEM_CHARS
    assert p.medicines[0] == LONGEST_PRODUCT
    assert len(p.medicines) == MAX_ITEMS


@pytest.mark.parametrize("data, message", TOO_MUCH)
def test_cli_and_api_refuse_it_with_the_same_message(data, message, capsys):
    assert cli.main(["ask", "게보린 부작용", "--user", json.dumps(data, ensure_ascii=False)]) == 2
    err = capsys.readouterr().err
    assert err == f"yaksa: error: --user: {message}\n"
    lm = ScriptedLM()
    r = TestClient(make_app(lms=lm.roles())).post("/v1/ask", json={"question": "게보린 부작용", "user": data})
    assert r.status_code == 422
    assert r.json() == {"error": "bad_user_profile", "message": message}
    assert lm.calls == []  # nothing reached a prompt


def test_the_openapi_schema_states_the_limits():
    schema = TestClient(make_app()).get("/openapi.json").json()["components"]["schemas"]["UserIn"]["properties"]
    for name in ("conditions", "medicines"):
        assert schema[name]["maxItems"] == MAX_ITEMS
        assert schema[name]["items"]["maxLength"] == MAX_ITEM_CHARS
    assert schema["sex"]["maxLength"] == MAX_SEX_CHARS
