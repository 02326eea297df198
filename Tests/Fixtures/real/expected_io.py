"""The file side every vendor's count.py shares: write expected.json, or with --check compare it
with what the counter computes (exit 1 on a difference). Counting stays in each count.py."""
import json
import sys


def write_or_check(here, got):
    target = here / "expected.json"
    if "--check" in sys.argv:
        if json.loads(target.read_text()) != got:
            print("expected.json differs from what count.py computes")
            sys.exit(1)
        print("expected.json agrees")
    else:
        target.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n")
