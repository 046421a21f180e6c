/* fuzz_copilot.c: fuzz_model's harness with every line read by Copilot
 * CLI's adapter (agent_copilot.c), as --agent copilot does. Its
 * dictionary, fuzz_copilot.dict, holds the words of its stream and store;
 * its seeds are the Copilot CLI captures of recordings/ and the session
 * files of tests/stores/copilot/. */
#define FUZZ_AGENT AGENT_COPILOT
#include "fuzz_model.c"
