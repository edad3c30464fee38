#!/usr/bin/env bash
# make demo: one jailed command that shows what the jail is.
set -u
sbx=$(realpath "${1:-build/sbx-run}")
ws=$(mktemp -d /var/tmp/sbx-demo.XXXXXX)
trap 'rm -rf "$ws"' EXIT
cd "$ws" || exit 1
export DEMO_SECRET=hunter2
echo "\$ sbx-run -- sh -c '…'   (workspace: $ws)"
"$sbx" --json -- /bin/sh -c '
  echo "hostname:   $(hostname)"
  echo "id:         $(id)"
  echo "processes:"; ps -eo pid,comm | sed "s/^/  /"
  echo "mounts:";    cut -d" " -f2,4 /proc/self/mounts | sed "s/^/  /"
  echo "capabilities: $(grep CapEff /proc/self/status)  $(grep NoNewPrivs /proc/self/status)  $(grep "^Seccomp:" /proc/self/status)"
  printf "read /etc/shadow: "; cat /etc/shadow 2>&1 | head -1
  printf "network: "; ip -o link 2>&1 | cut -d" " -f2 | tr "\n" " "; echo
  printf "connect 1.1.1.1:53: "; timeout 2 bash -c "exec 3<>/dev/tcp/1.1.1.1/53 && echo connected" 2>&1 | tail -1
  echo "env: $(env | tr "\n" " ")"
  echo "DEMO_SECRET inside: ${DEMO_SECRET:-<unset>}"
  echo "hello from the jail" > demo.txt
'
status=$?
echo "exit status: $status; written in the workspace: $(cat "$ws/demo.txt" 2>/dev/null)"
