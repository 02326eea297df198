"""Reads a HealthPipe server's Nightscout API with the PyPI client libraries py-nightscout (async)
and python-nightscout, and checks that what they read equals what was uploaded.

usage: read_back.py BASE_URL API_SECRET UPLOADED.json   (prints "ok", else the differences; exit 1)
UPLOADED.json: {"entries": [...], "treatments": [...]} as posted.
"""
import asyncio
import json
import sys
from datetime import datetime, timezone

import nightscout  # python-nightscout 1.0.0
import py_nightscout  # py-nightscout 1.3.3

base, secret, uploaded_path = sys.argv[1:4]
with open(uploaded_path) as f:
    uploaded = json.load(f)
problems = []


def instant(value):
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value / 1000, timezone.utc)
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def check_sgvs(client, sgvs):
    want = sorted(uploaded["entries"], key=lambda e: -e["date"])
    got = [(s.sgv, s.direction, s.device, s.date) for s in sgvs]
    expected = [(e["sgv"], e["direction"], e["device"], instant(e["date"])) for e in want]
    if got != expected:
        problems.append(f"{client} sgvs: {got} != {expected}")


def check_treatments(client, treatments):
    want = sorted(uploaded["treatments"], key=lambda t: instant(t["created_at"]), reverse=True)
    fields = ["eventType", "insulin", "carbs", "duration", "absolute", "enteredBy", "glucose", "units"]
    got = [(t.created_at, *[getattr(t, k) for k in fields]) for t in treatments]
    expected = [(instant(t["created_at"]), *[t.get(k) for k in fields]) for t in want]
    if got != expected:
        problems.append(f"{client} treatments: {got} != {expected}")


# python-nightscout: queries with Nightscout's language, as its docs show.
api = nightscout.Api(base, api_secret=secret)
since = min(instant(e["date"]) for e in uploaded["entries"]).isoformat()
check_sgvs("python-nightscout", api.get_sgvs({"count": 100, "find[dateString][$gte]": since}))
check_treatments("python-nightscout", api.get_treatments({"count": 100}))


# py-nightscout: no query (it drops its params): Nightscout's defaults, 10 entries of the last days.
async def read_async():
    client = py_nightscout.Api(base, api_secret=secret)
    check_sgvs("py-nightscout", await client.get_sgvs())
    check_treatments("py-nightscout", await client.get_treatments())
    status = await client.get_server_status()
    if status.status != "ok" or not status.apiEnabled:
        problems.append(f"py-nightscout status: {status.status} {status.apiEnabled}")

asyncio.run(read_async())
print("\n".join(problems) if problems else "ok")
sys.exit(1 if problems else 0)
