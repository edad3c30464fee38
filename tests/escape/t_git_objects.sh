#!/bin/bash
# The object store a `filesystem.git: commit` jail writes (lib/gitobjects.h): git reads
# objects by name and does not hash them, so whatever the jail left under an object's
# name is what the host's checkout writes.  Each forgery is planted twice: from the host
# (the control: the host's git must then show the forged content, or the vector is not
# real) and from a jail (afterwards the host's git shows the committed content, or fails
# loudly; never the forged one).  And what git itself writes -- commits, a gc's pack, a
# SHA-256 repository -- comes back whole.
. "$(dirname "$0")/../lib.sh"
t_init

command -v git >/dev/null || { t_skip "object store" "git is not installed"; exit 0; }
HOSTHOME=$T/hosthome
mkdir -p "$HOSTHOME"
E=(env -i "PATH=$PATH" "HOME=$HOSTHOME" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t
	GIT_COMMITTER_EMAIL=t@t)
G=("${E[@]}" git)
hgit() { "${G[@]}" -C "$WS" "$@"; }
GOOD='all: ; @echo committed'

# The tools a forger uses, kept outside the repository (ignored).
cat >"$T/rewrite.py" <<'PY'
# rewrite.py OID [OBJECTS [--rename]]: the loose object OID's file holds other content,
# same name (written in place, or renamed over it).
import os, sys, zlib
oid = sys.argv[1]
p = "%s/%s/%s" % (sys.argv[2] if len(sys.argv) > 2 else ".git/objects", oid[:2], oid[2:])
new = b"all: ; @echo forged\n"
os.makedirs(os.path.dirname(p), exist_ok=True)
if os.path.exists(p):
    os.chmod(p, 0o644)
tmp = p + ".sbx" if sys.argv[3:] == ["--rename"] else p
open(tmp, "wb").write(zlib.compress(b"blob %d\0" % len(new) + new))
os.replace(tmp, p)
PY
cat >"$T/forgepack.py" <<'PY'
# forgepack.py OID: a pack holding other content, whose index says it is OID.
import hashlib, os, struct, subprocess, sys, time
oid = bytes.fromhex(sys.argv[1])
f = subprocess.check_output(["git", "hash-object", "-w", "--stdin"], input=b"all: ; @echo forged\n").strip()
base = ".git/objects/pack/sbxforge"
h = subprocess.check_output(["git", "pack-objects", base], input=f + b"\n").strip().decode()
idx = open("%s-%s.idx" % (base, h), "rb").read()
crc, off, packsum = idx[8 + 1024 + 20:8 + 1024 + 24], idx[8 + 1024 + 24:8 + 1024 + 28], idx[-40:-20]
fan = b"".join(struct.pack(">I", 0 if b < oid[0] else 1) for b in range(256))
body = b"\377tOc" + struct.pack(">I", 2) + fan + oid + crc + off + packsum
for ext, data in (("pack", open("%s-%s.pack" % (base, h), "rb").read()), ("idx", body + hashlib.sha1(body).digest())):
    path = ".git/objects/pack/pack-%s.%s" % (h, ext)
    open(path, "wb").write(data)
    os.utime(path, (time.time() + 100, time.time() + 100))  # git looks in newer packs first
    os.remove("%s-%s.%s" % (base, h, ext))
os.remove(".git/objects/%s/%s" % (f[:2].decode(), f[2:].decode()))
PY

# A fresh repository with a committed Makefile.
new_repo() {
	find "$WS" -mindepth 1 -maxdepth 1 ! -name probe -exec rm -rf {} +
	hgit init -q -b main "$@" . && printf '%s\n' "$GOOD" >"$WS/Makefile" && printf 'probe\n.sbx-*\n' >"$WS/.gitignore" &&
		hgit add Makefile .gitignore && hgit commit -qm one && for f in "$T"/*.py; do cp "$f" "$WS/.sbx-${f##*/}"; done
}

# What the host gets back for the committed Makefile: "committed", "forged", or
# "missing" (git says the object is gone: loud, and nothing forged written).
host_sees() {
	rm -f "$WS/Makefile"
	if ! hgit checkout -q -- Makefile 2>/dev/null; then echo missing; return; fi
	grep -q forged "$WS/Makefile" && echo forged || echo committed
}

# forgery NAME PLANT [PREP]: PLANT from the host must forge; from a jail it must not.
forgery() {
	local name=$1 plant=$2 prep=${3:-:} seen
	new_repo && (cd "$WS" && bash -c "$prep") >/dev/null 2>&1 || { t_fail "$name: setup" "cannot make the repository"; return; }
	(cd "$WS" && "${E[@]}" bash -c "$plant") >/dev/null 2>&1
	seen=$(host_sees)
	if [[ $seen == forged ]]; then t_ok "$name: control, planted from the host it forges"
	else t_fail "$name: control, planted from the host it forges" "the host saw '$seen': the test proves nothing"; fi
	new_repo && (cd "$WS" && bash -c "$prep") >/dev/null 2>&1
	sbx --profile git --workspace "$WS" -- /bin/bash -c "$plant && echo ran > .sbx-ran"
	[[ -e $WS/.sbx-ran ]] || { t_fail "$name: not tested" "the plant failed in the jail: $(run_info)"; return; }
	rm -f "$WS/.sbx-ran"
	seen=$(host_sees)
	if [[ $seen == forged ]]; then t_fail "$name: planted from a jail, the host's checkout is not forged" "it is"
	elif ! grep -q "git: .*dropped" "$ERR"; then t_fail "$name: planted from a jail, said" "no note: $(run_info)"
	else t_ok "$name: planted from a jail, the host sees '$seen', and the run said why"; fi
}

forgery "a loose object rewritten in place" 'python3 .sbx-rewrite.py $(git rev-parse HEAD:Makefile)'
forgery "a loose object replaced by rename" 'python3 .sbx-rewrite.py $(git rev-parse HEAD:Makefile) .git/objects --rename'
forgery "a pack whose index names the committed blob" \
	'o=$(git rev-parse HEAD:Makefile); rm -f .git/objects/${o:0:2}/${o:2}; python3 .sbx-forgepack.py $o'
forgery "a pack forged over a packed repository" 'python3 .sbx-forgepack.py $(git rev-parse HEAD:Makefile)' \
	"${G[*]} repack -qad"
forgery "objects/info/alternates to objects the jail made" \
	'o=$(git rev-parse HEAD:Makefile); python3 .sbx-rewrite.py $o "$PWD/.sbx-alt" && rm -f .git/objects/${o:0:2}/${o:2} &&
	 echo "$PWD/.sbx-alt" > .git/objects/info/alternates'

# ---- names moved without touching the files: loose directories swapped
new_repo
for i in 1 2 3 4 5 6 7 8; do echo "$i" >"$WS/f$i"; done
hgit add . && hgit commit -qm more
sbx --profile git --workspace "$WS" -- /bin/bash -c \
	'cd .git/objects && set -- $(ls -d [0-9a-f][0-9a-f] | head -2) && mv $1 .sbx-t && mv $2 $1 && mv .sbx-t $2'
if [[ $RC != 0 ]]; then t_fail "loose directories swapped: not tested" "$(run_info)"
elif hgit fsck --no-dangling 2>&1 | grep -qi "mismatch"; then t_fail "loose directories swapped" "objects under other names remain: $(hgit fsck 2>&1 | head -3)"
elif ! grep -q "dropped .* the jail changed in" "$ERR"; then t_fail "loose directories swapped: said" "$(run_info)"
else t_ok "loose directories swapped: every moved object is checked, none stays under a wrong name"; fi

# ---- what is not an object: symlinks, FIFOs, derived files
new_repo
sbx --profile git --workspace "$WS" -- /bin/bash -c \
	'o=$(git rev-parse HEAD:Makefile); ln -s /etc/passwd .git/objects/ff/$(printf %038d 0) 2>/dev/null ||
	 { mkdir -p .git/objects/ff && ln -s /etc/passwd .git/objects/ff/$(printf %038d 0); };
	 mkfifo .git/objects/info/commit-graph; ln -s /etc .git/objects/info/alternates 2>/dev/null; git commit-graph write -q 2>/dev/null; true'
left=$(find "$WS/.git/objects" ! -type f ! -type d | head -3)
if [[ $RC != 0 ]]; then t_fail "symlinks and FIFOs in the store: not tested" "$(run_info)"
elif [[ -n $left ]]; then t_fail "symlinks and FIFOs in the store are removed" "left: $left"
elif ! timeout 20 "${G[@]}" -C "$WS" log -1 >/dev/null 2>&1; then t_fail "symlinks and FIFOs in the store: the host's git works after" "git log failed or hung"
else t_ok "symlinks and FIFOs in the store are removed; the host's git works after"; fi

# ---- what git writes comes back whole
new_repo
sbx --profile git --workspace "$WS" -- /bin/bash -c \
	'for i in $(seq 1 150); do echo $i > f$i; done && git add . && git -c user.name=j -c user.email=j@j commit -qm jail &&
	 echo again >> f1 && git -c user.name=j -c user.email=j@j commit -qam again'
if [[ $RC != 0 ]]; then t_fail "commits made in the jail: not tested" "$(run_info)"
elif [[ $(hgit log --format=%s -1) != again ]] || ! hgit fsck --strict >/dev/null 2>&1; then
	t_fail "commits made in the jail come back whole" "$(hgit log --oneline -3 2>&1; hgit fsck 2>&1 | head -3)"
elif grep -q "dropped .* the jail changed" "$ERR"; then t_fail "commits made in the jail: nothing removed" "$(cat "$ERR")"
else t_ok "commits made in the jail come back whole (log, fsck --strict), nothing removed"; fi

sbx --profile git --workspace "$WS" -- /bin/bash -c 'git gc -q && git count-objects -v | grep -q "^packs: [1-9]"'
if [[ $RC != 0 ]]; then t_fail "a gc in the jail: not tested" "$(run_info)"
elif ! hgit fsck --strict >/dev/null 2>&1 || [[ $(hgit log --format=%s -1) != again ]]; then t_fail "a gc in the jail: the packed repository is whole" "$(hgit fsck 2>&1 | head -3)"
elif ! hgit count-objects -v | grep -q '^packs: [1-9]' || grep -q "does not accept" "$ERR"; then
	t_fail "a gc in the jail: its pack is kept" "$(hgit count-objects -v | tr '\n' ' '; cat "$ERR")"
else t_ok "a gc in the jail: its pack is verified and kept, the repository whole"; fi

new_repo --object-format=sha256
sbx --profile git --workspace "$WS" -- /bin/bash -c \
	'echo x > n && git add n && git -c user.name=j -c user.email=j@j commit -qm sha256 && git gc -q'
if [[ $RC != 0 ]]; then t_fail "a SHA-256 repository: not tested" "$(run_info)"
elif [[ $(hgit log --format=%s -1) != sha256 ]] || ! hgit fsck --strict >/dev/null 2>&1 || grep -q "its name says\|does not accept" "$ERR"; then
	t_fail "a SHA-256 repository: commits and packs come back whole" "$(hgit fsck 2>&1 | head -3; cat "$ERR")"
else t_ok "a SHA-256 repository: commits and packs come back whole"; fi


# ---- a walk that cannot finish still checks everything: trees too deep to remove,
# an unreadable directory, beside a rewritten object
cat >"$T/traps.py" <<'PY'
import os, subprocess, sys
oid = subprocess.check_output(["git", "rev-parse", "HEAD:Makefile"]).decode().strip()
for top in (".git/objects", ".git/objects/" + oid[:2]):
    for i in range(4):
        p = "%s/trap%d" % (top, i) + "/d" * 24
        os.makedirs(p)
os.makedirs(".git/objects/zz/locked"); os.chmod(".git/objects/zz/locked", 0)
subprocess.check_call(["python3", ".sbx-rewrite.py", oid])
PY
forgery "a rewritten object beside trees the check cannot remove" 'python3 .sbx-traps.py'

# ---- one small file under many names: inflated once, its other names dropped unread
cat >"$T/links.py" <<'PY'
import os, zlib
c = zlib.compressobj()
d = c.compress(b"blob %d\0" % (256 << 20)) + b"".join(c.compress(b"\0" * (1 << 20)) for _ in range(256)) + c.flush()
os.makedirs(".git/objects/aa", exist_ok=True)
first = ".git/objects/aa/" + "0" * 38
open(first, "wb").write(d)
for i in range(1, 200):
    os.makedirs(".git/objects/%02x" % i, exist_ok=True)
    os.link(first, ".git/objects/%02x/%s" % (i, "1" * 38))
PY
new_repo
sbx --profile git --workspace "$WS" -- python3 .sbx-links.py
left=$(find "$WS/.git/objects" -type f -name '000000*' -o -type f -name '111111*' | wc -l)
if [[ $RC != 0 ]]; then t_fail "one file under 200 names: not tested" "$(run_info)"
elif [[ $left != 0 ]] || ! grep -q "dropped 200 entries" "$ERR"; then t_fail "one file under 200 names: all dropped" "left: $left; $(cat "$ERR")"
else t_ok "one file under 200 names: all dropped, the file inflated once"; fi
