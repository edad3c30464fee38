#!/bin/bash
# nohup (issue 14, item 3): a command started under nohup ignores SIGHUP, so
# `nohup sbx-run -- sh -c 'kill -HUP $$; echo ok'` prints ok, as the same without
# sbx-run does.  Both are run from the host, as root and as the user.
. "$(dirname "$0")/lib.sh"

w="nohup sh -c 'kill -HUP \$\$; echo ok'"
command -v nohup >/dev/null || { c_skip "$w" "nohup is not installed"; exit 0; }
# shellcheck disable=SC2016
job='kill -HUP $$; echo ok'
for who in root user; do
	c_out $who "nohup sh -c '$job'"
	outside=$(c_summary) o_err=$(head -c 200 "$ERR")
	c_out $who "nohup '$SBX_RUN' --workspace '$(c_ws $who)' -- sh -c '$job'"
	c_compare "$w" $who "$outside" "$(c_summary)" "outside stderr: $o_err; inside: $(run_info)"
done
c_row "$w"
