/* detail_impl.h: what the files of the detail module share, and no other
 * file includes: the rows a builder writes (detail.c) and the reading of
 * the call's facts, for the builders of the kinds (detail_kind.c). */
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
		 struct call_facts *v);
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
/* Append path p[0..n) as a diff's header names it: an absolute one
 * relative to the session's folder when it is under it. */
void detail_diff_path(struct detail *d, const char *p, size_t n, struct buf *out);
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
/* The same of a fact (a token, maybe only its part, or words). */
bool detail_fact_tok(const struct factval *f, struct buf *out);
/* Fact f of v, a string, decoded (no more than the detail holds) into
 * out (reset); false when it is none. */
bool detail_fact(struct call_facts *v, enum call_fact f, struct buf *out);
/* The same of an element's fact. */
bool detail_elem(const struct elem_facts *e, enum elem_fact f, struct buf *out);
/* A field from fact f, a string, when it is there and not empty. */
bool detail_field_of(struct detail *d, const char *label, struct call_facts *v, enum call_fact f);
/* The same, the field a section of its own (its label, a literal, the
 * name). */
bool detail_field_taken(struct detail *d, const char *label, struct call_facts *v,
			enum call_fact f);
/* A field from fact f, a value (a number, true, a string), with a unit
 * after it (NULL: none); false, and no field, for false, null or "". */
bool detail_field_value(struct detail *d, const char *label, struct call_facts *v, enum call_fact f,
			const char *unit);
/* A section of text under a heading, when fact f is a string: section
 * `title` (a literal). */
bool detail_section(struct detail *d, const char *title, struct call_facts *v, enum call_fact f,
		    bool skip_empty);
/* Text under a heading: fact f, a string, or the texts of its parts
 * (FL_PARTS); false (nothing shown) when there is none. Section `title`
 * (a literal). */
bool detail_parts(struct detail *d, const char *title, struct call_facts *v, enum call_fact f);
/* The text the call gave (CALL_TEXT) so; false when it has none. */
bool detail_output(struct detail *d, const char *title, struct call_facts *v);
/* Whether the call's completion is there with a result of its own or a
 * text: what a kind's builder shows after its arguments. */
bool detail_has_result(struct call_facts *v);

#endif
