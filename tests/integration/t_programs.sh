#!/bin/bash
# Everyday programs still work inside the jail, under the default seccomp allowlist
# (workspace) and under strict (allowlist, memory_deny_write_execute): interpreters,
# a compiler and make, git, and the runtimes this host has.  Each run checks the
# output the program can only print once it has done the work.  A program this host
# lacks is skipped, saying which.
. "$(dirname "$0")/../lib.sh"
t_init

# works NAME EXPECTED-OUTPUT-LINE PROFILE SHELL-COMMAND: sh -c in a jail of PROFILE.
works() {
	local name=$1 want=$2 profile=$3
	shift 3
	sbx --profile "$profile" --workspace "$WS" -- sh -c "$1"
	if ((!HUNG)) && [[ $RC == 0 ]] && grep -qxF -- "$want" "$OUT"; then
		t_ok "$name"
	else
		t_fail "$name" "$(run_info); stdout: $(head -c 300 "$OUT" | tr '\n' '|')"
	fi
}

have() {
	if command -v "$1" >/dev/null 2>&1; then
		return 0
	fi
	t_skip "$2" "$1 is not installed on this host"
	return 1
}

cat >"$WS/work.py" <<'EOF'
import ctypes, hashlib, json, multiprocessing, os, sqlite3, ssl, subprocess, threading
with multiprocessing.Pool(2) as p:
    total = sum(p.map(abs, range(100)))
t = threading.Thread(target=lambda: None); t.start(); t.join()
db = sqlite3.connect(":memory:"); db.execute("create table t(x)"); db.execute("insert into t values (1)")
# A libffi closure needs memory it writes and runs, or a file (memfd, /tmp) mapped
# twice: not under strict (W^X, no memfd, noexec /tmp), so only outside it.
cb = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(lambda x: x * 2) if os.environ.get("CB") else (lambda x: x * 2)
out = subprocess.run(["sh", "-c", "echo sub"], capture_output=True, text=True).stdout.strip()
print("py", total, db.execute("select count(*) from t").fetchone()[0], cb(21), out,
      hashlib.sha256(b"x").hexdigest()[:8], os.getcwd() == os.environ.get("PWD", os.getcwd()))
EOF
py_want="py 4950 1 42 sub 2d711642 True"

cat >"$WS/hello.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
static void *run(void *arg) { return arg; }
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	puts("hello from C");
	return 0;
}
EOF
printf 'hello: hello.c\n\tcc -O2 -pthread -o hello hello.c\n' >"$WS/Makefile"

git_cmd='git init -q repo && echo a >repo/f && git -C repo add f &&
	git -C repo -c user.email=t@sbx -c user.name=t commit -qm one && git -C repo status --short | wc -l &&
	git -C repo log --oneline | wc -l | sed "s/^/commits /"'

# ---- workspace: the default filter
works "workspace: python3 (multiprocessing, threads, sqlite, ssl, ctypes callback, subprocess)" "$py_want" workspace 'CB=1 python3 work.py'
if have cc "workspace: cc and make build and run a threaded program"; then
	works "workspace: cc and make build and run a threaded program" "hello from C" workspace 'make -s && ./hello'
fi
rm -rf "$WS/repo"
works "workspace: git init, add, commit, status, log" "commits 1" workspace "$git_cmd"
works "workspace: shell pipelines, find, xargs, tar, gzip, sed, awk" "3" workspace \
	'for i in 1 2 3; do echo $i >f$i; done; find . -name "f?" | xargs cat | sort | awk "{s+=\$1} END {print s/2}"; tar czf /tmp/t.tgz f1 f2 f3 && tar tzf /tmp/t.tgz | wc -l'
works "workspace: grep -P" "abc" workspace 'echo abc | grep -P "a(?=b)"'
if have perl "workspace: perl"; then
	works "workspace: perl" "perl 6" workspace 'perl -e "my \$s = 0; \$s += \$_ for 1..3; print qq(perl \$s\n)"'
fi
if have node "workspace: node (V8 JIT, worker threads)"; then
	works "workspace: node (V8 JIT, worker threads)" "node 2,4,6" workspace \
		'node -e "const {Worker} = require(\"worker_threads\"); new Worker(\"0\", {eval: true}).on(\"exit\", () => console.log(\"node\", [1,2,3].map(x => x * 2).join()))"'
fi
if have java "workspace: java -version"; then
	works "workspace: java -version (HotSpot JIT)" "java ok" workspace 'java -version 2>&1 | grep -q "VM" && echo "java ok"'
fi
if have go "workspace: go"; then
	works "workspace: go version" "go ok" workspace 'go version >/dev/null && echo "go ok"'
fi

# ---- strict: the allowlist and memory_deny_write_execute
works "strict: python3 (multiprocessing, threads, sqlite, ssl, subprocess)" "$py_want" strict 'python3 work.py'
rm -rf "$WS/repo"
works "strict: git init, add, commit, status, log" "commits 1" strict "$git_cmd"
works "strict: grep -P (PCRE2 without its JIT)" "abc" strict 'echo abc | grep -P "a(?=b)"'
works "strict: shell pipelines, find, xargs, tar, gzip, sed, awk" "3" strict \
	'for i in 1 2 3; do echo $i >f$i; done; find . -name "f?" | xargs cat | sort | awk "{s+=\$1} END {print s/2}"; tar czf /tmp/t.tgz f1 f2 f3 && tar tzf /tmp/t.tgz | wc -l'
exit 0
