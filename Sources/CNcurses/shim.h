#pragma once
// Swift-facing shim for the system ncursesw library.
//
// SwiftPM drops pkg-config's -D flags, so the wide-character API must be
// switched on here, before the include, or `wget_wch`, `setcchar`, `cchar_t`
// and friends are not imported at all.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncurses.h>
#include <wchar.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

// glibc only declares wcwidth under _XOPEN_SOURCE; a compatible redeclaration
// is harmless everywhere else.
extern int wcwidth(wchar_t c);

// MARK: - Globals Swift 6 rejects as not concurrency-safe (read them through functions)

static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline WINDOW *cn_curscr(void) { return curscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_escdelay(void) { return ESCDELAY; }
static inline FILE *cn_stdin(void) { return stdin; }
static inline FILE *cn_stdout(void) { return stdout; }

// MARK: - Attributes (function-like macros are not imported)

static inline attr_t cn_WA_NORMAL(void) { return WA_NORMAL; }
static inline attr_t cn_WA_BOLD(void) { return WA_BOLD; }
static inline attr_t cn_WA_DIM(void) { return WA_DIM; }
static inline attr_t cn_WA_REVERSE(void) { return WA_REVERSE; }
static inline attr_t cn_WA_UNDERLINE(void) { return WA_UNDERLINE; }
static inline chtype cn_A_NORMAL(void) { return A_NORMAL; }
static inline chtype cn_A_BOLD(void) { return A_BOLD; }
static inline chtype cn_A_DIM(void) { return A_DIM; }
static inline chtype cn_A_REVERSE(void) { return A_REVERSE; }
static inline chtype cn_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline chtype cn_A_COLOR(void) { return A_COLOR; }
static inline int cn_PAIR_NUMBER(attr_t attrs) { return (int)PAIR_NUMBER(attrs); }

// MARK: - Key codes

static inline int cn_KEY_CODE_YES(void) { return KEY_CODE_YES; }
static inline int cn_KEY_F(int n) { return KEY_F(n); }
static inline int cn_KEY_DOWN(void) { return KEY_DOWN; }
static inline int cn_KEY_UP(void) { return KEY_UP; }
static inline int cn_KEY_LEFT(void) { return KEY_LEFT; }
static inline int cn_KEY_RIGHT(void) { return KEY_RIGHT; }
static inline int cn_KEY_HOME(void) { return KEY_HOME; }
static inline int cn_KEY_END(void) { return KEY_END; }
static inline int cn_KEY_BACKSPACE(void) { return KEY_BACKSPACE; }
static inline int cn_KEY_DC(void) { return KEY_DC; }
static inline int cn_KEY_IC(void) { return KEY_IC; }
static inline int cn_KEY_NPAGE(void) { return KEY_NPAGE; }
static inline int cn_KEY_PPAGE(void) { return KEY_PPAGE; }
static inline int cn_KEY_ENTER(void) { return KEY_ENTER; }
static inline int cn_KEY_BTAB(void) { return KEY_BTAB; }
static inline int cn_KEY_RESIZE(void) { return KEY_RESIZE; }
static inline int cn_KEY_MOUSE(void) { return KEY_MOUSE; }
static inline int cn_KEY_SHOME(void) { return KEY_SHOME; }
static inline int cn_KEY_SEND(void) { return KEY_SEND; }

// MARK: - Mouse masks

static inline mmask_t cn_ALL_MOUSE_EVENTS(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t cn_BUTTON1_PRESSED(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_BUTTON1_RELEASED(void) { return BUTTON1_RELEASED; }
static inline mmask_t cn_BUTTON1_CLICKED(void) { return BUTTON1_CLICKED; }
static inline mmask_t cn_BUTTON2_PRESSED(void) { return BUTTON2_PRESSED; }
static inline mmask_t cn_BUTTON2_RELEASED(void) { return BUTTON2_RELEASED; }
static inline mmask_t cn_BUTTON2_CLICKED(void) { return BUTTON2_CLICKED; }
static inline mmask_t cn_BUTTON3_PRESSED(void) { return BUTTON3_PRESSED; }
static inline mmask_t cn_BUTTON3_RELEASED(void) { return BUTTON3_RELEASED; }
static inline mmask_t cn_BUTTON3_CLICKED(void) { return BUTTON3_CLICKED; }
static inline mmask_t cn_BUTTON4_PRESSED(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_BUTTON5_PRESSED(void) {
#ifdef BUTTON5_PRESSED
    return BUTTON5_PRESSED;
#else
    return 0;
#endif
}

// MARK: - Terminal size straight from the tty (catches a missed SIGWINCH)

/// Writes the tty's size into *rows / *cols; returns 0 on success, -1 when fd is no tty.
static inline int cn_tty_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) {
        return -1;
    }
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

// MARK: - Can this terminal show a full-screen interface?

#include <term.h>

// Looks `term` (NULL: $TERM) up in terminfo without starting curses and without touching the
// screen: 1 when it can move the cursor anywhere (has `cup`, is not hard-copy or generic),
// 0 when it cannot (TERM=dumb), -1 when terminfo does not know it (setupterm failed). The
// terminal description it loads is freed again, and the current one (if any) is restored.
static inline int cn_terminal_can_address_cursor(const char *term, int fd) {
    int error = 0;
    TERMINAL *saved = cur_term;
    if (setupterm((char *)term, fd, &error) != OK) {
        set_curterm(saved);
        return -1;
    }
    TERMINAL *loaded = cur_term;
    const char *cup = tigetstr("cup");
    int result = (cup != NULL && cup != (const char *)-1) ? 1 : 0;
    if (tigetflag("hc") > 0 || tigetflag("gn") > 0) result = 0;
    set_curterm(saved);
    del_curterm(loaded);
    return result;
}
