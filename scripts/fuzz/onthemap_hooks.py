"""schemathesis hooks for onthemap-server (loaded by scripts/fuzz.sh via SCHEMATHESIS_HOOKS).

- Session, users and auth-provider answers start with the five bytes `)]}'\n` (Udacity's anti-XSSI prefix). A
  client strips them; so does `after_call`, after checking they are there, so the JSON after them
  is validated against the schema. A missing prefix fails the `xssi_prefix` check.
- StudentLocation writes carry the demo account's session (FUZZ_SESSION), and half of the bodies
  that name a uniqueKey name the demo account's (FUZZ_KEY), so the 201/200 paths run too and not
  only the 403 ones. Log-out gets no session, so the fuzzing one stays valid.
"""
import os
import random

import schemathesis

PREFIX = b")]}'\n"
PREFIXED_PATHS = ("/session", "/users", "/auth/providers")
MISSING_PREFIX = set()


def _is_prefixed_operation(path):
    return path.startswith(("/v1/", "/api/")) and any(part in path for part in PREFIXED_PATHS)


@schemathesis.hook
def before_call(context, case, **kwargs):
    path = case.operation.path
    method = case.operation.method.upper()
    if "StudentLocation" in path and method in ("POST", "PUT", "DELETE"):
        case.headers = dict(case.headers or {})
        case.headers["Authorization"] = "Bearer " + os.environ.get("FUZZ_SESSION", "")
        if isinstance(case.body, dict) and "uniqueKey" in case.body and random.random() < 0.5:
            case.body = dict(case.body)
            case.body["uniqueKey"] = os.environ.get("FUZZ_KEY", "")


@schemathesis.hook
def after_call(context, case, response):
    if not _is_prefixed_operation(case.operation.path):
        return
    if response.content.startswith(PREFIX):
        response.content = response.content[len(PREFIX):]
        response.content_size = len(response.content)
    elif response.content:
        MISSING_PREFIX.add(id(response))


@schemathesis.check
def xssi_prefix(ctx, response, case):
    """Session and users answers start with )]}' and a newline."""
    if id(response) in MISSING_PREFIX:
        MISSING_PREFIX.discard(id(response))
        raise AssertionError(f"{case.operation.method.upper()} {case.operation.path}: the answer lacks the )]}}' prefix")
