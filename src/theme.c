/* theme.c: themes without curses: the built-in ones, the theme file parser,
 * where theme files are looked for, and colours brought down to what the
 * terminal has. */
#include "theme.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef AGENTVIEW_DATADIR
#define AGENTVIEW_DATADIR "/usr/local/share/agentview"
#endif

/* A theme file bigger than this is not a theme file. */
#define THEME_FILE_MAX (1u << 20)
/* Words quoted in messages are cut to this many bytes. */
#define QUOTE_MAX 40

static const char *const role_names[ROLE_COUNT] = {
#define X(name, str) [ROLE_##name] = str,
	ROLES(X)
#undef X
};

const char *
theme_role_name(enum role r)
{
	return (unsigned)r < ROLE_COUNT ? role_names[r] : "?";
}

/* --- the built-in themes --------------------------------------------------- */

enum { BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };
#define DEF THEME_DEFAULT
#define B THEME_BOLD
#define D THEME_DIM
#define U THEME_UNDERLINE
#define R THEME_REVERSE
#define I THEME_ITALIC

/* The dark default: what themes/default.theme says (a unit test keeps the
 * two equal). Here too so that the viewer looks right uninstalled. */
static const struct theme_style builtin_default[ROLE_COUNT] = {
	[ROLE_NORMAL] = {DEF, DEF, 0},
	[ROLE_PROMPT] = {CYAN, DEF, B},
	[ROLE_ASSISTANT] = {DEF, DEF, 0},
	[ROLE_THINKING] = {MAGENTA, DEF, D},
	[ROLE_SESSION] = {BLUE, DEF, B},
	[ROLE_TOOL_OK] = {GREEN, DEF, 0},
	[ROLE_TOOL_FAILED] = {RED, DEF, B},
	[ROLE_TOOL_REJECTED] = {YELLOW, DEF, 0},
	[ROLE_TOOL_ERROR] = {RED, DEF, 0},
	[ROLE_TOOL_ORPHANED] = {MAGENTA, DEF, 0},
	[ROLE_RUNNING] = {YELLOW, DEF, B},
	[ROLE_NOTICE] = {BLUE, DEF, 0},
	[ROLE_DIAG] = {RED, DEF, 0},
	[ROLE_STDERR] = {YELLOW, DEF, 0},
	[ROLE_RESULT_OK] = {GREEN, DEF, B},
	[ROLE_RESULT_FAILED] = {RED, DEF, B},
	[ROLE_STATUS] = {WHITE, BLUE, 0},
	[ROLE_STATUS_LIVE] = {BLACK, CYAN, B},
	[ROLE_STATUS_OK] = {BLACK, GREEN, B},
	[ROLE_STATUS_FAILED] = {WHITE, RED, B},
	[ROLE_STATUS_WARN] = {BLACK, YELLOW, B},
	[ROLE_TITLE] = {DEF, DEF, B},
	[ROLE_TITLE_FOCUS] = {BLACK, WHITE, B},
	[ROLE_BORDER] = {BLUE, DEF, 0},
	[ROLE_SELECTION] = {DEF, DEF, R},
	[ROLE_MATCH] = {BLACK, YELLOW, 0},
	[ROLE_MATCH_CURRENT] = {DEF, DEF, R | B},
	[ROLE_BAR_OK] = {GREEN, DEF, 0},
	[ROLE_BAR_FAILED] = {RED, DEF, 0},
	[ROLE_BAR_RUNNING] = {YELLOW, DEF, B},
	[ROLE_BAR_ORPHANED] = {MAGENTA, DEF, 0},
	[ROLE_DIM] = {DEF, DEF, D},
	[ROLE_MD_HEADING] = {DEF, DEF, B | U},
	[ROLE_MD_STRONG] = {DEF, DEF, B},
	[ROLE_MD_EM] = {DEF, DEF, I},
	[ROLE_MD_STRIKE] = {DEF, DEF, D},
	[ROLE_MD_CODE] = {CYAN, DEF, 0},
	[ROLE_MD_CODE_BLOCK] = {GREEN, DEF, 0},
	[ROLE_MD_CODE_LANG] = {DEF, DEF, D},
	[ROLE_MD_LINK] = {BLUE, DEF, U},
	[ROLE_MD_URL] = {DEF, DEF, D},
	[ROLE_MD_MARK] = {BLUE, DEF, 0},
};

/* Attributes only, and only those every terminal shows (themes/mono.theme
 * says the same). States differ by glyph; status bar and selection are
 * reverse video; Markdown's emphasis and links are underlined, code spans
 * bold, as man pages show them. */
static const struct theme_style builtin_mono[ROLE_COUNT] = {
	[ROLE_NORMAL] = {DEF, DEF, 0},
	[ROLE_PROMPT] = {DEF, DEF, B},
	[ROLE_ASSISTANT] = {DEF, DEF, 0},
	[ROLE_THINKING] = {DEF, DEF, 0},
	[ROLE_SESSION] = {DEF, DEF, B},
	[ROLE_TOOL_OK] = {DEF, DEF, 0},
	[ROLE_TOOL_FAILED] = {DEF, DEF, B},
	[ROLE_TOOL_REJECTED] = {DEF, DEF, U},
	[ROLE_TOOL_ERROR] = {DEF, DEF, B | U},
	[ROLE_TOOL_ORPHANED] = {DEF, DEF, 0},
	[ROLE_RUNNING] = {DEF, DEF, B},
	[ROLE_NOTICE] = {DEF, DEF, 0},
	[ROLE_DIAG] = {DEF, DEF, B},
	[ROLE_STDERR] = {DEF, DEF, 0},
	[ROLE_RESULT_OK] = {DEF, DEF, B},
	[ROLE_RESULT_FAILED] = {DEF, DEF, B | U},
	[ROLE_STATUS] = {DEF, DEF, R},
	[ROLE_STATUS_LIVE] = {DEF, DEF, R | B},
	[ROLE_STATUS_OK] = {DEF, DEF, R | B},
	[ROLE_STATUS_FAILED] = {DEF, DEF, R | B | U},
	[ROLE_STATUS_WARN] = {DEF, DEF, R | B},
	[ROLE_TITLE] = {DEF, DEF, B},
	[ROLE_TITLE_FOCUS] = {DEF, DEF, R | B},
	[ROLE_BORDER] = {DEF, DEF, 0},
	[ROLE_SELECTION] = {DEF, DEF, R},
	[ROLE_MATCH] = {DEF, DEF, B | U},
	[ROLE_MATCH_CURRENT] = {DEF, DEF, R | B},
	[ROLE_BAR_OK] = {DEF, DEF, 0},
	[ROLE_BAR_FAILED] = {DEF, DEF, B},
	[ROLE_BAR_RUNNING] = {DEF, DEF, B},
	[ROLE_BAR_ORPHANED] = {DEF, DEF, 0},
	[ROLE_DIM] = {DEF, DEF, 0},
	[ROLE_MD_HEADING] = {DEF, DEF, B | U},
	[ROLE_MD_STRONG] = {DEF, DEF, B},
	[ROLE_MD_EM] = {DEF, DEF, U},
	[ROLE_MD_STRIKE] = {DEF, DEF, 0},
	[ROLE_MD_CODE] = {DEF, DEF, B},
	[ROLE_MD_CODE_BLOCK] = {DEF, DEF, 0},
	[ROLE_MD_CODE_LANG] = {DEF, DEF, U},
	[ROLE_MD_LINK] = {DEF, DEF, U},
	[ROLE_MD_URL] = {DEF, DEF, 0},
	[ROLE_MD_MARK] = {DEF, DEF, 0},
};

#undef DEF
#undef B
#undef D
#undef U
#undef R
#undef I

void
theme_init(struct theme *t, bool mono)
{
	memcpy(t->style, mono ? builtin_mono : builtin_default, sizeof t->style);
	memset(t->set, 0, sizeof t->set);
}

void
theme_monochrome(const struct theme *t, struct theme *out)
{
	theme_init(out, true);
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct theme_style *st = &t->style[r];

		if (t->set[r] && st->fg == THEME_DEFAULT && st->bg == THEME_DEFAULT &&
		    (st->attr == 0 || (st->attr & THEME_MONO_ATTRS) != 0)) {
			out->style[r] = *st;
			out->set[r] = true;
		}
		out->style[r].attr &= THEME_MONO_ATTRS;
	}
}

/* --- colours --------------------------------------------------------------- */

/* xterm's 16 basic colours: the reference for "nearest". */
static const uint8_t basic_rgb[16][3] = {
	{0, 0, 0},       {205, 0, 0},   {0, 205, 0},   {205, 205, 0},
	{0, 0, 238},     {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0},   {0, 255, 0},   {255, 255, 0},
	{92, 92, 255},   {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
};

/* The six levels of each component in the 6x6x6 cube (16-231). */
static const uint8_t cube_level[6] = {0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff};

/* Squared distance between two RGB colours: enough to compare. */
static int
dist_sq(int r1, int g1, int b1, int r2, int g2, int b2)
{
	return (r1 - r2) * (r1 - r2) + (g1 - g2) * (g1 - g2) + (b1 - b2) * (b1 - b2);
}

/* The RGB value of palette entry i (0-255) on an xterm. */
static void
index_rgb(int i, int rgb[3])
{
	if (i < 16) {
		for (int k = 0; k < 3; k++)
			rgb[k] = basic_rgb[i][k];
	} else if (i < 232) {
		i -= 16;
		rgb[0] = cube_level[i / 36];
		rgb[1] = cube_level[i / 6 % 6];
		rgb[2] = cube_level[i % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (i - 232);
	}
}

/* The cube level nearest to component v (the levels are not evenly
 * spaced: 0, 95, then steps of 40). */
static int
cube_index(int v)
{
	if (v < 48)
		return 0;
	if (v < 115)
		return 1;
	return (v - 35) / 40;
}

/* The nearest of xterm's 256 colours to r, g, b: the nearest point of the
 * cube, or of the grey ramp when that is closer. */
static int
rgb_to_256(int r, int g, int b)
{
	int qr = cube_index(r), qg = cube_index(g), qb = cube_index(b);
	int cr = cube_level[qr], cg = cube_level[qg], cb = cube_level[qb];
	int cube = 16 + 36 * qr + 6 * qg + qb;
	int avg = (r + g + b) / 3, grey_i, grey;

	if (cr == r && cg == g && cb == b)
		return cube;
	grey_i = avg > 238 ? 23 : MAX(0, avg - 3) / 10;
	grey = 8 + 10 * grey_i;
	if (dist_sq(grey, grey, grey, r, g, b) < dist_sq(cr, cg, cb, r, g, b))
		return 232 + grey_i;
	return cube;
}

/* The nearest of the first n (8 or 16) basic colours. A grey goes to the
 * nearest grey (black, white and the bright ones): by distance alone mid
 * grey would be yellow, as the eight colours have no grey between. */
static int
rgb_to_basic(int r, int g, int b, int n)
{
	int best = 0, bestd = INT_MAX;
	int hi = MAX(r, MAX(g, b)), lo = MIN(r, MIN(g, b));
	bool grey = hi - lo < 32;

	for (int i = 0; i < n; i++) {
		int d;

		if (grey && i != 0 && i != 7 && i != 8 && i != 15)
			continue;
		d = dist_sq(basic_rgb[i][0], basic_rgb[i][1], basic_rgb[i][2], r, g, b);
		if (d < bestd) {
			best = i;
			bestd = d;
		}
	}
	return best;
}

int
theme_color(int32_t c, int ncolors)
{
	int rgb[3], n;

	if (c < 0 || ncolors < 8)
		return -1;
	if (c & THEME_RGB) {
		rgb[0] = (c >> 16) & 0xff;
		rgb[1] = (c >> 8) & 0xff;
		rgb[2] = c & 0xff;
		if (ncolors >= 256)
			return rgb_to_256(rgb[0], rgb[1], rgb[2]);
	} else {
		/* Palettes of 88 or 16 colours differ from xterm's above 15. */
		if (c < ncolors && (ncolors >= 256 || c < 16))
			return c;
		index_rgb(c & 0xff, rgb);
	}
	n = ncolors >= 16 ? 16 : 8;
	return rgb_to_basic(rgb[0], rgb[1], rgb[2], n);
}

/* --- the parser ------------------------------------------------------------ */

struct word {
	const char *p;
	size_t n;
};

/* Word w is s, in any case (names are case-insensitive, as in tmux). */
static bool
word_is(struct word w, const char *s)
{
	return strlen(s) == w.n && strncasecmp(w.p, s, w.n) == 0;
}

/* Append w quoted for a message: cut short, controls as '?'. */
static void
add_quoted(struct buf *b, struct word w)
{
	buf_addc(b, '\'');
	for (size_t i = 0; i < w.n && i < QUOTE_MAX; i++) {
		unsigned char c = (unsigned char)w.p[i];

		buf_addc(b, c < 0x20 || c == 0x7f ? '?' : (char)c);
	}
	if (w.n > QUOTE_MAX)
		buf_adds(b, "...");
	buf_addc(b, '\'');
}

/* Set err to "file:line: what 'word'rest". */
static int
parse_error(struct buf *err, const char *file, int line, const char *what, const struct word *w,
	    const char *rest)
{
	buf_reset(err);
	buf_addf(err, "%s:%d: %s", file, line, what);
	if (w != NULL) {
		buf_addc(err, ' ');
		add_quoted(err, *w);
	}
	if (rest != NULL)
		buf_adds(err, rest);
	return -1;
}

/* The value of hex digit c, or -1. */
static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

enum word_kind { W_COLOR, W_ATTR, W_BAD_HEX, W_RANGE, W_UNKNOWN };

/* What word w is: a colour (*color) or an attribute (*attr, 0 for none). */
static enum word_kind
classify(struct word w, int32_t *color, unsigned *attr)
{
	static const char *const names[8] = {"black", "red",     "green", "yellow",
					     "blue",  "magenta", "cyan",  "white"};
	static const struct {
		const char *name;
		unsigned attr;
	} attrs[] = {
		{"none", 0},
		{"bold", THEME_BOLD},
		{"dim", THEME_DIM},
		{"underline", THEME_UNDERLINE},
		{"reverse", THEME_REVERSE},
		{"italic", THEME_ITALIC},
		{"blink", THEME_BLINK},
	};
	size_t skip = 0;

	for (size_t i = 0; i < ARRAY_LEN(attrs); i++) {
		if (word_is(w, attrs[i].name)) {
			*attr = attrs[i].attr;
			return W_ATTR;
		}
	}
	if (word_is(w, "default")) {
		*color = THEME_DEFAULT;
		return W_COLOR;
	}
	for (int i = 0; i < 8; i++) {
		struct word rest = {w.p + 6, w.n >= 6 ? w.n - 6 : 0};

		if (word_is(w, names[i])) {
			*color = i;
			return W_COLOR;
		}
		if (w.n > 6 && strncasecmp(w.p, "bright", 6) == 0 && word_is(rest, names[i])) {
			*color = 8 + i;
			return W_COLOR;
		}
	}
	if (w.n > 0 && w.p[0] == '#') {
		int32_t v = 0;

		if (w.n != 7)
			return W_BAD_HEX;
		for (size_t i = 1; i < 7; i++) {
			int d = hex_digit(w.p[i]);

			if (d < 0)
				return W_BAD_HEX;
			v = v << 4 | d;
		}
		*color = THEME_RGB | v;
		return W_COLOR;
	}
	if (w.n > 6 && strncasecmp(w.p, "colour", 6) == 0)
		skip = 6;
	else if (w.n > 5 && strncasecmp(w.p, "color", 5) == 0)
		skip = 5;
	if (skip > 0) {
		long v = 0;

		for (size_t i = skip; i < w.n; i++) {
			if (w.p[i] < '0' || w.p[i] > '9')
				return W_UNKNOWN;
			if (v <= 255)
				v = v * 10 + (w.p[i] - '0');
		}
		if (v > 255)
			return W_RANGE;
		*color = (int32_t)v;
		return W_COLOR;
	}
	return W_UNKNOWN;
}

/* Blanks between words; a CR is one too, so CRLF files read alike. */
static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Split s[0..n) into blank-separated words; returns how many (at most
 * max; *more is set when there were more). */
static size_t
split_words(const char *s, size_t n, struct word *w, size_t max, bool *more)
{
	size_t k = 0, i = 0;

	*more = false;
	while (i < n) {
		size_t start;

		while (i < n && is_blank(s[i]))
			i++;
		if (i >= n)
			break;
		start = i;
		while (i < n && !is_blank(s[i]))
			i++;
		if (k == max) {
			*more = true;
			break;
		}
		w[k].p = s + start;
		w[k].n = i - start;
		k++;
	}
	return k;
}

/* The length of line s[0..n) without its comment: a line whose first
 * non-blank is '#', or from a '#' that starts a word and is followed by a
 * blank or the end (a '#' followed by anything else is a colour). */
static size_t
strip_comment(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && is_blank(s[i]))
		i++;
	if (i < n && s[i] == '#')
		return 0;
	for (; i < n; i++)
		if (s[i] == '#' && is_blank(s[i - 1]) && (i + 1 == n || is_blank(s[i + 1])))
			return i;
	return n;
}

/* Parse one line (comment stripped, not empty) onto t. */
static int
parse_line(struct theme *t, const char *s, size_t n, const char *file, int line, struct buf *err)
{
	const char *eq = memchr(s, '=', n);
	/* Two colours and every attribute fit, with room to spare. */
	struct word role[2], w[16];
	struct theme_style st = {THEME_DEFAULT, THEME_DEFAULT, 0};
	size_t nrole, nw, ncolor = 0;
	bool more;
	int r;

	if (eq == NULL)
		return parse_error(err, file, line, "expected 'role = colours and attributes'",
				   NULL, NULL);
	nrole = split_words(s, (size_t)(eq - s), role, 2, &more);
	if (nrole != 1)
		return parse_error(err, file, line,
				   nrole == 0 ? "no role before '='" : "one role name before '='",
				   NULL, NULL);
	for (r = 0; r < ROLE_COUNT; r++)
		if (word_is(role[0], role_names[r]))
			break;
	if (r == ROLE_COUNT)
		return parse_error(err, file, line, "unknown role", &role[0], NULL);
	nw = split_words(eq + 1, n - (size_t)(eq + 1 - s), w, ARRAY_LEN(w), &more);
	if (nw == 0)
		return parse_error(err, file, line, "no colours or attributes after '='", NULL,
				   NULL);
	if (more)
		return parse_error(err, file, line, "too many words after '='", NULL, NULL);
	for (size_t i = 0; i < nw; i++) {
		int32_t color = THEME_DEFAULT;
		unsigned attr = 0;

		switch (classify(w[i], &color, &attr)) {
		case W_ATTR:
			st.attr |= attr;
			break;
		case W_COLOR:
			if (ncolor == 2)
				return parse_error(err, file, line, "a third colour", &w[i],
						   ": give a foreground and a background");
			if (ncolor++ == 0)
				st.fg = color;
			else
				st.bg = color;
			break;
		case W_BAD_HEX:
			return parse_error(err, file, line, "bad colour", &w[i], ": want #rrggbb");
		case W_RANGE:
			return parse_error(err, file, line, "colour", &w[i],
					   " out of range: 0 to 255");
		case W_UNKNOWN:
			return parse_error(err, file, line,
					   ncolor < 2 ? "unknown colour" : "unknown attribute",
					   &w[i], NULL);
		}
	}
	t->style[r] = st;
	t->set[r] = true;
	return 0;
}

int
theme_parse(struct theme *t, const char *s, size_t n, const char *file, struct buf *err)
{
	struct theme next = *t;
	size_t i = 0;
	int line = 0;

	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl != NULL ? (size_t)(nl - s) : n;
		size_t len = strip_comment(s + i, end - i);

		line++;
		while (len > 0 && is_blank(s[i + len - 1]))
			len--;
		if (len > 0 && parse_line(&next, s + i, len, file, line, err) != 0)
			return -1;
		i = end + 1;
	}
	*t = next;
	return 0;
}

/* --- finding and loading --------------------------------------------------- */

/* Put the directory part of path (without a trailing '/') in out, or "."
 * when there is none. */
static void
path_dir(struct buf *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	buf_reset(out);
	if (slash == NULL)
		buf_adds(out, ".");
	else if (slash == path)
		buf_adds(out, "/");
	else
		buf_add(out, path, (size_t)(slash - path));
}

size_t
theme_dirs(const char *exe, struct buf dirs[THEME_DIRS_MAX])
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	size_t n = 0;

	/* The XDG spec ignores a relative XDG_CONFIG_HOME. */
	if (xdg != NULL && xdg[0] == '/') {
		buf_reset(&dirs[n]);
		buf_addf(&dirs[n++], "%s/agentview/themes", xdg);
	} else if (home != NULL && home[0] != '\0') {
		buf_reset(&dirs[n]);
		buf_addf(&dirs[n++], "%s/.config/agentview/themes", home);
	}
	buf_reset(&dirs[n]);
	buf_adds(&dirs[n++], AGENTVIEW_DATADIR "/themes");
	if (exe != NULL && strchr(exe, '/') != NULL) {
		struct buf d = {0};

		/* src/agentview -> themes/ */
		path_dir(&d, exe);
		path_dir(&dirs[n], d.p);
		buf_adds(&dirs[n++], "/themes");
		buf_free(&d);
	}
	return n;
}

int
theme_find(const char *name, const char *exe, struct buf *path, struct buf *err)
{
	struct buf dirs[THEME_DIRS_MAX] = {{0}};
	size_t n;
	int found = -1;

	buf_reset(path);
	if (strchr(name, '/') != NULL) {
		buf_adds(path, name);
		return 0;
	}
	n = theme_dirs(exe, dirs);
	for (size_t i = 0; i < n && found < 0; i++) {
		buf_reset(path);
		buf_addf(path, "%s/%s.theme", dirs[i].p, name);
		if (access(path->p, F_OK) == 0)
			found = 0;
	}
	for (size_t i = 0; i < THEME_DIRS_MAX; i++)
		buf_free(&dirs[i]);
	if (found < 0) {
		buf_reset(path);
		buf_reset(err);
		buf_addf(err, "unknown theme '%s'", name);
	}
	return found;
}

/* The path of this program, for the build tree's themes; NULL if unknown. */
static const char *
exe_path(char *out, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", out, size - 1);

	if (n <= 0 || (size_t)n >= size - 1)
		return NULL;
	out[n] = '\0';
	return out;
}

/* Read the file at path (called shown in messages) into out, at most
 * THEME_FILE_MAX bytes. */
static int
read_file(const char *path, const char *shown, struct buf *out, struct buf *err)
{
	FILE *f = fopen(path, "r");
	char chunk[4096];
	size_t n;
	bool bad;

	buf_reset(out);
	buf_reset(err);
	if (f == NULL) {
		buf_addf(err, "%s: %s", shown, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (out->n + n > THEME_FILE_MAX) {
			fclose(f);
			buf_addf(err, "%s: too big for a theme file", shown);
			return -1;
		}
		buf_add(out, chunk, n);
	}
	bad = ferror(f) != 0;
	if (bad)
		buf_addf(err, "%s: %s", shown, strerror(errno));
	fclose(f);
	return bad ? -1 : 0;
}

/* path with the home directory shown as "~", for short messages. */
static void
path_pretty(struct buf *out, const char *path)
{
	const char *home = getenv("HOME");
	size_t n = home != NULL ? strlen(home) : 0;

	buf_reset(out);
	if (n > 1 && strncmp(path, home, n) == 0 && path[n] == '/') {
		buf_addc(out, '~');
		path += n;
	}
	buf_adds(out, path);
}

int
theme_load(struct theme *t, const char *name, const char *exe, struct buf *err)
{
	struct buf path = {0}, text = {0}, shown = {0};
	char self[4096];
	int rc = -1;

	if (exe == NULL)
		exe = exe_path(self, sizeof self);
	if (theme_find(name, exe, &path, err) != 0) {
		/* The built-in ones need no file. */
		if (strcmp(name, "default") == 0 || strcmp(name, "mono") == 0) {
			theme_init(t, name[0] == 'm');
			rc = 0;
		}
		goto done;
	}
	path_pretty(&shown, path.p);
	if (read_file(path.p, shown.p, &text, err) != 0)
		goto done;
	rc = theme_parse(t, text.p ? text.p : "", text.n, shown.p, err);
done:
	buf_free(&path);
	buf_free(&text);
	buf_free(&shown);
	return rc;
}

/* qsort's order of names. */
static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add to names (n of them, room for cap) each NAME of a NAME.theme in dir. */
static void
names_in(const char *dir, char ***names, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		if (len <= 6 || strcmp(e->d_name + len - 6, ".theme") != 0 ||
		    strchr(e->d_name, '\n') != NULL)
			continue;
		ARRAY_RESERVE(*names, *cap, *n + 1);
		(*names)[(*n)++] = xstrndup(e->d_name, len - 6);
	}
	closedir(d);
}

void
theme_names(const char *exe, struct buf *out)
{
	struct buf dirs[THEME_DIRS_MAX] = {{0}};
	char self[4096], **names = NULL;
	size_t n = 0, cap = 0, ndirs;

	if (exe == NULL)
		exe = exe_path(self, sizeof self);
	ndirs = theme_dirs(exe, dirs);
	for (size_t i = 0; i < ndirs; i++)
		names_in(dirs[i].p, &names, &n, &cap);
	/* The built-in ones need no file. */
	ARRAY_RESERVE(names, cap, n + 2);
	names[n++] = xstrdup("default");
	names[n++] = xstrdup("mono");
	qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(names[i], names[i - 1]) != 0)
			buf_addf(out, "%s\n", names[i]);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	for (size_t i = 0; i < THEME_DIRS_MAX; i++)
		buf_free(&dirs[i]);
}
