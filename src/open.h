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
 * absolute against its session's directory as open_resolve does (*abs:
 * whether it is absolute now), and the line to open it at in *line (0:
 * not known): a read's first line, an edit's first changed line (from its
 * diff, its structured patch, or where its new text stands in the file
 * now). False, with the reason in why, when the call names no file. */
bool open_call_file(struct model *m, uint32_t c, struct buf *path, bool *abs, int64_t *line,
		    struct buf *why);

/* path[0..n), appended to out, made absolute against session s's
 * directory when it is relative and the session says an absolute one.
 * True when what it appended is absolute; false when it is left relative
 * (a session without a directory, as Gemini CLI's and Codex's streams
 * are, or with one that is not absolute): the person is asked before it
 * is opened relative to agentview's own (open_here). */
bool open_resolve(struct model *m, uint32_t s, const char *path, size_t n, struct buf *out);

/* Relative path[0..n) made absolute against agentview's own directory:
 * the directory appended to dir, the path to out. False when the
 * directory cannot be told. */
bool open_here(const char *path, size_t n, struct buf *dir, struct buf *out);

/* The new file's line of the first changed line of unified diff s[0..n)
 * (a deletion: the line after which it was); 0 when it has no hunk. */
int64_t open_diff_line(const char *s, size_t n);

/* The first line of file at which text (its first line) stands, read from
 * the file now; 0 when it cannot be read or the text is not there. */
int64_t open_find_line(const char *file, const char *text, size_t n);

/* The one builder of an editor's or a pager's command line: program (the
 * value of $VISUAL, $EDITOR or $PAGER, which may hold arguments: "code
 * -w", "less -R") on file, as git runs its editor: sh -c 'PROGRAM "$@"'
 * PROGRAM ARGS..., the file an argument of its own that the shell never
 * parses. Nothing from the stream can be an option there: the file starts
 * with / or ./ whatever it is, and goes after -- for the programs known to
 * take it. line > 0 goes as +LINE for the editors that take it, before --
 * where their parser wants it (vi, vim, nvim, emacs, hx, kak: +LINE --
 * FILE) or after it (nano, micro, emacsclient: -- +LINE FILE); as -g
 * FILE:LINE for VS Code and its kin; and is left out for any other
 * program. A NULL-terminated array, freed with open_argv_free. */
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
