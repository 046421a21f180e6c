# fish completion for agentview: generated from its option table
# (src/options.c) by 'make update-completions'; do not edit.

# The words after "--" (the command to run), when the line has a "--"
# before the word being completed.
function __agentview_command
	set -l words (commandline -opc)
	set -l at (contains -i -- -- $words); or return 1
	set -e words[1..$at]
	printf '%s\n' $words
end

# --theme: the names agentview lists (it looks where it would) and
# folders, or the folders and .theme files of a path.
function __agentview_themes
	set -l token (commandline -ct)
	set -l cmd (commandline -opc)[1]
	if string match -q -- '*/*' $token
		__fish_complete_suffix .theme | string match -r -- '.*(/|\.theme)$'
	else
		command $cmd --list-themes 2>/dev/null
		__fish_complete_directories $token
	end
end

complete -c agentview -n __agentview_command -f -a '(__fish_complete_subcommand --commandline (__agentview_command) (commandline -ct))'
complete -c agentview -n 'not __agentview_command' -s f -l follow -d 'keep reading FILE as it grows (tail -F: survives truncation and replacement)'
complete -c agentview -n 'not __agentview_command' -s R -l recursive -d 'with FOLDERs: the folders in them too, all the way down'
complete -c agentview -n 'not __agentview_command' -s r -l replay -d 'replay with the recorded timing instead of showing everything at once (with --print, the plain output comes out at that timing too)'
complete -c agentview -n 'not __agentview_command' -s s -l speed -x -d 'replay speed factor (default 1)'
complete -c agentview -n 'not __agentview_command' -s i -l idle-limit -x -d 'cap every pause in a replay at SEC seconds'
complete -c agentview -n 'not __agentview_command' -l record -r -F -d 'write what is read (stdin or COMMAND\'s output) to FILE as a recording'
complete -c agentview -n 'not __agentview_command' -l no-record -d 'keep nothing of what is read live (AGENTVIEW_RECORD=0 says the same); without it, stdin or COMMAND\'s output is also kept in the folder of sessions, $XDG_STATE_HOME/agentview/sessions'
complete -c agentview -n 'not __agentview_command' -l keep -x -d 'remove the sessions agentview kept itself after DAYS days without a write (default 30, or AGENTVIEW_KEEP_DAYS; 0: never)'
complete -c agentview -n 'not __agentview_command' -l sources -r -F -d 'what agentview alone lists: claude, codex, gemini, copilot, cursor, kept, comma-separated (default all, or AGENTVIEW_SOURCES)'
complete -c agentview -n 'not __agentview_command' -s p -l print -d 'plain output, no screen (the default when stdout is not a terminal)'
complete -c agentview -n 'not __agentview_command' -l agent -x -a 'cursor claude gemini codex claude-store codex-rollout gemini-chat copilot cursor-transcript' -d 'read every line as this agent\'s stream: cursor, claude, gemini, codex, copilot (its stream and its store); or its store: claude-store, codex-rollout, gemini-chat, cursor-transcript (without it, each session\'s agent is recognised from its first line)'
complete -c agentview -n 'not __agentview_command' -l format -x -a 'text markdown json html raw rows' -d 'with --print: text (default), markdown, json, html (one self-contained page), raw (the original stream, byte for byte, also out of a recording), rows (the list as agentview HOST: reads it from an agentview there)'
complete -c agentview -n 'not __agentview_command' -l redact -d 'hide secrets (API keys, tokens, private keys, passwords) in every output and on screen: each reads [redacted]'
complete -c agentview -n 'not __agentview_command' -l redact-pattern -x -d 'hide what matches RE too (POSIX extended; repeatable; implies --redact)'
complete -c agentview -n 'not __agentview_command' -l status-line -d 'print one status line for the newest session of FILE and exit (a session without result is live while FILE was modified in the last 2 minutes); with FOLDERs or FILEs (or none, on a terminal: the kept sessions), their sessions summed up: 3 running, 1 waiting, ...'
complete -c agentview -n 'not __agentview_command' -l tmux-style -d 'with --status-line: tmux #[fg=...] colours, \'#\' doubled'
complete -c agentview -n 'not __agentview_command' -l compare -d 'compare two runs: the two FILEs (FILE#N: its Nth session, else its newest) side by side, in --format text, markdown or json; on a terminal, in the viewer, the timelines on one time axis'
complete -c agentview -n 'not __agentview_command' -l theme -x -a '(__agentview_themes)' -d 'colour theme: default, light, mono, high-contrast, or a theme file\'s path'
complete -c agentview -n 'not __agentview_command' -l color -x -a 'auto always never' -d 'auto, always, never (NO_COLOR, when non-empty, means never)'
complete -c agentview -n 'not __agentview_command' -l bell -d 'ring the terminal bell when the session ends or a tool call fails'
complete -c agentview -n 'not __agentview_command' -l title -d 'name the session and its state in the terminal\'s (tmux pane\'s) title'
complete -c agentview -n 'not __agentview_command' -l mouse -d 'wheel and clicks in the viewer, also inside tmux'
complete -c agentview -n 'not __agentview_command' -l no-mouse -d 'leave the mouse to the terminal (the default inside tmux, so that selecting text works)'
complete -c agentview -n 'not __agentview_command' -l notify -d 'when a session is done, fails or waits for a decision: ring the bell and send a desktop notification (OSC 9 and 777; tmux: allow-passthrough on)'
complete -c agentview -n 'not __agentview_command' -l notify-cmd -r -F -d 'run CMD (sh -c) when a session is done, fails or waits; what happened is in its environment: AGENTVIEW_EVENT, _SESSION, _AGENT, _STATE, _SUMMARY, _FILE'
complete -c agentview -n 'not __agentview_command' -s h -l help -d 'usage on stdout, exit 0'
complete -c agentview -n 'not __agentview_command' -s V -l version -d 'version on stdout, exit 0'
