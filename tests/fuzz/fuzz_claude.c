/* fuzz_claude.c: fuzz_model's harness with every line read by Claude
 * Code's adapter (agent_claude.c), as --agent claude does. Its dictionary,
 * fuzz_claude.dict, holds that stream's words; its seeds are the Claude
 * Code captures of recordings/. */
#define FUZZ_AGENT AGENT_CLAUDE
#include "fuzz_model.c"
