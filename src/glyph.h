/* glyph.h: every glyph agentview draws or prints, named, as UTF-8 string
 * literals (so they join other literals: "x" GLYPH_DOT "y"). Each reads
 * without colour; the screen, the printers and the tmux line share them. */
#ifndef AGENTVIEW_GLYPH_H
#define AGENTVIEW_GLYPH_H

/* States of a tool call, a session, a todo. */
#define GLYPH_OK "\xE2\x9C\x93"         /* ✓ */
#define GLYPH_FAILED "\xE2\x9C\x97"     /* ✗ */
#define GLYPH_REJECTED "\xE2\x8A\x98"   /* ⊘ */
#define GLYPH_RUNNING "\xE2\x80\xA6"    /* … */
#define GLYPH_LIVE "\xE2\x97\x8F"       /* ● */
#define GLYPH_INCOMPLETE "\xE2\x97\x8C" /* ◌ */
#define GLYPH_PENDING "\xE2\x97\x8B"    /* ○ */
#define GLYPH_WARN "\xE2\x9A\xA0"       /* ⚠ */
#define GLYPH_WAITING "\xE2\x8F\xB8"    /* ⏸ waiting for a decision */

/* Punctuation of the lines people read. */
#define GLYPH_DOT "\xC2\xB7"             /* · between the parts of a line */
#define GLYPH_ARROW "\xE2\x86\x92"       /* → what a command or a wait gave */
#define GLYPH_MINUS "\xE2\x88\x92"       /* − lines removed */
#define GLYPH_TIMES "\xC3\x97"           /* × a replay's speed */
#define GLYPH_ELLIPSIS "\xE2\x80\xA6"    /* … text cut short */
#define GLYPH_NEWLINE "\xE2\x86\xB5"     /* ↵ a newline in one-line text */
#define GLYPH_NEW "\xE2\x80\xA2"         /* • a list's row new since you looked */
#define GLYPH_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD for invalid bytes */

/* The transcript. */
#define GLYPH_PROMPT "\xE2\x9D\xAF"   /* ❯ before a prompt */
#define GLYPH_FOLDED "\xE2\x96\xB8"   /* ▸ folded thinking; a todo in progress */
#define GLYPH_UNFOLDED "\xE2\x96\xBE" /* ▾ unfolded thinking */

/* A reply's Markdown: list bullets by depth (1, 2, 3 and deeper). */
#define GLYPH_BULLET "\xE2\x80\xA2"   /* • */
#define GLYPH_BULLET_2 "\xE2\x97\xA6" /* ◦ */
#define GLYPH_BULLET_3 "\xE2\x96\xAA" /* ▪ */

/* Timeline bars, by call state. */
#define GLYPH_BAR_OK "\xE2\x96\x88"       /* █ */
#define GLYPH_BAR_FAILED "\xE2\x96\x93"   /* ▓ */
#define GLYPH_BAR_REJECTED "\xE2\x95\xB3" /* ╳ */
#define GLYPH_BAR_ORPHANED "\xE2\x94\x84" /* ┄ */
#define GLYPH_BAR_RUNNING "\xE2\x96\x92"  /* ▒ */

/* Lines and boxes. */
#define GLYPH_RULE "\xE2\x94\x80"   /* ─ */
#define GLYPH_VRULE "\xE2\x94\x82"  /* │ */
#define GLYPH_CROSS "\xE2\x94\xBC"  /* ┼ */
#define GLYPH_BOX_TL "\xE2\x94\x8C" /* ┌ */
#define GLYPH_BOX_TR "\xE2\x94\x90" /* ┐ */
#define GLYPH_BOX_BL "\xE2\x94\x94" /* └ */
#define GLYPH_BOX_BR "\xE2\x94\x98" /* ┘ */

/* The byte order mark a file may start with (not drawn: skipped). */
#define GLYPH_BOM "\xEF\xBB\xBF"

#endif
