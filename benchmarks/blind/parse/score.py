"""Score genlint.parse_json on the blind generator. Prints aggregate figures only."""
import os
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

SR_SCHEMA = {"type": "object", "properties": {"score": {"type": "integer"}, "reason": {"type": "string"}},
             "required": ["score", "reason"]}
# kinds whose honest use comes with a schema (a bare string / a prose object is otherwise acceptable)
SCHEMAS = {"double_encoded": {"type": ["object", "array"]}, "fields_prose": SR_SCHEMA, "chatty_braces": SR_SCHEMA}
CATS = ["exact", "silent", "flagged-wrong", "false-alarm", "error"]


def eq(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(eq(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(eq(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return type(a) is type(b) and a == b
    return type(a) is type(b) and a == b


def flagged(res):
    return any(bool(getattr(res, f, False)) for f in ("truncated", "guessed", "lossy"))


def classify(item, res):
    ok = bool(getattr(res, "ok", False))
    fl = flagged(res)
    if item["ambiguous"]:
        return "exact" if (not ok or fl) else "silent"
    same = ok and eq(getattr(res, "value", None), item["expected"])
    if not ok:
        return "false-alarm"  # refused a reply that has a single reading
    if same:
        return "false-alarm" if fl else "exact"
    return "flagged-wrong" if fl else "silent"


def pct(c, n):
    return " ".join(f"{k}={100.0 * c[k] / n:5.1f}%" for k in CATS)


def main(argv=None):
    from genlint import parse_json
    import json_repair
    seeds, n = (1, 2, 3), 2000
    tot, per = defaultdict(int), defaultdict(lambda: defaultdict(int))
    jr_tot, jr_per, jr_na = 0, defaultdict(int), 0
    times, count, na_count = [], 0, 0
    for seed in seeds:
        for item in gen.generate(seed, n):
            k = item["kind"]
            t0 = time.perf_counter()
            try:
                res = parse_json(item["reply"], schema=SCHEMAS.get(k, {}))
                c = classify(item, res)
            except Exception:
                c = "error"
            times.append((time.perf_counter() - t0) * 1000)
            tot[c] += 1; per[k][c] += 1; per[k]["_n"] += 1; count += 1
            try:
                jv = json_repair.repair_json(item["reply"], return_objects=True)
                jok = (not item["ambiguous"]) and eq(jv, item["expected"])
            except Exception:
                jok = False
            if not item["ambiguous"]:
                na_count += 1; jr_na += jok
            jr_tot += jok; jr_per[k] += jok
    times.sort()
    print(f"replies={count} kinds={len(per)} seeds={list(seeds)}")
    print("OVERALL genlint:", pct(tot, count))
    print(f"OVERALL json-repair exact={100.0 * jr_tot / count:.1f}% (non-ambiguous only: "
          f"{100.0 * jr_na / max(na_count, 1):.1f}%; it has no flags, so ambiguous items never count)")
    print(f"p99 ms/reply={times[int(0.99 * (len(times) - 1))]:.2f} median={times[len(times) // 2]:.2f}")
    print("PER KIND (genlint | json-repair exact)")
    for k in sorted(per):
        m = per[k]["_n"]
        print(f"  {k:16s} n={m:4d} {pct(per[k], m)} | jr={100.0 * jr_per[k] / m:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
