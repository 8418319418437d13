#!/usr/bin/env bash
# scripts/sweep_match.py: a sweep batch's per-file table (read from a docs/model_sweep.md-like
# document, the right section only) matched with a scan of its repositories, and a sweep log's
# verdicts compared with the table. A repository made here (owner+demo, laid out as the fetch
# tool's snapshots are) holds a file the table names as the scan does, a file the table numbers
# `_2` (renamed), a C array whose bytes the scan keeps under the plain file's name (the table
# names the C array: alias), two files of one stem of which the table names one (ambiguous, the
# other an extra), a zip member and a C array in `net_0.5x.h` whose bytes the scan keeps under
# plain files' names (the table names the member and `net_0.5x`, the header's name up to its last
# dot: aliases); the table also names a file the snapshot lacks and one of a repository not
# fetched. The manifest must say each of these; the comparison must count same / changed rows
# and name the rows another TFLite engine answered.
source "$(dirname "$0")/lib.bash"
SRC=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
PY=${TFCC_SWEEP_PYTHON:-python3}
command -v git >/dev/null 2>&1 || { echo "SKIP: git needed"; exit 77; }
"$PY" -c 'import argparse' 2>/dev/null || { echo "SKIP: $PY needed"; exit 77; }
X="$SRC/scripts/sweep_extract.py"
M="$SRC/scripts/sweep_match.py"
W=$TMP/mirror/owner+demo/repo
mkdir -p "$W"
g() { git -C "$W" -c user.name=t -c user.email=t@t -c commit.gpgsign=false "$@" >/dev/null 2>&1; }
g init -q
tfl() { mkdir -p "$(dirname "$W/$1")"; printf '\x10\0\0\0TFL3%s' "$2" >"$W/$1"; }
tfl a.tflite plain-file
tfl b.tflite renumbered
tfl model/gesture_model.tflite gesture-bytes
tfl x/m.tflite m-first-one
tfl y/m.tflite m-second-one
tfl lego.tflite zip-member-bytes
tfl nanodet.tflite dotted-header-bytes
"$PY" - "$W" <<'PY'
import sys, zipfile
def carray(name, arr):
    with open(sys.argv[1] + "/" + name, "w") as fh:
        fh.write("const unsigned char g[] = {" + ", ".join("0x%02x" % c for c in arr) + "};\n")
carray("gesture_data.cc", b"\x10\0\0\0TFL3gesture-bytes")
carray("net_0.5x.h", b"\x10\0\0\0TFL3dotted-header-bytes")
with zipfile.ZipFile(sys.argv[1] + "/converted_tflite.zip", "w") as z:
    z.writestr("model_unquant.tflite", b"\x10\0\0\0TFL3zip-member-bytes")
    z.writestr("labels.txt", "0 a\n")
PY
g add -A && g commit -q -m one
echo owner/demo >"$TMP/repos.txt"
expect_rc 0 "scan" -- "$PY" "$X" --out "$TMP/raw" --manifest-out "$TMP/scan.tsv" --repos "$TMP/repos.txt" --mirror "$TMP/mirror"
names=$(cut -f1 "$TMP/scan.tsv" | grep -v '^#' | sort | tr '\n' ' ')
if [ "$names" = "demo__a demo__b demo__gesture_model demo__lego demo__m demo__m_2 demo__nanodet " ]; then ok; else bad "scan names: '$names'"; fi
cat >"$TMP/doc.md" <<'EOF'
# Sweeps

## Twenty-fifth batch, demo files (December 2026, branch demo)

Text.

| model | source repository | TFLite | tfcc | result |
|---|---|---|---|---|
| demo__a | owner/demo | runs (litert) | runs | match: out0 max /diff/ 0 |
| demo__b_2 | owner/demo | runs (litert) | runs | match: out0 max /diff/ 1e-06 |
| demo__gesture_data | owner/demo | runs (litert) | runs | match: out0 max /diff/ 0 LSB, 100.0% exact |
| demo__m | owner/demo | refused: ERROR: x | runs | tfcc runs, TFLite refuses |
| demo__model_unquant | owner/demo | runs (litert) | runs | match: out0 max /diff/ 0 |
| demo__net_0.5x | owner/demo | runs (litert) | runs | match: out0 max /diff/ 0 |
| demo__gone | owner/demo | runs (litert) | runs | match: out0 max /diff/ 0 |
| other__x | owner/other | runs (litert) | refused: tfcc run: error: y | MISMATCH: out0 1 |

## Twenty-sixth batch, not this one

| model | source repository | TFLite | tfcc | result |
|---|---|---|---|---|
| demo__later | owner/demo | runs (litert) | runs | match: out0 max /diff/ 0 |
EOF
expect_rc 0 "match" -- "$PY" "$M" --doc "$TMP/doc.md" --batch "Twenty-fifth batch" --table-out "$TMP/t.tsv" \
  --scan "$TMP/scan.tsv" --fetched "$TMP/repos.txt" --out "$TMP/m.tsv" --mirror "$TMP/mirror"
expect_in "$TMP/out" "rows 8 found 6 renamed 1 alias 3 ambiguous 1 missing 2 (not fetched 1) extra 1" "totals"
if [ "$(wc -l <"$TMP/t.tsv")" = 8 ] && ! grep -q demo__later "$TMP/t.tsv"; then ok; else bad "table read: $(cut -f1 "$TMP/t.tsv" | tr '\n' ' ')"; fi
# row NAME: the manifest line of NAME; sha NAME: the sha256 of a scanned file
row() { awk -F'\t' -v n="$1" '$1 == n' "$TMP/m.tsv"; }
scansha() { awk -F'\t' -v n="$1" '$1 == n { print $7 }' "$TMP/scan.tsv"; }
if [ "$(row demo__a | cut -f7)" = "$(scansha demo__a)" ] && [ "$(row demo__a | cut -f8)" = "" ]; then ok; else bad "demo__a: $(row demo__a)"; fi
if [ "$(row demo__b_2 | cut -f7)" = "$(scansha demo__b)" ]; then ok; else bad "demo__b_2: $(row demo__b_2)"; fi
expect_in "$TMP/m.tsv" "# named demo__b by this scan" "renamed note"
if [ "$(row demo__gesture_data | cut -f7)" = "$(scansha demo__gesture_model)" ]; then ok; else bad "alias: $(row demo__gesture_data)"; fi
expect_in "$TMP/m.tsv" "# the bytes of gesture_data.cc#0, named demo__gesture_model by this scan" "alias note"
if [ "$(row demo__model_unquant | cut -f7)" = "$(scansha demo__lego)" ]; then ok; else bad "zip alias: $(row demo__model_unquant)"; fi
expect_in "$TMP/m.tsv" "# the bytes of converted_tflite.zip!model_unquant.tflite, named demo__lego by this scan" "zip alias note"
if [ "$(row demo__net_0.5x | cut -f7)" = "$(scansha demo__nanodet)" ]; then ok; else bad "dotted alias: $(row demo__net_0.5x)"; fi
expect_in "$TMP/m.tsv" "# the bytes of net_0.5x.h#0, named demo__nanodet by this scan" "dotted alias note"
expect_in "$TMP/m.tsv" "# ambiguous: the snapshot has 2 files of this stem, the table 1" "ambiguous note"
if [ "$(row demo__gone | cut -f3-7)" = "$(printf -- '-\t-\t-\t-\t-')" ]; then ok; else bad "demo__gone: $(row demo__gone)"; fi
expect_in "$TMP/m.tsv" "# not found in snapshot" "missing row"
expect_in "$TMP/m.tsv" "# not fetched" "row of a repository not fetched"
expect_in "$TMP/out" "EXTRA demo__m_2 owner/demo y/m.tflite" "extra"
# the manifest rebuilds the files the table names, under the table's names
expect_rc 1 "rebuild" -- "$PY" "$X" --out "$TMP/again" --manifest "$TMP/m.tsv" --mirror "$TMP/mirror"
if cmp -s "$TMP/raw/demo__gesture_model.tflite" "$TMP/again/demo__gesture_data.tflite"; then ok; else bad "alias row rebuilt"; fi
# verdicts: a log with one row as in the table, one changed, one the table lacks
cat >"$TMP/sweep.log" <<'EOF'
demo__a            | runs (litert) | runs | match: out0 max |diff| 2e-07
demo__b_2          | runs (litert) | runs | MISMATCH: out0 max |diff| 3
demo__m            | refused: ERROR: x | runs | tfcc runs, TFLite refuses
demo__new          | runs (litert) | runs | match: out0 max |diff| 0
EOF
expect_rc 0 "compare" -- "$PY" "$M" --table "$TMP/t.tsv" --compare "$TMP/sweep.log"
expect_in "$TMP/out" "swept 4 same 2 changed 1" "compare totals"
expect_in "$TMP/out" "CHANGED demo__b_2" "changed row"
expect_in "$TMP/out" "NOT IN TABLE demo__new" "row not in the table"
# the same verdict from the other TFLite engine (the oracle's fallback): an ENGINE line, counted
cat >"$TMP/sweep2.log" <<'EOF'
demo__a            | runs (litert) | runs | match: out0 max |diff| 0
demo__gesture_data | runs (tfweb) | runs | match: out0 max |diff| 0 LSB, 100.0% exact
EOF
expect_rc 0 "compare, engine" -- "$PY" "$M" --table "$TMP/t.tsv" --compare "$TMP/sweep2.log"
expect_in "$TMP/out" "swept 2 same 2 changed 0 other engine 1" "compare totals, engine"
expect_in "$TMP/out" "ENGINE demo__gesture_data | table: litert | now: tfweb" "engine row"
if grep -q "ENGINE demo__a" "$TMP/out"; then bad "ENGINE line for a row of the table's engine"; else ok; fi
expect_rc 2 "no such batch" -- "$PY" "$M" --doc "$TMP/doc.md" --batch "Fortieth batch" --compare "$TMP/sweep.log"
expect_in "$TMP/err" "no per-file table under a '## Fortieth batch' heading" "no such batch message"
finish
