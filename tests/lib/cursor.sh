# tests/lib/cursor.sh: the lines of a Cursor session the shell tests of the
# session list write into folders (POSIX sh, sourced by run_fleet.sh and
# run_list.sh after a `line` function: expect.sh's, or their own).
#
#   init ID CWD               the session starts, in /w/CWD
#   user TEXT                 the prompt
#   started ID COMMAND        a shell call starts
#   result IS_ERROR MS TEXT   the result
#   ask                       a web fetch waits for a decision

init() {
	line "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"$1\",\"model\":\"Composer 2.5\",\"cwd\":\"/w/$2\"}"
}
user() {
	line "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"$1\"}]}}"
}
started() {
	line "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"$1\",\"tool_call\":{\"shellToolCall\":{\"args\":{\"command\":\"$2\"}}}}"
}
result() {
	line "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":$2,\"is_error\":$1,\"result\":\"$3\"}"
}
ask() {
	line '{"type":"interaction_query","subtype":"request","query_type":"webFetchRequestQuery","query":{"id":1,"webFetchRequestQuery":{"args":{"url":"https://example.com/"}}}}'
}
