/* fuzz_codex.c: fuzz_model's harness with every line read by Codex's
 * adapter (agent_codex.c), as --agent codex does. Its dictionary,
 * fuzz_codex.dict, holds that stream's words; its seeds are the Codex
 * captures of recordings/. */
#define FUZZ_AGENT AGENT_CODEX
#include "fuzz_model.c"
