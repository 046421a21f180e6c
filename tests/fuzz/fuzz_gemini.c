/* fuzz_gemini.c: fuzz_model's harness with every line read by Gemini
 * CLI's adapter (agent_gemini.c), as --agent gemini does. Its dictionary,
 * fuzz_gemini.dict, holds that stream's words; its seeds are the Gemini
 * CLI captures of recordings/. */
#define FUZZ_AGENT AGENT_GEMINI
#include "fuzz_model.c"
