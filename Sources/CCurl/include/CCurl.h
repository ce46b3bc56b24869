#ifndef ONTHEMAP_CCURL_H
#define ONTHEMAP_CCURL_H

/// libcurl's easy interface for `https://` exchanges, resolved with dlopen on first use: nothing
/// here links libcurl (to be written).
int otm_curl_available(void);

#endif
