#!/usr/bin/env bash
# Vaults that cannot lie: tokens carry their vault's id, a vault restores only documents it
# produced (unless --force, and then only its own tokens), and concurrent runs lose no token.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint mask --style token: vaults that cannot lie"
work=$(mktemp -d)
mkdir -p "$work/alice" "$work/bob"
printf '甲方联系人电话13812345678。\n' > "$work/alice/letter.txt"
printf '乙方联系人电话13987654321。\n' > "$work/bob/letter.txt"
for who in alice bob; do
  echo "\$ genlint mask $who/letter.txt --style token --vault $who.vault --out $who-masked"
  .venv/bin/genlint mask "$work/$who/letter.txt" --style token --vault "$work/$who.vault" \
    --out "$work/$who-masked" >/dev/null
  cat "$work/$who-masked/letter.txt"
done
echo "\$ genlint unmask alice-masked/letter.txt --vault bob.vault --out back   # the wrong vault"
.venv/bin/genlint unmask "$work/alice-masked/letter.txt" --vault "$work/bob.vault" --out "$work/back" 2>&1
echo "(exit code $?)"
echo "\$ genlint unmask alice-masked/letter.txt --vault bob.vault --out back --force"
.venv/bin/genlint unmask "$work/alice-masked/letter.txt" --vault "$work/bob.vault" --out "$work/back" --force 2>&1
echo "(exit code $?: nothing of bob's was put into alice's letter)"
cat "$work/back/letter.txt"
echo "\$ four runs at once into one vault, ten numbers each"
for w in 1 2 3 4; do
  mkdir -p "$work/in$w"
  for i in 0 1 2 3 4 5 6 7 8 9; do printf '电话13%d0000000%d\n' "$w" "$i" > "$work/in$w/d$i.txt"; done
  .venv/bin/genlint mask "$work/in$w" --style token --vault "$work/shared.vault" --out "$work/out$w" >/dev/null &
done
wait
.venv/bin/python -c "import json,sys; print(len(json.load(open(sys.argv[1]))['tokens']), 'tokens in the shared vault (40 expected)')" "$work/shared.vault"
rm -rf "$work"
