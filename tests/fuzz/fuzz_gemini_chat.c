/* fuzz_gemini_chat.c: fuzz_model's harness with every line read by the
 * adapter of Gemini CLI's chats (agent_gemini_chat.c), as --agent
 * gemini-chat does. Its dictionary, fuzz_gemini_chat.dict, holds their
 * words; its seeds are the chats of tests/stores/gemini/. */
#define FUZZ_AGENT AGENT_GEMINI_CHAT
#include "fuzz_model.c"
