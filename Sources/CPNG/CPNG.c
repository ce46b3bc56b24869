// libpng's simplified API (png_image_*), resolved with dlopen the first time a picture is made
// or read: the app's memory stays what it is for everyone who never asks for one.

#include <dlfcn.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>

#include "CPNG.h"

static struct {
    int loaded;
    __typeof__(png_image_write_to_memory) *write_to_memory;
    __typeof__(png_image_begin_read_from_memory) *begin_read_from_memory;
    __typeof__(png_image_finish_read) *finish_read;
    __typeof__(png_image_free) *image_free;
    // The write API, for palette PNGs with the compression a map wants (`encode_indexed`).
    __typeof__(png_create_write_struct) *create_write_struct;
    __typeof__(png_create_info_struct) *create_info_struct;
    __typeof__(png_destroy_write_struct) *destroy_write_struct;
    __typeof__(png_get_error_ptr) *get_error_ptr;
    __typeof__(png_get_io_ptr) *get_io_ptr;
    __typeof__(png_set_write_fn) *set_write_fn;
    __typeof__(png_set_IHDR) *set_IHDR;
    __typeof__(png_set_PLTE) *set_PLTE;
    __typeof__(png_set_tRNS) *set_tRNS;
    __typeof__(png_set_filter) *set_filter;
    __typeof__(png_set_check_for_invalid_index) *set_check_for_invalid_index;
    __typeof__(png_set_compression_level) *set_compression_level;
    __typeof__(png_set_compression_strategy) *set_compression_strategy;
    __typeof__(png_write_info) *write_info;
    __typeof__(png_write_row) *write_row;
    __typeof__(png_write_end) *write_end;
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
    RESOLVE(create_write_struct, png_create_write_struct)
    RESOLVE(create_info_struct, png_create_info_struct)
    RESOLVE(destroy_write_struct, png_destroy_write_struct)
    RESOLVE(get_error_ptr, png_get_error_ptr)
    RESOLVE(get_io_ptr, png_get_io_ptr)
    RESOLVE(set_write_fn, png_set_write_fn)
    RESOLVE(set_IHDR, png_set_IHDR)
    RESOLVE(set_PLTE, png_set_PLTE)
    RESOLVE(set_tRNS, png_set_tRNS)
    RESOLVE(set_filter, png_set_filter)
    RESOLVE(set_check_for_invalid_index, png_set_check_for_invalid_index)
    RESOLVE(set_compression_level, png_set_compression_level)
    RESOLVE(set_compression_strategy, png_set_compression_strategy)
    RESOLVE(write_info, png_write_info)
    RESOLVE(write_row, png_write_row)
    RESOLVE(write_end, png_write_end)
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

/// Where a palette PNG is written, and how libpng's errors come back (a longjmp out of the
/// error callback, with its words kept).
typedef struct {
    jmp_buf jump;
    char message[128];
    uint8_t *bytes;
    size_t size, capacity;
    int out_of_memory;
    uint8_t *packed;  // a row packed to `depth` bits a pixel
} indexed_output;

/// `width` index bytes as `depth`-bit pixels (1, 2 or 4), the leftmost in the high bits.
static void pack_row(const uint8_t *indexes, uint32_t width, int depth, uint8_t *out) {
    uint32_t x = 0;
    size_t at = 0;
    if (depth == 4) {
        for (; x + 1 < width; x += 2) out[at++] = (uint8_t)(indexes[x] << 4 | (indexes[x + 1] & 15));
        if (x < width) out[at] = (uint8_t)(indexes[x] << 4);
        return;
    }
    int per_byte = 8 / depth;
    while (x < width) {
        uint8_t byte = 0;
        for (int slot = 0; slot < per_byte; slot++, x++) {
            byte = (uint8_t)(byte << depth);
            if (x < width) byte |= (uint8_t)(indexes[x] & ((1 << depth) - 1));
        }
        out[at++] = byte;
    }
}

static void indexed_error(png_structp writer, png_const_charp words) {
    indexed_output *output = png.get_error_ptr(writer);
    strncpy(output->message, words, sizeof output->message - 1);
    longjmp(output->jump, 1);
}

static void indexed_warning(png_structp writer, png_const_charp words) {
    (void)writer;
    (void)words;
}

static void indexed_write(png_structp writer, png_bytep data, size_t length) {
    indexed_output *output = png.get_io_ptr(writer);
    if (output->size + length > output->capacity) {
        size_t capacity = output->capacity * 2 + length;
        uint8_t *grown = realloc(output->bytes, capacity);
        if (grown == NULL) {
            output->out_of_memory = 1;
            strncpy(output->message, "out of memory", sizeof output->message - 1);
            longjmp(output->jump, 1);
        }
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->size, data, length);
    output->size += length;
}

static void indexed_flush(png_structp writer) { (void)writer; }

int otm_png_encode_indexed(const uint8_t *indexes, uint32_t width, uint32_t height, const uint8_t *colormap,
                           uint32_t entries, uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    if (!otm_png_available()) return -1;
    if (entries == 0 || entries > 256 || width == 0 || height == 0) return -2;
    // On the heap, and nothing the error path reads changes after setjmp (longjmp may not
    // bring back locals changed in between).
    indexed_output *output = calloc(1, sizeof *output);
    if (output == NULL) return -2;
    png_structp writer = png.create_write_struct(PNG_LIBPNG_VER_STRING, output, indexed_error, indexed_warning);
    png_infop info = writer == NULL ? NULL : png.create_info_struct(writer);
    if (writer == NULL || info == NULL || setjmp(output->jump)) {
        if (message != NULL && message_size > 0) {
            strncpy(message, output->message, message_size - 1);
            message[message_size - 1] = 0;
        }
        if (writer != NULL) png.destroy_write_struct(&writer, info == NULL ? NULL : &info);
        free(output->packed);
        free(output->bytes);
        free(output);
        return -2;
    }
    png.set_write_fn(writer, output, indexed_write, indexed_flush);
    // A map is long runs of a few colours: run-length deflate at level 1, no filters, and the
    // fewest bits a pixel its palette allows (a world map's dozen colours are 4 bits: half the
    // bytes for zlib to run through). The rows are packed here, in one tight loop a row, rather
    // than by libpng's general transform (png_set_packing), which took longer than zlib.
    int depth = entries <= 2 ? 1 : entries <= 4 ? 2 : entries <= 16 ? 4 : 8;
    png.set_filter(writer, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    // libpng would look at every pixel for an index past the palette, a nibble at a time (as
    // long as zlib's whole run): every index here comes from the palette itself.
    png.set_check_for_invalid_index(writer, 0);
    png.set_compression_level(writer, 1);
    png.set_compression_strategy(writer, Z_RLE);
    png.set_IHDR(writer, info, width, height, depth, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_color palette[256];
    png_byte alpha[256];
    int last_opaque = -1;
    for (uint32_t index = 0; index < entries; index++) {
        palette[index].red = colormap[index * 4];
        palette[index].green = colormap[index * 4 + 1];
        palette[index].blue = colormap[index * 4 + 2];
        alpha[index] = colormap[index * 4 + 3];
        if (alpha[index] != 255) last_opaque = (int)index;
    }
    png.set_PLTE(writer, info, palette, (int)entries);
    if (last_opaque >= 0) png.set_tRNS(writer, info, alpha, last_opaque + 1, NULL);
    png.write_info(writer, info);
    if (depth == 8) {
        for (uint32_t row = 0; row < height; row++) png.write_row(writer, indexes + (size_t)row * width);
    } else {
        size_t per_byte = 8 / (size_t)depth, packed_width = (width + per_byte - 1) / per_byte;
        output->packed = malloc(packed_width);
        if (output->packed == NULL) {
            strncpy(output->message, "out of memory", sizeof output->message - 1);
            longjmp(output->jump, 1);
        }
        for (uint32_t row = 0; row < height; row++) {
            pack_row(indexes + (size_t)row * width, width, depth, output->packed);
            png.write_row(writer, output->packed);
        }
    }
    png.write_end(writer, info);
    png.destroy_write_struct(&writer, &info);
    *out = output->bytes;
    *out_size = output->size;
    free(output->packed);
    free(output);
    return 0;
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
