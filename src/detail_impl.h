/* detail_impl.h: what the files of the detail module share, and no other
 * file includes: the rows a builder writes (detail.c) and the reading of
 * the call's events, for the builders of the kinds (detail_kind.c). */
#ifndef AGENTVIEW_DETAIL_IMPL_H
#define AGENTVIEW_DETAIL_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "detail.h"
#include "json.h"
#include "theme.h"

/* detail_build (detail_kind.c) is detail_begin, detail_head, the kind's
 * builder when detail_head says so, and detail_end. Begin the rows of call
 * c at width cells (raw: as JSON). */
void detail_begin(struct detail *d, uint32_t c, int width, bool raw);
/* The rows every call has (its header; unless raw, how it ended), the
 * call's pieces loaded into v; true when its kind's builder is to draw the
 * rest: it has one (built) and the call is one it draws (a rejected one
 * only when it draws those: rejected). Else the rows are done: the raw
 * JSON, or the arguments and result as they are. */
bool detail_head(struct detail *d, uint32_t c, bool raw, bool built, bool rejected,
		 struct callview *v);
/* The rows are done: the last one says what was cut, if anything. */
void detail_end(struct detail *d);

/* Room left for text; false once it is spent, the `rest` bytes that
 * came then counted as not shown (the cut's row says how many). */
bool detail_room(struct detail *d, size_t rest);
/* A blank row between sections, never two in a row. */
void detail_blank(struct detail *d);
/* Raw text s[0..n), sanitized and wrapped at the width less indent; the
 * first row starts with `lead` (raw, shown dim) and the rows after it are
 * indented by the lead's width instead. */
void detail_wrap(struct detail *d, const char *s, size_t n, enum role role, int indent,
		 const char *lead);
/* A section title on a row of its own, after a blank row; the row it is
 * on. */
size_t detail_heading(struct detail *d, const char *s);
/* The rows from `row` to the last one are section `name` (a literal: what
 * y says it copied), whose raw text is s[0..n): kept as far as the
 * detail's bytes go. NULL when there is no such row. */
struct dsection *detail_take(struct detail *d, const char *name, size_t row, const char *s,
			     size_t n);
/* "label       value", the value wrapped under itself. */
void detail_field(struct detail *d, const char *label, const char *v, size_t n, enum role role);
/* A field whose value is formatted. */
void detail_fieldf(struct detail *d, const char *label, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Text as lines numbered from `first`, each wrapped under itself. */
void detail_numbered(struct detail *d, const char *s, size_t n, int64_t first);
/* A file's text under a heading, numbered from `first`: section `title`
 * (a literal), whose rows give the line they show (e opens it there). */
void detail_numbered_section(struct detail *d, const char *title, const char *s, size_t n,
			     int64_t first);
/* A unified diff, each line in the role of its sign. */
void detail_diff(struct detail *d, const char *s, size_t n);
/* A unified diff under heading `title`: section `name` (a literal). */
void detail_diff_section(struct detail *d, const char *title, const char *name, const char *s,
			 size_t n);
/* Token t of j as indented JSON. */
void detail_json(struct detail *d, const struct json *j, int t);
/* Token t of j as indented JSON under a heading: section `title` (a
 * literal). */
void detail_json_section(struct detail *d, const char *title, const struct json *j, int t);

/* Append string token t decoded (no more than the detail holds) to out;
 * false when t is not a string. */
bool detail_tok(const struct json *j, int t, struct buf *out);
/* The decoded string at path under obj into out (reset); false when it
 * is absent or not a string. A path may name several spellings of one
 * field, "a|b" (agents name them their own way): the first present. */
bool detail_str(const struct json *j, int obj, const char *path, struct buf *out);
/* A field from a string at path under obj, when present and not empty. */
bool detail_field_at(struct detail *d, const char *label, const struct json *j, int obj,
		     const char *path);
/* The same, the field a section of its own (its label, a literal, the
 * name). */
bool detail_field_taken(struct detail *d, const char *label, const struct json *j, int obj,
			const char *path);
/* A field from a primitive (number, bool) or string at path. */
bool detail_field_prim(struct detail *d, const char *label, const struct json *j, int obj,
		       const char *path, const char *unit);
/* A section of text under a heading, when the string is there: section
 * `title` (a literal). */
bool detail_section(struct detail *d, const char *title, const struct json *j, int obj,
		    const char *path, bool skip_empty);
/* Text under a heading: string token t, or the texts of array t's parts
 * (strings, or objects with a text: Claude Code's content blocks); false
 * (nothing shown) when there is none. Section `title` (a literal). */
bool detail_parts(struct detail *d, const char *title, const struct json *j, int t);
/* The call's result text (callview.text) so; false when it has none. */
bool detail_output(struct detail *d, const char *title, const struct callview *v);
/* The result variant is `name` (success, failure, rejected, error). */
bool detail_variant(const struct callview *v, const char *name);

#endif
