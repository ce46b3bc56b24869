#ifndef ONTHEMAP_CPNG_H
#define ONTHEMAP_CPNG_H

#include <stddef.h>
#include <stdint.h>

/// PNG through Debian's libpng (libpng16.so.16), resolved with dlopen on first use, as CCurl
/// resolves libcurl: a process that never writes or reads a picture never maps libpng. Swift sees
/// only this header, never <png.h>.

/// Whether libpng could be loaded (and has the functions used here).
int otm_png_available(void);

/// Encodes `width × height` RGBA pixels (row by row, 4 bytes a pixel) as a PNG. On success
/// returns 0 and `*out` (free with `otm_png_free`) holds `*out_size` bytes; else -1 (libpng
/// missing) or -2 (libpng refused), with libpng's words in `message` when it gave some.
int otm_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, uint8_t **out, size_t *out_size,
                        char *message, size_t message_size);

/// Encodes `width × height` palette indexes (a byte a pixel) with `entries` RGBA colours in
/// `colormap` (4 bytes each, at most 256) as a palette PNG: a quarter of the bytes for zlib to
/// compress. Returns as `otm_png_encode_rgba`.
int otm_png_encode_indexed(const uint8_t *indexes, uint32_t width, uint32_t height, const uint8_t *colormap,
                           uint32_t entries, uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// Decodes a PNG into RGBA (the tests' eyes). On success returns 0, `*out` (free with
/// `otm_png_free`) holds `*width × *height × 4` bytes. At most `max_pixels` pixels are decoded.
int otm_png_decode_rgba(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **out, uint32_t *width,
                        uint32_t *height, char *message, size_t message_size);

void otm_png_free(void *pointer);

#endif
