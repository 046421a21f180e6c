/* fuzz_cursor_transcript.c: fuzz_model's harness with every line read by
 * the adapter of Cursor Agent's own transcripts
 * (agent_cursor_transcript.c), as --agent cursor-transcript does. Its
 * dictionary, fuzz_cursor_transcript.dict, holds their words; its seeds
 * are the transcripts of tests/stores/cursor/. */
#define FUZZ_AGENT AGENT_CURSOR_TRANSCRIPT
#include "fuzz_model.c"
