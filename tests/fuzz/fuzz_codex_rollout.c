/* fuzz_codex_rollout.c: fuzz_model's harness with every line read by the
 * adapter of Codex's rollouts (agent_codex_rollout.c), as --agent
 * codex-rollout does. Its dictionary, fuzz_codex_rollout.dict, holds their
 * words; its seeds are the rollouts of tests/stores/codex/. */
#define FUZZ_AGENT AGENT_CODEX_ROLLOUT
#include "fuzz_model.c"
