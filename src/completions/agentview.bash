# bash completion for agentview: generated from its option table
# (src/options.c) by 'make update-completions'; do not edit.

# --theme: the names agentview lists (it looks where it would) and
# folders, or the folders and .theme files of a path.
_agentview_theme()
{
	local IFS=$'\n'
	if [[ $cur != */* ]]; then
		COMPREPLY=($(compgen -W "$("$1" --list-themes 2>/dev/null)" -- "$cur"))
		_filedir -d
	else
		_filedir theme
	fi
}

_agentview()
{
	local cur prev words cword split i
	# After "--", the command to run, completed as its own.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			_command_offset $((i + 1))
			return
		fi
	done
	_init_completion -s || return
	case $prev in
	--speed | -s)
		return
		;;
	--idle-limit | -i)
		return
		;;
	--record)
		_filedir
		return
		;;
	--keep)
		return
		;;
	--sources)
		_filedir
		return
		;;
	--agent)
		COMPREPLY=($(compgen -W 'cursor claude gemini codex claude-store codex-rollout gemini-chat copilot cursor-transcript' -- "$cur"))
		return
		;;
	--format)
		COMPREPLY=($(compgen -W 'text markdown json html raw rows' -- "$cur"))
		return
		;;
	--redact-pattern)
		return
		;;
	--theme)
		_agentview_theme "$1"
		return
		;;
	--color | --colour)
		COMPREPLY=($(compgen -W 'auto always never' -- "$cur"))
		return
		;;
	--notify-cmd)
		_filedir
		return
		;;
	esac
	$split && return
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-f --follow -R --recursive -r --replay -s --speed -i --idle-limit --record --no-record --keep --sources -p --print --agent --format --redact --redact-pattern --status-line --tmux-style --compare --theme --color --bell --title --mouse --no-mouse --notify --notify-cmd -h --help -V --version' -- "$cur"))
		return
	fi
	_filedir
}
complete -F _agentview agentview
