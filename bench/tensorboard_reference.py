"""Reads each RUN/tb/ with TensorBoard's own reader and compares it with the run's metrics.csv and config.json.

Usage: python tensorboard_reference.py RUN [RUN...]   (bench/tensorboard_reference.sh makes the runs)

TensorBoard's record reader checks both CRCs of every record (without TensorFlow installed it is
tensorboard.compat.tensorflow_stub's); EventAccumulator keeps every scalar (size guidance 0). Every number of
every metrics.csv row must come back under its tag with the row's step and the CSV's value within float32
(tb/ holds the CSV's 6 significant digits), each step once; the text summary "config" must be config.json;
each evaluation's probe record (RUN/probe/*.u8) must be one picture per layer whose pixels, decoded by
Pillow, are the record's weights (heads side by side, 2 grey pixels apart, each weight scale x scale).
Exits 1 on the first difference.
"""
import csv
import glob
import io
import json
import math
import os
import sys

import numpy as np
from PIL import Image

from tensorboard.backend.event_processing import event_accumulator, event_file_loader

# metrics.csv column -> tag, by row kind (twb/tensorboard.h: tensorboard_scalars)
TRAIN = {"train_loss": "train/loss", "lr": "train/lr", "tokens_per_s": "train/tokens_per_s",
         "ms_per_step": "train/ms_per_step", "epoch": "train/epoch"}
EVAL = {c: "eval/" + c for c in ("train_loss", "val_loss", "val_accuracy", "train_accuracy", "val_perplexity",
                                 "val_bpc", "val_bleu")}


def expected(run):
    want = {}
    with open(os.path.join(run, "metrics.csv"), newline="") as f:
        for row in csv.DictReader(f):
            for col, tag in (EVAL if row["kind"] == "eval" else TRAIN).items():
                if row.get(col, "") != "" and math.isfinite(float(row[col])):
                    want.setdefault(tag, []).append((int(row["step"]), float(row[col])))
    return want


def probe_records(run, header, records):
    """(kind prefix, layers, heads, rows, keys, {step: weights[layer, head, row, key]}) of a probe, or None."""
    path = os.path.join(run, "probe", header)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        h = json.load(f)
    rows = len(h["ids"])
    keys = len(h.get("source_ids", h["ids"]))
    n = h["layers"] * h["heads"] * rows * keys
    data = open(os.path.join(run, "probe", records), "rb").read()
    out = {}
    for off in range(0, len(data) - (8 + n) + 1, 8 + n):
        step = int.from_bytes(data[off:off + 8], "little", signed=True)
        out[step] = np.frombuffer(data, np.uint8, n, off + 8).reshape(h["layers"], h["heads"], rows, keys)
    return h["layers"], h["heads"], rows, keys, out


def check_images(run, acc):
    with open(os.path.join(run, "metrics.csv"), newline="") as f:
        evals = {int(r["step"]) for r in csv.DictReader(f) if r["kind"] == "eval"}
    n = 0
    tags = set(acc.Tags()["images"])
    for prefix, header, records in (("attention/layer_", "probe.json", "attention.u8"),
                                    ("cross_attention/layer_", "cross.json", "cross.u8")):
        probe = probe_records(run, header, records)
        if probe is None:
            continue
        layers, heads, rows, keys, recs = probe
        scale = max(1, min(8, 128 // max(rows, keys)))
        for layer in range(layers):
            tag = prefix + str(layer)
            tags.discard(tag)
            got = {e.step: e for e in acc.Images(tag)}
            want = sorted(s for s in recs if s in evals)
            if sorted(got) != want:
                sys.exit(f"{run}: {tag}: pictures at steps {sorted(got)}, probe records at {want}")
            for step in want:
                e = got[step]
                img = np.asarray(Image.open(io.BytesIO(e.encoded_image_string)))
                expect = np.full((rows * scale, heads * keys * scale + (heads - 1) * 2), 96, np.uint8)
                for h in range(heads):
                    x = h * (keys * scale + 2)
                    expect[:, x:x + keys * scale] = np.kron(recs[step][layer, h], np.ones((scale, scale), np.uint8))
                if (e.height, e.width) != expect.shape or not np.array_equal(img, expect):
                    sys.exit(f"{run}: {tag} step {step}: the picture is not the probe's weights")
                n += 1
    if tags:
        sys.exit(f"{run}: pictures without a probe: {sorted(tags)}")
    return n


def check(run):
    files = glob.glob(os.path.join(run, "tb", "events.out.tfevents.*"))
    if len(files) != 1:
        sys.exit(f"{run}: tb/ holds {len(files)} event files, not 1")
    records = sum(1 for _ in event_file_loader.RawEventFileLoader(files[0]).Load())  # CRCs checked
    acc = event_accumulator.EventAccumulator(os.path.join(run, "tb"),
                                             size_guidance={"scalars": 0, "tensors": 0, "images": 0})
    acc.Reload()
    want = expected(run)
    got = {tag: [(e.step, e.value) for e in acc.Scalars(tag)] for tag in acc.Tags()["scalars"]}
    if sorted(got) != sorted(want):
        sys.exit(f"{run}: tags differ: TensorBoard {sorted(got)}, metrics.csv {sorted(want)}")
    n = 0
    for tag, points in want.items():
        g = got[tag]
        if [s for s, _ in g] != [s for s, _ in points]:
            sys.exit(f"{run}: {tag}: steps differ: TensorBoard {[s for s, _ in g]}, metrics.csv {[s for s, _ in points]}")
        if any(b <= a for (a, _), (b, _) in zip(g, g[1:])):
            sys.exit(f"{run}: {tag}: a step twice or out of order: {[s for s, _ in g]}")
        for (step, a), (_, b) in zip(g, points):
            if abs(a - b) > 2 ** -23 * abs(b):
                sys.exit(f"{run}: {tag} step {step}: TensorBoard {a!r}, metrics.csv {b!r}")
            n += 1
    text = acc.Tensors("config")
    if len(text) != 1 or text[0].step != 0:
        sys.exit(f"{run}: expected one config text at step 0, got {len(text)}")
    shown = text[0].tensor_proto.string_val[0].decode("utf-8")
    config = json.loads("\n".join(line[4:] for line in shown.splitlines()))
    with open(os.path.join(run, "config.json")) as f:
        if config != json.load(f):
            sys.exit(f"{run}: the config text differs from config.json")
    pictures = check_images(run, acc)
    steps = sorted({s for p in want.values() for s, _ in p})
    print(f"{os.path.basename(run)}: {os.path.basename(files[0])}: {records} records read with both CRCs checked; "
          f"{n} scalars in {len(want)} tags (steps {steps[0]}-{steps[-1]}) equal to metrics.csv; config text = "
          f"config.json ({len(config)} keys); {pictures} attention pictures equal to probe/")


def main():
    for run in sys.argv[1:]:
        check(run)
    print("TensorBoard reads every scalar with its step and value, and every probe picture")


if __name__ == "__main__":
    main()
