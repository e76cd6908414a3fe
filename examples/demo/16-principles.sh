#!/usr/bin/env bash
# genlint check follows principles, not examples: any blank character, gaps in sentences, table
# cells, signature blocks, OCR'd dates, to-be-supplied markers, roles and instructions.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== blanks made of NBSP and em spaces, a gap in a sentence, an OCR'd date, a table cell"
printf '签订日期：\u00a0\u00a0年\u00a0\u00a0月\u00a0\u00a0日\n本合同一式\u2003\u2003\u2003份，向        人民法院起诉。\n日期：年月日\n\n| Name | |\n| Title | CEO |\n' > "$tmp/form.md"
code=0
.venv/bin/genlint check "$tmp/form.md" --select placeholder || code=$?
test "$code" -eq 1

echo "== a signature block: the fields are empty, the party heading and the signature line are not"
printf 'BUYER:\nName:\nTitle:\nSignature: ______________\n\n甲方（盖章）：\n签约代表：\n' > "$tmp/sign.txt"
code=0
.venv/bin/genlint check "$tmp/sign.txt" --select placeholder || code=$?
test "$code" -eq 1

echo "== to-be-supplied markers, a role for a party not yet named, an instruction left in"
printf '交货地点：待定\n出资人：【股东3】\n服务内容：【具体的服务内容，如（写明服务地点）】\nThe Supplier shall [describe the services].\n' > "$tmp/draft.txt"
code=0
.venv/bin/genlint check "$tmp/draft.txt" --select placeholder || code=$?
test "$code" -eq 1

echo "== traps stay clean: a lead-in above its lines, a masked card, statute numerals (exit 0)"
printf '甲方收款账户信息：\n账户名：北京远航科技有限公司\n开户行：中国银行北京分行\n尾号××××的银行卡已冻结。\n依据《民法典》第五百七十七条。\n' > "$tmp/clean.txt"
.venv/bin/genlint check "$tmp/clean.txt" --select placeholder
