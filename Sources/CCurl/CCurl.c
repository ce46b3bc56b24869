// libcurl's easy interface, resolved with dlopen the first time an https:// exchange is asked for.
// Linking libcurl (as FoundationNetworking does) maps and initialises it and its TLS libraries
// (libssl, libcrypto, gnutls, krb5, p11-kit…) at every start, several MB resident, even for a
// class on http://. Here nothing is linked: the functions are looked up once, with the header's own
// prototypes, and a process on http:// never loads them.

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CCurl.h"

_Static_assert(sizeof(((otm_curl_exchange *)0)->error) >= CURL_ERROR_SIZE, "error must hold CURL_ERROR_SIZE");

static struct {
    int loaded;
    __typeof__(curl_global_init) *global_init;
    __typeof__(curl_easy_init) *easy_init;
    __typeof__(curl_easy_setopt) *easy_setopt;
    __typeof__(curl_easy_perform) *easy_perform;
    __typeof__(curl_easy_getinfo) *easy_getinfo;
    __typeof__(curl_easy_cleanup) *easy_cleanup;
    __typeof__(curl_easy_strerror) *easy_strerror;
    __typeof__(curl_slist_append) *slist_append;
    __typeof__(curl_slist_free_all) *slist_free_all;
    __typeof__(curl_easy_send) *easy_send;
    __typeof__(curl_easy_recv) *easy_recv;
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

/// Loads libcurl and initialises it, once per process. RTLD_LOCAL: its symbols stay out of the
/// global namespace (FoundationNetworking, if present, gets the same library and its own lookups).
static void load_curl(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define RESOLVE(field, name)                                   \
    if ((curl.field = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    RESOLVE(global_init, curl_global_init)
    RESOLVE(easy_init, curl_easy_init)
    RESOLVE(easy_setopt, curl_easy_setopt)
    RESOLVE(easy_perform, curl_easy_perform)
    RESOLVE(easy_getinfo, curl_easy_getinfo)
    RESOLVE(easy_cleanup, curl_easy_cleanup)
    RESOLVE(easy_strerror, curl_easy_strerror)
    RESOLVE(slist_append, curl_slist_append)
    RESOLVE(slist_free_all, curl_slist_free_all)
    RESOLVE(easy_send, curl_easy_send)
    RESOLVE(easy_recv, curl_easy_recv)
#undef RESOLVE
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return;
    curl.loaded = 1;
}

/// Stops the transfer (by a short count) as soon as the body would pass the cap, whatever the
/// framing (close-delimited, chunked, or a length libcurl did not check in advance).
static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
    otm_curl_exchange *exchange = context;
    size_t length = size * count;
    if ((unsigned long long)length > (unsigned long long)(exchange->max_bytes - exchange->received)) {
        exchange->over_cap = 1;
        return 0;
    }
    exchange->received += (long long)length;
    if (length > 0) exchange->on_body(exchange->context, bytes, length);
    return length;
}

static size_t on_header(char *line, size_t size, size_t count, void *context) {
    otm_curl_exchange *exchange = context;
    exchange->on_header(exchange->context, line, size * count);
    return size * count;
}

/// libcurl calls this at least once a second, even while nothing arrives: a cancel lands there.
static int on_progress(void *context, curl_off_t down_total, curl_off_t down_now, curl_off_t up_total,
                       curl_off_t up_now) {
    (void)down_total, (void)down_now, (void)up_total, (void)up_now;
    otm_curl_exchange *exchange = context;
    return __atomic_load_n(&exchange->cancelled, __ATOMIC_ACQUIRE) ? 1 : 0;
}

void otm_curl_cancel(otm_curl_exchange *exchange) {
    __atomic_store_n(&exchange->cancelled, 1, __ATOMIC_RELEASE);
}

/// Sets one option of `handle`; on refusal (an older libcurl) names it in `words` (256 bytes) and
/// goes to `done`.
#define SET(option, value)                                                                          \
    if ((code = curl.easy_setopt(handle, option, value)) != CURLE_OK) {                             \
        snprintf(words, 256, "libcurl refused option %s: %s", #option, curl.easy_strerror(code));   \
        goto done;                                                                                  \
    }

/// How a transfer or a connection that libcurl ended with `code` (not CURLE_OK) failed.
static otm_curl_outcome failure_outcome(CURLcode code) {
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
        return OTM_CURL_DEADLINE;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
        return OTM_CURL_INSECURE;
    case CURLE_UNSUPPORTED_PROTOCOL: /* "Received HTTP/0.9 when not allowed": not HTTP at all */
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_PARTIAL_FILE:
    case CURLE_BAD_CONTENT_ENCODING:
        return OTM_CURL_MALFORMED;
    default:
        return OTM_CURL_FAILED;
    }
}

otm_curl_outcome otm_curl_perform(otm_curl_exchange *exchange) {
    exchange->status = 0;
    exchange->error[0] = '\0';
    exchange->received = 0;
    exchange->over_cap = 0;
    pthread_once(&curl_once, load_curl);
    if (!curl.loaded) return OTM_CURL_UNAVAILABLE;
    if (__atomic_load_n(&exchange->cancelled, __ATOMIC_ACQUIRE)) return OTM_CURL_CANCELLED;

    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(exchange->error, sizeof exchange->error, "libcurl could not start an exchange");
        return OTM_CURL_FAILED;
    }
    struct curl_slist *headers = NULL;
    char *words = exchange->error;
    CURLcode code = CURLE_OK;
    otm_curl_outcome outcome = OTM_CURL_FAILED;
    for (size_t index = 0; index < exchange->header_count; index++) {
        struct curl_slist *longer = curl.slist_append(headers, exchange->header_lines[index]);
        if (longer == NULL) {
            snprintf(exchange->error, sizeof exchange->error, "out of memory for the header fields");
            goto done;
        }
        headers = longer;
    }

    SET(CURLOPT_ERRORBUFFER, exchange->error)
    SET(CURLOPT_URL, exchange->url)
    SET(CURLOPT_PROTOCOLS_STR, "https")
    SET(CURLOPT_FOLLOWLOCATION, 0L)
    SET(CURLOPT_NOSIGNAL, 1L)  // threads: no SIGALRM for resolver timeouts
    SET(CURLOPT_PROXY, "")     // the server named, like the http:// transport: no proxy from the environment
    SET(CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1)  // the same framing and field case as http://
    SET(CURLOPT_TIMEOUT_MS, (long)exchange->timeout_ms)
    SET(CURLOPT_HTTPHEADER, headers)
    SET(CURLOPT_WRITEFUNCTION, on_body)
    SET(CURLOPT_WRITEDATA, exchange)
    SET(CURLOPT_HEADERFUNCTION, on_header)
    SET(CURLOPT_HEADERDATA, exchange)
    SET(CURLOPT_XFERINFOFUNCTION, on_progress)
    SET(CURLOPT_XFERINFODATA, exchange)
    SET(CURLOPT_NOPROGRESS, 0L)
    if (exchange->ca_file != NULL) SET(CURLOPT_CAINFO, exchange->ca_file)

    // GET is libcurl's default; HEAD must not wait for a body (and its Content-Length is not one:
    // no MAXFILESIZE); a body goes as POST fields (binary safe with their size; never NULL, which
    // would make libcurl read stdin), under the request's own method name when that is not POST.
    int head = strcmp(exchange->method, "HEAD") == 0;
    if (head) {
        SET(CURLOPT_NOBODY, 1L)
    } else {
        // An announced length over the cap: refused before reading the body (a cap of 0 is "no
        // limit" to libcurl; on_body still stops at the first byte).
        SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)exchange->max_bytes)
    }
    if (!head && exchange->has_body) {
        SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)exchange->body_size)
        SET(CURLOPT_POSTFIELDS, exchange->body != NULL ? exchange->body : (const void *)"")
        if (strcmp(exchange->method, "POST") != 0) SET(CURLOPT_CUSTOMREQUEST, exchange->method)
    } else if (!head && strcmp(exchange->method, "GET") != 0) {
        SET(CURLOPT_CUSTOMREQUEST, exchange->method)
    }

    code = curl.easy_perform(handle);
    if (code == CURLE_OK) {
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &exchange->status);
        outcome = OTM_CURL_DONE;
    } else if (__atomic_load_n(&exchange->cancelled, __ATOMIC_ACQUIRE)) {
        outcome = OTM_CURL_CANCELLED;
    } else if (code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && exchange->over_cap)) {
        outcome = OTM_CURL_TOO_BIG;
    } else {
        outcome = failure_outcome(code);
        if (exchange->error[0] == '\0') {
            snprintf(exchange->error, sizeof exchange->error, "%s", curl.easy_strerror(code));
        }
    }

done:
    curl.easy_cleanup(handle);
    curl.slist_free_all(headers);
    return outcome;
}

// MARK: - A TLS stream (CONNECT_ONLY)

struct otm_curl_stream {
    CURL *handle;
};

otm_curl_outcome otm_curl_stream_open(const char *url, long long timeout_ms, const char *ca_file,
                                      otm_curl_stream **stream, int *socket, char *words) {
    *stream = NULL;
    *socket = -1;
    words[0] = '\0';
    pthread_once(&curl_once, load_curl);
    if (!curl.loaded) return OTM_CURL_UNAVAILABLE;
    CURL *handle = curl.easy_init();
    if (handle == NULL) {
        snprintf(words, 256, "libcurl could not start a connection");
        return OTM_CURL_FAILED;
    }
    CURLcode code;
    otm_curl_outcome outcome = OTM_CURL_FAILED;
    SET(CURLOPT_ERRORBUFFER, words)
    SET(CURLOPT_URL, url)
    SET(CURLOPT_PROTOCOLS_STR, "https")
    SET(CURLOPT_NOSIGNAL, 1L)
    SET(CURLOPT_PROXY, "")
    SET(CURLOPT_CONNECT_ONLY, 1L)
    SET(CURLOPT_CONNECTTIMEOUT_MS, (long)(timeout_ms > 0 ? timeout_ms : 1))
    if (ca_file != NULL) SET(CURLOPT_CAINFO, ca_file)
#undef SET
    code = curl.easy_perform(handle);
    if (code != CURLE_OK) {
        outcome = failure_outcome(code);
        if (words[0] == '\0') snprintf(words, 256, "%s", curl.easy_strerror(code));
        goto done;
    }
    curl_socket_t active = CURL_SOCKET_BAD;
    if (curl.easy_getinfo(handle, CURLINFO_ACTIVESOCKET, &active) != CURLE_OK || active == CURL_SOCKET_BAD) {
        snprintf(words, 256, "libcurl has no connection to hand over");
        goto done;
    }
    otm_curl_stream *made = malloc(sizeof *made);
    if (made == NULL) {
        snprintf(words, 256, "out of memory");
        goto done;
    }
    // The error buffer was the caller's, for this call only.
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, NULL);
    made->handle = handle;
    *stream = made;
    *socket = (int)active;
    return OTM_CURL_DONE;

done:  // only on failure: a connection made returned above
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, NULL);
    curl.easy_cleanup(handle);
    return outcome;
}

long otm_curl_stream_send(otm_curl_stream *stream, const void *bytes, size_t size) {
    size_t sent = 0;
    CURLcode code = curl.easy_send(stream->handle, bytes, size, &sent);
    if (code == CURLE_AGAIN) return 0;
    return code == CURLE_OK ? (long)sent : -1;
}

long otm_curl_stream_receive(otm_curl_stream *stream, void *bytes, size_t size) {
    size_t received = 0;
    CURLcode code = curl.easy_recv(stream->handle, bytes, size, &received);
    if (code == CURLE_AGAIN) return -2;
    return code == CURLE_OK ? (long)received : -1;
}

void otm_curl_stream_close(otm_curl_stream *stream) {
    if (stream == NULL) return;
    curl.easy_cleanup(stream->handle);
    free(stream);
}
