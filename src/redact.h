/* redact.h: secrets hidden in what agentview shows and prints. Well-known
 * shapes of API keys and tokens (gitleaks' default rules the checklist),
 * private key blocks, the values of names that hold secrets (PASSWORD=,
 * "api_key": …, X-Api-Key:, Authorization:, Cookie:, --password …),
 * passwords in URLs and command lines, plus the user's patterns (POSIX
 * ERE), each replaced by "[redacted]"; found in the text as it is and as
 * it reads with JSON's \u escapes decoded. No curses. */
#ifndef AGENTVIEW_REDACT_H
#define AGENTVIEW_REDACT_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define REDACTED "[redacted]"

struct redact;

/* A redactor of the well-known shapes and no user pattern yet. */
struct redact *redact_new(void);
void redact_free(struct redact *r);
/* Add the POSIX extended regular expression ere; false, with regcomp's
 * words in err, when it does not compile. */
bool redact_add(struct redact *r, const char *ere, struct buf *err);

/* When s[0..n) holds a secret, append it to out with every secret replaced
 * by REDACTED (overlapping ones as one) and return true; otherwise leave
 * out alone and return false. */
bool redact_text(const struct redact *r, const char *s, size_t n, struct buf *out);

/* Where to cut s[0..n) to keep at most max bytes: on a character's start
 * and, while a redactor is in use (on or off: R may hide them later),
 * before any secret the cut would go through, so that no secret's start
 * is kept. Every cut of stream text before it is shown goes here. */
size_t redact_cut(const char *s, size_t n, size_t max);
/* How far past a cut redact_cut looks: a caller that holds only part of
 * a text keeps this much more of it. */
#define REDACT_CUT_SLACK (16u << 10)

/* Append s[0..n) to out quoted as a JSON string, its secrets out while
 * the redactor in use is on: what JSON outputs write event text with. */
void redact_json_quote(struct buf *out, const char *s, size_t n);

/* The redactor every output applies (text_sanitize, the JSON summary),
 * set by main, and whether it is on (--redact); the viewer's key turns it
 * off and on (redact_toggle, which says whether it is on now). */
void redact_use(const struct redact *r, bool on);
bool redact_toggle(void);
/* The redactor in use while it is on, or NULL. */
const struct redact *redact_active(void);

#endif
