#!/usr/bin/env bash
# A PDF invoice draws its labels first and its values afterwards: the text layer reads
# `购买方名称：` alone on a line, the page shows the name beside it. check measures where the
# characters are drawn (PDFium) before calling a label empty; a blank PDF form stays found.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

.venv/bin/python - "$tmp" <<'PY'
import sys
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
labels = ["购买方名称：", "纳税人识别号：", "地址、电话："]
values = ["华创科技有限公司", "91310000MA1FL1234X", "上海市浦东新区张江路1号"]
for name, drawn in (("invoice", values), ("blank-form", [])):
    c = canvas.Canvas(f"{sys.argv[1]}/{name}.pdf", pagesize=A4)
    c.setFont("STSong-Light", 11)
    for i, label in enumerate(labels):
        c.drawString(40, 700 - 20 * i, label)
    for i, value in enumerate(drawn):
        c.drawString(130, 700 - 20 * i, value)
    c.save()
PY

echo "== the invoice's text layer: every label alone at the end of a line"
.venv/bin/python -c "import sys; from pypdf import PdfReader; print(PdfReader(sys.argv[1]).pages[0].extract_text())" "$tmp/invoice.pdf"

echo "== \$ genlint check invoice.pdf --select placeholder   (the values stand beside the labels: exit 0)"
.venv/bin/genlint check "$tmp/invoice.pdf" --select placeholder --no-color

echo "== \$ genlint check blank-form.pdf --select placeholder   (nothing beside the labels: exit 1)"
code=0
.venv/bin/genlint check "$tmp/blank-form.pdf" --select placeholder --no-color || code=$?
test "$code" -eq 1
