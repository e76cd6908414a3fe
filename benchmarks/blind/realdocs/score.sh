#!/bin/sh
# Prints only aggregate lines (per-class recall, false alarms, verdicts); no item names or text.
cd "$(dirname "$0")" || exit 1
sha256sum -c --quiet FROZEN.sha256 || { echo "FROZEN mismatch"; exit 1; }
out=$(/work/main/.venv/bin/python /work/shared/corpora/score_labelled.py "$(pwd)" --genlint /work/main/.venv/bin/genlint 2>&1)
echo "$out" | grep -iE 'recall|false|verdict|macro' | grep -vE '\.(md|txt|docx|json|png|pdf)' | grep -vE '"|「|“'
