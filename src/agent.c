/* agent.c: the adapters, and which one reads a line. */
#include "agent.h"

#include <string.h>

#include "json.h"

/* In the order sessions are recognised: the most particular start first
 * (a Claude Code init is a Cursor init with more in it). */
static const struct agent *const agents[AGENT_COUNT] = {
	[AGENT_CURSOR] = &agent_cursor,
};

const struct agent *
agent_get(unsigned a)
{
	return a < AGENT_COUNT ? agents[a] : agents[AGENT_CURSOR];
}

int
agent_find(const char *name)
{
	for (unsigned a = 0; a < AGENT_COUNT; a++)
		if (strcmp(agents[a]->name, name) == 0)
			return (int)a;
	return -1;
}

int
agent_starts(const struct json *j, const int *k)
{
	for (unsigned a = 0; a < AGENT_COUNT; a++)
		if (agents[a]->starts(j, k))
			return (int)a;
	return -1;
}

unsigned
agent_guess(const struct json *j, const int *k)
{
	for (unsigned a = 0; a < AGENT_COUNT; a++)
		if (a != AGENT_CURSOR && agents[a]->looks(j, k))
			return a;
	return AGENT_CURSOR;
}

int64_t
agent_ms(const struct json *j, int t)
{
	int64_t v;

	if (t >= 0 && json_int(j, t, &v) && v >= 0)
		return v;
	return TIME_NONE;
}

void
agent_message_text(const struct json *j, struct buf *out)
{
	int c = json_path(j, 0, "message.content");
	int n, t;

	if (json_type(j, c) == JSON_STRING) {
		json_decode(j, c, out);
		return;
	}
	if (json_type(j, c) != JSON_ARRAY)
		return;
	n = json_size(j, c);
	t = c + 1;
	for (int i = 0; i < n; i++, t = json_next(j, t)) {
		if (json_type(j, t) == JSON_OBJECT) {
			int txt = json_get(j, t, "text");

			if (json_type(j, txt) == JSON_STRING)
				json_decode(j, txt, out);
		} else if (json_type(j, t) == JSON_STRING) {
			json_decode(j, t, out);
		}
	}
}
