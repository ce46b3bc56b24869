#ifndef ONTHEMAP_CCHAFA_H
#define ONTHEMAP_CCHAFA_H

/// libchafa's terminal database (libchafa.so.0), resolved with dlopen on first use, as CCurl
/// resolves libcurl: a process that never asks it never maps libchafa or GLib.

/// Whether libchafa could be loaded (and has the functions used here).
int otm_chafa_available(void);

enum { OTM_CHAFA_SIXEL = 1, OTM_CHAFA_KITTY = 2, OTM_CHAFA_ITERM = 4 };

/// The image protocols libchafa's terminal database gives the terminal that `environment` (a
/// NULL-terminated `NAME=value` list) describes: OTM_CHAFA_* bits; -1 when libchafa is missing.
int otm_chafa_detect(char **environment);

#endif
