"""Make the example evidence files of `genlint check` (run: .venv/bin/python examples/check/make_examples.py).

Writes, next to this script: a clean evidence text, a Markdown draft and a JSON reply with
unfilled placeholders, a GBK-encoded text, a DOCX contract (paragraphs, table, header, footer)
and a two-page PDF with Chinese text (reportlab's built-in STSong-Light CID font, no font file).
In ``documents/``: a DOCX draft that still carries tracked changes, a review comment and an
underlined blank, and a scanned evidence page (an image-only PDF, rendered with the Noto
CJK font from Debian's fonts-noto-cjk) that only OCR can read.
The personal data in them is made up but shaped like the real thing (valid check digits).
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent

CLEAN = """证据一：借款合同履行情况说明

华夏金融租赁有限公司（出租人）与北京远航物流有限公司（承租人）于2025年3月15日签订《融资租赁合同》，
约定租赁物为冷藏运输车十辆，租金总额人民币3,600,000元，分36期支付。
截至2026年1月31日，承租人已支付租金24期，合计人民币2,400,000元，剩余12期未付。
上述事实有银行回单（尾号5678）及双方往来函件为证。联系电话已脱敏：138****5678。
"""

DRAFT_MD = """# 证据二：催款函（草稿）

致 某某公司：

根据双方于X年X月X日签订的合同第X条，贵司应于收到本函后【】日内支付欠款XX元。

- 联系人：张某
- 开户行：银行支行【】 账号：________
- 经办律师：{{lawyer_name}}

如有疑问，请致电 13912345678 或发送邮件至 zhangsan.law@163.com。

```python
# 模板代码中的 {name} 是代码，不报告
print(f"{name}")
```
"""

REPLY_JSON = {
    "title": "证据三：当事人信息",
    "parties": [
        {"role": "原告", "name": "李某某", "id_number": "11010519491231002X"},
        {"role": "被告", "name": "北京远航物流有限公司", "phone": "+86 139-1234-5678"},
    ],
    "summary": "被告于某年某月某日起拖欠租金。",
}

GBK_TEXT = "证据四：情况说明（GBK 编码）\n出具单位：○○公司\n日期：    年  月  日\n"

DOCX_BODY = [
    "证据五：还款协议",
    "甲方：华夏金融租赁有限公司",
    "乙方：XXX有限公司",
    "乙方应于2026年3月1日前将款项汇入甲方账户，卡号6222021234567890128。",
]
DOCX_TABLE = [["联系人", "电话", "邮箱"], ["王某", "13812345678", "wang@example.com"]]
DOCX_HEADER = "华夏金融租赁有限公司 · 还款协议"
DOCX_FOOTER = "签署日期：    年  月  日"

PDF_PAGES = [
    ["证据六：判决书摘录（第1页）", "【判决结果】", "驳回上诉，维持原判。"],
    ["第2页", "本案诉讼费由某某公司负担。", "被告人身份证号：110101199003074573"],
]


def make_docx(path: Path) -> None:
    import docx

    document = docx.Document()
    for text in DOCX_BODY:
        document.add_paragraph(text)
    table = document.add_table(rows=len(DOCX_TABLE), cols=len(DOCX_TABLE[0]))
    for r, row in enumerate(DOCX_TABLE):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    section = document.sections[0]
    section.header.paragraphs[0].text = DOCX_HEADER
    section.footer.paragraphs[0].text = DOCX_FOOTER
    # a fixed core-properties date keeps the file byte-stable between runs
    import datetime

    stamp = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    document.core_properties.created = stamp
    document.core_properties.modified = stamp
    document.save(str(path))


def make_pdf(path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    for lines in PDF_PAGES:
        c.setFont("STSong-Light", 12)
        y = 800
        for line in lines:
            c.drawString(60, y, line)
            y -= 22
        c.showPage()
    c.save()


def make_revised_docx(path: Path) -> None:
    """A contract draft as reviewers leave it: tracked changes, a comment and an underlined
    blank, written through python-docx plus the WordprocessingML Word writes."""
    import datetime

    import docx
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    mark = 'w:author="审核人" w:date="2026-01-05T10:00:00Z"'

    def inline(paragraph: object, xml: str) -> None:
        for element in list(parse_xml(f"<w:x {w}>{xml}</w:x>")):
            paragraph._p.append(element)  # type: ignore[attr-defined]

    def run(text: str, underline: bool = False) -> str:
        props = '<w:rPr><w:u w:val="single"/></w:rPr>' if underline else ""
        return f'<w:r>{props}<w:t xml:space="preserve">{text}</w:t></w:r>'

    document = docx.Document()
    document.add_heading("设备采购合同（修订稿）", level=1)
    p = document.add_paragraph()
    inline(p, run("合同总价为人民币") + run("        ", underline=True) + run("元（含税）。"))
    p = document.add_paragraph()
    inline(
        p,
        run("交货地点：")
        + f'<w:del w:id="1" {mark}><w:r><w:delText>上海市浦东新区</w:delText></w:r></w:del>'
        + f'<w:ins w:id="2" {mark}>{run("某市某区")}</w:ins>'
        + run("，由乙方负责运输。"),
    )
    commented = document.add_paragraph("质保期为验收合格之日起十二个月。")
    document.add_comment(commented.runs, text="质保期待与张经理（13912345678）确认", author="审核人")
    table = document.add_table(rows=2, cols=2)
    for c, value in enumerate(("甲方", "乙方")):
        table.cell(0, c).text = value
    table.cell(1, 0).text = "华夏金融租赁有限公司"
    table.cell(1, 1).text = "XXX有限公司"
    stamp = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    document.core_properties.created = stamp
    document.core_properties.modified = stamp
    document.save(str(path))


SCAN_LINES = [
    "证据七：收款确认书（扫描件）",
    "今收到某某公司支付的货款人民币伍万元整。",
    "收款人身份证号：110101199003074573",
    "收款日期：2026年1月8日",
]


def make_scanned_pdf(path: Path) -> None:
    """A scanned page: an image of the text and no text layer, as a scanner writes it."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 26, index=2)
    image = Image.new("L", (1000, 80 + 60 * len(SCAN_LINES)), 255)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(SCAN_LINES):
        draw.text((50, 40 + 60 * i), line, font=font, fill=0)
    image.save(path, resolution=72)


def main() -> None:
    (HERE / "evidence").mkdir(exist_ok=True)
    (HERE / "evidence" / "01-clean.txt").write_text(CLEAN, "utf-8")
    (HERE / "evidence" / "02-draft.md").write_text(DRAFT_MD, "utf-8")
    (HERE / "evidence" / "03-reply.json").write_text(
        json.dumps(REPLY_JSON, ensure_ascii=False, indent=2) + "\n", "utf-8"
    )
    (HERE / "evidence" / "04-gbk.txt").write_bytes(GBK_TEXT.encode("gbk"))
    make_docx(HERE / "evidence" / "05-agreement.docx")
    make_pdf(HERE / "evidence" / "06-judgment.pdf")


def make_documents() -> None:
    (HERE / "documents").mkdir(exist_ok=True)
    make_revised_docx(HERE / "documents" / "07-draft-with-revisions.docx")
    make_scanned_pdf(HERE / "documents" / "08-scanned-receipt.pdf")


if __name__ == "__main__":
    import sys

    # `make_examples.py documents` writes only the documents/ folder
    if sys.argv[1:] != ["documents"]:
        main()
    make_documents()
