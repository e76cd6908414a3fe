#!/usr/bin/env bash
# Reports never copy personal data: values are shown masked (keep-ends, same length) in every
# format, SARIF fingerprints are keyed hashes, and --show-values opts in.
set -uo pipefail
cd "$(dirname "$0")/../.."
E=examples/check/evidence
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export GENLINT_FINGERPRINT_KEY=demo-key   # in CI: a repository secret
echo
echo "== the text report masks the value, in the finding and in the line shown (carets still fit) =="
.venv/bin/genlint check $E/02-draft.md --select sensitive
echo "exit code $?"
echo
echo "== SARIF for code scanning: snippet masked, fingerprint an HMAC (the raw number appears 0 times) =="
.venv/bin/genlint check $E/02-draft.md --select sensitive --format sarif > "$WORK/report.sarif"
grep -E '"text": "139|genlint/v1' "$WORK/report.sarif" | head -4
echo "occurrences of 13912345678 in the SARIF file: $(grep -c 13912345678 "$WORK/report.sarif")"
echo
echo "== --show-values: for a person fixing the file on their own machine =="
.venv/bin/genlint check $E/02-draft.md --select sensitive --format json --show-values |
  grep -o '"text":"[^"]*"'
echo
echo "== JSON keys and numbers hold personal data too; mask turns a phone number into a masked string =="
printf '{"13900000070": {"备注": "客户"}, "phone": 13912345678, "amount": 12.5}\n' > "$WORK/data.json"
.venv/bin/genlint check "$WORK/data.json" --select sensitive
mkdir "$WORK/out"
.venv/bin/genlint mask "$WORK/data.json" --out "$WORK/out" > /dev/null && cat "$WORK/out/data.json"
