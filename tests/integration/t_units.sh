#!/bin/bash
# The packaging of sandboxd, checked the way systemd and D-Bus will read it: the units
# (systemd/sandboxd.socket, systemd/sandboxd.service) pass `systemd-analyze verify`
# with ExecStart pointing at the daemon under test, the service keeps the promises
# its comments make (Type=notify, NoNewPrivileges=yes, one CapabilityBoundingSet line
# without the capabilities sandboxd never needs), `systemd-analyze security` rates it
# below 9.0, and the D-Bus policy is well-formed.  Needs no root and starts nothing;
# without systemd-analyze every check fails (apt-get install systemd), never skips.
. "$(dirname "$0")/../lib.sh"

trap _t_cleanup EXIT
trap 'exit 130' INT TERM
T=$(mktemp -d "$SBX_TMPDIR/sbxt.$SBX_RUN_ID.$T_GROUP.XXXXXX") || exit 1

SRC=$SBX_ROOT/systemd
U=$T/units
SERVICE=$U/sandboxd.service
mkdir -p "$U" "$T/man/man5" "$T/man/man8"

# A service line's value (the last assignment wins, as in systemd).
unit_value() {
	awk -v k="$2" 'index($0, k "=") == 1 { v = substr($0, length(k) + 2) } END { print v }' "$1"
}

# ------------------------------------------------------------------ the units, as installed

# As `make install` does it, with ExecStart at the daemon under test.
sed "s|^ExecStart=/usr/local/sbin/sandboxd|ExecStart=$SBX_SANDBOXD|" "$SRC/sandboxd.service" >"$SERVICE"
cp "$SRC/sandboxd.socket" "$U/"
t_check "service: ExecStart is the line make install rewrites" \
	"no 'ExecStart=/usr/local/sbin/sandboxd' line in systemd/sandboxd.service" \
	grep -qx "ExecStart=$SBX_SANDBOXD" "$SERVICE"

if ! command -v systemd-analyze >/dev/null; then
	t_fail "systemd-analyze verify" "systemd-analyze is not installed (apt-get install systemd)"
	t_fail "systemd-analyze security" "systemd-analyze is not installed (apt-get install systemd)"
elif [[ ! -x $SBX_SANDBOXD ]]; then
	t_fail "systemd-analyze verify" "sandboxd not built: $SBX_SANDBOXD (make all)"
else
	# Documentation= names man pages: verify looks them up with man(1), here in the
	# tree's own man/ (where man is installed; else it is told not to).
	verify=(systemd-analyze verify)
	if command -v man >/dev/null; then
		cp "$SBX_ROOT/man/"*.5 "$T/man/man5/"
		cp "$SBX_ROOT/man/"*.8 "$T/man/man8/"
	else
		verify+=(--man=no)
	fi
	out=$(cd "$U" && MANPATH=$T/man "${verify[@]}" sandboxd.socket sandboxd.service 2>&1)
	rc=$?
	if ((rc == 0)) && [[ -z $out ]]; then
		t_ok "systemd-analyze verify: silent, exit 0"
	else
		t_fail "systemd-analyze verify: silent, exit 0" "exit $rc: $(echo "$out" | head -c 600 | tr '\n' '|')"
	fi

	out=$(systemd-analyze security --offline=true "$SERVICE" 2>&1)
	rc=$?
	line=$(echo "$out" | grep 'Overall exposure level')
	score=$(echo "$line" | grep -oE '[0-9]+\.[0-9]+' | head -1)
	echo "# systemd-analyze security: ${line:-no score line}"
	if ((rc != 0)) || [[ -z $score ]]; then
		t_fail "systemd-analyze security: exposure below 9.0" "exit $rc, no score: $(echo "$out" | tail -3 | tr '\n' '|')"
	elif awk -v s="$score" 'BEGIN { exit !(s < 9.0) }'; then
		t_ok "systemd-analyze security: exposure $score, below 9.0"
	else
		t_fail "systemd-analyze security: exposure below 9.0" "exposure $score"
	fi
fi

# Every Documentation= page is one the tree ships.
for doc in $(grep -h '^Documentation=' "$SRC/sandboxd.service" "$SRC/sandboxd.socket" | cut -d= -f2- | tr ' ' '\n' | sort -u); do
	page=${doc#man:}
	file=$SBX_ROOT/man/${page%(*}.${page#*(}
	file=${file%)}
	t_check "Documentation=$doc is in man/" "no $file" test -f "$file"
done

# ------------------------------------------------------------------ what the service promises

t_check "service: Type=notify" "Type=$(unit_value "$SERVICE" Type)" \
	test "$(unit_value "$SERVICE" Type)" = notify
t_check "service: NoNewPrivileges=yes" "NoNewPrivileges=$(unit_value "$SERVICE" NoNewPrivileges)" \
	test "$(unit_value "$SERVICE" NoNewPrivileges)" = yes
t_check "service: AmbientCapabilities empty" "AmbientCapabilities=$(unit_value "$SERVICE" AmbientCapabilities)" \
	test -z "$(unit_value "$SERVICE" AmbientCapabilities)"
t_check "service: no RuntimeDirectory= (the socket owns /run/sandboxd)" "$(grep '^RuntimeDirectory=' "$SERVICE")" \
	test -z "$(grep '^RuntimeDirectory=' "$SERVICE")"

# The bounding set: one line (the daemon suite runs sandboxd under exactly it), a list
# of what is kept (not a ~ list of what is dropped), every name a capability.
n=$(grep -c '^CapabilityBoundingSet=' "$SERVICE")
caps=$(unit_value "$SERVICE" CapabilityBoundingSet)
t_check "service: CapabilityBoundingSet on one line" "$n CapabilityBoundingSet= lines" test "$n" = 1
t_check "service: CapabilityBoundingSet lists what is kept" "'$caps'" \
	bash -c '[[ -n $1 && $1 != "~"* && $1 =~ ^(CAP_[A-Z_]+ ?)+$ ]]' _ "$caps"
for cap in CAP_SYS_MODULE CAP_SYS_RAWIO CAP_SYS_BOOT CAP_SYS_PTRACE CAP_BPF CAP_SYS_TIME CAP_MAC_ADMIN; do
	t_check "service: CapabilityBoundingSet has no $cap" "it has: $caps" \
		bash -c '[[ " $1 " != *" $2 "* ]]' _ "$caps" "$cap"
done
for cap in CAP_SYS_ADMIN CAP_SETUID CAP_SETGID CAP_SETPCAP CAP_NET_ADMIN CAP_KILL CAP_MKNOD; do
	t_check "service: CapabilityBoundingSet keeps $cap" "it has: $caps" \
		bash -c '[[ " $1 " == *" $2 "* ]]' _ "$caps" "$cap"
done
# setpriv takes the same names, as the daemon suite gives them (dropping from the
# bounding set needs root).
if [[ $(id -u) == 0 ]]; then
	spec=-all
	for cap in $caps; do
		c=${cap#CAP_}
		spec+=",+${c,,}"
	done
	t_check "service: setpriv --bounding-set takes the set" "setpriv --bounding-set $spec refused it" \
		setpriv --bounding-set "$spec" true
fi

# The options that would break every jail (see the comments in the unit).
for opt in ProtectHostname RestrictSUIDSGID SystemCallFilter RestrictNamespaces RestrictAddressFamilies \
	MemoryDenyWriteExecute PrivateDevices ProtectControlGroups ProtectHome PrivateTmp; do
	v=$(unit_value "$SERVICE" "$opt")
	t_check "service: $opt not set" "$opt=$v" bash -c '[[ -z $1 || $1 == no ]]' _ "$v"
done

# ------------------------------------------------------------------ the socket

t_check "socket: listens on sandboxd's default path" "ListenStream=$(unit_value "$U/sandboxd.socket" ListenStream)" \
	test "$(unit_value "$U/sandboxd.socket" ListenStream)" = /run/sandboxd/sandboxd.sock
t_check "socket: mode 0666 (sandboxd decides per caller)" "SocketMode=$(unit_value "$U/sandboxd.socket" SocketMode)" \
	test "$(unit_value "$U/sandboxd.socket" SocketMode)" = 0666

# ------------------------------------------------------------------ the D-Bus policy

CONF=$SRC/io.sbx.Sandbox1.conf
if out=$("$PYTHON" -c '
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
root = doc.documentElement
if root.tagName != "busconfig":
    sys.exit("the root element is <%s>, not <busconfig>" % root.tagName)
owners = [p.getAttribute("user") for p in root.getElementsByTagName("policy")
          for a in p.getElementsByTagName("allow") if a.getAttribute("own") == "io.sbx.Sandbox1"]
if owners != ["root"]:
    sys.exit("io.sbx.Sandbox1 may be owned by %r, not root alone" % owners)
sends = [a.getAttribute("send_interface") for p in root.getElementsByTagName("policy")
         if p.getAttribute("context") == "default"
         for a in p.getElementsByTagName("allow") if a.getAttribute("send_destination") == "io.sbx.Sandbox1"]
for want in ("io.sbx.Sandbox1.Manager", "io.sbx.Sandbox1.Sandbox"):
    if want not in sends:
        sys.exit("everyone may not call %s" % want)
' "$CONF" 2>&1); then
	t_ok "D-Bus policy: well-formed, root owns the name, everyone may call it"
else
	t_fail "D-Bus policy: well-formed, root owns the name, everyone may call it" "$(echo "$out" | tail -2 | tr '\n' '|')"
fi
exit 0
