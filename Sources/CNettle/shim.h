#ifndef CNETTLE_SHIM_H
#define CNETTLE_SHIM_H
// libnettle (Debian nettle-dev, pkg-config nettle): SHA-256 and HMAC-SHA256, by
// Sources/ServerHTTP/Security/SHA256.swift — the server's one use of cryptography — and SHA-1 for
// the WebSocket handshake's Sec-WebSocket-Accept only (Sources/APIClient/WebSocketAccept.swift).
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/hmac.h>
#endif
