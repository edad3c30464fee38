#!/bin/bash
# The jail's /etc (lib/etcview.c, issue 14): it carries what installed packages ship
# under /etc, but never a secret: nothing the host does not let every user read.
# The jail's root is the host's uid 0 without capabilities, so the owner's bits of a
# root-owned 0600 file still let it read; what keeps such files out is their
# absence from the jail.  Asserted from the host:
#  - every file the jail can read under /etc, as root and as nobody, is world-readable
#    on the host, and none lies under a denied name (shadow, ssh, sudoers, ssl/private,
#    security);
#  - a root-only file that appears in a carried directory while the jail runs, or
#    replaces a masked one by rename (how apt, sed -i and editors write), is not
#    readable in the jail either: the carried directories are live binds;
#  - the jail cannot write /etc.
. "$(dirname "$0")/../lib.sh"
t_init

# ---- what the jail reads now is world-readable on the host
cat >"$WS/scan.sh" <<'SH'
find /etc -type f -readable 2>/dev/null | while read -r f; do
	head -c 1 "$f" >/dev/null 2>&1 && echo "$f"
done
SH
chmod 0644 "$WS/scan.sh"
t_ws_for_nobody
for who in root nobody; do
	if [[ $who == nobody ]]; then SBX_AS=65534 sbx --workspace "$WS" -- sh "$WS/scan.sh"
	else sbx --workspace "$WS" -- sh "$WS/scan.sh"; fi
	if [[ $RC != 0 ]] || ! [[ -s $OUT ]]; then
		t_fail "$who: scan /etc in the jail" "$(run_info)"
		continue
	fi
	bad=""
	n=0
	while read -r f; do
		n=$((n + 1))
		case ${f#/etc/} in
		shadow | shadow- | gshadow | gshadow- | sudoers | sudoers.d/* | ssh/* | ssl/private/* | security/* | krb5.keytab)
			bad+=" $f(denied)"
			continue
			;;
		esac
		# The host's own file at that path: world-readable, every directory on the way
		# searchable by others.
		if [[ -e $f ]] && ! setpriv --reuid=65534 --regid=65534 --clear-groups head -c 1 "$f" >/dev/null 2>&1; then
			bad+=" $f"
		fi
	done <"$OUT"
	if [[ -z $bad ]]; then
		t_ok "$who: the $n files the jail reads under /etc are all world-readable on the host"
	else
		t_fail "$who: the files the jail reads under /etc are all world-readable on the host" "not:$(echo "$bad" | head -c 400)"
	fi
done

chown -R 0:0 "$WS"

# ---- a root-only file that appears or is replaced while the jail runs
# A carried directory of the host's /etc (the dry run says which are bound).
sbx --workspace "$WS" --dry-run -- true
dir=$(python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read())
for m in d["mounts"]:
    if m.get("type") == "ro" and m.get("dest") in ("/etc/default", "/etc/apt", "/etc/systemd", "/etc/X11", "/etc/ssl"):
        print(m["dest"]); break
' "$OUT" 2>/dev/null)
if [[ -z $dir || ! -d $dir ]]; then
	t_skip "a secret that appears in a carried /etc directory" "no carried /etc directory on this host"
	exit 0
fi
NEW=$dir/sbx-t-etcview-new.$SBX_RUN_ID
OLD=$dir/sbx-t-etcview-old.$SBX_RUN_ID
TMPF=$dir/.sbx-t-etcview-tmp.$SBX_RUN_ID
t_defer "rm -f '$NEW' '$OLD' '$TMPF'"
SECRET="sbx-etc-secret-$RANDOM$RANDOM"
(umask 077 && echo "masked-before-$SECRET" >"$OLD")
cat >"$WS/late.sh" <<SH
cat '$OLD' 2>/dev/null
: >"$WS/ready"
i=0; while [ ! -e "$WS/go" ] && [ \$i -lt 200 ]; do sleep 0.05; i=\$((i + 1)); done
echo "new:"; cat '$NEW' 2>&1
echo "replaced:"; cat '$OLD' 2>&1
echo "write:"; echo x 2>&1 >'$dir/sbx-t-etcview-w' || echo refused
SH
chmod 0644 "$WS/late.sh"
rm -f "$WS/ready" "$WS/go"
sbx --workspace "$WS" -- sh "$WS/late.sh" &
spid=$!
wait_until 10 test -e "$WS/ready"
(umask 077 && echo "new-$SECRET" >"$NEW" && echo "replaced-$SECRET" >"$TMPF" && mv -f "$TMPF" "$OLD")
: >"$WS/go"
wait "$spid"
if ! grep -q '^write:' "$OUT"; then
	t_fail "root: a root-only file in $dir, at launch and while the jail runs, is not readable" \
		"not tested, the script did not run: $(head -c 300 "$ERR")"
	exit 0
fi
if grep -q "masked-before-$SECRET" "$OUT"; then
	t_fail "root: a root-only file in $dir at launch is not readable" "$(head -c 300 "$OUT")"
else
	t_ok "root: a root-only file in $dir at launch is not readable"
fi
if grep -q "new-$SECRET" "$OUT"; then
	t_fail "root: a root-only file created in $dir while the jail runs is not readable" "the jail read it: $(grep -a "new-$SECRET" "$OUT" | head -c 200)"
else
	t_ok "root: a root-only file created in $dir while the jail runs is not readable"
fi
if grep -q "replaced-$SECRET" "$OUT"; then
	t_fail "root: a masked root-only file replaced by rename while the jail runs stays unreadable" "the jail read it: $(grep -a "replaced-$SECRET" "$OUT" | head -c 200)"
else
	t_ok "root: a masked root-only file replaced by rename while the jail runs stays unreadable"
fi
if [[ -e $dir/sbx-t-etcview-w ]]; then
	t_fail "root: the jail cannot write $dir" "it wrote $dir/sbx-t-etcview-w"
else
	t_ok "root: the jail cannot write $dir"
fi
rm -f "$dir/sbx-t-etcview-w"
