// libchafa's canvas in Sixel mode, resolved with dlopen the first time a Sixel picture is asked
// for. The prototypes are chafa 1.12's (chafa-canvas.h, chafa-canvas-config.h, chafa-term-db.h),
// written with opaque pointers so that the build needs neither chafa's nor GLib's headers; the
// enum values are chafa's: CHAFA_PIXEL_MODE_SIXELS = 1, CHAFA_PIXEL_RGBA8_UNASSOCIATED = 4, and
// the places of CHAFA_TERM_SEQ_BEGIN_SIXELS (40), _BEGIN_KITTY_IMMEDIATE_IMAGE_V1 (43) and
// _BEGIN_ITERM2_IMAGE (47) in chafa-term-seq-def.h, which chafa only appends to.

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "CChafa.h"

typedef struct otm_gstring {
    char *str;
    size_t len;
    size_t allocated_len;
} otm_gstring;

enum { OTM_CHAFA_PIXEL_MODE_SIXELS = 1, OTM_CHAFA_PIXEL_RGBA8_UNASSOCIATED = 4 };
enum { OTM_CHAFA_SEQ_BEGIN_SIXELS = 40, OTM_CHAFA_SEQ_BEGIN_KITTY_IMAGE = 43, OTM_CHAFA_SEQ_BEGIN_ITERM2_IMAGE = 47 };

static struct {
    int loaded;
    void *(*config_new)(void);
    void (*config_unref)(void *);
    void (*config_set_geometry)(void *, int, int);
    void (*config_set_cell_geometry)(void *, int, int);
    void (*config_set_pixel_mode)(void *, int);
    void *(*canvas_new)(const void *);
    void (*canvas_unref)(void *);
    void (*draw_all_pixels)(void *, int, const uint8_t *, int, int, int);
    otm_gstring *(*print)(void *, void *);
    void *(*term_db_get_default)(void);
    void *(*term_db_get_fallback_info)(void *);
    void (*term_info_unref)(void *);
    void *(*term_db_detect)(void *, char **);
    int (*term_info_have_seq)(const void *, int);
    char *(*g_string_free)(otm_gstring *, int);
} chafa;

static pthread_once_t chafa_once = PTHREAD_ONCE_INIT;

static void load_chafa(void) {
    void *library = dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    // GLib comes with libchafa (its dependency): g_string_free frees what chafa_canvas_print made.
    void *glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (glib == NULL) return;
#define RESOLVE(handle, field, name)                           \
    if ((*(void **)&chafa.field = dlsym(handle, #name)) == NULL) return;
    RESOLVE(library, config_new, chafa_canvas_config_new)
    RESOLVE(library, config_unref, chafa_canvas_config_unref)
    RESOLVE(library, config_set_geometry, chafa_canvas_config_set_geometry)
    RESOLVE(library, config_set_cell_geometry, chafa_canvas_config_set_cell_geometry)
    RESOLVE(library, config_set_pixel_mode, chafa_canvas_config_set_pixel_mode)
    RESOLVE(library, canvas_new, chafa_canvas_new)
    RESOLVE(library, canvas_unref, chafa_canvas_unref)
    RESOLVE(library, draw_all_pixels, chafa_canvas_draw_all_pixels)
    RESOLVE(library, print, chafa_canvas_print)
    RESOLVE(library, term_db_get_default, chafa_term_db_get_default)
    RESOLVE(library, term_db_get_fallback_info, chafa_term_db_get_fallback_info)
    RESOLVE(library, term_info_unref, chafa_term_info_unref)
    RESOLVE(library, term_db_detect, chafa_term_db_detect)
    RESOLVE(library, term_info_have_seq, chafa_term_info_have_seq)
    RESOLVE(glib, g_string_free, g_string_free)
#undef RESOLVE
    chafa.loaded = 1;
}

int otm_chafa_available(void) {
    pthread_once(&chafa_once, load_chafa);
    return chafa.loaded;
}

int otm_chafa_sixel(const uint8_t *pixels, int width, int height, int columns, int rows, int cell_width,
                    int cell_height, char **out, size_t *out_size) {
    if (!otm_chafa_available()) return -1;
    void *config = chafa.config_new();
    chafa.config_set_pixel_mode(config, OTM_CHAFA_PIXEL_MODE_SIXELS);
    chafa.config_set_geometry(config, columns, rows);
    chafa.config_set_cell_geometry(config, cell_width, cell_height);
    void *canvas = chafa.canvas_new(config);
    chafa.draw_all_pixels(canvas, OTM_CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels, width, height, width * 4);
    // The fallback terminal: every sequence chafa knows, Sixel's included (the caller decided
    // the terminal shows Sixel).
    void *info = chafa.term_db_get_fallback_info(chafa.term_db_get_default());
    otm_gstring *text = chafa.print(canvas, info);
    chafa.term_info_unref(info);
    chafa.canvas_unref(canvas);
    chafa.config_unref(config);
    if (text == NULL) return -2;
    char *copy = malloc(text->len + 1);
    if (copy != NULL) {
        memcpy(copy, text->str, text->len);
        copy[text->len] = 0;
        *out = copy;
        *out_size = text->len;
    }
    chafa.g_string_free(text, 1);
    return copy == NULL ? -2 : 0;
}

void otm_chafa_free(void *pointer) { free(pointer); }

int otm_chafa_detect(char **environment) {
    if (!otm_chafa_available()) return -1;
    void *info = chafa.term_db_detect(chafa.term_db_get_default(), environment);
    if (info == NULL) return 0;
    int found = 0;
    if (chafa.term_info_have_seq(info, OTM_CHAFA_SEQ_BEGIN_SIXELS)) found |= OTM_CHAFA_SIXEL;
    if (chafa.term_info_have_seq(info, OTM_CHAFA_SEQ_BEGIN_KITTY_IMAGE)) found |= OTM_CHAFA_KITTY;
    if (chafa.term_info_have_seq(info, OTM_CHAFA_SEQ_BEGIN_ITERM2_IMAGE)) found |= OTM_CHAFA_ITERM;
    chafa.term_info_unref(info);
    return found;
}
