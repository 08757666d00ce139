"""Signatures that turn a user's question into search queries: optimisation before the first search, rewriting after
a weak one."""

import dspy

MAX_TERMS = 6  # the most core or recall terms the query LM returns (programs.query_optimizer keeps no more)


class OptimizeQuery(dspy.Signature):
    """Turn a Korean drug question into search terms for a leaflet and DUR-rule index.

    Extract the medical core of the question. core_terms: product names, ingredients, symptoms and the kind of
    information asked (효능, 용법, 부작용, 주의사항, 상호작용, 보관, 임부금기, 노인주의 ...). recall_terms: synonyms and
    related ingredients that widen recall (두통 -> 아세트아미노펜). avoid_terms: words that would pull in unrelated
    documents. rerank_query: a short query with the non-medical words removed, in the question's language.
    """

    question: str = dspy.InputField(desc="the user's question")
    profile_summary: str = dspy.InputField(desc="the user's age, sex, conditions and medicines; empty when unknown")
    core_terms: list[str] = dspy.OutputField(desc=f"at most {MAX_TERMS} terms that must match")
    recall_terms: list[str] = dspy.OutputField(desc=f"at most {MAX_TERMS} synonyms or related ingredients")
    avoid_terms: list[str] = dspy.OutputField(desc="terms to exclude; often empty")
    rerank_query: str = dspy.OutputField(desc="the question reduced to its medical keywords")


class RewriteQuery(dspy.Signature):
    """Rewrite a drug question so that a second search finds what the first one missed.

    Principles: name the missing information explicitly in the query; reflect the user's context (profile and slots);
    prefer concrete keywords a leaflet would contain; stay short. Write only the new query, in the language of the
    original question, with no prefix such as "재작성된 질의:".
    """

    original_query: str = dspy.InputField(desc="the question as the user asked it")
    quality_feedback: str = dspy.InputField(desc="missing information and improvement suggestions from evaluation")
    previous_answer: str = dspy.InputField(desc="the start of the previous answer")
    profile_summary: str = dspy.InputField(desc="the user's profile in one line; empty when unknown")
    slots: str = dspy.InputField(desc="known slots: 나이, 성별, 질환, 약물")
    iteration: int = dspy.InputField(desc="how many times the query has been rewritten before")
    rewritten_query: str = dspy.OutputField(desc="the new search query")
