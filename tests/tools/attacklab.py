#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# tests/tools/attacklab.py — the servers and jail-side clients of t_egress_attack
# (the attacks on the egress broker), in the lab of tests/netlab.sh.
#
# Servers (in the lab's "internet"):
#   dns LOG ADDR UPSTREAM      a DNS server on ADDR:53 that answers the attack names
#                              itself (rebinding, CNAME to inside, exotic AAAA) and
#                              relays every other question to UPSTREAM (the lab's
#                              dnsmasq); logs "query TYPE NAME" per question
#   kahttp LOG ADDR PORT       an HTTP/1.1 keep-alive server with virtual hosts: logs
#                              "req host=HOST path=PATH" per request it serves and
#                              answers "ka host=HOST path=PATH"
# Clients (in the jail; key=value lines):
#   pipeline HOST PORT TEXT    sends TEXT (\r\n escapes) at once, reads to EOF:
#                              answers=N (status lines), hosts=what the server said
#   sequential HOST PORT T1 T2 sends T1, reads one answer, then T2 on the same
#                              connection: first=, second=
#   holdn HOST PORT N FILE     opens N connections (each sends 1 byte), says held=N,
#                              keeps them until FILE exists
#   dnsflood N                 N UDP questions (random names) at 127.0.0.1:53 without
#                              waiting, then one real one: flood_ok=0|1
#   longname                   questions with a 63-byte label x4, and a 300-byte name
import os
import socket
import struct
import sys
import threading
import time

QTYPES = {1: "A", 28: "AAAA", 5: "CNAME", 16: "TXT"}


def out(**kw):
    for k, v in kw.items():
        print("%s=%s" % (k, str(v).replace("\n", "\\n")))
    sys.stdout.flush()


def log(path, line):
    with open(path, "a") as f:
        f.write(line + "\n")


# ------------------------------------------------------------------ DNS server

REBIND = ["192.0.2.10", "127.0.0.1", "169.254.169.254", "10.0.0.5", "0.0.0.0", "198.51.100.2"]
FIXED_A = {
    "multi.example.com": ["192.0.2.10", "127.0.0.1", "169.254.169.254"],
    "cname-target.example.com": ["169.254.169.254"],
    "self.example.com": ["198.51.100.2"],
}
FIXED_AAAA = {
    "m6.example.com": "::ffff:169.254.169.254",
    "n64.example.com": "64:ff9b::a9fe:a9fe",
    "s6.example.com": "2002:a9fe:a9fe::1",
    "l6.example.com": "::ffff:127.0.0.1",
    "c6.example.com": "::127.0.0.1",
    "t6.example.com": "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "u6.example.com": "fd00:ec2::254",
    "lo6.example.com": "::1",
    "ll6.example.com": "fe80::1",
    "self6.example.com": "2001:db8:ffff::2",
}


def qname(msg, off):
    labels = []
    while msg[off]:
        n = msg[off]
        labels.append(msg[off + 1:off + 1 + n].decode("latin-1"))
        off += 1 + n
    return ".".join(labels).lower(), off + 1


def rr(name_ptr, rtype, rdata, ttl=0):
    return struct.pack("!HHHIH", name_ptr, rtype, 1, ttl, len(rdata)) + rdata


def dns_server(logf, addr, upstream):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, 53))
    n_rebind = [0]
    while True:
        q, src = s.recvfrom(4096)
        try:
            name, end = qname(q, 12)
            qt = struct.unpack("!H", q[end:end + 2])[0]
        except (IndexError, struct.error):
            continue
        log(logf, "query %s %s from %s" % (QTYPES.get(qt, qt), name, src[0]))
        ours = name.startswith("rebind") or name in FIXED_A or name in FIXED_AAAA or name == "cname.example.com"
        if not ours:
            u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            u.settimeout(2)
            try:
                u.sendto(q, (upstream, 53))
                s.sendto(u.recv(4096), src)
            except OSError:
                pass
            u.close()
            continue
        question = q[12:end + 4]
        answers = []
        if name == "cname.example.com":
            target = b"".join(bytes([len(x)]) + x.encode() for x in "cname-target.example.com".split(".")) + b"\0"
            answers.append(rr(0xC00C, 5, target))
            if qt == 1:
                answers.append(struct.pack("!H", 0xC000 | (12 + len(question) + 12)) + struct.pack("!HHIH", 1, 1, 0, 4) +
                               socket.inet_aton("169.254.169.254"))
        elif qt == 1 and name.startswith("rebind"):
            a = REBIND[n_rebind[0] % len(REBIND)]
            n_rebind[0] += 1
            answers.append(rr(0xC00C, 1, socket.inet_aton(a)))
        elif qt == 1 and name in FIXED_A:
            for a in FIXED_A[name]:
                answers.append(rr(0xC00C, 1, socket.inet_aton(a)))
        elif qt == 28 and name in FIXED_AAAA:
            answers.append(rr(0xC00C, 28, socket.inet_pton(socket.AF_INET6, FIXED_AAAA[name])))
        hdr = struct.pack("!HHHHHH", struct.unpack("!H", q[:2])[0], 0x8580, 1, len(answers), 0, 0)
        s.sendto(hdr + question + b"".join(answers), src)


# ------------------------------------------------------------------ keep-alive vhosts

def kahttp(logf, addr, port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, int(port)))
    ls.listen(128)

    def serve(c, peer):
        log(logf, "conn peer=%s" % peer[0])
        buf = b""
        c.settimeout(15)
        try:
            while True:
                while b"\r\n\r\n" not in buf:
                    d = c.recv(65536)
                    if not d:
                        return
                    buf += d
                head, _, buf = buf.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                path = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "?"
                hdrs = {}
                for line in lines[1:]:
                    k, _, v = line.partition(":")
                    hdrs.setdefault(k.strip().lower(), v.strip())
                host = hdrs.get("host", "-")
                close = hdrs.get("connection", "").lower() == "close" or lines[0].endswith("HTTP/1.0")
                log(logf, "req host=%s path=%s conn=%s" % (host, path, hdrs.get("connection", "-")))
                body = ("ka host=%s path=%s\n" % (host, path)).encode()
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n" %
                          (len(body), b"Connection: close\r\n" if close else b"") + body)
                if close:
                    return
        except OSError:
            pass
        finally:
            c.close()

    while True:
        c, peer = ls.accept()
        threading.Thread(target=serve, args=(c, peer), daemon=True).start()


# ------------------------------------------------------------------ clients

def unesc(t):
    return t.encode().decode("unicode_escape").encode("latin-1")


def read_to_eof(s, limit=1 << 20):
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


def cmd_pipeline(host, port, text):
    s = socket.create_connection((host, int(port)), timeout=8)
    s.sendall(unesc(text))
    data = read_to_eof(s)
    out(answers=data.count(b"HTTP/1.1 "), hosts="|".join(x.decode("latin-1").split("\n")[0]
                                                          for x in data.split(b"ka host=")[1:]) or "-")


def read_one(s):
    data = b""
    while b"\r\n\r\n" not in data:
        d = s.recv(65536)
        if not d:
            return data
        data += d
    head, _, body = data.partition(b"\r\n\r\n")
    n = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            n = int(line.split(b":")[1])
    while len(body) < n:
        d = s.recv(65536)
        if not d:
            break
        body += d
    return head + b"\r\n\r\n" + body


def summary(r):
    if not r:
        return "eof"
    head, _, body = r.partition(b"\r\n\r\n")
    return (head.split(b"\r\n")[0].decode("latin-1") + " " + body.decode("latin-1").strip()).replace(" ", "_")


def cmd_sequential(host, port, t1, t2, pre=""):
    s = socket.create_connection((host, int(port)), timeout=8)
    if pre:
        s.sendall(unesc(pre))
        read_one(s)
    s.sendall(unesc(t1))
    out(first=summary(read_one(s)))
    try:
        s.sendall(unesc(t2))
        out(second=summary(read_one(s)))
    except OSError as e:
        out(second="error:%s" % e.errno)


def cmd_holdn(host, port, n, f):
    held = []
    for _ in range(int(n)):
        try:
            s = socket.create_connection((host, int(port)), timeout=5)
            s.send(b"\x16")
            held.append(s)
        except OSError as e:
            out(hold_error=e.errno)
            break
    out(held=len(held))
    while not os.path.exists(f):
        time.sleep(0.05)


def dns_q(name, qid, qtype=1):
    q = struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode("latin-1")
    return q + b"\0" + struct.pack("!HH", qtype, 1)


def cmd_dnsflood(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setblocking(False)
    sent = 0
    for i in range(int(n)):
        try:
            s.sendto(dns_q("f%d.flood.example.net" % i, i & 0xffff), ("127.0.0.1", 53))
            sent += 1
        except BlockingIOError:
            time.sleep(0.001)
    s.setblocking(True)
    s.settimeout(3)
    ok = 0
    t = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    t.settimeout(3)
    for _ in range(3):
        try:
            t.sendto(dns_q("example.com", 4242), ("127.0.0.1", 53))
            while True:
                r = t.recv(4096)
                if struct.unpack("!H", r[:2])[0] == 4242:
                    ok = 1 if struct.unpack("!H", r[6:8])[0] > 0 else 0
                    break
            break
        except OSError:
            pass
    out(flood_sent=sent, flood_ok=ok)


def cmd_pool(n):
    """n distinct allowed names (under a wildcard), then example.com: pool_ok, last_ok"""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(3)
    ok = 0
    for i in range(int(n)):
        try:
            s.sendto(dns_q("p%d.example.org" % i, i & 0xffff), ("127.0.0.1", 53))
            r = s.recv(4096)
            if struct.unpack("!H", r[6:8])[0] > 0:
                ok += 1
        except OSError:
            pass
    res = []
    for i, name in enumerate(("www.example.org", "brand-new.example.org")):
        s.sendto(dns_q(name, 7 + i), ("127.0.0.1", 53))
        try:
            r = s.recv(4096)
            res.append((struct.unpack("!H", r[6:8])[0] > 0, r[3] & 0xf))
        except OSError:
            res.append((False, -1))
    out(pool_ok=ok, pool_known=int(res[0][0]), pool_new_rcode=res[1][1])


def ask(raw, qid):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2)
    s.sendto(raw, ("127.0.0.1", 53))
    try:
        while True:
            r = s.recv(4096)
            if struct.unpack("!H", r[:2])[0] == qid:
                return r
    except OSError:
        return None


def cmd_longname():
    """malformed questions, then a real one: long_rcode, label_rcode, loop_rcode, after_ok"""
    l63 = "a" * 63
    r = ask(dns_q(".".join([l63] * 4) + ".example.org", 11), 11)
    out(long_rcode=(r[3] & 0xf) if r else "none")
    q = struct.pack("!HHHHHH", 12, 0x0100, 1, 0, 0, 0) + bytes([64]) + b"b" * 64 + b"\x07example\x03org\x00" + \
        struct.pack("!HH", 1, 1)
    r = ask(q, 12)
    out(label_rcode=(r[3] & 0xf) if r else "none")
    q = struct.pack("!HHHHHH", 13, 0x0100, 1, 0, 0, 0) + b"\x01a\xc0\x0c" + struct.pack("!HH", 1, 1)
    r = ask(q, 13)
    out(loop_rcode=(r[3] & 0xf) if r else "none")
    r = ask(dns_q("example.com", 14), 14)
    out(after_ok=int(bool(r) and struct.unpack("!H", r[6:8])[0] > 0))


def hello(sni, extra=b""):
    """a ClientHello handshake message naming @sni, with @extra extensions"""
    name = sni.encode()
    sni_ext = struct.pack("!HHHBH", 0, len(name) + 5, len(name) + 3, 0, len(name)) + name
    exts = sni_ext + extra
    body = b"\x03\x03" + os.urandom(32) + b"\x00" + b"\x00\x02\x13\x01" + b"\x01\x00" + \
        struct.pack("!H", len(exts)) + exts
    return b"\x01" + struct.pack("!I", len(body))[1:] + body


def records(hs, size):
    return b"".join(b"\x16\x03\x01" + struct.pack("!H", len(hs[i:i + size])) + hs[i:i + size]
                    for i in range(0, len(hs), size))


def cmd_hello(host, port, kind):
    """sends a crafted ClientHello for HOST: big (over 16 KiB, padding), ech, split
    (one record per 7 bytes), slow (1-byte writes over 12 s); hello=closed|reset|open"""
    if kind == "big":
        data = records(hello(host, struct.pack("!HH", 21, 17000) + b"\0" * 17000), 16384)
    elif kind == "ech":
        data = records(hello(host, struct.pack("!HH", 0xfe0d, 8) + b"\0" * 8), 16384)
    elif kind == "split":
        data = records(hello(host), 7)
    else:
        data = records(hello(host), 16384)
    s = socket.create_connection((host, int(port)), timeout=15)
    try:
        if kind == "slow":
            for i in range(len(data)):
                s.send(data[i:i + 1])
                time.sleep(12.0 / len(data))
        else:
            s.sendall(data)
        s.settimeout(3)
        r = s.recv(100)
        out(hello="closed" if not r else "answer")
    except ConnectionResetError:
        out(hello="reset")
    except socket.timeout:
        out(hello="open")
    except OSError as e:
        out(hello="error:%s" % e.errno)


def cmd_socks_cmd(cmd, name, port):
    """SOCKS5 with command CMD (2 BIND, 3 UDP ASSOCIATE) to NAME:PORT: reply=N"""
    s = socket.create_connection(("127.0.0.1", 3128), timeout=10)
    s.sendall(b"\x05\x01\x00")
    s.recv(2)
    n = name.encode()
    s.sendall(bytes([5, int(cmd), 0, 3, len(n)]) + n + struct.pack("!H", int(port)))
    r = s.recv(10)
    out(reply=r[1] if len(r) > 1 else "none")


CMDS = {"hello": cmd_hello, "socks_cmd": cmd_socks_cmd, "pipeline": cmd_pipeline, "sequential": cmd_sequential, "holdn": cmd_holdn, "dnsflood": cmd_dnsflood,
        "pool": cmd_pool, "longname": cmd_longname}

if __name__ == "__main__":
    if sys.argv[1] == "dns":
        dns_server(*sys.argv[2:])
    elif sys.argv[1] == "kahttp":
        kahttp(*sys.argv[2:])
    else:
        try:
            CMDS[sys.argv[1]](*sys.argv[2:])
        except (OSError, ValueError, IndexError, KeyError) as e:
            out(error="%s:%s" % (type(e).__name__, e))
