#!/bin/bash
# aider has no pre-exec hook (README, "aider: wrap the whole process"): the whole agent
# runs under sbx-run, as the README says, with a profile whose network reaches only
# the model's API.  A stand-in agent does what aider does with the commands it
# suggests -- subprocess.run(cmd, shell=True), i.e. /bin/sh -c -- and the host sees:
# the subprocesses ran in the jail, their writes outside the workspace did not appear,
# a host listener (loopback and the host's own address) got no connection, and a name
# other than the API's does not resolve.  The API key reaches the agent.
. "$(dirname "$0")/../lib.sh"
t_init

# The README's profile, as a file (sbx-run --profile takes a path in direct mode).
cat >"$T/aider.yaml" <<'EOF'
extends: workspace
description: "aider: the workspace, and the network to the model's API only"
network:
  mode: filtered
  allow:
    - api.openai.com
EOF
OUTSIDE=$T/outside
HOSTIP=$(ip -4 route get 1.1.1.1 2>/dev/null | awk '{ for (i = 1; i < NF; i++) if ($i == "src") print $(i + 1) }')
"$PYTHON" - "$T/port" "$T/accepted" <<'EOF' &
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 0)); s.listen(8)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(60)
try:
    while True:
        c, a = s.accept(); open(sys.argv[2], "a").write("connection from %s\n" % a[0]); c.close()
except Exception:
    pass
EOF
t_defer_kill $!
wait_until 5 test -s "$T/port"
PORT=$(cat "$T/port")

# The stand-in agent: runs each suggested command as aider does, logs its status.
cat >"$WS/agent.py" <<'EOF'
import os, subprocess, sys
with open("agent.log", "w") as log:
    log.write("key=%s\n" % ("yes" if os.environ.get("OPENAI_API_KEY") == "sk-test-key" else "no"))
    for cmd in open(sys.argv[1]).read().splitlines():
        r = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=20)
        log.write("%d %s\n" % (r.returncode, r.stdout.strip().replace("\n", " ")))
EOF
connect="python3 -c 'import socket,sys; c = socket.create_connection((sys.argv[1], $PORT), 3); c.sendall(b\"x\"); c.recv(1)'"
cat >"$WS/suggested" <<EOF
hostname
echo made >in-workspace
echo escaped >$OUTSIDE
$connect 127.0.0.1
$connect ${HOSTIP:-127.0.0.1}
getent hosts example.com
EOF
(cd "$WS" && OPENAI_API_KEY=sk-test-key timeout 120 "$SBX_RUN" --profile "$T/aider.yaml" --env OPENAI_API_KEY -- \
	python3 agent.py suggested >"$OUT" 2>"$ERR")
RC=$?
HUNG=0
mapfile -t L <"$WS/agent.log" 2>/dev/null
t_check "aider under sbx-run: the agent ran (exit 0)" "$(run_info); log: ${L[*]}" test "$RC" = 0 -a "${#L[@]}" = 7
t_check "aider: the API key reached the agent" "${L[0]}" test "${L[0]}" = key=yes
t_check "aider: its sh -c subprocess ran in the jail (hostname sbx)" "${L[1]}" test "${L[1]}" = "0 sbx"
t_check "aider: a subprocess writes in the workspace (host)" "$(cat "$WS/in-workspace" 2>&1)" grep -qx made "$WS/in-workspace"
t_check "aider: a subprocess write outside the workspace fails and does not appear (host)" "${L[3]}; $(ls -l "$OUTSIDE" 2>&1)" \
	test ! -e "$OUTSIDE" -a "${L[3]%% *}" != 0
t_check "aider: a subprocess connection to the host's loopback fails" "${L[4]}" test "${L[4]%% *}" != 0
t_check "aider: a subprocess connection to the host's address (${HOSTIP:-none}) fails" "${L[5]}" test "${L[5]%% *}" != 0
t_check "aider: the host listener got no connection" "$(cat "$T/accepted" 2>&1)" test ! -e "$T/accepted"
t_check "aider: a name other than the API's does not resolve" "${L[6]}" test "${L[6]%% *}" != 0
exit 0
