#!/usr/bin/env bash
# genlint mask on DOCX: personal data in places Word does not show (a property, a tracked
# deletion, a field code split over runs, link targets, a revision author, people.xml, an
# altChunk HTML part) is reported with its place, masked there, and restored by unmask.
# examples/mask/hidden-places.docx holds generated values only (tests/support/docx_leaks.py).
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint mask: every place a DOCX keeps text"
work=$(mktemp -d)
doc=examples/mask/hidden-places.docx
echo "\$ genlint check $doc --select sensitive"
.venv/bin/genlint check "$doc" --select sensitive --no-color | grep -v '^ '
echo "(exit code ${PIPESTATUS[0]})"
echo "\$ genlint mask $doc --style token --vault $work/vault.json --out $work/masked"
.venv/bin/genlint mask "$doc" --style token --vault "$work/vault.json" --out "$work/masked"
echo "-- the link targets in word/_rels/document.xml.rels (still valid URIs):"
.venv/bin/python -c 'import re, sys, zipfile
rels = zipfile.ZipFile(sys.argv[1]).read("word/_rels/document.xml.rels").decode()
print("\n".join(re.findall(r"Target=\"[a-z]+:[^\"]*\"", rels)))' "$work/masked/hidden-places.docx"
echo "\$ genlint check $work/masked --select sensitive"
.venv/bin/genlint check "$work/masked" --select sensitive --no-color
echo "(exit code $?)"
echo "\$ genlint unmask $work/masked/hidden-places.docx --vault $work/vault.json --out $work/back"
.venv/bin/genlint unmask "$work/masked/hidden-places.docx" --vault "$work/vault.json" --out "$work/back"
.venv/bin/genlint check "$work/back" --select sensitive --no-color | tail -1
rm -rf "$work"
