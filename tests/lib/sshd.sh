# tests/lib/sshd.sh: OpenSSH's own sshd on 127.0.0.1 at a free port, for
# the tests and the bench of sessions on other machines (POSIX sh,
# sourced by run_remote.sh and bench.sh). Everything is in DIR: a host
# key, an authorized key (id) and one that is not (other), the sshd's
# config, a client config with the hosts av-test (its key) and av-bad
# (the other key), and known_hosts.
#
#   sshd_setup DIR SETENV   make the keys and configs; SETENV is the
#                           sshd's SetEnv line (the remote's environment)
#                           or empty; sets $port, $me and exports
#                           AGENTVIEW_SSH="ssh -F DIR/ssh_config"
#   start_sshd              sshd in the foreground in a process group of
#                           its own ($sshd_pid), once it answers; false
#                           (said) when it does not within 10 s
#   served PORT             the pids of the processes serving PORT
#   stop_sshd               the listener and every connection it serves
# $sshd is the program (default /usr/sbin/sshd); its stderr goes to
# DIR/sshd.log.

sshd=${SSHD:-/usr/sbin/sshd}
sshd_pid=

sshd_setup() {
	sshd_dir=$1
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	me=$(id -un)
	ssh-keygen -q -t ed25519 -N '' -f "$1/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$1/id" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$1/other" || return 1
	cp "$1/id.pub" "$1/authorized_keys"
	cat >"$1/sshd_config" <<EOC
Port $port
ListenAddress 127.0.0.1
HostKey $1/host_key
AuthorizedKeysFile $1/authorized_keys
PidFile none
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $me
LogLevel ERROR
$2
EOC
	printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$1/host_key.pub")" >"$1/known_hosts"
	cat >"$1/ssh_config" <<EOC
Host av-test av-bad
  HostName 127.0.0.1
  Port $port
  User $me
  IdentitiesOnly yes
  UserKnownHostsFile $1/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  LogLevel ERROR
Host av-test
  IdentityFile $1/id
Host av-bad
  IdentityFile $1/other
EOC
	AGENTVIEW_SSH="ssh -F $1/ssh_config"
	export AGENTVIEW_SSH
	# sshd as root wants its privilege separation folder.
	[ "$(id -u)" -ne 0 ] || mkdir -p /run/sshd
}

# sshd in a process group of its own, so that stopping it stops the
# connections it serves too (their processes are its children).
start_sshd() {
	setsid "$sshd" -D -e -f "$sshd_dir/sshd_config" 2>>"$sshd_dir/sshd.log" &
	sshd_pid=$!
	i=0
	until ssh -F "$sshd_dir/ssh_config" -o BatchMode=yes av-test true 2>/dev/null; do
		i=$((i + 1))
		if [ "$i" -gt 100 ] || ! kill -0 "$sshd_pid" 2>/dev/null; then
			echo "sshd did not start: $(tail -n 3 "$sshd_dir/sshd.log")"
			return 1
		fi
		sleep 0.1
	done
}

# The processes that serve a port's connections: sshd gives each its
# own session, so they outlive the listener unless stopped by their id.
served() {
	python3 - "$1" <<'EOP'
import os, sys
port = ":%04X" % int(sys.argv[1])
inodes = set()
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    try:
        rows = open(table).read().splitlines()[1:]
    except OSError:
        continue
    for row in rows:
        f = row.split()
        if f[1].endswith(port) and f[9] != "0":
            inodes.add("socket:[%s]" % f[9])
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        fds = os.listdir("/proc/%s/fd" % pid)
        if any(os.readlink("/proc/%s/fd/%s" % (pid, fd)) in inodes for fd in fds):
            print(pid)
    except OSError:
        pass
EOP
}

# The listener and every connection it serves, as when its machine
# goes down.
stop_sshd() {
	[ -n "$sshd_pid" ] || return 0
	kill -- "-$sshd_pid" 2>/dev/null
	for p in $(served "$port"); do
		kill "$p" 2>/dev/null
	done
	i=0
	while { kill -0 "$sshd_pid" 2>/dev/null || [ -n "$(served "$port")" ]; } && [ "$i" -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	sshd_pid=
}
