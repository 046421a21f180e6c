/* theme.h: the roles of everything drawn on screen, and themes: what each
 * role looks like, read from theme files without curses. The renderer gives
 * each row a role; the screen turns roles into colours and attributes. */
#ifndef AGENTVIEW_THEME_H
#define AGENTVIEW_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* X(name, theme-file name) */
#define ROLES(X) \
	X(NORMAL, "normal") \
	X(PROMPT, "user") \
	X(ASSISTANT, "assistant") \
	X(THINKING, "thinking") \
	X(SESSION, "session") \
	X(TOOL_OK, "tool_ok") \
	X(TOOL_FAILED, "tool_failed") \
	X(TOOL_REJECTED, "tool_rejected") \
	X(TOOL_ERROR, "tool_error") \
	X(TOOL_ORPHANED, "tool_orphaned") \
	X(RUNNING, "running") \
	X(NOTICE, "notice") \
	X(DIAG, "diagnostic") \
	X(STDERR, "stderr") \
	X(RESULT_OK, "result_ok") \
	X(RESULT_FAILED, "result_failed") \
	X(STATUS, "status") \
	X(STATUS_LIVE, "status_live") \
	X(STATUS_OK, "status_ok") \
	X(STATUS_FAILED, "status_failed") \
	X(STATUS_WARN, "status_warn") \
	X(TITLE, "title") \
	X(TITLE_FOCUS, "title_focus") \
	X(BORDER, "border") \
	X(SELECTION, "selection") \
	X(MATCH, "search_match") \
	X(MATCH_CURRENT, "search_current") \
	X(BAR_OK, "bar_ok") \
	X(BAR_FAILED, "bar_failed") \
	X(BAR_RUNNING, "bar_running") \
	X(BAR_ORPHANED, "bar_orphaned") \
	X(DIM, "dim") \
	X(MD_HEADING, "md_heading") \
	X(MD_STRONG, "md_strong") \
	X(MD_EM, "md_em") \
	X(MD_STRIKE, "md_strike") \
	X(MD_CODE, "md_code") \
	X(MD_CODE_BLOCK, "md_code_block") \
	X(MD_CODE_LANG, "md_code_lang") \
	X(MD_LINK, "md_link") \
	X(MD_URL, "md_url") \
	X(MD_MARK, "md_mark")

enum role {
#define X(name, str) ROLE_##name,
	ROLES(X)
#undef X
		ROLE_COUNT
};

/* A colour as a theme writes it: the terminal's own (THEME_DEFAULT), an
 * index of the 256-colour palette, or 24-bit RGB (THEME_RGB | 0xRRGGBB).
 * theme_color turns it into what the terminal has. */
#define THEME_DEFAULT (-1)
#define THEME_RGB 0x1000000

/* Attributes; the screen maps them to curses. */
enum {
	THEME_BOLD = 1 << 0,
	THEME_DIM = 1 << 1,
	THEME_UNDERLINE = 1 << 2,
	THEME_REVERSE = 1 << 3,
	THEME_ITALIC = 1 << 4,
	THEME_BLINK = 1 << 5,
};
/* All that NO_COLOR and --color never keep: these show on any terminal. */
#define THEME_MONO_ATTRS (THEME_BOLD | THEME_UNDERLINE | THEME_REVERSE)

struct theme_style {
	int32_t fg, bg;
	unsigned attr;
};

struct theme {
	struct theme_style style[ROLE_COUNT];
	bool set[ROLE_COUNT]; /* given by the theme file, not inherited */
};

/* The name of role r in theme files ("tool_failed"). */
const char *theme_role_name(enum role r);

/* The built-in dark default (themes/default.theme says the same), or the
 * built-in attributes-only one (themes/mono.theme); nothing marked set. */
void theme_init(struct theme *t, bool mono);

/* Parse theme text s[0..n) onto t: each line sets one role, the others
 * keep what t has. On an error t is left as it was, err gets
 * "file:line: message" and -1 is returned. */
int theme_parse(struct theme *t, const char *s, size_t n, const char *file, struct buf *err);

/* The directories searched for NAME.theme, in order: the user's
 * ($XDG_CONFIG_HOME/agentview/themes, else ~/.config/agentview/themes),
 * the installed ones (AGENTVIEW_DATADIR/themes), and the source tree's
 * themes/ beside the directory of exe (the build tree's src/agentview),
 * when exe is not NULL. Returns how many were put in dirs. */
#define THEME_DIRS_MAX 3
size_t theme_dirs(const char *exe, struct buf dirs[THEME_DIRS_MAX]);

/* Find theme name: a path when it holds a '/', else NAME.theme in the
 * first of theme_dirs that has it. 0 with the path in *path, or -1 with
 * the reason in err. */
int theme_find(const char *name, const char *exe, struct buf *path, struct buf *err);

/* Every name theme_load takes without a path (what --theme completes to):
 * the built-in ones and the NAME of each NAME.theme in theme_dirs, sorted,
 * each once, a line each. */
void theme_names(const char *exe, struct buf *out);

/* Find theme name and parse it onto t (see theme_find and theme_parse);
 * "default" and "mono" fall back to the built-in ones when no file has
 * them. On an error t is left as it was and -1 is returned. */
int theme_load(struct theme *t, const char *name, const char *exe, struct buf *err);

/* What to show without colours: the built-in mono theme, with the roles
 * that t sets by attributes alone (both colours default) kept, and every
 * attribute limited to THEME_MONO_ATTRS; a role kept that is left with no
 * attribute (italic alone) takes the built-in mono theme's. */
void theme_monochrome(const struct theme *t, struct theme *out);

/* The colour to ask a terminal of ncolors colours for: -1 (its default),
 * or an index below ncolors. 256 and more: RGB goes to the nearest entry
 * of the xterm palette; 16 or 8: anything goes to the nearest basic
 * colour (a grey to the nearest grey); under 8: always -1. */
int theme_color(int32_t c, int ncolors);

#endif
