#ifndef ONTHEMAP_CCURL_H
#define ONTHEMAP_CCURL_H

#include <stddef.h>

/// One `https://` exchange through libcurl's easy interface. libcurl is resolved with dlopen on
/// first use: nothing here links it, so a process that never asks for https:// never maps libcurl
/// and its TLS libraries. Swift sees only this header, never <curl/curl.h>.

/// How an exchange ended.
typedef enum otm_curl_outcome {
    OTM_CURL_DONE = 0,      ///< A whole answer: `status` is set, the body and fields were handed over.
    OTM_CURL_TOO_BIG,       ///< The announced length or the bytes read passed `max_bytes`; reading stopped.
    OTM_CURL_DEADLINE,      ///< `timeout_ms` passed.
    OTM_CURL_CANCELLED,     ///< `otm_curl_cancel` was called.
    OTM_CURL_INSECURE,      ///< No secure connection: the TLS handshake failed or the server's certificate
                            ///< was not accepted; `error` has libcurl's words.
    OTM_CURL_FAILED,        ///< No answer (resolve, connect, reset, nothing sent back): `error` has libcurl's words.
    OTM_CURL_UNAVAILABLE,   ///< libcurl.so.4 could not be loaded (or lacks a function).
    OTM_CURL_MALFORMED,     ///< An answer HTTP/1.1 does not allow (not HTTP, a bad head or framing, cut short);
                            ///< `error` has libcurl's words.
} otm_curl_outcome;

/// The exchange's inputs, set by the caller, and its results. Strings are NUL-terminated and must
/// outlive `otm_curl_perform`; the header lines are "Name: value" (libcurl copies them).
typedef struct otm_curl_exchange {
    const char *method;
    const char *url;
    const char *const *header_lines;
    size_t header_count;
    /// The body (binary safe), or NULL with `has_body` 0 for none.
    const void *body;
    size_t body_size;
    int has_body;
    /// The body's cap in bytes and the whole exchange's deadline in milliseconds (at least 1).
    long long max_bytes;
    long long timeout_ms;
    /// A CA bundle to trust instead of the system's, or NULL.
    const char *ca_file;

    /// Called on the performing thread with each piece of the body (never past `max_bytes` in all)
    /// and with each header line as received (status lines included, CRLF included).
    void *context;
    void (*on_body)(void *context, const char *bytes, size_t size);
    void (*on_header)(void *context, const char *line, size_t size);

    /// Results: the final answer's status and, for OTM_CURL_FAILED, libcurl's words.
    long status;
    char error[256];

    /// Private to CCurl.
    long long received;
    int over_cap;
    int cancelled;
} otm_curl_exchange;

/// Performs the exchange, blocking until it ends (run it on a thread of its own).
otm_curl_outcome otm_curl_perform(otm_curl_exchange *exchange);

/// Asks a running (or not yet started) exchange to stop; it ends within about a second with
/// OTM_CURL_CANCELLED. Safe from any thread.
void otm_curl_cancel(otm_curl_exchange *exchange);

/// A TLS connection to an https:// URL's host and port, checked as an exchange's is (the
/// system's CAs or `ca_file`, the name), that then carries raw bytes both ways: libcurl's
/// CONNECT_ONLY. What a `wss://` WebSocket runs on. Not safe for concurrent calls.
typedef struct otm_curl_stream otm_curl_stream;

/// Connects and completes the handshake within `timeout_ms`. OTM_CURL_DONE with `*stream` and
/// `*socket` (to poll; libcurl owns it) set; else INSECURE, DEADLINE, FAILED or UNAVAILABLE with
/// `words` (at least 256 bytes) holding libcurl's words.
otm_curl_outcome otm_curl_stream_open(const char *url, long long timeout_ms, const char *ca_file,
                                      otm_curl_stream **stream, int *socket, char *words);

/// Sends what it can without blocking: the count sent (0: try again when the socket is
/// writable), or -1 when the connection failed.
long otm_curl_stream_send(otm_curl_stream *stream, const void *bytes, size_t size);

/// Receives what has arrived without blocking: the count (at most `size`), -2 when nothing has
/// yet (poll the socket), 0 when the server closed the connection, -1 when it failed.
long otm_curl_stream_receive(otm_curl_stream *stream, void *bytes, size_t size);

/// Ends the connection and frees the stream.
void otm_curl_stream_close(otm_curl_stream *stream);

#endif
