# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2034  # sbxd_* are read by run.sh
# Sourced by bench/run.sh: a private sandboxd for the benchmark, on its own socket and
# policy, started and stopped here, and what it uses read from /proc.
#
#   sbxd_start SANDBOXD DIR   write DIR/policy.yaml, check it, serve DIR/s.sock
#                             (log in DIR/sandboxd.log); sets sbxd_pid and sbxd_sock
#   sbxd_stop                 SIGTERM, then SIGKILL after 5 s; sets sbxd_exit to its
#                             exit status, or to what went wrong, and sbxd_stop_ms to
#                             how long it took (to 50 ms); safe to call twice
#   sbxd_kib FIELD            FIELD (VmRSS, VmHWM, ...) of /proc/PID/status, in KiB
#                             ("n/a" once sandboxd is gone)
#   sbxd_fds                  how many fds sandboxd has open (likewise)
#   sbxd_jail_ms              median and p90 of the jail times sandboxd logged so far
#                             (duration_ms of its exit records: the launcher's clone to
#                             reap, without the connection, the checks and D-Bus)
#   sbxd_log_report           what the log says, by event, and any line that is not
#                             an audit record
#   sbx_stale_cgroups         the sbx-* cgroups on this machine whose maker is gone
#                             (a live jail's are not leaks), one a line

sbxd_pid=
sbxd_sock=

sbxd_start() {
        sbxd_dir=$2
        sbxd_sock=$sbxd_dir/s.sock
        mkdir -p "$sbxd_dir"
        # Root may use every profile (sbx-policy(5)); the limits are the defaults, so
        # 8 clients meet max_sandboxes_per_user exactly.  A short grace: nothing should
        # be running when the bench stops it.
        printf '%s\n' \
                'allow:' \
                '  - users: [root]' \
                '    profiles: ["*"]' \
                'limits:' \
                '  grace: 1s' >"$sbxd_dir/policy.yaml"
        chmod 0644 "$sbxd_dir/policy.yaml"
        "$1" --check-config --policy "$sbxd_dir/policy.yaml" ||
                die "sandboxd refuses the bench policy '$sbxd_dir/policy.yaml'"
        "$1" --listen "$sbxd_sock" --policy "$sbxd_dir/policy.yaml" --no-system-bus \
                </dev/null >"$sbxd_dir/sandboxd.log" 2>&1 &
        sbxd_pid=$!
        i=0
        until [ -S "$sbxd_sock" ]; do
                kill -0 "$sbxd_pid" 2>/dev/null || {
                        cat "$sbxd_dir/sandboxd.log" >&2
                        sbxd_pid=
                        die "sandboxd exited at start"
                }
                i=$((i + 1))
                [ $i -le 100 ] || die "sandboxd made no socket at '$sbxd_sock' in 5 s"
                sleep 0.05
        done
}

sbxd_stop() {
        [ -n "$sbxd_pid" ] || return 0
        pid=$sbxd_pid
        sbxd_pid=
        if ! kill -TERM "$pid" 2>/dev/null; then
                rc=0
                wait "$pid" || rc=$?
                sbxd_exit="gone before the end (exit status $rc)"
                return 0
        fi
        # Its sandboxes get limits.grace (1 s), then it lingers 200 ms for the replies.
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
                sleep 0.05
                i=$((i + 1))
        done
        if kill -0 "$pid" 2>/dev/null; then
                kill -KILL "$pid" 2>/dev/null || true
                wait "$pid" || true
                sbxd_exit="still running 5 s after SIGTERM: SIGKILL"
                return 0
        fi
        rc=0
        wait "$pid" || rc=$?
        sbxd_exit=$rc
        sbxd_stop_ms=$((i * 50))
}

sbxd_kib() {
        awk -v f="$1:" '$1 == f { print $2 }' "/proc/$sbxd_pid/status" 2>/dev/null || echo n/a
}

sbxd_fds() {
        # shellcheck disable=SC2012  # fd names are numbers
        if [ -d "/proc/$sbxd_pid/fd" ]; then ls "/proc/$sbxd_pid/fd" | wc -l; else echo n/a; fi
}

sbxd_jail_ms() {
        grep -o '^sbx event=exit .* duration_ms=[0-9]*' "$sbxd_dir/sandboxd.log" |
                sed 's/.*=//' | sort -n | awk '{ a[NR] = $1 }
                END { if (NR) printf "median %d ms, p90 %d ms over %d sandboxes\n",
                        a[int((NR + 1) / 2)], a[int((NR * 9 + 9) / 10)], NR; else print "n/a" }'
}

sbxd_log_report() {
        log=$sbxd_dir/sandboxd.log
        printf 'sandboxd log: %s\n' "$(grep -o '^sbx event=[a-z]*' "$log" | sort | uniq -c |
                awk '{ sub("event=", "", $3); printf "%s%s %s", (NR > 1 ? ", " : ""), $3, $1 }')"
        # What is neither an allowed nor an exit record: refusals, failures, kills,
        # and anything sandboxd printed that is not an audit record.
        grep -v -e '^sbx event=allowed ' -e '^sbx event=exit ' -e '^sbx event=daemon ' \
                "$log" | head -n 10 | sed 's/^/  /'
}

sbx_stale_cgroups() {
        find /sys/fs/cgroup -maxdepth 6 -type d -name 'sbx-*' 2>/dev/null | sort |
                while read -r cg; do
                        # sbx-PID-NS: PID made it and removes it when it ends.
                        pid=${cg##*/sbx-}
                        pid=${pid%%-*}
                        state=$(sed 's/.*) //; s/ .*//' "/proc/$pid/stat" 2>/dev/null || echo gone)
                        [ "$state" != gone ] && [ "$state" != Z ] || echo "$cg"
                done
}
