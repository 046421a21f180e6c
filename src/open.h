/* open.h: what e and o open outside the viewer, without curses: the file a
 * tool call read or changed and the line to open it at, the command line
 * of the user's editor or pager, and the private temporary file a pager
 * reads. Paths in the stream are the agent's: they only ever go to a
 * program as an argument of its own, never through a shell's parsing. */
#ifndef AGENTVIEW_OPEN_H
#define AGENTVIEW_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "util.h"

/* The file of call c (a read, an edit, a write, ...) in path, made
 * absolute against its session's directory when it is relative and the
 * directory is known, and the line to open it at in *line (0: not known):
 * a read's first line, an edit's first changed line (from its diff, its
 * structured patch, or where its new text stands in the file now). False,
 * with the reason in why, when the call names no file. */
bool open_call_file(struct model *m, uint32_t c, struct buf *path, int64_t *line, struct buf *why);

/* path[0..n) made absolute against session s's directory when it is
 * relative and the directory is known; as it is otherwise. */
void open_resolve(struct model *m, uint32_t s, const char *path, size_t n, struct buf *out);

/* The new file's line of the first changed line of unified diff s[0..n)
 * (a deletion: the line after which it was); 0 when it has no hunk. */
int64_t open_diff_line(const char *s, size_t n);

/* The first line of file at which text (its first line) stands, read from
 * the file now; 0 when it cannot be read or the text is not there. */
int64_t open_find_line(const char *file, const char *text, size_t n);

/* The command line that runs program (the value of $VISUAL, $EDITOR or
 * $PAGER, which may hold arguments: "code -w", "less -R") on file, as
 * git runs its editor: sh -c 'PROGRAM "$@"' PROGRAM [+LINE] FILE, the
 * file a positional argument the shell never parses. line > 0 goes before
 * the file as +LINE for the editors that take it (vi, vim, nvim, nano,
 * emacs, micro, hx, ...), as -g FILE:LINE for VS Code and its kin, and is
 * left out for any other. A NULL-terminated array, freed with
 * open_argv_free. */
char **open_argv(const char *program, const char *file, int64_t line);
void open_argv_free(char **argv);

/* The editor to use: $VISUAL, else $EDITOR, else "vi" (empty values do
 * not count). The pager: $PAGER, else "less". */
const char *open_editor(void);
const char *open_pager(void);

/* Whether the program a command line starts with can be run: found in
 * $PATH, or an executable path. True when that cannot be told without a
 * shell (the line starts with quotes, a variable, an assignment). Its
 * first word in *name (for the message). */
bool open_program_found(const char *cmdline, struct buf *name);

/* Write s[0..n) to a new private file (mode 0600) in $TMPDIR or /tmp,
 * its path in path; -1 with the reason in err. The caller removes it. */
int open_temp(const char *s, size_t n, struct buf *path, struct buf *err);

#endif
