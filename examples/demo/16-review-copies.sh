#!/usr/bin/env bash
# Review where people work: findings as Word comments and PDF notes, one HTML page for a run,
# a terminal report that fits, messages in the reader's language.
set -uo pipefail
cd "$(dirname "$0")/../.."
E=examples/check/evidence
D=examples/check/documents
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo
echo "== the text report at 60 columns: a window around each span, carets under it =="
COLUMNS=60 .venv/bin/genlint check $D/07-draft-with-revisions.docx --select placeholder,document
echo "exit code $?"
echo
echo "== --annotate: review copies (inputs untouched); notes in the document's language =="
.venv/bin/genlint check $E/05-agreement.docx $E/06-judgment.pdf $E/02-draft.md \
  --annotate "$WORK/review" > /dev/null
echo "exit code $?"
ls -R "$WORK/review" | sed 's/^/   /'
echo "-- the Word comments of the DOCX copy, read back with python-docx (anchored text first):"
.venv/bin/python - "$WORK/review/05-agreement.docx" <<'PY'
import sys, docx
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
document = docx.Document(sys.argv[1])
anchored, active = {}, []
for el in document.element.body.iter():
    if el.tag == W + "commentRangeStart":
        active.append(el.get(W + "id")); anchored[el.get(W + "id")] = ""
    elif el.tag == W + "commentRangeEnd" and el.get(W + "id") in active:
        active.remove(el.get(W + "id"))
    elif el.tag == W + "t" and el.text:
        for cid in active:
            anchored[cid] += el.text
for c in document.comments:
    first = c.text.splitlines()[0]
    on = anchored.get(str(c.comment_id), "")
    if "[sensitive/" in first:  # the copy is the document; this log shows no personal value
        on = f"{len(on)} characters"
    print(f"   [{on[:20]}] {c.author}: {first}")
PY
echo "-- the PDF copy's highlights (pypdf), the page content unchanged:"
.venv/bin/python - "$E/06-judgment.pdf" "$WORK/review/06-judgment.pdf" <<'PY'
import sys
from pypdf import PdfReader
before, after = PdfReader(sys.argv[1]), PdfReader(sys.argv[2])
for i, page in enumerate(after.pages):
    for ref in page.get("/Annots", []):
        a = ref.get_object()
        if a["/Subtype"] in ("/Highlight", "/Text"):
            print(f"   page {i + 1} {a['/Subtype'][1:]}: {str(a['/Contents']).splitlines()[0]}")
same = all(a.get_contents().get_data() == b.get_contents().get_data()
           for a, b in zip(before.pages, after.pages))
print(f"   page content unchanged: {same}")
PY
echo
echo "== --format html: one self-contained page for the run (English with --lang en) =="
.venv/bin/genlint check $E --format html --lang en --out "$WORK/report.html"
echo "exit code $?"
echo "   $(wc -c < "$WORK/report.html") bytes; finding rows: $(grep -o 'class="finding"' "$WORK/report.html" | wc -l);" \
  "external references: $(grep -cE '(src|href)="https?:' "$WORK/report.html")"
