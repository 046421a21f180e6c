/* fuzz_cursor.c: fuzz_model's harness with every line read by Cursor
 * Agent's adapter (agent_cursor.c), as --agent cursor does. Its
 * dictionary, fuzz_cursor.dict, holds that stream's words; its seeds are
 * the Cursor recordings of recordings/ and the captures of
 * ../shared/corpus/. */
#define FUZZ_AGENT AGENT_CURSOR
#include "fuzz_model.c"
