#!/bin/bash
# The command policy against forms that hid a denied command from it (issue 10, §4):
# bash's second evaluation of subscripts and arithmetic, code in builtins, git's
# options, configuration and environment, tools' options, code fed to a shell.  Each
# form runs `dd` (denied) to create a marker in the workspace.  Asserted from the
# host: under a profile that denies dd, and through sandboxd under a site policy that
# denies dd while the profile checks nothing, every form is refused (126) and no
# marker appears; under the workspace profile (no command policy) the same forms do
# create it, so the payloads are live and the test can fail.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

# The control: no command policy, and a git directory git can write (rebase --exec
# needs one; every other profile keeps .git read-only).
cat >"$T/control.yaml" <<'EOF'
extends: workspace
filesystem:
  git: commit
EOF
cat >"$T/denydd.yaml" <<'EOF'
extends: workspace
commands:
  mode: denylist
  deny: [dd]
EOF

# The workspace: a git repository, an archive, a file for sed, a planted git config.
(
	cd "$WS" || exit 1
	echo line >f
	git init -q . && git add f && git -c user.name=t -c user.email=t@t commit -q -m init
	tar -cf a.tar f
	printf '[alias]\n\tx = !dd if=/dev/zero of=m-gitcfg bs=1 count=1\n' >evil.cfg
) >/dev/null 2>&1

# NAME|FORM, where FORM creates marker m-NAME with dd.
forms=(
	"printf|printf -v 'x[\$(dd if=/dev/zero of=m-printf bs=1 count=1)]' 1"
	"testv|test -v 'x[\$(dd if=/dev/zero of=m-testv bs=1 count=1)]'"
	"condv|[[ -v 'x[\$(dd if=/dev/zero of=m-condv bs=1 count=1)]' ]]"
	"condeq|[[ 'x[\$(dd if=/dev/zero of=m-condeq bs=1 count=1)]' -eq 1 ]]"
	"read|read 'x[\$(dd if=/dev/zero of=m-read bs=1 count=1)]' <<< 1"
	"declare|declare 'x[\$(dd if=/dev/zero of=m-declare bs=1 count=1)]=1'"
	"let|let 'x[\$(dd if=/dev/zero of=m-let bs=1 count=1)]=1'"
	"mapfile|mapfile -C 'dd if=/dev/zero of=m-mapfile bs=1 count=1 #' -c 1 x < f"
	"arith|x='a[\$(dd if=/dev/zero of=m-arith bs=1 count=1)]'; echo \$((x))"
	"readarith|echo 'a[\$(dd if=/dev/zero of=m-readarith bs=1 count=1)]' > v; read n < v; echo \$((n))"
	"ansi|echo \$((\$'a[\\x24(dd if=/dev/zero of=m-ansi bs=1 count=1)]'))"
	"gitalias|git -c alias.x='!dd if=/dev/zero of=m-gitalias bs=1 count=1' x"
	"gitcfg|GIT_CONFIG_GLOBAL=./evil.cfg git x"
	"rebase|GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t git rebase -q --exec 'dd if=/dev/zero of=m-rebase bs=1 count=1' --root"
	"tar|tar --to-command='dd of=m-tar bs=1 count=1' -xf a.tar"
	"sed|sed -n 'e dd if=/dev/zero of=m-sed bs=1 count=1' f"
	"awk|awk 'BEGIN { system(\"dd if=/dev/zero of=m-awk bs=1 count=1\") }'"
	"herestring|bash <<< 'dd if=/dev/zero of=m-herestring bs=1 count=1'"
	"pipe|echo 'dd if=/dev/zero of=m-pipe bs=1 count=1' | sh"
	"python|python3 -c 'import os; os.system(\"dd if=/dev/zero of=m-python bs=1 count=1\")'"
	"envS|env -S 'dd if=/dev/zero of=m-envS bs=1 count=1'"
	"funcenv|env 'BASH_FUNC_ls%%=() { dd if=/dev/zero of=m-funcenv bs=1 count=1; }' bash -c ls"
	# gcc's drivers: cpp (gcc's package) takes -wrapper as gcc does
	"cppwrap|cpp -wrapper 'sh,-c,dd if=/dev/zero of=m-cppwrap bs=1 count=1' f"
	# code on the line read through another descriptor, or stdin spelt otherwise
	"fd3|bash /dev/fd/3 3<<< 'dd if=/dev/zero of=m-fd3 bs=1 count=1'"
	"dotfd3|. /proc/self/fd/3 3<<< 'dd if=/dev/zero of=m-dotfd3 bs=1 count=1'"
	"dupin|bash 3<<< 'dd if=/dev/zero of=m-dupin bs=1 count=1' <&3"
	"fd00|bash 00<<< 'dd if=/dev/zero of=m-fd00 bs=1 count=1'"
	"slashstdin|bash //dev/stdin <<< 'dd if=/dev/zero of=m-slashstdin bs=1 count=1'"
	"execin|exec <<< 'dd if=/dev/zero of=m-execin bs=1 count=1'; bash"
	"awkfd3|awk -f /dev/fd/3 3<<< 'BEGIN { system(\"dd if=/dev/zero of=m-awkfd3 bs=1 count=1\") }'"
	"makesub|make -f <(printf 'all:;dd if=/dev/zero of=m-makesub bs=1 count=1\n')"
	"makevar|x=/dev/stdin; make -f \$x <<< \$'all:\n\tdd if=/dev/zero of=m-makevar bs=1 count=1'"
	# code fed to a shell by the line's own output (>(…)'s stdin is a pipe from the
	# command it is an argument or redirection of), or by a function's caller
	"procout|echo 'dd if=/dev/zero of=m-procout bs=1 count=1' > >(bash); sleep 1"
	"procoutlist|echo 'dd if=/dev/zero of=m-procoutlist bs=1 count=1' 2> >(true; sh) >&2; sleep 1"
	"funcpipe|f() { bash; }; echo 'dd if=/dev/zero of=m-funcpipe bs=1 count=1' | f"
	"funcstr|f() { sh -s; }; f <<< 'dd if=/dev/zero of=m-funcstr bs=1 count=1'"
	# a coprocess reads what the shell writes into it; an exported function's body
	# reads the stdin of the bash -c that calls it
	"coproc|coproc bash; echo 'dd if=/dev/zero of=m-coproc bs=1 count=1' >&\${COPROC[1]}; sleep 1"
	"funcexp|f() { bash; }; export -f f; echo 'dd if=/dev/zero of=m-funcexp bs=1 count=1' | bash -c f"
)
# socat's EXEC: and SYSTEM: addresses run a command.
if command -v socat >/dev/null; then
	forms+=("socat|socat -u SYSTEM:'dd if=/dev/zero of=m-socat bs=1 count=1' -"
		"socatexec|socat -u - OPEN:/dev/null!!EXEC:'dd if=/dev/zero of=m-socatexec bs=1 count=1'")
fi
# C++ modules: g++ (cc1plus) starts "|PROGRAM ARGS" as its module mapper.
if command -v g++ >/dev/null; then
	echo 'import m;' >"$WS/m.cc"
	forms+=("mapper|g++ -fmodules-ts '-fmodule-mapper=|dd if=/dev/zero of=m-mapper bs=1 count=1' -c m.cc"
		"mapperenv|CXX_MODULE_MAPPER='|dd if=/dev/zero of=m-mapperenv bs=1 count=1' g++ -fmodules-ts -c m.cc")
fi

# run PROFILE FORM: the form under PROFILE, directly or (with DAEMON=1) through sandboxd.
run() {
	if ((${DAEMON:-0})); then
		dsbx --profile "$1" --workspace "$WS" -- bash -c "$2"
	else
		sbx --profile "$1" --workspace "$WS" -- bash -c "$2"
	fi
}

check_forms() { # LABEL PROFILE
	local label=$1 profile=$2 f name form
	for f in "${forms[@]}"; do
		name=${f%%|*}
		form=${f#*|}
		rm -f "$WS/m-$name"
		run "$profile" "$form" 2>/dev/null
		if [[ $RC == 126 && ! -e $WS/m-$name ]]; then
			t_ok "$label: $name refused, nothing ran"
		else
			t_fail "$label: $name refused, nothing ran" "rc=$RC marker=$([[ -e $WS/m-$name ]] && echo yes || echo no); $(run_info)"
		fi
	done
}

# The payloads are live: without a command policy each form creates its marker.
live=0 inert=""
for f in "${forms[@]}"; do
	name=${f%%|*}
	rm -f "$WS/m-$name"
	sbx --profile "$T/control.yaml" --workspace "$WS" -- bash -c "${f#*|}" 2>/dev/null
	if [[ -e $WS/m-$name ]]; then
		live=$((live + 1))
	else
		inert+=" $name"
	fi
done
if ((live == ${#forms[@]})); then
	t_ok "control: $live of ${#forms[@]} forms run dd without a command policy"
else
	t_fail "control: the forms run dd without a command policy" "only $live of ${#forms[@]} did; not:$inert"
fi

check_forms "profile denying dd" "$T/denydd.yaml"

# The site policy's deny list, through sandboxd, with a profile that checks nothing.
dm_policy <<'EOF'
allow:
  - users: [root]
    profiles: ["*"]
deny:
  commands: [dd]
EOF
if dm_start; then
	DAEMON=1 check_forms "sandboxd, site deny.commands" workspace
	DAEMON=1 run workspace "touch m-benign && ls -l | wc -l"
	if [[ $RC == 0 && -e $WS/m-benign ]]; then
		t_ok "sandboxd, site deny.commands: an everyday command runs"
	else
		t_fail "sandboxd, site deny.commands: an everyday command runs" "$(run_info)"
	fi
else
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
fi
