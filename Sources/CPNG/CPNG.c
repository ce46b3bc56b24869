// libpng's simplified API (png_image_*), resolved with dlopen the first time a picture is made
// or read: the app's memory stays what it is for everyone who never asks for one.

#include <dlfcn.h>
#include <png.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "CPNG.h"

static struct {
    int loaded;
    __typeof__(png_image_write_to_memory) *write_to_memory;
    __typeof__(png_image_begin_read_from_memory) *begin_read_from_memory;
    __typeof__(png_image_finish_read) *finish_read;
    __typeof__(png_image_free) *image_free;
} png;

static pthread_once_t png_once = PTHREAD_ONCE_INIT;

static void load_png(void) {
    void *library = dlopen("libpng16.so.16", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define RESOLVE(field, name)                                   \
    if ((png.field = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    RESOLVE(write_to_memory, png_image_write_to_memory)
    RESOLVE(begin_read_from_memory, png_image_begin_read_from_memory)
    RESOLVE(finish_read, png_image_finish_read)
    RESOLVE(image_free, png_image_free)
#undef RESOLVE
    png.loaded = 1;
}

int otm_png_available(void) {
    pthread_once(&png_once, load_png);
    return png.loaded;
}

static void copy_message(const png_image *image, char *message, size_t message_size) {
    if (message == NULL || message_size == 0) return;
    strncpy(message, image->message, message_size - 1);
    message[message_size - 1] = 0;
}

/// Writes `image` (its format, size and flags set) from `pixels` to a buffer of its own.
static int write_png(png_image *image, const void *pixels, const void *colormap, uint8_t **out, size_t *out_size,
                     char *message, size_t message_size) {
    // Fast compression (no filter search, a quick zlib level): a map is large flat areas, which
    // compress well anyway, and the default level took 270 ms for 2,000×1,200 pixels.
    image->flags = PNG_IMAGE_FLAG_FAST;
    png_alloc_size_t size = 0;
    // First the size, then the bytes (libpng's two-call form).
    if (!png.write_to_memory(image, NULL, &size, 0, pixels, 0, colormap)) {
        copy_message(image, message, message_size);
        return -2;
    }
    uint8_t *buffer = malloc(size);
    if (buffer == NULL) return -2;
    if (!png.write_to_memory(image, buffer, &size, 0, pixels, 0, colormap)) {
        copy_message(image, message, message_size);
        free(buffer);
        return -2;
    }
    *out = buffer;
    *out_size = size;
    return 0;
}

int otm_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, uint8_t **out, size_t *out_size,
                        char *message, size_t message_size) {
    if (!otm_png_available()) return -1;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    return write_png(&image, pixels, NULL, out, out_size, message, message_size);
}

int otm_png_encode_indexed(const uint8_t *indexes, uint32_t width, uint32_t height, const uint8_t *colormap,
                           uint32_t entries, uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    if (!otm_png_available()) return -1;
    if (entries == 0 || entries > 256) return -2;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA_COLORMAP;
    image.colormap_entries = entries;
    return write_png(&image, indexes, colormap, out, out_size, message, message_size);
}

int otm_png_decode_rgba(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **out, uint32_t *width,
                        uint32_t *height, char *message, size_t message_size) {
    if (!otm_png_available()) return -1;
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png.begin_read_from_memory(&image, data, size)) {
        copy_message(&image, message, message_size);
        return -2;
    }
    if ((size_t)image.width * image.height > max_pixels) {
        png.image_free(&image);
        if (message != NULL && message_size > 0) strncpy(message, "too many pixels", message_size - 1);
        return -2;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *buffer = malloc(PNG_IMAGE_SIZE(image));
    if (buffer == NULL) {
        png.image_free(&image);
        return -2;
    }
    if (!png.finish_read(&image, NULL, buffer, 0, NULL)) {
        copy_message(&image, message, message_size);
        free(buffer);
        return -2;
    }
    *out = buffer;
    *width = image.width;
    *height = image.height;
    return 0;
}

void otm_png_free(void *pointer) { free(pointer); }
