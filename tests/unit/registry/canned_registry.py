#!/usr/bin/env python3
"""Answers HTTP requests on 127.0.0.1 with canned responses, as a registry that lies would.

    canned_registry.py ANSWERS PORTFILE LOG

ANSWERS is a JSON object read on every request: {"GET /v2/": {"status": 200}, "GET
/v2/team/app/manifests/v1": {"status": 200, "headers": {"Docker-Content-Digest": "..."},
"body": "..."}}, keyed by method and path (without the query). Anything else answers 404.
Each request appends "METHOD PATH" to LOG. Binds a free port and writes it to PORTFILE
once listening.
"""
import http.server
import json
import os
import sys


def handler_for(answers_file, log):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            with open(log, "a") as f:
                f.write(self.command + " " + self.path + "\n")
            with open(answers_file) as f:
                answers = json.load(f)
            canned = answers.get(self.command + " " + self.path.split("?")[0], {"status": 404})
            body = canned.get("body", "").encode()
            self.send_response(canned["status"])
            for name, value in canned.get("headers", {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_HEAD = do_PUT = do_POST = do_PATCH = answer

        def log_message(self, *args):
            pass

    return Handler


def main(answers_file, portfile, log):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_for(answers_file, log))
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    server.serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:])
