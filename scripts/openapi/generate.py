#!/usr/bin/env python3
"""Writes Docs/openapi.json (OpenAPI 3.1 of every onthemap-server endpoint) and the Swift file
that embeds it in the server (served at /openapi.json).

Usage: python3 scripts/openapi/generate.py [--check]
  --check: exit 1 when either file differs from what this script writes (for CI).
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "Docs" / "openapi.json"
SWIFT = ROOT / "Sources" / "ServerHTTP" / "OpenAPI" / "OpenAPIDocument.swift"

PREFIX_NOTE = (
    "The body starts with the five bytes `)]}'` and a newline (anti-XSSI, as Udacity's API did); "
    "the JSON described here follows them."
)


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema):
    return {"application/json": {"schema": schema}}


def response(description, schema=None, headers=None):
    answer = {"description": description}
    if schema is not None:
        answer["content"] = json_content(schema)
    if headers:
        answer["headers"] = headers
    return answer


def udacity(description, schema=None, headers=None):
    return response(f"{description} {PREFIX_NOTE}", schema or ref("UdacityError"), headers)


def parse_error(description):
    return response(description, ref("ParseError"))


STRING_FIELD = {"type": "string"}
TEXT_FIELDS = ["uniqueKey", "firstName", "lastName", "mapString", "mediaURL"]
FIELD_NAMES = ["objectId", *TEXT_FIELDS, "latitude", "longitude", "createdAt", "updatedAt"]

SCHEMAS = {
    "StudentLocation": {
        "type": "object",
        "description": "A row; a field that is not set is left out. `keys` narrows the fields "
        "(objectId, createdAt and updatedAt are always sent).",
        "required": ["objectId", "createdAt", "updatedAt"],
        "additionalProperties": False,
        "properties": {
            "objectId": {"type": "string", "minLength": 1},
            **{name: STRING_FIELD for name in TEXT_FIELDS},
            "latitude": {"type": "number", "description": "−90…90 on every row the API created; a row from an "
                         "old dump may hold any number (clients skip it)."},
            "longitude": {"type": "number", "description": "−180…180 on every row the API created; see latitude."},
            "createdAt": {"type": "string", "format": "date-time"},
            "updatedAt": {"type": "string", "format": "date-time"},
            "hidden": {"const": True, "description": "Only on a hidden row, shown to its owner or a moderator (Docs/Access.md)."},
            "hiddenReason": {"type": "string", "description": "Why a moderator (or a suspension) hid it; with `hidden`."},
        },
    },
    "StudentLocationList": {
        "type": "object",
        "required": ["results"],
        "additionalProperties": False,
        "properties": {
            "results": {"type": "array", "items": ref("StudentLocation")},
            "count": {"type": "integer", "minimum": 0, "description": "With `count=1`: matches without skip/limit."},
        },
    },
    "StudentLocationWrite": {
        "type": "object",
        "description": "POST needs uniqueKey, latitude and longitude; PUT changes only the fields sent. "
        "Strings: at most 1,024 bytes, no NUL. objectId, createdAt and updatedAt are set by the server "
        "(objectId in a POST body is refused with 105).",
        "properties": {
            **{name: {"type": ["string", "null"]} for name in TEXT_FIELDS},
            "latitude": {"type": ["number", "null"], "minimum": -90, "maximum": 90},
            "longitude": {"type": ["number", "null"], "minimum": -180, "maximum": 180},
        },
    },
    "CreatedLocation": {
        "type": "object",
        "required": ["createdAt", "objectId"],
        "additionalProperties": False,
        "properties": {"createdAt": {"type": "string", "format": "date-time"}, "objectId": {"type": "string"}},
    },
    "UpdatedLocation": {
        "type": "object",
        "required": ["updatedAt"],
        "additionalProperties": False,
        "properties": {"updatedAt": {"type": "string", "format": "date-time"}},
    },
    "Empty": {"type": "object", "additionalProperties": False, "maxProperties": 0},
    "ParseError": {
        "type": "object",
        "description": "Parse Server's error body: 101 not found, 102 invalid query, 105 invalid field name, "
        "107 invalid JSON or bad constraint, 111 incorrect type, 119 not the owner, 124 query too expensive, "
        "142 validation failed, 155 too many expensive queries at once or too many changes from one account, "
        "209 no valid session (or a cookie-authenticated POST without `Content-Type: application/json`).",
        "required": ["code", "error"],
        "additionalProperties": False,
        "properties": {"code": {"type": "integer"}, "error": {"type": "string"}},
    },
    "PlainError": {
        "type": "object",
        "description": "403 without the configured Parse keys (`unauthorized`), 413 for a body over the limit.",
        "required": ["error"],
        "additionalProperties": False,
        "properties": {"error": {"type": "string"}},
    },
    "UdacityError": {
        "type": "object",
        "required": ["status", "error"],
        "additionalProperties": False,
        "properties": {
            "status": {"type": "integer"},
            "error": {"type": "string"},
            "parameter": {"type": "string", "description": "The missing or bad field, such as `udacity.username`."},
        },
    },
    "LoginRequest": {
        "type": "object",
        "description": "Exactly one credential. `facebook_mobile` carries a Facebook user access token (from "
        "Facebook Login for Devices); `oauth` a token of a configured RFC 8628 provider. The server checks a "
        "provider's token with the provider; the first login makes an account from the profile (no password), "
        "later ones find it by the provider's user id. An unconfigured provider is refused with 400.",
        "properties": {
            "udacity": {
                "type": "object",
                "required": ["username", "password"],
                "properties": {"username": {"type": "string"}, "password": {"type": "string"}},
            },
            "facebook_mobile": {
                "type": "object",
                "required": ["access_token"],
                "properties": {"access_token": {"type": "string", "maxLength": 4096}},
            },
            "oauth": {
                "type": "object",
                "required": ["provider", "access_token"],
                "properties": {
                    "provider": {"type": "string", "description": "A provider `name` from `auth/providers` (`github`)."},
                    "access_token": {"type": "string", "maxLength": 4096},
                },
            },
        },
    },
    "SignUpRequest": {
        "type": "object",
        "required": ["email", "password", "first_name", "last_name"],
        "properties": {
            "email": {"type": "string"},
            "password": {"type": "string", "minLength": 8, "description": "8 characters to 72 bytes."},
            "first_name": {"type": "string"},
            "last_name": {"type": "string"},
            "invite": {"type": "string", "description": "An invite code from `onthemap-server invite create`; needed when sign-up is `invite`."},
        },
    },
    "AuthProviders": {
        "type": "object",
        "required": ["providers"],
        "description": "The ways in: password login (and whether sign-up is open, needs an invite, or is closed), "
        "then Facebook and each OAuth device-login provider when the server is configured for them, with their "
        "public values only. Clients ignore types they do not know.",
        "properties": {
            "providers": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["type"],
                    "properties": {
                        "type": {"type": "string", "description": "`password`, `facebook` or `oauth`."},
                        "signup": {"type": "string", "enum": ["open", "invite", "closed"], "description": "`password` only."},
                        "name": {"type": "string", "description": "`facebook`, or the OAuth provider's name for the `oauth` credential."},
                        "appId": {"type": "string", "description": "`facebook`: the app id."},
                        "clientToken": {"type": "string", "description": "`facebook`: the public client token."},
                        "clientId": {"type": "string", "description": "`oauth`: the public client id."},
                        "deviceURL": {"type": "string", "description": "Where the device asks for a user code (POST)."},
                        "tokenURL": {"type": "string", "description": "Where the device polls for the token (POST)."},
                        "scope": {"type": "string", "description": "The scope to ask for."},
                    },
                },
            },
        },
    },
    "Session": {
        "type": "object",
        "required": ["id", "expiration"],
        "additionalProperties": False,
        "properties": {"id": {"type": "string"}, "expiration": {"type": "string"}},
    },
    "SessionResponse": {
        "type": "object",
        "required": ["account", "session"],
        "additionalProperties": False,
        "properties": {
            "account": {
                "type": "object",
                "required": ["registered", "key"],
                "additionalProperties": False,
                "properties": {"registered": {"type": "boolean"}, "key": {"type": "string"}},
            },
            "session": ref("Session"),
        },
    },
    "DeleteSessionResponse": {
        "type": "object",
        "required": ["session"],
        "additionalProperties": False,
        "properties": {"session": ref("Session")},
    },
    "User": {
        "type": "object",
        "required": ["key", "first_name", "last_name", "nickname"],
        "properties": {
            "key": {"type": "string"},
            "first_name": {"type": "string"},
            "last_name": {"type": "string"},
            "nickname": {"type": "string"},
            "email": {
                "type": "object",
                "description": "Only to the user's own session.",
                "properties": {"address": {"type": "string"}, "_verified": {"type": "boolean"}},
            },
            "role": {"enum": ["student", "moderator"], "description": "Only to the user's own session."},
        },
    },
    "HideRequest": {
        "type": "object",
        "required": ["reason"],
        "properties": {"reason": {"type": "string", "minLength": 1, "description": "At most 200 bytes; shown to the row's owner."}},
    },
    "DeleteAccountRequest": {
        "type": "object",
        "properties": {"password": {"type": "string", "description": "Required unless the account has no password."}},
    },
    "DeletedAccount": {
        "type": "object",
        "required": ["deleted"],
        "additionalProperties": False,
        "properties": {"deleted": {
            "type": "object", "required": ["locations", "sessions"], "additionalProperties": False,
            "properties": {"locations": {"type": "integer", "minimum": 0}, "sessions": {"type": "integer", "minimum": 0}},
        }},
    },
    "AccountExport": {
        "type": "object",
        "required": ["account", "locations"],
        "additionalProperties": False,
        "properties": {
            "account": {
                "type": "object",
                "required": ["key", "email", "firstName", "lastName", "role", "createdAt"],
                "additionalProperties": False,
                "properties": {name: {"type": "string"} for name in ["key", "email", "firstName", "lastName", "role", "createdAt"]},
            },
            "locations": {"type": "array", "items": ref("StudentLocation"), "description": "Every row, hidden ones marked."},
        },
    },
    "WrappedUser": {
        "type": "object",
        "required": ["user"],
        "additionalProperties": False,
        "properties": {"user": ref("User")},
    },
}

RETRY_AFTER = {"Retry-After": {"description": "Seconds until it may be tried again.", "schema": {"type": "string", "pattern": "^[0-9]+$"}}}
BUSY = udacity("Too many password checks run at once (`--max-concurrent-hashes`); try again after `Retry-After` (1 s).", None, RETRY_AFTER)
SET_COOKIE = {"Set-Cookie": {"description": "`XSRF-TOKEN=…; Path=/; SameSite=Lax`; a login sent with "
                             "`Content-Type: application/json` also sets "
                             "`onthemap_session=…; Path=/; HttpOnly; SameSite=Strict` (`; Secure` over TLS) and a "
                             "logout clears it.", "schema": {"type": "string"}}}
QUERY_RETRY_AFTER = {"Retry-After": {"description": "Seconds until the query may be sent again.", "schema": {"type": "string", "pattern": "^[0-9]+$"}}}
LOCATION = {"Location": {"description": "The new row's absolute URL.", "schema": {"type": "string"}}}

WRITE_BODY = {"required": True, "content": json_content(ref("StudentLocationWrite"))}
OBJECT_ID = {"name": "objectId", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}
BEARER = [{"session": []}, {"cookie": []}]
TOO_LARGE = response("The body is larger than the limit (64 KB by default).", ref("PlainError"))
NO_KEYS = response("Refused: no valid session (209), another account's row (119), an X-XSRF-TOKEN header that "
                   "does not match the XSRF-TOKEN cookie (119), or missing Parse keys.",
                   {"oneOf": [ref("ParseError"), ref("PlainError")]})
CREATE_REFUSED = response("Refused: no valid session (209; or a cookie-authenticated POST without "
                          "`Content-Type: application/json`), another account's uniqueKey (119), the account already "
                          "has `--max-rows-per-account` rows (119), an X-XSRF-TOKEN header that does not match the "
                          "XSRF-TOKEN cookie (119), or missing Parse keys.",
                          {"oneOf": [ref("ParseError"), ref("PlainError")]})
TOO_MANY_CHANGES = response("More than `--max-writes-per-minute` writes from this account (155).", ref("ParseError"),
                            {"Retry-After": {"description": "Seconds until the account's minute is over.",
                                             "schema": {"type": "string", "pattern": "^[0-9]+$"}}})


def list_parameters(is_v1):
    parameters = [
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 0}, "description": "Default 100; capped at `--max-limit`."},
        {"name": "skip", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 10000000}},
        {"name": "order", "in": "query", "schema": {"type": "string"}, "description": "Comma-separated fields, `-` for descending; an unknown field is refused (102)."},
        {"name": "count", "in": "query", "schema": {"type": "string", "enum": ["1", "true", "0", "false"]}},
        {"name": "keys", "in": "query", "schema": {"type": "string"}, "description": "Comma-separated fields to send."},
        {"name": "where", "in": "query", "schema": {"type": "string"}, "description": "A JSON object of Parse constraints."},
    ]
    if is_v1:
        parameters.append({"name": "uniqueKey", "in": "query", "schema": {"type": "string"}})
    return parameters


def location_paths(path, is_v1, era):
    tags = ["StudentLocation"]
    name = {"v1": "", "parse": "Parse", "one": "ParseOne"}[era]
    paths = {
        path: {
            "get": {
                "operationId": f"listLocations{name}", "tags": tags, "summary": "List locations (Parse query).",
                "parameters": list_parameters(is_v1),
                "responses": {"200": response("A page of rows.", ref("StudentLocationList")),
                              "400": parse_error("A bad query (102, 105, 107; 102 also for more than 10 `order` keys), or one too expensive (124: over a cap "
                                                 "of the `where`, or over the query time budget)."),
                              "403": NO_KEYS,
                              "503": response("Every slot for expensive queries is taken (155); retry later.",
                                              ref("ParseError"), QUERY_RETRY_AFTER)},
            },
            "post": {
                "operationId": f"createLocation{name}", "tags": tags, "summary": "Post a location.",
                "security": BEARER, "requestBody": WRITE_BODY,
                "responses": {"201": response("Created.", ref("CreatedLocation"), LOCATION),
                              "400": parse_error("Invalid body (105, 107, 111, 142)."), "403": CREATE_REFUSED,
                              "413": TOO_LARGE, "429": TOO_MANY_CHANGES},
            },
        },
        path + "/{objectId}": {
            "parameters": [OBJECT_ID],
            "get": {
                "operationId": f"getLocation{name}", "tags": tags, "summary": "One row.",
                "responses": {"200": response("The row.", ref("StudentLocation")), "403": NO_KEYS,
                              "404": parse_error("No such row, or a hidden one the caller may not see (101).")},
            },
            "put": {
                "operationId": f"updateLocation{name}", "tags": tags, "summary": "Change the fields sent.",
                "security": BEARER, "requestBody": WRITE_BODY,
                "responses": {"200": response("Updated.", ref("UpdatedLocation")),
                              "400": parse_error("Invalid body (107, 111, 142)."), "403": NO_KEYS,
                              "404": parse_error("No such row, or another's hidden row the caller may not see (101)."),
                              "413": TOO_LARGE, "429": TOO_MANY_CHANGES},
            },
            "delete": {
                "operationId": f"deleteLocation{name}", "tags": tags,
                "summary": "Delete a row: its owner, a moderator, or anyone under `--open-writes` (Docs/Access.md).",
                "security": BEARER + [{}],
                "responses": {"200": response("Deleted.", ref("Empty")), "403": NO_KEYS,
                              "404": parse_error("No such row, or another's hidden row the caller may not see (101)."),
                              "429": TOO_MANY_CHANGES},
            },
        },
    }
    if is_v1:
        for action, summary in [("hide", "Hide a row from everyone but its owner and the moderators (moderators only)."),
                                ("unhide", "Show a hidden row again (moderators only).")]:
            paths[path + "/{objectId}/" + action] = {
                "parameters": [OBJECT_ID],
                "post": {
                    "operationId": f"{action}Location", "tags": tags, "summary": summary, "security": BEARER,
                    **({"requestBody": {"required": True, "content": json_content(ref("HideRequest"))}} if action == "hide" else {}),
                    "responses": {"200": response("Done.", ref("UpdatedLocation")),
                                  "400": parse_error("No reason, or one over 200 bytes (142)."),
                                  "403": response("No valid session (209), or not a moderator (119).", ref("ParseError")),
                                  "404": parse_error("No such row (101).")},
                },
            }
    return paths


def session_paths(prefix, wrapped):
    tags = ["Session"]
    name = "Legacy" if wrapped else ""
    return {
        prefix + "/session": {
            "post": {
                "operationId": f"logIn{name}", "tags": tags, "summary": "Log in.",
                "requestBody": {"required": True, "content": json_content(ref("LoginRequest"))},
                "responses": {
                    "200": udacity("Logged in; sets the XSRF-TOKEN cookie.", ref("SessionResponse"), SET_COOKIE),
                    "400": udacity("Not exactly one credential, a missing field, a NUL in a credential, or not JSON."),
                    "403": udacity("`Account not found or invalid credentials.`; for a provider's token: `The <provider> "
                                   "access token is not valid.`, `… was issued for another app.`, `… has expired.`"),
                    "413": udacity("The body is larger than the limit (64 KB by default)."),
                    "429": udacity("Too many login attempts from this address at this account, from this address, "
                                   "or from untrusted addresses at this account; counted before the password is checked.",
                                   None, RETRY_AFTER),
                    "502": udacity("The provider could not be reached to check the token."),
                    "503": BUSY,
                },
            },
            "delete": {
                "operationId": f"logOut{name}", "tags": tags,
                "summary": "Log out the bearer session, or the XSRF-TOKEN cookie's when X-XSRF-TOKEN repeats it.",
                "security": [{"session": []}, {}],
                "parameters": [
                    {"name": "X-XSRF-TOKEN", "in": "header", "schema": {"type": "string"}},
                    {"name": "XSRF-TOKEN", "in": "cookie", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": udacity("Logged out; clears the cookie.", ref("DeleteSessionResponse"), SET_COOKIE),
                    "403": udacity("No session, or the X-XSRF-TOKEN header does not match the XSRF-TOKEN cookie "
                                   "(refused whatever else names the session)."),
                },
            },
        },
        prefix + "/users": {
            "post": {
                "operationId": f"signUp{name}", "tags": tags, "summary": "Create an account and log in.",
                "requestBody": {"required": True, "content": json_content(ref("SignUpRequest"))},
                "responses": {
                    "201": udacity("Created and logged in.", ref("SessionResponse"), SET_COOKIE),
                    "400": udacity("A missing or unacceptable field, or not JSON."),
                    "403": udacity("Sign-up is closed, or needs an invite and none or a bad one was sent (`parameter`: `invite`)."),
                    "409": udacity("The email is taken."),
                    "413": udacity("The body is larger than the limit (64 KB by default)."),
                    "429": udacity("Too many sign-ups from this address this hour (`--signups-per-hour`, 5).", None, RETRY_AFTER),
                    "503": BUSY,
                },
            },
        },
        prefix + "/auth/providers": {
            "get": {
                "operationId": f"authProviders{name}", "tags": tags,
                "summary": "How to get in: password login and the sign-up policy (`--signup`).",
                "responses": {"200": udacity("The providers.", ref("AuthProviders"))},
            },
        },
        prefix + "/users/{key}": {
            "get": {
                "operationId": f"getUser{name}", "tags": tags,
                "summary": "Public user data" + (" wrapped in `user`." if wrapped else ", flat."),
                "parameters": [{"name": "key", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}],
                "responses": {
                    "200": udacity("The user.", ref("WrappedUser") if wrapped else ref("User")),
                    "404": udacity("No such user."),
                },
            },
            "delete": {
                "operationId": f"deleteAccount{name}", "tags": tags,
                "summary": "Delete the caller's own account, its locations and its sessions (the password is checked "
                           "again, and counted like a login).",
                "security": BEARER,
                "parameters": [{"name": "key", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}],
                "requestBody": {"required": False, "content": json_content(ref("DeleteAccountRequest"))},
                "responses": {
                    "200": udacity("Deleted.", ref("DeletedAccount")),
                    "400": udacity("No password sent, or not JSON."),
                    "403": udacity("Not this account's session, or a wrong password."),
                    "429": udacity("Too many login attempts (the login throttle).", None, RETRY_AFTER),
                    "503": BUSY,
                },
            },
        },
        prefix + "/users/{key}/export": {
            "get": {
                "operationId": f"exportAccount{name}", "tags": tags,
                "summary": "Everything the server holds of the caller's own account: the account and every row.",
                "security": BEARER,
                "parameters": [{"name": "key", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}],
                "responses": {
                    "200": udacity("The export.", ref("AccountExport")),
                    "403": udacity("Not this account's session."),
                },
            },
        },
    }


def document():
    # The paths are RequestPath's (Sources/OnTheMapModels/RequestPath.swift), from which the API
    # client and the router build theirs; RouteContractTests (OnTheMapServerTests) fails unless the
    # router serves exactly the paths and methods written here.
    paths = {}
    paths.update(session_paths("/v1", wrapped=False))
    paths.update(session_paths("/api", wrapped=True))
    paths.update(location_paths("/v1/StudentLocation", True, "v1"))
    paths.update(location_paths("/parse/classes/StudentLocation", False, "parse"))
    paths.update(location_paths("/1/classes/StudentLocation", False, "one"))
    def health(status):
        return {"type": "object", "required": ["status"], "properties": {"status": {"const": status}}}

    paths["/healthz"] = {"get": {
        "operationId": "health", "tags": ["Operations"], "summary": "The database is reachable.",
        "responses": {
            "200": response("Healthy.", health("ok")),
            "503": response("The database does not answer.", health("unavailable")),
        },
    }}
    paths["/openapi.json"] = {"get": {
        "operationId": "openAPI", "tags": ["Operations"], "summary": "This document.",
        "responses": {"200": response("OpenAPI 3.1.", {"type": "object"})},
    }}
    paths["/metrics"] = {"get": {
        "operationId": "metrics", "tags": ["Operations"],
        "summary": "Prometheus text format (only with `serve --metrics`, the default of `serve`).",
        "responses": {"200": {"description": "Metrics.", "content": {"text/plain": {"schema": {"type": "string"}}}},
                      "404": {"description": "Metrics are off."}},
    }}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "onthemap-server",
            "version": "1.0.0",
            "description": "The Udacity session API and the Parse StudentLocation class, as the original "
            "\"On the Map\" services answered them. See Docs/API.md. Parse LiveQuery (a WebSocket "
            "upgrade at `/`, JSON text frames: connect, subscribe, update, unsubscribe, query; events create, "
            "update, enter, leave, delete) is not an HTTP operation and is described in Docs/API.md, \"LiveQuery\".",
        },
        "servers": [{"url": "http://127.0.0.1:8080"}],
        "tags": [{"name": "Session"}, {"name": "StudentLocation"}, {"name": "Operations"}],
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "session": {"type": "http", "scheme": "bearer", "description": "A session id from POST …/session."},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "onthemap_session",
                           "description": "The cookie a login sets; a POST with it must send `Content-Type: application/json`."},
            },
        },
    }


def swift_source(text):
    return (
        "// Generated by scripts/openapi/generate.py from the same data as Docs/openapi.json; do not edit.\n\n"
        "/// The OpenAPI 3.1 document of every endpoint, served at `/openapi.json` (Docs/openapi.json).\n"
        "package enum OpenAPIDocument {\n"
        "    package static let bytes: [UInt8] = Array(text.utf8)\n\n"
        f"    static let text = #\"\"\"\n{text}\n\"\"\"#\n"
        "}\n"
    )


def main():
    text = json.dumps(document(), indent=2, ensure_ascii=False)
    outputs = {DOC: text + "\n", SWIFT: swift_source(text)}
    if "--check" in sys.argv:
        stale = [str(path) for path, content in outputs.items() if not path.exists() or path.read_text() != content]
        if stale:
            print("Out of date (run scripts/openapi/generate.py): " + ", ".join(stale))
            return 1
        return 0
    for path, content in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    print(f"Wrote {DOC.relative_to(ROOT)} and {SWIFT.relative_to(ROOT)} ({len(document()['paths'])} paths).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
