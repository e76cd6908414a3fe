"""Source lists and marked-up chapters of any size, for the cite scale test and benchmark.

The mix is what research agents hand to ``genlint cite``: mostly web pages (some URLs with
tracking parameters or fragments, a snippet of content), journal articles with authors,
volume, pages and often a DOI, reports and books, and Chinese sources. Names, journals and
publishers come from pools, as in real lists where the same ones recur.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

_GIVEN = [
    "John", "Ann B.", "Maria", "Wei", "Kenji", "Fatima", "Pierre", "Olga", "Carlos", "Priya",
    "Jean-Paul", "Hans", "Ingrid", "Ahmed", "Sofia", "Liam", "Chloé", "Tomás", "Yuki", "Noah",
]  # fmt: skip
_FAMILY = [
    "Smith", "Brown", "García", "Chen", "Tanaka", "Haddad", "Dubois", "Ivanova", "Silva",
    "Patel", "de la Fontaine", "Müller", "Larsen", "Hassan", "Rossi", "O'Brien", "Martin",
    "Nguyen", "Kowalski", "Okafor", "van Dijk", "Johansson", "Costa", "Kim", "Novak",
]  # fmt: skip
_CJK_NAMES = ["李世民", "王小明", "张三", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴芳"]
_ORGS = ["International Energy Agency", "World Bank", "国家统计局", "OECD", "UNESCO"]
_TOPICS = [
    "Hydropower", "Grid storage", "Carbon pricing", "Solar yield", "Dam safety",
    "Flood control", "River ecology", "Turbine design", "Energy policy", "Sediment transport",
]  # fmt: skip
_DOMAINS = [
    f"{w}.example.{tld}"
    for w in ("news", "energy", "data", "blog", "wiki")
    for tld in ("com", "org", "cn")
]
_JOURNALS = [f"Journal of {t}" for t in _TOPICS] + [
    "Nature Energy",
    "水力发电学报",
    "Energy Policy",
]
_PUBLISHERS = ["IEA", "科学出版社", "Springer", "Elsevier", "MIT Press", "World Bank Group"]
_SENTENCES = [
    "三峡水电站装机容量为 2250 万千瓦，年发电量约 1000 亿千瓦时",
    "The dam is 181 m high and 2,335 m long, e.g. larger than Itaipu",
    "模型约 1.8T 参数，推理成本随上下文长度线性增长",
    "Storage costs fell by half between 2015 and 2023",
]


def make_sources(n: int, seed: int = 1) -> list[dict[str, Any]]:
    """``n`` sources with ids 1…n, every title distinct (none merges with another)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(1, n + 1):
        topic = rng.choice(_TOPICS)
        roll = rng.random()
        source: dict[str, Any] = {"id": i}
        if roll < 0.55:
            url = f"https://{rng.choice(_DOMAINS)}/{topic.lower().replace(' ', '-')}/{i}"
            if i % 5 == 0:
                url += f"?utm_source=agent&page={i % 7}"
            elif i % 11 == 0:
                url += "#summary"
            source |= {"title": f"{topic}: report {i}", "url": url, "source_type": "webpage"}
            source["content"] = f"{topic} figures for {2000 + i % 24}, as published."
            if i % 2:
                source["year"] = str(2000 + i % 25)
            if i % 3 == 0:
                source["accessed"] = f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}"
        elif roll < 0.85:
            authors = [
                f"{rng.choice(_GIVEN)} {rng.choice(_FAMILY)}"
                for _ in range(rng.choice((1, 2, 3, 4, 8)))
            ]
            source |= {
                "title": f"{topic} and the environment, study {i}",
                "authors": authors,
                "source_type": "journal",
                "container": rng.choice(_JOURNALS),
                "volume": str(1 + i % 40),
                "issue": str(1 + i % 12),
                "pages": f"{i % 900 + 1}-{i % 900 + 20}",
                "year": 1990 + i % 35,
            }
            if i % 2:
                source["doi"] = f"https://doi.org/10.{1000 + i % 9000}/gl.{i}"
        elif roll < 0.95:
            source |= {
                "title": f"{topic} outlook {i}",
                "authors": [rng.choice(_ORGS)],
                "source_type": rng.choice(("report", "book")),
                "publisher": rng.choice(_PUBLISHERS),
                "year": 2000 + i % 25,
            }
            if i % 2:
                source["place"] = rng.choice(("Paris", "北京", "New York"))
            if i % 5 == 0:
                source["edition"] = str(1 + i % 4)
        else:
            source |= {
                "title": f"水电站建设研究（第{i}号）",
                "authors": rng.sample(_CJK_NAMES, 2),
                "source_type": "journal",
                "container": "水力发电学报",
                "volume": str(i % 30 + 1),
                "pages": "1-20",
                "year": 2000 + i % 25,
            }
        out.append(source)
    return out


def make_text(markers: int, n_sources: int, seed: int = 2) -> str:
    """A chapter with ``markers`` markers naming 0-3 random ids of 1…n_sources each (as
    benchmarks/bench_cite.py's chapter: a quarter are empty); every fifth marker stands alone
    on its line before a paragraph, the others close a sentence."""
    rng = random.Random(seed)
    parts: list[str] = []
    for i in range(markers):
        ids = ", ".join(str(rng.randint(1, n_sources)) for _ in range(rng.randint(0, 3)))
        marker = f"<sources>[{ids}]</sources>"
        sentence = rng.choice(_SENTENCES)
        parts.append(f"\n\n{marker}\n{sentence}。" if i % 5 == 0 else f"{sentence}{marker}。")
    return "".join(parts)


def former_bibliography(entries: Sequence[tuple[Any, Any]], style: str = "numeric") -> str:
    """The reference list as it was rendered before: one citeproc-py bibliography for the
    whole list (a list, in which citeproc-py registers each entry), then the same repairs."""
    from genlint.cite import bibliography as bib
    from genlint.cite.csl import to_csl

    if not entries:
        return ""
    spec = bib.STYLES[bib.style_name(style)]
    keys = [f"s{i}" for i in range(len(entries))]
    items = [to_csl(src, k, spec.page_format) for k, (_, src) in zip(keys, entries, strict=True)]
    rendered = bib._citeproc(items, spec)
    lines = []
    for key, (label, src) in zip(keys, entries, strict=True):
        text = bib._drop_repeated_title(bib._clean(rendered[key]), src.title).rstrip()
        text = bib._CJK_AND.sub(", ", text)
        if spec.name == "gb7714":
            text = bib._ensure_gb_mark(text, src)
        else:
            text = bib._QUOTE_PUNCT.sub(r"\1”", text)
        lines.append(f"[{label}] {text}")
    return "\n".join(lines)
