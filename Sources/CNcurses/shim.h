#ifndef ONTHEMAP_CNCURSES_SHIM_H
#define ONTHEMAP_CNCURSES_SHIM_H

// SwiftPM drops the -D flags that `pkg-config ncursesw` gives, so the wide-character API
// (cchar_t, get_wch, setcchar, mvaddwstr) must be switched on here.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <langinfo.h>
#include <curses.h>

// newterm, not initscr, on stdout and stdin: initscr ends the process when $TERM has no terminfo
// entry, where newterm returns NULL (and Swift 6 cannot name C's stdout and stdin).
static inline SCREEN *otm_newterm(const char *type) { return newterm(type, stdout, stdin); }

/// Whether this machine has a terminfo entry for `type`: a screen made and deleted on /dev/null,
/// the real terminal untouched.
static inline int otm_has_terminfo(const char *type) {
    FILE *null = fopen("/dev/null", "r+");
    if (null == NULL) return 0;
    SCREEN *screen = newterm(type, null, null);
    if (screen != NULL) delscreen(screen);
    fclose(null);
    return screen != NULL;
}

// Mutable C globals and function-like macros that Swift cannot import.
static inline WINDOW *otm_stdscr(void) { return stdscr; }
static inline int otm_lines(void) { return LINES; }
static inline int otm_cols(void) { return COLS; }
static inline int otm_color_pairs(void) { return COLOR_PAIRS; }
static inline int otm_colors(void) { return COLORS; }
static inline int otm_maxy(void) { int y, x; getmaxyx(stdscr, y, x); (void)x; return y; }
static inline int otm_maxx(void) { int y, x; getmaxyx(stdscr, y, x); (void)y; return x; }

static inline attr_t otm_a_normal(void) { return A_NORMAL; }
static inline attr_t otm_a_bold(void) { return A_BOLD; }
static inline attr_t otm_a_reverse(void) { return A_REVERSE; }
static inline attr_t otm_a_dim(void) { return A_DIM; }
static inline attr_t otm_a_underline(void) { return A_UNDERLINE; }

static inline int otm_key_code_yes(void) { return KEY_CODE_YES; }
static inline int otm_key_mouse(void) { return KEY_MOUSE; }
static inline int otm_key_resize(void) { return KEY_RESIZE; }
static inline int otm_key_btab(void) { return KEY_BTAB; }

static inline mmask_t otm_mouse_mask_clicks_wheel(void) {
    return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
        | BUTTON5_PRESSED
#endif
        ;
}
static inline int otm_is_click(mmask_t state) { return (state & (BUTTON1_CLICKED | BUTTON1_PRESSED)) != 0; }
static inline int otm_is_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int otm_is_wheel_down(mmask_t state) {
#ifdef BUTTON5_PRESSED
    return (state & BUTTON5_PRESSED) != 0;
#else
    return 0;
#endif
}

/// Draws one character (a 0-terminated wide string of one grapheme) with attributes and colour pair.
static inline int otm_put(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cell);
}

static inline int otm_codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    if (codeset == NULL) return 0;
    return (codeset[0] == 'U' || codeset[0] == 'u') && (codeset[1] == 'T' || codeset[1] == 't')
        && (codeset[2] == 'F' || codeset[2] == 'f');
}

#endif
