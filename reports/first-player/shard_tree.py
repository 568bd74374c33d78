#!/usr/bin/env python3
"""Collects the shards of a split proof (reports/first-player/outcome_shards.sh,
one directory per split position, each with json/K.json) into one JSON file
and a Markdown table: for every shard, the line from the start, who moves
there, the question, the answer, nodes and seconds, and its certificate.

  python3 reports/first-player/shard_tree.py OUT.json SHARD_DIR...

The certificates are copied next to OUT.json, into a folder named after it
(without .json), so that `hoyito verify-proof --join` can be run on them.
"""
import json
import os
import shutil
import subprocess
import sys


def main():
    out, *dirs = sys.argv[1:]
    cert_dir = out[: -len(".json")]
    os.makedirs(cert_dir, exist_ok=True)
    shards = []
    for d in dirs:
        for name in sorted(os.listdir(os.path.join(d, "json")), key=lambda n: int(n.split(".")[0])):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(d, "json", name)) as f:
                o = json.load(f)
            certs = []
            for c in o["certificates"]:
                dest = os.path.join(cert_dir, os.path.basename(c["file"]))
                shutil.copyfile(c["file"], dest)
                certs.append({"file": dest, "claim": c["claim"], "nodes": c["nodes"],
                              "bytes": c["bytes"], "fnv64": c["fnv64"]})
            shards.append({
                "after": o["after"],
                "question": o["answers"][0]["question"],
                "answer": o["answers"][0]["answer"],
                "nodes": o["nodes"],
                "seconds": o["seconds"],
                "table_mb": o["table_mb"],
                "certificates": certs,
            })
    shards.sort(key=lambda s: [int(m) if m.isdigit() else 99 for m in s["after"].split()])
    # What the certificates prove together, by the project's own check: one
    # join per claim (South's proofs and North's proofs join separately).
    hoyito = os.environ.get("HOYITO", "target/release/hoyito")
    claims = {}
    for sh in shards:
        for c in sh["certificates"]:
            claims.setdefault(c["claim"].split(": ", 1)[1], []).append(c["file"])
    joins = []
    for claim, files in sorted(claims.items()):
        r = subprocess.run([hoyito, "verify-proof", "--join", *sorted(files)],
                           capture_output=True, text=True)
        side, bound = claim.split("'s margin is at least ")
        suffix = f"{side}-at-least-{bound}".replace("at-least--", "at-least-minus-")
        j = {"claim": claim, "certificates": len(files),
             "command": f"hoyito verify-proof --join {cert_dir}/*-{suffix}.proof"}
        if r.returncode == 0:
            j["joined"] = r.stdout.strip().splitlines()[-1].removeprefix("joined: ")
        else:
            j["joined"] = None
            j["refused"] = r.stderr.strip().splitlines()[-1].removeprefix("error: ")
        joins.append(j)
    with open(out + ".part", "w") as f:
        json.dump({"variant": o["variant"], "holes": o["holes"],
                   "joins": joins, "shards": shards}, f, indent=1)
        f.write("\n")
    os.replace(out + ".part", out)
    for j in joins:
        print(json.dumps(j), file=sys.stderr)
    print("| after | answer to \"" + shards[0]["question"] + "\" | nodes | seconds | certificate positions |")
    print("|---|---|---|---|---|")
    for s in shards:
        cert = ", ".join(f"{c['nodes']:,}" for c in s["certificates"]) or "—"
        print(f"| {s['after']} | {s['answer']} | {s['nodes']:,} | {s['seconds']} | {cert} |")


if __name__ == "__main__":
    main()
