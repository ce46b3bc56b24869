#ifndef ONTHEMAP_CCHAFA_H
#define ONTHEMAP_CCHAFA_H

#include <stddef.h>
#include <stdint.h>

/// Sixel through Debian's libchafa (libchafa.so.0), resolved with dlopen on first use, as CCurl
/// resolves libcurl: a process that never prints a Sixel picture never maps libchafa or GLib.

/// Whether libchafa could be loaded (and has the functions used here).
int otm_chafa_available(void);

/// `width × height` RGBA pixels as Sixel over `columns × rows` cells of `cell_width ×
/// cell_height` pixels. On success returns 0 and `*out` (free with `otm_chafa_free`) holds
/// `*out_size` bytes; -1 when libchafa is missing.
int otm_chafa_sixel(const uint8_t *pixels, int width, int height, int columns, int rows, int cell_width,
                    int cell_height, char **out, size_t *out_size);

void otm_chafa_free(void *pointer);

enum { OTM_CHAFA_SIXEL = 1, OTM_CHAFA_KITTY = 2, OTM_CHAFA_ITERM = 4 };

/// The image protocols libchafa's terminal database gives the terminal that `environment` (a
/// NULL-terminated `NAME=value` list) describes: OTM_CHAFA_* bits; -1 when libchafa is missing.
int otm_chafa_detect(char **environment);

#endif
