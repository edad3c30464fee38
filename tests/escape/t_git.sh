#!/bin/bash
# Nothing a jail writes is read by the host's git as config, hooks or commands
# (filesystem.git, git.h).  Each vector is planted twice: once from the host (the
# control: the host's git must then run the planted command, or the vector and the
# detector are not real) and once from inside a jail (the host's git must not).  After
# each, the host runs what shells, IDEs and people run: status, diff, log, commit,
# checkout, reset --hard, rebase --continue, submodule status.  Vectors from
# gitrepository-layout(5), githooks(5), git-config(1), gitsubmodules(7).
. "$(dirname "$0")/../lib.sh"
t_init

command -v git >/dev/null || { t_skip "git vectors" "git is not installed"; exit 0; }
HOSTHOME=$T/hosthome
mkdir -p "$HOSTHOME"
MARK=$T/pwned
G=(env -i "PATH=$PATH" "HOME=$HOSTHOME" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t
	GIT_COMMITTER_EMAIL=t@t git)
hgit() { "${G[@]}" -C "$WS" "$@"; }

# An index with one more entry (argv: path, blob), written the way git writes one:
# the jail's own tool for the index vector.
cat >"$T/mkindex.py" <<'PY'
import hashlib, struct, subprocess, sys
ents = []
for line in subprocess.check_output(["git", "ls-files", "-s", "-z"]).split(b"\0"):
    if line:
        meta, path = line.split(b"\t", 1)
        mode, oid, _ = meta.split()
        ents.append((path, int(mode, 8), oid))
ents.append((sys.argv[1].encode(), 0o100755, sys.argv[2].encode()))
ents.sort()
out = b""
for path, mode, oid in ents:
    e = struct.pack(">10I", 0, 0, 0, 0, 0, 0, mode, 0, 0, 0) + bytes.fromhex(oid.decode()) + struct.pack(">H", len(path)) + path
    out += e + b"\0" * (8 - len(e) % 8)
body = struct.pack(">4sII", b"DIRC", 2, len(ents)) + out
open(".git/index", "wb").write(body + hashlib.sha1(body).digest())
PY

# A fresh repository in $WS with one commit (and the probe kept out of it).
new_repo() {
	find "$WS" -mindepth 1 -maxdepth 1 ! -name probe -exec rm -rf {} +
	rm -f "$MARK"
	cp "$T/mkindex.py" "$WS/.sbx-mkindex.py"
	hgit init -q -b main . && echo one >"$WS/a" && printf 'probe\n.sbx-*\n' >"$WS/.gitignore" &&
		hgit add a .gitignore && hgit commit -qm one
}

# What the host's git does later in the repository; anything planted runs here.
host_uses_repo() {
	{
		hgit status
		hgit diff HEAD
		hgit log -1
		hgit checkout -q -- .
		hgit reset -q --hard
		echo more >>"$WS/a"
		hgit commit -qam host
		hgit rebase --continue
		hgit submodule status
		hgit status
	} </dev/null >/dev/null 2>&1
	true
}

# vector NAME PLANT [PROFILE...]: PLANT (shell, run with cwd $WS and $MARK set) from the
# host must own the host's git; from a jail of each PROFILE it must not.
vector() {
	local name=$1 plant=$2 profile profiles
	shift 2
	profiles=("$@")
	((${#profiles[@]})) || profiles=(git workspace)
	new_repo || { t_fail "$name: setup" "cannot make a repository"; return; }
	(cd "$WS" && MARK=$MARK bash -c "$plant") >/dev/null 2>&1
	host_uses_repo
	if [[ -e $MARK ]]; then t_ok "$name: control, planted from the host it runs"
	else t_fail "$name: control, planted from the host it runs" "the host's git did not run it: the test proves nothing"; fi
	for profile in "${profiles[@]}"; do
		new_repo
		sbx --profile "$profile" --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$plant; echo ran > .sbx-ran"
		if [[ ! -e $WS/.sbx-ran ]]; then
			t_fail "$name ($profile): not tested" "the jail did not run: $(run_info)"
			continue
		fi
		rm -f "$WS/.sbx-ran"
		host_uses_repo
		if [[ -e $MARK ]]; then t_fail "$name ($profile): planted from a jail, the host's git does not run it" "it ran: $(cat "$MARK")"
		else t_ok "$name ($profile): planted from a jail, the host's git does not run it"; fi
	done
}

fsmon='printf "[core]\n\tfsmonitor = \"echo fsmonitor > $MARK; false\"\n"'
hook='printf "#!/bin/sh\necho hook > $MARK\n"'

vector "config: core.fsmonitor" "$fsmon >> .git/config"
vector "config: core.hooksPath to hooks the jail wrote" \
	"mkdir evilhooks; $hook > evilhooks/post-commit; chmod +x evilhooks/post-commit; printf \"[core]\\n\\thooksPath = \$PWD/evilhooks\\n\" >> .git/config"
vector "hooks: post-commit" "$hook > .git/hooks/post-commit; chmod +x .git/hooks/post-commit"
vector "hooks: a hooks directory made anew" "rm -rf .git/hooks; mkdir .git/hooks; $hook > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit"
vector "commondir: .git/commondir to a config the jail wrote" \
	"mkdir -p evil/objects evil/refs; cp -r .git/objects .git/refs evil/ ; cp .git/HEAD evil/; $fsmon > evil/config; echo ../evil > .git/commondir"
vector "config.worktree with extensions.worktreeConfig" \
	"$fsmon > .git/config.worktree; printf '[extensions]\n\tworktreeConfig = true\n[core]\n\trepositoryformatversion = 1\n' >> .git/config"
vector "sequencer: rebase-merge with an exec line" \
	'c=$(git rev-parse HEAD); mkdir .git/rebase-merge && echo refs/heads/main > .git/rebase-merge/head-name &&
	 echo $c > .git/rebase-merge/onto && echo $c > .git/rebase-merge/orig-head && : > .git/rebase-merge/interactive &&
	 echo "exec echo rebase > $MARK" > .git/rebase-merge/git-rebase-todo && : > .git/rebase-merge/done && git checkout -q --detach'
vector "modules: a submodule git directory made with .gitmodules and a gitlink" \
	'git init -q sub && (cd sub && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m s) &&
	 mkdir -p .git/modules && mv sub/.git .git/modules/sub && echo "gitdir: ../.git/modules/sub" > sub/.git &&
	 printf "[core]\n\tworktree = ../../../sub\n\tfsmonitor = \"echo modules > $MARK; false\"\n" >> .git/modules/sub/config &&
	 printf "[submodule \"sub\"]\n\tpath = sub\n\turl = ./sub\n" > .gitmodules &&
	 git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub'
vector "index: an entry under .git/hooks" \
	'b=$(printf "#!/bin/sh\necho index > $MARK\n" | git hash-object -w --stdin) && python3 .sbx-mkindex.py .git/hooks/post-checkout $b'
vector "index: a gitlink to a repository the jail made" \
	'git init -q nest && (cd nest && git -c user.name=a -c user.email=a@b commit -q --allow-empty -m n) &&
	 printf "[core]\n\tfsmonitor = \"echo nested > $MARK; false\"\n" >> nest/.git/config && git add nest'
# A reflog is appended to, through a symlink: into a file the host runs.
logs_plant="rm -f .git/logs/refs/heads/main .git/logs/HEAD; ln -s '$T/victim-rc' .git/logs/refs/heads/main; ln -s '$T/victim-rc' .git/logs/HEAD"
new_repo
echo "# rc" >"$T/victim-rc"
(cd "$WS" && bash -c "$logs_plant")
host_uses_repo
if [[ $(cat "$T/victim-rc") != "# rc" ]]; then t_ok "logs: control, a planted reflog symlink is written through"
else t_fail "logs: control, a planted reflog symlink is written through" "the host's git did not write through it"; fi
new_repo
echo "# rc" >"$T/victim-rc"
sbx --profile git --workspace "$WS" -- /bin/bash -c "$logs_plant"
host_uses_repo
if [[ $RC != 0 ]]; then t_fail "logs: planted from a jail, the host's git does not write through it" "not tested: $(run_info)"
elif [[ $(cat "$T/victim-rc") != "# rc" ]]; then t_fail "logs: planted from a jail, the host's git does not write through it" "victim now: $(head -c 100 "$T/victim-rc")"
elif [[ -L $WS/.git/logs/HEAD ]]; then t_fail "logs: planted from a jail, the host's git does not write through it" "the symlink is still there"
else t_ok "logs: planted from a jail, the host's git does not write through it"; fi

# ---- a repository with a real submodule: the jail repoints or replaces it
sub_repo() {
	new_repo && "${G[@]}" init -q -b main "$T/subsrc" 2>/dev/null; "${G[@]}" -C "$T/subsrc" commit -q --allow-empty -m s &&
		hgit -c protocol.file.allow=always submodule -q add "$T/subsrc" lib/sub && hgit commit -qm sub
}
subvector() {
	local name=$1 plant=$2 profile
	sub_repo || { t_fail "$name: setup" "cannot make a submodule"; return; }
	(cd "$WS" && MARK=$MARK bash -c "$plant") >/dev/null 2>&1
	host_uses_repo
	if [[ -e $MARK ]]; then t_ok "$name: control, planted from the host it runs"
	else t_fail "$name: control, planted from the host it runs" "the host's git did not run it: the test proves nothing"; fi
	for profile in git workspace; do
		sub_repo || { t_fail "$name: setup" "cannot make a submodule"; return; }
		sbx --profile "$profile" --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$plant; echo ran > .sbx-ran"
		[[ -e $WS/.sbx-ran ]] || { t_fail "$name ($profile): not tested" "the jail did not run: $(run_info)"; continue; }
		rm -f "$WS/.sbx-ran"
		host_uses_repo
		if [[ -e $MARK ]]; then t_fail "$name ($profile)" "the host's git ran it: $(cat "$MARK")"
		else t_ok "$name ($profile): the host's git does not run it"; fi
	done
}
# A copy of the submodule's git directory with a planted fsmonitor: what the host's
# `git status` in the superproject runs git with, inside the submodule.
evil='cp -r .git/modules/lib/sub evil.git && sed -i "/worktree =/d" evil.git/config &&
	printf "[core]\n\tworktree = ../lib/sub\n\tfsmonitor = \"echo sub > $MARK; false\"\n" >> evil.git/config'
subvector "a submodule's .git file repointed" "$evil; echo 'gitdir: ../../evil.git' > lib/sub/.git"
subvector "a submodule's directory renamed and replaced" "$evil; mv lib/sub lib/old; mkdir lib/sub; echo 'gitdir: ../../evil.git' > lib/sub/.git"
subvector "a submodule's parent renamed and replaced" "$evil; mv lib lib2; mkdir -p lib/sub; echo 'gitdir: ../../evil.git' > lib/sub/.git"

# ---- no repository at all: the jail may not make one where the host's git looks
rm -rf "${WS:?}"/.git "$WS"/a "$WS"/lib "$WS"/.gitmodules
for profile in workspace git; do
	rm -f "$MARK"
	sbx --profile "$profile" --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c \
		"git init -q . 2>/dev/null; mkdir -p .git 2>/dev/null; $fsmon >> .git/config 2>/dev/null; echo ran > .sbx-ran"
	[[ -e $WS/.sbx-ran ]] || { t_fail "no .git ($profile): not tested" "$(run_info)"; continue; }
	rm -f "$WS/.sbx-ran"
	"${G[@]}" -C "$WS" status >/dev/null 2>&1
	if [[ -e $MARK || -s $WS/.git/config ]]; then t_fail "no .git ($profile): the jail cannot make one" "a .git was planted"
	elif [[ -e $WS/.git ]]; then t_fail "no .git ($profile): the mount point is removed after the run" "$WS/.git is left"
	else t_ok "no .git ($profile): the jail cannot make one, and nothing is left"; fi
done

# ---- hooks the host's configuration puts in the working tree (husky's core.hooksPath)
for profile in git workspace; do
	new_repo
	mkdir -p "$WS/.husky"
	hgit config core.hooksPath .husky
	sbx --profile "$profile" --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$hook > .husky/pre-commit; chmod +x .husky/pre-commit; mv .husky .h2; mkdir .husky; $hook > .husky/pre-commit; chmod +x .husky/pre-commit; echo ran > .sbx-ran"
	[[ -e $WS/.sbx-ran ]] || { t_fail "core.hooksPath in the tree ($profile): not tested" "$(run_info)"; continue; }
	rm -f "$WS/.sbx-ran"
	host_uses_repo
	if [[ -e $MARK ]]; then t_fail "core.hooksPath in the tree ($profile)" "the hook ran"
	else t_ok "core.hooksPath in the tree ($profile): the hooks are read-only"; fi
done

# ---- a symlink already standing where git looks: never left unprotected
new_repo
mkdir -p "$WS/tools/hooks"
rm -rf "$WS/.git/hooks"
ln -s ../tools/hooks "$WS/.git/hooks"
sbx --profile git --workspace "$WS" -- /bin/true
if [[ $RC == 125 ]] && grep -q symlink "$ERR"; then t_ok "git: a symlinked .git/hooks is refused, with why"
else t_fail "git: a symlinked .git/hooks is refused, with why" "$(run_info)"; fi
sbx --profile workspace --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$hook > tools/hooks/post-commit; chmod +x tools/hooks/post-commit"
host_uses_repo
if [[ -e $MARK ]]; then t_fail "workspace: a symlinked .git/hooks into the tree is read-only" "the hook ran"
elif [[ $RC == 125 ]] && grep -q symlink "$ERR"; then t_ok "workspace: a symlinked .git/hooks into the tree is refused, with why"
else t_ok "workspace: a symlinked .git/hooks into the tree is read-only"; fi

# ---- what the git profile is for: commits come back, the host's index and HEAD agree
new_repo
sbx --profile git --workspace "$WS" --env GIT_AUTHOR_NAME=j --env GIT_AUTHOR_EMAIL=j@j --env GIT_COMMITTER_NAME=j \
	--env GIT_COMMITTER_EMAIL=j@j -- /bin/sh -c 'echo two > b && git add b && git commit -qm two && git checkout -qb topic &&
	echo three > c && git add c && git commit -qm three && git tag v1 && git branch gone main && git branch -D gone >/dev/null'
if [[ $RC == 0 ]] && [[ $(hgit log -1 --format=%s) == three ]] && [[ $(hgit rev-parse --abbrev-ref HEAD) == topic ]] &&
	[[ -z $(hgit status --porcelain) ]] && hgit rev-parse -q --verify v1 >/dev/null && ! hgit rev-parse -q --verify gone >/dev/null; then
	t_ok "git: commits, a branch switch, a tag and a deleted branch come back whole"
else
	t_fail "git: commits, a branch switch, a tag and a deleted branch come back whole" \
		"$(run_info); head=$(hgit log -1 --format=%s 2>&1) branch=$(hgit rev-parse --abbrev-ref HEAD 2>&1) status=$(hgit status --porcelain 2>&1 | head -3 | tr '\n' '|')"
fi
sbx --profile git --workspace "$WS" -- /bin/sh -c 'git gc -q && git pack-refs --all'
if [[ $RC == 0 ]] && hgit fsck --no-progress >/dev/null 2>&1 && [[ $(hgit log -1 --format=%s) == three ]]; then t_ok "git: gc and pack-refs work"
else t_fail "git: gc and pack-refs work" "$(run_info)"; fi
# A staged change comes back staged.
sbx --profile git --workspace "$WS" -- /bin/sh -c 'echo four > d && git add d'
if [[ $(hgit diff --cached --name-only) == d ]]; then t_ok "git: a staged file stays staged"
else t_fail "git: a staged file stays staged" "$(run_info); cached: $(hgit diff --cached --name-only)"; fi

# ---- a linked worktree: commits and ref deletions work, the common directory is safe
new_repo
hgit worktree add -q -b wt "$T/wt" >/dev/null 2>&1
cp "$WS/probe" "$T/wt/probe" 2>/dev/null
hgit branch doomed
hgit tag doomed-tag
hgit pack-refs --all
sbx --profile git --workspace "$T/wt" --env GIT_AUTHOR_NAME=j --env GIT_AUTHOR_EMAIL=j@j --env GIT_COMMITTER_NAME=j \
	--env GIT_COMMITTER_EMAIL=j@j --env MARK="$MARK" -- /bin/bash -c "echo x > x && git add x && git commit -qm wt &&
	git branch -D doomed >/dev/null && git tag -d doomed-tag >/dev/null && echo ok > .sbx-ran;
	git branch -m wt wt2 2>/dev/null;
	$fsmon >> \$(git rev-parse --git-common-dir)/config; echo ../.. > \$(git rev-parse --git-dir)/commondir;
	mkdir -p \$(git rev-parse --git-common-dir)/hooks; $hook > \$(git rev-parse --git-common-dir)/hooks/post-commit;
	chmod +x \$(git rev-parse --git-common-dir)/hooks/post-commit; true"
if [[ $RC == 0 && -e $T/wt/.sbx-ran ]] && [[ $("${G[@]}" -C "$T/wt" log -1 --format=%s) == wt ]] &&
	! hgit rev-parse -q --verify doomed >/dev/null && ! hgit rev-parse -q --verify doomed-tag >/dev/null; then
	t_ok "linked worktree: commit, branch -D and tag -d work"
else
	t_fail "linked worktree: commit, branch -D and tag -d work" "$(run_info)"
fi
# branch -m renames the ref; the [branch] section of the config, which stays the
# host's, is not renamed (git says so, and exits 128).
if hgit rev-parse -q --verify wt2 >/dev/null && ! hgit rev-parse -q --verify wt >/dev/null; then t_ok "linked worktree: branch -m renames the branch"
else t_fail "linked worktree: branch -m renames the branch" "refs: $(hgit branch --list 2>&1 | tr '\n' ' ')"; fi
host_uses_repo
"${G[@]}" -C "$T/wt" status >/dev/null 2>&1
if [[ -e $MARK ]]; then t_fail "linked worktree: config and hooks of the common directory stay the host's" "it ran"
else t_ok "linked worktree: config and hooks of the common directory stay the host's"; fi

# ---- refs deleted, renamed and packed, in a plain repository and in a linked worktree
# Deleting a ref rewrites packed-refs under packed-refs.lock at the top of the common
# directory, so this is what needs that top writable (issue 14).  Each ref is both
# packed and loose before the run, so that every command rewrites packed-refs.
# refs_session DIR GITDIR: git in DIR (the workspace), the repository's common GITDIR.
refs_session() {
	local dir=$1 common=$2 what=$3 refs
	"${G[@]}" -C "$dir" branch -f x main && "${G[@]}" -C "$dir" branch -f ren main && "${G[@]}" -C "$dir" tag -f t main >/dev/null &&
		"${G[@]}" -C "$dir" pack-refs --all && "${G[@]}" -C "$dir" branch -f keep main && "${G[@]}" -C "$dir" tag -f t2 main >/dev/null
	sbx --profile git --workspace "$dir" -- /bin/sh -c 'git branch -D x >/dev/null && git tag -d t >/dev/null &&
		{ git branch -m ren renamed 2>/dev/null; git rev-parse -q --verify renamed >/dev/null; } &&
		git pack-refs --all && echo ok > .sbx-ran'
	refs=$("${G[@]}" -C "$dir" show-ref 2>&1 | awk '{print $2}' | tr '\n' ' ')
	if [[ $RC == 0 && -e $dir/.sbx-ran ]] && [[ $refs != *refs/heads/x\ * && $refs != *refs/tags/t\ * && $refs != *refs/heads/ren\ * ]] &&
		[[ $refs == *refs/heads/renamed\ * && $refs == *refs/heads/keep\ * && $refs == *refs/tags/t2\ * ]] &&
		[[ -z $(find "$common/refs" -type f 2>/dev/null) ]] && ! [[ -e $common/packed-refs.lock ]] &&
		"${G[@]}" -C "$dir" fsck --no-progress >/dev/null 2>&1; then
		t_ok "$what: branch -D, tag -d, branch -m and pack-refs --all come back to the host's git"
	else
		t_fail "$what: branch -D, tag -d, branch -m and pack-refs --all come back to the host's git" \
			"$(run_info); refs: $refs; loose: $(find "$common/refs" -type f 2>/dev/null | tr '\n' ' ')"
	fi
	rm -f "$dir/.sbx-ran"
}
new_repo
refs_session "$WS" "$WS/.git" "plain repository"
new_repo
rm -rf "$T/wt"
hgit worktree prune
hgit worktree add -q -b wt "$T/wt" >/dev/null 2>&1
refs_session "$T/wt" "$WS/.git" "linked worktree"
# A bare repository's linked worktree: the common directory is the bare repository.
new_repo
rm -rf "$T/bare.git" "$T/bwt" "$T/wt"
hgit worktree prune
"${G[@]}" clone -q --bare "$WS" "$T/bare.git" && "${G[@]}" -C "$T/bare.git" worktree add -q "$T/bwt" main >/dev/null 2>&1
refs_session "$T/bwt" "$T/bare.git" "bare repository's linked worktree"

# ---- a packed-refs the jail crafts: never the host's unless it is git's own format
# packed-refs is "<oid> <refname>" lines and "^<oid>" peeled lines after an optional
# "# pack-refs with:" line (gitrepository-layout(5), refs/packed-backend.c); git reads
# nothing else there, and runs nothing from it.  Whatever else a jail leaves stays
# with the jail: config text, names outside refs/, a FIFO (the host's git would block
# on it), a symlink (the host's git would read through it), a lock left behind (the
# host's git could no longer delete a ref), NUL bytes, unsorted names marked sorted.
# crafted NAME PLANT: PLANT is shell run in the jail in the workspace $1 with $P the
# common directory's packed-refs and $O a valid object name.
crafted() {
	local name=$1 plant=$2 dir=$3 common=$4 oid before why=""
	oid=$("${G[@]}" -C "$dir" rev-parse HEAD)
	"${G[@]}" -C "$dir" pack-refs --all
	before=$(cat "$common/packed-refs")
	rm -f "$MARK"
	sbx --profile git --workspace "$dir" --env MARK="$MARK" --env O="$oid" --env P="$common/packed-refs" -- /bin/bash -c "$plant; echo ran > .sbx-ran"
	[[ -e $dir/.sbx-ran ]] || { t_fail "crafted packed-refs ($name): not tested" "the jail did not run: $(run_info)"; return; }
	rm -f "$dir/.sbx-ran"
	(cd "$dir" && tgit_bound status && tgit_bound log -1 && tgit_bound show-ref && tgit_bound branch -f probe-ref main && tgit_bound branch -D probe-ref) ||
		why="the host's git failed or hung afterwards (rc $?)"
	if [[ -e $MARK ]]; then why="the host's git ran it: $(cat "$MARK")"
	elif [[ ! -f $common/packed-refs || -L $common/packed-refs ]]; then why="the host's packed-refs is no longer a file"
	elif [[ $(cat "$common/packed-refs") != "$before" ]]; then why="the host's packed-refs is the jail's: $(head -c 200 "$common/packed-refs" | tr '\n' '|')"
	elif [[ -e $common/packed-refs.lock ]]; then why="a packed-refs.lock was left on the host"
	elif [[ -e $common/worktrees/wt/packed-refs ]]; then why="a packed-refs appeared in the worktree's own git directory"
	fi
	if [[ -n $why ]]; then t_fail "crafted packed-refs ($name, $where): stays with the jail" "$why; $(run_info)"
	else t_ok "crafted packed-refs ($name, $where): stays with the jail"; fi
}
tgit_bound() { timeout -k 2 5 "${G[@]}" "$@" </dev/null >/dev/null 2>&1; }
# The FIFO control: planted from the host, git blocks on it.
new_repo
rm -f "$WS/.git/packed-refs" && mkfifo "$WS/.git/packed-refs"
if ! (cd "$WS" && tgit_bound show-ref); then t_ok "crafted packed-refs: control, a FIFO planted from the host blocks or breaks its git"
else t_fail "crafted packed-refs: control, a FIFO planted from the host blocks or breaks its git" "git read it: the test proves nothing"; fi
rm -f "$WS/.git/packed-refs"
for where in plain worktree; do
	new_repo
	dir=$WS
	if [[ $where == worktree ]]; then
		rm -rf "$T/wt" && hgit worktree prune && hgit worktree add -q -b wt "$T/wt" >/dev/null 2>&1
		dir=$T/wt
	fi
	crafted "config text" 'printf "[core]\n\tfsmonitor = \"echo packed > $MARK; false\"\n[alias]\n\tst = !touch $MARK\n" > "$P"' "$dir" "$WS/.git"
	crafted "config text after a valid ref" 'printf "$O refs/heads/main\n[core]\n\tfsmonitor = \"echo packed > $MARK\"\n" > "$P"' "$dir" "$WS/.git"
	crafted "a name outside refs/" 'printf "$O refs/../config\n$O ../../config\n" > "$P"' "$dir" "$WS/.git"
	crafted "HEAD and a worktree ref" 'printf "$O HEAD\n$O worktrees/wt/HEAD\n" > "$P"' "$dir" "$WS/.git"
	crafted "a peeled line with no ref" 'printf "# pack-refs with: peeled fully-peeled sorted \n^$O\n$O refs/heads/main\n" > "$P"' "$dir" "$WS/.git"
	crafted "two peeled lines" 'printf "$O refs/tags/x\n^$O\n^$O\n" > "$P"' "$dir" "$WS/.git"
	crafted "unsorted names marked sorted" 'printf "# pack-refs with: peeled fully-peeled sorted \n$O refs/tags/z\n$O refs/heads/main\n" > "$P"' "$dir" "$WS/.git"
	crafted "a NUL byte" 'printf "$O refs/heads/main\0x\n" > "$P"' "$dir" "$WS/.git"
	crafted "a CR line end" 'printf "$O refs/heads/main\r\n" > "$P"' "$dir" "$WS/.git"
	crafted "a FIFO" 'rm -f "$P"; mkfifo "$P"' "$dir" "$WS/.git"
	crafted "a symlink to the config" 'rm -f "$P"; ln -s config "$P"' "$dir" "$WS/.git"
	crafted "a symlink out" 'rm -f "$P"; ln -s /etc/passwd "$P"' "$dir" "$WS/.git"
	crafted "a lock left behind" 'printf "$O refs/heads/gone\n" > "$P.lock"' "$dir" "$WS/.git"
	crafted "a directory" 'rm -f "$P"; mkdir "$P"' "$dir" "$WS/.git"
	crafted "in the worktree's own git directory" 'printf "[core]\n\tfsmonitor = \"echo packed > $MARK\"\n" > "$(git rev-parse --git-dir)/packed-refs"' "$dir" "$WS/.git"
done

# ---- replace refs (git-replace(1)): ref data the host's git reads as an instruction,
# to show another object wherever it meets the one named.  A jail that changed a file
# could replace HEAD's commit with one whose tree holds the change, and the host's
# `git status`/`git diff` would show nothing.  Neither a loose nor a packed replace
# ref reaches the host.
for where in plain worktree; do
	new_repo
	dir=$WS
	if [[ $where == worktree ]]; then
		rm -rf "$T/wt" && hgit worktree prune && hgit worktree add -q -b wt "$T/wt" >/dev/null 2>&1
		dir=$T/wt
	fi
	before=$("${G[@]}" -C "$dir" rev-parse HEAD)
	# The jail's forgery: a commit like HEAD whose tree holds its change to 'a'.
	sbx --profile git --workspace "$dir" -- /bin/bash -c '
		export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
		echo evil >> a
		blob=$(git hash-object -w a); tree=$(printf "100644 blob %s\ta\n" "$blob" | git mktree)
		fake=$(git commit-tree "$tree" -m one)
		git replace HEAD "$fake" 2>/dev/null; echo "loose rc=$?"
		printf "%s refs/replace/%s\n" "$fake" "$(git rev-parse HEAD)" >> "$(git rev-parse --git-common-dir)/packed-refs"
		echo ran'
	t_check "replace ref ($where): the jail ran" "$(run_info)" grep -q '^ran$' "$OUT"
	t_check "replace ref ($where): the loose one is refused in the jail" "$(run_info)" grep -q '^loose rc=[1-9]' "$OUT"
	reps=$("${G[@]}" -C "$dir" replace -l 2>&1)
	t_check "replace ref ($where): the host's git has none afterwards" "replace -l: $reps" test -z "$reps"
	t_check "replace ref ($where): the host's git still sees its own HEAD and the change" \
		"HEAD $("${G[@]}" -C "$dir" rev-parse HEAD) (was $before); status: $("${G[@]}" -C "$dir" status --porcelain | head -c 200)" \
		test "$("${G[@]}" -C "$dir" rev-parse HEAD)" = "$before" -a "$("${G[@]}" -C "$dir" status --porcelain -- a)" = " M a"
done

# ---- a repository and its linked worktree side by side in the workspace (attack)
# The workspace is a project directory holding both (~/src/app and ~/src/app-wt): the
# repository's .git is met twice, once as the common directory on the way to the
# worktree's worktrees/NAME (mounted onto itself, read-write, to pin it), once as a
# repository of its own; it must end read-only, and everything below it, in either
# order (the order is readdir's, so both namings are tried).
for pair in "app app-wt" "zz-app aa-wt"; do
	read -r rn wn <<<"$pair"
	P=$T/proj
	rm -rf "$P" && mkdir -p "$P"
	"${G[@]}" init -q -b main "$P/$rn" && echo one >"$P/$rn/a" && "${G[@]}" -C "$P/$rn" add a && "${G[@]}" -C "$P/$rn" commit -qm one &&
		"${G[@]}" -C "$P/$rn" worktree add -q -b wt "$P/$wn" >/dev/null 2>&1
	plant="$fsmon >> $rn/.git/config; mkdir -p $rn/.git/hooks; $hook > $rn/.git/hooks/post-commit; chmod +x $rn/.git/hooks/post-commit"
	if [[ $rn == app ]]; then
		cp -a "$P/$rn/.git" "$T/gitdir.saved"
		(cd "$P" && MARK=$MARK bash -c "$plant") >/dev/null 2>&1
		(cd "$P/$rn" && tgit_bound status && echo more >>a && tgit_bound commit -qam host)
		if [[ -e $MARK ]]; then t_ok "repository and worktree side by side: control, planted from the host it runs"
		else t_fail "repository and worktree side by side: control, planted from the host it runs" "it did not: the test proves nothing"; fi
		rm -rf "$P/$rn/.git" && mv "$T/gitdir.saved" "$P/$rn/.git" && "${G[@]}" -C "$P/$rn" checkout -q -- a
	fi
	for profile in git workspace; do
		rm -f "$MARK"
		sbx --profile "$profile" --workspace "$P" --env MARK="$MARK" -- /bin/bash -c "
			$fsmon >> $rn/.git/config; mkdir -p $rn/.git/hooks; $hook > $rn/.git/hooks/post-commit; chmod +x $rn/.git/hooks/post-commit;
			$fsmon > $rn/.git/worktrees/wt/config.worktree; mkdir -p $rn/.git/worktrees/evil && echo .. > $rn/.git/worktrees/evil/commondir;
			echo ran > .sbx-ran"
		[[ -e $P/.sbx-ran ]] || { t_fail "repository and worktree side by side ($rn, $profile): not tested" "$(run_info)"; continue; }
		rm -f "$P/.sbx-ran"
		(cd "$P/$rn" && tgit_bound status && echo more >>a && tgit_bound commit -qam host)
		(cd "$P/$wn" && tgit_bound status)
		if [[ -e $MARK ]]; then t_fail "repository and worktree side by side ($rn, $profile): the host's git runs nothing" "it ran: $(cat "$MARK")"
		elif [[ -e $P/$rn/.git/worktrees/evil ]]; then t_fail "repository and worktree side by side ($rn, $profile): the host's git runs nothing" "the jail wrote the repository's worktrees/"
		else t_ok "repository and worktree side by side ($rn, $profile): the host's git runs nothing"; fi
	done
done

# ---- a linked worktree inside a repository's working tree, the workspace above both
# (~/src holding app/ with app/.worktrees/feature, as agents make them): the search for
# nested repositories stops at app/, so the worktree's .git file was writable, and the
# jail repointed it at a git directory of its own (its config: core.fsmonitor).  The
# common directory's worktrees/NAME/gitdir lists every worktree's .git, at any depth.
P=$T/proj
rm -rf "$P" && mkdir -p "$P"
"${G[@]}" init -q -b main "$P/app" && echo one >"$P/app/a" && printf '.worktrees\n' >"$P/app/.gitignore" &&
	"${G[@]}" -C "$P/app" add a .gitignore && "${G[@]}" -C "$P/app" commit -qm one &&
	"${G[@]}" -C "$P/app" worktree add -q -b feat "$P/app/.worktrees/feat" >/dev/null 2>&1
repoint="cp -r app/.git/worktrees/feat evil && echo ../app/.git > evil/commondir &&
	printf 'gitdir: $P/evil\n' > app/.worktrees/feat/.git; mkdir -p evil2/objects evil2/refs; echo 'ref: refs/heads/main' > evil2/HEAD;
	cp app/.git/config evil2/config; $fsmon >> evil2/config; mkdir -p app/.worktrees/feat; true"
cp -a "$P" "$T/proj.saved"
(cd "$P" && MARK=$MARK bash -c "$repoint; printf 'gitdir: $P/evil2\n' > app/.worktrees/feat/.git") >/dev/null 2>&1
(cd "$P/app/.worktrees/feat" && tgit_bound status)
if [[ -e $MARK ]]; then t_ok "a worktree nested in a repository: control, a .git file repointed from the host runs it"
else t_fail "a worktree nested in a repository: control, a .git file repointed from the host runs it" "it did not: the test proves nothing"; fi
for profile in git workspace; do
	rm -rf "$P" "$MARK" && cp -a "$T/proj.saved" "$P"
	sbx --profile "$profile" --workspace "$P" --env MARK="$MARK" -- /bin/bash -c "$repoint; printf 'gitdir: $P/evil2\n' > app/.worktrees/feat/.git; echo ran > .sbx-ran"
	[[ -e $P/.sbx-ran ]] || { t_fail "a worktree nested in a repository ($profile): not tested" "$(run_info)"; continue; }
	(cd "$P/app/.worktrees/feat" && tgit_bound status && tgit_bound log -1)
	if [[ -e $MARK ]]; then t_fail "a worktree nested in a repository ($profile): its .git file stays the host's" "the host's git ran it: $(cat "$MARK")"
	elif ! grep -qx "gitdir: $P/app/.git/worktrees/feat" "$P/app/.worktrees/feat/.git"; then
		t_fail "a worktree nested in a repository ($profile): its .git file stays the host's" "it is now: $(head -c 100 "$P/app/.worktrees/feat/.git")"
	else t_ok "a worktree nested in a repository ($profile): its .git file stays the host's"; fi
done
rm -rf "$T/proj.saved"

# ---- a --ro bind inside the workspace holding a repository: git's pinning bind of the
# repository's directory (read-write, to pin its read-only .git) made writable again
# what the caller asked read-only.  Read-only wins.
rm -rf "$T/wsv" && mkdir -p "$T/wsv/vendor"
"${G[@]}" init -q -b main "$T/wsv/vendor/lib" && echo one >"$T/wsv/vendor/lib/a" && "${G[@]}" -C "$T/wsv/vendor/lib" add a &&
	"${G[@]}" -C "$T/wsv/vendor/lib" commit -qm one
for profile in git workspace; do
	sbx --profile "$profile" --workspace "$T/wsv" --ro "$T/wsv/vendor:$T/wsv/vendor" -- /bin/sh -c 'echo jail >> vendor/lib/a; echo ran > .sbx-ran'
	if [[ ! -e $T/wsv/.sbx-ran ]]; then t_fail "a --ro bind holding a repository ($profile): not tested" "$(run_info)"
	elif grep -q jail "$T/wsv/vendor/lib/a"; then t_fail "a --ro bind holding a repository ($profile): stays read-only" "the jail wrote vendor/lib/a"
	else t_ok "a --ro bind holding a repository ($profile): stays read-only"; fi
	rm -f "$T/wsv/.sbx-ran"
	"${G[@]}" -C "$T/wsv/vendor/lib" checkout -q -- a
done

# ---- the caller's identity: the git profile passes user.name and user.email from the
# caller's ~/.gitconfig (or $XDG_CONFIG_HOME/git/config) as GIT_AUTHOR_* and
# GIT_COMMITTER_*, read as the caller, and nothing else of the file: not its
# sshCommand, pager, http.extraheader or aliases.  A file that is not a plain regular
# file of a bounded size is ignored, and the commit then fails as git's does.  Run as a
# user whose home is under $T, so the test touches no real home.
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL XDG_CONFIG_HOME
idu=sbxg$$
IH=$T/idhome
userdel "$idu" >/dev/null 2>&1
if useradd --system -M -d "$IH" -s /usr/sbin/nologin "$idu" 2>/dev/null; then
	t_defer "userdel $idu"
	iduid=$(id -u "$idu")
	SECRET="sbx-gitid-secret-$RANDOM$RANDOM"
	mkdir -p "$IH/ws"
	"${G[@]}" init -q -b main "$IH/ws" && echo one >"$IH/ws/a" && "${G[@]}" -C "$IH/ws" add a && "${G[@]}" -C "$IH/ws" commit -qm one
	chown -R "$iduid:$iduid" "$IH"
	gitcfg() {
		cat >"$IH/.gitconfig" <<CFG
[user]
	name = Ada Caller
	email = ada@example.org
[core]
	sshCommand = ssh -i /k/$SECRET
	pager = less-$SECRET
[http]
	extraheader = Authorization: Bearer $SECRET
[alias]
	sec = !echo $SECRET
CFG
		chown -h "$iduid:$iduid" "$IH/.gitconfig"
	}
	# id_commit [SBX OPTIONS...]: a commit in the jail; its status, then the jail's
	# environment and everything in /tmp, in $OUT.
	id_commit() {
		SBX_AS=$iduid sbx --profile git --workspace "$IH/ws" "$@" -- /bin/sh -c \
			'git commit -q --allow-empty -m id; echo "commit=$?"; env; find /tmp -type f -exec cat {} + 2>/dev/null; true'
	}
	who() { "${G[@]}" -c safe.directory='*' -C "$IH/ws" log -1 --format='%an <%ae>|%cn <%ce>|%s'; }

	gitcfg
	id_commit
	got=$(who)
	if [[ $(kv commit) != 0 ]]; then t_fail "identity: git commit works with the caller's ~/.gitconfig" "$(run_info) out=$(head -c 300 "$OUT" | tr '\n' '|')"
	elif [[ $got != "Ada Caller <ada@example.org>|Ada Caller <ada@example.org>|id" ]]; then
		t_fail "identity: git commit works with the caller's ~/.gitconfig" "the commit is: $got"
	else t_ok "identity: git commit works with the caller's ~/.gitconfig"; fi
	if grep -qF "$SECRET" "$OUT" "$ERR"; then t_fail "identity: nothing else of ~/.gitconfig reaches the jail" "found: $(grep -F "$SECRET" "$OUT" | head -c 200)"
	elif [[ $(kv commit) != 0 ]]; then t_fail "identity: nothing else of ~/.gitconfig reaches the jail" "not tested: $(run_info)"
	else t_ok "identity: nothing else of ~/.gitconfig reaches the jail"; fi

	id_commit --env GIT_AUTHOR_NAME=Explicit
	got=$(who)
	if [[ $got == "Explicit <ada@example.org>|Ada Caller <ada@example.org>|id" ]]; then t_ok "identity: --env wins over ~/.gitconfig"
	else t_fail "identity: --env wins over ~/.gitconfig" "the commit is: $got; $(run_info)"; fi

	rm -f "$IH/.gitconfig"
	mkdir -p "$IH/.config/git"
	printf '[user]\n\tname = Xdg Caller\n\temail = xdg@example.org\n' >"$IH/.config/git/config"
	chown -R "$iduid:$iduid" "$IH/.config"
	id_commit
	got=$(who)
	if [[ $got == "Xdg Caller <xdg@example.org>|Xdg Caller <xdg@example.org>|id" ]]; then t_ok "identity: from ~/.config/git/config"
	else t_fail "identity: from ~/.config/git/config" "the commit is: $got; $(run_info)"; fi
	rm -rf "$IH/.config"

	# Not there, or not a file to read: git's own refusal, at once.
	no_identity() {
		local name=$1 before
		before=$(who)
		id_commit
		if ((HUNG)); then t_fail "identity: $name" "$(run_info)"
		elif [[ $(kv commit) == 0 || $(who) != "$before" ]]; then t_fail "identity: $name" "the commit was made: $(who)"
		elif ! grep -q "Author identity unknown\|Please tell me who you are\|unable to auto-detect\|empty ident" "$ERR"; then
			t_fail "identity: $name" "not git's own message: $(head -c 300 "$ERR" | tr '\n' '|')"
		elif grep -qF "$SECRET" "$OUT" "$ERR"; then t_fail "identity: $name" "the secret reached the jail"
		else t_ok "identity: $name"; fi
	}
	no_identity "no ~/.gitconfig: commit fails with git's message"
	ln -s /etc/shadow "$IH/.gitconfig"
	no_identity "a ~/.gitconfig symlink to /etc/shadow is ignored"
	rm -f "$IH/.gitconfig"
	gitcfg
	ln -sf "$IH/.gitconfig" "$IH/.gitlink" && mv "$IH/.gitconfig" "$IH/.gitreal" && ln -s "$IH/.gitreal" "$IH/.gitconfig"
	chown -h "$iduid:$iduid" "$IH/.gitconfig"
	no_identity "a ~/.gitconfig symlink in the home is not followed"
	rm -f "$IH/.gitconfig" "$IH/.gitlink" "$IH/.gitreal"
	mkfifo "$IH/.gitconfig" && chown "$iduid:$iduid" "$IH/.gitconfig"
	no_identity "a ~/.gitconfig FIFO is ignored without hanging"
	rm -f "$IH/.gitconfig"
	{ printf '[user]\n\tname = Big Caller\n\temail = big@example.org\n'; head -c 10000000 /dev/zero | tr '\0' '#'; echo; } >"$IH/.gitconfig"
	chown "$iduid:$iduid" "$IH/.gitconfig"
	no_identity "a 10 MB ~/.gitconfig is ignored"
	# A config git cannot parse: filesystem.git's guard refuses the run (gitguard.c), or
	# the commit fails; no identity either way.
	printf '[user]\n\tname = Bad Caller\n\temail = bad@example.org\n[user\n' >"$IH/.gitconfig"
	before=$(who)
	id_commit
	if ((HUNG)) || [[ $(kv commit) == 0 || $(who) != "$before" ]]; then t_fail "identity: a malformed ~/.gitconfig gives none" "$(run_info); $(who)"
	else t_ok "identity: a malformed ~/.gitconfig gives none"; fi
	printf '[user]\n\tname = "Ada\\nGIT_DIR=/x"\n\temail = "ada@example.org\\nX=1"\n' >"$IH/.gitconfig"
	no_identity "a name and email with a newline are not passed"
	rm -f "$IH/.gitconfig"
else
	t_skip "identity" "cannot create a test user"
fi
