#include "CCurl.h"

int otm_curl_available(void) { return 0; }
