#!/usr/bin/env bash
# genlint mask: write a desensitised copy (what check finds, masked), check it again, mask with
# tokens and restore them exactly, and keep personal data out of an LLM prompt.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint mask: desensitise, not only flag"
work=$(mktemp -d)
echo "\$ genlint check examples/mask/letter.md --select sensitive"
.venv/bin/genlint check examples/mask/letter.md --select sensitive --no-color
echo "(exit code $?)"
echo "\$ genlint mask examples/mask/letter.md --out $work/masked"
.venv/bin/genlint mask examples/mask/letter.md --out "$work/masked"
echo "--- $work/masked/letter.md"
cat "$work/masked/letter.md"
echo "\$ genlint check $work/masked --select sensitive"
.venv/bin/genlint check "$work/masked" --select sensitive --no-color
echo "(exit code $?)"
echo "\$ genlint mask examples/mask/letter.md --style token --vault $work/vault.json --out $work/tokens"
.venv/bin/genlint mask examples/mask/letter.md --style token --vault "$work/vault.json" --out "$work/tokens"
sed -n 5,6p "$work/tokens/letter.md"
echo "vault mode: $(stat -c %a "$work/vault.json")"
echo "\$ genlint unmask $work/tokens/letter.md --vault $work/vault.json --out $work/back"
.venv/bin/genlint unmask "$work/tokens/letter.md" --vault "$work/vault.json" --out "$work/back"
cmp -s "$work/back/letter.md" examples/mask/letter.md && echo "restored byte for byte"
echo "\$ genlint unmask $work/tokens/letter.md --vault $work/missing.json --out $work/x"
.venv/bin/genlint unmask "$work/tokens/letter.md" --vault "$work/missing.json" --out "$work/x" 2>&1
echo "(exit code $?)"
echo
echo "-- Gate(mask_prompts=True) against a scripted OpenAI-compatible server"
.venv/bin/python examples/mask/round_trip.py
rm -rf "$work"
echo
echo "-- a PDF keeps personal data where no page shows it: metadata, XMP, annotations, links,"
echo "   form fields, bookmarks, attachments (examples/mask/contract-hidden-places.pdf, built by"
echo "   tests/support/pdf_build.py); check reads every place, mask rewrites every place"
work=$(mktemp -d)
echo "\$ genlint check examples/mask/contract-hidden-places.pdf --select sensitive"
.venv/bin/genlint check examples/mask/contract-hidden-places.pdf --select sensitive --no-color | grep -v '^    '
echo "(exit code ${PIPESTATUS[0]})"
echo "\$ genlint mask examples/mask/contract-hidden-places.pdf --out $work/masked"
.venv/bin/genlint mask examples/mask/contract-hidden-places.pdf --out "$work/masked"
echo "\$ genlint check $work/masked --select sensitive"
.venv/bin/genlint check "$work/masked" --select sensitive --no-color
echo "(exit code $?)"
rm -rf "$work"
