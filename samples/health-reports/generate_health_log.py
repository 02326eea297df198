#!/usr/bin/env python3
"""Writes the health-log samples (seed 004): 14 days of reports — body temperature, systolic
pressure and pain with their importance, a fever from 5 to 9 March — with insulin, lunch and
exercise entries and an illness marker, as the long CSV, the wide CSV and JSON layouts the
health-reports sources read. Deterministic (seeded); run from this folder."""
import json
import random

random.seed(4)
long = ["time,metric,value,unit,importance,note"]
wide = ["date,time,body_temperature (degC),body_temperature_importance,blood_pressure_systolic (mmHg),"
        "blood_pressure_systolic_importance,pain,pain_importance,note"]
docs = []
for d in range(1, 15):
    day = f"2024-03-{d:02d}"
    fever = 5 <= d <= 9
    for hh in (["08:00", "20:00"] if d % 3 else ["08:00", "13:00", "20:00"]):
        t = round(random.uniform(36.4, 37.1) + (1.3 if fever else 0), 1)
        s = random.randint(115, 132) + (12 if fever else 0)
        p = random.randint(0, 2) + (4 if fever else 0)
        ti = 4 if fever else 2
        note = "feverish" if fever and hh == "08:00" else ""
        long.append(f"{day} {hh},body_temperature,{t},degC,{ti},{note}")
        long.append(f"{day} {hh},blood_pressure_systolic,{s},mmHg,3,")
        if p >= 4:
            long.append(f"{day} {hh},pain,{p},,5,")
        wide.append(f"{day},{hh},{t},{ti},{s},3,{p},{5 if p >= 4 else 1},{note}")
        values = [{"metric": "body_temperature", "value": t, "unit": "degC", "importance": ti},
                  {"metric": "blood_pressure_systolic", "value": s, "unit": "mmHg", "importance": 3}]
        docs.append({"time": f"{day}T{hh}:00+01:00", "note": note or None, "values": values})
    if d == 5:
        long.append(f"{day} 09:30,illness,,,,")
        docs.append({"kind": "illness", "start": f"{day}T09:30:00+01:00", "end": "2024-03-09T20:00:00+01:00"})
    long.append(f"{day} 08:15,insulin,{4 + d % 3},U,,")
    long.append(f"{day} 12:30,carbs,{40 + 5 * (d % 4)},g,,Lunch")
    docs.append({"kind": "insulin", "start": f"{day}T08:15:00+01:00", "units": 4 + d % 3, "type": "bolus"})
    if d % 2 == 0:
        long.append(f"{day} 18:00,exercise,{30 + 5 * (d % 3)},min,,Cycling")
with open("health_log_long.csv", "w") as f:
    f.write("\n".join(long) + "\n")
with open("health_log_wide.csv", "w") as f:
    f.write("\n".join(wide) + "\n")
with open("health_log.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(x, separators=(",", ":")) for x in docs) + "\n]\n")
