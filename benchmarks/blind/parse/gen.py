"""Blind generator of damaged LLM JSON replies (written without reading genlint code/tests).

Sources are public repositories / reports; titles are paraphrased from memory of the public
trackers, repository URLs are given so each class can be checked:
  JR  = https://github.com/mangiucugna/json_repair/issues
  JSR = https://github.com/josdejong/jsonrepair/issues
  INS = https://github.com/instructor-ai/instructor/issues
  LC  = https://github.com/langchain-ai/langchain/issues  (OutputParserException threads)
  LCPP= https://github.com/ggerganov/llama.cpp/issues     (grammar / JSON mode)
  OUT = https://github.com/outlines-dev/outlines/issues
  DS  = https://github.com/deepseek-ai/DeepSeek-R1 (README: replies start with <think>)
"""
import json
import random

ZH = ["回答准确，引用了原文。", "部分内容与文献不符", "结论缺乏依据，需要补充数据", "翻译流畅"]
EN = ["The answer is faithful to the source.", "Misses the second clause", "Good, but cites [2] wrongly", "Concise and correct"]
JA = ["回答は正確です。", "根拠が不足しています", "第二条の解釈が誤っている", "よくまとまっている"]


def _txt(r):
    return r.choice(r.choice([ZH, EN, JA]))


def _value(r):
    t = r.randrange(4)
    if t == 0:
        return {"score": r.randint(1, 10), "reason": _txt(r)}
    if t == 1:
        return {"id": r.randint(1, 999), "title": _txt(r), "tags": [_txt(r)[:4], "x"],
                "meta": {"lang": r.choice(["zh", "en", "ja"]), "ok": r.choice([True, False])}}
    if t == 2:
        return [{"score": r.randint(0, 5), "reason": _txt(r)} for _ in range(r.randint(2, 3))]
    return {"items": [r.randint(1, 50) for _ in range(3)], "summary": _txt(r), "note": None}


def _d(v, **k):
    return json.dumps(v, ensure_ascii=False, **k)


def _sr(r):
    return {"score": r.randint(1, 10), "reason": _txt(r)}


# Each kind: function(r) -> (reply, expected, ambiguous)
def k_fence_json(r):  # ```json fences: LC "Could not parse LLM output" with markdown fences
    v = _value(r); return f"```json\n{_d(v, indent=2)}\n```", v, False

def k_fence_plain(r):  # bare ``` fence: JR "handle markdown code blocks"
    v = _value(r); return f"```\n{_d(v)}\n```\n", v, False

def k_prose_before(r):  # "Here is the JSON:" preamble: INS / LC OutputParserException reports
    v = _value(r); return r.choice(["Here is the JSON you asked for:\n", "好的，以下是结果：\n", "以下が結果です。\n"]) + _d(v), v, False

def k_prose_after(r):  # trailing explanation after value: JR "extra text after JSON"; SPEC: text after is prose
    v = _value(r); return _d(v) + r.choice(["\n\nLet me know if you need anything else!", "\n希望对你有帮助。", " See [1]."]), v, False

def k_think(r):  # DeepSeek-R1 <think>...</think> before answer: DS README, LC issues on R1 parsing
    v = _value(r); return f"<think>\nThe user wants {{\"score\": 3}}? No, let me reconsider.\n嗯，我需要思考。\n</think>\n\n{_d(v)}", v, False

def k_think_fence(r):  # R1 think + fenced json (Qwen QwQ same): DS README
    v = _value(r); return f"<think>考えています… {{draft}}</think>\n```json\n{_d(v, indent=1)}\n```", v, False

def k_trailing_comma(r):  # trailing commas: JSR README "strip trailing commas"
    v = _sr(r); return '{"score": %d, "reason": %s,}' % (v["score"], _d(v["reason"])), v, False

def k_single_quotes(r):  # Python-style single quotes: JSR README "replace single quotes"
    v = {"score": r.randint(1, 9), "reason": r.choice(["good", "short answer", "needs work"])}
    return "{'score': %d, 'reason': '%s'}" % (v["score"], v["reason"]), v, False

def k_python_literals(r):  # True/False/None from Python repr: JSR README "Python constants"
    v = {"ok": r.choice([True, False]), "note": None, "score": r.randint(1, 5)}
    return "{'ok': %s, 'note': None, 'score': %d}" % (v["ok"], v["score"]), v, False

def k_unquoted_keys(r):  # unquoted keys (JS object literal): JSR README "add missing quotes around keys"
    v = _sr(r); return '{score: %d, reason: %s}' % (v["score"], _d(v["reason"])), v, False

def k_comments(r):  # // and /* */ comments: JSR README "strip comments"; LCPP models emitting comments
    v = _sr(r); return '{\n  // rating\n  "score": %d, /* 1-10 */\n  "reason": %s\n}' % (v["score"], _d(v["reason"])), v, False

def k_truncated_string(r):  # max_tokens cut inside a string: INS "incomplete JSON when max_tokens reached"
    v = _sr(r); s = _d(v); return s[: s.index('"reason"') + 14], None, True

def k_truncated_array(r):  # cut inside an array of records: JR "truncated JSON" / OUT streaming reports
    v = [_sr(r) for _ in range(3)]; s = _d(v); return s[: len(s) - 12], None, True

def k_missing_close(r):  # only final brace missing: JSR README "add missing closing brackets"
    v = _sr(r); s = _d(v); return s[:-1], v, True  # closed at end => must be flagged truncated

def k_smart_quotes(r):  # curly quotes from chat UI / word processors: JSR README "special quote characters"
    v = {"score": r.randint(1, 9), "reason": "fine"}
    return '{\u201cscore\u201d: %d, \u201creason\u201d: \u201cfine\u201d}' % v["score"], v, False

def k_raw_newline(r):  # literal newline inside a string: JR "unescaped newline in string"
    a, b = _txt(r), _txt(r); v = {"score": r.randint(1, 9), "reason": a + "\n" + b}
    return '{"score": %d, "reason": "%s\n%s"}' % (v["score"], a, b), v, False

def k_inner_quotes(r):  # unescaped inner quotes: JR "quotes inside strings" (several readings)
    v = {"score": r.randint(1, 9), "reason": 'He said "yes", then left'}
    return '{"score": %d, "reason": "He said "yes", then left"}' % v["score"], v, True

def k_double_encoded(r):  # JSON string containing JSON: INS / LC "returns stringified JSON"
    v = _value(r); return _d(_d(v)), v, False

def k_two_values(r):  # two JSON objects, first is answer: SPEC "first complete value"; LC multiple JSON blocks
    v = _sr(r); w = _sr(r); return _d(v) + "\n" + _d(w), v, False

def k_two_fences(r):  # example then answer in fences: LC issues, model shows schema then answer -> ambiguous
    v = _sr(r); w = _sr(r)
    if v == w: w["score"] += 1
    return f"Example:\n```json\n{_d(w)}\n```\nAnswer:\n```json\n{_d(v)}\n```", v, True

def k_big_int(r):  # big integers lose precision via float: JSR "large numbers"; SPEC integers keep digits
    n = r.randint(10**18, 10**20); v = {"id": n, "reason": _txt(r)}; return _d(v), v, False

def k_nan(r):  # NaN / Infinity tokens: Python json.dumps default emits them; JSR issues on NaN
    v = {"score": None, "reason": _txt(r)}; return '{"score": NaN, "reason": %s}' % _d(v["reason"]), None, True

def k_unicode_escape(r):  # \\u escaped CJK (ensure_ascii): OpenAI function-call args reported in LC issues
    v = _value(r); return json.dumps(v), v, False

def k_bom_ws(r):  # BOM / zero-width prefix: JR "BOM at start"
    v = _value(r); return "\ufeff  \n" + _d(v) + "\n\n", v, False

def k_fields_prose(r):  # "Score: 7\nReason: ..." no JSON at all: SPEC fields strategy; LC RegexParser
    v = _sr(r); return f"Score: {v['score']}\nReason: {v['reason']}", v, False

def k_missing_comma(r):  # missing comma between members: JSR README "add missing commas"
    v = _sr(r); return '{"score": %d "reason": %s}' % (v["score"], _d(v["reason"])), v, False

def k_ellipsis(r):  # model elides with "..." : JSR "ellipsis in arrays"; data lost => ambiguous
    return '{"items": [1, 2, 3, ...], "summary": "ok"}', None, True

def k_concat_strings(r):  # JS string concatenation "a" + "b": JSR README "concatenated strings"
    v = {"score": r.randint(1, 9), "reason": "part one part two"}
    return '{"score": %d, "reason": "part one " + "part two"}' % v["score"], v, False

def k_jsonp(r):  # JSONP / callback wrapper: JSR README "strip JSONP notation"
    v = _value(r); return "callback(" + _d(v) + ");", v, False

def k_mongo(r):  # MongoDB types NumberLong(...): JSR README "MongoDB data types"
    n = r.randint(1, 99); return '{"id": NumberLong("%d"), "ok": true}' % n, {"id": n, "ok": True}, False

def k_ndjson(r):  # newline-delimited records without array: JSR README "NDJSON"; models listing items
    vs = [_sr(r) for _ in range(3)]; return "\n".join(_d(v) for v in vs), vs[0], False

def k_escaped_outer(r):  # backslash-escaped quotes everywhere {\"a\": 1}: JSR "escaped string"; LC tool args
    v = _sr(r); return _d(v).replace('"', '\\"'), v, False

def k_xml_tag(r):  # <json>...</json> / <answer> tags: Anthropic prompt-engineering docs, INS XML mode
    v = _value(r); return f"<answer>\n{_d(v)}\n</answer>", v, False

def k_plus_number(r):  # leading zeros / plus sign numbers: LCPP grammar issues; JSON forbids 07, +3
    v = {"score": 7, "reason": "ok"}; return '{"score": +7, "reason": "ok"}', v, False

def k_dup_key(r):  # duplicate keys, two values for one field: LCPP grammar repetition; ambiguous
    return '{"score": 3, "reason": "x", "score": 8}', None, True

def k_clean(r):  # control: strict valid JSON
    v = _value(r); return _d(v), v, False

def k_chatty_braces(r):  # prose containing braces before the real JSON: LC "greedy regex { .* }" issues
    v = _sr(r); return "Use the format {score, reason}. Result: " + _d(v) + " (scale {1..10})", v, False


KINDS = {n[2:]: f for n, f in sorted(globals().items()) if n.startswith("k_")}


def generate(seed: int, n: int) -> list:
    r = random.Random(seed)
    names = sorted(KINDS)
    out = []
    for i in range(n):
        k = names[i % len(names)] if i < len(names) else r.choice(names)
        reply, exp, amb = KINDS[k](r)
        out.append({"kind": k, "reply": reply, "expected": exp, "ambiguous": amb})
    return out
