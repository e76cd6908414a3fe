"""An MkDocs hook that makes the built-in search find Chinese words (mkdocs.yml ``hooks``).

lunr, the built-in search, splits text at blanks and then trims every character that is not a
"word character": Chinese text is one long token, trimmed to nothing, so ``身份证`` found no page.
lunr-languages' ``zh`` support needs the jieba segmenter in the browser, which MkDocs does not
ship. Instead this hook segments the Chinese of every page with jieba (``rjieba``, in the
``match`` extra) while the site is built, in search mode (``身份证号码`` gives ``身份``, ``身份证``,
``号码``), and appends the words, blank-separated, to the page's entry in the search index; and
``search.lang`` includes ``ja``, whose lunr trimmer keeps CJK ideographs as word characters.
A query typed as a Chinese word then meets the same token. tests/test_docs_search.py checks it
with a query in headless Chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def search_words(text: str) -> list[str]:
    """The Chinese words of ``text`` as jieba's search mode cuts them, each once, in order."""
    import rjieba

    seen: dict[str, None] = {}
    for run in _CJK_RUN.findall(text):
        for word in rjieba.cut_for_search(run):
            if _CJK_RUN.fullmatch(word):
                seen.setdefault(word, None)
        if len(run) == 1:
            seen.setdefault(run, None)
    return list(seen)


def on_post_build(config: Any, **kwargs: Any) -> None:
    index_path = Path(config["site_dir"]) / "search" / "search_index.json"
    if not index_path.is_file():
        return
    data = json.loads(index_path.read_text(encoding="utf-8"))
    for doc in data.get("docs", []):
        words = search_words(doc.get("title", "") + "\n" + doc.get("text", ""))
        if words:
            # at the end: the result list shows the first 200 characters of the text
            doc["text"] = doc.get("text", "") + "\n" + " ".join(words)
    index_path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
