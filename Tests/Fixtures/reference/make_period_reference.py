#!/usr/bin/env python3
"""Reference values for the period metrics (time in tight range, active % over a whole period,
days with data), computed by iglu-python 0.4.3 (an independent implementation) from the simglucose
series in simglucose/. Run: python3 make_period_reference.py > reference_period_iglu.csv
(needs `pip install iglu-python==0.4.3`).

Periods: the whole 14 days; and a "sparse fortnight" made by keeping only three of the 14 days
(01-02, 01-06 and the afternoon of 01-11) of each regular series, so that active % over the period
is far from 100 and days with data are 3 of 14."""
import csv
import sys

import iglu_python as iglu
import pandas as pd

PERIOD_START = pd.Timestamp("2024-01-01 00:00:00")
PERIOD_DAYS = 14
PERIOD_END = PERIOD_START + pd.Timedelta(days=PERIOD_DAYS)


def load(name):
    df = pd.read_csv(f"simglucose/{name}")
    df = df[df["cgm_mgdl"].notna()]
    return pd.DataFrame({"id": df["patient"], "time": pd.to_datetime(df["timestamp"]), "gl": df["cgm_mgdl"]})


def sparse(df):
    t = df["time"]
    keep = (t.dt.strftime("%m-%d") == "01-02") | (t.dt.strftime("%m-%d") == "01-06") | (
        (t.dt.strftime("%m-%d") == "01-11") & (t.dt.hour >= 12))
    return df[keep]


def rows(source, df):
    out = []
    titr = iglu.in_range_percent(df, target_ranges=[[70, 140]])
    active = iglu.active_percent(df, tz="GMT", range_type="manual", ndays=PERIOD_DAYS, consistent_end_date=PERIOD_END)
    for pid in sorted(df["id"].unique()):
        sub = df[df["id"] == pid]
        t = titr[titr["id"] == pid].iloc[0]
        a = active[active["id"] == pid].iloc[0]
        out.append((source, pid, "titr_70_140_pct", t["in_range_70_140"]))
        out.append((source, pid, "active_percent_period", a["active_percent"]))
        inside = sub[(sub["time"] >= PERIOD_START) & (sub["time"] < PERIOD_END)]
        out.append((source, pid, "days_with_data", float(inside["time"].dt.normalize().nunique())))
        out.append((source, pid, "period_days", float(PERIOD_DAYS)))
    return out


w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(["source", "patient", "metric", "value"])
regular = load("all.csv")
for source, df in [("regular", regular), ("irregular", load("irregular.csv")), ("sparse", sparse(regular))]:
    for r in rows(source, df):
        w.writerow([r[0], r[1], r[2], f"{r[3]:.10g}"])
