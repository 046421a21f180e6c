/* copy.h: what leaves the viewer through the clipboard (y and Y): a tool
 * call's command, path or output, a prompt or a reply as the agent wrote
 * them, the command that resumes a session, and the OSC 52 sequence that
 * hands any of it to the terminal's clipboard. The texts are raw, as the
 * stream has them; copy_gate makes of one what the clipboard gets, and
 * copy_shell decides what may reach a shell. No curses. */
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
 * `codex resume ID`, `copilot --resume ID`, after `cd -- DIR && ` when the session's directory is
 * known (Claude Code, Gemini CLI and Codex look sessions up by it; a
 * relative one as ./DIR), DIR quoted for a POSIX shell when it needs it.
 * Only for an id of the shape the agents' ids have
 * ([A-Za-z0-9][A-Za-z0-9._-]*) and a directory copy_shell takes as a
 * word: else false, nothing appended, and the reason in why. */
bool copy_resume(struct model *m, uint32_t s, struct buf *out, struct buf *why);

/* copy_resume for a session on another machine (host NULL: this one):
 * `ssh -t [-p PORT] HOST 'cd -- DIR && claude --resume ID'`, the command
 * copy_resume makes quoted once for the remote shell, ssh's words those of
 * $AGENTVIEW_SSH when it is set (as agentview runs ssh). False, nothing
 * appended, the reason in why, when copy_resume is, or host is not one
 * remote_host_ok takes, or port is not digits. */
bool copy_resume_on(struct model *m, uint32_t s, const char *host, const char *port,
		    struct buf *out, struct buf *why);

/* How a text goes to a shell: a command as typed (tabs and newlines are
 * its own), or one word, quoted, on one line. */
enum copy_shell {
	COPY_SHELL_LINE,
	COPY_SHELL_WORD,
};

/* The one gate between a stream's text and a shell. Append s[0..n) as
 * `how` says: a command as it is, a word as it is when no shell reads any
 * of its characters specially, else in single quotes. False, nothing
 * appended, when the screen would not show it as it is: a control
 * character (but a command's tabs and newlines), an invalid UTF-8 byte, a
 * bidi control; the same for a word's tab or newline. */
bool copy_shell(struct buf *out, const char *s, size_t n, enum copy_shell how);

/* What the clipboard gets of s[0..n), which is `what` (the words of
 * copy_item, copy_call_target, copy_call_output, a detail's section):
 * what the screen shows of it (text_sanitize: secrets hidden while they
 * are, every control character but tab and newline made visible, "^C",
 * "^[", "\u009B"), appended to out: of a long text, no more than twice
 * what OSC 52 carries (COPY_MAX). Any text may be pasted into a
 * terminal: none carries a byte that acts there, nor the end of a
 * bracketed paste. A text meant for a shell ("command", "resume command")
 * that copy_shell would not take, or that OSC 52 would carry cut (a part
 * of a command is another command), is refused whole: false, nothing
 * appended, the reason in why. */
bool copy_gate(const char *what, const char *s, size_t n, struct buf *out, struct buf *why);

/* Append the OSC 52 sequence that puts s[0..n) on the clipboard (ESC ] 52
 * ; c ; BASE64 BEL), at most max bytes of it, cut before a UTF-8
 * character that would not fit. Returns the bytes it carries. */
size_t copy_osc52(struct buf *out, const char *s, size_t n, size_t max);

#endif
