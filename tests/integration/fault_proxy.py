#!/usr/bin/env python3
"""An HTTP proxy in front of a registry that breaks chosen requests, for the fault tests.

    fault_proxy.py --upstream PORT --faults FILE --log FILE --port-file FILE

Listens on 127.0.0.1 at a free port, written to --port-file once it accepts connections,
and forwards every request to 127.0.0.1:PORT with its Host header, so the registry's
Location headers keep pointing here. --faults names a JSON list read on every request,
so a test can change it while the proxy runs; each entry breaks the first `times`
(default 1) requests whose method is `method` and whose path (query included) matches the
regular expression `path`, counted since the file last changed:

    {"method": "GET", "path": "/blobs/", "fault": "status", "status": 503, "retry_after": 1}
        answer this status (with Retry-After when given) without asking the registry
    {"fault": "drop"}       a request with a body: read half of it and close the
                            connection; one without: send the headers and half the body
                            of the registry's answer, then close
    {"fault": "truncate"}   forward half the request body, or answer half the registry's
                            body, with a Content-Length that matches
    {"fault": "flip"}       flip the lowest bit of one byte of the request body forwarded,
                            or of the answer's body: the first byte of `at` where the body
                            holds it, else the middle one

Every request is logged to --log as one JSON line: {"method", "path", "fault", "status"}.
"""
import argparse
import hashlib
import http.client
import http.server
import json
import os
import re
import socket
import threading

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "proxy-connection"}


class Faults:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.version = None
        self.used = []

    def take(self, method, path):
        """The fault entry that breaks this request, or None; counts it as used."""
        text = open(self.path, "rb").read() if os.path.exists(self.path) else b"[]"
        with self.lock:
            version = hashlib.sha256(text).hexdigest()
            rules = json.loads(text)
            if version != self.version:
                self.version, self.used = version, [0] * len(rules)
            for i, rule in enumerate(rules):
                if rule.get("method", method) != method or not re.search(rule.get("path", ""), path):
                    continue
                if self.used[i] < rule.get("times", 1):
                    self.used[i] += 1
                    return rule
        return None


def flipped(body, at):
    where = body.find(at.encode()) if at else -1
    where = where if where >= 0 else len(body) // 2
    return body[:where] + bytes([body[where] ^ 1]) + body[where + 1:]


def handler_for(args, faults):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def forward(self):
            rule = faults.take(self.command, self.path)
            fault = rule["fault"] if rule else None
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if fault != "drop" or not length else self.rfile.read(length // 2)
            if fault == "drop" and length:
                return self.log_and(fault, 0, self.close_now)
            if fault == "status":
                headers = {"Retry-After": str(rule["retry_after"])} if "retry_after" in rule else {}
                error = json.dumps({"errors": [{"code": "UNAVAILABLE", "message": "injected by the test"}]})
                return self.log_and(fault, rule["status"], lambda: self.answer(rule["status"], headers, error.encode()))
            if body and fault == "truncate":
                body = body[:len(body) // 2]
            elif body and fault == "flip":
                body = flipped(body, rule.get("at"))
            status, headers, answer = self.ask_upstream(body)
            if not length and answer and fault == "drop":
                return self.log_and(fault, status, lambda: self.answer_part(status, headers, answer))
            if not length and answer and fault == "truncate":
                answer = answer[:len(answer) // 2]
            elif not length and answer and fault == "flip":
                answer = flipped(answer, rule.get("at"))
            self.log_and(fault, status, lambda: self.answer(status, headers, answer))

        do_GET = do_HEAD = do_PUT = do_POST = do_PATCH = do_DELETE = forward

        def ask_upstream(self, body):
            upstream = http.client.HTTPConnection("127.0.0.1", args.upstream, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            headers["Content-Length"] = str(len(body))
            upstream.request(self.command, self.path, body=body, headers=headers)
            response = upstream.getresponse()
            answer = response.read()
            headers = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
            if self.command == "HEAD":
                headers.append(("Content-Length", response.getheader("Content-Length", "0")))
            upstream.close()
            return response.status, headers, answer

        def answer(self, status, headers, body):
            self.send_response(status)
            for name, value in headers.items() if isinstance(headers, dict) else headers:
                self.send_header(name, value)
            if self.command != "HEAD":
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.end_headers()

        def answer_part(self, status, headers, body):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2])
            self.wfile.flush()
            self.close_now()

        def close_now(self):
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

        def log_and(self, fault, status, then):
            with open(args.log, "a") as log:
                log.write(json.dumps({"method": self.command, "path": self.path, "fault": fault,
                                      "status": status}) + "\n")
            try:
                then()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True

        def log_message(self, *args):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser()
    for option in ("--faults", "--log", "--port-file"):
        parser.add_argument(option, required=True)
    parser.add_argument("--upstream", type=int, required=True)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_for(args, Faults(args.faults)))
    server.daemon_threads = True
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
