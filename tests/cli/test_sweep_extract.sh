#!/usr/bin/env bash
# scripts/sweep_extract.py: the model sweeps' extractor and manifest. A repository made here
# (owner+demo, laid out as the fetch tool's snapshots are) holds, over two commits: a .tflite
# rewritten in the second commit (both versions are found, the newest named first), another file
# of the same name in another folder (NAME_2), a byte copy in a zip (kept once), a C array of a .tflite's bytes (the .tflite kept), a file name with spaces
# and brackets, a TFLite file of another extension, a zip member, a member of a zip with two bytes
# before its first header (MediaPipe's face_landmarker.task), a C array of 0x.. bytes (named up to its first dot),
# a C array that is no TFLite file, a .tflite of 4 MiB (left out) and a file that only says TFL3
# elsewhere; a second repository whose .tflite only a merge commit added (in neither parent: plain
# `git log --raw` shows merges no diff, so its commit was "-"). The manifest must name each file, its repository, a commit holding it, its path,
# blob id, size and sha256; the rebuild from the manifest must give the same bytes and refuse a
# row whose sha256 differs.
source "$(dirname "$0")/lib.bash"
SRC=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
PY=${TFCC_SWEEP_PYTHON:-python3}
command -v git >/dev/null 2>&1 || { echo "SKIP: git needed"; exit 77; }
"$PY" -c 'import zipfile' 2>/dev/null || { echo "SKIP: $PY needed"; exit 77; }
X="$SRC/scripts/sweep_extract.py"
W=$TMP/mirror/owner+demo/repo
mkdir -p "$W"
g() { git -C "$W" -c user.name=t -c user.email=t@t -c commit.gpgsign=false "$@" >/dev/null 2>&1; }
g init -q
# tfl NAME PAYLOAD: a file whose bytes 4..8 are TFL3
tfl() { mkdir -p "$(dirname "$W/$1")"; printf '\x10\0\0\0TFL3%s' "$2" >"$W/$1"; }
tfl models/a.tflite first-version
g add -A && g commit -q -m one
C1=$(git -C "$W" rev-parse HEAD)
tfl models/a.tflite second-version
tfl other/a.tflite other-folder
tfl "m (1).tflite" brackets
tfl weights.bin no-extension
printf 'no TFL3 here, only TFL3 at byte 16' >"$W/notes.txt"
mkdir -p "$W/zip"
"$PY" - "$W" <<'PY'
import sys, zipfile
w = sys.argv[1]
with zipfile.ZipFile(w + "/zip/converted_tflite.zip", "w") as z:
    z.writestr("model_unquant.tflite", b"\x10\0\0\0TFL3zip-member")
    z.writestr("labels.txt", b"a\nb\n")
    z.writestr("copy.tflite", b"\x10\0\0\0TFL3other-folder")  # other/a.tflite's bytes
# MediaPipe's face_landmarker.task: two zero bytes, then the zip (zipfile reads it)
import io
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    z.writestr("face_detector.tflite", b"\x10\0\0\0TFL3task-member")
    z.writestr("geometry.binarypb", b"\x08\0\x10\0")
with open(w + "/face_landmarker.task", "wb") as fh:
    fh.write(b"\0\0" + buf.getvalue())
arr = b"\x10\0\0\0TFL3c-array"
with open(w + "/model_data.cc.orig", "w") as fh:
    fh.write("const unsigned char g_model[] = {\n  " + ", ".join("0x%02x" % c for c in arr) + "\n};\n")
    fh.write("const unsigned char other[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};\n")
# the bytes of models/a.tflite as a C array listed before it: the plain file is kept
import os
os.makedirs(w + "/aa", exist_ok=True)
with open(w + "/aa/a_aligned.cc", "w") as fh:
    fh.write("alignas(16) const unsigned char a[] = {" + ", ".join("0x%02x" % c for c in b"\x10\0\0\0TFL3second-version") + "};\n")
with open(w + "/big.tflite", "wb") as fh:
    fh.write(b"\x10\0\0\0TFL3" + b"\0" * (4 << 20))
PY
g add -A && g commit -q -m two
C2=$(git -C "$W" rev-parse HEAD)
echo owner/demo >"$TMP/repos.txt"
OUT=$TMP/raw
expect_rc 0 "scan" -- "$PY" "$X" --out "$OUT" --manifest-out "$TMP/m.tsv" --repos "$TMP/repos.txt" --mirror "$TMP/mirror"
names=$(cut -f1 "$TMP/m.tsv" | sort | tr '\n' ' ')
want="demo__a demo__a_2 demo__a_3 demo__face_detector demo__m__1_ demo__model_data demo__model_unquant demo__weights "
if [ "$names" = "$want" ]; then ok; else bad "names: '$names', wanted '$want'"; fi
# row NAME: the manifest line of NAME
row() { awk -F'\t' -v n="$1" '$1 == n' "$TMP/m.tsv"; }
sha() { "$PY" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }
# the newest commit's version takes the plain name, the first commit's version comes last
expect_row() {
  local name=$1 commit=$2 path=$3 content=$4 r
  r=$(row "$name")
  if [ "$(cut -f2 <<<"$r")" = owner/demo ] && [ "$(cut -f3 <<<"$r")" = "$commit" ] \
    && [ "$(cut -f4 <<<"$r")" = "$path" ]; then ok; else bad "$name: row '$r', wanted $commit $path"; fi
  if [ "$(cut -f7 <<<"$r")" = "$(sha "$OUT/$name.tflite")" ] \
    && [ "$(cut -f6 <<<"$r")" = "$(stat -c %s "$OUT/$name.tflite")" ]; then ok; else bad "$name: sha256 / size of the row"; fi
  if printf '\x10\0\0\0TFL3%s' "$content" | cmp -s - "$OUT/$name.tflite"; then ok; else bad "$name: bytes"; fi
}
expect_row demo__a "$C2" models/a.tflite second-version
expect_row demo__a_2 "$C2" other/a.tflite other-folder
expect_row demo__a_3 "$C1" models/a.tflite first-version
expect_row demo__m__1_ "$C2" "m (1).tflite" brackets
expect_row demo__weights "$C2" weights.bin no-extension
expect_row demo__model_unquant "$C2" 'zip/converted_tflite.zip!model_unquant.tflite' zip-member
expect_row demo__face_detector "$C2" 'face_landmarker.task!face_detector.tflite' task-member
expect_row demo__model_data "$C2" 'model_data.cc.orig#0' c-array
# blob ids: the git blob of the path (of the zip for a member)
if [ "$(row demo__model_unquant | cut -f5)" = "$(git -C "$W" rev-parse HEAD:zip/converted_tflite.zip)" ]; then ok
else bad "zip member's blob is not the zip's"; fi
# rebuild from the manifest into an empty folder: the same bytes
expect_rc 0 "rebuild" -- "$PY" "$X" --out "$TMP/again" --manifest "$TMP/m.tsv" --mirror "$TMP/mirror"
expect_in "$TMP/out" "8 of 8 manifest rows" "rebuild count"
for f in "$OUT"/*.tflite; do
  if cmp -s "$f" "$TMP/again/$(basename "$f")"; then ok; else bad "rebuilt $(basename "$f") differs"; fi
done
# --group: only the rows under that "# group NAME" line (batch32 / batch33 were swept in folders
# raw1, raw2 ...; each rebuilt apart keeps its files' seeds)
{
  echo "# a header comment"
  echo "# group raw1"
  grep -v '^#' "$TMP/m.tsv" | head -n 3
  echo "# group raw2"
  grep -v '^#' "$TMP/m.tsv" | tail -n +4
} >"$TMP/groups.tsv"
expect_rc 0 "rebuild, group raw2" -- "$PY" "$X" --out "$TMP/g2" --manifest "$TMP/groups.tsv" --group raw2 --mirror "$TMP/mirror"
expect_in "$TMP/out" "5 of 5 manifest rows" "group raw2 count"
want2=$(grep -v '^#' "$TMP/m.tsv" | tail -n +4 | cut -f1 | sed 's/$/.tflite/' | sort | tr '\n' ' ')
got2=$(ls "$TMP/g2" | sort | tr '\n' ' ')
if [ "$got2" = "$want2" ]; then ok; else bad "group raw2 wrote '$got2', wanted '$want2'"; fi
expect_rc 0 "rebuild, group raw1" -- "$PY" "$X" --out "$TMP/g1" --manifest "$TMP/groups.tsv" --group raw1 --mirror "$TMP/mirror"
expect_in "$TMP/out" "3 of 3 manifest rows" "group raw1 count"
expect_rc 2 "rebuild, no such group" -- "$PY" "$X" --out "$TMP/g9" --manifest "$TMP/groups.tsv" --group raw9 --mirror "$TMP/mirror"
expect_in "$TMP/err" "no rows of group raw9" "unknown group named"
# a row whose sha256 differs is refused, and so is a repository without a snapshot
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "demo__model_data" { $7 = "0" $7 } { print }' "$TMP/m.tsv" >"$TMP/bad.tsv"
printf 'gone__x\tnobody/gone\t-\tx.tflite\t%s\t3\t%s\n' "$(row demo__a | cut -f5)" "$(row demo__a | cut -f7)" >>"$TMP/bad.tsv"
expect_rc 1 "rebuild, bad rows" -- "$PY" "$X" --out "$TMP/bad" --manifest "$TMP/bad.tsv" --mirror "$TMP/mirror"
expect_in "$TMP/out" "sha256 differs or file absent: demo__model_data" "sha256 check"
expect_in "$TMP/out" "no snapshot: gone__x (nobody/gone)" "missing snapshot"
expect_in "$TMP/out" "7 of 9 manifest rows" "rebuild count, bad rows"
if [ ! -e "$TMP/bad/demo__model_data.tflite" ]; then ok; else bad "a file whose sha256 differs was written"; fi
# a file only a merge commit added: the manifest names that merge
M=$TMP/mirror/owner+merged/repo
mkdir -p "$M"
gm() { git -C "$M" -c user.name=t -c user.email=t@t -c commit.gpgsign=false "$@" >/dev/null 2>&1; }
gm init -q -b main
printf 'readme' >"$M/README" && gm add -A && gm commit -q -m base
gm checkout -q -b side && printf 'side' >"$M/side.txt" && gm add -A && gm commit -q -m side
gm checkout -q main && printf 'main' >"$M/main.txt" && gm add -A && gm commit -q -m main
gm merge -q --no-commit --no-ff side
mkdir -p "$M/assets/ml" && printf '\x10\0\0\0TFL3merge-only' >"$M/assets/ml/model.tflite"
gm add -A && gm commit -q -m merge
CM=$(git -C "$M" rev-parse HEAD)
echo owner/merged >"$TMP/repos2.txt"
expect_rc 0 "scan, merge" -- "$PY" "$X" --out "$TMP/raw2" --manifest-out "$TMP/m2.tsv" --repos "$TMP/repos2.txt" --mirror "$TMP/mirror"
r=$(awk -F'\t' '$1 == "merged__model"' "$TMP/m2.tsv")
if [ "$(cut -f3 <<<"$r")" = "$CM" ] && [ "$(cut -f4 <<<"$r")" = assets/ml/model.tflite ]; then ok
else bad "merge-only file: row '$r', wanted $CM assets/ml/model.tflite"; fi
finish
