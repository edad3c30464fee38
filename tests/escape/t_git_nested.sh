#!/bin/bash
# The host's repositories nested in a workspace (~/src holding app/, lib/...) keep
# their .git read-only (filesystem.git's search, policy/gitguard.c): the search may not
# be blinded by what an earlier jail left in the workspace.  A first jail makes 25,000
# empty directories at the top (the search looked at 20,000 entries, then stopped
# without a word); a second one plants core.fsmonitor in each nested repository's
# config: in app/, in one named like a build tree (build/: the search skipped the name
# entirely, not only what lies below it).  Asserted from the host: its git in each
# repository runs nothing, its config is unchanged; a refused run must say why.
. "$(dirname "$0")/../lib.sh"
t_init

command -v git >/dev/null || { t_skip "nested repositories" "git is not installed"; exit 0; }
HOSTHOME=$T/hosthome
mkdir -p "$HOSTHOME"
MARK=$T/pwned
G=(env -i "PATH=$PATH" "HOME=$HOSTHOME" GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t
	GIT_COMMITTER_EMAIL=t@t git)
REPOS=(app build)
fsmon='printf "[core]\n\tfsmonitor = \"echo fsmonitor > $MARK; false\"\n"'
plant=""
for r in "${REPOS[@]}"; do plant+="$fsmon >> $r/.git/config; "; done

new_ws() {
	local r
	rm -rf "$WS" "$MARK" && mkdir "$WS" || return 1
	for r in "${REPOS[@]}"; do
		"${G[@]}" init -q -b main "$WS/$r" && echo one >"$WS/$r/a" && "${G[@]}" -C "$WS/$r" add a &&
			"${G[@]}" -C "$WS/$r" commit -qm one || return 1
	done
}
host_uses() { # REPO
	"${G[@]}" -C "$WS/$1" status </dev/null >/dev/null 2>&1
	"${G[@]}" -C "$WS/$1" diff HEAD </dev/null >/dev/null 2>&1
	true
}

# The control: planted from the host, the host's git runs it, in each repository.
for r in "${REPOS[@]}"; do
	new_ws || { t_fail "setup" "cannot make the repositories"; exit 0; }
	(cd "$WS" && MARK=$MARK bash -c "$fsmon >> $r/.git/config")
	host_uses "$r"
	t_check "control: core.fsmonitor planted in $r/.git/config from the host runs" \
		"the host's git did not run it: the test proves nothing" test -e "$MARK"
done

for profile in workspace git; do
	for pre in "" "seq -f d%05g 1 25000 | xargs mkdir"; do
		what="$profile, ${pre:+after 25,000 directories made by a jail}"
		what=${what%, }
		new_ws || { t_fail "setup" "cannot make the repositories"; continue; }
		cfg=$(cat "$WS"/*/.git/config | sha256sum)
		if [[ -n $pre ]]; then
			sbx --profile "$profile" --workspace "$WS" -- /bin/bash -c "$pre"
			((RC == 0)) || { t_fail "$what: not tested" "the first jail did not run: $(run_info)"; continue; }
		fi
		sbx --profile "$profile" --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$plant true"
		for r in "${REPOS[@]}"; do host_uses "$r"; done
		if [[ -e $MARK ]]; then
			t_fail "$what: nested repositories keep their .git" "the host's git ran: $(cat "$MARK")"
		elif [[ $(cat "$WS"/*/.git/config | sha256sum) != "$cfg" ]]; then
			t_fail "$what: nested repositories keep their .git" "a config changed: $(grep -l fsmonitor "$WS"/*/.git/config)"
		elif ((RC != 0 && RC != 1)) && ! grep -q 'directories' "$ERR"; then
			t_fail "$what: nested repositories keep their .git" "refused without saying why: $(run_info)"
		else
			t_ok "$what: nested repositories keep their .git (rc $RC)"
		fi
	done
done

# Beyond what the search looks through (100,000 directories), the run is refused and
# says why: the repositories it did not reach are not handed to the jail writable.
new_ws || t_fail "setup" "cannot make the repositories"
cfg=$(cat "$WS"/*/.git/config | sha256sum)
sbx --profile workspace --workspace "$WS" -- /bin/bash -c "seq -f d%06g 1 100001 | xargs mkdir"
if ((RC != 0)); then
	t_fail "more directories than the search looks through: not tested" "the first jail did not run: $(run_info)"
else
	sbx --profile workspace --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$plant true"
	for r in "${REPOS[@]}"; do host_uses "$r"; done
	if [[ -e $MARK || $(cat "$WS"/*/.git/config | sha256sum) != "$cfg" ]]; then
		t_fail "more directories than the search looks through: the run is refused" "a config was written; $(run_info)"
	elif ((RC == 125)) && grep -q 'more than 100000 directories' "$ERR"; then
		t_ok "more directories than the search looks through: the run is refused, with why"
	else
		t_fail "more directories than the search looks through: the run is refused" "$(run_info)"
	fi
fi

# A repository whose .git is a symlink to its git directory elsewhere in the workspace:
# the host's git follows it, the search did not (the jail wrote store/lnk.git/config).
# Refused with why, as a symlinked .git at the top is.
lnk_ws() {
	rm -rf "$WS" "$MARK" && mkdir -p "$WS/store" "$WS/lnk" &&
		"${G[@]}" init -q -b main --bare "$WS/store/lnk.git" && "${G[@]}" --git-dir="$WS/store/lnk.git" config core.bare false &&
		ln -s ../store/lnk.git "$WS/lnk/.git" && echo one >"$WS/lnk/a" && "${G[@]}" -C "$WS/lnk" add a &&
		"${G[@]}" -C "$WS/lnk" commit -qm one
}
lnk_ws || t_fail "setup" "cannot make a repository with a symlinked .git"
(cd "$WS" && MARK=$MARK bash -c "$fsmon >> store/lnk.git/config")
host_uses lnk
t_check "control: a symlinked .git's config planted from the host runs" "the host's git did not run it" test -e "$MARK"
for profile in workspace git; do
	lnk_ws
	cfg=$(sha256sum <"$WS/store/lnk.git/config")
	sbx --profile "$profile" --workspace "$WS" --env MARK="$MARK" -- /bin/bash -c "$fsmon >> store/lnk.git/config; true"
	host_uses lnk
	if [[ -e $MARK || $(sha256sum <"$WS/store/lnk.git/config") != "$cfg" ]]; then
		t_fail "a repository with a symlinked .git ($profile): its config stays the host's" "it was written; $(run_info)"
	elif ((RC == 125)) && grep -q 'symlink' "$ERR"; then
		t_ok "a repository with a symlinked .git ($profile): refused, with why"
	else
		t_fail "a repository with a symlinked .git ($profile): refused, with why" "$(run_info)"
	fi
done
