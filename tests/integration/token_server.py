#!/usr/bin/env python3
"""A bearer-token service for the reference registry's `auth: token` mode, for the tests.

    token_server.py --key KEY.pem --cert CERT.pem --issuer ISSUER --service SERVICE
                    --user USER:PASSWORD --log LOG --port-file FILE [--settings FILE]

Listens on 127.0.0.1 at a free port, written to --port-file once it accepts connections.
GET /token?service=..&scope=..[&scope=..] answers {"token", "access_token", "expires_in",
"issued_at"}: a JWT signed RS256 by `openssl dgst` (the standard library has no RSA) with
the certificate in its `x5c` header, so the registry checks it against its rootcertbundle.
With the right Basic credentials it grants exactly the actions each scope asks for; with
none it grants only `pull`; with wrong ones it answers 401. Every request is logged to
--log as one JSON line: {"scopes": [...], "credentials": "none"|"right"|"wrong"}.

--settings names a JSON file read on every request, so a test can change them while the
server runs: {"expires_in": SECONDS (default 300), "stale_through": N}, where tokens
number 1 to N since the start carry an `exp` long past, as tokens the registry has already
expired would.
"""
import argparse
import base64
import http.server
import json
import os
import subprocess
import threading
import time
import urllib.parse
import uuid


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class TokenService:
    def __init__(self, args):
        self.args = args
        der = subprocess.run(["openssl", "x509", "-in", args.cert, "-outform", "DER"],
                             check=True, capture_output=True).stdout
        self.x5c = base64.b64encode(der).decode()
        self.issued = 0
        self.lock = threading.Lock()

    def settings(self):
        if self.args.settings and os.path.exists(self.args.settings):
            with open(self.args.settings) as f:
                return json.load(f)
        return {}

    def sign(self, claims):
        header = {"alg": "RS256", "typ": "JWT", "x5c": [self.x5c]}
        signing_input = (b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())).encode()
        signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", self.args.key], input=signing_input,
                                   check=True, capture_output=True).stdout
        return signing_input.decode() + "." + b64url(signature)

    def credentials(self, header):
        if not header:
            return "none"
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "basic":
            return "wrong"
        try:
            given = base64.b64decode(value).decode()
        except ValueError:
            return "wrong"
        return "right" if given == self.args.user else "wrong"

    def token(self, scopes, credentials):
        access = []
        for scope in scopes:
            kind, name, actions = scope.split(":")[0], ":".join(scope.split(":")[1:-1]), scope.split(":")[-1]
            wanted = actions.split(",")
            granted = wanted if credentials == "right" else [a for a in wanted if a == "pull"]
            access.append({"type": kind, "name": name, "actions": granted})
        settings = self.settings()
        expires_in = int(settings.get("expires_in", 300))
        now = int(time.time())
        with self.lock:
            self.issued += 1
            number = self.issued
        # The registry allows a minute of clock skew, so a stale token ends well before it.
        exp = now - 600 if number <= int(settings.get("stale_through", 0)) else now + expires_in
        claims = {"iss": self.args.issuer, "sub": self.args.user.split(":")[0] if credentials == "right" else "",
                  "aud": self.args.service, "exp": exp, "nbf": now - 10, "iat": now, "jti": uuid.uuid4().hex,
                  "access": access}
        return {"token": self.sign(claims), "access_token": self.sign(claims), "expires_in": expires_in,
                "issued_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))}


def handler_for(service):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            if url.path != "/token" or query.get("service") != [service.args.service]:
                self.answer(400, {"errors": [{"code": "BAD_REQUEST", "message": "unknown service"}]})
                return
            scopes = query.get("scope", [])
            credentials = service.credentials(self.headers.get("Authorization"))
            with open(service.args.log, "a") as log:
                log.write(json.dumps({"scopes": scopes, "credentials": credentials}) + "\n")
            if credentials == "wrong":
                self.answer(401, {"errors": [{"code": "UNAUTHORIZED", "message": "wrong user name or password"}]})
                return
            self.answer(200, service.token(scopes, credentials))

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser()
    for option in ("--key", "--cert", "--issuer", "--service", "--user", "--log", "--port-file"):
        parser.add_argument(option, required=True)
    parser.add_argument("--settings")
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_for(TokenService(args)))
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
