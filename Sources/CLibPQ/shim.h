#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// libpq (Debian libpq-dev, pkg-config libpq): PostgreSQL's own client library, for the server's
// PostgreSQL storage (Sources/OnTheMapServerPostgres/LibPQ). Only onthemap-server and the server
// tests link it; the terminal app's built-in server is SQLite alone.
#include <libpq-fe.h>
#endif
