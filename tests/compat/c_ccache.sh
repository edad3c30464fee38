#!/bin/bash
# ccache under the build profile (issue 14, item 4): two compiles of the same file,
# each in a fresh jail, and the second is a cache hit, as two compiles outside (with a
# cache directory of their own) are.  The jail's cache is the build profile's
# per-workspace one, under the caller's home: the user's is under $T; root's, under
# /root/.cache/sbx/build, is removed at exit.
. "$(dirname "$0")/lib.sh"

w="ccache gcc -c x.c, twice (--profile build)"
c_have ccache "$w" && c_have gcc "$w" || exit 0

# The hits and misses ccache --print-stats reports.
stats() {
	awk -F'\t' '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 } $1 == "cache_miss" { m += $2 }
		END { printf "%d hit, %d miss", h, m }' "$OUT"
}

rootcache=/root/.cache/sbx/build
before=$(ls -A "$rootcache" 2>/dev/null)
t_defer "for d in \$(comm -13 <(echo '$before' | sort) <(ls -A '$rootcache' 2>/dev/null | sort)); do rm -rf --one-file-system '$rootcache'/\$d; done"
for who in root user; do
	ws=$(c_ws $who)
	echo 'int f(void) { return 42; }' >"$ws/x.c"
	chown -R "$(as $who id -u):$(as $who id -g)" "$ws"
	cc="CCACHE_DIR=$(c_home $who)/ccache-outside ccache"
	c_out $who "$cc gcc -c x.c -o x.o" && c_out $who "$cc gcc -c x.c -o x.o"
	first="exit $RC"
	c_out $who "$cc --print-stats"
	outside="$(stats) (second compile: $first)"
	rm -f "$ws/x.o"
	c_in $who --profile build -- 'ccache gcc -c x.c -o x.o'
	c_in $who --profile build -- 'ccache gcc -c x.c -o x.o'
	first="exit $RC" run=$(run_info)
	c_in $who --profile build -- 'ccache --print-stats'
	c_compare "$w" $who "$outside" "$(stats) (second compile: $first)" "$run; stats: $(run_info)"
	rm -f "$ws/x.o"
done
c_row "$w"
