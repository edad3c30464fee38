#!/usr/bin/env python3
# bus-flood -- what a hostile local user sends sandboxd's socket, for
# tests/integration/t_daemon_dos.sh.  A test tool: it reports what it managed to do
# and never decides pass or fail.  D-Bus is spoken by hand here, so that it can send
# what no D-Bus library would: messages never finished, fds by the hundred, requests
# whose replies it never reads.
#
#   bus-flood.py fds SOCKET CONNS FDS       on CONNS connections, a message that
#                                           announces 64 KiB and never comes, carrying
#                                           up to FDS fds each (200 per sendmsg)
#   bus-flood.py partial SOCKET CONNS MIB [ANNOUNCE]
#                                           on CONNS connections, a message that
#                                           announces ANNOUNCE bytes (default 120 MiB),
#                                           MIB MiB of it sent, the rest never
#   bus-flood.py replies SOCKET WS N MIB    one connection: a Run whose argv holds
#                                           MIB MiB, then N reads of its Argv
#                                           property, whose replies it never reads
#   bus-flood.py conns SOCKET N             N connections that authenticate and idle
#
# Each mode prints one line of key=value (what was accepted), then holds everything
# open until killed (SIGTERM).
import os
import re
import signal
import socket
import struct
import sys
import time

SEND_WINDOW = 5.0  # seconds spent pushing before reporting


def pad(buf, n):
    buf.extend(b"\0" * ((-len(buf)) % n))


class Msg:
    """Little-endian D-Bus marshalling of the few types used here."""

    def __init__(self):
        self.b = bytearray()

    def u32(self, v):
        pad(self.b, 4)
        self.b += struct.pack("<I", v)

    def string(self, s):
        data = s.encode() if isinstance(s, str) else s
        self.u32(len(data))
        self.b += data + b"\0"

    def sig(self, s):
        self.b += bytes([len(s)]) + s.encode() + b"\0"

    def array(self, align, fill):
        self.u32(0)
        at = len(self.b) - 4
        pad(self.b, align)
        start = len(self.b)
        fill()
        struct.pack_into("<I", self.b, at, len(self.b) - start)


def method_call(serial, path, iface, member, sig="", body=b"", n_fds=0):
    m = Msg()
    m.b += b"l\1\0\1" + struct.pack("<II", len(body), serial)

    def one(code, t, write):
        pad(m.b, 8)
        m.b.append(code)
        m.sig(t)
        write()

    def fields():
        one(1, "o", lambda: m.string(path))
        one(2, "s", lambda: m.string(iface))
        one(3, "s", lambda: m.string(member))
        if sig:
            one(8, "g", lambda: m.sig(sig))
        if n_fds:
            one(9, "u", lambda: m.u32(n_fds))

    m.array(8, fields)
    pad(m.b, 8)
    return bytes(m.b) + bytes(body)


def connect(path, fds_ok=True):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
    reply = s.recv(4096)
    if not reply.startswith(b"OK"):
        raise OSError("auth: %r" % reply)
    if fds_ok:
        s.sendall(b"NEGOTIATE_UNIX_FD\r\n")
        s.recv(4096)
    s.sendall(b"BEGIN\r\n")
    return s


def report(**kv):
    print(" ".join("%s=%s" % (k, v) for k, v in kv.items()), flush=True)


def hold():
    signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
    while True:
        time.sleep(3600)


def connect_many(path, n, fds_ok=True):
    conns = []
    for _ in range(n):
        try:
            s = connect(path, fds_ok)
            # the daemon may have closed it unanswered: probe with a zero-byte peek
            s.setblocking(False)
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    s.close()
                    continue
            except BlockingIOError:
                pass
            conns.append(s)
        except OSError:
            pass
    return conns


def mode_fds(path, n, per_conn):
    conns = connect_many(path, n)
    null = os.open("/dev/null", os.O_RDONLY)
    batch = [null] * 253
    head = method_call(1, "/io/sbx/Sandbox1", "io.sbx.Sandbox1.Manager", "Run", "s", b"\0" * (64 << 10), 4)
    sent = 0
    for s in conns:
        try:
            s.send(head[:24])
            done = 0
            while done < per_conn:
                k = min(200, per_conn - done)
                s.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("%di" % k, *batch[:k]))])
                done += k
                sent += k
        except OSError:
            pass
    time.sleep(1)
    alive = sum(1 for s in conns if still_open(s))
    report(conns=len(conns), open=alive, fds_sent=sent)
    hold()


def still_open(s):
    try:
        s.setblocking(False)  # (with a timeout set, recv would wait it out)
        return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def mode_partial(path, n, mib, announce):
    conns = connect_many(path, n, fds_ok=False)
    head = method_call(1, "/io/sbx/Sandbox1", "io.sbx.Sandbox1.Manager", "Run", "s", b"", 0)
    head = bytearray(head)
    struct.pack_into("<I", head, 4, announce - len(head))  # the body it announces
    chunk = b"\0" * 65536
    total = 0
    until = time.time() + SEND_WINDOW
    for s in conns:
        try:
            s.setblocking(True)
            s.settimeout(max(0.05, (until - time.time()) / max(1, len(conns))))
            s.sendall(bytes(head))
            for _ in range(int(mib * 16)):
                s.sendall(chunk)
                total += len(chunk)
        except OSError:
            pass
    time.sleep(1)
    alive = sum(1 for s in conns if still_open(s))
    report(conns=len(conns), open=alive, bytes_sent=total)
    hold()


def run_body(ws_fd, mib):
    m = Msg()
    m.string("workspace")
    big = "a" * (127 * 1024)

    def argv():
        for a in ["/bin/sh", "-c", "sleep 120"] + [big] * int(mib * 1024 / 127):
            m.string(a)

    m.array(4, argv)
    m.array(8, lambda: None)  # a{ss}
    for i in range(4):
        m.u32(i)  # h: index into the fds sent
    m.array(8, lambda: None)  # a{sv}
    return bytes(m.b)


def mode_replies(path, ws, n, mib):
    s = connect(path)
    ws_fd = os.open(ws, os.O_PATH | os.O_DIRECTORY)
    null = os.open("/dev/null", os.O_RDWR)
    body = run_body(ws_fd, mib)
    msg = method_call(1, "/io/sbx/Sandbox1", "io.sbx.Sandbox1.Manager", "Run", "sasa{ss}hhhha{sv}", body, 4)
    s.sendmsg([msg[:4096]], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("4i", ws_fd, null, null, null))])
    s.sendall(msg[4096:])
    data = b""
    deadline = time.time() + 20
    path_re = re.compile(rb"/io/sbx/Sandbox1/sandbox/[0-9a-f]{16}")
    while time.time() < deadline and not path_re.search(data):
        s.settimeout(1)
        try:
            data += s.recv(65536)
        except socket.timeout:
            pass
    found = path_re.search(data)
    if not found:
        report(run="failed", reply=repr(data[-200:]))
        hold()
    obj = found.group(0).decode()
    g = Msg()
    g.string("io.sbx.Sandbox1.Sandbox")
    g.string("Argv")
    s.setblocking(False)
    sent = 0
    pending = b""
    until = time.time() + SEND_WINDOW
    while sent < n and time.time() < until:
        if not pending:
            pending = method_call(100 + sent, obj, "org.freedesktop.DBus.Properties", "Get", "ss", bytes(g.b))
        try:
            k = s.send(pending)
            pending = pending[k:]
            if not pending:
                sent += 1
        except BlockingIOError:
            time.sleep(0.01)
        except OSError:
            break
    time.sleep(1)
    report(run=obj, gets_sent=sent, open=int(still_open(s)))
    hold()


def mode_conns(path, n):
    conns = connect_many(path, n)
    time.sleep(0.5)
    report(conns=len(conns), open=sum(1 for s in conns if still_open(s)))
    hold()


def main():
    mode, path = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    if mode == "fds":
        mode_fds(path, int(args[0]), int(args[1]))
    elif mode == "partial":
        mode_partial(path, int(args[0]), float(args[1]), int(args[2]) if len(args) > 2 else 120 << 20)
    elif mode == "replies":
        mode_replies(path, args[0], int(args[1]), float(args[2]))
    elif mode == "conns":
        mode_conns(path, int(args[0]))
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
