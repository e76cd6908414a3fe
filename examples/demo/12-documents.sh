#!/usr/bin/env bash
# genlint check reads documents the way a person sees them: a DOCX draft with tracked changes,
# a review comment and an underlined blank; a scanned page read by OCR (the ocr extra).
set -uo pipefail
cd "$(dirname "$0")/../.."
D=examples/check/documents
echo
echo "== a DOCX draft: revisions and comments left in, a blank drawn as underlined spaces =="
echo "   (locations are Word's: paragraph N, table T row R cell C, comment paragraph N)"
.venv/bin/genlint check $D/07-draft-with-revisions.docx
echo "exit code $?"
echo
echo "== a scanned receipt (no text layer): read by OCR, findings carry page, line and box =="
.venv/bin/genlint check $D/08-scanned-receipt.pdf --format json
echo "exit code $?"
