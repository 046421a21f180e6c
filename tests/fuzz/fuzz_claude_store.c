/* fuzz_claude_store.c: fuzz_model's harness with every line read by the
 * adapter of Claude Code's own transcripts (agent_claude_store.c), as
 * --agent claude-store does. Its dictionary, fuzz_claude_store.dict,
 * holds their words; its seeds are the transcripts of tests/stores/claude/. */
#define FUZZ_AGENT AGENT_CLAUDE_STORE
#include "fuzz_model.c"
