// libchafa's terminal database, resolved with dlopen the first time it is asked (only when a
// terminal's answer settles nothing: GraphicsDetection.needsDatabase). The prototypes are chafa
// 1.12's (chafa-term-db.h, chafa-term-info.h), written with opaque pointers so that the build
// needs neither chafa's nor GLib's headers; the enum values are the places of
// CHAFA_TERM_SEQ_BEGIN_SIXELS (40), _BEGIN_KITTY_IMMEDIATE_IMAGE_V1 (43) and _BEGIN_ITERM2_IMAGE
// (47) in chafa-term-seq-def.h, which chafa only appends to.

#include <dlfcn.h>
#include <pthread.h>

#include "CChafa.h"

enum { OTM_CHAFA_SEQ_BEGIN_SIXELS = 40, OTM_CHAFA_SEQ_BEGIN_KITTY_IMAGE = 43, OTM_CHAFA_SEQ_BEGIN_ITERM2_IMAGE = 47 };

static struct {
    int loaded;
    void *(*term_db_get_default)(void);
    void (*term_info_unref)(void *);
    void *(*term_db_detect)(void *, char **);
    int (*term_info_have_seq)(const void *, int);
} chafa;

static pthread_once_t chafa_once = PTHREAD_ONCE_INIT;

static void load_chafa(void) {
    void *library = dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define RESOLVE(field, name)                                   \
    if ((*(void **)&chafa.field = dlsym(library, #name)) == NULL) return;
    RESOLVE(term_db_get_default, chafa_term_db_get_default)
    RESOLVE(term_info_unref, chafa_term_info_unref)
    RESOLVE(term_db_detect, chafa_term_db_detect)
    RESOLVE(term_info_have_seq, chafa_term_info_have_seq)
#undef RESOLVE
    chafa.loaded = 1;
}

int otm_chafa_available(void) {
    pthread_once(&chafa_once, load_chafa);
    return chafa.loaded;
}

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
