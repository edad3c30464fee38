#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# tests/tools/labserver.py — the servers of the test "internet" (tests/netlab.sh).
#
#   labserver.py LOGDIR READYFILE SPEC...
#
# SPEC is KIND:NAME:ADDR:PORT[:ARG] (ADDR may be an IPv6 address in brackets):
#   http   HTTP/1.0 server; logs each request's Host; answers "hello from NAME"
#   https  the same over TLS (ARG: directory holding cert.pem and key.pem); logs
#          the server name (SNI) the client sent, "-" for none
#   echo   raw TCP echo
#   source sends the file ARG on each connection (sendfile) and closes: the bench
#   udp    logs each datagram
# Every server logs one line per accepted connection ("conn ...") before it reads a
# byte, so a test can assert that a server saw no connection at all, not only no
# request.  Logs: LOGDIR/NAME.log, one line per event, flushed at once.
# HTTP paths (every http/https server, NAME "meta" answers "metadata-secret"):
#   /                      "hello from NAME"
#   /redirect?to=URL       302 to URL
#   /git/...               static files under LOGDIR/../www/git (a dumb-http repo)
#   /bytes?n=N             N bytes of "x"
# Once every listener is listening, READYFILE is created (the caller polls for it:
# the kernel queues connections from listen() on, so no connection is needed to
# know a server is up, and none pollutes the logs).
import http.server
import os
import socket
import ssl
import sys
import threading
import urllib.parse

LOGDIR = sys.argv[1]
READY = sys.argv[2]
WWW = os.path.join(os.path.dirname(os.path.abspath(LOGDIR)), "www")
_locks = {}


def log(name, line):
    lock = _locks.setdefault(name, threading.Lock())
    with lock:
        with open(os.path.join(LOGDIR, name + ".log"), "a") as f:
            f.write(line + "\n")


def addr_of(text):
    if text.startswith("["):
        return socket.AF_INET6, text[1:-1]
    return socket.AF_INET, text


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    lab_name = "?"
    lab_proto = "http"

    def log_message(self, fmt, *args):
        pass

    def reply(self, code, body, headers=()):
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        host = self.headers.get("Host", "-")
        log(self.lab_name, "req proto=%s host=%s method=%s path=%s" %
            (self.lab_proto, host, self.command, self.path))
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query)
        if self.lab_name == "meta":
            return self.reply(200, b"metadata-secret\n")
        if url.path == "/redirect" and "to" in q:
            return self.reply(302, b"moved\n", [("Location", q["to"][0])])
        if url.path == "/bytes" and "n" in q:
            return self.reply(200, b"x" * min(int(q["n"][0]), 1 << 24))
        if url.path.startswith("/git/"):
            rel = os.path.normpath(url.path[len("/git/"):])
            if rel.startswith(".") or rel.startswith("/"):
                return self.reply(404, b"no\n")
            try:
                with open(os.path.join(WWW, "git", rel), "rb") as f:
                    return self.reply(200, f.read())
            except OSError:
                return self.reply(404, b"not found\n")
        return self.reply(200, ("hello from %s\n" % self.lab_name).encode())

    do_HEAD = do_GET

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(n)
        self.do_GET()


class Fake:
    server_address = ("lab", 0)


def serve_http(kind, name, conn, peer, arg):
    tls = None
    if kind == "https":
        seen = []
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(os.path.join(arg, "cert.pem"), os.path.join(arg, "key.pem"))
        ctx.sni_callback = lambda s, n, c: seen.append(n)
        try:
            conn.settimeout(15)
            tls = ctx.wrap_socket(conn, server_side=True)
        except (OSError, ssl.SSLError) as e:
            log(name, "tls-fail sni=%s err=%s" % (seen[0] if seen else "-", type(e).__name__))
            conn.close()
            return
        log(name, "sni name=%s" % (seen[0] if seen and seen[0] else "-"))
        conn = tls
    h = type("H", (Handler,), {"lab_name": name, "lab_proto": kind})
    try:
        conn.settimeout(30)
        h(conn, peer, Fake())
    except (OSError, ssl.SSLError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def serve_echo(name, conn):
    n = 0
    try:
        conn.settimeout(60)
        while True:
            b = conn.recv(65536)
            if not b:
                break
            n += len(b)
            conn.sendall(b)
    except OSError:
        pass
    log(name, "echo-done bytes=%d" % n)
    conn.close()


def serve_source(name, conn, path):
    try:
        with open(path, "rb") as f:
            conn.sendfile(f)
        conn.shutdown(socket.SHUT_WR)
    except OSError as e:
        log(name, "source-fail err=%s" % e)
    conn.close()


def tcp_listener(kind, name, fam, host, port, arg):
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s.bind((host, port))
    s.listen(4096)

    def loop():
        while True:
            conn, peer = s.accept()
            local = conn.getsockname()
            log(name, "conn proto=%s peer=%s local=%s:%d" % (kind, peer[0], local[0], local[1]))
            if kind in ("http", "https"):
                t = threading.Thread(target=serve_http, args=(kind, name, conn, peer, arg))
            elif kind == "echo":
                t = threading.Thread(target=serve_echo, args=(name, conn))
            else:
                t = threading.Thread(target=serve_source, args=(name, conn, arg))
            t.daemon = True
            t.start()
    return loop


def udp_listener(name, fam, host, port):
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind((host, port))

    def loop():
        while True:
            data, peer = s.recvfrom(65536)
            log(name, "dgram peer=%s len=%d data=%s" % (peer[0], len(data), data[:64].decode("ascii", "replace").strip()))
    return loop


def main():
    loops = []
    for spec in sys.argv[3:]:
        kind, name, rest = spec.split(":", 2)
        if rest.startswith("["):
            end = rest.index("]")
            host, rest = rest[:end + 1], rest[end + 2:]
        else:
            host, rest = rest.split(":", 1)
        port, _, arg = rest.partition(":")
        fam, h = addr_of(host)
        open(os.path.join(LOGDIR, name + ".log"), "a").close()
        if kind == "udp":
            loops.append(udp_listener(name, fam, h, int(port)))
        else:
            loops.append(tcp_listener(kind, name, fam, h, int(port), arg))
    for fn in loops:
        t = threading.Thread(target=fn)
        t.daemon = True
        t.start()
    with open(READY + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.rename(READY + ".tmp", READY)
    threading.Event().wait()


if __name__ == "__main__":
    main()
