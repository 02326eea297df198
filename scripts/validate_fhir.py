#!/usr/bin/env python3
"""Validates a HealthPipe FHIR export folder against FHIR R4 (4.0.1).

Usage: python3 scripts/validate_fhir.py OUT_DIR

Every line of OUT_DIR/*.ndjson is parsed by the R4 resource models of `fhirclient` (SMART on FHIR's
Python models, generated from the FHIR 4.0.1 StructureDefinitions; installed by scripts/setup.sh) in
strict mode: unknown elements, wrong types and missing required elements are errors. On top of that,
the checks the models do not make: resourceType matches the file name, ids match the R4 id pattern,
dateTimes with a time carry a zone, every Observation's subject is a Patient of the export, and
LOINC-coded Observations use http://loinc.org. Prints "N passed, M failed" and exits 1 on any error.
"""
import json
import os
import re
import sys

try:
    from fhirclient.models.observation import Observation
    from fhirclient.models.patient import Patient
    from fhirclient.models.fhirabstractbase import FHIRValidationError
except ImportError:  # a missing validator is one clear failure, never a silent pass
    print("fhirclient is not installed (scripts/setup.sh installs it: pip install fhirclient==4.4.0)", file=sys.stderr)
    sys.exit(2)

MODELS = {"Observation": Observation, "Patient": Patient}
ID = re.compile(r"^[A-Za-z0-9\-\.]{1,64}$")
DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")


def check(resource, patients):
    problems = []
    kind = resource.get("resourceType")
    model = MODELS.get(kind)
    if model is None:
        return [f"unexpected resourceType {kind!r}"]
    try:
        model(resource, strict=True)
    except FHIRValidationError as e:
        problems.append(f"R4 model: {e}")
    if not ID.match(resource.get("id", "")):
        problems.append(f"id {resource.get('id')!r} does not match the R4 id pattern")
    if kind == "Observation":
        for key in ("effectiveDateTime",):
            if key in resource and not DATETIME.match(resource[key]):
                problems.append(f"{key} {resource[key]!r} is not an R4 dateTime with a zone")
        for key in ("start", "end"):
            v = resource.get("effectivePeriod", {}).get(key)
            if v is not None and not DATETIME.match(v):
                problems.append(f"effectivePeriod.{key} {v!r} is not an R4 dateTime with a zone")
        ref = resource.get("subject", {}).get("reference", "")
        if ref.removeprefix("Patient/") not in patients:
            problems.append(f"subject {ref!r} is not a Patient of the export")
        for c in resource.get("code", {}).get("coding", []):
            if c.get("system") != "http://loinc.org" or not re.match(r"^\d{1,7}-\d$", c.get("code", "")):
                problems.append(f"code {c} is not a LOINC coding")
    return problems


def main():
    folder = sys.argv[1]
    files = {name: os.path.join(folder, name + ".ndjson") for name in MODELS}
    for name, path in files.items():
        if not os.path.exists(path):
            print(f"{path}: missing", file=sys.stderr)
            sys.exit(1)
    patients = set()
    with open(files["Patient"], encoding="utf-8") as f:
        patients = {json.loads(line)["id"] for line in f if line.strip()}
    passed = failed = 0
    for name, path in files.items():
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    resource = json.loads(line)
                except json.JSONDecodeError as e:
                    problems = [f"not JSON: {e}"]
                else:
                    problems = check(resource, patients) if resource.get("resourceType") == name else [
                        f"resourceType {resource.get('resourceType')!r} in {name}.ndjson"]
                if problems:
                    failed += 1
                    if failed <= 20:
                        print(f"{path}:{lineno}: " + "; ".join(problems), file=sys.stderr)
                else:
                    passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or passed == 0 else 0)


if __name__ == "__main__":
    main()
