#!/usr/bin/env bash
# genlint on scans: OCR (OpenVINO on x86-64, named in the note), then mask covering the values
# in the pixels, and the masked copy read again by OCR.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint check / mask on scans (the ocr extra)"
if ! .venv/bin/python -c "from genlint.readers import ocr; raise SystemExit(not ocr.available())"; then
  echo "(skipped: pip install 'genlint[ocr]')"
  exit 0
fi
work=$(mktemp -d)
echo "\$ genlint check examples/scans/receipt.png examples/scans/receipt-scan.pdf --select sensitive"
.venv/bin/genlint check examples/scans/receipt.png examples/scans/receipt-scan.pdf --select sensitive --no-color 2>&1
echo "(exit code $?)"
echo "\$ genlint mask examples/scans/receipt.png examples/scans/receipt-scan.pdf --out $work/masked --style token --vault $work/vault.json"
.venv/bin/genlint mask examples/scans/receipt.png examples/scans/receipt-scan.pdf --out "$work/masked" --style token --vault "$work/vault.json" 2>&1
echo "\$ genlint check $work/masked --select sensitive"
.venv/bin/genlint check "$work/masked" --select sensitive --no-color 2>&1
echo "(exit code $?: nothing readable by OCR is left)"
rm -rf "$work"
