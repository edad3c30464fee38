#!/bin/bash
# Nothing the jail writes runs from memory (memory_deny_write_execute, on in strict):
# python3, allowlisted by strict, copies code it was given into memory it mapped and
# jumps to it, in every way it could make written bytes executable. The code would
# create a marker file in the workspace: the host checks that none appeared, and that
# the same attack does create it under a profile without the key (so the test can
# fail), directly and through sandboxd. The probe shows the kernel's side
# (PR_GET_MDWE, each refusal's errno) under a profile of its own, and a kernel without
# PR_SET_MDWE (a filter that says EINVAL) is refused unless the profile makes the key
# optional.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init

if [[ $(uname -m) != x86_64 ]]; then
	t_skip "W^X attacks" "the payload is x86-64 machine code; this is $(uname -m)"
	exit 0
fi
if ! "$PYTHON" -c 'import ctypes' 2>/dev/null; then
	t_skip "W^X attacks" "python3 with ctypes is needed inside the jail"
	exit 0
fi

# payload FORM: position-independent x86-64 code that creates $WS/pwned.FORM and
# returns 0: lea rdi,[rip+path]; mov esi,0644; mov eax,SYS_creat; syscall; xor eax,eax; ret.
payload() {
	"$PYTHON" - "$WS/pwned.$1" "$WS/payload.$1" <<'EOF'
import struct, sys
body = b"\xbe\xa4\x01\x00\x00" + b"\xb8\x55\x00\x00\x00" + b"\x0f\x05" + b"\x31\xc0" + b"\xc3"
code = b"\x48\x8d\x3d" + struct.pack("<i", len(body)) + body + sys.argv[1].encode() + b"\0"
open(sys.argv[2], "wb").write(code)
EOF
}

# attack.py FORM PAYLOAD: each way of getting the bytes of PAYLOAD executable, then a
# call into them.  Prints "refused: ERRNO" (exit 3) when the way is closed.
cat >"$WS/attack.py" <<'EOF'
import ctypes, errno, mmap, os, sys
form, code = sys.argv[1], open(sys.argv[2], "rb").read()
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.syscall.restype = ctypes.c_long
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
R, W, X = mmap.PROT_READ, mmap.PROT_WRITE, mmap.PROT_EXEC
ANON = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
MAP_FAILED = ctypes.c_void_p(-1).value

def refused(what):
    e = ctypes.get_errno()
    print("refused: %s (%s)" % (errno.errorcode.get(e, e), what))
    sys.exit(3)

def anon(prot):
    a = libc.mmap(None, 4096, prot, ANON, -1, 0)
    if a in (None, MAP_FAILED):
        refused("mmap")
    return a

def protect(a, prot):
    if libc.mprotect(a, 4096, prot) != 0:
        refused("mprotect")

if form == "mprotect":          # the issue's: RW, copy, RX, jump
    a = anon(R | W); ctypes.memmove(a, code, len(code)); protect(a, R | X)
elif form == "rwx":             # writable and executable at once
    a = anon(R | W | X); ctypes.memmove(a, code, len(code))
elif form == "mprotect_rwx":
    a = anon(R | W); ctypes.memmove(a, code, len(code)); protect(a, R | W | X)
elif form == "pkey_mprotect":   # x86-64 SYS_pkey_mprotect, default key
    a = anon(R | W); ctypes.memmove(a, code, len(code))
    if libc.syscall(329, ctypes.c_void_p(a), ctypes.c_size_t(4096), R | X, -1) != 0:
        refused("pkey_mprotect")
elif form == "rx_rw_rx":        # executable first, written, executable again
    a = anon(R | X); protect(a, R | W); ctypes.memmove(a, code, len(code)); protect(a, R | X)
elif form == "shmat":           # System V: write through one attach, run another
    sid = libc.shmget(0, 4096, 0o1700)   # IPC_CREAT, rwx: SHM_EXEC needs x
    if sid < 0:
        refused("shmget")
    w = libc.shmat(sid, None, 0)
    libc.shmctl(sid, 0, None)
    ctypes.memmove(w, code, len(code))
    a = libc.shmat(sid, None, 0o100000 | 0o10000)   # SHM_EXEC | SHM_RDONLY
    if a in (None, MAP_FAILED):
        refused("shmat SHM_EXEC")
elif form == "procmem":         # written past the protection through /proc/self/mem
    a = anon(R | X)
    try:
        with open("/proc/self/mem", "r+b", buffering=0) as m:
            m.seek(a); m.write(code)
    except OSError as e:
        ctypes.set_errno(e.errno)
        refused("/proc/self/mem")
elif form in ("memfd", "workspace", "tmp", "devshm", "tmpfs", "rwbind"):
    try:
        if form == "memfd":
            fd = os.memfd_create("x")
        else:
            d = {"workspace": ".", "tmp": "/tmp", "devshm": "/dev/shm", "tmpfs": "/scratch", "rwbind": "/rwbind"}[form]
            fd = os.open("%s/code.%d" % (d, os.getpid()), os.O_RDWR | os.O_CREAT, 0o600)
        os.write(fd, code)
        os.ftruncate(fd, 4096)
        m = mmap.mmap(fd, 4096, prot=R | X)
    except OSError as e:
        ctypes.set_errno(e.errno)
        refused(form)
    # A read-only executable mapping has no buffer to take an address from: maps has it.
    a = None
    for line in open("/proc/self/maps"):
        if " r-x" in line and ("memfd:x" in line or "/code.%d" % os.getpid() in line):
            a = int(line.split("-")[0], 16)
    if a is None:
        print("no mapping found"); sys.exit(4)
else:
    sys.exit("unknown form " + form)
print("ran:", ctypes.CFUNCTYPE(ctypes.c_int)(a)())
EOF

forms=(mprotect rwx mprotect_rwx pkey_mprotect rx_rw_rx shmat procmem memfd workspace tmp devshm tmpfs rwbind)
mkdir -p "$T/rwbind"
for f in "${forms[@]}"; do
	payload "$f"
done

# attack PROFILE FORM [OPTIONS]: the attack in a jail of PROFILE; the marker is removed
# first, so each run's evidence is its own.
attack() {
	local profile=$1 form=$2
	shift 2
	rm -f "$WS/pwned.$form"
	sbx --profile "$profile" --workspace "$WS" "$@" -- python3 attack.py "$form" "payload.$form"
}

# not_run NAME FORM: the attack ran python (it reached its verdict) and the payload did
# not run: no marker on the host.
not_run() {
	local name=$1 form=$2
	if [[ -e $WS/pwned.$form ]]; then
		t_fail "$name" "the payload ran: $WS/pwned.$form exists"
	elif ((HUNG)) || ! grep -q "^refused: " "$OUT"; then
		t_fail "$name" "not tested, the attack did not get to its verdict: $(run_info); stdout: $(head -c 200 "$OUT" | tr '\n' '|')"
	else
		t_ok "$name ($(sed -n 's/^refused: //p' "$OUT"))"
	fi
}

# ran NAME FORM: the payload ran, and the host sees its marker.
ran() {
	local name=$1 form=$2
	if [[ -e $WS/pwned.$form ]] && grep -q "^ran: 0" "$OUT"; then
		t_ok "$name"
	else
		t_fail "$name" "the control attack did not run, so the test proves nothing: $(run_info); stdout: $(head -c 200 "$OUT" | tr '\n' '|')"
	fi
}

# ---- strict: every form refused (a --tmpfs and a --rw bind given for the last two)
for f in "${forms[@]}"; do
	attack strict "$f" --tmpfs /scratch:1M --rw "$T/rwbind:/rwbind"
	not_run "strict: $f: written code does not run" "$f"
done

# ---- the controls: strict without the key, and workspace (no allowlist, no key)
printf 'extends: strict\nmemory_deny_write_execute: false\n' >"$T/strict-wx.yaml"
attack "$T/strict-wx.yaml" mprotect
ran "control: strict with memory_deny_write_execute false runs the mprotect attack" mprotect
attack "$T/strict-wx.yaml" rwx
ran "control: strict with memory_deny_write_execute false runs the rwx attack" rwx
attack "$T/strict-wx.yaml" shmat
ran "control: strict with memory_deny_write_execute false runs the shmat attack" shmat
for f in memfd workspace tmp devshm; do
	attack "$T/strict-wx.yaml" "$f"
	not_run "strict with memory_deny_write_execute false: $f still refused (the allowlist's memfd denial and noexec)" "$f"
done
attack workspace mprotect
ran "control: workspace runs the mprotect attack" mprotect
attack workspace workspace
ran "control: workspace runs the attack from a file in the workspace (not noexec there)" workspace
attack workspace memfd
ran "control: workspace runs the memfd attack (only the allowlist denies memfd)" memfd
attack workspace tmpfs --tmpfs /scratch:1M
ran "control: workspace runs the attack from a --tmpfs (noexec only under an allowlist)" tmpfs

# ---- an allowlist that does not mention the key gets it
printf 'extends: workspace\ncommands:\n  mode: allowlist\n  allow: [python3]\n' >"$T/allowlist.yaml"
attack "$T/allowlist.yaml" mprotect
not_run "an allowlist profile without the key: on by default" mprotect
sbx --profile "$T/allowlist.yaml" --workspace "$WS" --dry-run -- python3
grep -q '"memory_deny_write_execute":true' "$OUT" && t_ok "--dry-run: allowlist implies memory_deny_write_execute" ||
	t_fail "--dry-run: allowlist implies memory_deny_write_execute" "$(run_info); $(head -c 300 "$OUT")"
sbx --profile workspace --workspace "$WS" --dry-run -- true
grep -q '"memory_deny_write_execute":false' "$OUT" && t_ok "--dry-run: workspace has no memory_deny_write_execute" ||
	t_fail "--dry-run: workspace has no memory_deny_write_execute" "$(run_info)"

# ---- a program with an executable stack: the kernel maps its stack writable and
# executable at execve, PR_SET_MDWE or not, so the allowlist leaves it off.  A copy of
# the probe whose PT_GNU_STACK asks for it, on a read-only bind at its host path.
mkdir -p "$T/esbin"
"$PYTHON" - "$PROBE" "$T/esbin/probe-es" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
phoff = struct.unpack_from("<Q", b, 0x20)[0]
phentsize, phnum = struct.unpack_from("<HH", b, 0x36)
for i in range(phnum):
    o = phoff + i * phentsize
    if struct.unpack_from("<I", b, o)[0] == 0x6474E551:      # PT_GNU_STACK: add PF_X
        struct.pack_into("<I", b, o + 4, struct.unpack_from("<I", b, o + 4)[0] | 1)
open(sys.argv[2], "wb").write(b)
PY
chmod 0755 "$T/esbin/probe-es"
es_profile() {
	printf 'extends: workspace\nenvironment:\n  set: { PATH: "%s:/usr/bin:/bin" }\nfilesystem:\n  ro: ["%s"]\ncommands:\n  mode: allowlist\n  allow: [probe-es]\n%s' \
		"$T/esbin" "$T/esbin" "$1" >"$2"
}
es_profile "" "$T/es.yaml"
es_profile $'memory_deny_write_execute: false\n' "$T/es-nowx.yaml"
sbx --profile "$T/es-nowx.yaml" --workspace "$WS" -- probe-es stack-exec
expect_kv "control: an executable stack runs written code without the key" stack_exec ok
sbx --profile "$T/es.yaml" --workspace "$WS" -- probe-es stack-exec
if [[ $RC == 126 ]] && ! grep -q "^stack_exec=" "$OUT"; then
	t_ok "allowlist with the key: a program with an executable stack does not run"
else
	t_fail "allowlist with the key: a program with an executable stack does not run" "$(run_info); stdout: $(head -c 200 "$OUT" | tr '\n' '|')"
fi

# ---- the kernel's side, with the probe (not on strict's list: a profile of its own)
printf 'extends: workspace\nmemory_deny_write_execute: true\n' >"$T/mdwe.yaml"
jail --profile "$T/mdwe.yaml" -- wx
if ran_ok "probe wx under memory_deny_write_execute"; then
	expect_kv "PR_GET_MDWE: PR_MDWE_REFUSE_EXEC_GAIN" mdwe 1
	expect_kv "mmap RWX: EACCES (seccomp)" mmap_rwx EACCES
	expect_kv "mprotect RWX: EACCES" mprotect_rwx EACCES
	expect_kv "mprotect RW to RX: EACCES (MDWE)" mprotect_rx EACCES
	expect_kv "pkey_mprotect RW to RX: EACCES (MDWE)" pkey_mprotect_rx EACCES
	expect_kv "RX, RW, RX again: EACCES (MDWE)" rx_rw_rx EACCES
	expect_kv "shmat SHM_EXEC: EACCES (seccomp)" shmat_exec EACCES
	expect_kv_not "/proc/self/mem cannot write code" procmem ok
fi
sbx --profile "$T/mdwe.yaml" --workspace "$WS" -- sh -c "exec '$WS/probe' wx"
expect_kv "MDWE inherited through sh (fork and execve)" mdwe 1
jail -- wx
if ran_ok "probe wx under workspace"; then
	expect_kv "workspace: no MDWE" mdwe 0
	expect_kv "workspace: mprotect RW to RX runs (the probe can tell)" mprotect_rx ok
	expect_kv "workspace: shmat SHM_EXEC runs (the probe can tell)" shmat_exec ok
	expect_kv_not "workspace: /proc/self/mem cannot write code either (read-only /proc)" procmem ok
fi

# ---- through sandboxd: the same plan, the same refusal
dm_init
dm_policy <<'YAML'
allow:
  - users: [root]
    profiles: ["*"]
YAML
if dm_start; then
	rm -f "$WS/pwned.mprotect"
	dsbx --profile strict --workspace "$WS" -- python3 attack.py mprotect payload.mprotect
	not_run "sandboxd, strict: mprotect: written code does not run" mprotect
	rm -f "$WS/pwned.mprotect"
	dsbx --profile workspace --workspace "$WS" -- python3 attack.py mprotect payload.mprotect
	ran "control: sandboxd, workspace runs the mprotect attack" mprotect
	dm_stop
else
	t_fail "sandboxd: strict refuses written code" "sandboxd did not start: $(tail -c 300 "$DM_LOG" | tr '\n' '|')"
fi

# ---- --json says so
attack strict mprotect --json
if json_last; then
	grep -q '^applied=.*"mdwe"' "$T/json" && t_ok "--json: mdwe applied under strict" || t_fail "--json: mdwe applied under strict" "$(tail -n 1 "$ERR")"
else
	t_fail "--json: mdwe applied under strict" "no JSON: $(run_info)"
fi

# ---- a kernel without PR_SET_MDWE: refused, unless optional (then weakened)
if [[ $(id -u) != 0 ]] || ! "$PROBE" no-mdwe true; then
	t_skip "no PR_SET_MDWE" "the probe's stand-in for an old kernel needs root"
else
	SBX_RUN_SAVED=$SBX_RUN
	SBX_RUN="$PROBE"
	sbx no-mdwe "$SBX_RUN_SAVED" --profile strict --workspace "$WS" -- python3 -V
	expect_rc "no PR_SET_MDWE: strict refused (fail closed)" 125
	grep -q "PR_SET_MDWE" "$ERR" && grep -q "optional" "$ERR" && t_ok "no PR_SET_MDWE: the error says what and how to fix it" ||
		t_fail "no PR_SET_MDWE: the error says what and how to fix it" "$(run_info)"
	printf 'extends: strict\noptional: [memory_deny_write_execute]\n' >"$T/optional.yaml"
	rm -f "$WS/pwned.rwx"
	sbx no-mdwe "$SBX_RUN_SAVED" --profile "$T/optional.yaml" --workspace "$WS" --json -- python3 attack.py rwx payload.rwx
	not_run "no PR_SET_MDWE, optional: W+X still refused by seccomp" rwx
	if json_last; then
		grep -q '^weakened=.*memory_deny_write_execute' "$T/json" && t_ok "no PR_SET_MDWE, optional: --json weakened says so" ||
			t_fail "no PR_SET_MDWE, optional: --json weakened says so" "$(tail -n 1 "$ERR")"
		grep -q '^applied=.*"mdwe"' "$T/json" && t_fail "no PR_SET_MDWE, optional: mdwe not in applied" "$(tail -n 1 "$ERR")" ||
			t_ok "no PR_SET_MDWE, optional: mdwe not in applied"
	else
		t_fail "no PR_SET_MDWE, optional: --json weakened says so" "no JSON: $(run_info)"
	fi
	SBX_RUN=$SBX_RUN_SAVED
fi
exit 0
