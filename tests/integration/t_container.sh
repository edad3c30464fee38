#!/bin/bash
# sbx-run inside a real container runtime (issue 12, part 3): podman (which drives
# crun) with its DEFAULT seccomp profile and capability set, over a root file system
# made from this host (its /usr and /etc bound read-only; no image is pulled), network
# none.  For each container setup: sbx-run --doctor predicts a tier, a run gets that
# tier (--json), the probe inside confirms what the tier promises (its own PID, mount
# and network namespaces, no capability, no_new_privs, a seccomp filter), the host side
# sees the container's listener get nothing, and a profile whose min_tier is above
# the tier is refused with exit 125 and the remedy for podman.
. "$(dirname "$0")/../lib.sh"
t_init

if ! command -v podman >/dev/null; then
	t_skip "setup" "podman is not installed (make deps installs it)"
	exit 0
fi
SECCOMP_DEFAULT=/usr/share/containers/seccomp.json
if [[ ! -r $SECCOMP_DEFAULT ]]; then
	t_skip "setup" "no $SECCOMP_DEFAULT (containers-common): podman has no default seccomp profile to test with"
	exit 0
fi

SBX_BUILD=$(cd "$(dirname "$SBX_RUN")" && pwd)

# ---- the root file system: empty mount points, and the host's /bin, /lib... as
# they are here (symlinks into /usr on a merged-/usr system, else bound).
ROOTFS=$T/rootfs
mkdir -p "$ROOTFS"/{dev,proc,sys,tmp,run,etc,usr,ws,out,sbx,p}
binds=(-v /usr:/usr:ro -v /etc:/etc:ro)
for d in bin sbin lib lib32 lib64 libx32; do
	if [[ -L /$d ]]; then
		ln -s "$(readlink "/$d")" "$ROOTFS/$d"
	elif [[ -d /$d ]]; then
		mkdir "$ROOTFS/$d"
		binds+=(-v "/$d:/$d:ro")
	fi
done
mkdir "$T/prof"
printf 'extends: workspace\nmin_tier: container-userns\n' >"$T/prof/cu.yaml"
printf 'extends: workspace\nmin_tier: full\n' >"$T/prof/full.yaml"
printf 'extends: workspace\nmin_tier: landlock\n' >"$T/prof/ll.yaml"

# ---- seccomp profiles: podman's default, with sethostname allowed (what the
# remedy for the uts substitution asks for), and one like Docker's default, which
# refuses namespaces without CAP_SYS_ADMIN (clone with any CLONE_NEW* bit, unshare,
# mount..., clone3 ENOSYS).
"$PYTHON" - "$SECCOMP_DEFAULT" "$T/seccomp-hostname.json" "$T/seccomp-moby.json" <<'EOF'
import json, sys
src, hostname_out, moby_out = sys.argv[1:]
base = json.load(open(src))
def names(rule): return rule.get("names") or [rule.get("name")]

j = json.loads(json.dumps(base))
j["syscalls"].insert(0, {"names": ["sethostname", "setdomainname"], "action": "SCMP_ACT_ALLOW"})
json.dump(j, open(hostname_out, "w"))

gone = {"unshare", "setns", "mount", "umount2", "pivot_root", "mount_setattr", "move_mount", "open_tree",
        "fsopen", "fsmount", "fsconfig", "fspick", "clone", "clone3"}
j = json.loads(json.dumps(base))
for rule in j["syscalls"]:
    if "names" in rule:
        rule["names"] = [n for n in rule["names"] if n not in gone]
j["syscalls"] = [r for r in j["syscalls"] if r.get("names")]
j["syscalls"].append({"names": ["clone"], "action": "SCMP_ACT_ALLOW",
                      "args": [{"index": 0, "value": 2114060288, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}]})
j["syscalls"].append({"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38})
json.dump(j, open(moby_out, "w"))
EOF

# ---- the script each container runs: the doctor, a run of the probe, and the
# network check against a listener of the container's own.
cat >"$T/inner.sh" <<'EOF'
#!/bin/sh
cd /ws || exit 1
/sbx/sbx-run --doctor --json >/out/doctor.json 2>/out/doctor.err
echo $? >/out/doctor.rc
/sbx/sbx-run --doctor >/out/doctor.txt 2>&1
/sbx/sbx-run --profile "$PROF" --json -- /ws/probe status >/out/status 2>/out/status.err
echo $? >/out/status.rc
/sbx/sbx-run --profile "$PROF" -- /ws/probe ls /sbx >/out/ls 2>&1
/usr/bin/python3 -c '
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 47811)); s.listen(1); s.settimeout(3)
open("/out/listening", "w").close()
try:
    s.accept(); open("/out/accepted", "w").close()
except socket.timeout:
    pass
' &
lpid=$!
i=0; while [ ! -e /out/listening ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
/sbx/sbx-run --profile "$PROF" -- /ws/probe connect-tcp 127.0.0.1 47811 >/out/tcp 2>&1
wait $lpid
/sbx/sbx-run --profile /p/full.yaml --json -- /ws/probe status >/out/full 2>/out/full.err
echo $? >/out/full.rc
EOF
chmod 0755 "$T/inner.sh"

# crun refuses a hybrid cgroup layout whose v2 hierarchy holds controllers: the test
# hides that v2 mount in a mount namespace of its own (the host keeps it), and
# podman makes no cgroup (--cgroups=disabled).  The host's hard RLIMIT_NOFILE may be
# below podman's default, hence the explicit limits.
hide_v2=
if [[ $(stat -f -c %T /sys/fs/cgroup) == tmpfs && -n $(cat /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null) ]]; then
	hide_v2='umount /sys/fs/cgroup/unified && '
fi

# pod NAME USER PROFILE [podman options...]: one container; its files in $T/NAME.
pod() {
	local name=$1 user=$2 prof=$3
	shift 3
	local out=$T/$name
	mkdir -p "$out"
	chown "$user" "$out" "$WS"
	timeout 120 unshare -m sh -c "$hide_v2"'exec "$@"' sh podman run --rm --network none --cgroups=disabled \
		--ulimit nofile=1024:1024 --ulimit nproc=4096:4096 --user "$user" --env PROF="$prof" \
		"${binds[@]}" -v "$SBX_BUILD:/sbx:ro" -v "$T/prof:/p:ro" -v "$T/inner.sh:/inner.sh:ro" \
		-v "$WS:/ws" -v "$out:/out" "$@" --rootfs "$ROOTFS" /inner.sh >"$out/podman.out" 2>&1
	echo $? >"$out/podman.rc"
}

# root_pod DIR INNER [podman options...]: INNER (a script of the test's) as the
# container's root in a container of sandboxd's (the site policies under /site, the
# profiles under /etc/sbx/profiles, the shared workspace /sdws, DIR as /out); podman's
# output and status in DIR.
root_pod() {
	local out=$1 inner=$2
	shift 2
	mkdir -p "$out"
	timeout 120 unshare -m sh -c "$hide_v2"'exec "$@"' sh podman run --rm --network none --cgroups=disabled \
		--ulimit nofile=1024:1024 --ulimit nproc=4096:4096 --user 0:0 --env NOBODY="$NOBODY" \
		"${binds[@]}" -v "$SBX_BUILD:/sbx:ro" -v "$T/prof:/p:ro" -v "$T/prof:/etc/sbx/profiles:ro" -v "$T/site:/site:ro" \
		-v "$inner:/inner.sh:ro" -v "$T/sdws:/sdws" -v "$out:/out" "$@" --rootfs "$ROOTFS" /inner.sh >"$out/podman.out" 2>&1
	echo $? >"$out/podman.rc"
}

# jkey NAME FILE KEY: one key of a JSON object in FILE (the last line), flattened.
jkey() {
	tail -n 1 "$1" | json_flatten | kv "$2" /dev/stdin
}

# case_check NAME TIER SUBS: the doctor and the run agree on TIER and substitutions.
case_check() {
	local name=$1 tier=$2 subs=$3 d=$T/$1 got
	if [[ $(cat "$d/podman.rc") != 0 ]]; then
		t_fail "$name: the container ran" "podman: $(tail -c 400 "$d/podman.out" | tr '\n' '|')"
		return 1
	fi
	got=$(jkey "$d/doctor.json" tier)
	t_check "$name: --doctor predicts tier $tier" "tier=$got; $(tr '\n' '|' <"$d/doctor.txt" | head -c 600)" test "$got" = "$tier"
	got=$("$PYTHON" -c 'import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(",".join(s["feature"]+"="+s["with"] for s in o["substitutions"]))' "$d/doctor.json")
	t_check "$name: --doctor names the substitutions $subs" "got '$got'" test "$got" = "$subs"
	got=$(jkey "$d/status.err" tier)
	t_check "$name: the run gets tier $tier (--json)" "tier=$got; $(tail -c 400 "$d/status.err" | tr '\n' '|')" test "$got" = "$tier"
	got=$("$PYTHON" -c 'import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(",".join(s["feature"]+"="+s["with"] for s in o["substitutions"]))' "$d/status.err")
	t_check "$name: ... and --json names the same substitutions" "got '$got'" test "$got" = "$subs"
}

# promises NAME: what every tier that runs promises, from the probe inside and the
# container's side.
promises() {
	local name=$1 d=$T/$1 applied
	OUT=$d/status
	if [[ $(cat "$d/status.rc") != 0 || $(kv result) != ok ]]; then
		t_fail "$name: the probe ran in the jail" "rc=$(cat "$d/status.rc"); $(tail -c 400 "$d/status.err" | tr '\n' '|')"
		return
	fi
	expect_kv "$name: no effective capability" sys.CapEff 0000000000000000
	expect_kv "$name: no permitted capability" sys.CapPrm 0000000000000000
	expect_kv "$name: an empty bounding set" sys.CapBnd 0000000000000000
	expect_kv "$name: no_new_privs" sys.NoNewPrivs 1
	expect_kv "$name: a seccomp filter" sys.Seccomp 2
	expect_kv "$name: PID 2 of its own PID namespace" pid 2
	applied=$(jkey "$d/status.err" applied)
	for step in pidns mntns netns userns ipcns landlock seccomp caps-dropped no_new_privs pivot_root; do
		t_check "$name: --json applied has $step" "applied=$applied" grep -q "\"$step\"" <<<"$applied"
	done
	OUT=$d/ls
	expect_kv "$name: the container's /sbx is not in the jail's mount namespace" result ENOENT
	OUT=$d/tcp
	expect_kv_in "$name: the container's loopback listener is out of reach" result ECONNREFUSED ENETUNREACH
	t_check "$name: ... and the listener accepted nothing (container side)" "$d/accepted exists" test ! -e "$d/accepted"
}

# refused NAME FILE-PREFIX WANT-REMEDY: exit 125, stage tier, the remedy named.
refused() {
	local name=$1 f=$2 want=$3
	t_check "$name: exit 125" "rc=$(cat "$f.rc"); $(tail -c 300 "$f.err" | tr '\n' '|')" test "$(cat "$f.rc")" = 125
	t_check "$name: error.stage is tier" "$(tail -n 1 "$f.err" | head -c 300)" test "$(jkey "$f.err" error.stage)" = tier
	t_check "$name: the hint gives the remedy ($want)" "hint: $(jkey "$f.err" error.hint)" grep -qF -- "$want" <<<"$(jkey "$f.err" error.hint)"
	t_check "$name: ... and never --privileged" "$(tail -n 1 "$f.err")" sh -c "! grep -q -- --privileged '$f.err'"
}

# ---- 1. podman's defaults, as root: no fresh /proc (masked), no sethostname
# (seccomp, without CAP_SYS_ADMIN), root without CAP_SYS_ADMIN.
pod root-default 0:0 /p/cu.yaml
if case_check root-default container-userns proc=none,uts=shared,identity=container-root; then
	promises root-default
	OUT=$T/root-default/status
	expect_kv "root-default: no /proc in the jail (proc=none)" procs ENOENT
	refused "root-default, min_tier full" "$T/root-default/full" "unmask=/proc/*"
fi

# ---- 2. podman's defaults, as a user.
pod user-default "$NOBODY:$NOBODY" /p/cu.yaml
if case_check user-default container-userns proc=none,uts=shared; then
	promises user-default
	OUT=$T/user-default/status
	expect_kv "user-default: the command is the caller's uid" uid "$NOBODY"
	refused "user-default, min_tier full" "$T/user-default/full" "unmask=/proc/*"
fi

# ---- 3. /proc unmasked (the proc remedy), as a user: a fresh /proc of the jail's own.
pod user-unmask "$NOBODY:$NOBODY" /p/cu.yaml --security-opt 'unmask=/proc/*'
if case_check user-unmask container-userns uts=shared; then
	promises user-unmask
	OUT=$T/user-unmask/status
	expect_kv "user-unmask: its /proc lists its own two processes" nprocs 2
	refused "user-unmask, min_tier full" "$T/user-unmask/full" "sethostname"
fi

# ---- 4. every remedy applied: /proc unmasked, sethostname allowed, not root: full.
pod user-remedied "$NOBODY:$NOBODY" /p/full.yaml --security-opt 'unmask=/proc/*' --security-opt "seccomp=$T/seccomp-hostname.json"
if case_check user-remedied full ""; then
	promises user-remedied
	OUT=$T/user-remedied/status
	expect_kv "user-remedied: the jail's own hostname" hostname sbx
	t_check "user-remedied: min_tier full runs" "rc=$(cat "$T/user-remedied/full.rc")" test "$(cat "$T/user-remedied/full.rc")" = 0
	t_check "user-remedied: --doctor exits 0" "rc=$(cat "$T/user-remedied/doctor.rc")" test "$(cat "$T/user-remedied/doctor.rc")" = 0
fi

# ---- 5. a Docker-like seccomp profile (no namespaces without CAP_SYS_ADMIN): refused,
# even where the profile accepts container-userns.
pod user-moby "$NOBODY:$NOBODY" /p/cu.yaml --security-opt "seccomp=$T/seccomp-moby.json"
if [[ $(cat "$T/user-moby/podman.rc") == 0 ]]; then
	got=$(jkey "$T/user-moby/doctor.json" tier)
	t_check "user-moby: --doctor predicts tier refuse" "tier=$got; $(tr '\n' '|' <"$T/user-moby/doctor.txt" | head -c 600)" test "$got" = refuse
	t_check "user-moby: --doctor exits 125" "rc=$(cat "$T/user-moby/doctor.rc")" test "$(cat "$T/user-moby/doctor.rc")" = 125
	refused "user-moby, min_tier container-userns" "$T/user-moby/status" "CLONE_NEWUSER"
	t_check "user-moby: the namespace-less tier is offered, never taken (min_tier: landlock)" "hint: $(jkey "$T/user-moby/status.err" error.hint)" \
		grep -qF "min_tier: landlock accepts the namespace-less tier" <<<"$(jkey "$T/user-moby/status.err" error.hint)"
	t_check "user-moby: the probe never ran" "$(head -c 200 "$T/user-moby/status")" test ! -s "$T/user-moby/status"
else
	t_fail "user-moby: the container ran" "podman: $(tail -c 400 "$T/user-moby/podman.out" | tr '\n' '|')"
fi

# ---- 5b. the landlock tier (sbx-run(1) ISOLATION TIERS): the moby-like container,
# where no namespace can be made, and a profile whose min_tier is landlock.  The
# container runs listeners of its own (TCP, UDP, an abstract unix socket, as the same
# user as the jail) and a secret in a $HOME outside the workspace; each check is one
# sbx-run, judged from the container's side and the host's.
mkdir -p "$T/llhome" && echo secret-of-home >"$T/llhome/secret" && echo meta >"$T/llhome/meta" && chmod 0600 "$T/llhome/meta" &&
	"$PYTHON" -c 'import os, sys; os.setxattr(sys.argv[1], "user.keep", b"k")' "$T/llhome/meta" && chown -R "$NOBODY" "$T/llhome"
echo meta >"$WS/ll-meta" && chmod 0644 "$WS/ll-meta" && chown "$NOBODY" "$WS/ll-meta"
# (where the jail makes its files: at this tier no new entry can be made at the
# workspace's top, which holds guards: workspace=entries, t_landlock)
mkdir -p "$WS/llw" && chown "$NOBODY" "$WS/llw"
# (what a change of metadata would show: mode, owner, group, mtime, ctime, xattrs)
llmeta() {
	"$PYTHON" -c 'import os, sys; p = sys.argv[1]; s = os.lstat(p); print(oct(s.st_mode), s.st_uid, s.st_gid, s.st_mtime_ns, s.st_ctime_ns, sorted(os.listxattr(p)))' "$1"
}
llmeta_before=$(llmeta "$T/llhome/meta")
chmod 1777 "$ROOTFS/tmp"
cat >"$T/inner-ll.sh" <<'EOF2'
#!/bin/sh
cd /ws || exit 1
P=/p/ll.yaml
/sbx/sbx-run --profile $P --doctor --json >/out/doctor.json 2>/out/doctor.err
echo $? >/out/doctor.rc
/usr/bin/python3 -c '
import os, socket, select, time
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); t.bind(("127.0.0.1", 47812)); t.listen(5)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 47813))
a = socket.socket(socket.AF_UNIX); a.bind("\0sbx-ll-test"); a.listen(5)
p = socket.socket(socket.AF_UNIX); p.bind("/out/ll.sock"); p.listen(5)
open("/out/listener.pid", "w").write(str(os.getpid()))
log = open("/out/listener.log", "w")
end = time.time() + 40
while time.time() < end and not os.path.exists("/out/stop"):
    r, _, _ = select.select([t, u, a, p], [], [], 0.2)
    for s in r:
        if s is u:
            log.write("udp %r\n" % (s.recv(100),))
        else:
            s.accept(); log.write("accept %s\n" % ({t: "tcp", a: "abstract", p: "pathname"}[s],))
        log.flush()
' &
i=0; while [ ! -s /out/listener.pid ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
L=$(cat /out/listener.pid)
# controls, outside the jail: what the jail is refused works here
cat "$HOME/secret" >/out/control-home 2>&1
kill -0 "$L" && echo ok >/out/control-kill
head -c 5 /proc/$L/environ >/dev/null && echo ok >/out/control-environ
/sbx/sbx-run --profile $P --json --audit-file /out/audit.jsonl -- /ws/probe status >/out/status 2>/out/status.err; echo $? >/out/status.rc
/sbx/sbx-run --profile $P -- /ws/probe write /ws/llw/ll-inside >/out/w-in 2>&1
/sbx/sbx-run --profile $P -- /ws/probe write /out/ll-escape >/out/w-out 2>&1
/sbx/sbx-run --profile $P -- /ws/probe write /tmp/ll-escape >/out/w-tmp 2>&1
/sbx/sbx-run --profile $P -- /bin/sh -c 'echo x >"$TMPDIR/t" && cat "$TMPDIR/t" && echo "HOME=$HOME" && echo "$TMPDIR"' >/out/tmpdir 2>&1
/sbx/sbx-run --profile $P --env HOME="$HOME" -- /ws/probe read "$HOME/secret" >/out/r-home 2>&1
/sbx/sbx-run --profile $P -- /ws/probe kill "$L" 0 >/out/kill 2>&1
/sbx/sbx-run --profile $P -- /ws/probe read /proc/$L/environ >/out/environ 2>&1
/sbx/sbx-run --profile $P -- /ws/probe ptrace-attach "$L" >/out/ptrace 2>&1
/sbx/sbx-run --profile $P -- /ws/probe connect-tcp 127.0.0.1 47812 >/out/tcp 2>&1
/sbx/sbx-run --profile $P -- /usr/bin/python3 -c '
import socket
for fam, typ, what in ((socket.AF_INET, socket.SOCK_DGRAM, "udp"), (socket.AF_INET6, socket.SOCK_DGRAM, "udp6"),
                       (socket.AF_INET, socket.SOCK_RAW, "raw"), (socket.AF_NETLINK, socket.SOCK_RAW, "netlink")):
    try:
        s = socket.socket(fam, typ); s.sendto(b"leak", ("127.0.0.1", 47813)) if what == "udp" else None; print(what + "=made")
    except OSError as e:
        print(what + "=" + str(e.errno))
s = socket.socket()
try:
    s.listen(1); print("listen=made")
except OSError as e:
    print("listen=" + str(e.errno))
try:
    socket.socket().sendto(b"x", socket.MSG_FASTOPEN, ("127.0.0.1", 47812)); print("fastopen=made")
except OSError as e:
    print("fastopen=" + str(e.errno))
' >/out/udp 2>&1
/sbx/sbx-run --profile $P -- /ws/probe connect-abstract sbx-ll-test >/out/abstract 2>&1
/sbx/sbx-run --profile $P -- /ws/probe connect-unix /out/ll.sock >/out/pathname 2>&1
/sbx/sbx-run --profile $P -- /usr/bin/python3 -c '
import ctypes
c = ctypes.CDLL(None, use_errno=True)
for name, args in (("shmget", (0, 4096, 0o1600)), ("msgget", (0, 0o1600)), ("semget", (0, 1, 0o1600))):
    r = getattr(c, name)(*args)
    print("%s=%s" % (name, "made" if r >= 0 else ctypes.get_errno()))
' >/out/sysvipc 2>&1
/sbx/sbx-run --profile $P -- /ws/probe metadata "$HOME/meta" >/out/meta 2>&1
/sbx/sbx-run --profile $P -- /ws/probe metadata-fd /ws/ll-meta 755 >/out/meta-ws 2>&1
/sbx/sbx-run --profile $P -- /bin/sh -c 'sleep 1000 & echo $! >/ws/llw/ll-sleep.pid' >/out/leftover 2>&1
/sbx/sbx-run --profile $P -- /ws/probe daemonize /ws/llw/ll-daemon.pid >/out/daemon 2>&1
/sbx/sbx-run --profile $P --timeout 1 -- /bin/sh -c 'sleep 1000 & echo $! >/ws/llw/ll-timeout.pid; sleep 1000' >/out/timeout 2>&1
echo $? >/out/timeout.rc
sleep 0.5
for f in sleep daemon timeout; do
	if kill -0 "$(cat /ws/ll-$f.pid)" 2>/dev/null; then echo alive >/out/$f-after; else echo gone >/out/$f-after; fi
done
touch /out/stop
wait
EOF2
chmod 0755 "$T/inner-ll.sh"
d=$T/user-moby-ll
mkdir -p "$d"
chown "$NOBODY" "$d" "$WS"
timeout 180 unshare -m sh -c "$hide_v2"'exec "$@"' sh podman run --rm --network none --cgroups=disabled \
	--ulimit nofile=1024:1024 --ulimit nproc=4096:4096 --user "$NOBODY:$NOBODY" --env HOME=/home/agent \
	"${binds[@]}" -v "$SBX_BUILD:/sbx:ro" -v "$T/prof:/p:ro" -v "$T/inner-ll.sh:/inner.sh:ro" \
	-v "$T/llhome:/home/agent" -v "$WS:/ws" -v "$d:/out" --security-opt "seccomp=$T/seccomp-moby.json" \
	--rootfs "$ROOTFS" /inner.sh >"$d/podman.out" 2>&1
echo $? >"$d/podman.rc"
if [[ $(cat "$d/podman.rc") == 0 ]]; then
	got=$(jkey "$d/doctor.json" tier)
	t_check "user-moby-ll: --doctor with min_tier landlock predicts tier landlock" "tier=$got; $(tail -c 300 "$d/doctor.json")" test "$got" = landlock
	t_check "user-moby-ll: status ran (exit 0)" "rc=$(cat "$d/status.rc"); $(tail -c 400 "$d/status.err" | tr '\n' '|')" test "$(cat "$d/status.rc")" = 0
	got=$(jkey "$d/status.err" tier)
	t_check "user-moby-ll: --json says tier landlock" "tier=$got" test "$got" = landlock
	got=$("$PYTHON" -c 'import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(",".join(s["feature"]+"="+s["with"] for s in o["substitutions"]))' "$d/status.err")
	t_check "user-moby-ll: --json names every substitution" "got '$got'" \
		test "$got" = "pid=shared,mount=landlock,net=landlock,proc=host,ipc=none,uts=shared,unix=pairs-only,tmp=private,workspace=entries,ioctl=tty-only,metadata=none"
	rec=$(grep '"SBX_EVENT":"allowed"' "$d/audit.jsonl" | tail -n 1)
	t_check "user-moby-ll: the audit record names the tier and its substitutions" "record: $rec" \
		bash -c 'grep -q "\"SBX_TIER\":\"landlock\"" <<<"$1" && grep -q "\"SBX_SUBSTITUTIONS\":\"pid=shared (P1 [^)]*); mount=landlock" <<<"$1" && grep -q "unix=pairs-only" <<<"$1"' sh "$rec"
	applied=$(jkey "$d/status.err" applied)
	for step in landlock seccomp caps-dropped no_new_privs; do
		t_check "user-moby-ll: --json applied has $step" "applied=$applied" grep -q "\"$step\"" <<<"$applied"
	done
	t_check "user-moby-ll: --json applied has no namespace" "applied=$applied" sh -c '! echo "$1" | grep -q -e pidns -e mntns -e netns -e userns -e ipcns -e utsns' sh "$applied"
	OUT=$d/status
	expect_kv "user-moby-ll: no effective capability" sys.CapEff 0000000000000000
	expect_kv "user-moby-ll: no permitted capability" sys.CapPrm 0000000000000000
	expect_kv "user-moby-ll: no_new_privs" sys.NoNewPrivs 1
	expect_kv "user-moby-ll: a seccomp filter" sys.Seccomp 2
	OUT=$d/w-in
	expect_kv "user-moby-ll: writing in the workspace works" result ok
	t_check "... the file is there (host side)" "" test -e "$WS/llw/ll-inside"
	OUT=$d/w-out
	expect_kv_in "user-moby-ll: writing outside the workspace is refused" result EACCES EPERM
	t_check "... nothing appeared outside (host side)" "" test ! -e "$d/ll-escape"
	OUT=$d/w-tmp
	expect_kv_in "user-moby-ll: writing /tmp itself is refused" result EACCES EPERM
	t_check "... nothing appeared in /tmp (host side)" "" test ! -e "$ROOTFS/tmp/ll-escape"
	t_check "user-moby-ll: the private TMPDIR is writable" "$(cat "$d/tmpdir")" grep -q "^x$" "$d/tmpdir"
	tdir=$(tail -n 1 "$d/tmpdir")
	t_check "user-moby-ll: the profile's HOME=/tmp (a tmpfs in a full jail) is the private TMPDIR" "$(cat "$d/tmpdir")" grep -qx "HOME=$tdir" "$d/tmpdir"
	t_check "... and removed after the run (host side: $tdir)" "" test ! -e "$ROOTFS$tdir"
	t_check "... and was not /tmp itself" "$tdir" test "${tdir#/tmp/sbx-tmp-}" != "$tdir"
	t_check "user-moby-ll: control: \$HOME is readable outside the jail" "$(cat "$d/control-home")" grep -q secret-of-home "$d/control-home"
	OUT=$d/r-home
	expect_kv_in "user-moby-ll: reading \$HOME is refused" result EACCES EPERM
	t_check "user-moby-ll: control: kill -0 of the listener works outside" "" test -s "$d/control-kill"
	OUT=$d/kill
	expect_kv "user-moby-ll: kill -0 of a process outside the jail: EPERM (Landlock signal scope)" result EPERM
	t_check "user-moby-ll: control: /proc/PID/environ is readable outside" "" test -s "$d/control-environ"
	OUT=$d/environ
	expect_kv_in "user-moby-ll: another process's /proc/PID/environ is refused" result EACCES EPERM
	OUT=$d/ptrace
	expect_kv "user-moby-ll: ptrace of a process outside is refused" result EPERM
	OUT=$d/tcp
	expect_kv_in "user-moby-ll: TCP connect to the container's listener is refused" result EACCES EPERM
	t_check "user-moby-ll: UDP socket refused" "$(tr '\n' ' ' <"$d/udp")" grep -qx "udp=1" "$d/udp"
	t_check "user-moby-ll: UDP6 socket refused" "$(tr '\n' ' ' <"$d/udp")" grep -qx "udp6=1" "$d/udp"
	t_check "user-moby-ll: raw socket refused" "$(tr '\n' ' ' <"$d/udp")" grep -Eqx "raw=(1|97)" "$d/udp"
	t_check "user-moby-ll: netlink socket refused" "$(tr '\n' ' ' <"$d/udp")" grep -qx "netlink=97" "$d/udp"
	t_check "user-moby-ll: listen() refused (no ephemeral port)" "$(tr '\n' ' ' <"$d/udp")" grep -qx "listen=1" "$d/udp"
	t_check "user-moby-ll: MSG_FASTOPEN send refused" "$(tr '\n' ' ' <"$d/udp")" grep -qx "fastopen=1" "$d/udp"
	OUT=$d/abstract
	expect_kv_not "user-moby-ll: abstract unix connect fails" result 0
	OUT=$d/pathname
	expect_kv_not "user-moby-ll: pathname unix connect outside the workspace fails" result 0
	t_check "user-moby-ll: the listeners got nothing (TCP, UDP, abstract, pathname)" "$(cat "$d/listener.log")" test ! -s "$d/listener.log"
	t_check "user-moby-ll: the listener ran" "" test -s "$d/listener.pid"
	# File metadata (Landlock does not govern it): by path refused, through an O_PATH
	# fd refused by the kernel, through a real fd of a workspace file allowed.
	OUT=$d/meta
	for k in chmod chown lchown utime utimes fchmodat fchmodat2 fchownat futimesat utimensat utimensat_now setxattr lsetxattr \
		removexattr lremovexattr opath.fchmodat2_empty opath.fchownat_empty opath.utimensat_empty opath.proc_chmod; do
		expect_kv "user-moby-ll: $k of \$HOME/meta: EPERM" "$k" EPERM
	done
	for k in setxattrat removexattrat opath.setxattrat_empty opath.removexattrat_empty; do
		expect_kv_in "user-moby-ll: $k of \$HOME/meta refused" "$k" EPERM ENOSYS
	done
	for k in opath.fchmod opath.fchown opath.fsetxattr opath.fremovexattr opath.futimens; do
		expect_kv_in "user-moby-ll: $k on an O_PATH fd of \$HOME/meta: refused (EPERM, or the kernel's EBADF)" "$k" EPERM EBADF
	done
	expect_kv "user-moby-ll: io_uring_setup refused" io_uring_setup EPERM
	t_check "user-moby-ll: (host side) \$HOME/meta's mode, owner, times, xattrs unchanged" \
		"before: $llmeta_before; after: $(llmeta "$T/llhome/meta")" test "$llmeta_before" = "$(llmeta "$T/llhome/meta")"
	OUT=$d/meta-ws
	for k in fchmod fchown futimens fsetxattr fremovexattr; do
		expect_kv "user-moby-ll: $k through a workspace file's fd: EPERM (metadata=none: the workspace's guards)" "$k" EPERM
	done
	t_check "... (host side) its mode is still 0644" "$(llmeta "$WS/ll-meta")" grep -q "^0o100644 " <<<"$(llmeta "$WS/ll-meta")"
	for k in shmget msgget semget; do
		t_check "user-moby-ll: SysV IPC $k refused (EPERM)" "$(tr '\n' ' ' <"$d/sysvipc")" grep -qx "$k=1" "$d/sysvipc"
	done
	t_check "user-moby-ll: the jail wrote the pids of what it left behind" "" test -s "$WS/llw/ll-sleep.pid" -a -s "$WS/llw/ll-daemon.pid"
	t_check "user-moby-ll: a 'sleep 1000 &' left behind is killed when sbx-run exits" "$(cat "$d/sleep-after" 2>&1)" grep -qx gone "$d/sleep-after"
	t_check "user-moby-ll: --timeout: exit 124" "rc=$(cat "$d/timeout.rc"); $(cat "$d/timeout")" test "$(cat "$d/timeout.rc")" = 124
	t_check "user-moby-ll: --timeout: what the command left is killed too" "$(cat "$d/timeout-after" 2>&1); pid=$(cat "$WS/llw/ll-timeout.pid" 2>&1)" \
		sh -c 'test -s "$1" && grep -qx gone "$2"' sh "$WS/llw/ll-timeout.pid" "$d/timeout-after"
	t_check "user-moby-ll: a daemonized (setsid, double fork) child is killed too" "$(cat "$d/daemon-after" 2>&1); $(cat "$d/daemon")" grep -qx gone "$d/daemon-after"
else
	t_fail "user-moby-ll: the container ran" "podman: $(tail -c 400 "$d/podman.out" | tr '\n' '|')"
fi

# ---- 6. the site policy's floor, through sandboxd (sbx-policy(5) min_tier): sandboxd
# as the container's root under podman's defaults (tier container-userns: proc=none,
# uts=shared), the caller an ordinary user whose profile accepts container-userns.
# Site min_tier full: refused, 125, the tier, the floor, the site policy's file:line and
# podman's remedy on the caller's stderr, the probe never ran, and a FAILED record naming
# the tier; site min_tier container-userns: the same request runs at that tier.
mkdir -p "$T/sdws" "$T/site"
printf 'allow:\n  - users: [%s]\n    profiles: ["*"]\nmin_tier: full\n' "$NOBODY" >"$T/site/site-full.yaml"
printf 'allow:\n  - users: [%s]\n    profiles: ["*"]\nmin_tier: container-userns\n' "$NOBODY" >"$T/site/site-cu.yaml"
printf 'allow:\n  - users: [%s]\n    profiles: ["*"]\nmin_tier: container-userns\nlimits:\n  max_memory: 256M\n  max_pids: 48\n  without_cgroup: rlimit\n' \
	"$NOBODY" >"$T/site/site-cur.yaml"
# What site cur's rlimits do, through the same sandboxd: the limits as the command
# sees them, a 512 MiB allocation, and 80 processes at once.
cat >"$T/site/extra-cur" <<'EOF2'
#!/bin/sh
run() { setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups /sbx/sbx-run --daemon --socket /out/sd-cur.sock --profile cu -- "$@"; }
cd /sdws || exit 1
run /bin/bash -c 'echo data=$(ulimit -d) nproc=$(ulimit -u)' >/out/cur-ulimit 2>&1
run /usr/bin/python3 -c 'b = bytearray(512 << 20); print("allocated")' >/out/cur-mem 2>&1
echo $? >/out/cur-mem.rc
run /bin/sh -c 'i=0; while [ $i -lt 80 ]; do sleep 5 & i=$((i+1)); done; echo started $i' >/out/cur-pids 2>&1
echo $? >/out/cur-pids.rc
EOF2
chmod 0755 "$T/site/extra-cur"
cp "$WS/probe" "$T/sdws/probe"
chown -R "$NOBODY:$NOBODY" "$T/sdws"
cat >"$T/inner-sd.sh" <<'EOF2'
#!/bin/sh
# site NAME: sandboxd under /site/site-NAME.yaml, one run through it as nobody, sandboxd stopped.
site() {
	rm -f /out/sd-$1.sock
	/sbx/sandboxd --listen /out/sd-$1.sock --policy /site/site-$1.yaml --no-system-bus --audit-file /out/audit-$1.jsonl \
		</dev/null >/out/sandboxd-$1.err 2>&1 &
	sd=$!
	i=0; while [ ! -S /out/sd-$1.sock ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
	cd /sdws || exit 1
	setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups /sbx/sbx-run --daemon --socket /out/sd-$1.sock \
		--profile cu -- /sdws/probe status >/out/sd-$1 2>/out/sd-$1.err
	echo $? >/out/sd-$1.rc
	cd /
	[ ! -x /site/extra-$1 ] || /site/extra-$1
	kill -TERM $sd 2>/dev/null; wait $sd
	echo $? >/out/sandboxd-$1.rc
}
site full
site cu
site cur
exit 0
EOF2
chmod 0755 "$T/inner-sd.sh"
root_pod "$T/root-sandboxd" "$T/inner-sd.sh"
d=$T/root-sandboxd
if [[ $(cat "$d/podman.rc") == 0 && -e $d/sd-full.rc ]]; then
	err=$(tr '\n' '|' <"$d/sd-full.err")
	t_check "root-sandboxd, site min_tier full: sandboxd refused it, exit 125" "rc=$(cat "$d/sd-full.rc"); $err; sandboxd: $(tail -c 300 "$d/sandboxd-full.err")" \
		bash -c '[[ $1 == 125 ]] && grep -q "sandboxd refused: tier: " "$2"' sh "$(cat "$d/sd-full.rc")" "$d/sd-full.err"
	t_check "... the error names the tier and the site's floor with its file:line" "$err" \
		grep -qF "isolation tier 'container-userns' (podman) is below the site policy's min_tier (/site/site-full.yaml:4) 'full'" "$d/sd-full.err"
	t_check "... the remedy for podman" "$err" grep -qF -- "--security-opt unmask=/proc/*" "$d/sd-full.err"
	t_check "... no profile min_tier offered as a way round, never --privileged" "$err" \
		sh -c "! grep -q -e 'or accept it' -e --privileged '$d/sd-full.err'"
	t_check "... the probe never ran" "$(head -c 200 "$d/sd-full")" test ! -s "$d/sd-full"
	rec=$(grep '"SBX_EVENT":"failed"' "$d/audit-full.jsonl" | tail -n 1)
	t_check "... a FAILED audit record naming the tier and the floor" "record: $rec" \
		bash -c 'grep -q "\"SBX_TIER\":\"container-userns\"" <<<"$1" && grep -q "min_tier (/site/site-full.yaml:4) .full." <<<"$1"' sh "$rec"
	t_check "... and no ALLOWED record" "$(tail -c 600 "$d/audit-full.jsonl")" sh -c "! grep -q '\"SBX_EVENT\":\"allowed\"' '$d/audit-full.jsonl'"
	# sandboxd always applies the memory and pids limits, and this container's cgroup
	# mount is read-only: past the tier, the site policy says whether rlimits stand in.
	err=$(tr '\n' '|' <"$d/sd-cu.err")
	t_check "root-sandboxd, site min_tier container-userns: the request passes the floor" "$err" \
		sh -c "! grep -q min_tier '$d/sd-cu.err'"
	t_check "... but with no cgroup to make and no without_cgroup: refused, exit 125, P9 named" "rc=$(cat "$d/sd-cu.rc"); $err" \
		bash -c '[[ $1 == 125 ]] && grep -q "no cgroup can be made here for the memory and pids limits (P9 " "$2"' sh "$(cat "$d/sd-cu.rc")" "$d/sd-cu.err"
	t_check "... the remedy names limits.without_cgroup: rlimit" "$err" grep -qF "'limits: {without_cgroup: rlimit}'" "$d/sd-cu.err"
	t_check "... the probe never ran" "$(head -c 200 "$d/sd-cu")" test ! -s "$d/sd-cu"
	t_check "... sandboxd said so when it started" "$(tail -c 600 "$d/sandboxd-cu.err" | tr '\n' '|')" \
		grep -q "no cgroup for the memory and pids limits can be made here (P9 .*every run will be refused" "$d/sandboxd-cu.err"
	t_check "root-sandboxd, site without_cgroup: rlimit: the same request runs" \
		"rc=$(cat "$d/sd-cur.rc"); $(tail -c 400 "$d/sd-cur.err" | tr '\n' '|')" test "$(cat "$d/sd-cur.rc")" = 0
	rec=$(grep '"SBX_EVENT":"allowed"' "$d/audit-cur.jsonl" | head -n 1)
	t_check "... its ALLOWED record names the tier and the substitutions, limits=rlimit among them" "record: $rec" \
		bash -c 'grep -q "\"SBX_TIER\":\"container-userns\"" <<<"$1" && grep -q "\"SBX_SUBSTITUTIONS\":\"proc=none" <<<"$1" &&
			grep -q "limits=rlimit (P9 " <<<"$1"' sh "$rec"
	if [[ $(cat "$d/sd-cur.rc") == 0 ]]; then
		OUT=$d/sd-cur
		expect_kv "... it ran as the caller" uid "$NOBODY"
		expect_kv "... with no /proc (proc=none)" procs ENOENT
		expect_kv "... and no capability" sys.CapEff 0000000000000000
	fi
	t_check "... the command's limits: RLIMIT_DATA 256 MiB, RLIMIT_NPROC 48" "$(cat "$d/cur-ulimit")" \
		grep -qx "data=262144 nproc=48" "$d/cur-ulimit"
	t_check "... a 512 MiB allocation fails" "rc=$(cat "$d/cur-mem.rc"); $(tail -c 300 "$d/cur-mem" | tr '\n' '|')" \
		bash -c '[[ $1 != 0 ]] && grep -q MemoryError "$2" && ! grep -q allocated "$2"' sh "$(cat "$d/cur-mem.rc")" "$d/cur-mem"
	t_check "... 80 processes at once do not all start" "rc=$(cat "$d/cur-pids.rc"); $(tail -c 300 "$d/cur-pids" | tr '\n' '|')" \
		sh -c "! grep -q 'started 80' '$d/cur-pids' && grep -qi 'fork\|resource\|retry' '$d/cur-pids'"
else
	t_fail "root-sandboxd: the container ran" "podman: $(tail -c 400 "$d/podman.out" | tr '\n' '|')"
fi
if [[ -e $d/sandboxd-full.rc ]]; then
	for n in full cu cur; do
		t_check "root-sandboxd, site $n: sandboxd ran and stopped cleanly" \
			"rc=$(cat "$d/sandboxd-$n.rc"); $(tail -c 600 "$d/sandboxd-$n.err" | tr '\n' '|')" test "$(cat "$d/sandboxd-$n.rc")" = 0
	done
fi

# ---- 6c. contrib/container/sbx-entrypoint, end to end, in podman with its defaults
# (no CAP_SYS_ADMIN, a read-only cgroup mount): the entrypoint starts sandboxd as the
# container's root under a site policy taking rlimits in the cgroup's place, runs the
# agent as nobody, and the agent's plain `sbx-run` goes through sandboxd.  From the
# host: the jailed command ran as nobody at tier container-userns, its write outside
# the workspace is absent, the audit file holds ALLOWED and EXITED records naming the
# tier and limits=rlimit; the agent's status is the entrypoint's; afterwards sandboxd's
# socket is gone and no process but the check's own is left in the container.
printf 'allow:\n  - users: [%s]\n    profiles: [cu]\nmin_tier: container-userns\nlimits:\n  without_cgroup: rlimit\n' \
	"$NOBODY" >"$T/site/site-entry.yaml"
cat >"$T/agent.sh" <<'EOF2'
#!/bin/sh
cd /sdws || exit 1
export PATH=/sbx:$PATH
sbx-run --profile cu --json -- /sdws/probe status >/out/status 2>/out/status.err
echo $? >/out/status.rc
sbx-run --profile cu -- /bin/sh -c 'echo planted >/sdws/inside; echo planted >/out/outside' >/out/write 2>&1
echo $? >/out/write.rc
exit 7
EOF2
cat >"$T/entry-ctr.sh" <<'EOF2'
#!/bin/sh
mkdir -p /run/sbxaudit && chmod 0700 /run/sbxaudit
SBX_AUDIT_FILE=/run/sbxaudit/audit.jsonl SBX_POLICY=/site/site-entry.yaml SANDBOXD=/sbx/sandboxd \
	/entrypoint --user "$NOBODY" -- /agent.sh >/out/entry.out 2>/out/entry.err
echo $? >/out/entry.rc
cp /run/sbxaudit/audit.jsonl /out/audit.jsonl
ls -A /run/sandboxd >/out/run-after 2>&1
ps -e -o pid=,comm= | grep -v -e ' ps$' -e ' sh$' -e ' grep$' >/out/ps-after
exit 0
EOF2
chmod 0755 "$T/agent.sh" "$T/entry-ctr.sh"
d=$T/entry
mkdir -p "$d"
chmod 0777 "$d" # the agent (nobody) writes its results here, and tries /out/outside from the jail
rm -f "$T/sdws/inside"
root_pod "$d" "$T/entry-ctr.sh" -v "$SBX_ROOT/contrib/container/sbx-entrypoint:/entrypoint:ro" -v "$T/agent.sh:/agent.sh:ro"
if [[ $(cat "$d/podman.rc") == 0 && -e $d/entry.rc ]]; then
	t_check "entrypoint in podman: the agent's status (7) is the entrypoint's" \
		"rc=$(cat "$d/entry.rc"); $(tail -c 400 "$d/entry.err" | tr '\n' '|')" test "$(cat "$d/entry.rc")" = 7
	t_check "... the agent's sbx-run ran its command jailed, exit 0" \
		"rc=$(cat "$d/status.rc" 2>&1); $(tail -c 400 "$d/status.err" 2>&1 | tr '\n' '|')" test "$(cat "$d/status.rc" 2>&1)" = 0
	OUT=$d/status
	expect_kv "... as the agent's user" uid "$NOBODY"
	expect_kv "... with no capability" sys.CapEff 0000000000000000
	expect_kv "... in a PID namespace of its own" pid 2
	got=$("$PYTHON" -c 'import json,sys; o=json.loads(open(sys.argv[1]).read().splitlines()[-1]); print(o["tier"], ",".join(s["feature"]+"="+s["with"] for s in o["substitutions"]))' "$d/status.err" 2>&1)
	t_check "... through sandboxd, at tier container-userns with limits=rlimit (--json)" "got '$got'" \
		bash -c '[[ $1 == "container-userns "* && ,${1#* }, == *,limits=rlimit,* ]]' sh "$got"
	t_check "... its write in the workspace landed, the one outside did not" "rc=$(cat "$d/write.rc"); $(head -c 300 "$d/write")" \
		sh -c "test -s '$T/sdws/inside' && test ! -e '$d/outside'"
	rec=$(grep '"SBX_EVENT":"allowed"' "$d/audit.jsonl" | head -n 1)
	t_check "... the audit file has the ALLOWED record: uid, tier, limits=rlimit" "record: ${rec:0:600}" \
		bash -c 'grep -q "\"SBX_UID\":\"$2\"" <<<"$1" && grep -q "\"SBX_TIER\":\"container-userns\"" <<<"$1" && grep -q "limits=rlimit" <<<"$1"' sh "$rec" "$NOBODY"
	t_check "... and an EXIT record per run" "$(grep -c '"SBX_EVENT":"exit"' "$d/audit.jsonl")" \
		test "$(grep -c '"SBX_EVENT":"exit"' "$d/audit.jsonl")" -ge 2
	t_check "... sandboxd's socket is gone when the entrypoint ends" "$(cat "$d/run-after")" test ! -s "$d/run-after"
	t_check "... and nothing it started is left running" "$(cat "$d/ps-after")" \
		sh -c "! grep -q -e sandboxd -e sbx-run -e probe -e agent -e sleep '$d/ps-after'"
else
	t_fail "entrypoint in podman: the container ran" "podman: $(tail -c 400 "$d/podman.out" | tr '\n' '|')"
fi

# ---- 6b. the landlock tier through sandboxd: sandboxd as root in the moby-like
# container (no namespace at all), the caller nobody with the profile ll (min_tier
# landlock).  Site min_tier full: refused with the remedy, and the site's floor is
# not one a profile may step under (no 'min_tier: landlock' offered); site min_tier
# landlock: the request passes the tier, and the ALLOWED record names it.
printf 'allow:\n  - users: [%s]\n    profiles: ["*"]\nmin_tier: full\n' "$NOBODY" >"$T/site/site-llfull.yaml"
printf 'allow:\n  - users: [%s]\n    profiles: ["*"]\nmin_tier: landlock\nlimits:\n  without_cgroup: rlimit\n' "$NOBODY" >"$T/site/site-ll.yaml"
sed -e 's/--profile cu/--profile ll/' -e 's/^site full$/site llfull/' -e 's/^site cu$/site ll/' -e '/^site cur$/d' "$T/inner-sd.sh" >"$T/inner-sdll.sh"
chmod 0755 "$T/inner-sdll.sh"
d=$T/root-moby-sandboxd
root_pod "$d" "$T/inner-sdll.sh" --security-opt "seccomp=$T/seccomp-moby.json"
if [[ $(cat "$d/podman.rc") == 0 && -e $d/sd-llfull.rc ]]; then
	err=$(tr '\n' '|' <"$d/sd-llfull.err")
	t_check "root-moby-sandboxd, site min_tier full: refused, exit 125, tier refuse" "rc=$(cat "$d/sd-llfull.rc"); $err" \
		bash -c '[[ $1 == 125 ]] && grep -q "isolation tier .refuse." "$2"' sh "$(cat "$d/sd-llfull.rc")" "$d/sd-llfull.err"
	t_check "... the site's floor offers no min_tier: landlock" "$err" sh -c "! grep -q 'min_tier: landlock' '$d/sd-llfull.err'"
	t_check "... the probe never ran" "$(head -c 200 "$d/sd-llfull")" test ! -s "$d/sd-llfull"
	t_check "root-moby-sandboxd, site min_tier landlock (and without_cgroup: rlimit): the request runs" \
		"rc=$(cat "$d/sd-ll.rc"); $(tail -c 400 "$d/sd-ll.err" | tr '\n' '|')" test "$(cat "$d/sd-ll.rc")" = 0
	rec=$(grep '"SBX_EVENT":"allowed"' "$d/audit-ll.jsonl" | tail -n 1)
	t_check "... its ALLOWED record names tier landlock and the substitutions" "record: $rec" \
		bash -c 'grep -q "\"SBX_TIER\":\"landlock\"" <<<"$1" && grep -q "\"SBX_SUBSTITUTIONS\":\"pid=shared" <<<"$1" &&
			grep -q "limits=rlimit (P9 " <<<"$1"' sh "$rec"
	t_check "... and metadata=none (a read-write workspace's guards)" "record: $rec" grep -q "metadata=none (Landlock does not govern chmod" <<<"$rec"
	if [[ $(cat "$d/sd-ll.rc") == 0 ]]; then
		OUT=$d/sd-ll
		expect_kv "... it ran as the caller" uid "$NOBODY"
		expect_kv "... with no capability" sys.CapEff 0000000000000000
	fi
else
	t_fail "root-moby-sandboxd: the container ran" "podman: $(tail -c 400 "$d/podman.out" | tr '\n' '|')"
fi

# The table for the report: setup x tier, from these runs.
for c in root-default user-default user-unmask user-remedied user-moby user-moby-ll; do
	printf 'container %-14s tier=%s substitutions=%s\n' "$c" "$(jkey "$T/$c/doctor.json" tier 2>/dev/null)" \
		"$(jkey "$T/$c/doctor.json" substitutions 2>/dev/null)"
done
