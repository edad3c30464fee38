#!/bin/bash
# A tar round trip (issue 14, item 6): a tree with modes 0755, 0644, 0600 and 0750, a
# symlink and mtimes in the past, archived by the host with another owner (uid 1234, as
# in any downloaded tarball: root's extraction restores owners); extracted with GNU tar and with
# Python's tarfile, outside and inside the jail, by the same identity.  The host then
# compares each extracted tree with the source: types, modes, mtimes (not a symlink's:
# tarfile leaves those), sizes, contents, link targets; and tar's and tarfile's exit
# status.  Owners are not compared: a non-root extraction's files are the invoker's.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
command -v tar >/dev/null || { c_skip "tar round trip" "tar is not installed"; exit 0; }
[[ -x $py ]] || { c_skip "tar round trip" "$py is not installed"; exit 0; }

# tree DIR: one line per entry below DIR, sorted, as the host sees it.
tree() {
	"$py" - "$1" <<'PY'
import hashlib, os, stat, sys
top = sys.argv[1]
for d, dirs, files in sorted(os.walk(top)):
    for n in sorted(dirs + files):
        p = os.path.join(d, n)
        st = os.lstat(p)
        rel = os.path.relpath(p, top)
        if stat.S_ISLNK(st.st_mode):
            print(rel, "symlink ->", os.readlink(p))
        elif stat.S_ISDIR(st.st_mode):
            print(rel, "dir %04o" % stat.S_IMODE(st.st_mode), int(st.st_mtime))
        else:
            with open(p, "rb") as f:
                h = hashlib.sha256(f.read()).hexdigest()[:12]
            print(rel, "file %04o" % stat.S_IMODE(st.st_mode), int(st.st_mtime), st.st_size, h)
PY
}

# The source tree and its archive, made by the host as WHO.
make_tree() {
	local ws
	ws=$(c_ws "$1")
	rm -rf "$ws/src" "$ws/tree.tar" "$ws/x-tar" "$ws/x-py"
	as "$1" sh -c "cd '$ws' && umask 022 && mkdir -p src/bin src/priv && printf '#!/bin/sh\necho run\n' >src/bin/run.sh &&
		echo data >src/data.txt && echo secret >src/priv/key && head -c 100000 /dev/urandom >src/blob &&
		chmod 0755 src/bin/run.sh && chmod 0644 src/data.txt src/blob && chmod 0600 src/priv/key && chmod 0750 src/priv &&
		ln -s bin/run.sh src/link && touch -h -d '2001-02-03 04:05:06' src/* src/*/* src/link && touch -d '2001-02-03 04:05:06' src/bin src/priv &&
		tar cf tree.tar --owner=1234 --group=1234 --numeric-owner -C src ."
}

# shellcheck disable=SC2016
cmd='mkdir x-tar x-py && tar xf tree.tar -C x-tar; echo "tar=$?";
/usr/bin/python3 -c "import tarfile; tarfile.open(\"tree.tar\").extractall(\"x-py\")"; echo "tarfile=$?"'

# summary WHO: what each extraction left, compared with the source by the host.
summary() {
	local ws s tool dir got
	ws=$(c_ws "$1")
	tree "$ws/src" >"$T/src.tree"
	s=""
	for tool in tar tarfile; do
		dir=$ws/x-tar
		[[ $tool == tarfile ]] && dir=$ws/x-py
		tree "$dir" >"$T/$tool.tree" 2>&1
		got=$(diff "$T/src.tree" "$T/$tool.tree" | grep -c '^>')
		if ((got)); then
			got="$got of $(wc -l <"$T/src.tree") entries differ (first: $(diff "$T/src.tree" "$T/$tool.tree" | grep -m1 '^>' | cut -c3-))"
		else
			got="tree = source"
		fi
		s+="$tool: exit $(sed -n "s/^$tool=//p" "$OUT"), $got; "
	done
	echo "${s%; }"
}

chown -R "$C_UID:$C_UID" "$(c_ws user)"
w="tar round trip (GNU tar, python tarfile)"
for who in root user; do
	make_tree $who
	c_out $who "$cmd"
	outside=$(summary $who) o_err=$(head -c 200 "$ERR")
	rm -rf "$(c_ws $who)/x-tar" "$(c_ws $who)/x-py"
	c_in $who -- "$cmd"
	c_compare "$w" $who "$outside" "$(summary $who)" "outside stderr: $o_err; inside: $(run_info)"
done
c_row "$w"
