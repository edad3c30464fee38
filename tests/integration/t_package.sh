#!/bin/bash
# The Debian packages (debian/): `dpkg-buildpackage -us -uc -b` on a copy of the tree
# builds sbx-run and sandboxd; each is unpacked with `dpkg -x` into a scratch root of
# its own, and checked there: the programs run and were built for /usr (the profile
# directory is compiled in), each file is where Debian's systemd, D-Bus and man look
# for it and is the tree's own, /etc/sbx/policy.yaml is a conffile (an upgrade never
# replaces a site's policy), nothing is setuid, and the Depends are right.
#
# The copy lives in this group's temp dir: dpkg-buildpackage writes the .debs into
# the PARENT of the tree it builds, which must never be the repository's parent.
# Needs no root.  Skips (failing under SBX_MUST_WORK=1) when dpkg-buildpackage or
# dh is missing: `make deps` installs dpkg-dev and debhelper.
. "$(dirname "$0")/../lib.sh"

trap _t_cleanup EXIT
trap 'exit 130' INT TERM

for tool in dpkg-buildpackage dh; do
	if ! command -v "$tool" >/dev/null; then
		t_skip "build the packages" "$tool is not installed (make deps, or apt-get install dpkg-dev debhelper)"
		exit 0
	fi
done

T=$(mktemp -d "$SBX_TMPDIR/sbxt.$SBX_RUN_ID.$T_GROUP.XXXXXX") || exit 1
SRC=$T/src
mkdir "$SRC"

# ------------------------------------------------------------------ build, from a copy

# The files git knows (with the working tree's content, and new files not yet
# ignored); a tree that is not a git checkout is copied whole but for build/ and .git.
if git -C "$SBX_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$SBX_ROOT" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			# A file deleted but not yet committed is listed by --cached.
			[[ -e $f || -L $f ]] && printf '%s\0' "$f"
		done | tar --null -T - -cf -) | tar -xf - -C "$SRC"
else
	tar -C "$SBX_ROOT" --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$SRC"
fi
if [[ ! -x $SRC/debian/rules ]]; then
	t_fail "build the packages" "no executable debian/rules in the copy of $SBX_ROOT"
	exit 0
fi

start=$SECONDS
(cd "$SRC" && DEB_BUILD_OPTIONS="nocheck parallel=2" timeout -k 10 900 \
	dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1
rc=$?
build_s=$((SECONDS - start))
if ((rc != 0)); then
	t_fail "dpkg-buildpackage -us -uc -b" "exit $rc after ${build_s}s: $(tail -n 15 "$T/build.log" | tr '\n' '|')"
	exit 0
fi
t_ok "dpkg-buildpackage -us -uc -b (${build_s}s)"

version=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
upstream=${version%-*}

declare -A DEB ROOT
for p in sbx-run sandboxd; do
	DEB[$p]=$T/${p}_${version}_${arch}.deb
	ROOT[$p]=$T/root-$p
	if [[ ! -f ${DEB[$p]} ]]; then
		t_fail "$p: package built" "no ${DEB[$p]##*/} in the build's parent; there: $(cd "$T" && echo *.deb)"
		continue
	fi
	t_ok "$p: package built"
	mkdir "${ROOT[$p]}"
	if ! dpkg -x "${DEB[$p]}" "${ROOT[$p]}" 2>"$T/x.err"; then
		t_fail "$p: dpkg -x" "$(head -c 300 "$T/x.err")"
	fi
done
[[ -f ${DEB[sbx-run]} && -f ${DEB[sandboxd]} ]] || exit 0

# ------------------------------------------------------------------ control fields

# field PKG NAME: the control field NAME of PKG's .deb.
field() {
	dpkg-deb -f "${DEB[$1]}" "$2"
}

for p in sbx-run sandboxd; do
	t_check "$p: Package: $p" "Package: $(field "$p" Package)" test "$(field "$p" Package)" = "$p"
	t_check "$p: Architecture: $arch" "Architecture: $(field "$p" Architecture)" test "$(field "$p" Architecture)" = "$arch"
	deps=$(field "$p" Depends)
	# ${shlibs:Depends} was filled in from the libraries the program links.
	missing=""
	for lib in libc6 libcap2 libmnl0 libseccomp2 libsystemd0 libyaml-0-2 libnettle8 zlib1g; do
		[[ ,$deps, =~ [,\ ]${lib}[\ ,] ]] || missing+=" $lib"
	done
	t_check "$p: Depends on the libraries it links (shlibs)" "missing:$missing; Depends: $deps" test -z "$missing"
	t_check "$p: no unsubstituted variable in Depends" "Depends: $deps" test "${deps/\$\{/}" = "$deps"
done
# Each program's Depends names the package of every shared library it needs (read from
# the binary, so a library the build starts to link cannot be forgotten).
for prog in "sbx-run:${ROOT[sbx-run]}/usr/bin/sbx-run" "sandboxd:${ROOT[sandboxd]}/usr/sbin/sandboxd"; do
	p=${prog%%:*}
	deps=$(field "$p" Depends)
	missing=""
	for so in $(objdump -p "${prog#*:}" 2>/dev/null | awk '$1 == "NEEDED" { print $2 }'); do
		path=$(ldconfig -p | awk -v so="$so" '$1 == so { print $NF; exit }')
		# dpkg knows a library by the path its package installed (/lib or /usr/lib).
		pkg=""
		for f in "$path" "$(realpath -e "$path" 2>/dev/null)" "${path#/usr}"; do
			[[ -n $f ]] && pkg=$(dpkg -S "$f" 2>/dev/null | head -1 | cut -d: -f1) && [[ -n $pkg ]] && break
		done
		[[ -n $pkg ]] || { missing+=" $so(no package)"; continue; }
		[[ ,$deps, =~ [,\ ]${pkg}[\ ,] ]] || missing+=" $pkg($so)"
	done
	t_check "$p: Depends on the package of every library the binary needs" "missing:$missing; Depends: $deps" test -z "$missing"
done

# Build-Depends names the -dev package of every library the Makefile links through
# pkg-config, so the build works on a machine that has only what debian/control asks.
bdeps=$(awk '/^Build-Depends:/ { on = 1 } on && /^[A-Z]/ && !/^Build-Depends:/ { on = 0 } on' "$SRC/debian/control" |
	grep -v '^#' | sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/^[[:space:]]*//; s/[[:space:](].*//' | grep -v '^$')
missing=""
for mod in $(grep -oE 'PC_LIBS,[^)]*' "$SRC/Makefile" | cut -d, -f2 | tr ' ' '\n' | sort -u); do
	pc=$(pkg-config --path "$mod" 2>/dev/null)
	pkg=$([[ -n $pc ]] && dpkg -S "$pc" 2>/dev/null | head -1 | cut -d: -f1)
	if [[ -z $pkg ]]; then
		missing+=" $mod(no .pc here)"
	elif ! grep -qx -- "$pkg" <<<"$bdeps"; then
		missing+=" $pkg($mod)"
	fi
done
t_check "Build-Depends: the -dev package of every pkg-config library the Makefile links" \
	"missing:$missing; Build-Depends: $(tr '\n' ' ' <<<"$bdeps")" test -z "$missing"

deps=$(field sandboxd Depends)
t_check "sandboxd: Depends on sbx-run of the same version (its client, its profiles)" "Depends: $deps" \
	grep -qF "sbx-run (= $version)" <<<"$deps"

# ------------------------------------------------------------------ the programs

R=${ROOT[sbx-run]}
D=${ROOT[sandboxd]}
# The programs run from the scratch root, against the host's libraries (which the
# Depends above name).
for prog in "$R/usr/bin/sbx-run" "$D/usr/sbin/sandboxd"; do
	name=${prog##*/}
	out=$("$prog" --version 2>&1)
	rc=$?
	t_check "$name --version: '$name $upstream'" "exit $rc: $out" test "$out" = "$name $upstream"
	out=$("$prog" --help 2>&1)
	rc=$?
	t_check "$name --help: exit 0, a usage" "exit $rc: $(head -c 200 <<<"$out")" \
		test "$rc" = 0 -a "${#out}" -gt 0
	# The profile directory is compiled in: a build for /usr/local would look there.
	dirs=$(grep -aoE '/usr(/local)?/share/sbx/profiles' "$prog" | sort -u | tr '\n' ' ')
	t_check "$name: built to read /usr/share/sbx/profiles, not /usr/local" "the binary names: $dirs" \
		test "$dirs" = "/usr/share/sbx/profiles "
done

# ------------------------------------------------------------------ files, where Debian looks

# same NAME FILE-IN-ROOT TREE-FILE: FILE is there and is the tree's own (man pages
# gunzipped, as dh_compress leaves them).
same() {
	local name=$1 got=$2 want=$3
	if [[ ! -f $got ]]; then
		t_fail "$name" "missing: ${got#"$T"/}"
	elif [[ $got == *.gz ]] && ! zcat -- "$got" | cmp -s - "$want"; then
		t_fail "$name" "${got#"$T"/} is not ${want#"$SRC"/}"
	elif [[ $got != *.gz ]] && ! cmp -s -- "$got" "$want"; then
		t_fail "$name" "${got#"$T"/} is not ${want#"$SRC"/}"
	else
		t_ok "$name"
	fi
}

same "sbx-run: sbx-run(1)" "$R/usr/share/man/man1/sbx-run.1.gz" "$SRC/man/sbx-run.1"
same "sbx-run: sbx-profile(5)" "$R/usr/share/man/man5/sbx-profile.5.gz" "$SRC/man/sbx-profile.5"
n=0
for f in "$SRC"/profiles/*.yaml; do
	same "sbx-run: profile ${f##*/}" "$R/usr/share/sbx/profiles/${f##*/}" "$f"
	n=$((n + 1))
done
t_check "sbx-run: the profiles are the tree's $n, no more" \
	"there: $(find "$R/usr/share/sbx/profiles" -type f -printf "%f\n" | tr '\n' ' ')" \
	test "$(find "$R/usr/share/sbx/profiles" -type f | wc -l)" = "$n"

same "sandboxd: sandboxd(8)" "$D/usr/share/man/man8/sandboxd.8.gz" "$SRC/man/sandboxd.8"
same "sandboxd: sbx-policy(5)" "$D/usr/share/man/man5/sbx-policy.5.gz" "$SRC/man/sbx-policy.5"
same "sandboxd: sandboxd.socket in /lib/systemd/system" "$D/lib/systemd/system/sandboxd.socket" "$SRC/systemd/sandboxd.socket"
same "sandboxd: D-Bus policy in /usr/share/dbus-1/system.d" \
	"$D/usr/share/dbus-1/system.d/io.sbx.Sandbox1.conf" "$SRC/systemd/io.sbx.Sandbox1.conf"
same "sandboxd: /etc/sbx/policy.yaml is the shipped site policy" "$D/etc/sbx/policy.yaml" "$SRC/profiles/site/policy.yaml"

# The service is the tree's but for ExecStart, which names the installed daemon.
svc=$D/lib/systemd/system/sandboxd.service
if [[ ! -f $svc ]]; then
	t_fail "sandboxd: sandboxd.service in /lib/systemd/system" "missing"
else
	exec_start=$(awk -F= '$1 == "ExecStart" { v = substr($0, 11) } END { print v }' "$svc")
	t_check "sandboxd: ExecStart=/usr/sbin/sandboxd, the daemon in the package" \
		"ExecStart=$exec_start" test "$exec_start" = /usr/sbin/sandboxd -a -x "$D$exec_start"
	t_check "sandboxd: sandboxd.service is the tree's but for ExecStart" \
		"$(diff <(grep -v ^ExecStart= "$SRC/systemd/sandboxd.service") <(grep -v ^ExecStart= "$svc") | head -5 | tr '\n' '|')" \
		cmp -s <(grep -v ^ExecStart= "$SRC/systemd/sandboxd.service") <(grep -v ^ExecStart= "$svc")
fi

# ------------------------------------------------------------------ maintainer side

mkdir "$T/ctl"
dpkg-deb -e "${DEB[sandboxd]}" "$T/ctl/sandboxd"
t_check "sandboxd: /etc/sbx/policy.yaml is a conffile (an upgrade keeps the site's)" \
	"conffiles: $(tr '\n' ' ' <"$T/ctl/sandboxd/conffiles" 2>/dev/null)" \
	grep -qx /etc/sbx/policy.yaml "$T/ctl/sandboxd/conffiles"
t_check "sandboxd: postinst enables sandboxd.socket" "no deb-systemd-helper enable 'sandboxd.socket' in postinst" \
	grep -qF "deb-systemd-helper enable 'sandboxd.socket'" "$T/ctl/sandboxd/postinst"

# sbx-run gains nothing from a setuid bit (README, Install); nor does anything else.
for p in sbx-run sandboxd; do
	bad=$(dpkg-deb -c "${DEB[$p]}" | awk '$1 ~ /[sS]/ || $6 ~ /usr\/local/ { print $1, $6 }')
	t_check "$p: no setuid/setgid file, nothing under /usr/local" "$bad" test -z "$bad"
	others=$(dpkg-deb -c "${DEB[$p]}" | awk '$2 != "root/root" { print $2, $6 }')
	t_check "$p: every file owned by root" "$others" test -z "$others"
done
exit 0
