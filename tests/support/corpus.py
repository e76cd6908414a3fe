"""A generated corpus of mixed documents (txt, md, json, docx, pdf) for the scale tests and
benchmarks/bench_scale.py: deterministic, a few KB each, some clean, some with placeholders
and unmasked personal data, so every engine has findings to agree on."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

CLEAN = "本合同由华夏金融租赁有限公司与北京远景科技有限公司于2026年2月1日签署，双方确认上述条款。"
DIRTY = (
    "乙方：某某公司",
    "签署日期：X年X月X日",
    "联系人电话13812345678，邮箱 zhang.san@example.com",
    "身份证号码 11010519491231002X",
    "金额：人民币XX元整",
    "授权代表：[姓名]",
    "账号：6222020200112233445",
    "TODO: fill in the governing law",
)


def _lines(rng: random.Random, n: int) -> list[str]:
    out = []
    for i in range(n):
        out.append(f"第{i + 1}条 " + (rng.choice(DIRTY) if rng.random() < 0.15 else CLEAN))
    return out


def make_corpus(
    folder: Path, count: int, *, docx: int = 10, pdf: int = 10, lines: int = 40
) -> list[Path]:
    """``count`` files in ``folder``: ``docx`` DOCX and ``pdf`` PDF files (built once each
    and copied, since building them is slow), the rest txt, md and json in turn."""
    rng = random.Random(15)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    templates = folder / ".templates"
    if docx or pdf:
        templates.mkdir(exist_ok=True)
    docx_made = [_docx(templates / f"t{i}.docx", _lines(rng, 12)) for i in range(min(docx, 3))]
    pdf_made = [_pdf(templates / f"t{i}.pdf", _lines(rng, 12)) for i in range(min(pdf, 3))]
    for i in range(count):
        if i < docx:
            path = folder / f"doc{i:05d}.docx"
            shutil.copyfile(docx_made[i % len(docx_made)], path)
        elif i < docx + pdf:
            path = folder / f"doc{i:05d}.pdf"
            shutil.copyfile(pdf_made[i % len(pdf_made)], path)
        else:
            kind = ("txt", "md", "json")[i % 3]
            path = folder / f"doc{i:05d}.{kind}"
            body = _lines(rng, lines)
            if kind == "md":
                path.write_text("# 报告\n\n" + "\n\n".join(body) + "\n", "utf-8")
            elif kind == "json":
                payload = {"title": "报告", "sections": [{"text": line} for line in body]}
                path.write_text(json.dumps(payload, ensure_ascii=False, indent=1), "utf-8")
            else:
                path.write_text("\n".join(body) + "\n", "utf-8")
        paths.append(path)
    if templates.exists():
        shutil.rmtree(templates)
    return paths


def _docx(path: Path, lines: list[str]) -> Path:
    import docx

    document = docx.Document()
    for line in lines[:-2]:
        document.add_paragraph(line)
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = lines[-2]
    table.cell(0, 1).text = lines[-1]
    document.save(str(path))
    return path


def _pdf(path: Path, lines: list[str]) -> Path:
    from support.pdf_build import make_pdf

    return make_pdf(path, [lines[: len(lines) // 2], lines[len(lines) // 2 :]])
