/* copy.h: what leaves the viewer through the clipboard (y and Y): a tool
 * call's command, path or output, a prompt or a reply as the agent wrote
 * them, the command that resumes a session, and the OSC 52 sequence that
 * hands any of it to the terminal's clipboard. Every text is raw UTF-8 as
 * the stream has it (not sanitized: it goes to the clipboard, base64
 * encoded, never to the screen). No curses. */
#ifndef AGENTVIEW_COPY_H
#define AGENTVIEW_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "util.h"

/* Bytes one OSC 52 sequence carries at most: its base64 stays under the
 * 1 MiB tmux takes in one sequence (INPUT_BUF_LIMIT), and under what most
 * terminals take. */
#define COPY_MAX (512u << 10)

/* Append call c's target: a shell's command (without Codex's `bash -lc`
 * around it), a file's path as the agent gave it, a search's pattern.
 * Returns what it is ("command", "path", "pattern", "target"), or NULL
 * (nothing appended) when the call has none. */
const char *copy_call_target(struct model *m, uint32_t c, struct buf *out);

/* Append call c's output whole: a shell's stdout and stderr (or the text
 * the agent got back), a read's content, an edit's diff, else the text the
 * agent got back or the result as JSON. Returns what it is ("output",
 * "content", "diff", "result"), or NULL (nothing appended) when the call
 * has no output (yet). */
const char *copy_call_output(struct model *m, uint32_t c, struct buf *out);

/* Append what item it says: a prompt's or a reply's text, thinking, a
 * session's id, a line that is not JSON, a notice's words; a tool call's
 * target (copy_call_target). Returns what it is ("prompt", "reply", ...),
 * or NULL when there is nothing to take. */
const char *copy_item(struct model *m, uint32_t it, struct buf *out);

/* Append the command that resumes session s with its agent's CLI:
 * `cursor-agent --resume ID`, `claude --resume ID`, `gemini --resume ID`,
 * `codex resume ID`, after `cd DIR && ` when the session's directory is
 * known (Claude Code, Gemini CLI and Codex look sessions up by it). ID and
 * DIR are quoted for a POSIX shell when they need it. False (nothing
 * appended) when the stream does not say the session's id. */
bool copy_resume(struct model *m, uint32_t s, struct buf *out);

/* Append s[0..n) quoted for a POSIX shell: as it is when it is made of
 * characters no shell reads specially, else in single quotes. */
void copy_shell_quote(struct buf *out, const char *s, size_t n);

/* Append the OSC 52 sequence that puts s[0..n) on the clipboard (ESC ] 52
 * ; c ; BASE64 BEL), at most max bytes of it, cut before a UTF-8
 * character that would not fit. Returns the bytes it carries. */
size_t copy_osc52(struct buf *out, const char *s, size_t n, size_t max);

#endif
