#!/usr/bin/python3
"""Extracts the .tflite files of fetched repository snapshots the way the model sweeps' batches did,
and writes (or follows) a manifest that says which file of which repository each one is.

A snapshot is a bare git directory (what the `fetch` tool prints: /work/.mirror/OWNER+NAME/repo,
or .../repo/.git). Every object of every ref is looked at (`git rev-list --all --objects
--missing=allow-any`), not only the newest commit:
  - a blob whose bytes 4..8 are "TFL3" (a TensorFlow Lite FlatBuffer, any file name);
  - the members of a zip blob (Teachable Machine's converted_tflite.zip, MediaPipe's .task
    bundles, also an archive with bytes before its first header, as MediaPipe's
    face_landmarker.task; one level of zips inside) whose bytes 4..8 are "TFL3";
  - C arrays of 0x.. bytes in a text blob (tflite-micro's model_data.cc, ESP32 sketches' .h)
    whose bytes 4..8 are "TFL3";
files of 4 MiB and more are left out (the snapshots lack them too). Files are named as the
batch tables of docs/model_sweep.md name them: REPO__STEM (REPO the repository's name without
its owner, STEM the file name without its last extension, for a zip member the member's; for a C
array the text file's name up to its first dot), every character other than A-Z a-z 0-9 . _ - written as _,
and the second, third ... distinct file with a name already taken in the run named NAME_2,
NAME_3 ... (in the order rev-list lists the objects, newest commits first). Copies are kept once
by sha256 (the first name wins, but a plain file
rather than a zip member or C array of the same bytes in its repository).

Manifest (tab-separated, '#' lines are comments), one line per file:
  name  repository  commit  path  blob  size  sha256
path is the path in that commit; "ZIPPATH!MEMBER" for a zip member, "TEXTPATH#N" for the Nth
(from 0) C array of a text file; blob is the git blob id of PATH (of the zip or text file), so the
file can be found again in any snapshot that holds that blob; size and sha256 are the .tflite's.

Usage (Debian's Python or any python3, standard library only):
  scan:    sweep_extract.py --out RAWDIR --manifest-out M.tsv GITDIR [GITDIR ...]
           (or --repos LIST: lines "owner/name", the git dirs looked up under --mirror)
  rebuild: sweep_extract.py --out RAWDIR --manifest M.tsv [--repos-from-manifest] [GITDIR ...]
           writes every manifest row it finds as RAWDIR/NAME.tflite after checking its sha256;
           prints the rows not found (no snapshot, blob absent) or whose sha256 differs, exit
           status 1 if any. --group NAME: only the rows under the manifest's "# group NAME"
           line (a batch swept in several folders: each folder rebuilt apart keeps its seeds),
           exit status 2 if none.
--skip-sha FILE: sha256s (first word of each line) not to keep (files of earlier batches).
"""
import argparse
import hashlib
import io
import os
import re
import subprocess
import sys
import zipfile

LIMIT = 4 << 20
MIRROR = "/work/.mirror"
# bytes 4..8 "TFL3" as C array elements: four elements, then 0x54 0x46 0x4c 0x33
CARRAY = re.compile(rb"(?:0[xX][0-9a-fA-F]{1,2}\s*,\s*){4}0[xX]54\s*,\s*0[xX]46\s*,\s*0[xX]4[cC]\s*,\s*0[xX]33\b")
HEXBYTE = re.compile(rb"\s*0[xX]([0-9a-fA-F]{1,2})\s*(,|\})")


def is_tflite(data):
    return len(data) >= 8 and data[4:8] == b"TFL3" and len(data) < LIMIT


def safe(s):
    return re.sub(r"[^A-Za-z0-9._-]", "_", s)


def stem_of(path, carray=False):
    """The file name without its last extension (model.int8.tflite: model.int8, model.tflite.int8:
    model.tflite); a C array's text file's name up to its first dot (kws_model_data.cc.new:
    kws_model_data), as the batches named them."""
    base = os.path.basename(path)
    if "." in base[1:]:
        base = base[:base.index(".", 1)] if carray else base[:base.rindex(".")]
    return safe(base)


def git(gitdir, *args, inp=None):
    return subprocess.run(["git", "--git-dir", gitdir] + list(args), input=inp, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=False).stdout


def gitdir_of(repo, mirror=MIRROR):
    base = os.path.join(mirror, repo.replace("/", "+"), "repo")
    for d in (os.path.join(base, ".git"), base):
        if os.path.isfile(os.path.join(d, "HEAD")):
            return d
    return None


def repo_of(gitdir):
    """owner/name from /work/.mirror/owner+name/repo[/.git]."""
    parts = os.path.abspath(gitdir).split(os.sep)
    for p in reversed(parts):
        if "+" in p:
            return p.replace("+", "/", 1)
    return os.path.basename(gitdir)


class Cat:
    """git cat-file --batch over one snapshot."""

    def __init__(self, gitdir):
        self.p = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def read(self, oid):
        self.p.stdin.write(oid.encode() + b"\n")
        self.p.stdin.flush()
        head = self.p.stdout.readline().split()
        if len(head) < 3:
            return None
        n = int(head[2])
        data = self.p.stdout.read(n)
        self.p.stdout.read(1)
        return data

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def c_arrays(data):
    """The byte strings of the C arrays of 0x.. bytes in a text blob that hold a TFLite file."""
    out = []
    if b"0x" not in data and b"0X" not in data:
        return out
    pos = 0
    while True:
        m = CARRAY.search(data, pos)
        if not m:
            return out
        buf = bytearray()
        p = m.start()
        while True:
            h = HEXBYTE.match(data, p)
            if not h:
                break
            buf.append(int(h.group(1), 16))
            p = h.end()
            if h.group(2) == b"}":
                break
        if is_tflite(bytes(buf)):
            out.append(bytes(buf))
        pos = max(p, m.end())


def is_zip(data):
    """A zip archive: a local file header at byte 0, or an end-of-central-directory record in the
    last 64 KiB + 22 bytes (an archive with bytes before its first header, which zipfile reads:
    MediaPipe's face_landmarker.task starts with two zero bytes, then "PK\\3\\4")."""
    return data[:4] == b"PK\x03\x04" or b"PK\x05\x06" in data[-(65535 + 22):]


def zip_members(data, depth=0):
    """[(member path, bytes)] of a zip blob's TFLite members (one level of nested zips)."""
    out = []
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        for info in z.infolist():
            if info.is_dir() or info.file_size >= LIMIT * 8:
                continue
            b = z.read(info)
            if is_tflite(b):
                out.append((info.filename, b))
            elif depth == 0 and is_zip(b):
                out += [(info.filename + "!" + n, bb) for n, bb in zip_members(b, 1)]
    except Exception:
        pass
    return out


def pieces(path, data):
    """[(subpath or None, member name for the stem, bytes)] of the TFLite files one blob holds."""
    if is_tflite(data):
        return [(None, path, data)]
    if is_zip(data):
        members = [("!" + n, n.split("!")[-1], b) for n, b in zip_members(data)]
        if members or data[:4] == b"PK\x03\x04":
            return members
    if b"\0" not in data[:8000]:
        return [("#%d" % i, path, b) for i, b in enumerate(c_arrays(data))]
    return []


def commits_of(gitdir, oids):
    """{blob: (commit, path)}: for each blob of oids the newest commit that wrote it and its path
    there (from the trees alone, `git log --raw`: snapshots lack some blobs, which --find-object
    would read). Plain `git log` gives merge commits no diff, so a blob only a merge brought in
    (rishikeshjoshy/flickchat's assets/ml/model.tflite: first in merge 826007d9, in neither of its
    parents) is looked for again in the merges' diffs against each parent (`-m`)."""
    out = {}
    for merges in ([], ["-m"]):
        commit = None
        log = git(gitdir, "log", "--all", "--raw", "--no-abbrev", "--no-renames", "--root", *merges, "--format=C %H")
        for ln in log.decode("utf-8", "replace").splitlines():
            if ln.startswith("C "):
                commit = ln[2:].strip()
            elif ln.startswith(":"):
                meta, _, path = ln.partition("\t")
                new = meta.split()[3]
                if new in oids and new not in out:
                    out[new] = (commit, path)
        if len(out) == len(oids):
            break
    return out


def scan(gitdir):
    """[(repository, commit, path, blob, bytes)] of every TFLite file in a snapshot, in rev-list order."""
    repo = repo_of(gitdir)
    objs = git(gitdir, "rev-list", "--all", "--objects", "--missing=allow-any").decode("utf-8", "replace")
    cand = []
    for ln in objs.splitlines():
        oid, _, path = ln.partition(" ")
        if path:
            cand.append((oid, path))
    chk = git(gitdir, "cat-file", "--batch-check", inp="".join(o + "\n" for o, _ in cand).encode()).decode()
    info = {}
    for ln in chk.splitlines():
        p = ln.split()
        if len(p) == 3:
            info[p[0]] = (p[1], int(p[2]))
    found = []
    cat = Cat(gitdir)
    for oid, path in cand:
        kind, size = info.get(oid, ("missing", 0))
        if kind != "blob" or size < 16 or size >= 64 << 20:
            continue
        data = cat.read(oid)
        if data is None:
            continue
        for sub, member, b in pieces(path, data):
            found.append((repo, path, sub, oid, member, b))
    cat.close()
    where = commits_of(gitdir, {f[3] for f in found})
    out = []
    for repo, path, sub, oid, member, b in found:
        commit, path = where.get(oid, ("-", path))
        out.append((repo, commit, path + (sub or ""), oid, member, b))
    return out


def read_manifest(path):
    """Rows as dicts; "group" is the last "# group NAME" line above the row (None before any)."""
    rows = []
    group = None
    with open(path) as fh:
        for ln in fh:
            if ln.startswith("# group "):
                group = ln.split()[2]
                continue
            if ln.startswith("#") or not ln.strip():
                continue
            p = ln.rstrip("\n").split("\t")
            rows.append(dict(zip(("name", "repo", "commit", "path", "blob", "size", "sha256"), p), group=group))
    return rows


def rebuild(args):
    rows = read_manifest(args.manifest)
    if args.group:
        rows = [r for r in rows if r["group"] == args.group]
        if not rows:
            print("no rows of group %s in %s" % (args.group, args.manifest), file=sys.stderr)
            return 2
    dirs = {repo_of(g): g for g in args.gitdirs}
    bad = 0
    cats = {}
    for r in rows:
        if r["blob"] == "-":
            print("not in manifest's snapshot: %s (%s)" % (r["name"], r["repo"]))
            bad += 1
            continue
        g = dirs.get(r["repo"]) or gitdir_of(r["repo"], args.mirror)
        if not g:
            print("no snapshot: %s (%s)" % (r["name"], r["repo"]))
            bad += 1
            continue
        if g not in cats:
            cats[g] = Cat(g)
        data = cats[g].read(r["blob"])
        if data is None:
            print("blob absent: %s (%s %s)" % (r["name"], r["repo"], r["blob"]))
            bad += 1
            continue
        got = None
        m = re.search(r"(!.*|#\d+)$", r["path"])
        for sub, _, b in pieces(r["path"], data):
            if sub == (m.group(1) if m else None) or hashlib.sha256(b).hexdigest() == r["sha256"]:
                got = b
                if hashlib.sha256(b).hexdigest() == r["sha256"]:
                    break
        if got is None or hashlib.sha256(got).hexdigest() != r["sha256"]:
            print("sha256 differs or file absent: %s (%s %s)" % (r["name"], r["repo"], r["path"]))
            bad += 1
            continue
        with open(os.path.join(args.out, r["name"] + ".tflite"), "wb") as fh:
            fh.write(got)
    for c in cats.values():
        c.close()
    print("%d of %d manifest rows written to %s" % (len(rows) - bad, len(rows), args.out))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gitdirs", nargs="*")
    ap.add_argument("--out", required=True, help="folder for NAME.tflite")
    ap.add_argument("--manifest", help="rebuild: write the files this manifest lists")
    ap.add_argument(
        "--group",
        help="rebuild: only the rows under the manifest's '# group NAME' line (the folder a batch swept them in)",
    )
    ap.add_argument("--manifest-out", help="scan: write a manifest of what was written")
    ap.add_argument("--repos", help="scan: lines owner/name, git dirs under --mirror")
    ap.add_argument("--mirror", default=MIRROR)
    ap.add_argument("--skip-sha", help="scan: sha256s not to keep")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.manifest:
        return rebuild(args)
    gitdirs = list(args.gitdirs)
    if args.repos:
        with open(args.repos) as fh:
            for ln in fh:
                if ln.strip() and not ln.startswith("#"):
                    g = gitdir_of(ln.split()[0], args.mirror)
                    if g:
                        gitdirs.append(g)
                    else:
                        print("no snapshot: %s" % ln.split()[0], file=sys.stderr)
    seen = set()
    if args.skip_sha:
        with open(args.skip_sha) as fh:
            seen |= {ln.split()[0] for ln in fh if ln.strip()}
    names = set(os.path.splitext(f)[0] for f in os.listdir(args.out) if f.endswith(".tflite"))
    lines = []
    for g in gitdirs:
        found = scan(g)
        # of a repository's copies of one file, a plain blob is kept rather than a zip member or
        # a C array of the same bytes (pretrainedResnet_quant.tflite beside its _aligned.cc)
        plain = {hashlib.sha256(f[5]).hexdigest() for f in found if not re.search(r"(!|#\d+$)", f[2])}
        for repo, commit, path, oid, member, b in found:
            sha = hashlib.sha256(b).hexdigest()
            if sha in seen or (sha in plain and re.search(r"(!|#\d+$)", path)):
                continue
            seen.add(sha)
            base = "%s__%s" % (safe(repo.split("/")[-1]), stem_of(member, "#" in path.rsplit("/", 1)[-1]))
            name, k = base, 1
            while name in names:
                k += 1
                name = "%s_%d" % (base, k)
            names.add(name)
            with open(os.path.join(args.out, name + ".tflite"), "wb") as fh:
                fh.write(b)
            lines.append("\t".join([name, repo, commit, path, oid, str(len(b)), sha]))
            print(lines[-1], flush=True)
    if args.manifest_out:
        with open(args.manifest_out, "a") as fh:
            for ln in lines:
                fh.write(ln + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
