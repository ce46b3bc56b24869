#ifndef CNETTLE_SHIM_H
#define CNETTLE_SHIM_H
// libnettle (Debian nettle-dev, pkg-config nettle): SHA-256 and HMAC-SHA256 only, by
// Sources/ServerHTTP/Security/SHA256.swift — the server's one use of cryptography.
#include <nettle/sha2.h>
#include <nettle/hmac.h>
#endif
