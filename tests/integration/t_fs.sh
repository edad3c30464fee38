#!/bin/bash
# What the jail sees and may change of the host's file systems: host secrets
# unreadable, writes outside the workspace never reach the host, workspace
# writes do, read-only binds stay read-only (also against remount), /proc/sys
# and /sys are read-only for uid 0 inside, no set-id files, minimal /dev,
# private /tmp, and --ro / --rw / --tmpfs.
. "$(dirname "$0")/../lib.sh"
t_init

tag="sbx-$SBX_RUN_ID-$$-$RANDOM"

# ---- host files that must stay unreadable
root_secret=/root/$tag-secret
echo "root-secret" >"$root_secret"
chmod 0600 "$root_secret"
t_defer "rm -f '$root_secret'"
mkdir "$T/outside"
echo "outside" >"$T/outside/secret"
chmod 0644 "$T/outside/secret"
host_tmp=/tmp/$tag-hosttmp
echo "host tmp" >"$host_tmp"
t_defer "rm -f '$host_tmp'"

for f in /etc/shadow /etc/gshadow /etc/sudoers "$root_secret" "$T/outside/secret" "$host_tmp" \
	"$SBX_ROOT/tests/INTERFACE.md"; do
	[[ -e $f ]] || continue
	jail -- read "$f"
	if ((!HUNG)) && [[ $RC == 0 ]]; then
		expect_kv_not "host file $f unreadable" result ok
	else
		t_fail "host file $f unreadable" "probe did not run: $(run_info)"
	fi
done
jail -- read /etc/passwd
expect_kv "/etc/passwd is readable (minimal /etc present)" result ok
jail -- ls /etc/ssh
expect_kv_not "/etc/ssh absent" result ok

# ---- writes outside the workspace never reach the host
for d in / /etc /usr /usr/bin /var /root /tmp; do
	target=${d%/}/$tag-pwned
	t_defer "rm -f '$target'"
	jail -- write "$target"
	if ((HUNG)) || [[ $RC != 0 ]]; then
		t_fail "write to $d stays in the jail" "probe did not run: $(run_info)"
		continue
	fi
	if [[ -e $target ]]; then
		t_fail "write to $d stays in the jail" "$target appeared on the host (inside: $(kv result))"
	else
		t_ok "write to $d stays in the jail"
	fi
	case $d in
	/usr | /usr/bin) expect_kv_in "write to $d refused inside (read-only bind)" result EROFS EACCES EPERM ;;
	esac
done

# ---- workspace writes reach the host
jail -- write "$WS/from-jail"
expect_kv "workspace write succeeds inside" result ok
if [[ $(cat "$WS/from-jail" 2>/dev/null) == sbx-probe ]]; then
	t_ok "workspace write appears on the host"
else
	t_fail "workspace write appears on the host" "content: $(head -c 100 "$WS/from-jail" 2>&1)"
fi
host_check "workspace file owned by root (uid 0 inside = root)" "owner $(stat -c %u "$WS/from-jail" 2>&1)" \
	test "$(stat -c %u "$WS/from-jail" 2>/dev/null)" = 0

# ---- mount options and remount attempts
# The last mount at a path is the visible one.
mount_opts() {
	awk -v k="mount.$1=" 'index($0, k) == 1 { v = substr($0, length(k) + 1) } END { print v }' "$OUT"
}
has_opt() {
	[[ ,$1, == *,$2,* ]]
}
jail -- mounts
if ran_ok "mounts runs"; then
	o=$(mount_opts /usr)
	for want in ro nosuid nodev; do
		t_check "/usr mounted $want" "/usr options: '$o'" has_opt "$o" "$want"
	done
	o=$(mount_opts "$WS")
	t_check "workspace mounted rw" "workspace options: '$o'" has_opt "$o" rw
	o=$(mount_opts /proc)
	t_check "/proc is mounted" "no /proc mount" test -n "$o"
fi

for d in /usr /etc /; do
	jail -- remount-rw "$d" "$(host_ns mnt)"
	if ran_ok "remount-rw $d runs"; then
		expect_kv_not "$d: MS_REMOUNT|MS_BIND without MS_RDONLY refused" remount ok
		expect_kv_not "$d: mount_setattr(clear RDONLY) refused" mount_setattr ok
		if [[ $d == /usr ]]; then
			expect_kv_not "$d: still not writable afterwards" write_after ok
		fi
	fi
done

# ---- /proc/sys, /sys and other kernel knobs, as uid 0 inside
core_before=$(cat /proc/sys/kernel/core_pattern)
host_before=$(cat /proc/sys/kernel/hostname)
jail -- write-sys
if ran_ok "write-sys runs"; then
	while IFS= read -r line; do
		key=${line%%=*}
		[[ $key == w.* ]] || continue
		expect_kv_not "${key#w.} not writable" "$key" ok
	done <"$OUT"
fi
host_check "host core_pattern unchanged" "now: $(cat /proc/sys/kernel/core_pattern)" \
	test "$core_before" = "$(cat /proc/sys/kernel/core_pattern)"
host_check "host hostname unchanged" "now: $(cat /proc/sys/kernel/hostname)" \
	test "$host_before" = "$(cat /proc/sys/kernel/hostname)"

# ---- set-id files: uid 0 inside creating a set-uid file in the workspace
# would hand a root-owned set-uid binary to the host.
mkdir "$WS/suid"
jail -- suid-create "$WS/suid"
if ran_ok "suid-create runs"; then
	for k in open_mode open_sgid_mode chmod_mode mknod_mode; do
		m=$(kv "$k")
		if [[ $m =~ ^[0-7]{4}$ ]] && (((8#$m & 06000) != 0)); then
			t_fail "no set-id bit via ${k%_mode}" "$k=$m"
		else
			t_ok "no set-id bit via ${k%_mode}"
		fi
	done
	expect_kv_in "chmod(04755) denied" chmod EPERM
	expect_kv_in "fchmod(06755) denied" fchmod EPERM
	expect_kv_in "fchmodat(02755) denied" fchmodat EPERM
	expect_kv_in "fchmodat2(04755) denied" fchmodat2 EPERM ENOSYS
fi
found=$(find "$WS/suid" -type f -perm /6000 -printf '%m %u %p; ' 2>/dev/null)
host_check "host sees no set-id file in the workspace" "found: $found" test -z "$found"

# ---- /dev is minimal
allowed=" null zero full random urandom tty pts ptmx shm fd stdin stdout stderr console mqueue "
jail -- ls /dev
if ran_ok "ls /dev runs"; then
	extra=""
	while IFS= read -r e; do
		[[ $allowed == *" $e "* ]] || extra+="$e "
	done < <(awk -F= '$1 == "entry" { print $2 }' "$OUT")
	t_check "/dev has only the minimal nodes" "extra: $extra" test -z "$extra"
fi
for dev in /dev/mem /dev/kmsg /dev/sda /dev/vda /dev/port; do
	jail -- read "$dev"
	expect_kv_not "$dev not readable" result ok
done

# ---- /tmp is private to the jail
jail -- write "/tmp/$tag-jailtmp"
expect_kv "/tmp writable inside" result ok
host_check "/tmp write not on the host" "/tmp/$tag-jailtmp exists on the host" test ! -e "/tmp/$tag-jailtmp"
rm -f "/tmp/$tag-jailtmp"

# ---- --ro, --rw, --tmpfs
mkdir "$T/rodata" "$T/rwdata"
echo data >"$T/rodata/file"
jail --ro "$T/rodata:/data" -- read /data/file
expect_kv "--ro SRC:DEST readable" result ok
jail --ro "$T/rodata:/data" -- write /data/new
expect_kv_in "--ro SRC:DEST not writable" result EROFS EACCES EPERM
host_check "--ro write not on the host" "$T/rodata/new exists" test ! -e "$T/rodata/new"
jail --ro "$T/rodata:/data" -- remount-rw /data "$(host_ns mnt)"
if ran_ok "remount-rw of a --ro bind runs"; then
	expect_kv_not "--ro bind: remount refused" remount ok
	expect_kv_not "--ro bind: mount_setattr refused" mount_setattr ok
	expect_kv_not "--ro bind: still read-only" write_after ok
fi
jail --ro "$T/rodata" -- read "$T/rodata/file"
expect_kv "--ro PATH binds at the same path" result ok

jail --rw "$T/rwdata:/rwdata" -- write /rwdata/new
expect_kv "--rw SRC:DEST writable" result ok
host_check "--rw write reaches the host" "$T/rwdata/new missing" test -e "$T/rwdata/new"

jail --tmpfs /scratch:1M -- write /scratch/small
expect_kv "--tmpfs writable" result ok
jail --tmpfs /scratch:1M -- write /scratch/big 2097152
expect_kv "--tmpfs size enforced (2 MiB into 1M)" result ENOSPC
host_check "--tmpfs not on the host" "/scratch exists on the host" test ! -e /scratch
# ---- the start directory: the caller's cwd when it lies inside --workspace;
# --workspace-contains-cwd refuses (125) when it does not, symlinks included.
mkdir -p "$WS/sub" "$T/cwdout" "$T/ws2"
ln -s "$T/cwdout" "$WS/escape"
cwd_run() { # DIR SBX-ARGS...: sbx from DIR, the command prints its cwd and writes there
	local d=$1
	shift
	pushd "$d" >/dev/null || return
	sbx --workspace "$WS" "$@" -- /bin/sh -c 'pwd -P; echo x >started-here'
	popd >/dev/null || return
}
cwd_run "$WS/sub"
expect_rc "cwd inside the workspace: runs" 0
t_check "cwd inside the workspace: the command starts there" "$(head -c 200 "$OUT")" grep -qx "$WS/sub" "$OUT"
t_check "cwd inside the workspace: ... and writes there (host)" "missing" test -e "$WS/sub/started-here"
rm -f "$WS/sub/started-here"
cwd_run "$WS/sub" --workspace-contains-cwd
expect_rc "--workspace-contains-cwd, cwd inside: runs" 0
t_check "--workspace-contains-cwd, cwd inside: starts there" "$(head -c 200 "$OUT")" grep -qx "$WS/sub" "$OUT"
cwd_run "$T/cwdout"
expect_rc "cwd outside the workspace: runs" 0
t_check "cwd outside the workspace: starts in the workspace (as before)" "$(head -c 200 "$OUT")" grep -qx "$WS" "$OUT"
t_check "cwd outside the workspace: nothing written in the cwd (host)" "exists" test ! -e "$T/cwdout/started-here"
rm -f "$WS/started-here"
for d in "$T/cwdout" "$T/ws2" "$WS/escape" /tmp; do
	cwd_run "$d" --workspace-contains-cwd
	expect_rc "--workspace-contains-cwd, cwd $d: refused" 125
	t_check "--workspace-contains-cwd, cwd $d: the error says what and how" "$(head -c 300 "$ERR")" \
		grep -q "not inside the workspace.*--workspace" "$ERR"
	t_check "--workspace-contains-cwd, cwd $d: nothing ran (host)" "a file appeared" \
		test ! -e "$T/cwdout/started-here" -a ! -e "$WS/started-here" -a ! -e "$T/ws2/started-here"
done
# A cwd deleted under the caller: no cwd to contain.
mkdir "$WS/gone"
pushd "$WS/gone" >/dev/null && rmdir "$WS/gone"
sbx --workspace "$WS" --workspace-contains-cwd -- /bin/true
popd >/dev/null || true
expect_rc "--workspace-contains-cwd, a deleted cwd: refused" 125
exit 0
