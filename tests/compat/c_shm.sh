#!/bin/bash
# Shared memory above 64 MiB (issue 14, item 5): a 100 MB POSIX shared memory segment
# (Python's multiprocessing.shared_memory, which touches every page of a file in
# /dev/shm) works inside with --tmpfs /dev/shm:256M, as it does outside.
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
w="100 MB SharedMemory (--tmpfs /dev/shm:256M)"
[[ -x $py ]] || { c_skip "$w" "$py is not installed"; exit 0; }
cat >"$T/shm.py" <<'PY'
from multiprocessing import shared_memory
m = shared_memory.SharedMemory(create=True, size=100 << 20)
try:
    m.buf[:] = b"x" * (100 << 20)
    print("shm=ok %d MiB" % (m.size >> 20))
finally:
    m.close()
    m.unlink()
PY
for who in root user; do
	install -m 0644 "$T/shm.py" "$(c_ws $who)/shm.py"
	c_out $who "$py shm.py"
	outside=$(c_summary) o_err=$(head -c 200 "$ERR")
	c_in $who --tmpfs /dev/shm:256M -- "$py shm.py"
	c_compare "$w" $who "$outside" "$(c_summary)" "outside stderr: $o_err; inside: $(run_info)"
done
c_row "$w"
