"""Chinese clauses from public model contracts, for bench_match_accuracy.py.

The contracts are not in this repository (they are third-party text): tests/data/
match_zh_public.json names each one (repository, commit, path) and each clause by its article
heading in that file and a SHA-256 of its text, with the criteria that apply, labelled by
reading; match_zh_public_dev.json does the same for two other contracts of the same library,
labelled later, on which changes may be chosen (the first set is never chosen on). This module turns the files into the clauses again when they are on this machine, in
``GENLINT_MATCH_PUBLIC`` (default /tmp/match/public), at the repository path the manifest gives.

To put them there from a clone or snapshot of the repository:

    python benchmarks/bench_match_public.py --extract PATH/TO/REPO.git

Run on its own it prints the clauses with their labels, for reading them again.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
MANIFEST = DATA / "match_zh_public.json"  # never chosen on
CHOOSING = DATA / "match_zh_public_dev.json"  # other contracts, for choosing changes
CORPUS = Path(os.environ.get("GENLINT_MATCH_PUBLIC", "/tmp/match/public"))

_ARTICLE = re.compile(r"^\s*(第[一二三四五六七八九十百零〇两\d]+条)")
# A chapter heading ("九、劳动争议处理", "第四章 双方权利义务") that the page runs onto the end of
# the article before it.
_TRAILING_HEADING = re.compile(
    r"(?:[一二三四五六七八九十]+、|第[一二三四五六七八九十\d]+章\s*)[^。；，：\s]{2,14}$"
)


@dataclass(frozen=True)
class PublicClause:
    clause_id: str
    document: str
    text: str
    applicable: list[str]


def page_text(raw: bytes, encoding: str) -> str:
    """The visible text of one of the pages, a line per paragraph."""
    s = raw.decode(encoding, errors="replace")
    s = re.sub(r"<\?.*?\?>", "", s, flags=re.S)
    s = re.sub(r"<(script|style)\b.*?</\1>", "", s, flags=re.S | re.I)
    s = re.sub(r"<br\s*/?>|</p>|</div>|</tr>|<p\b[^>]*>", "\n", s, flags=re.I)
    s = re.sub(r"<[^>]+>", "", s)
    s = html.unescape(s).replace("\u3000", " ").replace("\xa0", " ")
    lines = (re.sub(r"\s+", " ", line).strip() for line in s.split("\n"))
    return "\n".join(line for line in lines if line)


def articles(text: str) -> list[tuple[str, str]]:
    """(heading, text) of each article (第…条 to the next one), in order."""
    out: list[tuple[str, str]] = []
    for line in text.split("\n"):
        m = _ARTICLE.match(line)
        if m:
            out.append((m.group(1), line))
        elif out:
            out[-1] = (out[-1][0], out[-1][1] + line)
    return [(h, _TRAILING_HEADING.sub("", t).strip()) for h, t in out]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load(
    corpus: Path = CORPUS, manifest_path: Path | None = None
) -> tuple[list[PublicClause] | None, str]:
    """The labelled clauses, or None and why not (files absent, or not the labelled text)."""
    manifest = json.loads((manifest_path or MANIFEST).read_text("utf-8"))
    documents = {d["path"]: d for d in manifest["documents"]}
    found: dict[str, list[tuple[str, str]]] = {}
    for path, doc in documents.items():
        file = corpus / path
        if not file.is_file():
            return (
                None,
                f"{file} is not there ({len(documents)} files from {manifest['repository']})",
            )
        found[path] = articles(page_text(file.read_bytes(), doc["encoding"]))
    clauses = []
    for c in manifest["clauses"]:
        same = [t for h, t in found[c["path"]] if h == c["article"]]
        if len(same) < c["occurrence"]:
            return None, f"{c['path']} has no {c['article']} #{c['occurrence']}"
        text = same[c["occurrence"] - 1]
        if digest(text) != c["sha256"]:
            return None, f"{c['path']} {c['article']} is not the text that was labelled"
        clauses.append(
            PublicClause(c["clause_id"], documents[c["path"]]["document"], text, c["applicable"])
        )
    return clauses, f"{len(clauses)} clauses of {len(documents)} contracts"


def extract(git_dir: str) -> None:
    """Copy the manifests' files out of a clone at their commit into the corpus folder."""
    for path in (MANIFEST, CHOOSING):
        _extract(git_dir, json.loads(path.read_text("utf-8")))


def _extract(git_dir: str, manifest: dict[str, Any]) -> None:
    for doc in manifest["documents"]:
        raw = subprocess.run(
            ["git", f"--git-dir={git_dir}", "show", f"{manifest['commit']}:{doc['path']}"],
            capture_output=True,
            check=True,
        ).stdout
        target = CORPUS / doc["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(raw)
    print(f"{len(manifest['documents'])} files written under {CORPUS}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extract", metavar="GIT_DIR", help="copy the files from this clone")
    args = parser.parse_args()
    if args.extract:
        extract(args.extract)
        return 0
    for path in (CHOOSING, MANIFEST):
        clauses, why = load(manifest_path=path)
        if clauses is None:
            print(f"{path.name} not available: {why}", file=sys.stderr)
            return 1
        for c in clauses:
            print(f"{c.clause_id} [{', '.join(c.applicable) or 'nothing applies'}] {c.text[:120]}")
        print(f"{path.name}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
