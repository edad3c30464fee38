#!/bin/bash
# The system view's /etc (issue 14): it carries the /etc that installed packages ship
# (so that Java, Maven, fontconfig and man work inside: tests/compat/ runs them outside
# and inside and compares), and whatever it carries stays read-only and never a
# secret, checked from the host: every file readable inside /etc is world-readable on
# the host, the secrets are absent or unreadable, nothing is writable.
. "$(dirname "$0")/../lib.sh"
t_init

# The secrets: absent, or unreadable and unlistable, inside; as root, whose uid owns
# them (no capabilities, but the owner's bits still apply).
secrets='/etc/shadow /etc/gshadow /etc/shadow- /etc/gshadow- /etc/sudoers /etc/sudoers.d /etc/ssh /etc/ssl/private /etc/security/opasswd'
sbx --workspace "$WS" -- sh -c 'for f in '"$secrets"'; do
	if [ -d "$f" ]; then ls -A "$f" 2>/dev/null | sed "s|^|$f/|"; elif [ -e "$f" ] && head -c1 "$f" >/dev/null 2>&1; then echo "$f"; fi
done; echo done'
if ((!HUNG)) && [[ $RC == 0 ]] && [[ $(cat "$OUT") == done ]]; then
	t_ok "no secret is readable or listable in the jail's /etc"
else
	t_fail "no secret is readable or listable in the jail's /etc" "$(run_info); readable: $(head -c 300 "$OUT" | tr '\n' ' ')"
fi

# Every file the jail can read under /etc is world-readable at the same path on the
# host (or is one of the system view's own copies of one), and none is a secret.
# (A mask is an empty directory or /dev/null: neither carries anything.)
sbx --workspace "$WS" -- sh -c 'find /etc -readable 2>/dev/null | while IFS= read -r f; do
	if [ -f "$f" ] && [ ! -L "$f" ]; then echo "$f"; elif [ -d "$f" ] && [ ! -L "$f" ] && [ -n "$(ls -A "$f")" ]; then echo "$f"; fi
done; echo done'
if ((HUNG)) || [[ $RC != 0 ]] || [[ $(tail -1 "$OUT") != done ]]; then
	t_fail "every readable file in the jail's /etc is world-readable on the host" "not tested: $(run_info)"
else
	bad=""
	n=0
	while IFS= read -r f; do
		[[ $f == done ]] && continue
		n=$((n + 1))
		case $f in
		/etc/shadow* | /etc/gshadow* | /etc/sudoers* | /etc/ssh | /etc/ssh/* | /etc/ssl/private/*)
			bad+=" $f(secret)"
			continue
			;;
		esac
		# The host's own mode: others may read it (a directory: read and search).
		if [[ -e $f ]] && ! perl -e '@s = stat($ARGV[0]) or exit 1; exit(((-d _) ? ($s[2] & 5) == 5 : ($s[2] & 4)) ? 0 : 1)' "$f"; then
			bad+=" $f"
		fi
	done <"$OUT"
	if [[ -z $bad ]] && ((n > 20)); then
		t_ok "every readable entry in the jail's /etc ($n) is world-readable on the host"
	else
		t_fail "every readable entry in the jail's /etc is world-readable on the host" "$n entries; not world-readable or secret:${bad:0:400}"
	fi
fi

# Nothing under /etc is writable from the jail, checked by trying: a file made in each
# directory would appear on the host (or in the jail's tmpfs root: refused too).
sbx --workspace "$WS" -- sh -c 'find /etc -type d 2>/dev/null | while IFS= read -r d; do
	if : >"$d/.sbx-w" 2>/dev/null; then echo "$d"; fi
done; find /etc -writable 2>/dev/null | while IFS= read -r f; do [ -f "$f" ] && [ ! -L "$f" ] && echo "$f"; done; echo done'
if ((!HUNG)) && [[ $RC == 0 ]] && [[ $(cat "$OUT") == done ]]; then
	t_ok "nothing under the jail's /etc is writable"
else
	t_fail "nothing under the jail's /etc is writable" "$(run_info); writable: $(head -c 300 "$OUT" | tr '\n' ' ')"
fi
left=$(find /etc -name .sbx-w 2>/dev/null | head -3)
if [[ -z $left ]]; then
	t_ok "no file appeared under the host's /etc"
else
	t_fail "no file appeared under the host's /etc" "found: $left"
	find /etc -name .sbx-w -delete 2>/dev/null
fi
