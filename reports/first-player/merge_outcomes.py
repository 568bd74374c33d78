"""Merges the outcome searches (reports/first-player/outcomes/*.json, from
`hoyito solve --start --outcome --json`) into exact.json: each start's entry
gains `outcome` (W, D or L for South, or null), `outcome_status` (proved,
bounds or open), `outcome_bounds` (with `outcome_margin` where threshold
certificates close them), `outcome_method`, `outcome_certificates`,
and the search's nodes, seconds and memory; a start with no entry yet gets
one whose `status` is `outcome` (what the outcome search reached is in
`outcome_status`). Lines that do not
change are kept byte for byte, in the one-entry-a-line layout of exact.sh."""
import json
import os
import sys

exact_path, *outcome_paths = sys.argv[1:]
with open(exact_path) as f:
    lines = f.read().split("\n")
begin = lines.index('  "start_positions": [')
end = lines.index("  ],", begin)
raw = [l.strip().rstrip(",") for l in lines[begin + 1 : end]]
starts = [[json.loads(r), r] for r in raw]


def line(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


# Threshold answers ("South's margin at least T?", one question a file, in
# outcomes/thresholds/) narrow a start's bounds after its outcome is merged;
# split proofs (outcomes/split/, from shard_tree.py) come last.
outcome_paths.sort(key=lambda p: ("/thresholds/" in p, "/split/" in p))
for path in outcome_paths:
    with open(path) as f:
        o = json.load(f)
    key = (o["variant"], o["holes"])
    if "/split/" in path:
        entry = next(s[0] for s in starts if (s[0]["variant"], s[0]["holes"]) == key)
        settled = [s for s in o["shards"] if not s["answer"].startswith("open")]
        entry["outcome_split"] = {
            "file": path,
            "shards": len(o["shards"]),
            "settled": len(settled),
            "open": [s["after"] for s in o["shards"] if s["answer"].startswith("open")],
            "joins": [{k: j[k] for k in ("claim", "joined", "command")} for j in o["joins"]],
            "nodes": sum(s["nodes"] for s in o["shards"]),
            "seconds": round(sum(s["seconds"] for s in o["shards"]), 1),
        }
        # A join that reaches the start settles the draw question left open.
        for j in o["joins"]:
            claim = j["joined"]
            if claim is None or " after " in claim.split(":")[0]:
                continue
            side, bound = claim.split(": ")[1].split("'s margin is at least ")
            bound = int(bound)
            low, high = entry["outcome_bounds"]
            if side == "south":
                low = bound if low is None else max(low, bound)
            else:
                high = -bound if high is None else min(high, -bound)
            entry["outcome_bounds"] = [low, high]
            if high is not None and high < 0:
                entry["outcome"], entry["outcome_status"] = "L", "proved"
            elif low is not None and low > 0:
                entry["outcome"], entry["outcome_status"] = "W", "proved"
            elif low == 0 and high == 0:
                entry["outcome"], entry["outcome_status"] = "D", "proved"
        next(s for s in starts if s[0] is entry)[1] = None
        continue
    if "/thresholds/" in path:
        entry = next(s[0] for s in starts if (s[0]["variant"], s[0]["holes"]) == key)
        entry.setdefault("outcome_thresholds", []).append(
            {
                "question": o["answers"][0]["question"],
                "answer": o["answers"][0]["answer"],
                "certificates": [
                    {k: c[k] for k in ("file", "claim", "nodes", "bytes", "fnv64")}
                    for c in o["certificates"]
                ],
                "nodes": o["nodes"],
                "seconds": o["seconds"],
            }
        )
        low, high = entry["outcome_bounds"]
        if o["lower"] is not None:
            low = o["lower"] if low is None else max(low, o["lower"])
        if o["upper"] is not None:
            high = o["upper"] if high is None else min(high, o["upper"])
        entry["outcome_bounds"] = [low, high]
        # Bounds that meet are the exact margin, proved by certificates.
        if low is not None and low == high:
            entry["outcome_margin"] = low
        next(s for s in starts if s[0] is entry)[1] = None
        continue
    found = next((s for s in starts if (s[0]["variant"], s[0]["holes"]) == key), None)
    if found is None:
        found = [
            {
                "variant": o["variant"],
                "holes": o["holes"],
                "seeds": o["seeds"],
                "status": "outcome",
                "margin": None,
            },
            None,
        ]
        starts.append(found)
    entry = found[0]
    # Thresholds and splits are merged again below, after every outcome.
    entry.pop("outcome_thresholds", None)
    entry.pop("outcome_split", None)
    entry.pop("outcome_margin", None)
    entry["outcome"] = o["outcome"]
    entry["outcome_status"] = o["status"]
    entry["outcome_bounds"] = [o["lower"], o["upper"]]
    entry["outcome_answers"] = o["answers"]
    entry["outcome_open"] = o["open"]
    entry["outcome_method"] = o["method"]
    entry["outcome_certificates"] = [
        {k: c[k] for k in ("file", "claim", "nodes", "bytes", "fnv64")} for c in o["certificates"]
    ]
    for k in ("nodes", "seconds", "table_mb", "peak_mb", "exact_up_to"):
        entry["outcome_" + k] = o[k]
    found[1] = None
order = {"i": 0, "ii": 1, "iii": 2}
# Boards up to 2x6 keep their order (sorted() is stable); larger ones follow
# by board, then variant.
starts.sort(key=lambda s: (s[0]["holes"], order[s[0]["variant"]]) if s[0]["holes"] >= 7 else (0, 0))
rows = ",\n".join("    " + (r if r is not None else line(e)) for e, r in starts)
out = "\n".join(lines[: begin + 1]) + "\n" + rows + "\n" + "\n".join(lines[end:])
with open(exact_path + ".part", "w") as f:
    f.write(out)
os.replace(exact_path + ".part", exact_path)
