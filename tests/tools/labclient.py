#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# tests/tools/labclient.py — the clients the egress tests and bench run inside a jail
# (copied into the workspace), where curl cannot say exactly what happened.  Every
# command prints `key=value` lines, never raises past main.
#
#   socks5 PROXY PORT NAME DPORT       SOCKS5 CONNECT by name (ATYP 3), then GET /:
#                                      socks_reply=N, status=..., body=...
#   rawreq PROXY PORT TEXT             sends TEXT (\r\n escapes) and reads the answer:
#                                      status=N, xerr=CODE (X-Sbx-Error), secret=0|1
#   partial-hello HOST PORT N          N connections that each send half a TLS
#                                      ClientHello and close: partial_sent=N
#   connect-tls PROXY PORT AUTH SNI CAFILE  CONNECT AUTH through the proxy, then TLS
#                                      with server name SNI and GET /: ct_status=N
#                                      (the CONNECT's), tls=ok|fail:ERR, body=...
#   stall-hello HOST PORT FILE         half a ClientHello, then waits until FILE exists
#   no-sni HOST PORT CAFILE            a TLS handshake without a server name:
#                                      nosni=ok | nosni=fail:ERR
#   parallel HOST N THREADS [tls CAFILE]  N GET / on HOST:80 (or :443) at THREADS at
#                                      a time: parallel_ok=K parallel_fail=M first_error=..
#   udp ADDR PORT TEXT                 one datagram: udp_sent=1 | udp_err=ERR
#   sink HOST PORT                     reads to EOF: bytes=N seconds=S
#   connloop HOST PORT N               N sequential connect + 1-byte echo: n=N seconds=S
#   dnsloop SERVER NAME N              N A queries over UDP: ok=K seconds=S
#   hold HOST PORT N FILE              opens N connections, says held=N, waits for FILE
import os
import socket
import ssl
import struct
import sys
import threading
import time


def out(**kw):
    for k, v in kw.items():
        print("%s=%s" % (k, str(v).replace("\n", "\\n")))
    sys.stdout.flush()


def conn(host, port, timeout=10):
    return socket.create_connection((host, int(port)), timeout=timeout)


def read_all(s, limit=1 << 20):
    data = b""
    try:
        while len(data) < limit:
            b = s.recv(65536)
            if not b:
                break
            data += b
    except OSError:
        pass
    return data


def http_parts(data):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ")[1] if lines and len(lines[0].split(" ")) > 1 else "none"
    xerr = "none"
    for line in lines[1:]:
        k, _, v = line.partition(":")
        if k.strip().lower() == "x-sbx-error":
            xerr = v.strip()
    return status, xerr, body


def hello_bytes():
    # A real ClientHello from the ssl module would need a handshake; a well-formed
    # record header that announces 512 bytes and delivers 40 is what "mid-ClientHello" is.
    return b"\x16\x03\x01\x02\x00" + b"\x01\x00\x01\xfc\x03\x03" + os.urandom(29)


def cmd_socks5(proxy, port, name, dport):
    s = conn(proxy, port)
    s.sendall(b"\x05\x01\x00")
    if s.recv(2) != b"\x05\x00":
        return out(socks_reply="no-auth-refused")
    n = name.encode()
    s.sendall(b"\x05\x01\x00\x03" + bytes([len(n)]) + n + struct.pack("!H", int(dport)))
    r = s.recv(4)
    if len(r) < 2:
        return out(socks_reply="closed")
    out(socks_reply=r[1])
    if r[1] != 0:
        return
    # the rest of the reply: the bound address and port
    atyp = r[3] if len(r) > 3 else 1
    rest = {1: 6, 4: 18}.get(atyp) or s.recv(1)[0] + 2
    while rest > 0:
        b = s.recv(rest)
        if not b:
            break
        rest -= len(b)
    s.sendall(b"GET / HTTP/1.0\r\nHost: " + n + b"\r\n\r\n")
    status, _, body = http_parts(read_all(s))
    out(status=status, body=body.decode("latin-1").strip(), secret=int(b"metadata-secret" in body))


def cmd_rawreq(proxy, port, text):
    s = conn(proxy, port)
    s.sendall(text.encode().decode("unicode_escape").encode("latin-1"))
    data = read_all(s)
    status, xerr, body = http_parts(data)
    out(status=status, xerr=xerr, secret=int(b"metadata-secret" in data),
        body=body[:200].decode("latin-1").strip())


def cmd_connect_tls(proxy, port, auth, sni, cafile):
    s = conn(proxy, port)
    s.sendall(("CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (auth, auth)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        b = s.recv(1)
        if not b:
            break
        head += b
    status, xerr, _ = http_parts(head)
    out(ct_status=status, ct_xerr=xerr)
    if status != "200":
        return
    ctx = ssl.create_default_context(cafile=cafile)
    try:
        t = ctx.wrap_socket(s, server_hostname=sni)
        t.sendall(b"GET / HTTP/1.0\r\nHost: " + sni.encode() + b"\r\n\r\n")
        _, _, body = http_parts(read_all(t))
        out(tls="ok", body=body.decode("latin-1").strip())
    except (OSError, ssl.SSLError) as e:
        out(tls="fail:%s" % type(e).__name__)


def cmd_partial(host, port, n):
    sent = 0
    for _ in range(int(n)):
        try:
            s = conn(host, port)
            s.sendall(hello_bytes())
            s.close()
            sent += 1
        except OSError as e:
            out(partial_error=e)
    out(partial_sent=sent)


def cmd_stall(host, port, f):
    s = conn(host, port)
    s.sendall(hello_bytes())
    out(stalled=1)
    while not os.path.exists(f):
        time.sleep(0.05)
    s.close()


def cmd_nosni(host, port, cafile):
    ctx = ssl.create_default_context(cafile=cafile)
    ctx.check_hostname = False
    try:
        s = ctx.wrap_socket(conn(host, port))  # no server_hostname: no SNI
        s.sendall(b"GET / HTTP/1.0\r\nHost: " + host.encode() + b"\r\n\r\n")
        data = read_all(s)
        out(nosni="ok" if b"hello from" in data else "fail:no-body")
    except (OSError, ssl.SSLError) as e:
        out(nosni="fail:%s" % type(e).__name__)


def cmd_parallel(host, n, threads, tls=None, cafile=None):
    n, threads = int(n), int(threads)
    ctx = None
    if tls:
        ctx = ssl.create_default_context(cafile=cafile)
    lock = threading.Lock()
    res = {"ok": 0, "fail": 0, "err": "none"}
    left = list(range(n))

    def one():
        s = conn(host, 443 if ctx else 80, timeout=30)
        if ctx:
            s = ctx.wrap_socket(s, server_hostname=host)
        s.sendall(b"GET / HTTP/1.0\r\nHost: " + host.encode() + b"\r\n\r\n")
        data = read_all(s)
        s.close()
        return b"hello from" in data

    def worker():
        while True:
            with lock:
                if not left:
                    return
                left.pop()
            try:
                good = one()
                err = None
            except (OSError, ssl.SSLError) as e:
                good, err = False, "%s:%s" % (type(e).__name__, e)
            with lock:
                res["ok" if good else "fail"] += 1
                if err and res["err"] == "none":
                    res["err"] = err
    ts = [threading.Thread(target=worker) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out(parallel_ok=res["ok"], parallel_fail=res["fail"], first_error=res["err"])


def cmd_udp(addr, port, text):
    try:
        fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.sendto(text.encode(), (addr, int(port)))
        out(udp_sent=1)
    except OSError as e:
        out(udp_err=e.errno)


def cmd_sink(host, port):
    buf = bytearray(1 << 20)
    mv = memoryview(buf)
    t0 = time.monotonic()
    s = conn(host, port, timeout=60)
    n = 0
    while True:
        k = s.recv_into(mv)
        if not k:
            break
        n += k
    out(bytes=n, seconds="%.6f" % (time.monotonic() - t0))


def cmd_connloop(host, port, n):
    n = int(n)
    addr = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)[0]
    ok = 0
    t0 = time.monotonic()
    for _ in range(n):
        s = socket.socket(addr[0], socket.SOCK_STREAM)
        s.settimeout(10)
        try:
            s.connect(addr[4])
            s.sendall(b"x")
            if s.recv(1) == b"x":
                ok += 1
        except OSError:
            pass
        s.close()
    out(n=n, ok=ok, seconds="%.6f" % (time.monotonic() - t0))


def dns_query(name, qid):
    q = struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack("!HH", 1, 1)


def cmd_dnsloop(server, name, n):
    n = int(n)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2)
    s.connect((server, 53))
    ok = 0
    t0 = time.monotonic()
    for i in range(n):
        s.send(dns_query(name, i & 0xffff))
        try:
            r = s.recv(4096)
            if len(r) > 12 and struct.unpack("!H", r[:2])[0] == i & 0xffff and r[3] & 0xf == 0 \
                    and struct.unpack("!H", r[6:8])[0] > 0:
                ok += 1
        except OSError:
            pass
    out(n=n, ok=ok, seconds="%.6f" % (time.monotonic() - t0))


def cmd_hold(host, port, n, f):
    held = []
    for _ in range(int(n)):
        try:
            held.append(conn(host, port))
        except OSError:
            break
    out(held=len(held))
    while not os.path.exists(f):
        time.sleep(0.05)


CMDS = {
    "socks5": cmd_socks5, "connect-tls": cmd_connect_tls, "rawreq": cmd_rawreq, "partial-hello": cmd_partial,
    "stall-hello": cmd_stall, "no-sni": cmd_nosni, "parallel": cmd_parallel,
    "udp": cmd_udp, "sink": cmd_sink, "connloop": cmd_connloop, "dnsloop": cmd_dnsloop,
    "hold": cmd_hold,
}

if __name__ == "__main__":
    try:
        CMDS[sys.argv[1]](*sys.argv[2:])
    except (OSError, ssl.SSLError, ValueError, IndexError, KeyError) as e:
        out(error="%s:%s" % (type(e).__name__, e))
