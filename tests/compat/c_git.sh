#!/bin/bash
# A git session the way an agent runs one, under --profile git, in a plain repository
# and in a linked worktree (whose common directory lies outside the workspace; issue
# 14, item 2): commits, branches made, switched, renamed and deleted, tags made and
# deleted, a merge, a rebase, a stash, pack-refs, gc, fsck.  Every step's status, and
# the final history and refs as the host's git reads them afterwards, must be those of
# the same session outside.  Dates and identities are fixed, so the object names are
# too.  And git init in an empty workspace, which the jail refuses by design (its .git
# is the jail's empty read-only guard: sbx-profile(5), GIT DIRECTORIES).
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || { c_skip "git session" "git is not installed"; exit 0; }

# The session: each step a literal command line (the git profile's command checker
# reads every command name before it runs; @B@ is the branch checked out).  The last
# lines say what the failed steps wrote on stderr, how many ran and which failed.
steps=(
	"echo 1 >f1" "add|git add f1" "commit|git commit -qm c1"
	"branch|git branch feature" "checkout|git checkout -q feature"
	"echo 2 >f2" "add|git add f2" "commit on a branch|git commit -qm c2"
	"checkout back|git checkout -q @B@"
	"echo 3 >f3" "add|git add f3" "commit|git commit -qm c3"
	"checkout -b|git checkout -q -b topic HEAD~1"
	"echo 4 >f4" "add|git add f4" "commit on topic|git commit -qm c4"
	"checkout back|git checkout -q @B@" "merge|git merge -q --no-edit feature"
	"checkout topic|git checkout -q topic" "rebase|git rebase -q @B@"
	"checkout back|git checkout -q @B@" "merge --ff-only|git merge -q --ff-only topic"
	"tag|git tag v1" "tag -a|git tag -a -m annotated v2" "tag|git tag tmp" "tag -d|git tag -d tmp"
	"branch|git branch gone" "branch -D|git branch -D gone" "branch -m|git branch -m feature feature2"
	"echo 5 >>f1" "stash|git stash -q" "stash list|git stash list" "stash pop|git stash pop -q"
	"commit -a|git commit -qam c5"
	"pack-refs --all|git pack-refs --all" "gc|git gc -q" "fsck|git fsck --no-progress" "log|git log --oneline"
)
session='export GIT_AUTHOR_NAME=Compat GIT_AUTHOR_EMAIL=compat@example.org GIT_COMMITTER_NAME=Compat
export GIT_COMMITTER_EMAIL=compat@example.org GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_DATE="2001-02-03T04:05:06+0000" GIT_COMMITTER_DATE="2001-02-03T04:05:06+0000"
failed="" errs="" n=0'
for st in "${steps[@]}"; do
	if [[ $st != *"|"* ]]; then
		session+=$'\n'"$st"
		continue
	fi
	session+=$'\n'"n=\$((n + 1)); e=\$(${st#*|} 2>&1 >/dev/null) || { failed=\"\$failed ${st%%|*}: exit \$?;\"; errs=\"\$errs ${st%%|*}: \$e;\"; }"
done
# shellcheck disable=SC2016
session+=$'\n''printf "errors:%s\n" "$(printf "%s" "$errs" | tr "\n" " ")"; echo "$n steps, failed:${failed:- none}"'

# The state the host's git reads in DIR afterwards, as WHO: history, refs, status.
state() {
	{
		as "$1" git -C "$2" log --format=%H%s
		as "$1" git -C "$2" for-each-ref --format='%(objectname) %(refname)'
		as "$1" git -C "$2" status --porcelain
	} 2>&1 | tee "$T/state.$3" | sha256sum | head -c 8
}

# setup WHO KIND: a fresh repository in the workspace, made by the host as WHO; prints
# the directory the session runs in (plain: the repository; worktree: a linked
# worktree of it, ../wt, on branch wt).
setup() {
	local ws
	ws=$(c_ws "$1")
	rm -rf "$ws/plain" "$ws/repo" "$ws/wt"
	if [[ $2 == plain ]]; then
		as "$1" git init -q -b main "$ws/plain"
		echo "$ws/plain"
	else
		as "$1" git init -q -b main "$ws/repo" &&
			as "$1" sh -c "cd $ws/repo && echo 0 >f0 && git add f0 && GIT_AUTHOR_NAME=Compat GIT_AUTHOR_EMAIL=compat@example.org \
				GIT_COMMITTER_NAME=Compat GIT_COMMITTER_EMAIL=compat@example.org GIT_AUTHOR_DATE='2001-02-03T04:05:06+0000' \
				GIT_COMMITTER_DATE='2001-02-03T04:05:06+0000' git commit -qm base && git worktree add -q -b wt ../wt" >/dev/null 2>&1
		echo "$ws/wt"
	fi
}

chown -R "$C_UID:$C_UID" "$(c_ws user)"
for kind in plain worktree; do
	if [[ $kind == plain ]]; then w="git session (plain repository, --profile git)"; else w="git session (linked worktree, --profile git)"; fi
	for who in root user; do
		dir=$(setup $who $kind)
		if [[ $kind == plain ]]; then b=main; else b=wt; fi
		C_DIR=$dir c_out $who "${session//@B@/$b}"
		outside="exit $RC: $(tail -1 "$OUT" | sed 's/;$//'); state $(state $who "$dir" out)"
		dir=$(setup $who $kind)
		C_DIR=$dir c_in $who --profile git -- "${session//@B@/$b}"
		inside="exit $RC: $(tail -1 "$OUT" | sed 's/;$//'); state $(state $who "$dir" in)"
		c_compare "$w" $who "$outside" "$inside" "inside $(grep '^errors:' "$OUT"); $(run_info); state diff: $(diff "$T/state.out" "$T/state.in" | head -c 300)"
	done
	c_row "$w"
done

# git init: refused inside by design, and the host sees no repository appear.
w="git init (empty workspace)"
for who in root user; do
	ws=$(c_ws $who)
	rm -rf "$ws/plain"
	mkdir "$ws/plain" && chown "$(as $who id -u)" "$ws/plain"
	C_DIR=$ws/plain c_out $who 'git init -q -b main && git rev-parse --is-inside-work-tree'
	outside=$(c_summary)
	rm -rf "$ws/plain/.git"
	C_DIR=$ws/plain c_in $who --profile git -- 'git init -q -b main && git rev-parse --is-inside-work-tree'
	inside="$(c_summary) $(grep -o 'Read-only file system' "$ERR" | head -1)"
	c_cell "$w" $who out "$outside"
	if [[ $RC != 0 ]] && grep -q 'Read-only file system' "$ERR" && [[ -z $(find "$ws/plain/.git" -mindepth 1 2>/dev/null) ]]; then
		c_cell "$w" $who in "refused by design (.git guard): $inside"
		t_ok "$w, as $who: refused inside, as sbx-profile(5) says, and no repository appears on the host"
	else
		c_cell "$w" $who in "UNEXPECTED: $inside"
		t_fail "$w, as $who: refused inside, as sbx-profile(5) says, and no repository appears on the host" \
			"$(run_info); host: $(find "$ws/plain/.git" -mindepth 1 2>&1 | head -5 | tr '\n' ' ')"
	fi
done
c_row "$w"
