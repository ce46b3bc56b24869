"""A stand-in for Facebook's Graph API (device/login, device/login_status, debug_token, me) and an
RFC 8628 provider (/oauth/device/code, /oauth/token, /oauth/user), for the end-to-end suite.

Usage: provider_standin.py <port-file>  -- listens on a free loopback port and writes it to the file.
The device flows answer "pending" until the test says how they end: POST /control/approve,
/control/deny or /control/expire (each applies to the next poll, then pending again).
"""
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

APP_ID, APP_SECRET = "e2e-app", "e2e-secret"
PERSON = {"id": "777000111", "first_name": "Frances", "last_name": "Facebook"}
LOCK = threading.Lock()
STATE = {"outcome": None, "tokens": {}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def fields(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        query = parse_qs(urlsplit(self.path).query)
        query.update(parse_qs(body))
        return {key: values[0] for key, values in query.items()}

    def graph_error(self, code, subcode, message):
        error = {"message": message, "type": "OAuthException", "code": code}
        if subcode:
            error["error_subcode"] = subcode
        self.reply(400, {"error": error})

    def do_POST(self):
        path, fields = urlsplit(self.path).path, self.fields()
        if path.startswith("/control/"):
            with LOCK:
                STATE["outcome"] = path.rsplit("/", 1)[1]
            return self.reply(200, {"ok": True})
        if path in ("/graph/device/login", "/oauth/device/code"):
            code_key = "code" if path.startswith("/graph") else "device_code"
            return self.reply(200, {code_key: "dev-" + uuid.uuid4().hex[:8], "user_code": "FBE2-E2E7",
                                    "verification_uri": "https://www.facebook.com/device", "expires_in": 600, "interval": 1})
        if path in ("/graph/device/login_status", "/oauth/token"):
            graph = path.startswith("/graph")
            with LOCK:
                outcome, STATE["outcome"] = STATE["outcome"], None
            if outcome == "approve":
                token = "tok-" + uuid.uuid4().hex
                with LOCK:
                    STATE["tokens"][token] = time.time() + 3600
                return self.reply(200, {"access_token": token, "expires_in": 3600})
            if outcome == "deny":
                return self.graph_error(200, None, "The user denied the request.") if graph else self.reply(400, {"error": "access_denied"})
            if outcome == "expire":
                return self.graph_error(31, 1349152, "Expired") if graph else self.reply(400, {"error": "expired_token"})
            return self.graph_error(31, 1349174, "Pending") if graph else self.reply(400, {"error": "authorization_pending"})
        self.reply(404, {"error": "not found"})

    def do_GET(self):
        path, fields = urlsplit(self.path).path, self.fields()
        with LOCK:
            expires = STATE["tokens"].get(fields.get("input_token") or fields.get("access_token") or "")
        if path == "/graph/debug_token":
            if fields.get("access_token") != f"{APP_ID}|{APP_SECRET}":
                return self.graph_error(190, None, "Invalid app token")
            if expires is None:
                return self.graph_error(190, None, "Invalid OAuth access token.")
            return self.reply(200, {"data": {"app_id": APP_ID, "user_id": PERSON["id"], "is_valid": expires > time.time(),
                                             "expires_at": int(expires)}})
        if path == "/graph/me" and expires:
            return self.reply(200, PERSON)
        self.graph_error(190, 463, "Error validating access token.")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1], "w") as handle:
        handle.write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    main()
