/* test_theme.c: the theme file parser, colour downgrades, the shipped
 * themes, and where theme files are looked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "fixture.h"

#include "theme.h"

#define RGB(v) (THEME_RGB | (v))

/* Two themes are equal (fields only: the struct has padding). */
#define assert_theme_equal(a, b) \
	do { \
		assert_memory_equal((a)->style, (b)->style, sizeof(a)->style); \
		assert_memory_equal((a)->set, (b)->set, sizeof(a)->set); \
	} while (0)

/* Parse text onto the built-in default; the error text in err. */
static int
parse(struct theme *t, const char *text, struct buf *err)
{
	theme_init(t, false);
	return theme_parse(t, text, strlen(text), "x.theme", err);
}

static void
test_role_names(void **state)
{
	(void)state;
	assert_string_equal(theme_role_name(ROLE_PROMPT), "user");
	assert_string_equal(theme_role_name(ROLE_TOOL_FAILED), "tool_failed");
	assert_string_equal(theme_role_name(ROLE_MATCH), "search_match");
	for (int a = 0; a < ROLE_COUNT; a++) {
		assert_non_null(theme_role_name((enum role)a));
		for (int b = a + 1; b < ROLE_COUNT; b++)
			assert_string_not_equal(theme_role_name((enum role)a),
						theme_role_name((enum role)b));
	}
}

/* Every way to write a colour, and attributes. */
static void
test_parse_forms(void **state)
{
	struct theme t;
	struct buf err = {0};

	(void)state;
	assert_int_equal(parse(&t,
			       "user = red default bold\n"
			       "assistant = brightblue black\n"
			       "thinking = colour196 color17 dim italic\n"
			       "session = #5F87af #000000 underline reverse blink\n"
			       "tool_ok = default brightwhite none\n"
			       "tool_failed = RED Bold\n"
			       "tool_rejected = reverse\n"
			       "tool_error = bold cyan underline magenta\n"
			       "running = colour0 colour255\n"
			       "notice = red blue bold dim underline reverse italic blink none\n",
			       &err),
			 0);
	assert_int_equal(t.style[ROLE_PROMPT].fg, 1);
	assert_int_equal(t.style[ROLE_PROMPT].bg, THEME_DEFAULT);
	assert_int_equal(t.style[ROLE_PROMPT].attr, THEME_BOLD);
	assert_int_equal(t.style[ROLE_ASSISTANT].fg, 12);
	assert_int_equal(t.style[ROLE_ASSISTANT].bg, 0);
	assert_int_equal(t.style[ROLE_ASSISTANT].attr, 0);
	assert_int_equal(t.style[ROLE_THINKING].fg, 196);
	assert_int_equal(t.style[ROLE_THINKING].bg, 17);
	assert_int_equal(t.style[ROLE_THINKING].attr, THEME_DIM | THEME_ITALIC);
	assert_int_equal(t.style[ROLE_SESSION].fg, RGB(0x5f87af));
	assert_int_equal(t.style[ROLE_SESSION].bg, RGB(0x000000));
	assert_int_equal(t.style[ROLE_SESSION].attr, THEME_UNDERLINE | THEME_REVERSE | THEME_BLINK);
	assert_int_equal(t.style[ROLE_TOOL_OK].fg, THEME_DEFAULT);
	assert_int_equal(t.style[ROLE_TOOL_OK].bg, 15);
	assert_int_equal(t.style[ROLE_TOOL_OK].attr, 0);
	/* Names and attributes in any case; a missing background is the
	 * terminal's. */
	assert_int_equal(t.style[ROLE_TOOL_FAILED].fg, 1);
	assert_int_equal(t.style[ROLE_TOOL_FAILED].bg, THEME_DEFAULT);
	assert_int_equal(t.style[ROLE_TOOL_FAILED].attr, THEME_BOLD);
	/* Attributes alone: both colours default. */
	assert_int_equal(t.style[ROLE_TOOL_REJECTED].fg, THEME_DEFAULT);
	assert_int_equal(t.style[ROLE_TOOL_REJECTED].bg, THEME_DEFAULT);
	assert_int_equal(t.style[ROLE_TOOL_REJECTED].attr, THEME_REVERSE);
	/* Attributes may come between the colours: the first colour is the
	 * foreground, the second the background. */
	assert_int_equal(t.style[ROLE_TOOL_ERROR].fg, 6);
	assert_int_equal(t.style[ROLE_TOOL_ERROR].bg, 5);
	assert_int_equal(t.style[ROLE_TOOL_ERROR].attr, THEME_BOLD | THEME_UNDERLINE);
	assert_int_equal(t.style[ROLE_RUNNING].fg, 0);
	assert_int_equal(t.style[ROLE_RUNNING].bg, 255);
	/* Every attribute at once ("none" adds nothing). */
	assert_int_equal(t.style[ROLE_NOTICE].attr, THEME_BOLD | THEME_DIM | THEME_UNDERLINE |
							    THEME_REVERSE | THEME_ITALIC |
							    THEME_BLINK);
	buf_free(&err);
}

/* Comments, blank lines, CRLF, and a '#' that is a colour. */
static void
test_parse_comments(void **state)
{
	struct theme t, d;
	struct buf err = {0};

	(void)state;
	theme_init(&d, false);
	assert_int_equal(parse(&t,
			       "# a comment\n"
			       "   # an indented one, with = and purpel\n"
			       "\n"
			       "  \t \n"
			       "user = green # a comment after a line\n"
			       "assistant = #00ff00 #\n"
			       "thinking\t=\tyellow\tbold\r\n"
			       "session=blue\n"
			       "#user = purpel",
			       &err),
			 0);
	assert_int_equal(t.style[ROLE_PROMPT].fg, 2);
	assert_int_equal(t.style[ROLE_PROMPT].attr, 0);
	assert_int_equal(t.style[ROLE_ASSISTANT].fg, RGB(0x00ff00));
	assert_int_equal(t.style[ROLE_THINKING].fg, 3);
	assert_int_equal(t.style[ROLE_THINKING].attr, THEME_BOLD);
	assert_int_equal(t.style[ROLE_SESSION].fg, 4);
	/* Nothing but comments changes nothing. */
	assert_int_equal(parse(&t, "# only\n\n#comments\n", &err), 0);
	assert_theme_equal(&t, &d);
	assert_int_equal(parse(&t, "", &err), 0);
	assert_theme_equal(&t, &d);
	buf_free(&err);
}

/* A theme that sets some roles: the rest keep the default, and only the
 * roles given are marked set; a role given twice takes the last line. */
static void
test_parse_partial(void **state)
{
	struct theme t, d;
	struct buf err = {0};

	(void)state;
	theme_init(&d, false);
	assert_int_equal(parse(&t,
			       "tool_failed = colour160 default bold\n"
			       "selection = black colour220\n"
			       "selection = black colour226 bold\n",
			       &err),
			 0);
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (r == ROLE_TOOL_FAILED || r == ROLE_SELECTION) {
			assert_true(t.set[r]);
			continue;
		}
		assert_false(t.set[r]);
		assert_memory_equal(&t.style[r], &d.style[r], sizeof t.style[r]);
	}
	assert_int_equal(t.style[ROLE_TOOL_FAILED].fg, 160);
	assert_int_equal(t.style[ROLE_SELECTION].bg, 226);
	assert_int_equal(t.style[ROLE_SELECTION].attr, THEME_BOLD);
	buf_free(&err);
}

/* Every error names the file and the line, and leaves the theme as it
 * was, even when earlier lines were good. */
static void
test_parse_errors(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{"user = purpel\n", "x.theme:1: unknown colour 'purpel'"},
		{"# c\n\nuser = red\nfoo = red\n", "x.theme:4: unknown role 'foo'"},
		{"user = red\r\ntool-ok = red\r\n", "x.theme:2: unknown role 'tool-ok'"},
		{"user red\n", "x.theme:1: expected 'role = colours and attributes'"},
		{"\n\nuser =\n", "x.theme:3: no colours or attributes after '='"},
		{"user = # nothing\n", "x.theme:1: no colours or attributes after '='"},
		{"= red\n", "x.theme:1: no role before '='"},
		{"user thinking = red\n", "x.theme:1: one role name before '='"},
		{"user = #12345\n", "x.theme:1: bad colour '#12345': want #rrggbb"},
		{"user = #12345g\n", "x.theme:1: bad colour '#12345g': want #rrggbb"},
		{"user = #1234567\n", "x.theme:1: bad colour '#1234567': want #rrggbb"},
		{"user = red #comment\n", "x.theme:1: bad colour '#comment': want #rrggbb"},
		{"user = colour256\n", "x.theme:1: colour 'colour256' out of range: 0 to 255"},
		{"user = red color99999999999999999999\n",
		 "x.theme:1: colour 'color99999999999999999999' out of range: 0 to 255"},
		{"user = colourx\n", "x.theme:1: unknown colour 'colourx'"},
		{"user = colour\n", "x.theme:1: unknown colour 'colour'"},
		{"user = colour-1\n", "x.theme:1: unknown colour 'colour-1'"},
		{"user = bright\n", "x.theme:1: unknown colour 'bright'"},
		{"user = red blue green\n",
		 "x.theme:1: a third colour 'green': give a foreground and a background"},
		{"user = red blue bolt\n", "x.theme:1: unknown attribute 'bolt'"},
		{"user = red blue bold bold bold bold bold bold bold bold bold bold "
		 "bold bold bold bold bold\n",
		 "x.theme:1: too many words after '='"},
		/* What a file says is quoted harmlessly, and cut short. */
		{"user = red\nuser = \x1b]0;x\x07\n", "x.theme:2: unknown colour '?]0;x?'"},
		{"user = aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeee\n",
		 "x.theme:1: unknown colour 'aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd...'"},
	};
	struct buf err = {0};

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct theme t, d;

		theme_init(&t, false);
		theme_init(&d, false);
		if (theme_parse(&t, cases[i].text, strlen(cases[i].text), "x.theme", &err) != -1)
			fail_msg("case %zu parsed: %s", i, cases[i].text);
		assert_string_equal(err.p, cases[i].want);
		assert_theme_equal(&t, &d);
	}
	buf_free(&err);
}

/* Colours brought down to what the terminal has, with exact indices. */
static void
test_color_downgrade(void **state)
{
	(void)state;
	/* The terminal's default stays its default. */
	assert_int_equal(theme_color(THEME_DEFAULT, 256), -1);
	assert_int_equal(theme_color(THEME_DEFAULT, 8), -1);
	/* 24-bit to 256: cube points exactly, greys to the ramp. */
	assert_int_equal(theme_color(RGB(0xff0000), 256), 196);
	assert_int_equal(theme_color(RGB(0x5f87af), 256), 67);
	assert_int_equal(theme_color(RGB(0x000000), 256), 16);
	assert_int_equal(theme_color(RGB(0xffffff), 256), 231);
	assert_int_equal(theme_color(RGB(0x808080), 256), 244);
	assert_int_equal(theme_color(RGB(0x1c1c1c), 256), 234);
	/* Off the cube: the nearest point (#fa8072, salmon -> #ff875f). */
	assert_int_equal(theme_color(RGB(0xfa8072), 256), 209);
	/* Indices pass through when the terminal has them. */
	assert_int_equal(theme_color(196, 256), 196);
	assert_int_equal(theme_color(9, 16), 9);
	assert_int_equal(theme_color(3, 8), 3);
	/* To 16 and 8 colours: the nearest basic colour. */
	assert_int_equal(theme_color(RGB(0xff0000), 16), 9);
	assert_int_equal(theme_color(RGB(0xff0000), 8), 1);
	assert_int_equal(theme_color(196, 8), 1);
	assert_int_equal(theme_color(RGB(0x808080), 16), 8);
	assert_int_equal(theme_color(RGB(0x808080), 8), 7);
	assert_int_equal(theme_color(RGB(0x00005f), 8), 0);
	assert_int_equal(theme_color(RGB(0x303030), 8), 0);
	assert_int_equal(theme_color(RGB(0xc0c0c0), 16), 7);
	assert_int_equal(theme_color(28, 8), 2);   /* #008700 */
	assert_int_equal(theme_color(25, 8), 4);   /* #005faf */
	assert_int_equal(theme_color(214, 8), 3);  /* #ffaf00 */
	assert_int_equal(theme_color(252, 16), 7); /* #d0d0d0 */
	assert_int_equal(theme_color(12, 8), 4);   /* bright blue */
	assert_int_equal(theme_color(15, 8), 7);   /* bright white */
	/* 88-colour terminals count as 16. */
	assert_int_equal(theme_color(196, 88), 9);
	/* No colours: never a colour. */
	assert_int_equal(theme_color(1, 0), -1);
	assert_int_equal(theme_color(RGB(0xff0000), 2), -1);
}

/* Without colours: the mono look, plus the attribute-only lines of the
 * theme, limited to bold, underline and reverse. */
static void
test_monochrome(void **state)
{
	struct theme t, m, mono;
	struct buf err = {0};

	(void)state;
	theme_init(&mono, true);
	assert_int_equal(parse(&t,
			       "user = red default bold\n"
			       "selection = default default underline dim\n"
			       "thinking = italic\n"
			       "md_em = default default italic\n"
			       "md_url = dim\n",
			       &err),
			 0);
	theme_monochrome(&t, &m);
	/* A role with a colour falls back to mono... */
	assert_memory_equal(&m.style[ROLE_PROMPT], &mono.style[ROLE_PROMPT], sizeof m.style[0]);
	/* ... one with attributes alone keeps them, less dim and italic. */
	assert_int_equal(m.style[ROLE_SELECTION].attr, THEME_UNDERLINE);
	assert_int_equal(m.style[ROLE_THINKING].attr, 0);
	/* ... and one left with none takes mono's: emphasis stays seen. */
	assert_int_equal(m.style[ROLE_MD_EM].attr, THEME_UNDERLINE);
	assert_int_equal(m.style[ROLE_MD_URL].attr, 0);
	for (int r = 0; r < ROLE_COUNT; r++) {
		assert_int_equal(m.style[r].fg, THEME_DEFAULT);
		assert_int_equal(m.style[r].bg, THEME_DEFAULT);
		assert_int_equal(m.style[r].attr & ~(unsigned)THEME_MONO_ATTRS, 0);
	}
	/* The status bar and the selection stay visible. */
	theme_init(&t, false);
	theme_monochrome(&t, &m);
	assert_true(m.style[ROLE_SELECTION].attr & THEME_REVERSE);
	assert_true(m.style[ROLE_STATUS].attr & THEME_REVERSE);
	assert_true(m.style[ROLE_STATUS_FAILED].attr & THEME_REVERSE);
	buf_free(&err);
}

/* The shipped themes parse and set every role; default.theme and
 * mono.theme say what the built-in ones do. */
static void
test_shipped_themes(void **state)
{
	static const char *const files[] = {"themes/default.theme", "themes/light.theme",
					    "themes/mono.theme", "themes/high-contrast.theme"};
	struct buf err = {0};
	struct theme t, builtin;
	char *text;
	size_t n;

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		text = fixture_slurp(files[i], &n);
		theme_init(&t, false);
		if (theme_parse(&t, text, n, files[i], &err) != 0)
			fail_msg("%s", err.p);
		for (int r = 0; r < ROLE_COUNT; r++)
			if (!t.set[r])
				fail_msg("%s does not set %s", files[i],
					 theme_role_name((enum role)r));
		if (i == 0 || i == 2) {
			theme_init(&builtin, i == 2);
			for (int r = 0; r < ROLE_COUNT; r++)
				if (memcmp(&t.style[r], &builtin.style[r], sizeof t.style[r]) != 0)
					fail_msg("%s: %s differs from the built-in theme", files[i],
						 theme_role_name((enum role)r));
		}
		free(text);
	}
	/* light and high-contrast really differ from the default. */
	text = fixture_slurp("themes/light.theme", &n);
	theme_init(&t, false);
	assert_int_equal(theme_parse(&t, text, n, "light", &err), 0);
	theme_init(&builtin, false);
	assert_memory_not_equal(t.style, builtin.style, sizeof t.style);
	free(text);
	buf_free(&err);
}

/* A scratch directory for lookups; removed by rm_tree. */
static char scratch[64];

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* mkdir -p for a path under scratch. */
static void
make_dirs(const char *path)
{
	char p[512];

	snprintf(p, sizeof p, "%s", path);
	for (char *s = p + 1; *s != '\0'; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	}
	mkdir(p, 0700);
}

static int
setup_scratch(void **state)
{
	(void)state;
	snprintf(scratch, sizeof scratch, "%s/agentview-theme.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(scratch) == NULL ? -1 : 0;
}

static int
teardown_scratch(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
	return system(cmd) == 0 ? 0 : -1;
}

/* The directories, in order: the user's, the installed, the build tree. */
static void
test_dirs_order(void **state)
{
	struct buf d[THEME_DIRS_MAX] = {{0}};
	size_t n;

	(void)state;
	setenv("XDG_CONFIG_HOME", "/cfg", 1);
	setenv("HOME", "/home/u", 1);
	n = theme_dirs("/top/src/agentview", d);
	assert_int_equal(n, 3);
	assert_string_equal(d[0].p, "/cfg/agentview/themes");
	assert_string_equal(d[1].p, AGENTVIEW_DATADIR "/themes");
	assert_string_equal(d[2].p, "/top/themes");
	/* No XDG_CONFIG_HOME, or a relative one (the spec says to ignore
	 * it): ~/.config. */
	unsetenv("XDG_CONFIG_HOME");
	n = theme_dirs("./src/agentview", d);
	assert_int_equal(n, 3);
	assert_string_equal(d[0].p, "/home/u/.config/agentview/themes");
	assert_string_equal(d[2].p, "./themes");
	setenv("XDG_CONFIG_HOME", "rel", 1);
	n = theme_dirs(NULL, d);
	assert_int_equal(n, 2);
	assert_string_equal(d[0].p, "/home/u/.config/agentview/themes");
	assert_string_equal(d[1].p, AGENTVIEW_DATADIR "/themes");
	for (size_t i = 0; i < THEME_DIRS_MAX; i++)
		buf_free(&d[i]);
}

/* theme_find takes the user's file first, then the build tree's. */
static void
test_find(void **state)
{
	char xdg[256], tree[256], exe[256], path[300];
	struct buf found = {0}, err = {0};

	(void)state;
	snprintf(xdg, sizeof xdg, "%s/xdg", scratch);
	snprintf(tree, sizeof tree, "%s/tree", scratch);
	snprintf(exe, sizeof exe, "%s/tree/src/agentview", scratch);
	snprintf(path, sizeof path, "%s/agentview/themes", xdg);
	make_dirs(path);
	snprintf(path, sizeof path, "%s/themes", tree);
	make_dirs(path);
	snprintf(path, sizeof path, "%s/agentview/themes/zz-test.theme", xdg);
	write_file(path, "user = red\n");
	snprintf(path, sizeof path, "%s/themes/zz-test.theme", tree);
	write_file(path, "user = blue\n");
	setenv("XDG_CONFIG_HOME", xdg, 1);

	assert_int_equal(theme_find("zz-test", exe, &found, &err), 0);
	snprintf(path, sizeof path, "%s/agentview/themes/zz-test.theme", xdg);
	assert_string_equal(found.p, path);
	/* Without the user's copy, the build tree's. */
	unlink(path);
	assert_int_equal(theme_find("zz-test", exe, &found, &err), 0);
	snprintf(path, sizeof path, "%s/themes/zz-test.theme", tree);
	assert_string_equal(found.p, path);
	/* Nowhere: said so. */
	assert_int_equal(theme_find("zz-nosuch", exe, &found, &err), -1);
	assert_string_equal(err.p, "unknown theme 'zz-nosuch'");
	/* A path is taken as it is. */
	assert_int_equal(theme_find("./my.theme", exe, &found, &err), 0);
	assert_string_equal(found.p, "./my.theme");
	buf_free(&found);
	buf_free(&err);
}

/* qsort's order of strings. */
static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names --theme takes: the built-in ones, the installed ones and the
 * NAME.theme files of the user's and the build tree's folders, sorted,
 * each once; other files are not themes. */
static void
test_names(void **state)
{
	static const char *const files[] = {
		"names-xdg/agentview/themes/mine.theme", "names-xdg/agentview/themes/zz-test.theme",
		"names-xdg/agentview/themes/notes.txt",  "names-xdg/agentview/themes/.theme",
		"names-tree/themes/zz-test.theme",       "names-tree/themes/light.theme",
		"names-tree/themes/mono.theme",
	};
	char xdg[256], exe[256], path[300], *all[64];
	struct buf base = {0}, names = {0}, want = {0};
	size_t n = 0;

	(void)state;
	snprintf(xdg, sizeof xdg, "%s/names-xdg", scratch);
	snprintf(exe, sizeof exe, "%s/names-tree/src/agentview", scratch);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	/* Nothing of ours yet: the built-in ones, and any installed. */
	theme_names(exe, &base);
	assert_non_null(strstr(base.p, "default\n"));
	assert_non_null(strstr(base.p, "mono\n"));
	snprintf(path, sizeof path, "%s/agentview/themes", xdg);
	make_dirs(path);
	snprintf(path, sizeof path, "%s/names-tree/themes", scratch);
	make_dirs(path);
	for (size_t i = 0; i < ARRAY_LEN(files); i++) {
		snprintf(path, sizeof path, "%s/%s", scratch, files[i]);
		write_file(path, "user = red\n");
	}
	theme_names(exe, &names);
	/* What it should be: base and the three new names, sorted, once. */
	for (char *l = strtok(base.p, "\n"); l != NULL; l = strtok(NULL, "\n"))
		all[n++] = l;
	all[n++] = (char *)"mine";
	all[n++] = (char *)"zz-test";
	all[n++] = (char *)"light";
	qsort(all, n, sizeof *all, str_cmp);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(all[i], all[i - 1]) != 0)
			buf_addf(&want, "%s\n", all[i]);
	assert_string_equal(names.p, want.p);
	buf_free(&base);
	buf_free(&names);
	buf_free(&want);
}

/* theme_load parses what it finds; a bad file is reported with its line
 * (home shown as ~) and changes nothing; "default" needs no file. */
static void
test_load(void **state)
{
	char home[256], path[300], exe[256];
	struct theme t, d;
	struct buf err = {0};

	(void)state;
	snprintf(home, sizeof home, "%s/home", scratch);
	snprintf(path, sizeof path, "%s/.config/agentview/themes", home);
	make_dirs(path);
	snprintf(exe, sizeof exe, "%s/nowhere/src/agentview", scratch);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", home, 1);
	snprintf(path, sizeof path, "%s/.config/agentview/themes/good.theme", home);
	write_file(path, "# mine\nuser = #ff0000 default bold\n");
	snprintf(path, sizeof path, "%s/.config/agentview/themes/bad.theme", home);
	write_file(path, "# mine\nuser = red\n\nthinking = purpel\n");

	theme_init(&t, false);
	assert_int_equal(theme_load(&t, "good", exe, &err), 0);
	assert_int_equal(t.style[ROLE_PROMPT].fg, RGB(0xff0000));
	assert_true(t.set[ROLE_PROMPT]);

	theme_init(&t, false);
	theme_init(&d, false);
	assert_int_equal(theme_load(&t, "bad", exe, &err), -1);
	assert_string_equal(err.p,
			    "~/.config/agentview/themes/bad.theme:4: unknown colour 'purpel'");
	assert_theme_equal(&t, &d);

	assert_int_equal(theme_load(&t, "nosuch", exe, &err), -1);
	assert_string_equal(err.p, "unknown theme 'nosuch'");
	snprintf(path, sizeof path, "%s/missing.theme", scratch);
	assert_int_equal(theme_load(&t, path, exe, &err), -1);
	assert_non_null(strstr(err.p, "missing.theme: No such file"));
	assert_theme_equal(&t, &d);

	/* Built in: found in no directory, still there. */
	theme_init(&t, true);
	assert_int_equal(theme_load(&t, "default", exe, &err), 0);
	assert_memory_equal(t.style, d.style, sizeof t.style);
	assert_int_equal(theme_load(&t, "mono", exe, &err), 0);
	theme_init(&d, true);
	assert_memory_equal(t.style, d.style, sizeof t.style);
	buf_free(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_role_names),     cmocka_unit_test(test_parse_forms),
		cmocka_unit_test(test_parse_comments), cmocka_unit_test(test_parse_partial),
		cmocka_unit_test(test_parse_errors),   cmocka_unit_test(test_color_downgrade),
		cmocka_unit_test(test_monochrome),     cmocka_unit_test(test_shipped_themes),
		cmocka_unit_test(test_dirs_order),     cmocka_unit_test(test_find),
		cmocka_unit_test(test_names),          cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, setup_scratch, teardown_scratch);
}
