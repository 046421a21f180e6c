/* remote.c: a remote source as typed, checked; the sh program the remote
 * runs; the reader of the frames it sends back (remote.h says the wire). */
#include "remote.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet.h"
#include "store.h"

bool
remote_host_ok(const char *host)
{
	if (host == NULL || host[0] == '\0' || host[0] == '-')
		return false;
	for (const char *c = host; *c != '\0'; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("._@:%[]-", *c) != NULL))
			return false;
	return true;
}

/* Whether s is a port: 1 to 65535, digits only. */
static bool
port_ok(const char *s, size_t n)
{
	unsigned long v = 0;

	if (n == 0 || n > 5)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	return v >= 1 && v <= 65535;
}

/* host[0..n) checked and kept in s->host without the brackets of an IPv6
 * address (ssh takes it bare); 0, or -1 with why in err. */
static int
spec_host(struct remote_spec *s, const char *host, size_t n, struct buf *err)
{
	char *h = xstrndup(host, n);
	size_t j = 0;

	if (!remote_host_ok(h)) {
		buf_addf(err, "%s: refused as a host: %s", h,
			 h[0] == '-'    ? "it starts with '-'"
			 : h[0] == '\0' ? "it is empty"
					: "only letters, digits and . _ @ : %% [ ] - are allowed");
		free(h);
		return -1;
	}
	for (size_t i = 0; h[i] != '\0'; i++)
		if (h[i] != '[' && h[i] != ']')
			h[j++] = h[i];
	h[j] = '\0';
	s->host = h;
	return 0;
}

/* ssh://[user@]host[:port][/path]: the path absolute, or relative to the
 * remote home after "/~/"; none is the kept sessions. */
static int
spec_url(const char *rest, struct remote_spec *s, struct buf *err)
{
	const char *slash = strchr(rest, '/');
	size_t n = slash != NULL ? (size_t)(slash - rest) : strlen(rest);
	size_t hn = n;
	const char *close = memchr(rest, ']', n);
	const char *colon = memchr(close != NULL ? close : rest, ':',
				   n - (size_t)((close != NULL ? close : rest) - rest));

	if (colon != NULL) {
		hn = (size_t)(colon - rest);
		if (!port_ok(colon + 1, n - hn - 1)) {
			buf_addf(err, "ssh://%.*s: the port is not a number from 1 to 65535",
				 (int)n, rest);
			return -1;
		}
		s->port = xstrndup(colon + 1, n - hn - 1);
	}
	if (spec_host(s, rest, hn, err) != 0)
		return -1;
	if (slash == NULL)
		s->path = xstrdup("");
	else if (strncmp(slash, "/~/", 3) == 0)
		s->path = xstrdup(slash[3] != '\0' ? slash + 3 : ".");
	else
		s->path = xstrdup(slash);
	return 1;
}

int
remote_spec_parse(const char *arg, struct remote_spec *s, struct buf *err)
{
	struct stat st;
	size_t i = 0;
	int r;

	memset(s, 0, sizeof *s);
	if (strncmp(arg, "ssh://", 6) == 0)
		r = spec_url(arg + 6, s, err);
	else {
		/* host:path, as scp reads it: the first ':' outside brackets,
		 * with no '/' before it, on a path that does not exist here. */
		while (arg[i] != '\0' && arg[i] != ':' && arg[i] != '/') {
			if (arg[i] == '[') {
				const char *close = strchr(arg + i, ']');

				if (close == NULL)
					break;
				i = (size_t)(close - arg);
			}
			i++;
		}
		if (arg[i] != ':' || i == 0 || stat(arg, &st) == 0)
			return 0;
		r = spec_host(s, arg, i, err);
		if (r == 0) {
			s->path = xstrdup(arg + i + 1);
			r = 1;
		}
	}
	if (r != 1)
		remote_spec_free(s);
	return r;
}

void
remote_spec_free(struct remote_spec *s)
{
	free(s->host);
	free(s->port);
	free(s->path);
	memset(s, 0, sizeof *s);
}

bool
remote_name_ok(const char *name, size_t n)
{
	/* Never a name of agentview's own (.replace), nor one the list
	 * would skip, nor two lines of an ask for a file (remote_whole,
	 * remote_head). */
	return n > 0 && n < 256 && name[0] != '.' && memchr(name, '/', n) == NULL &&
	       memchr(name, '\0', n) == NULL && memchr(name, '\n', n) == NULL;
}

void
remote_quote(struct buf *b, const char *s)
{
	buf_addc(b, '\'');
	for (; *s != '\0'; s++)
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	buf_addc(b, '\'');
}

/* What runs remotely, after the lines that set p (the path), the names
 * ("$@") and the offsets and inodes known (o1, n1, ...). Only POSIX sh,
 * ls, stat, tail, head -c, cat, wc, sleep: dash, bash, busybox and BSD
 * alike.
 * Names are never split nor globbed (set -f but for the folders' own
 * globs); each file's bytes go out in frames of at most 4 MiB, each
 * header written before its bytes, which head -c cuts at the length it
 * says. A round looks at its files (their sizes, times and inodes)
 * with one ls, and at each of them only when that said something else
 * than the last time (sg): then one stat for all (sv; one for each 512
 * KiB of their paths), and the big ones not looked at yet in one batch
 * (bf), so that the first look at a
 * thousand files is a few processes, not four a file. Between rounds it
 * sleeps a second, then looks (one process started, one wake-up); where
 * the remote has inotifywait, that waits at most a second for a change in
 * the folders of the files read (pw), and a second without one needs no
 * look. A round that saw a change is followed by another at once (what
 * changed while it read is seen then). Given
 * no names (ad), it reads those of its first list in the round that lists
 * them, not in a next program. A
 * file's time (S) is sent when it changed, before its new bytes. It only reads: nothing is written, locked or renamed there.
 *
 * An empty p is the remote's own sessions (mode s): its kept folder and
 * the agents' stores, each root found as store.c finds it (its variable
 * as the remote's shell has it, else HOME), each file named by its
 * source then its path under that root ("claude/projects/x/y.jsonl").
 * The pieces of that between script_head and script_tail are made from
 * store.c's table (store_script). */
static const char script_head[] =
	"set -f; ad=; [ $# -gt 0 ] || ad=1; LC_ALL=C; export LC_ALL\n"
	/* GNU ls says a file's time in seconds too: no stat for it. */
	"lt=; ls -lnid --time-style=+%s / >/dev/null 2>&1 && lt=--time-style=+%s\n"
	"st() { set -- $(ls -lnid $lt \"$1\" 2>/dev/null); s=${6:-}; in=${1:-}; tm=${7:-}; }\n"
	"printf 'H agentview-remote 1\\n'\n"
	/* The remote's clock, to read its files' times by this one's. */
	"u=$(date +%s 2>/dev/null) || u=\n"
	"case $u in '' | *[!0-9]*) ;; *) printf 'U %s\\n' \"$u\" ;; esac\n"
	"iw=; command -v inotifywait >/dev/null 2>&1 && iw=1\n"
	/* The pid a store's file names ("123.json", "inuse.123.lock"): when
	 * /proc has it, "pid start" (its 22nd field) added to lv. */
	/* (/proc elsewhere: a test's way to be a remote without it) */
	"pr=${AGENTVIEW_REMOTE_PROC:-/proc}\n"
	"pst() {\n"
	" x=; read -r x 2>/dev/null <\"$pr/$1/stat\" || return 1\n"
	" x=${x##*) }; j=0\n"
	" while [ $j -lt 19 ]; do x=${x#* }; j=$((j + 1)); done\n"
	" x=${x%% *}\n"
	" case $x in '' | *[!0-9]*) return 1 ;; esac\n"
	"}\n"
	"pid() {\n"
	" b=${1#inuse.}; b=${b%%.*}\n"
	" case $b in '' | *[!0-9]*) return ;; esac\n"
	" ! pst $b || lv=\"$lv$b $x\n\"\n"
	"}\n"
	/* Whether the first two of argv (a0 a1: its NULs made lines, its
	 * newlines '?') run $1: its name, or in its npm package $2
	 * (store.c's runs, the same rule). */
	"ru() {\n"
	" for ry in \"$a0\" \"$a1\"; do\n"
	"  case ${ry##*/} in \"$1\") return 0 ;; esac\n"
	"  case $ry in *\"$2\"*) return 0 ;; esac\n"
	" done; return 1\n"
	"}\n"
	/* la: a name added to the round's list l, gathered 128 at a time in
	 * lq first (an assignment copies the whole text: one to l each name
	 * made a round's lists grow with the square of its files). dl: l
	 * sent, in D frames of at most 1 MiB (sizes counted first). */
	"la() { lq=\"$lq$1\n\"; lc=$((lc + 1)); [ $lc -lt 128 ] || { l=\"$l$lq\"; lq= lc=0; }; }\n"
	"dl() {\n"
	" oi=$IFS; IFS='\n'; dz= dc=0\n"
	" for f in $l; do\n"
	"  [ $((dc + ${#f} + 1)) -le 1048576 ] || { dz=\"$dz $dc\"; dc=0; }\n"
	"  dc=$((dc + ${#f} + 1))\n"
	" done; dz=\"$dz $dc \" dc=0\n"
	" [ -n \"$l\" ] || printf 'D 0\\n\\n'\n"
	" for f in $l; do\n"
	"  [ $dc != 0 ] || { dz=${dz# }; dc=${dz%% *}; dz=${dz#\"$dc\"}; printf 'D %d\\n' $dc; }\n"
	"  printf '%s\\n' \"$f\"; dc=$((dc - ${#f} - 1)); [ $dc != 0 ] || printf '\\n'\n"
	" done; IFS=$oi\n"
	"}\n"
	/* A list of paths for commands' arguments (sl, ql: pi starts one,
	 * pa adds a path, pe ends it): in parts of at most 512 KiB (fewer
	 * bytes than any ARG_MAX), each grown 128 paths at a time (an
	 * assignment copies the whole text: one each path made a round grow
	 * with the square of its files). px L CMD: CMD run with each part's
	 * paths as its last arguments. */
	"pa() {\n"
	" eval \"zw=\\$${1}w\\$2'\n"
	"' zc=\\$((${1}c + 1))\"\n"
	" eval \"${1}w=\\$zw ${1}c=\\$zc\"\n"
	" [ $zc -lt 128 ] || pe $1\n"
	"}\n"
	"pe() {\n"
	" eval \"zn=\\$${1}n\"\n"
	" eval \"zp=\\$$1$zn\\$${1}w; $1$zn=\\$zp ${1}w= ${1}c=0\"\n"
	" [ ${#zp} -lt 524288 ] || { zn=$((zn + 1)); eval \"$1$zn= ${1}n=$zn\"; }\n"
	"}\n"
	"pi() { eval \"${1}n=1 ${1}1= ${1}w= ${1}c=0\"; }\n"
	"px() {\n"
	" zl=$1 zj=1; shift; eval \"zn=\\$${zl}n\"\n"
	" while [ $zj -le $zn ]; do\n"
	"  eval \"zp=\\$$zl$zj\"; IFS='\n"
	"'\n"
	"  [ -z \"$zp\" ] || \"$@\" $zp\n"
	"  zj=$((zj + 1))\n"
	" done\n"
	"}\n";
/* An agentview there of this one's version and wire: the rows of the
 * folder as it makes them, sent first (R), when it ends within 0.3 s
 * (1 s where sleep takes whole seconds only: then it is killed, and the
 * sh path goes on); what it writes is cut at a frame's most, and checked
 * here. It runs in a folder of its own that goes with it (mkdir and rm
 * are only run where agentview is). The sh path goes on as ever after. */
static const char script_rows[] =
	"if [ -d \"$p\" ] && command -v agentview >/dev/null 2>&1; then\n"
	" rw=${TMPDIR:-/tmp}/agentview-rows.$$\n"
	" if mkdir -m 700 \"$rw\" 2>/dev/null; then\n"
	"  ap=$p; case $ap in -*) ap=./$ap ;; esac\n"
	"  agentview --print --format rows \"$ap\" >\"$rw/r\" 2>/dev/null </dev/null &\n"
	"  ra=$!\n"
	"  { sleep 0.3 2>/dev/null || sleep 1; kill $ra 2>/dev/null; } >/dev/null 2>&1 &\n"
	"  rk=$!\n"
	"  if wait $ra; then\n"
	"   head -c %u \"$rw/r\" >\"$rw/s\"\n"
	"   printf 'R %%d\\n' $(wc -c <\"$rw/s\"); cat \"$rw/s\"; printf '\\n'\n"
	"  fi\n"
	"  kill $rk 2>/dev/null\n"
	"  rm -rf \"$rw\"\n"
	" fi\n"
	"fi\n";
static const char script_batch[] =
	/* The batches of a round's first looks, heads on: big files' heads
	 * and tails (bf: bl their paths a line, bi their numbers, bn how
	 * many, bz1... their sizes, bh and bc the bytes head and tail print
	 * for them), and small files whole (kf: kl, ki, kn, kz1..., kc their
	 * bytes, kp their paths'). Each: its files (A, ba1... their size and
	 * path's length), their times, its bytes, then one wc: kept (Y 1)
	 * when no file changed size; else sent one by one, from the next
	 * round on (nb). They run in the middle of a round's loop (a batch
	 * full): their own variables are all b... and k..., never the
	 * loop's. */
	/* The files of ql as one look: their sizes, inodes and times (GNU
	 * and busybox stat, without their names: one short write), else ls
	 * (run in a subshell: its IFS is its own). */
	"sgm() { stat -c '%s %i %Y' -- \"$@\" 2>/dev/null || ls -lnid $lt -- \"$@\" 2>/dev/null; }\n"
	"sgl() { px ql sgm; }\n"
	"svm() { stat -c '%s %i %Y' -- \"$@\" 2>/dev/null || stat -f '%z %i %m' -- \"$@\" 2>/dev/null; }\n"
	"bl= bi= bn=0 bh=0 bc=0 rv= kl= ki= kn=0 kc=0 kp=0\n"
	/* ba N...: the batch's files, then their times (as a file's before
	 * its bytes: a batch not kept is sent again, its time then known) */
	"ba() {\n"
	" for bj; do eval \"bv=\\$ba$bj\"; unset ba$bj; printf 'A %d %s\\n' $bj \"$bv\"; done\n"
	" for bj; do\n"
	"  eval \"bv=\\${bm$bj:-} bu=\\${t$bj:-}\"; unset bm$bj\n"
	"  case $bv in '' | *[!0-9]*) ;; \"$bu\") ;; *) printf 'S %d %s\\n' $bj \"$bv\"; eval \"t$bj=\\$bv\" ;; esac\n"
	" done\n"
	"}\n"
	/* by PATHS COUNT PREFIX N...: its end, by one wc of PATHS against
	 * the sizes PREFIXz1... */
	"by() {\n"
	" ws=$(IFS='\n'; wc -c -- $1 2>/dev/null); bk=0 bx=; bo=$IFS; IFS='\n'\n"
	" for bq in $ws; do\n"
	"  bk=$((bk + 1)); bq=${bq#\"${bq%%[! ]*}\"}; eval \"bw=\\${$3z$bk:-}\"; unset $3z$bk\n"
	"  [ $bk -gt $2 ] || [ \"${bq%% *}\" = \"$bw\" ] || bx=1\n"
	" done; IFS=$bo\n"
	/* (a line a file, and a total for more than one: a file wc could
	 * not read has none, and the lines after it would pass for the
	 * wrong files') */
	" bq=$2; [ $2 -le 1 ] || bq=$(($2 + 1)); [ $bk = $bq ] || bx=1\n"
	" shift 3\n"
	" if [ -n \"$bx\" ]; then printf 'Y 0\\n'; rv=1\n"
	"  for bj; do eval \"o$bj=0 nb$bj=1\"; done\n"
	" else printf 'Y 1\\n'; fi\n"
	"}\n"
	"bf() {\n"
	" [ -n \"$bl\" ] || return 0\n"
	" ba $bi\n"
	/* (one file: head and tail print no header) */
	" [ $bn -gt 1 ] || { bh=$hd; bc=$tl; }\n"
	" printf 'B %d\\n' $bh\n"
	" { IFS='\n'; head -c $hd -- $bl 2>/dev/null; cat /dev/zero 2>/dev/null; } | head -c $bh; printf '\\n'\n"
	" printf 'C %d\\n' $bc\n"
	" { IFS='\n'; tail -c $tl -- $bl 2>/dev/null; cat /dev/zero 2>/dev/null; } | head -c $bc; printf '\\n'\n"
	" by \"$bl\" $bn b $bi\n"
	" bl= bi= bn=0 bh=0 bc=0\n"
	"}\n"
	/* (cat prints no header: the files' bytes one after the other) */
	"kf() {\n"
	" [ -n \"$kl\" ] || return 0\n"
	" ba $ki\n"
	" printf 'W %d\\n' $kc\n"
	" { IFS='\n'; cat -- $kl 2>/dev/null; cat /dev/zero 2>/dev/null; } | head -c $kc; printf '\\n'\n"
	" by \"$kl\" $kn k $ki\n"
	" kl= ki= kn=0 kc=0 kp=0\n"
	"}\n"
	"if [ -z \"$p\" ]; then\n"
	" m=s\n"
	" case ${XDG_STATE_HOME:-} in /*) rk=$XDG_STATE_HOME ;; *) rk=$HOME/.local/state ;; esac\n"
	" rk=$rk/agentview/sessions\n";
static const char script_mode[] =
	"else\n"
	" case $p in /*) ;; *) p=./$p ;; esac\n"
	" if [ -d \"$p\" ]; then m=d; elif [ -f \"$p\" ]; then m=f; set -- ''\n"
	" else e=\"no such file or folder\"; printf 'E %d\\n%s\\n' ${#e} \"$e\"; exit 0; fi\n"
	"fi\n"
	"printf 'M %s\\n' $m\n"
	"[ $m != f ] || hd= bt=\n"
	"pl= plv= pw= psg= wr= ch= iwt=5; pi ql\n"
	/* (the remote's own sessions: new folders in the stores, and the
	 * processes, are not watched: looked at each second) */
	"[ $m != s ] || iwt=1\n"
	"while :; do\n"
	" l= lq= lc=0 lv=; set +f\n"
	" if [ $m = d ]; then\n"
	"  for f in \"$p\"/*.ndjson \"$p\"/*.jsonl; do\n"
	"   [ -f \"$f\" ] || continue\n"
	"   case $f in *'\n'*) continue ;; esac\n"
	"   la \"${f##*/}\"\n"
	"  done\n"
	" elif [ $m = s ]; then\n"
	"  for f in \"$rk\"/*.ndjson \"$rk\"/*.jsonl; do\n"
	"   [ -f \"$f\" ] || continue\n"
	"   case $f in *'\n'*) continue ;; esac\n"
	"   la \"kept/${f##*/}\"\n"
	"  done\n";
static const char script_files[] =
	" fi; set -f; l=\"$l$lq\"\n"
	" [ $m != s ] || cx\n"
	" if [ $m != f ] && [ \"$l\" != \"$pl\" ]; then\n"
	"  dl; pl=$l\n"
	/* The first list of a program given no names: its names, read
	 * from this round on (the local side numbers them alike). */
	"  [ -z \"$ad\" ] || { oi=$IFS; IFS='\n'; set -- $l; IFS=$oi; ad=; }\n"
	" fi\n"
	" if [ $m = s ] && [ \"$lv\" != \"$plv\" ]; then\n"
	"  printf 'L %d\\n%s\\n' $(($(printf %s \"$lv\" | wc -c))) \"$lv\"; plv=$lv\n"
	" fi\n"
	/* sg: the files looked at by one ls, or by the wait's (g). */
	" case $wr in\n"
	" g) ;;\n"
	" *) sg=; [ -z \"$ql1\" ] || sg=$(sgl) ;;\n"
	" esac; wr= ch=\n"
	" if [ -z \"$ql1\" ] || [ \"$sg\" != \"$psg\" ]; then\n"
	/* (the first round too, read with no look before it: the next
	 * round's look is one to compare with) */
	" ch=1\n"
	" i=0 sn=0; pi sl\n"
	" for f in \"$@\"; do\n"
	"  i=$((i + 1))\n";
/* A file's path q from its name f (the pieces of mode s after it are
 * store_script's). */
static const char script_q[] = "  case $m in\n"
			       "  d) q=$p/$f ;;\n"
			       "  f) q=$p ;;\n"
			       "  *) case $f in\n"
			       "   kept/*) q=$rk/${f#*/} ;;\n";
static const char script_q_end[] = "   *) continue ;;\n"
				   "   esac ;;\n"
				   "  esac\n";
/* The files' sizes, inodes and times with one stat (GNU, busybox, then
 * BSD's words), v1... by their numbers: when it said one line a file,
 * else each file is looked at by its own ls. */
static const char script_stat[] =
	"  [ -f \"$q\" ] || continue\n"
	"  pa sl \"$q\"; sn=$((sn + 1)); eval \"sq$sn=$i\"\n"
	" done; pe sl\n"
	" sv=; [ $sn = 0 ] || sv=$(px sl svm)\n"
	" k=0; oi=$IFS; IFS='\n'\n"
	" for y in $sv; do\n"
	"  k=$((k + 1)); [ $k -le $sn ] || break\n"
	"  case $y in '' | *[!0-9' ']*) k=-1; break ;; esac\n"
	"  eval \"j=\\${sq$k}\"; unset sq$k; eval \"v$j=\\$y\"\n"
	" done; IFS=$oi\n"
	" i=0 wd=; wl=; pi ql\n"
	" case $m in d) wl=\"$p\n\" ;; f) wl=\"${p%/*}/\n\" ;; *) [ ! -d \"$rk\" ] || wl=\"$rk\n\" ;; esac\n"
	" for f in \"$@\"; do\n"
	"  i=$((i + 1))\n";
static const char script_tail[] =
	"  pa ql \"$q\"\n"
	"  eval \"o=\\${o$i:-0} n=\\${n$i:-}\"\n"
	/* (a file it may not read is not one to send: its bytes would not
	 * come, and the frames after them would pass for them) */
	"  if [ -f \"$q\" ] && [ -r \"$q\" ]; then\n"
	/* (mode s: its folder among those watched, looked for only when it
	 * is not the file before's: a folder's files come together) */
	"   if [ $m = s ] && [ \"${q%/*}\" != \"$wd\" ]; then wd=${q%/*}\n"
	"    case \"\n$wl\" in *\"\n$wd\n\"*) ;; *) wl=\"$wl$wd\n\" ;; esac\n"
	"   fi\n"
	"   eval \"y=\\${v$i:-}\"; unset v$i\n"
	"   if [ $k = $sn ] && [ -n \"$y\" ]; then s=${y%% *} y=${y#* }; in=${y%% *} tm=${y#* } ty=1\n"
	"   else st \"$q\"; ty=$lt; fi\n"
	"   [ -n \"$s\" ] || continue\n"
	"   if [ -n \"$n\" ] && [ \"$in\" != \"$n\" ] || [ \"$s\" -lt \"$o\" ]; then\n"
	"    printf 'T %d\\n' $i; o=0\n"
	"   fi\n"
	"   [ \"$in\" = \"$n\" ] || printf 'N %d %s\\n' $i \"$in\"; n=$in\n"
	"   eval \"h=\\${h$i:-0} e=\\${e$i:-0}\"; [ \"$h$e\" = 00 ] || unset h$i e$i\n"
	"   [ \"$e\" -le \"$o\" ] || e=$o\n"
	"   while [ \"$h\" -lt \"$e\" ]; do\n"
	"    c=$((e - h)); [ $c -le 4194304 ] || c=4194304\n"
	"    printf 'F %d %d %d\\n' $i $h $c\n"
	"    { tail -c +$((h + 1)) \"$q\" 2>/dev/null; cat /dev/zero 2>/dev/null; } | head -c $c; printf '\\n'; h=$((h + c))\n"
	"   done\n"
	"   x=; [ \"$o\" != 0 ] || [ \"$s\" = 0 ] || [ -z \"$bt\" ] || eval \"[ -n \\\"\\${nb$i:-}\\\" ] || x=1\"\n"
	/* The first look at a file, batches on: a big one's head and tail
	 * in bf's batch, a small one whole in kf's (never one whose batch
	 * was not kept: nb) */
	"   if [ \"$x\" = 1 ] && [ \"$s\" -gt $hz ]; then\n"
	"    [ $((bc + ${#q} + 10 + tl)) -le 4194304 ] || bf\n"
	"    bn=$((bn + 1)); eval \"bz$bn=\\$s\"\n"
	"    [ -z \"$bl\" ] || { bh=$((bh + 1)); bc=$((bc + 1)); }\n"
	"    bh=$((bh + ${#q} + 9 + hd)); bc=$((bc + ${#q} + 9 + tl)); bl=\"$bl$q\n\"; bi=\"$bi $i\"\n"
	"   elif [ \"$x\" = 1 ]; then\n"
	"    [ $kn -lt 256 ] && [ $((kc + s)) -le 4194304 ] && [ $((kp + ${#q})) -lt 262144 ] || kf\n"
	"    kn=$((kn + 1)); eval \"kz$kn=\\$s\"\n"
	"    kc=$((kc + s)); kp=$((kp + ${#q} + 1)); kl=\"$kl$q\n\"; ki=\"$ki $i\"\n"
	"   fi\n"
	"   if [ \"$x\" = 1 ]; then\n"
	"    eval \"ba$i=\\\"\\$s \\${#q}\\\"\"\n"
	"    if [ -n \"$ty\" ]; then t=$tm\n"
	"    else t=$(stat -c %Y \"$q\" 2>/dev/null || stat -f %m \"$q\" 2>/dev/null); fi\n"
	"    eval \"bm$i=\\$t\"; o=$s\n"
	"   else\n"
	/* Its time when it changed, before its new bytes (the local
	 * side's copy has it as they are written). */
	"    if [ \"$s\" -gt \"$o\" ]; then\n"
	"     if [ -n \"$ty\" ]; then t=$tm\n"
	"     else t=$(stat -c %Y \"$q\" 2>/dev/null || stat -f %m \"$q\" 2>/dev/null); fi\n"
	"     eval \"u=\\${t$i:-}\"\n"
	"     case $t in '' | *[!0-9]*) ;; \"$u\") ;; *) printf 'S %d %s\\n' $i \"$t\"; eval \"t$i=\\$t\" ;; esac\n"
	"    fi\n"
	"    if [ -n \"$hd\" ] && [ \"$o\" = 0 ] && [ \"$s\" -gt $hz ]; then\n"
	"     printf 'F %d 0 %d\\n' $i $hd; { head -c $hd \"$q\" 2>/dev/null; cat /dev/zero 2>/dev/null; } | head -c $hd; printf '\\n'\n"
	"     o=$((s - tl)); printf 'P %d %d %d\\n' $i $hd $o\n"
	"    fi\n"
	"   fi\n"
	"   while [ \"$s\" -gt \"$o\" ]; do\n"
	"    c=$((s - o)); [ $c -le 4194304 ] || c=4194304\n"
	"    printf 'F %d %d %d\\n' $i $o $c\n"
	"    { tail -c +$((o + 1)) \"$q\" 2>/dev/null; cat /dev/zero 2>/dev/null; } | head -c $c; printf '\\n'; o=$((o + c))\n"
	"   done\n"

	"  elif [ -n \"$n\" ]; then printf 'G %d\\n' $i; n=; o=0\n"
	"  fi\n"
	"  eval \"o$i=\\$o n$i=\\$n\"\n"
	" done\n"
	" bf; kf; pe ql; pw=$wl psg=$sg\n"
	" [ -z \"$rv\" ] || { psg=; ch=1; }; rv=\n"
	" fi\n"
	" printf 'K\\n'\n"
	/* The wait: none after a round that saw a change (what changed while
	 * it read is seen at once); else inotifywait on the folders of the
	 * files, or a sleep then the next round's ls. After inotifywait saw
	 * nothing in its time (iwt) the next round looks all the same: a change
	 * between this round's look and its watch's start is not one it sees,
	 * and would be lost until the next. */
	" if [ -n \"$ch\" ]; then :\n"
	" elif [ -n \"$iw\" ] && [ -n \"$pw\" ]; then\n"
	"  oi=$IFS; IFS='\n'\n"
	"  inotifywait -qq -t $iwt -e modify -e attrib -e create -e delete -e move -- $pw 2>/dev/null\n"
	"  case $? in 0 | 2) ;; *) sleep 1 ;; esac; IFS=$oi\n"
	" elif [ -n \"$ql1\" ]; then\n"
	"  sg=$(sleep 1; sgl); wr=g\n"
	" else sleep 1; fi\n"
	"done\n";

/* Whether p[0..n) can go into the program as a bare glob or case
 * pattern: store.c's patterns are, and nothing else is let through. */
static bool
glob_ok(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
		      (p[i] >= '0' && p[i] <= '9') || strchr("._-*[]/", p[i]) != NULL))
			return false;
	return n > 0;
}

/* Whether v is a name of a variable (store.c's roots' variables). */
static bool
var_ok(const char *v)
{
	return v[0] != '\0' && strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == strlen(v);
}

/* The program's cx: the processes whose names (comm, read by the shell:
 * no process started a second) are store.c's names that count, each
 * looked at once (by its pid, start and name; what is kept of it
 * forgotten once it is gone): its argv's first two (one
 * tr), judged by store.c's CLIs in their order (ru: the same rule); a
 * codex one's CODEX_HOME and HOME (one tr), a gemini or cursor-agent
 * one's folder (one readlink; a cd into it and pwd -P where there is
 * none); sent by the lengths of their bytes; "-" alone where there is
 * no /proc. */
static void
procs_script(struct buf *b)
{
	const char *name, *pkg;
	enum store_source s;
	const char *sep = "";

	/* (Codex's root said as not read where it is longer than the
	 * local side takes, as a process's CODEX_HOME is) */
	buf_adds(b, "cn=0 ck=\n"
		    /* (where readlink is not, a folder is known by a cd
		     * into it, in a subshell, then pwd -P: builtins) */
		    "rl=; command -v readlink >/dev/null 2>&1 && rl=1\n"
		    "cx() {\n"
		    " [ -r \"$pr/self/stat\" ] || { lv='-\n'; return 0; }\n"
		    " if [ ${#cr} -gt 4096 ]; then lv=\"r\n$lv\"\n"
		    " else lv=\"r ${#cr}\n$cr\n$lv\"; fi; cn=$((cn + 1)) nk=; set +f\n"
		    " for d in \"$pr\"/[0-9]*; do\n"
		    "  set -f; cm=; read -r cm <\"$d/comm\" || continue\n"
		    "  case $cm in");
	for (size_t i = 0; (name = store_proc_name(i)) != NULL; i++)
		if (glob_ok(name, strlen(name)) && strchr(name, '*') == NULL) {
			buf_addf(b, "%s %s", sep, name);
			sep = " |";
		}
	buf_adds(b,
		 ") ;; *) continue ;; esac\n"
		 "  b=${d##*/}; case $b in *[!0-9]*) continue ;; esac\n"
		 "  eval \"c=\\${cs$b:-} g=\\${cg$b:-}\"\n"
		 /* Seen the round before under this name: the same process
		  * (no read of its stat, a byte a read under dash). */
		 "  if [ \"$g\" != $((cn - 1)) ] || [ \"${c#* }\" != \"$cm\" ]; then\n"
		 "  pst $b || continue\n"
		 "  if [ \"$c\" != \"$x $cm\" ]; then\n"
		 "   y= a0= a1=\n"
		 "   if a=$(tr '\\n\\0' '?\\n' 2>/dev/null <\"$d/cmdline\"); then\n"
		 "    a0=${a%%'\n'*}; case $a in *'\n'*) a1=${a#*'\n'}; a1=${a1%%'\n'*} ;; esac\n"
		 "   fi\n");
	sep = "   if";
	for (size_t i = 0; store_cli(i, &s, &name, &pkg); i++) {
		char rec = s == SRC_GEMINI ? 'g' : 'u';

		buf_addf(b, "%s ru ", sep);
		remote_quote(b, name);
		buf_addc(b, ' ');
		remote_quote(b, pkg);
		buf_adds(b, "; then\n");
		sep = "   elif";
		if (s == SRC_CODEX)
			buf_adds(
				b,
				"    if e=$(tr '\\0\\n' '\\n\\001' 2>/dev/null <\"$d/environ\"); then\n"
				"     k= h= ok= oh=; oi=$IFS; IFS='\n'\n"
				"     for y in $e; do case $y in\n"
				"      CODEX_HOME=*) [ -n \"$ok\" ] || { k=${y#*=}; ok=1; } ;;\n"
				"      HOME=*) [ -n \"$oh\" ] || { h=${y#*=}; oh=1; } ;;\n"
				"     esac; done; IFS=$oi\n"
				"     y=\"c $b $x\n\"\n"
				"     [ ${#k} -gt 4096 ] || [ ${#h} -gt 4096 ] || y=\"c $b $x ${#k} ${#h}\n$k$h\n\"\n"
				"    else y=\"c $b $x\n\"; fi\n");
		else
			/* Gemini's (g) and Cursor's (u): the folder (its own
			 * trailing newlines kept: readlink's or pwd's one
			 * cut), as not read when longer than a frame's path
			 * may be, or not a path (pwd -P of dash and busybox
			 * says nothing of a folder removed, yet succeeds). */
			buf_addf(
				b,
				"    if w=$(if [ -n \"$rl\" ]; then readlink \"$d/cwd\"\n"
				"     else CDPATH= cd -P \"$d/cwd\" && pwd -P; fi 2>/dev/null && echo .); then\n"
				"     w=${w%%?.}; y=\"%c $b $x\n\"\n"
				"     case $w in /*) [ ${#w} -gt 4096 ] || y=\"%c $b $x ${#w}\n$w\n\" ;; esac\n"
				"    else y=\"%c $b $x\n\"; fi\n",
				rec, rec, rec);
	}
	buf_adds(b, "   fi\n"
		    "   eval \"cs$b=\\$x\\ \\$cm cv$b=\\$y\"\n"
		    "  fi\n"
		    "  fi\n"
		    "  eval \"cg$b=\\$cn lv=\\$lv\\$cv$b\"; nk=\"$nk $b\"\n"
		    " done 2>/dev/null; set -f\n"
		    /* Those looked at the round before and not in this one
		     * are gone (or renamed): what was kept of them too. */
		    " for b in $ck; do\n"
		    "  eval \"[ \\\"\\${cg$b:-}\\\" = $cn ]\" || unset cs$b cv$b cg$b\n"
		    " done; ck=$nk\n"
		    "}\n");
}

/* Piece `part` (0: the roots, r1...; 1: the lists; 2: the files' paths)
 * of the program's mode s, for each store of store.c's table. */
static void
store_script(struct buf *b, int part)
{
	for (int s = 0; s < SRC_KEPT; s++) {
		const char *var, *sub, *home, *pat = store_patterns((enum store_source)s);
		const char *name = store_source_name((enum store_source)s);
		const char *live = store_live_files((enum store_source)s);

		store_root_rule((enum store_source)s, &var, &sub, &home);
		if (part == 0) {
			if (var != NULL && var_ok(var)) {
				buf_addf(b, " if [ -n \"${%s:-}\" ]; then r%d=$%s", var, s + 1,
					 var);
				remote_quote(b, sub);
				buf_adds(b, "; else");
			}
			buf_addf(b, " r%d=${HOME:+\"$HOME\"/", s + 1);
			remote_quote(b, home);
			buf_addc(b, '}');
			buf_adds(b, var != NULL && var_ok(var) ? "; fi\n" : "\n");
		} else if (part == 2) {
			buf_addf(b, "   %s/*) q=$r%d/${f#*/} ;;\n", name, s + 1);
		} else {
			buf_addf(b, "  if [ -n \"$r%d\" ]; then\n   for f in", s + 1);
			/* Not a database (Cursor's chat stores): the list reads a
			 * big file's head and tail, which a database is not. */
			for (const char *l = pat; *l != '\0';
			     l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != '\0'))
				if (l[0] != '!' && glob_ok(l, strcspn(l, "\n")) &&
				    !(strcspn(l, "\n") > 3 &&
				      memcmp(l + strcspn(l, "\n") - 3, ".db", 3) == 0))
					buf_addf(b, " \"$r%d\"/%.*s", s + 1, (int)strcspn(l, "\n"),
						 l);
			buf_addf(b,
				 "; do\n"
				 "    [ -f \"$f\" ] && [ ! -L \"$f\" ] || continue\n"
				 "    rel=${f#\"$r%d\"/}\n"
				 "    case $rel in *'\n'*",
				 s + 1);
			for (const char *l = pat; *l != '\0';
			     l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != '\0'))
				if (l[0] == '!' && glob_ok(l + 1, strcspn(l, "\n") - 1))
					buf_addf(b, " | %.*s", (int)strcspn(l, "\n") - 1, l + 1);
			buf_addf(b,
				 ") continue ;; esac\n"
				 "    la \"%s/$rel\"\n"
				 "   done\n",
				 name);
			if (live != NULL && glob_ok(live, strlen(live)))
				buf_addf(b,
					 "   for f in \"$r%d\"/%s; do\n"
					 "    [ -f \"$f\" ] && [ ! -L \"$f\" ] || continue\n"
					 "    rel=${f#\"$r%d\"/}\n"
					 "    case $rel in *'\n'*) continue ;; esac\n"
					 "    la \"%s/$rel\"\n"
					 "    pid \"${f##*/}\"\n"
					 "   done\n",
					 s + 1, live, s + 1, name);
			buf_adds(b, "  fi\n");
		}
	}
}

void
remote_script(struct buf *b, const char *path, char *const *names, size_t nnames,
	      const uint64_t *off, char *const *ino, const uint64_t *fill, bool heads, bool batch)
{
	size_t n = nnames;

	/* The list reads a big file's (one of more than hz bytes) first
	 * FLEET_HEAD bytes, up to its first prompt, and its last FLEET_TAIL
	 * and one (fleet_read.c): the first REMOTE_HEAD of its head come
	 * first, the rest when the list asks (remote_head). */
	buf_addf(b, "hd= tl= bt= hz=%d\n", FLEET_HEAD + FLEET_TAIL + 1);
	if (heads)
		buf_addf(b, "hd=%d tl=%d\n", REMOTE_HEAD, FLEET_TAIL + 1);
	if (heads && batch)
		buf_adds(b, "bt=1\n");
	buf_adds(b, "p=");
	remote_quote(b, path);
	buf_adds(b, "\nset --");
	for (size_t i = 0; names != NULL && i < nnames; i++) {
		buf_addc(b, ' ');
		remote_quote(b, names[i]);
	}
	buf_addc(b, '\n');
	for (size_t i = 0; i < n; i++) {
		buf_addf(b, "o%zu=%llu n%zu=", i + 1, (unsigned long long)off[i], i + 1);
		remote_quote(b, ino[i] != NULL ? ino[i] : "");
		buf_addc(b, '\n');
		if (fill != NULL && fill[2 * i] < fill[2 * i + 1])
			buf_addf(b, "h%zu=%llu e%zu=%llu\n", i + 1, (unsigned long long)fill[2 * i],
				 i + 1, (unsigned long long)fill[2 * i + 1]);
	}
	buf_adds(b, script_head);
	/* The screen's first look at a folder: its rows from an agentview
	 * there, when there is one. */
	if (heads && batch && nnames == 0 && path[0] != '\0')
		buf_addf(b, script_rows, RFRAME_MAX);
	procs_script(b);
	buf_adds(b, script_batch);
	store_script(b, 0);
	buf_addf(b, " cr=$r%d\n", SRC_CODEX + 1);
	buf_adds(b, script_mode);
	store_script(b, 1);
	buf_adds(b, script_files);
	buf_adds(b, script_q);
	store_script(b, 2);
	buf_adds(b, script_q_end);
	buf_adds(b, script_stat);
	buf_adds(b, script_q);
	store_script(b, 2);
	buf_adds(b, script_q_end);
	buf_adds(b, script_tail);
}

bool
remote_store_name_ok(const char *name, size_t n)
{
	size_t parts = 0;
	bool live = false;
	int s;

	if (n == 0 || n >= 1024 || memchr(name, '\0', n) != NULL)
		return false;
	/* A file its source's liveness reads: a dot name where its glob
	 * says (fnmatch's FNM_PERIOD: never "." nor ".." by a '*'), its
	 * parts otherwise as any name's. */
	for (s = 0; s < SRC_COUNT && !live; s++) {
		const char *src = store_source_name((enum store_source)s);
		const char *glob = store_live_files((enum store_source)s);
		size_t sn = strlen(src);

		if (glob != NULL && n > sn + 1 && memcmp(name, src, sn) == 0 && name[sn] == '/') {
			char path[1024];

			memcpy(path, name + sn + 1, n - sn - 1);
			path[n - sn - 1] = '\0';
			live = fnmatch(glob, path, FNM_PATHNAME | FNM_PERIOD) == 0;
		}
	}
	for (size_t at = 0; at < n; parts++) {
		const char *sl = memchr(name + at, '/', n - at);
		size_t len = sl != NULL ? (size_t)(sl - (name + at)) : n - at;

		if (parts == 0) {
			for (s = 0; s < SRC_COUNT; s++)
				if (strlen(store_source_name((enum store_source)s)) == len &&
				    memcmp(name, store_source_name((enum store_source)s), len) == 0)
					break;
			if (s == SRC_COUNT || sl == NULL)
				return false;
		} else if (!remote_name_ok(name + at, len) &&
			   !(live && sl == NULL && len > 1 && name[at] == '.' &&
			     remote_name_ok(name + at + 1, len - 1))) {
			return false;
		}
		at += len + (sl != NULL);
		if (sl != NULL && at == n)
			return false;
	}
	return parts <= 8;
}

void
rparser_init(struct rparser *p)
{
	memset(p, 0, sizeof *p);
}

void
rparser_free(struct rparser *p)
{
	buf_free(&p->in);
	memset(p, 0, sizeof *p);
}

void
rparser_feed(struct rparser *p, const void *b, size_t n)
{
	if (p->bad)
		return;
	/* What was read goes before the buffer grows again. */
	if (p->pos > 0 && p->pos * 2 >= p->in.n) {
		memmove(p->in.p, p->in.p + p->pos, p->in.n - p->pos);
		p->in.n -= p->pos;
		p->pos = 0;
	}
	buf_add(&p->in, b, n);
}

/* The next number of the header h (after a single space), at most max:
 * false when there is none or it is larger. */
static bool
head_num(const char **h, uint64_t max, uint64_t *v)
{
	const char *c = *h;
	uint64_t x = 0;

	if (*c != ' ' || c[1] < '0' || c[1] > '9')
		return false;
	for (c++; *c >= '0' && *c <= '9'; c++) {
		/* (max - digit: never below 0, for a max under 9) */
		if ((uint64_t)(*c - '0') > max || x > (max - (uint64_t)(*c - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*c - '0');
	}
	*h = c;
	*v = x;
	return true;
}

/* The stream is broken: say how, read no more of it. */
static int
broken(struct rparser *p, const char *why)
{
	p->bad = true;
	snprintf(p->why, sizeof p->why, "%s", why);
	return -1;
}

bool
remote_procs_fresh(int64_t down_ms, int64_t now_ms)
{
	if (down_ms == INT64_MIN)
		return true;
	if (down_ms < 0 || now_ms < 0)
		return false; /* not a time: long ago */
	/* (a clock set back since: trusted until it passes the drop again) */
	return now_ms - down_ms < REMOTE_GRACE_MS;
}

int64_t
remote_skew(int64_t now_ms, uint64_t remote_s)
{
	int64_t d;

	if (remote_s > (uint64_t)INT64_MAX / 1000 || now_ms < 0)
		return 0;
	d = now_ms - (int64_t)remote_s * 1000;
	if (d > -2000 && d < 2000)
		return 0;
	return d >= 0 ? (d + 500) / 1000 : -((-d + 500) / 1000);
}

int64_t
remote_time(uint64_t t, int64_t skew)
{
	const int64_t max = INT64_MAX / 1000;
	int64_t v = t > (uint64_t)max ? max : (int64_t)t;

	if (skew > 0 && v > max - skew)
		return max;
	return v + skew < 0 ? 0 : v + skew;
}

int
rparser_next(struct rparser *p, struct rframe *f)
{
	const char *start = p->in.p + p->pos, *nl, *h;
	size_t avail = p->in.n - p->pos, hlen;
	char head[RFRAME_HEAD + 1];
	uint64_t idx = 0, off = 0, len = 0;
	bool body = false;

	if (p->bad)
		return -1;
	if (avail == 0)
		return 0;
	nl = memchr(start, '\n', MIN(avail, (size_t)RFRAME_HEAD + 1));
	if (nl == NULL)
		return avail > RFRAME_HEAD ? broken(p, "a header line too long") : 0;
	hlen = (size_t)(nl - start);
	memcpy(head, start, hlen);
	head[hlen] = '\0';
	if (strlen(head) != hlen)
		return broken(p, "a NUL in a header");
	memset(f, 0, sizeof *f);
	f->type = head[0];
	h = head + 1;
	switch (head[0]) {
	case RF_HELLO:
		if (strcmp(head, "H agentview-remote 1") != 0)
			return broken(p, "not agentview's remote program");
		h = head + hlen;
		break;
	case RF_MODE:
		if (strcmp(head, "M d") != 0 && strcmp(head, "M f") != 0 &&
		    strcmp(head, "M s") != 0)
			return broken(p, "an unknown mode");
		f->mode = head[2];
		h = head + hlen;
		break;
	case RF_TICK:
		break;
	case RF_INODE:
		if (!head_num(&h, RFRAME_FILES, &idx) || idx == 0 ||
		    !head_num(&h, UINT64_MAX, &f->ino))
			return broken(p, "a file number or inode out of range");
		break;
	case RF_CLOCK:
		if (!head_num(&h, (uint64_t)INT64_MAX / 1000, &off))
			return broken(p, "a clock out of range");
		break;
	case RF_MTIME:
		if (!head_num(&h, RFRAME_FILES, &idx) || idx == 0 ||
		    !head_num(&h, (uint64_t)INT64_MAX / 1000, &off))
			return broken(p, "a file number or time out of range");
		break;
	case RF_HOLE:
		if (!head_num(&h, RFRAME_FILES, &idx) || idx == 0 ||
		    !head_num(&h, (uint64_t)INT64_MAX, &off) ||
		    !head_num(&h, (uint64_t)INT64_MAX, &f->to) || f->to < off)
			return broken(p, "a file number or range out of range");
		break;
	case RF_BATCH:
		if (!head_num(&h, RFRAME_FILES, &idx) || idx == 0 ||
		    !head_num(&h, (uint64_t)INT64_MAX, &off) || !head_num(&h, 4096, &f->to) ||
		    f->to == 0)
			return broken(p, "a file number, size or name length out of range");
		break;
	case RF_BATCH_END:
		if (!head_num(&h, 1, &off))
			return broken(p, "a batch's end neither 0 nor 1");
		break;
	case RF_TRUNC:
	case RF_GONE:
		if (!head_num(&h, RFRAME_FILES, &idx) || idx == 0)
			return broken(p, "a file number out of range");
		break;
	case RF_BYTES:
		if (!head_num(&h, RFRAME_FILES, &idx) || idx == 0 ||
		    !head_num(&h, (uint64_t)INT64_MAX, &off))
			return broken(p, "a file number or offset out of range");
		/* FALLTHROUGH */
	case RF_LIST:
	case RF_ROWS:
	case RF_LIVE:
	case RF_HEADS:
	case RF_TAILS:
	case RF_WHOLE:
	case RF_ERROR:
		if (!head_num(&h, RFRAME_MAX, &len))
			return broken(p, "a length out of range");
		body = true;
		break;
	default:
		return broken(p, "an unknown frame");
	}
	if (*h != '\0')
		return broken(p, "a header with more than it should have");
	if (body) {
		size_t need = hlen + 1 + (size_t)len + 1;

		if (avail < need)
			return 0;
		if (start[need - 1] != '\n')
			return broken(p, "a frame's bytes not as long as it said");
		f->data = start + hlen + 1;
		f->len = (size_t)len;
		if (off > (uint64_t)INT64_MAX - len)
			return broken(p, "an offset out of range");
		p->pos += need;
	} else {
		p->pos += hlen + 1;
	}
	f->idx = (uint32_t)idx;
	f->off = off;
	return 1;
}

bool
remote_split(const char *body, size_t len, const uint64_t *namelen, size_t n, size_t each,
	     const char **at)
{
	size_t pos = 0;

	/* "==> NAME <==\n" then the bytes; "\n" before every header but the
	 * first (head and tail of GNU, busybox and BSD alike); the bytes
	 * alone for one file (not a header's: a head that printed one for
	 * it, then cut, is not taken for its bytes). */
	if (n == 1 && len == each && !(len >= 4 && memcmp(body, "==> ", 4) == 0)) {
		at[0] = body;
		return true;
	}
	for (size_t j = 0; j < n; j++) {
		if (j > 0 && (pos >= len || body[pos++] != '\n'))
			return false;
		if (namelen[j] > len || len - pos < 9 + namelen[j] + each ||
		    memcmp(body + pos, "==> ", 4) != 0 ||
		    memcmp(body + pos + 4 + namelen[j], " <==\n", 5) != 0)
			return false;
		pos += 9 + namelen[j];
		at[j] = body + pos;
		pos += each;
	}
	return pos == len;
}

bool
remote_split_whole(const char *body, size_t len, const uint64_t *size, size_t n, uint64_t most,
		   const char **at)
{
	size_t pos = 0;

	for (size_t j = 0; j < n; j++) {
		if (size[j] > most || size[j] > len - pos)
			return false;
		at[j] = body + pos;
		pos += (size_t)size[j];
	}
	return pos == len;
}

void
remote_procs_free(struct remote_procs *p)
{
	free(p->codex_root);
	free(p->v);
	buf_free(&p->text);
	memset(p, 0, sizeof *p);
}

/* A record's numbers: "N" then " N" up to max each, the line's end at
 * *end: how many were read, -1 when one is not a number in range. */
static int
procs_nums(const char *l, const char *end, uint64_t *v, int nv, uint64_t max)
{
	int k = 0;

	while (l < end && k < nv) {
		uint64_t x = 0;

		if (*l == ' ' && k > 0)
			l++;
		if (l >= end || *l < '0' || *l > '9')
			return -1;
		for (; l < end && *l >= '0' && *l <= '9'; l++) {
			if (x > (max - (uint64_t)(*l - '0')) / 10)
				return -1;
			x = x * 10 + (uint64_t)(*l - '0');
		}
		v[k++] = x;
	}
	return l == end ? k : -1;
}

bool
remote_procs_parse(const char *body, size_t len, struct remote_procs *p)
{
	size_t at = 0;
	bool root = false;

	remote_procs_free(p);
	while (at < len) {
		const char *l = body + at, *nl = memchr(l, '\n', len - at);
		uint64_t n[4];
		size_t ll;
		int k;

		if (nl == NULL)
			goto bad;
		ll = (size_t)(nl - l);
		at += ll + 1;
		if (ll == 1 && l[0] == '-') {
			p->noproc = true;
			continue;
		}
		if (ll == 1 && l[0] == 'r') {
			/* Codex's root there, not read (too long). */
			if (root)
				goto bad;
			root = true;
			continue;
		}
		if (ll > 2 && l[0] == 'r' && l[1] == ' ') {
			/* Codex's root there: its bytes, then a '\n'. */
			if (root || procs_nums(l + 2, nl, n, 1, 4096) != 1 || n[0] >= len - at ||
			    body[at + n[0]] != '\n' || memchr(body + at, '\0', n[0]) != NULL)
				goto bad;
			p->codex_root = xstrndup(body + at, n[0]);
			root = true;
			at += n[0] + 1;
			continue;
		}
		ARRAY_RESERVE(p->v, p->cap, p->n + 1);
		memset(&p->v[p->n], 0, sizeof p->v[p->n]);
		if (ll > 2 && l[0] == 'c' && l[1] == ' ') {
			k = procs_nums(l + 2, nl, n, 4, UINT64_MAX);
			if (k != 2 && k != 4)
				goto bad;
			p->v[p->n].codex = '?';
			if (k == 4) {
				/* CODEX_HOME's bytes then HOME's, then a '\n'. */
				if (n[2] > 4096 || n[3] > 4096 || n[2] + n[3] >= len - at ||
				    body[at + n[2] + n[3]] != '\n' ||
				    memchr(body + at, '\0', n[2] + n[3]) != NULL)
					goto bad;
				p->v[p->n].codex = 'e';
				p->v[p->n].text = p->text.n;
				buf_adds(&p->text, "CODEX_HOME=");
				buf_add(&p->text, body + at, n[2]);
				buf_add(&p->text, "\0HOME=", 6);
				buf_add(&p->text, body + at + n[2], n[3]);
				buf_addc(&p->text, '\0');
				p->v[p->n].ntext = p->text.n - p->v[p->n].text;
				at += n[2] + n[3] + 1;
			}
		} else if (ll > 2 && (l[0] == 'g' || l[0] == 'u') && l[1] == ' ') {
			char *w = l[0] == 'g' ? &p->v[p->n].gemini : &p->v[p->n].cursor;

			k = procs_nums(l + 2, nl, n, 3, UINT64_MAX);
			if (k != 2 && k != 3)
				goto bad;
			*w = '?';
			if (k == 3) {
				/* Its folder's bytes, then a '\n'. */
				if (n[2] > 4096 || n[2] >= len - at || body[at + n[2]] != '\n' ||
				    memchr(body + at, '\0', n[2]) != NULL)
					goto bad;
				*w = 'w';
				p->v[p->n].text = p->text.n;
				p->v[p->n].ntext = n[2];
				buf_add(&p->text, body + at, n[2]);
				at += n[2] + 1;
			}
		} else if (procs_nums(l, nl, n, 2, UINT64_MAX) != 2) {
			goto bad;
		}
		if (n[0] == 0 || n[0] > 0x3fffffff)
			goto bad;
		p->v[p->n].pid = (long)n[0];
		p->v[p->n].start = n[1];
		p->n++;
	}
	return true;
bad:
	remote_procs_free(p);
	return false;
}
