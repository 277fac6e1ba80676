/*
 * pvprf: the Dos32Profile commands from a shell (pvprf(1)).  init, start,
 * stop, clear, dump and exit are the API's calls on a pid; record runs a
 * program profiled from its first instruction to its exit and writes the
 * dump file; print shows a dump file as OS/2's tools did.  Everything
 * goes through libpvprf, as another program's calls would.
 */
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "capture/pvprf/pvprf.h"
#include "capture/pvprf/prfd.h"
#include "capture/pvprf/pvprfc.h"
#include "vis.h"
#include "xmalloc.h"
#include "outfile.h"
#include "suggest.h"

/* record's hit table: 1M entries, 17 minutes at 1 kHz. */
#define RECORD_BUFSZ	(1024ul * 1024 * sizeof (ULONG))

static pid_t	child;

#define SYNOPSIS \
	"usage: pvprf init PID [-t USEC] [-b BYTES] [--st] [--kernel]" \
	" [--hit] [--total]\n" \
	"\t\t[--wrap] [--flgbits N,N...] [--slots auto|ADDR:SIZE[:MODE]" \
	"...]\n" \
	"       pvprf start|stop|clear|exit PID\n" \
	"       pvprf dump PID [-o FILE]\n" \
	"       pvprf record [-o FILE] [-F HZ] [-b BYTES] [--wrap] [--st]" \
	"\n\t\t[--slots auto|ADDR:SIZE...] -- PROG [ARGS]\n" \
	"       pvprf print FILE\n"

/* The commands, in the order a mistyped one is matched against them. */
static const char *const commands[] = {
	"record", "print", "dump", "init", "start", "stop", "clear", "exit"
};

/* A bad command line: the synopsis, on standard error. */
static void
usage(void)
{
	fputs(SYNOPSIS "(pvprf --help for the commands and options)\n",
	    stderr);
	exit(2);
}

/* --help: all of it, on standard output, which must take it whole. */
static int
help(void)
{
	fputs(SYNOPSIS
	    "\n"
	    "commands (Dos32Profile's calls on a process, through pvprfd):\n"
	    "  init PID        make a profile (PRF_CM_INIT); pid 0 with"
	    " --kernel:\n"
	    "                  the whole system\n"
	    "  start, stop, clear, exit PID\n"
	    "                  start or stop sampling, zero the counters,"
	    " delete it\n"
	    "  dump PID        write the profile to FILE (default"
	    " PID.prfd)\n"
	    "  record -- PROG  run PROG profiled from its first instruction"
	    " to its\n"
	    "                  end and write PROG.prfd (or FILE)\n"
	    "  print FILE      print a dump file as OS/2's tools did\n"
	    "\n"
	    "options:\n"
	    "  -t, --timer USEC    init: the sampling period, 100 to 65535 us"
	    " (1000)\n"
	    "  -F, --freq HZ       record: the sampling frequency, 16 to"
	    " 10000 (1000)\n"
	    "  -b, --bufsz BYTES   the hit table's size (record: 8 MiB)\n"
	    "  -o, --output FILE   dump, record: the dump file\n"
	    "  --st                the main thread alone (default: every"
	    " thread)\n"
	    "  --kernel            the kernel (init 0)\n"
	    "  --hit               init: the hit table (needs -b)\n"
	    "  --total             init: totals only, no detail counters\n"
	    "  --wrap              a full hit table takes new entries over"
	    " the oldest\n"
	    "  --flgbits N,N...    init: the clock divider, 2 to 255 values"
	    " of 1 to 255\n"
	    "  --slots auto|ADDR:SIZE[:MODE],...\n"
	    "                      the slots; auto: each executable mapping"
	    " of the\n"
	    "                      program (record's default)\n"
	    "  -h, --help          this text\n"
	    "  -V, --version       the version\n"
	    "\n"
	    "exit status: 0; 1 a command's error; 2 usage; 3 Dos32Profile"
	    " failed\n"
	    "(its number and name are printed); record exits as the program"
	    " did\n", stdout);
	return (fflush(stdout) != 0 || ferror(stdout) ? 1 : 0);
}

static const char *
rc_name(APIRET rc)
{
	switch (rc) {
	case NO_ERROR:
		return ("NO_ERROR");
	case ERROR_NOT_ENOUGH_MEMORY:
		return ("ERROR_NOT_ENOUGH_MEMORY");
	case ERROR_INVALID_PARAMETER:
		return ("ERROR_INVALID_PARAMETER");
	case ERROR_BUFFER_OVERFLOW:
		return ("ERROR_BUFFER_OVERFLOW");
	case ERROR_PROTECTION_VIOLATION:
		return ("ERROR_PROTECTION_VIOLATION");
	case ERROR_MOD_NOT_FOUND:
		return ("ERROR_MOD_NOT_FOUND");
	case ERROR_INVALID_PROCID:
		return ("ERROR_INVALID_PROCID");
	case ERROR_SYS_INTERNAL:
		return ("ERROR_SYS_INTERNAL");
	case ERROR_PRF_NOT_INITIALIZED:
		return ("ERROR_PRF_NOT_INITIALIZED");
	case ERROR_PRF_ALREADY_INITIALIZED:
		return ("ERROR_PRF_ALREADY_INITIALIZED");
	case ERROR_PRF_NOT_STARTED:
		return ("ERROR_PRF_NOT_STARTED");
	case ERROR_PRF_ALREADY_STARTED:
		return ("ERROR_PRF_ALREADY_STARTED");
	case ERROR_PRF_TIMER_OUT_OF_RANGE:
		return ("ERROR_PRF_TIMER_OUT_OF_RANGE");
	case ERROR_PRF_TIMER_RESET:
		return ("ERROR_PRF_TIMER_RESET");
	}
	return ("unknown");
}

/*
 * An API error: its number (what scripts test), its name and, when the
 * library or the daemon said, why.
 */
static int
api_fail(const char *what, PID pid, APIRET rc)
{
	const char	*why = Dos32ProfileError();

	fprintf(stderr, "pvprf: %s %lu: %lu %s", what, pid, rc, rc_name(rc));
	/* The daemon's words (a path, say) made safe for a terminal. */
	if (why != NULL) {
		fputs(": ", stderr);
		vis_fputs(why, stderr);
	}
	fputc('\n', stderr);
	return (3);
}

static int
parse_u64(const char *s, uint64_t *v)
{
	char	*end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return (*s == '\0' || *end != '\0' || errno != 0 || *s == '-' ?
	    -1 : 0);
}

static PID
parse_pid(const char *s)
{
	uint64_t	v;

	if (parse_u64(s, &v) != 0 || v > INT_MAX) {
		fprintf(stderr, "pvprf: %s: not a pid\n", s);
		exit(2);
	}
	return (v);
}

/*
 * The executable mappings of the process's program (its own file, not
 * the libraries: those are shared memory), one slot each.
 */
static int
auto_slots(pid_t pid, PRFSLOT **slots, size_t *n)
{
	char		 path[64], exe[PATH_MAX], line[PATH_MAX + 128], *p;
	unsigned long	 lo, hi;
	char		 perm[8];
	ssize_t		 len;
	int		 off;
	FILE		*f;

	snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
	if ((len = readlink(path, exe, sizeof exe - 1)) < 0)
		return (-1);
	exe[len] = '\0';
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		off = -1;
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perm,
		    &off) < 3 || off < 0 || strchr(perm, 'x') == NULL)
			continue;
		p = line + off;
		p[strcspn(p, "\n")] = '\0';
		if (strcmp(p, exe) != 0 || *n >= 255)
			continue;
		*slots = xreallocarray(*slots, *n + 1, sizeof **slots);
		(*slots)[*n].sl_vaddr = lo;
		(*slots)[*n].sl_size = hi - lo;
		(*slots)[*n].sl_mode = 1;
		(*n)++;
	}
	fclose(f);
	return (*n > 0 ? 0 : -1);
}

/* ADDR:SIZE[:MODE], several separated by commas. */
static int
add_slots(const char *arg, PRFSLOT **slots, size_t *n)
{
	char		*copy = xstrdup(arg), *s, *save = NULL, *a, *z, *m;
	uint64_t	 v[3];

	for (s = strtok_r(copy, ",", &save); s != NULL;
	    s = strtok_r(NULL, ",", &save)) {
		a = s;
		if ((z = strchr(a, ':')) == NULL)
			goto bad;
		*z++ = '\0';
		v[2] = 1;
		if ((m = strchr(z, ':')) != NULL)
			*m++ = '\0';
		if (parse_u64(a, &v[0]) != 0 || parse_u64(z, &v[1]) != 0 ||
		    (m != NULL && parse_u64(m, &v[2]) != 0))
			goto bad;
		*slots = xreallocarray(*slots, *n + 1, sizeof **slots);
		(*slots)[*n].sl_vaddr = v[0];
		(*slots)[*n].sl_size = v[1];
		(*slots)[*n].sl_mode = v[2];
		(*n)++;
	}
	free(copy);
	return (0);
bad:
	fprintf(stderr, "pvprf: --slots %s: not ADDR:SIZE[:MODE]\n", arg);
	free(copy);
	return (-1);
}

struct opts {
	const char	*out;
	uint64_t	 bufsz;
	int		 have_bufsz;
	unsigned	 timval;
	uint16_t	 flags;
	int		 auto_slots;
	PRFSLOT		*slots;
	size_t		 nslots;
	UCHAR		 flg[255];
	unsigned	 nflg;
};

static int
parse_opts(int argc, char **argv, struct opts *o, int record)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "timer", required_argument, NULL, 't' },
		{ "freq", required_argument, NULL, 'F' },
		{ "bufsz", required_argument, NULL, 'b' },
		{ "st", no_argument, NULL, 's' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "hit", no_argument, NULL, 'H' },
		{ "total", no_argument, NULL, 'T' },
		{ "wrap", no_argument, NULL, 'w' },
		{ "flgbits", required_argument, NULL, 'f' },
		{ "slots", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t	 v;
	char		*copy, *s, *save;
	int		 c;

	while ((c = getopt_long(argc, argv, "+o:t:F:b:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 't':
			if (parse_u64(optarg, &v) != 0 || v > 65535)
				goto bad;
			o->timval = v;
			break;
		case 'F':
			/* The period in whole microseconds, 0 if too fast. */
			if (parse_u64(optarg, &v) != 0 || v == 0)
				goto bad;
			o->timval = v > 1000000 ? 0 : (1000000 + v / 2) / v;
			if (o->timval == 0 || o->timval > 65535) {
				fprintf(stderr, "pvprf: -F %s: from 16 to"
				    " 10000 Hz\n", optarg);
				return (-1);
			}
			break;
		case 'b':
			if (parse_u64(optarg, &v) != 0 || v > ULONG_MAX)
				goto bad;
			o->bufsz = v;
			o->have_bufsz = 1;
			break;
		case 's':
			o->flags = (o->flags & ~3) | PRF_PROCESS_ST;
			break;
		case 'k':
			o->flags = (o->flags & ~3) | PRF_KERNEL;
			break;
		case 'H':
			o->flags |= PRF_VAHIT;
			break;
		case 'T':
			o->flags |= PRF_VATOTAL;
			break;
		case 'w':
			o->flags |= PRF_WRAP;
			break;
		case 'f':
			o->flags |= PRF_FLGBITS;
			copy = xstrdup(optarg);
			save = NULL;
			for (s = strtok_r(copy, ",", &save); s != NULL;
			    s = strtok_r(NULL, ",", &save)) {
				if (parse_u64(s, &v) != 0 || v > 255 ||
				    o->nflg == sizeof o->flg) {
					free(copy);
					goto bad;
				}
				o->flg[o->nflg++] = v;
			}
			free(copy);
			break;
		case 'S':
			if (strcmp(optarg, "auto") == 0)
				o->auto_slots = 1;
			else if (add_slots(optarg, &o->slots, &o->nslots) != 0)
				return (-1);
			break;
		default:
			usage();
		}
		if (!record && (c == 'o' || c == 'F'))
			usage();
	}
	return (0);
bad:
	fprintf(stderr, "pvprf: -%c %s: not a value pvprf takes\n", c, optarg);
	return (-1);
}

static APIRET
init(PID pid, struct opts *o)
{
	PRFCMD	cmd;

	if (o->auto_slots && auto_slots(pid, &o->slots, &o->nslots) != 0) {
		fprintf(stderr, "pvprf: %lu: no executable mapping of its"
		    " program found\n", pid);
		exit(1);
	}
	memset(&cmd, 0, sizeof cmd);
	cmd.cm_slots = o->slots;
	cmd.cm_nslots = o->nslots > 65535 ? 65535 : o->nslots;
	cmd.cm_flags = o->flags;
	cmd.cm_bufsz = o->bufsz;
	cmd.cm_timval = o->timval;
	cmd.cm_flgbits = o->flg;
	cmd.cm_nflgs = o->nflg;
	return (Dos32Profile(PRF_CM_INIT, pid, &cmd, NULL));
}

/* One DUMP into a buffer of the size it needs (asked first). */
static APIRET
dump_one(PID pid, UCHAR cmd, USHORT thrdno, ULONG vaddr, void **buf,
    ULONG *len)
{
	PRFRET	ret;
	APIRET	rc;

	*buf = NULL;
	for (;;) {
		memset(&ret, 0, sizeof ret);
		ret.us_cmd = cmd;
		ret.us_thrdno = thrdno;
		ret.us_vaddr = vaddr;
		ret.us_bufsz = 0;
		ret.us_buf = NULL;
		rc = Dos32Profile(PRF_CM_DUMP, pid, NULL, &ret);
		if (rc != ERROR_BUFFER_OVERFLOW)
			return (rc);
		*buf = xmalloc(ret.us_bufsz);
		ret.us_buf = *buf;
		rc = Dos32Profile(PRF_CM_DUMP, pid, NULL, &ret);
		/* It grew in between (the profile runs): ask again. */
		if (rc == ERROR_BUFFER_OVERFLOW) {
			free(*buf);
			*buf = NULL;
			continue;
		}
		*len = ret.us_bufsz;
		return (rc);
	}
}

/* One record: 0, an API error's exit status, or -1 (errno) to say. */
static int
put(FILE *f, PID pid, UCHAR cmd, USHORT thrdno, ULONG vaddr, void **keep,
    ULONG *keeplen)
{
	void	*buf;
	ULONG	 len = 0;
	APIRET	 rc;

	if ((rc = dump_one(pid, cmd, thrdno, vaddr, &buf, &len)) != 0)
		return (api_fail("dump", pid, rc));
	if (dfile_record(f, sizeof (ULONG), cmd, thrdno, vaddr, buf,
	    len) != 0) {
		free(buf);
		return (-1);
	}
	if (keep != NULL) {
		*keep = buf;
		*keeplen = len;
	} else
		free(buf);
	return (0);
}

/*
 * The dump file of pid: the process's PRFRET0, each thread's, the slots,
 * the hit table, each slot's detail counters and the extension record,
 * written to a temporary name and renamed, so that no half file is left.
 */
static int
write_dump(PID pid, const char *path)
{
	PRFRET0	*g;
	PRFRET1	*s;
	void	*gb, *sb;
	ULONG	 gl, sl;
	struct outfile o;
	FILE	*f;
	int	 r = 1;
	size_t	 i, n;
	APIRET	 rc;

	/* 0600 (it holds the command line), never through a symlink. */
	if ((f = outfile_fopen(&o, path, "wb")) == NULL) {
		fprintf(stderr, "pvprf: %s: %s\n", path, strerror(errno));
		return (1);
	}
	if ((rc = dump_one(pid, PRF_RET_GLOBAL, 0, 0, &gb, &gl)) != 0) {
		r = api_fail("dump", pid, rc);
		goto out;
	}
	g = gb;
	if (gl != sizeof *g || dfile_header(f, sizeof (ULONG), pid,
	    g->r0_timval) != 0 || dfile_record(f, sizeof (ULONG),
	    PRF_RET_GLOBAL, 0, 0, gb, gl) != 0) {
		free(gb);
		goto io;
	}
	n = g->r0_nstruc2;
	free(gb);
	for (i = 1; i <= n; i++) {
		if ((r = put(f, pid, PRF_RET_GLOBAL, i, 0, NULL, NULL)) != 0)
			goto out;
	}
	if ((r = put(f, pid, PRF_RET_VASLOTS, 0, 0, &sb, &sl)) != 0)
		goto out;
	if ((r = put(f, pid, PRF_RET_VAHITS, 0, 0, NULL, NULL)) != 0) {
		free(sb);
		goto out;
	}
	s = sb;
	for (i = 0; i < s->r1_nslots && 1 + (i + 1) * sizeof (PRFVA) <= sl;
	    i++) {
		/* va_reserved: the slot's detail counters (pvprf(3)). */
		if (s->r1_slots[i].va_reserved == 0)
			continue;
		if ((r = put(f, pid, PRF_RET_VADETAIL, 0,
		    s->r1_slots[i].va_vaddr, NULL, NULL)) != 0) {
			free(sb);
			goto out;
		}
	}
	free(sb);
	if ((r = put(f, pid, PRF_RET_PVEXT, 0, 0, NULL, NULL)) != 0)
		goto out;
	if (outfile_fclose(&o, f) == 0)
		return (0);
	f = NULL;
io:
	r = -1;
out:
	if (r < 0) {
		/* A write that failed (a full disk): said, and status 1. */
		fprintf(stderr, "pvprf: %s: %s\n", path, strerror(errno));
		r = 1;
	}
	if (f != NULL)
		outfile_fabort(&o, f);
	return (r);
}

static void
forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/*
 * record: the program stops at its exec (ptrace), when its own mappings
 * are there to make slots of; the profile is made and started, the
 * program let go, and dumped when it has ended.  Its output and exit
 * status are its own.
 */
static int
record(int argc, char **argv)
{
	static const int fwd[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2,
	    SIGALRM, SIGCONT, SIGWINCH };
	struct opts	 o;
	struct sigaction sa;
	char		*out, *base;
	int		 status, r;
	size_t		 i;
	APIRET		 rc;
	pid_t		 pid;

	memset(&o, 0, sizeof o);
	o.flags = PRF_PROCESS_MT | PRF_VAHIT;
	o.bufsz = RECORD_BUFSZ;
	optind = 1;
	if (parse_opts(argc, argv, &o, 1) != 0)
		return (2);
	if (optind >= argc)
		usage();
	if ((o.flags & 3) == PRF_KERNEL) {
		fprintf(stderr, "pvprf: record profiles a program, not the"
		    " kernel (pvprf init 0 --kernel)\n");
		return (2);
	}
	if (o.nslots == 0)
		o.auto_slots = 1;
	if (o.out != NULL)
		out = xstrdup(o.out);
	else {
		base = strrchr(argv[optind], '/');
		out = xasprintf("%s.prfd", base ? base + 1 : argv[optind]);
	}

	fflush(NULL);
	if ((pid = fork()) < 0) {
		fprintf(stderr, "pvprf: fork: %s\n", strerror(errno));
		r = 1;
		goto done;
	}
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "pvprf: %s: %s\n", argv[optind],
		    strerror(errno));
		_exit(127);
	}
	child = pid;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = forward;
	for (i = 0; i < sizeof fwd / sizeof fwd[0]; i++)
		sigaction(fwd[i], &sa, NULL);
	/* ^C and ^\ reach the program from the terminal: let it decide. */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFSTOPPED(status)) {
		/* The exec failed: the child said why. */
		r = WIFEXITED(status) ? WEXITSTATUS(status) : 127;
		goto done;
	}
	if (o.auto_slots && auto_slots(pid, &o.slots, &o.nslots) != 0) {
		fprintf(stderr, "pvprf: %s: no executable mapping found\n",
		    argv[optind]);
		kill(pid, SIGKILL);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		r = 1;
		goto done;
	}
	o.auto_slots = 0;
	for (i = 0; i < o.nslots; i++)
		o.slots[i].sl_mode = 1;
	if ((rc = init(pid, &o)) != 0 ||
	    (rc = Dos32Profile(PRF_CM_START, pid, NULL, NULL)) != 0) {
		r = api_fail("record", pid, rc);
		kill(pid, SIGKILL);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		Dos32Profile(PRF_CM_EXIT, pid, NULL, NULL);
		goto done;
	}
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child = 0;
	r = 0;
	rc = Dos32Profile(PRF_CM_STOP, pid, NULL, NULL);
	if (rc != 0)
		r = api_fail("stop", pid, rc);
	else if (write_dump(pid, out) != 0)
		r = 1;
	Dos32Profile(PRF_CM_EXIT, pid, NULL, NULL);
	if (r != 0)
		fprintf(stderr, "pvprf: %s not written\n", out);
	free(out);
	free(o.slots);
	if (WIFSIGNALED(status)) {
		/* Die the same way, as a shell would see it. */
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return (128 + WTERMSIG(status));
	}
	return (r != 0 && WEXITSTATUS(status) == 0 ? 1 :
	    WEXITSTATUS(status));
done:
	free(out);
	free(o.slots);
	return (r);
}

static int
print(int argc, char **argv)
{
	struct dfile	 d;
	char		*cause;

	if (argc != 2)
		usage();
	if (dfile_read(argv[1], &d, &cause) != 0 ||
	    dfile_print(&d, stdout, &cause) != 0) {
		fprintf(stderr, "pvprf: %s\n", cause);
		free(cause);
		dfile_free(&d);
		return (1);
	}
	dfile_free(&d);
	return (fflush(stdout) == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	static const struct { const char *name; ULONG func; } calls[] = {
		{ "start", PRF_CM_START }, { "stop", PRF_CM_STOP },
		{ "clear", PRF_CM_CLEAR }, { "exit", PRF_CM_EXIT },
	};
	struct opts	 o;
	const char	*cmd, *near;
	char		*out;
	PID		 pid;
	APIRET		 rc;
	size_t		 i;
	int		 r;

	if (argc < 2)
		usage();
	cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0)
		return (help());
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
		printf("pvprf (profview) %s\n", PACKAGE_VERSION);
		return (fflush(stdout) != 0 || ferror(stdout) ? 1 : 0);
	}
	/*
	 * Before anything is taken for a pid: "pvprf recrd -- ./calc" said
	 * "--: not a pid", of the word after the one mistyped.
	 */
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(cmd, commands[i]) == 0)
			break;
	}
	if (i == sizeof commands / sizeof commands[0]) {
		if (*cmd == '-') {
			fprintf(stderr, "pvprf: unknown option '%s'\n", cmd);
			usage();
		}
		near = suggest(cmd, commands, i);
		if (near != NULL) {
			fprintf(stderr, "pvprf: unknown command '%s' (did you"
			    " mean '%s'?)\n", cmd, near);
			return (2);
		}
		fprintf(stderr, "pvprf: unknown command '%s'\n", cmd);
		usage();
	}
	if (strcmp(cmd, "record") == 0)
		return (record(argc - 1, argv + 1));
	if (strcmp(cmd, "print") == 0)
		return (print(argc - 1, argv + 1));
	if (argc < 3)
		usage();
	pid = parse_pid(argv[2]);
	for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		if (strcmp(cmd, calls[i].name) != 0)
			continue;
		if (argc != 3)
			usage();
		rc = Dos32Profile(calls[i].func, pid, NULL, NULL);
		return (rc != 0 ? api_fail(cmd, pid, rc) : 0);
	}
	memset(&o, 0, sizeof o);
	if (strcmp(cmd, "init") == 0) {
		optind = 2;
		if (parse_opts(argc - 1, argv + 1, &o, 0) != 0)
			return (2);
		if (optind != argc - 1)
			usage();
		rc = init(pid, &o);
		free(o.slots);
		return (rc != 0 ? api_fail("init", pid, rc) : 0);
	}
	if (strcmp(cmd, "dump") == 0) {
		optind = 2;
		if (parse_opts(argc - 1, argv + 1, &o, 1) != 0)
			return (2);
		if (optind != argc - 1)
			usage();
		out = o.out != NULL ? xstrdup(o.out) :
		    xasprintf("%lu.prfd", pid);
		r = write_dump(pid, out);
		free(out);
		return (r);
	}
	usage();
}
