#!/usr/bin/python3
"""Matches a model-sweep batch's per-file table (docs/model_sweep.md) with a scan of its repositories
(scripts/sweep_extract.py --manifest-out), writing the batch's manifest for docs/sweep_corpus/; and
compares a sweep's verdicts with the table's.

The table: `--doc docs/model_sweep.md --batch PREFIX` reads the "| model | source repository |
TFLite | tfcc | result |" table of the section whose "## " heading starts with PREFIX (for example
"Twenty-fifth batch"); or `--table T.tsv` (name, repository, TFLite, tfcc, result, tab-separated).
`--table-out T.tsv` writes the table read.

Matching (`--scan SCAN.tsv --out M.tsv`), each table row in turn:
  1. the scan's row of the same name and repository;
  2. else the first unused scan row of the same repository and stem (the name less its `_N`): the
     batch numbered the `_N` in another repository order, or dropped files as copies of earlier
     batches; noted "# named X by this scan";
  3. else the bytes of a C array of a text file of that repository and stem (`STEM.cc`, `STEM.h`,
     the stem the text file's name up to its first or its last dot, newest first, as the batch's
     extractor met them) or of a zip member of that stem (`ZIP!STEM.tflite`) that the scan keeps
     under another name (sweep_extract.py keeps a plain file rather than a C array or a zip member
     of the same bytes, and names a C array by its first dot; the twenty-sixth and twenty-seventh
     batches kept the C array's or the member's name: Snookmz/sea_urchin's `model_unquant_2` is the
     zip member of `lego_sea_urchin.tflite`'s bytes); needs the snapshots (`--mirror`); noted
     "# the bytes of TEXT#N (ZIP!MEMBER), named X by this scan";
  4. else a "-" row: "not fetched" (repository not in `--fetched LIST`) or "not found in snapshot".
A matched row is noted "# ambiguous" when the snapshot holds more files of its repository and stem
than the table names (which file had which `_N` is then a guess). Printed: totals, then MISSING,
RENAMED, ALIAS, AMBIGUOUS and EXTRA (scan rows of the fetched repositories no table row took) lines.

Comparing (`--compare LOG [LOG ...]`, logs of scripts/sweep_models.py): for each file swept, the
TFLite and tfcc columns (runs / refused / unreadable / timeout ...) and the result's kind (match,
MISMATCH, both refuse ...) against the table's; prints CHANGED lines, NOT IN TABLE lines, ENGINE
lines (a file TFLite runs in another engine than the table's: "runs (litert)" / "runs (tfweb)")
and the totals "swept N same N changed N other engine N". Exit status 0; 2 on bad arguments or a
table not found.
"""
import argparse
import hashlib
import os
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_extract  # noqa: E402

HEADER = "| model | source repository | TFLite | tfcc | result"


def table_from_doc(doc, prefix):
    lines = open(doc, encoding="utf-8").read().split("\n")
    heads = [i for i, line in enumerate(lines) if line.startswith("## ")]
    start = [i for i in heads if lines[i][3:].startswith(prefix)]
    if not start:
        return None
    end = min([h for h in heads if h > start[0]] + [len(lines)])
    rows = []
    for i in range(start[0], end):
        if not lines[i].startswith(HEADER):
            continue
        j = i + 2
        while j < end and lines[j].startswith("| "):
            f = [x.strip() for x in lines[j].strip().strip("|").split(" | ")]
            rows.append(f[:4] + [" | ".join(f[4:])])
            j += 1
    return rows


def table_from_tsv(path):
    return [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8") if line.strip()
            and not line.startswith("#")]


def base(name):
    return re.sub(r"_\d+$", "", name)


def scan_stem(row):
    """The stem sweep_extract.py named a scan row by (its path's file, zip member or text file)."""
    path = row[3]
    m = re.search(r"(![^!]*|#\d+)$", path)
    carray = bool(m and m.group(1).startswith("#"))
    if m and not carray:
        path = m.group(1)[1:]
    elif m:
        path = path[:m.start()]
    return sweep_extract.stem_of(path, carray)


def prefix_of(name):
    return name.split("__")[0] + "__"


def embedded(repo, stem, mirror):
    """[(path#N or path!MEMBER, sha256)] of the C arrays in the repository's text files of this stem
    (the name up to its first dot, or up to its last: nanodet_m_0.5x_nhwc_tflite.h) and of the
    members of this stem of its zip files (.zip, .task), newest first."""
    gitdir = sweep_extract.gitdir_of(repo, mirror)
    if not gitdir:
        return []
    out = []
    seen = set()
    objs = sweep_extract.git(gitdir, "rev-list", "--all", "--objects", "--missing=allow-any").decode(
        "utf-8", "replace").split("\n")
    for line in objs:
        parts = line.split(" ", 1)
        if len(parts) != 2 or parts[0] in seen:
            continue
        path = parts[1]
        is_text = stem in (sweep_extract.stem_of(path, True), sweep_extract.stem_of(path, False))
        is_zip = path.lower().endswith((".zip", ".task"))
        if not is_text and not is_zip:
            continue
        seen.add(parts[0])
        data = sweep_extract.git(gitdir, "cat-file", "blob", parts[0])
        if is_zip and sweep_extract.is_zip(data):
            for member, arr in sweep_extract.zip_members(data):
                if sweep_extract.stem_of(member.split("!")[-1]) == stem:
                    out.append(("%s!%s" % (path, member), hashlib.sha256(arr).hexdigest()))
        elif is_text:
            for n, arr in enumerate(sweep_extract.c_arrays(data)):
                out.append(("%s#%d" % (path, n), hashlib.sha256(arr).hexdigest()))
    return out


def match(table, scan, fetched, mirror):
    byname = {r[0]: r for r in scan}
    got, note, used = {}, {}, set()
    for t in table:
        r = byname.get(t[0])
        if r and r[1] == t[1]:
            got[t[0]] = r
            used.add(r[0])
    for t in table:
        if t[0] in got:
            continue
        pre, b = prefix_of(t[0]), base(t[0])
        for r in scan:
            if r[1] == t[1] and r[0] not in used and pre + scan_stem(r) in (t[0], b):
                got[t[0]] = r
                used.add(r[0])
                note[t[0]] = "# named %s by this scan" % r[0]
                break
    arrays = {}
    for t in table:
        if t[0] in got or t[1] not in fetched:
            continue
        key = (t[1], base(t[0])[len(prefix_of(t[0])):])
        if key not in arrays:
            arrays[key] = embedded(t[1], key[1], mirror)
        bysha = {r[6]: r for r in scan if r[1] == t[1] and r[0] not in used}
        for path, sha in arrays[key]:
            if sha in bysha:
                r = bysha[sha]
                got[t[0]] = r
                used.add(r[0])
                note[t[0]] = "# the bytes of %s, named %s by this scan" % (path, r[0])
                arrays[key] = [a for a in arrays[key] if a[1] != sha]
                break
    # (repository, stem) groups; a scan row a C array's row took counts in that row's group
    def tkey(t):
        return (t[1], base(t[0])[len(prefix_of(t[0])):])

    taker = {r[0]: tkey(t) for t in table for r in [got.get(t[0])] if r}
    tg = Counter(tkey(t) for t in table)
    sg = Counter(taker.get(r[0], (r[1], scan_stem(r))) for r in scan)
    for t in table:
        k = tkey(t)
        if t[0] in got and sg.get(k, 0) > tg[k]:
            note[t[0]] = (note.get(t[0], "") + "\t# ambiguous: the snapshot has %d files of this stem, the table %d"
                          % (sg[k], tg[k])).lstrip("\t")
    extra = [r for r in scan if r[0] not in used and r[1] in fetched]
    return got, note, extra


def write_manifest(out, table, got, note, fetched):
    missing = []
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("# name\trepository\tcommit\tpath\tblob\tsize\tsha256\n")
        for t in table:
            if t[0] in got:
                line = "\t".join([t[0]] + got[t[0]][1:7])
                fh.write(line + ("\t" + note[t[0]] if t[0] in note else "") + "\n")
            else:
                why = "not fetched" if t[1] not in fetched else "not found in snapshot"
                missing.append((t[0], t[1], why))
                fh.write("\t".join([t[0], t[1]] + ["-"] * 5) + "\t# " + why + "\n")
    return missing


def state(col):
    col = col.strip()
    for k in ("runs", "refused", "unreadable", "timeout", "timed out", "no input", "-"):
        if col.startswith(k):
            return k
    return col[:20]


def engine(col):
    """The TFLite engine a "runs (litert)" / "runs (tfweb)" column names, else None."""
    m = re.match(r"\s*runs \((\w+)\)", col)
    return m.group(1) if m else None


def kind(result):
    result = result.strip().rstrip("|").strip()
    return re.split(r"[:(]", result)[0].strip() if result else ""


def compare(table, logs):
    want = {t[0]: (state(t[2]), state(t[3]), kind(t[4]), t[4]) for t in table if len(t) >= 5}
    got, got_engine = {}, {}
    for log in logs:
        for line in open(log, encoding="utf-8", errors="replace"):
            if line.count(" | ") < 3:
                continue
            f = line.rstrip("\n").split(" | ")
            rest = " | ".join(f[3:])
            got[f[0].strip()] = (state(f[1]), state(f[2]), kind(rest), rest)
            got_engine[f[0].strip()] = engine(f[1])
    want_engine = {t[0]: engine(t[2]) for t in table if len(t) >= 5}
    same = changed = other_engine = 0
    for name, g in sorted(got.items()):
        if name not in want:
            print("NOT IN TABLE", name, "|", g[3][:110])
            continue
        w = want[name]
        we, ge = want_engine[name], got_engine[name]
        if we and ge and we != ge:
            # the oracle falls back to the classic interpreter where LiteRT.js refuses a file: the
            # same verdict from another engine says the file or the oracle changed
            other_engine += 1
            print("ENGINE", name, "| table:", we, "| now:", ge)
        if w[:3] == g[:3]:
            same += 1
        else:
            changed += 1
            print("CHANGED", name, "| table:", w[0], "/", w[1], "/", w[3][:110], "| now:", g[0], "/", g[1], "/",
                  g[3][:110])
    print("swept %d same %d changed %d other engine %d" % (len(got), same, changed, other_engine))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doc", help="docs/model_sweep.md")
    ap.add_argument("--batch", help="the section's heading, its start (with --doc)")
    ap.add_argument("--table", help="the table as TSV instead of --doc / --batch")
    ap.add_argument("--table-out", help="write the table read as TSV")
    ap.add_argument("--scan", help="sweep_extract.py --manifest-out of the fetched repositories")
    ap.add_argument("--fetched", help="lines owner/name: the repositories scanned (default: the scan's)")
    ap.add_argument("--out", help="the manifest to write (with --scan)")
    ap.add_argument("--mirror", default=sweep_extract.MIRROR)
    ap.add_argument("--compare", nargs="+", metavar="LOG", help="sweep_models.py logs to compare with the table")
    a = ap.parse_args()
    if a.table:
        table = table_from_tsv(a.table)
    elif a.doc and a.batch:
        table = table_from_doc(a.doc, a.batch)
        if not table:
            print("sweep_match: no per-file table under a '## %s' heading in %s" % (a.batch, a.doc), file=sys.stderr)
            return 2
    else:
        print("sweep_match: give --table or --doc and --batch", file=sys.stderr)
        return 2
    if a.table_out:
        with open(a.table_out, "w", encoding="utf-8") as fh:
            for t in table:
                fh.write("\t".join(t) + "\n")
    if a.scan:
        if not a.out:
            print("sweep_match: --scan needs --out", file=sys.stderr)
            return 2
        scan = [r for r in table_from_tsv(a.scan) if len(r) >= 7]
        fetched = set(r[1] for r in scan)
        if a.fetched:
            fetched |= set(line.strip() for line in open(a.fetched) if line.strip() and not line.startswith("#"))
        got, note, extra = match(table, scan, fetched, a.mirror)
        missing = write_manifest(a.out, table, got, note, fetched)
        print("rows %d found %d renamed %d alias %d ambiguous %d missing %d (not fetched %d) extra %d" % (
            len(table), len(got), sum(1 for n in note.values() if n.startswith("# named")),
            sum(1 for n in note.values() if n.startswith("# the bytes")),
            sum(1 for n in note.values() if "ambiguous" in n), len(missing),
            sum(1 for m in missing if m[2] == "not fetched"), len(extra)))
        for m in missing:
            if m[2] != "not fetched":
                print("MISSING", *m)
        for t in table:
            n = note.get(t[0], "")
            if n.startswith("# named"):
                print("RENAMED", t[0], "<-", got[t[0]][0], got[t[0]][3])
            elif n.startswith("# the bytes"):
                print("ALIAS", t[0], n[2:].split("\t")[0])
            if "ambiguous" in n:
                print("AMBIGUOUS", t[0])
        for r in extra:
            print("EXTRA", r[0], r[1], r[3], r[5])
    if a.compare:
        compare(table, a.compare)
    return 0


if __name__ == "__main__":
    sys.exit(main())
