#!/usr/bin/env python3
"""Deterministic generator for the IMU sample captures in this folder.

    python3 generate_imu_samples.py        # rewrites both files byte for byte

imu_capture_gestures.csv
    Exactly what Arduino's IMU_Capture.ino prints on a Nano 33 BLE (formats.md 8.1): the header
    `aX,aY,aZ,gX,gY,gZ`, 13 gestures of 119 lines (119 Hz, one second each, six values with three
    decimals, g and deg/s), an empty line after each gesture: 1,561 lines. Every gesture starts
    above the sketch's trigger (|aX|+|aY|+|aZ| >= 2.5 g).

brushing_stream_tms.csv
    A continuous 50 Hz stream with a millisecond time column (`t_ms,ax,ay,az,gx,gy,gz`, formats.md
    8.2) of a brush lying tilted on a shelf, then used twice:
      0-5 s rest, 5-45 s brushing (40 s), 45-60 s rest, 60-85 s brushing (25 s, with a 3 s pause
      at 70-73 s), 85-100 s rest, a 0.5 s bump at 100 s, rest until 112 s.
    Two corrupt lines mimic serial noise: a truncated line at t = 20 s and a `nan` line at 65 s.
"""
import math
import random
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GRAVITY = (0.2, 0.3, 0.933)  # a tilted brush: |g| = 1


def brushing(t, rng, phase=0.0):
    """Side-to-side strokes at ~4 Hz plus a slower wrist roll and sensor noise (g, deg/s)."""
    ax = GRAVITY[0] + 0.6 * math.sin(2 * math.pi * 4.0 * t + phase) + rng.gauss(0, 0.02)
    ay = GRAVITY[1] + 0.3 * math.sin(2 * math.pi * 1.3 * t) + rng.gauss(0, 0.02)
    az = GRAVITY[2] + 0.15 * math.cos(2 * math.pi * 4.0 * t + phase) + rng.gauss(0, 0.02)
    gx = 90.0 * math.cos(2 * math.pi * 4.0 * t + phase) + rng.gauss(0, 2)
    gy = 25.0 * math.sin(2 * math.pi * 1.3 * t) + rng.gauss(0, 2)
    gz = rng.gauss(0, 3)
    return ax, ay, az, gx, gy, gz


def resting(rng):
    return tuple(g + rng.gauss(0, 0.004) for g in GRAVITY) + tuple(rng.gauss(0, 0.3) for _ in range(3))


def fmt(values):
    return ",".join("%.3f" % v for v in values)


def imu_capture():
    rng = random.Random(20261121)
    lines = ["aX,aY,aZ,gX,gY,gZ"]
    for gesture in range(13):
        phase = gesture * 0.7
        for i in range(119):
            t = i / 119.0
            ax, ay, az, gx, gy, gz = brushing(t, rng, phase)
            if i == 0:  # the sample that fired the trigger
                ax, ay, az = 1.4, 0.9, 1.6
            lines.append(fmt((ax, ay, az, gx, gy, gz)))
        lines.append("")
    return "\n".join(lines) + "\n"


def stream():
    rng = random.Random(5)
    lines = ["t_ms,ax,ay,az,gx,gy,gz"]
    for i in range(0, 112 * 50):
        t = i / 50.0
        moving = (5 <= t < 45) or (60 <= t < 70) or (73 <= t < 85) or (100 <= t < 100.5)
        values = brushing(t, rng) if moving else resting(rng)
        if i == 20 * 50:
            lines.append("%d,%s" % (i * 20, fmt(values)[:9]))  # truncated: the serial line lost its tail
            continue
        if i == 65 * 50:
            lines.append("%d,nan,nan,nan,0.000,0.000,0.000" % (i * 20))
            continue
        lines.append("%d,%s" % (i * 20, fmt(values)))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open(os.path.join(HERE, "imu_capture_gestures.csv"), "w", newline="\n") as f:
        f.write(imu_capture())
    with open(os.path.join(HERE, "brushing_stream_tms.csv"), "w", newline="\n") as f:
        f.write(stream())
