/* fleet_lines.h: the lines of Cursor sessions the tests of the session
 * list write into folders (test_fleet.c, test_listview.c), and the clock
 * they are read at. */
#ifndef AGENTVIEW_FLEET_LINES_H
#define AGENTVIEW_FLEET_LINES_H

/* 2026-11-23 00:00 UTC. */
#define NOW 1795392000000LL
#define MIN_MS 60000LL

#define INIT(id, cwd) \
	"{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"" cwd "\",\"session_id\":\"" id \
	"\",\"model\":\"Composer 2.5\"}\n"
#define USER(text) \
	"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" text \
	"\"}]}}\n"
#define START(id, cmd, ts) \
	"{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"" cmd \
	"\"}}},\"timestamp_ms\":" ts "}\n"
#define DONE(id, cmd, how, ts) \
	"{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"" id \
	"\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"" cmd \
	"\"},\"result\":{\"" how "\":{\"exitCode\":0}}}},\"timestamp_ms\":" ts "}\n"
#define RESULT(err, ms, text) \
	"{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":" ms ",\"is_error\":" err \
	",\"result\":\"" text "\",\"usage\":{\"inputTokens\":32000,\"outputTokens\":664}}\n"
#define ASK(ts) \
	"{\"type\":\"interaction_query\",\"subtype\":\"request\",\"query_type\":\"webFetchRequestQuery\",\"query\":{\"id\":1,\"webFetchRequestQuery\":{\"args\":{\"url\":\"https://example.com/\"}}},\"timestamp_ms\":" ts \
	"}\n"
#define ANSWER(ts) \
	"{\"type\":\"interaction_query\",\"subtype\":\"response\",\"query_type\":\"webFetchRequestQuery\",\"response\":{\"id\":1,\"webFetchRequestResponse\":{\"result\":{\"approved\":{}}}},\"timestamp_ms\":" ts \
	"}\n"
#define DELTA(ts) \
	"{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\" more words to pad the middle of the file\"}]},\"timestamp_ms\":" ts \
	"}\n"

/* Times in the lines: a session began at NOW - 10 min. */
#define T0 "1795391400000"
#define T1 "1795391460000"
#define T2 "1795391700000"

#endif
