"""Korean tokens for BM25: Kiwi morphemes, a POS filter, and a user dictionary so names stay whole.

Kiwi splits 두통 into 두/통 and 게보린정 stays one unknown token unless taught; `KiwiTokenizer` adds the
corpus's product and ingredient names (from `NameIndex.user_words`) and the symptom words of the
expansion rules, so 게보린, 아세트아미노펜 and 두통 are single tokens in documents and queries alike.

Example:
    >>> tok = KiwiTokenizer(user_words=["게보린", "두통"])
    >>> tok("게보린정 먹고 두통이 나아졌어요")
    ['게보린', '정', '먹', '두통', '낫']
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from retrievers.memo import remembered
from retrievers.name_words import MEDICINE_NOUNS

MEMO = 512  # texts whose Kiwi analysis is kept: one question is read by the BM25 query, the reading and the name check

# Nouns, roots, foreign words, numbers, and verb/adjective stems ("졸리", "쓰리") carry the meaning.
KEEP_TAGS = frozenset({"NNG", "NNP", "NNB", "NR", "XR", "SL", "SH", "SN", "VV", "VA", "VV-R", "VA-R", "VV-I", "VA-I"})
NOUN_TAGS = ("NNG", "NNP")
UNKNOWN_NOUN_IDS = frozenset({2, 3})  # Kiwi's placeholder morphemes for a common / proper noun it does not know
KEPT_ADVERBS = frozenset({"안", "못", "잘", "덜", "더", "같이", "함께", "따로", "바로", "먼저", "미리", "다시", "또"})
PREDICATE_TAGS = ("VV", "VA")  # verb and adjective stems, regular or not (VV-I, VA-R)
# how a medicine is taken or applied, and the dosage forms, after a name (리리카 먹고, 리리카 캡슐)
TAKING_VERBS = ("먹", "복용", "바르", "붙이", "넣", "뿌리", "투여")
# how a prescribed medicine is had: received from the clinic (타미플루 받아서, 리리카 처방받았는데)
PRESCRIBED_WORDS = frozenset({"받", "처방"})
DOSAGE_NOUNS = frozenset({"캡슐", "시럽", "연고", "크림", "정", "알", "패치", "겔", "스프레이", "주사"})
SUPPLEMENT_WORDS = ("영양제", "보충제", "약", "드시", "드셔")  # 테아닌 영양제, 렉사프로 약
BROKEN_TAGS = frozenset({"NR", "VCN"})  # a numeral or 아니 inside a written noun: Kiwi cut a name it does not know
STOP_FORMS = frozenset({"것", "수", "등", "때", "이", "하", "있", "되", "않", "없", "약", "경우", "및"})


class KiwiTokenizer:
    """Callable: text -> list of morpheme forms kept by the POS filter."""

    def __init__(self, user_words: Iterable[str] = (), num_workers: int = 0):
        from kiwipiepy import Kiwi

        self.user_words = sorted(set(user_words))
        self.num_workers = num_workers
        self._kiwi = Kiwi(num_workers=num_workers)
        for word in self.user_words:
            self._kiwi.add_user_word(word, "NNP", 0.0)
        self._taught = frozenset(self.user_words)
        self._analyses: dict[str, tuple] = {}  # see _analysed; a plain dict, so no cycle keeps Kiwi's model alive

    def _analysed(self, text: str) -> tuple:
        """Kiwi's tokens of `text`, remembered for the last `MEMO` texts (held in a local: another thread may clear
        the memo in between)."""
        return remembered(self._analyses, text, lambda: tuple(self._kiwi.tokenize(text)), MEMO)

    def forget(self) -> None:
        """Drop the remembered analyses."""
        self._analyses.clear()

    @property
    def fingerprint(self) -> str:
        """Changes whenever the user dictionary does; a BM25 index built with another one must be rebuilt."""
        return hashlib.md5("\n".join(self.user_words).encode("utf-8")).hexdigest()[:12]

    @staticmethod
    def _keep(tokens) -> list[str]:
        out = []
        for t in tokens:
            if t.tag in KEEP_TAGS and t.form not in STOP_FORMS:
                out.append(t.form.lower())
        return out

    def __call__(self, text: str) -> list[str]:
        return self._keep(self._analysed(text))

    def tagged(self, text: str) -> list:
        """Kiwi's tokens of `text` (``form``, ``tag``, ``oov`` …), none filtered out."""
        return list(self._analysed(text))

    def unknown_words(self, text: str) -> list[str]:
        """Words of `text` Kiwi's dictionary (and the user dictionary) does not know, and words in Latin letters:
        where an unrecognised or misspelt drug name ends up (락툴로오스, 부루팬, lexapro; not 서울 or 여행). A noun
        Kiwi reads with a verb- or adjective-making suffix right after it (응가할때마다: 응가 + 하) is something done,
        no medicine's name.

        >>> KiwiTokenizer().unknown_words("애기가 응가할때마다 울어요 락툴로오스 먹여도")
        ['락툴로오스']

        So is one that is the object of 하다 (응가를 해버렸는데: done, as 응가하다 says it):

        >>> KiwiTokenizer().unknown_words("좌약 넣자마자 애기가 응가를 해버렸는데 락툴로오스")
        ['락툴로오스']
        """
        tokens = self._analysed(text)
        return [
            t.form.lower()
            for i, (t, after) in enumerate(zip(tokens, [*tokens[1:], None], strict=True))
            if t.tag == "SL"
            or (
                t.tag in ("NNG", "NNP")
                and t.id in UNKNOWN_NOUN_IDS
                and not self._predicate(t.form)
                and not (after is not None and after.tag in ("XSV", "XSA") and after.start == t.start + t.len)
                and not _done(tokens, i)
            )
        ] + _split_names(text, tokens)

    def common_noun(self, word: str) -> bool:
        """Whether Kiwi's own dictionary reads `word` whole as one common noun (아이디어, 프리미엄), not a word it does
        not know (마데카졸) nor a name taught to it.

        >>> tokenizer = KiwiTokenizer()
        >>> tokenizer.common_noun("아이디어"), tokenizer.common_noun("마데카졸"), tokenizer.common_noun("비타민디")
        (True, False, False)
        """
        tokens = self._analysed(word)
        return (
            len(tokens) == 1
            and tokens[0].tag == "NNG"
            and tokens[0].id not in UNKNOWN_NOUN_IDS
            and tokens[0].form == word
            and word not in self._taught
        )

    def unknown_noun(self, word: str) -> bool:
        """Whether Kiwi reads `word` whole as one noun its dictionary does not know (탄툼; not 하루, 파스 nor 아파).

        >>> tok = KiwiTokenizer()
        >>> tok.unknown_noun("탄툼"), tok.unknown_noun("하루"), tok.unknown_noun("아파")
        (True, False, False)

        A two-syllable word Kiwi can only cut into two one-syllable nouns, one of them a proper noun (벤작 → 벤 + 작),
        is no word it knows either:

        >>> tok.unknown_noun("벤작"), tok.unknown_noun("눈약")  # 눈 + 약: two common nouns
        (True, False)
        """
        tokens = self._analysed(word)
        if len(word) == 2 and len(tokens) == 2 and all(t.tag in ("NNG", "NNP") and t.len == 1 for t in tokens):
            return any(t.tag == "NNP" for t in tokens)
        return len(tokens) == 1 and tokens[0].tag in ("NNG", "NNP") and tokens[0].id in UNKNOWN_NOUN_IDS

    def _predicate(self, word: str) -> bool:
        """Whether `word`, read alone, is a verb or adjective with its ending (after an adverb): Kiwi reads 가스 차요
        as two proper nouns, but 차요 alone is 차 + 어요 (full), no medicine's name; 부루팬 and 리피토 stay nouns.

        >>> KiwiTokenizer()._predicate("차요"), KiwiTokenizer()._predicate("리피토")
        (True, False)
        >>> KiwiTokenizer()._predicate("안졸린")  # an adverb first (안, 덜): 안 졸린 비염약
        True
        >>> KiwiTokenizer()._predicate("심해서요")  # the polite 요 after an ending: 멀미 심해서요 키미테
        True
        """
        tokens = self._analysed(word)
        if len(tokens) >= 3 and tokens[0].tag == "MAG":
            tokens = tokens[1:]
        if len(tokens) >= 3 and tokens[-1].form == "요" and tokens[-1].tag == "JX":
            tokens = tokens[:-1]
        return len(tokens) >= 2 and tokens[0].tag.startswith(PREDICATE_TAGS) and tokens[-1].tag.startswith("E")

    def taken_proper_nouns(self, text: str) -> list[str]:
        """Proper nouns Kiwi knows (a name, not in the user dictionary of the corpus's names) written as what is
        taken or applied: right before a verb of taking (먹다, 복용하다, 바르다 …) or a dosage form (캡슐, 시럽 …),
        particles apart. A prescription brand Kiwi has in its dictionary (리리카) is no unknown word, yet is the
        medicine asked about; a place or a person (서울 가는데) is not written so.

        >>> tok = KiwiTokenizer()
        >>> tok.taken_proper_nouns("리리카 먹고 운전해도 되나요"), tok.taken_proper_nouns("서울 가요")
        (['리리카'], [])
        """
        tokens = self._unmarked(text)
        return [
            t.form.lower()
            for t, after in zip(tokens, tokens[1:], strict=False)
            if t.tag == "NNP" and t.form not in self._taught and _taking(after)
        ]

    def _unmarked(self, text: str) -> list:
        """`text`'s tokens without subject, object or topic particles, which may come between what is taken and the
        verb of taking (리리카를 먹고); 부산에서 먹고 keeps its 에서: a place."""
        return [t for t in self._analysed(text) if t.tag not in ("JKS", "JKO", "JX")]

    def broken_names(self, text: str) -> list[str]:
        """Words of three syllables or more written right before what is taken (먹다, 복용, 영양제, 약 …) that Kiwi
        reads as a noun cut by a numeral or a negative copula (렉사프로 → 렉 + 사 + 프로, 테아닌 → 테 + 아니 + ㄴ):
        a foreign brand or supplement it does not know, which no such split makes a word of its own. A word it reads
        as a verb or adjective (머리아픈 약) or as nouns alone (아침밥 먹고) is none.

        >>> tok = KiwiTokenizer()
        >>> tok.broken_names("렉사프로 먹은지 3일"), tok.broken_names("테아닌 영양제 먹으면")
        (['렉사프로'], ['테아닌'])
        >>> tok.broken_names("아침밥 먹고"), tok.broken_names("머리아픈 약")
        ([], [])
        """
        words = [re.sub(r"[^가-힣]+$", "", w) for w in text.split()]
        out = []
        for word, after in zip(words, words[1:], strict=False):
            if len(word) < 3 or not re.fullmatch(r"[가-힣]+", word):
                continue
            if not (after.startswith(TAKING_VERBS) or after.startswith(SUPPLEMENT_WORDS)):
                continue
            tokens = self._analysed(word)
            if tokens and tokens[0].tag in NOUN_TAGS and any(t.tag in BROKEN_TAGS for t in tokens[1:]):
                out.append(word)
        return out

    def proper_compounds(self, text: str) -> list[tuple[str, list[str]]]:
        """Words Kiwi splits into two or more nouns written together, one of them a proper noun not in the user
        dictionary (the corpus's names, 은행잎, stay known): each as written, with its nouns. A brand Kiwi does not
        know as a whole ends up here (타미플루 -> 타미 + 플루), beside a place and a plan (제주도 + 여행), which
        `Searcher.query_coverage` tells apart: a brand is none of whose nouns the corpus uses.

        >>> KiwiTokenizer().proper_compounds("타미플루 먹고 있어요")
        [('타미플루', ['타미', '플루'])]
        """
        out, run = [], []
        for t in [*self._analysed(text), None]:
            if t is not None and t.tag in NOUN_TAGS and (not run or run[-1].start + run[-1].len == t.start):
                run.append(t)
                continue
            proper = [x.form.lower() for x in run if x.tag == "NNP" and x.form not in self._taught]
            if len(run) >= 2 and proper:
                parts = [x.form.lower() for x in run]
                out.append((text[run[0].start : run[-1].start + run[-1].len], parts))
            run = [t] if t is not None and t.tag in NOUN_TAGS else []
        return out

    def taken_compounds(self, text: str) -> list[tuple[str, list[str]]]:
        """`proper_compounds` written as what is taken (right before a verb of taking or a dosage form, particles
        apart, as `taken_proper_nouns`), each with its proper nouns: a brand split into a proper noun and a word the
        corpus uses (타미플루 → 타미 + 플루, whose 플루 is in 인플루엔자's leaflets) is still the medicine asked about.

        >>> tok = KiwiTokenizer()
        >>> tok.taken_compounds("독감으로 타미플루 먹는 중인데"), tok.taken_compounds("타미플루")
        ([('타미플루', ['타미'])], [])
        """
        tokens = self._unmarked(text)
        out = []
        for word, _nouns in self.proper_compounds(text):
            start = text.find(word)
            inside = [t for t in tokens if start <= t.start < start + len(word)]
            after = next((t for t in tokens if t.start >= start + len(word)), None)
            proper = [t.form.lower() for t in inside if t.tag == "NNP" and t.form not in self._taught]
            if proper and after is not None and _taking(after, prescribed=True):
                out.append((word, proper))
        return out

    def reading(self, text: str) -> tuple[str, bool]:
        """`text` as the rules are written: degree and manner adverbs cut out (머리가 너무 아파요 -> 머리가 아파요)
        and each verb or adjective with its endings in one form, stem + 어 (아플 때, 아픈데, 아팠는데 -> 아파), so a
        rule written as 목이아파 matches 목 아플때. Negations (안, 못) stay, since they turn what is said around.
        And whether the text names the medicine itself (`says_medicine`: 약 먹고 바로 누워도 돼요).

        >>> KiwiTokenizer().reading("머리가 너무 아파요")
        ('머리가  아파', False)
        >>> KiwiTokenizer().reading("목 아플때 약 써도 되나요")[0].replace(" ", "")
        '목아파때약써돼'
        """
        tokens = self._analysed(text)
        spans = []  # (start, end, replacement), in text order
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t.tag == "MAG" and t.form not in KEPT_ADVERBS:
                spans.append((t.start, t.start + t.len, ""))
            elif t.tag.startswith(PREDICATE_TAGS):
                end = i + 1
                while end < len(tokens) and tokens[end].tag.startswith("E"):
                    end += 1
                last = tokens[end - 1]
                spans.append((t.start, last.start + last.len, self._kiwi.join([(t.form, t.tag), ("어", "EC")])))
                i = end
                continue
            i += 1
        out = text
        for start, end, word in reversed(spans):
            out = out[:start] + word + out[end:]
        return out, says_medicine(tokens)

    def batch(self, texts: list[str]) -> Iterable[list[str]]:
        """Tokenise many texts (Kiwi's own batching with `num_workers` threads; one by one in single-thread mode)."""
        if self.num_workers == 0:
            yield from (self(t) for t in texts)
            return
        for tokens in self._kiwi.tokenize(texts):
            yield self._keep(tokens)


def says_medicine(tokens) -> bool:
    """Whether Kiwi `tokens` name a medicine itself: the noun 약 or another noun for one (알약, 상비약;
    `name_words.MEDICINE_NOUNS`). A 약 right after a particle inside a word is Kiwi misreading a longer word
    (청년도약계좌 → 청년/도/약/계좌), not a medicine.

    >>> from types import SimpleNamespace as T
    >>> says_medicine([T(form="알약", tag="NNG", start=0, len=2)])
    True
    >>> says_medicine([T(form="청년", tag="NNG", start=0, len=2), T(form="도", tag="JX", start=2, len=1),
    ...                T(form="약", tag="NNG", start=3, len=1)])
    False
    """
    before = None
    for t in tokens:
        glued = before is not None and before.start + before.len == t.start and before.tag.startswith("J")
        if t.tag == "NNG" and t.form in MEDICINE_NOUNS and not glued:
            return True
        before = t
    return False


def whitespace_tokens(text: str) -> list[str]:
    """The baseline tokenizer of the benchmark: lower-cased whitespace split."""
    return text.lower().split()


def _taking(token, prescribed: bool = False) -> bool:
    """`token` says what comes before it is taken or applied: a verb of taking (먹다, 바르다 …) or a dosage form
    (캡슐, 시럽 …); with `prescribed`, also a prescription received (받다, 처방), which a brand Kiwi splits is
    written before (타미플루 받아서) and a hospital too (서울대병원 처방), so only `taken_compounds` asks for it.

    >>> tok = KiwiTokenizer()
    >>> tok.taken_compounds("독감이라 타미플루 받아서 먹고 있는데"), tok.taken_proper_nouns("서울대병원 처방 받아서")
    ([('타미플루', ['타미'])], [])
    """
    verb = token.tag.startswith("VV") and token.form.startswith(TAKING_VERBS)
    received = prescribed and token.tag.startswith(("VV", "NN")) and token.form in PRESCRIBED_WORDS
    return verb or received or (token.tag in NOUN_TAGS and token.form in DOSAGE_NOUNS)


def _done(tokens, i: int) -> bool:
    """Token `i` is the object of 하다 (응가를 해버렸는데, 응가를 했어요): a thing done, no name."""
    rest = tokens[i + 1 : i + 3]
    return len(rest) == 2 and rest[0].tag == "JKO" and rest[1].tag == "VV" and rest[1].form == "하"


def _split_names(text: str, tokens) -> list[str]:
    """Words Kiwi could only read by splitting off a contracted 도를 (인사돌 → 인사 + 도 + ᆯ): a noun, 도 and ᆯ
    ending the written word, which no one writes for 인사도 무엇을; the word as written, for the unknown-name check.

    >>> tokenizer = KiwiTokenizer()
    >>> tokenizer.unknown_words("인사돌 얼마나 꾸준히 먹어야 돼요"), tokenizer.unknown_words("이것도 먹어요")
    (['인사돌'], [])
    """
    out = []
    for noun, also, contracted in zip(tokens, tokens[1:], tokens[2:], strict=False):
        end = contracted.start + contracted.len
        if (
            noun.tag in ("NNG", "NNP")
            and (also.form, also.tag, contracted.form, contracted.tag) == ("도", "JX", "ᆯ", "JKO")
            and (end >= len(text) or not text[end].isalnum())
        ):
            out.append(text[noun.start : end].lower())
    return out
