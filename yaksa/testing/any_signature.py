"""A reply function for `StubOpenAI` that answers any DSPy signature and any RAGAS JSON request, deterministically.

* CRAG's predictors get sensible Korean outputs (a cited answer with the safety line, PASS, good quality scores);
* any other DSPy ChatAdapter prompt (optimizer proposers, the turn evaluator) gets each output field filled by type;
* a prompt that asks for "one JSON object ... matching this JSON schema" (our RAGAS adapter) gets an object built
  from the schema; ``statements`` lists get one supported statement.

Example:
    with StubOpenAI([any_signature]) as server:
        yaksa compile --lm openai/stub --api-base {server.url} ...
"""

from __future__ import annotations

import json
import re

FIELD = re.compile(r"^\s*\d+\.\s*`([^`]+)`\s*\(([^)]*)\)", re.M)
ANSWER = "게보린을 먹고 속이 쓰리면 위장 장애일 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요."


def chat(**fields) -> str:
    return "".join(f"[[ ## {k} ## ]]\n{v}\n\n" for k, v in fields.items()) + "[[ ## completed ## ]]"


def output_fields(system: str) -> list[tuple[str, str]]:
    block = system.split("Your output fields are:", 1)
    if len(block) < 2:
        return []
    body = block[1].split("All interactions will be structured", 1)[0]
    return FIELD.findall(body)


def value_for(name: str, type_text: str):
    t = type_text.lower()
    if name in ("grounding", "completeness", "accuracy"):
        return 0.9
    if name == "verdict":
        return "PASS"
    if name == "failure_cause":
        return "none"
    if name == "relevant":
        return "yes"
    if name in ("answer", "corrected_answer") and "literal" not in t:
        return ANSWER
    if name == "score":
        return 70.0
    if "bool" in t:
        return "false"
    if "float" in t:
        return 0.8
    if "int" in t:
        return 1
    if "list" in t:
        return "[]"
    if "dict" in t:
        return "{}"
    if "literal" in t:
        options = re.findall(r"'([^']*)'", type_text)
        return options[0] if options else "ok"
    return "개선된 지시문: 문서만 근거로 답하고 [문서 N]을 인용하세요."


def from_schema(schema: dict, root: dict | None = None):
    root = root or schema
    if "$ref" in schema:
        return from_schema(root["$defs"][schema["$ref"].split("/")[-1]], root)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {k: from_schema(v, root) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [from_schema(schema.get("items", {"type": "string"}), root)]
    if kind == "integer":
        return 1 if "verdict" in json.dumps(root) else 0
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return False
    return "게보린은 두통에 씁니다"


def any_signature(request: dict) -> str:
    messages = request.get("messages") or []
    system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
    last = messages[-1]["content"] if messages else ""
    if isinstance(last, str) and "matching this JSON schema:" in last:
        schema = json.loads(last.rsplit("matching this JSON schema:", 1)[1].strip())
        return json.dumps(from_schema(schema), ensure_ascii=False)
    fields = output_fields(system)
    if "`rerank_query`" in system:
        return chat(core_terms='["게보린"]', recall_terms="[]", avoid_terms="[]", rerank_query="게보린 속쓰림")
    if "`grounding`" in system:
        return chat(
            grounding=0.9,
            completeness=0.8,
            accuracy=0.9,
            missing_info='["복용 간격"]',
            improvement_suggestions='["용법을 함께 안내"]',
            needs_retrieval="false",
            reason="좋음",
        )
    if fields and (request.get("response_format") or "JSON object" in system.split("Your output fields are:")[-1]):
        return json.dumps({name: value_for(name, t) for name, t in fields}, ensure_ascii=False)  # JSONAdapter
    if fields:
        return chat(**{name: value_for(name, t) for name, t in fields})
    return "```\n개선된 지시문: 문서만 근거로 답하고 [문서 N]을 인용하세요.\n```"
