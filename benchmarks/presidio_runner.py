"""Presidio's analyzer + anonymizer on a text file, offline (run by bench_mask.py with the
Python named in PRESIDIO_PYTHON, a separate environment holding presidio-analyzer,
presidio-anonymizer and spaCy). Prints one JSON line: seconds, entities found per type."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter


def main(path: str) -> None:
    import spacy
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import SpacyNlpEngine
    from presidio_anonymizer import AnonymizerEngine

    class BlankZh(SpacyNlpEngine):
        """No model download: a blank Chinese pipeline (tokens only, no NER)."""

        def __init__(self) -> None:
            super().__init__(models=[{"lang_code": "zh", "model_name": "blank"}])

        def load(self) -> None:
            self.nlp = {"zh": spacy.blank("zh")}

    engine = BlankZh()
    engine.load()
    registry = RecognizerRegistry(supported_languages=["zh"])
    registry.load_predefined_recognizers(languages=["zh"], nlp_engine=engine)
    # the pattern recognizers are registered for English: register them for Chinese too
    from presidio_analyzer.predefined_recognizers import (
        CreditCardRecognizer,
        EmailRecognizer,
        PhoneRecognizer,
    )

    for cls in (CreditCardRecognizer, EmailRecognizer):
        registry.add_recognizer(cls(supported_language="zh"))
    registry.add_recognizer(PhoneRecognizer(supported_language="zh", supported_regions=("CN",)))
    analyzer = AnalyzerEngine(registry=registry, nlp_engine=engine, supported_languages=["zh"])
    anonymizer = AnonymizerEngine()
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    analyzer.analyze("warm-up a@b.com", language="zh")  # tldextract's one (failing) fetch
    t = time.perf_counter()
    results = analyzer.analyze(text, language="zh")
    anonymizer.anonymize(text, results)
    seconds = time.perf_counter() - t
    print(json.dumps({"seconds": seconds, "found": dict(Counter(r.entity_type for r in results))}))


if __name__ == "__main__":
    main(sys.argv[1])
