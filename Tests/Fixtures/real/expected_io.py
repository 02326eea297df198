"""The file side every vendor's count.py shares: write expected.json, or with --check compare it
with what the counter computes (exit 1 on a difference). Counting stays in each count.py."""
import json
import sys


def write_or_check(here, got, echo=False, sort_keys=False, name="expected.json"):
    """With --check, exit 1 unless expected.json (present) equals `got`; else write it (and with
    `echo`, print it too). `sort_keys`: the file's keys sorted and non-ASCII escaped (CareLink, Tandem).
    `name`: another file of expected numbers (apple-health/day_totals.json)."""
    target = here / name
    if "--check" in sys.argv:
        if not target.exists() or json.loads(target.read_text()) != got:
            print(f"{name} differs from what its script computes")
            sys.exit(1)
        print(f"{name} agrees")
        return
    text = json.dumps(got, indent=2, sort_keys=True) if sort_keys else json.dumps(got, indent=2, ensure_ascii=False)
    target.write_text(text + "\n")
    if echo:
        print(text if sort_keys else json.dumps(got, ensure_ascii=False))


def main(here, compute, count):
    """`count.py` writes expected.json, `count.py --check` compares it, and `count.py FILE…` prints
    what each file (e.g. a full original kept outside the repository) stores."""
    if len(sys.argv) > 1 and sys.argv[1] != "--check":
        import pathlib
        for a in sys.argv[1:]:
            print(a, json.dumps(count(pathlib.Path(a)), ensure_ascii=False))
        sys.exit(0)
    write_or_check(here, compute())


def kind_totals(events, summed=("insulin", "meal")):
    """Per event kind, in name order: distinct events, and for the kinds in `summed` (None: every
    kind) the sum of their amounts. `events` is keyed by (kind, subtype, time, amount) tuples."""
    out = {}
    for kind in sorted({e[0] for e in events}):
        mine = [e for e in events if e[0] == kind]
        total = {"count": len(mine)}
        if summed is None or kind in summed:
            total["sum"] = round(sum(e[3] for e in mine), 6)
        out[kind] = total
    return out


def totals(measurements, events):
    """Per metric and per event kind: distinct stored rows and (insulin, meal) amount sums, as
    expected.json holds them. `measurements` maps (metric, …key) → value; `events` is keyed by
    (kind, …, amount) tuples whose last item is the amount."""
    out_m, out_e = {}, {}
    for key, v in measurements.items():
        t = out_m.setdefault(key[0], {"count": 0, "sum": 0.0})
        t["count"] += 1
        t["sum"] += v
    for key in events:
        kind, amount = key[0], key[-1]
        t = out_e.setdefault(kind, {"count": 0})
        t["count"] += 1
        if kind in ("insulin", "meal"):
            t["sum"] = t.get("sum", 0.0) + (amount or 0.0)
    for t in list(out_m.values()) + list(out_e.values()):
        if "sum" in t:
            t["sum"] = round(t["sum"], 6)
    return out_m, out_e
