#!/bin/bash
# The git state a jail leaves behind, read later by the host's git (attack review 5):
# a gitdir the jail breaks so that git's discovery takes a directory the jail filled for
# a bare repository; symlinks and FIFOs left in refs/ and logs/; an index whose cache
# tree names a tree of the jail's choosing; commands git takes from tracked files; and
# read-write binds into git directories.  Each vector is planted twice: from the host
# (the control: the host's git must then run the command, write through the link, hang
# or record the forged tree, or the vector and the detector are not real) and from a
# jail, checked afterwards from the host side.
. "$(dirname "$0")/../lib.sh"
t_init

command -v git >/dev/null || { t_skip "git state" "git is not installed"; exit 0; }
HOSTHOME=$T/hosthome
mkdir -p "$HOSTHOME"
MARK=$T/pwned
E=(env -i "PATH=$PATH" "HOME=$HOSTHOME" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t
	GIT_COMMITTER_EMAIL=t@t)
G=("${E[@]}" git)
hgit() { "${G[@]}" -C "$WS" "$@"; }
# git with a bound: a FIFO the jail left must not hang the host (124: it did).
tgit() { timeout -k 2 5 "${G[@]}" "$@" </dev/null >/dev/null 2>&1; }

# A fresh repository in $WS with one commit (the probe and the test's tools ignored).
new_repo() {
	find "$WS" -mindepth 1 -maxdepth 1 ! -name probe -exec rm -rf {} +
	rm -f "$MARK"
	hgit init -q -b main . && echo one >"$WS/a" && printf 'probe\n.sbx-*\n' >"$WS/.gitignore" &&
		hgit add a .gitignore && hgit commit -qm one
}

# What shells, IDEs and people run later in DIR (default $WS); anything planted runs here.
host_uses() {
	local d=${1:-$WS}
	(
		cd "$d" || exit
		tgit status
		tgit diff HEAD
		tgit log -1
		echo more >>"$d/a"
		tgit commit -qam host
		tgit status
	) 2>/dev/null
	true
}

# planted NAME PLANT PROFILE...: the control from the host, then from a jail of each
# PROFILE; PLANT is shell run in $WS with $MARK set, after new_repo and $SETUP (shell
# run by the host, optional); CHECK (a function
# name in $CHECK, optional) says more from the host after each jail run.
planted() {
	local name=$1 plant=$2 profile why
	shift 2
	new_repo && (cd "$WS" && "${E[@]}" bash -c "${SETUP:-:}") >/dev/null 2>&1 || { t_fail "$name: setup" "cannot make a repository"; return; }
	(cd "$WS" && "${E[@]}" MARK="$MARK" bash -c "$plant") >/dev/null 2>&1
	host_uses
	if [[ -e $MARK ]]; then t_ok "$name: control, planted from the host it runs"
	else t_fail "$name: control, planted from the host it runs" "the host's git did not run it: the test proves nothing"; fi
	for profile in "$@"; do
		new_repo && (cd "$WS" && "${E[@]}" bash -c "${SETUP:-:}") >/dev/null 2>&1
		sbx --profile "$profile" --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$plant; echo ran > .sbx-ran"
		[[ -e $WS/.sbx-ran ]] || { t_fail "$name ($profile): not tested" "the jail did not run: $(run_info)"; continue; }
		rm -f "$WS/.sbx-ran"
		host_uses
		why=""
		if [[ -e $MARK ]]; then why="the host's git ran it: $(cat "$MARK")"
		elif [[ $("${G[@]}" -C "$WS" rev-parse --absolute-git-dir 2>&1) != "$WS/.git" ]]; then
			why="the host's git no longer takes $WS/.git: $("${G[@]}" -C "$WS" rev-parse --absolute-git-dir 2>&1)"
		elif [[ -n ${CHECK:-} ]]; then why=$("$CHECK")
		fi
		if [[ -n $why ]]; then t_fail "$name ($profile): planted from a jail, the host's git does not run it" "$why"
		else t_ok "$name ($profile): planted from a jail, the host's git does not run it"; fi
	done
}

# ---- f01: the gitdir made no repository, the workspace top made a bare one
# git's discovery takes .git only with a valid HEAD, objects/ and refs/; without, it goes
# on to the directory itself, which a bare repository's HEAD, objects/, refs/ and config
# make one (safe.bareRepository defaults to "all").
bare_top='mkdir -p objects refs; echo "ref: refs/heads/main" > HEAD;
	printf "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"echo bare-top > $MARK; false\"\n" > config'
head_kept() {
	[[ -f $WS/.git/HEAD ]] || { echo "the host's .git/HEAD is gone"; return; }
	grep -q "HEAD" "$ERR" || echo "no note says the removal was not carried back: $(run_info)"
}
CHECK=head_kept planted "HEAD removed, the top made a bare repository" "rm -f .git/HEAD; $bare_top" git
CHECK=head_kept planted "HEAD replaced by a directory, the top made a bare repository" "rm -f .git/HEAD; mkdir .git/HEAD; $bare_top" git
planted "HEAD made garbage, the top made a bare repository" "echo garbage > .git/HEAD; $bare_top" git
planted "HEAD a symlink out of the repository, the top made a bare repository" "rm -f .git/HEAD; ln -s /nonexistent .git/HEAD; $bare_top" git
planted "refs/ removed, the top made a bare repository" "rm -rf .git/refs; $bare_top" git
planted "refs/ made a file, the top made a bare repository" "rm -rf .git/refs; : > .git/refs; $bare_top" git
planted "objects/ removed, the top made a bare repository" "rm -rf .git/objects; $bare_top" git

# ---- f02: a workspace whose top has no .git made a bare repository
# bare_dir NAME DIR PROFILE: DIR (no .git at its top) filled from a jail of PROFILE; the
# host's git there afterwards runs nothing, and nothing of it is left.
bare_dir() {
	local name=$1 dir=$2 profile=$3
	rm -f "$MARK"
	sbx --profile "$profile" --workspace "$dir" --env MARK="$MARK" -- /bin/bash -c "$bare_top; echo ran > .sbx-ran"
	[[ -e $dir/.sbx-ran ]] || { t_fail "$name ($profile): not tested" "the jail did not run: $(run_info)"; return; }
	rm -f "$dir/.sbx-ran"
	host_uses "$dir"
	if [[ -e $MARK ]]; then t_fail "$name ($profile): the host's git there runs nothing" "it ran: $(cat "$MARK")"
	elif [[ $("${G[@]}" -C "$dir" rev-parse --absolute-git-dir 2>/dev/null) == "$dir" ]]; then
		t_fail "$name ($profile): the host's git there runs nothing" "git takes $dir for a repository"
	elif [[ -e $dir/HEAD || -e $dir/.git ]]; then t_fail "$name ($profile): the host's git there runs nothing" "left: $(ls -a "$dir" | tr '\n' ' ')"
	else t_ok "$name ($profile): the host's git there runs nothing, nothing is left"; fi
}
PLAIN=$T/plain
mkdir -p "$PLAIN"
(cd "$PLAIN" && MARK=$MARK bash -c "$bare_top")
rm -f "$MARK"
host_uses "$PLAIN"
if [[ -e $MARK ]]; then t_ok "bare repository at a plain directory's top: control, planted from the host it runs"
else t_fail "bare repository at a plain directory's top: control, planted from the host it runs" "the host's git did not run it"; fi
for profile in git workspace; do
	rm -rf "$PLAIN" && mkdir -p "$PLAIN" && bare_dir "bare repository at a plain directory's top" "$PLAIN" "$profile"
done
new_repo
for profile in workspace git; do
	rm -rf "$WS/src" && mkdir -p "$WS/src" && echo x >"$WS/src/x.c"
	bare_dir "bare repository at the top of a workspace that is a repository's subdirectory" "$WS/src" "$profile"
done

# ---- f03, f14: symlinks and FIFOs left in the host's refs/ and logs/ (git profile)
# After a run none is left, wherever it hides (under directories deeper than a sweep
# goes, under an unreadable directory); the host's git neither writes through one into
# a file the host runs nor hangs on one.
VICTIM=$T/victim-rc
deep='for i in $(seq 40); do p=z$i; for j in $(seq 70); do p=$p/d; done; mkdir -p .git/logs/$p .git/refs/$p; done'
branch='git -c user.name=a -c user.email=a@b checkout -q -b "x;echo\${IFS}reflog>$MARK;#"'
strays_left() {
	find "$WS/.git/refs" "$WS/.git/logs" ! -type f ! -type d 2>/dev/null | head -3
}
# 124 when one of the host's git commands that read or append to refs and reflogs hangs.
host_hangs() {
	local c rc=0
	for c in status "log -1" "log -g -1" branch "commit -q --allow-empty -m host"; do
		# shellcheck disable=SC2086 # the words of $c
		tgit -C "$WS" $c
		[[ $? == 124 ]] && rc=124
	done
	return $rc
}
# stray NAME PLANT [CONTROL]: CONTROL is "write" (the host's git writes through the
# planted link into $VICTIM) or "hang" (the host's git status hangs).
stray() {
	local name=$1 plant=$2 control=${3:-write} rc left
	new_repo
	echo "# rc" >"$VICTIM"
	(cd "$WS" && "${E[@]}" MARK="$MARK" VICTIM="$VICTIM" bash -c "$plant") >/dev/null 2>&1
	if [[ $control == hang ]]; then
		host_hangs
		rc=$?
		if [[ $rc == 124 ]]; then t_ok "$name: control, planted from the host the host's git hangs"
		else t_fail "$name: control, planted from the host the host's git hangs" "git status rc=$rc: the test proves nothing"; fi
		find "$WS/.git" -type p -delete
	else
		host_uses
		tgit -C "$WS" checkout -q main
		if [[ $(cat "$VICTIM") != "# rc" ]]; then t_ok "$name: control, planted from the host the host's git writes through it"
		else t_fail "$name: control, planted from the host the host's git writes through it" "the victim is untouched: the test proves nothing"; fi
	fi
	new_repo
	echo "# rc" >"$VICTIM"
	sbx --profile git --workspace "$WS" --env MARK="$MARK" --env VICTIM="$VICTIM" -- /bin/bash -c "$plant; echo ran > .sbx-ran"
	[[ -e $WS/.sbx-ran ]] || { t_fail "$name: not tested" "the jail did not run: $(run_info)"; return; }
	rm -f "$WS/.sbx-ran"
	left=$(strays_left)
	host_hangs
	rc=$?
	host_uses
	tgit -C "$WS" checkout -q main
	if [[ -n $left ]]; then t_fail "$name: planted from a jail, none is left" "left after the run: $left"
	elif ((rc == 124)); then t_fail "$name: planted from a jail, the host's git does not hang" "git status or log hung"
	elif [[ $(cat "$VICTIM") != "# rc" || -e $MARK ]]; then
		t_fail "$name: planted from a jail, the host's git writes through nothing" "victim: $(head -c 200 "$VICTIM")"
	else t_ok "$name: planted from a jail, none is left, the host's git neither hangs nor writes through it"; fi
}
stray "reflog symlink logs/HEAD beside 70-deep directories" "$branch; $deep; rm -f .git/logs/HEAD; ln -s \"\$VICTIM\" .git/logs/HEAD"
stray "reflog symlink logs/refs/heads/main beside 70-deep directories" \
	"$deep; rm -f .git/logs/refs/heads/main; ln -s \"\$VICTIM\" .git/logs/refs/heads/main"
stray "reflog symlink under a 70-deep directory, checked out" \
	"p=\$(printf 'd/%.0s' \$(seq 70))b; git checkout -q -b \"\$p\" && rm -f .git/logs/refs/heads/\$p && ln -s \"\$VICTIM\" .git/logs/refs/heads/\$p"
stray "reflog symlink under an unreadable directory" \
	"$branch; mkdir -p .git/logs/zz; rm -f .git/logs/HEAD; ln -s \"\$VICTIM\" .git/logs/HEAD; ln -s \"\$VICTIM\" .git/logs/zz/l; chmod 000 .git/logs/zz"
stray "FIFO at refs/heads/main" "rm -f .git/refs/heads/main; mkfifo .git/refs/heads/main" hang
stray "FIFO at logs/HEAD beside 70-deep directories" "$deep; rm -f .git/logs/HEAD; mkfifo .git/logs/HEAD" hang
stray "FIFO at refs/heads/main under 70-deep directories" "$deep; rm -f .git/refs/heads/main; mkfifo .git/refs/heads/main" hang
stray "FIFO as a branch under an unreadable directory" "mkdir -p .git/refs/heads/zz; mkfifo .git/refs/heads/zz/f; chmod 000 .git/refs/heads/zz" hang

# ---- f16: the index's extensions (the cache tree) name a tree of the jail's choosing
# git trusts a valid cache tree: `git commit` records the root tree it names, not one
# built from the entries.  The index the jail leaves comes back as its entries only.
cat >"$T/craft.py" <<'PY'
# craft.py TREE: keep the index entries git wrote; replace the extensions with a cache
# tree whose root is TREE, covering every entry.
import hashlib, struct, sys
body = open(".git/index", "rb").read()[:-20]
n = struct.unpack(">I", body[8:12])[0]
off = 12
for _ in range(n):
    nl = struct.unpack(">H", body[off + 60:off + 62])[0] & 0xfff
    off += 62 + nl + (8 - (62 + nl) % 8)
ext = b"\0%d 0\n" % n + bytes.fromhex(sys.argv[1])
out = body[:off] + b"TREE" + struct.pack(">I", len(ext)) + ext
open(".git/index", "wb").write(out + hashlib.sha1(out).digest())
PY
# The tree the jail chooses: the index's entries and a backdoor.sh.
evil_tree='bd=$(printf "#!/bin/sh\necho backdoor\n" | git hash-object -w --stdin) &&
	t=$(printf "100644 blob %s\ta\n100644 blob %s\t.gitignore\n100755 blob %s\tbackdoor.sh\n" $(git rev-parse :a) $(git rev-parse :.gitignore) $bd | git mktree) &&
	python3 .sbx-craft.py $t'
# The tree the index's entries make (the repository is flat).
entries_tree() {
	hgit ls-files -s | awk '{ printf "%s blob %s\t%s\n", $1, $2, $4 }' | hgit mktree
}
# cache_tree NAME PLANT COMMIT-ARGS: the host commits with COMMIT-ARGS after PLANT.
cache_tree() {
	local name=$1 plant=$2 commit=$3 want got
	new_repo && cp "$T/craft.py" "$WS/.sbx-craft.py"
	(cd "$WS" && "${E[@]}" bash -c "$plant") >/dev/null 2>&1
	# shellcheck disable=SC2086 # the words of $commit
	hgit commit -q $commit -m reviewed >/dev/null 2>&1
	if hgit ls-tree -r --name-only HEAD | grep -q backdoor.sh; then t_ok "$name: control, planted from the host the commit holds the forged tree"
	else t_fail "$name: control, planted from the host the commit holds the forged tree" "it does not: the test proves nothing"; fi
	new_repo && cp "$T/craft.py" "$WS/.sbx-craft.py"
	sbx --profile git --workspace "$WS" -- /bin/bash -c "$plant && echo ran > .sbx-ran"
	[[ -e $WS/.sbx-ran ]] || { t_fail "$name: not tested" "the plant failed in the jail: $(run_info)"; return; }
	rm -f "$WS/.sbx-ran"
	want=$(entries_tree)
	# shellcheck disable=SC2086
	hgit commit -q $commit -m reviewed >/dev/null 2>&1
	got=$(hgit rev-parse 'HEAD^{tree}')
	if hgit ls-tree -r --name-only HEAD | grep -q backdoor.sh; then t_fail "$name: planted from a jail, the host's commit records the entries' tree" "it holds backdoor.sh"
	elif [[ $got != "$want" ]]; then t_fail "$name: planted from a jail, the host's commit records the entries' tree" "tree $got, entries make $want"
	elif [[ $(hgit log -1 --format=%s) != reviewed ]]; then t_fail "$name: planted from a jail, the host's commit records the entries' tree" "no commit made: $(hgit log -1 --format=%s)"
	else t_ok "$name: planted from a jail, the host's commit records the entries' tree"; fi
}
cache_tree "cache tree over a staged change" "echo 'benign change' >> a && git add a && $evil_tree" ""
cache_tree "cache tree with nothing staged, then commit --allow-empty" "$evil_tree" --allow-empty
# What the jail staged stays staged: the entries do come back.
new_repo && cp "$T/craft.py" "$WS/.sbx-craft.py"
sbx --profile git --workspace "$WS" -- /bin/bash -c "echo 'benign change' >> a && git add a && $evil_tree"
if [[ $RC == 0 && $(hgit diff --cached --name-only) == a && -z $(hgit diff --name-only) ]]; then
	t_ok "cache tree: the staged change itself comes back staged"
else t_fail "cache tree: the staged change itself comes back staged" "$(run_info); cached: $(hgit diff --cached --name-only | tr '\n' ' ')"; fi

# ---- f06: commands git takes from tracked files of the working tree
fsmon_cfg='printf "[core]\n\tfsmonitor = \"echo fsmonitor > $MARK; false\"\n"'
SETUP='printf "[alias]\n\tst = status\n" > .gitconfig && git add .gitconfig && git commit -qm cfg && git config include.path ../.gitconfig' \
	planted "include.path of a tracked file" "$fsmon_cfg >> .gitconfig" git workspace
SETUP='mkdir conf && printf "[alias]\n\tst = status\n" > conf/git.inc && git add conf && git commit -qm cfg &&
	git config include.path ../conf/git.inc' \
	planted "include.path of a tracked file, its directory renamed and replaced" \
	"mv conf conf.old; mkdir conf; $fsmon_cfg > conf/git.inc" git workspace
SETUP='mkdir conf && printf "[alias]\n\tst = status\n" > conf/git.inc && git add conf && git commit -qm cfg &&
	git config "includeIf.gitdir:/.path" ../conf/git.inc' \
	planted "includeIf.*.path of a tracked file" "$fsmon_cfg >> conf/git.inc" git workspace
husky='mkdir -p .husky/_ && printf "#!/usr/bin/env sh\nn=\$(basename \"\$0\")\ns=\$(dirname \"\$(dirname \"\$0\")\")/\$n\n[ ! -f \"\$s\" ] && exit 0\nsh -e \"\$s\" \"\$@\"\n" > .husky/_/h &&
	printf "#!/usr/bin/env sh\n. \"\$(dirname \"\$0\")/h\"\n" > .husky/_/pre-commit && chmod +x .husky/_/h .husky/_/pre-commit &&
	echo "echo lint ok" > .husky/pre-commit && git add .husky && git commit -qm husky && git config core.hooksPath .husky/_'
SETUP=$husky planted "husky v9: the script .husky/_/pre-commit runs" 'echo "echo husky > $MARK" >> .husky/pre-commit' git workspace
SETUP=$husky planted "husky v9: .husky renamed and replaced" \
	'mv .husky .h2; mkdir -p .husky; cp -r .h2/_ .husky/_; echo "echo husky > $MARK" > .husky/pre-commit' git workspace
fsmon_sh='mkdir tools && printf "#!/bin/sh\nexit 1\n" > tools/fsmon.sh && git add tools && git commit -qm tools &&
	git config core.fsmonitor "sh tools/fsmon.sh"'
SETUP=$fsmon_sh planted "core.fsmonitor through an interpreter: its script" \
	'printf "#!/bin/sh\necho fsmonitor > $MARK\nexit 1\n" > tools/fsmon.sh' git workspace
SETUP=$fsmon_sh planted "core.fsmonitor through an interpreter: its directory renamed and replaced" \
	'mv tools tools.old; mkdir tools; printf "#!/bin/sh\necho fsmonitor > $MARK\nexit 1\n" > tools/fsmon.sh' git workspace

# ---- f07: read-write binds into git directories are refused, saying why
new_repo
hgit worktree add -q -b wtb "$T/wtb" >/dev/null 2>&1
"${G[@]}" init -q -b main --separate-git-dir="$WS/meta" "$T/sep" >/dev/null 2>&1
mkdir -p "$WS/plain" "$T/plain-ws-workspace" "$T/plain-ws-git"
sbx --profile workspace --workspace "$WS" --rw "$WS/plain:/p" -- /bin/true
if [[ $RC == 0 ]]; then t_ok "rw bind: control, a plain directory of the workspace is accepted"
else t_fail "rw bind: control, a plain directory of the workspace is accepted" "$(run_info)"; fi
for src in "$WS/.git" "$WS/.git/hooks" "$WS/.git/refs" "$WS/.git/config" "$WS/.git/worktrees/wtb" "$WS/meta"; do
	for profile in workspace git; do
		cp "$WS/.git/config" "$T/config.before"
		sbx --profile "$profile" --workspace "$T/plain-ws-$profile" --rw "$src:/g" -- /bin/sh -c "echo x >> /g/config; echo x > /g/post-commit"
		if [[ $RC == 125 ]] && grep -q "git directory" "$ERR" && cmp -s "$WS/.git/config" "$T/config.before"; then
			t_ok "rw bind of ${src#"$WS"/} ($profile): refused, saying why"
		else t_fail "rw bind of ${src#"$WS"/} ($profile): refused, saying why" "$(run_info)"; fi
	done
done 2>/dev/null
# A read-write bind of another repository: its submodule's .git file is the host's.
OTHER=$T/other
other_repo() {
	rm -rf "$OTHER" "$T/libsrc" "$MARK"
	"${G[@]}" init -q -b main "$T/libsrc" && "${G[@]}" -C "$T/libsrc" commit -q --allow-empty -m l &&
		"${G[@]}" init -q -b main "$OTHER" && "${G[@]}" -C "$OTHER" commit -q --allow-empty -m o &&
		"${G[@]}" -C "$OTHER" -c protocol.file.allow=always submodule add -q "$T/libsrc" lib >/dev/null 2>&1 &&
		"${G[@]}" -C "$OTHER" commit -qm sub
}
repoint='git init -q evil && printf "[core]\n\tfsmonitor = \"echo sub > $MARK; false\"\n" >> evil/.git/config'
for form in "echo 'gitdir: ../evil/.git' > lib/.git" "mv lib lib.old; mkdir lib; echo 'gitdir: ../evil/.git' > lib/.git"; do
	other_repo || { t_fail "rw bind of another repository: setup" "cannot make it"; break; }
	(cd "$OTHER" && "${E[@]}" MARK="$MARK" bash -c "$repoint; $form") >/dev/null 2>&1
	tgit -C "$OTHER" status
	if [[ -e $MARK ]]; then t_ok "rw bind of another repository, its submodule ($form): control, planted from the host it runs"
	else t_fail "rw bind of another repository, its submodule ($form): control, planted from the host it runs" "it did not"; fi
	other_repo
	sbx --profile workspace --workspace "$T/plain-ws-workspace" --rw "$OTHER:/other" --env MARK="$MARK" -- \
		/bin/bash -c "cd /other; $repoint; $form; echo ran > /other/.sbx-ran"
	[[ -e $OTHER/.sbx-ran ]] || { t_fail "rw bind of another repository ($form): not tested" "$(run_info)"; continue; }
	tgit -C "$OTHER" status
	if [[ -e $MARK ]]; then t_fail "rw bind of another repository, its submodule ($form): from a jail, the host's git runs nothing" "it ran"
	else t_ok "rw bind of another repository, its submodule ($form): from a jail, the host's git runs nothing"; fi
done

# ---- f05: the workspace is a subdirectory of a repository; that repository's submodule
# under it is the host's
PROJ=$T/proj
proj_repo() {
	rm -rf "$PROJ" "$T/libsrc" "$MARK"
	"${G[@]}" init -q -b main "$T/libsrc" && "${G[@]}" -C "$T/libsrc" commit -q --allow-empty -m l &&
		"${G[@]}" init -q -b main "$PROJ" && mkdir -p "$PROJ/src" && echo x >"$PROJ/src/x.c" && "${G[@]}" -C "$PROJ" add src &&
		"${G[@]}" -C "$PROJ" commit -qm o &&
		"${G[@]}" -C "$PROJ" -c protocol.file.allow=always submodule add -q "$T/libsrc" src/lib >/dev/null 2>&1 &&
		"${G[@]}" -C "$PROJ" commit -qm sub
}
for form in "echo 'gitdir: ../evil/.git' > lib/.git" "mv lib lib.old; mkdir lib; echo 'gitdir: ../evil/.git' > lib/.git"; do
	proj_repo || { t_fail "enclosing repository's submodule: setup" "cannot make it"; break; }
	(cd "$PROJ/src" && "${E[@]}" MARK="$MARK" bash -c "$repoint; $form") >/dev/null 2>&1
	tgit -C "$PROJ" status
	if [[ -e $MARK ]]; then t_ok "enclosing repository's submodule ($form): control, planted from the host it runs"
	else t_fail "enclosing repository's submodule ($form): control, planted from the host it runs" "it did not"; fi
	for profile in workspace git; do
		proj_repo
		sbx --profile "$profile" --workspace "$PROJ/src" --env MARK="$MARK" -- /bin/bash -c "$repoint; $form; echo ran > .sbx-ran"
		[[ -e $PROJ/src/.sbx-ran ]] || { t_fail "enclosing repository's submodule ($form, $profile): not tested" "$(run_info)"; continue; }
		tgit -C "$PROJ" status
		host_uses "$PROJ"
		if [[ -e $MARK ]]; then t_fail "enclosing repository's submodule ($form, $profile): from a jail, the host's git runs nothing" "it ran"
		else t_ok "enclosing repository's submodule ($form, $profile): from a jail, the host's git runs nothing"; fi
	done
done
