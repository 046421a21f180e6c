/* theme.h: the roles of everything drawn on screen. The renderer gives
 * each row a role; the screen turns roles into colours and attributes. */
#ifndef AGENTVIEW_THEME_H
#define AGENTVIEW_THEME_H

/* X(name, theme-file name) */
#define ROLES(X)                                                               \
	X(NORMAL, "normal")                                                    \
	X(PROMPT, "user")                                                      \
	X(ASSISTANT, "assistant")                                              \
	X(THINKING, "thinking")                                                \
	X(SESSION, "session")                                                  \
	X(TOOL_OK, "tool_ok")                                                  \
	X(TOOL_FAILED, "tool_failed")                                          \
	X(TOOL_REJECTED, "tool_rejected")                                      \
	X(TOOL_ERROR, "tool_error")                                            \
	X(TOOL_ORPHANED, "tool_orphaned")                                      \
	X(RUNNING, "running")                                                  \
	X(NOTICE, "notice")                                                    \
	X(DIAG, "diagnostic")                                                  \
	X(STDERR, "stderr")                                                    \
	X(RESULT_OK, "result_ok")                                              \
	X(RESULT_FAILED, "result_failed")                                      \
	X(STATUS, "status")                                                    \
	X(STATUS_LIVE, "status_live")                                          \
	X(STATUS_OK, "status_ok")                                              \
	X(STATUS_FAILED, "status_failed")                                      \
	X(STATUS_WARN, "status_warn")                                          \
	X(TITLE, "title")                                                      \
	X(TITLE_FOCUS, "title_focus")                                          \
	X(BORDER, "border")                                                    \
	X(SELECTION, "selection")                                              \
	X(MATCH, "search_match")                                               \
	X(BAR_OK, "bar_ok")                                                    \
	X(BAR_FAILED, "bar_failed")                                            \
	X(BAR_RUNNING, "bar_running")                                          \
	X(BAR_ORPHANED, "bar_orphaned")                                        \
	X(DIM, "dim")

enum role {
#define X(name, str) ROLE_##name,
	ROLES(X)
#undef X
	ROLE_COUNT
};

#endif
