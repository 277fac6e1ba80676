/*
 * pvtrace: the command.  "pvtrace plan PROG" is the Amiga profiler's p1
 * (writes PROG.pdt); "pvtrace -- PROG ARGS" is p2: it runs PROG with the
 * agent preloaded and the counters in memory it shares with it, waits for
 * the program and everything it started, and writes PROG.mon.  The
 * program's output, exit status and death by signal are passed on
 * unchanged.
 */
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "execprog.h"
#include "capture/pvtrace/pvtrace.h"
#include "suggest.h"

#define EXIT_USAGE	2
#define EXIT_TOOL	127	/* pvtrace itself failed, as env(1) does */

static const char	*pvt_libs[64];
static size_t		 pvt_nlibs;
static int		 pvt_verbose;
static int		 pvt_plan_flags;
static volatile pid_t	 pvt_child;
static volatile sig_atomic_t pvt_stop;	/* stop waiting for orphans */
/* What a run passes on to its program (pvt_forward). */
static const int	 pvt_forwarded[] = { SIGTERM, SIGHUP, SIGUSR1,
			     SIGUSR2, SIGALRM };

static void __attribute__((format(printf, 1, 2)))
pvt_warn(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	fputs("pvtrace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void __attribute__((format(printf, 1, 2), noreturn))
pvt_die(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	fputs("pvtrace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(EXIT_TOOL);
}

#define PVT_SYNOPSIS \
	"usage: pvtrace plan [-v] [-o FILE] [--lib NAME]... [--no-lib]" \
	" [--no-padding]\n" \
	"                    [--no-leaf] PROG\n" \
	"       pvtrace [-av] [-o FILE] [-p PLAN] [--lib NAME]... [--no-lib]" \
	"\n" \
	"               [--no-padding] [--no-leaf] [--rate HZ] -- PROG" \
	" [ARG]...\n"

/* A bad command line: the synopsis, on standard error. */
static void __attribute__((noreturn))
pvt_usage(void)
{
	fputs(PVT_SYNOPSIS "(pvtrace --help for the options)\n", stderr);
	exit(EXIT_USAGE);
}

/* --help: all of it, on standard output, which must take it whole. */
static void __attribute__((noreturn))
pvt_help(void)
{
	fputs(PVT_SYNOPSIS
	    "\n"
	    "plan writes PROG.pdt, which functions are patched or trapped;"
	    " a run\n"
	    "runs PROG with the agent preloaded (planning first if there is"
	    " no plan)\n"
	    "and writes its call counts and times to PROG.mon.\n"
	    "\n"
	    "options:\n"
	    "  -a               add to an existing .mon instead of replacing"
	    " it\n"
	    "  -o FILE          write the plan (plan) or the profile to"
	    " FILE\n"
	    "  -p PLAN          use this plan file, made there if it does not"
	    " exist\n"
	    "  -v               plan: list the trapped functions too; run: say"
	    " what\n"
	    "                   was written\n"
	    "  --lib NAME       plan and trace a shared library too"
	    " (repeatable)\n"
	    "  --no-lib         leave out the library functions called through"
	    " the PLT\n"
	    "                   (counted by default)\n"
	    "  --no-padding     trap functions shorter than a jump instead of"
	    " covering\n"
	    "                   the fill after them\n"
	    "  --no-leaf        give leaf functions the full probe too (their"
	    " trap\n"
	    "                   times measured, their samples less true)\n"
	    "  --rate HZ        run: sample each thread's path HZ times a"
	    " second\n"
	    "                   (default 1000; 0: no samples, trap times"
	    " only)\n"
	    "  -h, --help       this text\n"
	    "  -V, --version    the version\n"
	    "\n"
	    "exit status: plan 0, 2 usage, 127 when it cannot plan; a run, the"
	    " program's\n"
	    "(or its signal), 127 when pvtrace fails before it runs\n",
	    stdout);
	exit(fflush(stdout) != 0 || ferror(stdout) ? EXIT_TOOL : 0);
}

static void __attribute__((noreturn))
pvt_version(void)
{
	printf("pvtrace (profview) %s\n", PACKAGE_VERSION);
	exit(fflush(stdout) != 0 || ferror(stdout) ? EXIT_TOOL : 0);
}

static uint64_t
pvt_mono(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

/*
 * Which clock the agents read: the TSC only where the kernel keeps time
 * with it (a VM that says "tsc=unstable" may step it between readings);
 * else CLOCK_MONOTONIC.  PVTRACE_CLOCK=tsc|monotonic decides instead.
 */
static int
pvt_clock_mono(void)
{
	const char	*env = getenv("PVTRACE_CLOCK");
	char		 cs[64] = "";
	FILE		*f;

	if (env != NULL && strcmp(env, "tsc") == 0)
		return (0);
	if (env != NULL && strcmp(env, "monotonic") == 0)
		return (1);
	f = fopen("/sys/devices/system/clocksource/clocksource0/"
	    "current_clocksource", "r");
	if (f != NULL) {
		if (fgets(cs, sizeof cs, f) == NULL)
			cs[0] = '\0';
		fclose(f);
	}
	return (strcmp(cs, "tsc\n") != 0);
}

/*
 * PROG as execvp would find it, made absolute and real, or NULL (errno)
 * if it is not there.
 */
static char *
pvt_lookup(const char *prog)
{
	char	buf[PATH_MAX];

	if (!execprog_find(prog, buf, sizeof buf)) {
		errno = ENOENT;
		return (NULL);
	}
	return (realpath(buf, NULL));
}

static char *
pvt_find_prog(const char *prog)
{
	char	*r;

	if ((r = pvt_lookup(prog)) != NULL)
		return (r);
	if (strchr(prog, '/') != NULL)
		pvt_die("%s: %s", prog, strerror(errno));
	pvt_die("%s: not found in PATH", prog);
}

/*
 * The word a run takes for its program, when no program has that name
 * and it is near "plan" ("plna", "pla"): a mistyped command, which "not
 * found in PATH" would leave the user to guess.  A program of that name,
 * on PATH or here, is run as asked.
 */
static void
pvt_check_command(const char *word)
{
	static const char *const cmds[] = { "plan" };
	const char		*near;
	char			*r;

	if (strchr(word, '/') != NULL || strcmp(word, "plan") == 0 ||
	    (near = suggest(word, cmds, 1)) == NULL)
		return;
	if ((r = pvt_lookup(word)) != NULL || access(word, F_OK) == 0) {
		free(r);
		return;
	}
	pvt_warn("unknown command '%s' (did you mean '%s'?)", word, near);
	exit(EXIT_USAGE);
}

/*
 * Refuse a program that exec would run with other credentials: set-user-
 * ID to another user, set-group-ID to another group, or given file
 * capabilities (not root).  The loader runs such a program in secure mode
 * and ignores LD_PRELOAD, so the agent would never load and the profile
 * would be empty, without a word.  The kernel's own exceptions are kept:
 * a nosuid mount, and no_new_privs, run it with ours.
 */
static void
pvt_check_secure(const char *prog)
{
	struct stat	 st;
	struct passwd	*pw;
	struct group	*gr;
	char		 id[32];

	switch (execprog_secure(prog, &st)) {
	case EXECPROG_SETUID:
		if ((pw = getpwuid(st.st_uid)) == NULL)
			snprintf(id, sizeof id, "%u", (unsigned)st.st_uid);
		pvt_die("%s is set-user-ID (to %s): the loader ignores"
		    " LD_PRELOAD for it, so the agent cannot be loaded and"
		    " nothing would be counted; no profile written", prog,
		    pw != NULL ? pw->pw_name : id);
	case EXECPROG_SETGID:
		if ((gr = getgrgid(st.st_gid)) == NULL)
			snprintf(id, sizeof id, "%u", (unsigned)st.st_gid);
		pvt_die("%s is set-group-ID (to %s): the loader ignores"
		    " LD_PRELOAD for it, so the agent cannot be loaded and"
		    " nothing would be counted; no profile written", prog,
		    gr != NULL ? gr->gr_name : id);
	case EXECPROG_CAPS:
		pvt_die("%s has file capabilities: the loader ignores"
		    " LD_PRELOAD for it, so the agent cannot be loaded and"
		    " nothing would be counted; no profile written", prog);
	}
}

/* NAME.EXT in the current directory, for a program path. */
static char *
pvt_beside(const char *prog, const char *ext)
{
	const char	*base = strrchr(prog, '/');
	char		*r;

	base = base != NULL ? base + 1 : prog;
	if (asprintf(&r, "%s.%s", base, ext) < 0)
		pvt_die("out of memory");
	return (r);
}

static void
pvt_resolve_libs(const char *prog, const char **out)
{
	size_t	 i;
	char	*path, *cause;

	for (i = 0; i < pvt_nlibs; i++) {
		if (pvt_plan_resolve_lib(prog, pvt_libs[i], &path,
		    &cause) != 0)
			pvt_die("%s", cause);
		out[i] = path;
	}
}

/* Whether a plan has the library calls (made without --no-lib). */
static int
pvt_plan_libcalls(const struct pvt_plan *p)
{
	size_t	i;

	for (i = 0; i < p->nfn; i++) {
		if (p->fn[i].flags & PVT_F_GOT)
			return (1);
	}
	return (0);
}

static void
pvt_print_left_out(const struct pvt_plan *p, int traps)
{
	const struct pvt_func	*f;
	size_t			 i;

	for (i = 0; i < p->nfn; i++) {
		f = &p->fn[i];
		if (f->how == PVT_OUT || (traps && f->how == PVT_TRAP)) {
			printf("%s %s: %s: ", f->how == PVT_OUT ? "left out" :
			    "trapped", p->str + p->mod[f->module].name,
			    p->str + f->name);
			printf("%s\n", p->str + f->reason);
		}
	}
}

struct pvt_opts {
	const char	*out, *plan;
	int		 accumulate;
	long		 rate;		/* --rate */
};

/* The options both commands take (each allows those in optstring). */
static void
pvt_options(int argc, char **argv, const char *optstring,
    struct pvt_opts *o)
{
	static const struct option opts[] = {
		{ "lib", required_argument, NULL, 'l' },
		{ "no-lib", no_argument, NULL, 'N' },
		{ "no-padding", no_argument, NULL, 'P' },
		{ "no-leaf", no_argument, NULL, 'F' },
		{ "rate", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char	*end;
	int	 c;

	memset(o, 0, sizeof *o);
	o->rate = PVT_RATE_DEFAULT;
	optind = 1;
	while ((c = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->accumulate = 1;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'p':
			o->plan = optarg;
			break;
		case 'v':
			pvt_verbose = 1;
			break;
		case 'l':
			if (pvt_nlibs == 63)
				pvt_die("too many --lib");
			pvt_libs[pvt_nlibs++] = optarg;
			break;
		case 'N':
			pvt_plan_flags |= PVT_PLAN_NOLIB;
			break;
		case 'P':
			pvt_plan_flags |= PVT_PLAN_NOPAD;
			break;
		case 'F':
			pvt_plan_flags |= PVT_PLAN_NOLEAF;
			break;
		case 'R':
			o->rate = strtol(optarg, &end, 10);
			if (end == optarg || *end != '\0' || o->rate < 0 ||
			    o->rate > 100000)
				pvt_die("--rate %s: not a rate from 0 to 100000"
				    " Hz", optarg);
			break;
		case 'h':
			pvt_help();
		case 'V':
			pvt_version();
		default:
			pvt_usage();
		}
	}
}

/*
 * Say, before the program runs, what a module without a symbol table
 * leaves to trace: only the functions its .dynsym exports (none, for a
 * stripped program that exports nothing), where a user would otherwise
 * find a profile with nothing in it and no word why.  Before a run
 * (run), nothing at all to trace is an error: no profile is written.
 */
static void
pvt_check_symbols(const struct pvt_plan *p, const char *prog, int run)
{
	const struct pvt_module	*m;
	size_t			 i, j, dyn, got, traced;

	for (i = 0; i < p->nmod; i++) {
		m = &p->mod[i];
		for (dyn = got = traced = 0, j = m->first;
		    j < m->first + m->nfunc; j++) {
			if (p->fn[j].flags & PVT_F_GOT) {
				got++;
				continue;
			}
			if (p->fn[j].flags & PVT_F_DYNSYM)
				dyn++;
			if (p->fn[j].how != PVT_OUT)
				traced++;
		}
		if (dyn != m->nfunc - got)
			continue;	/* it has a .symtab */
		pvt_warn("%s: no symbol table (stripped): only its exported"
		    " functions (.dynsym) can be traced: %zu of them, %zu"
		    " patched or trapped", p->str + m->path, dyn, traced);
	}
	if (run && p->counts[PVT_JUMP] + p->counts[PVT_TRAP] == 0)
		pvt_die("%s: no function of its own can be traced: nothing to"
		    " profile"
		    " (rebuild it unstripped, or name a library with --lib)",
		    prog);
}


static int
pvt_cmd_plan(int argc, char **argv)
{
	struct pvt_plan	 p;
	const char	*libs[64];
	char		*prog, *pdt, *cause;
	struct timespec	 t0, t1;
	struct pvt_opts	 o;
	int		 c;

	pvt_options(argc, argv, "+o:vhV", &o);
	if (argc - optind != 1)
		pvt_usage();
	prog = pvt_find_prog(argv[optind]);
	pvt_resolve_libs(prog, libs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pvt_plan_make(&p, prog, libs, pvt_nlibs, pvt_plan_flags,
	    &cause) != 0)
		pvt_die("%s", cause);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pdt = o.out != NULL ? strdup(o.out) : pvt_beside(prog, "pdt");
	if (pvt_pdt_write(&p, pdt, &cause) != 0)
		pvt_die("%s", cause);
	pvt_print_left_out(&p, pvt_verbose);
	pvt_pdt_summary(&p, stdout);
	pvt_check_symbols(&p, prog, 0);
	printf("wrote %s: %zu patched, %zu trapped, %zu left out, %zu"
	    " library functions (planned in %.3f s)\n", pdt,
	    p.counts[PVT_JUMP], p.counts[PVT_TRAP], p.counts[PVT_OUT],
	    p.counts[PVT_PLT], (t1.tv_sec - t0.tv_sec) +
	    (t1.tv_nsec - t0.tv_nsec) / 1e9);
	free(pdt);
	free(prog);
	for (c = 0; c < (int)pvt_nlibs; c++)
		free((char *)libs[c]);
	pvt_plan_free(&p);
	return (0);
}

/* The agent: beside this program (the build tree), else installed. */
static char *
pvt_agent(void)
{
	char	 self[PATH_MAX], *slash, *r;
	ssize_t	 n;

	if ((r = getenv("PVTRACE_AGENT")) != NULL)
		return (strdup(r));
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			*slash = '\0';
			if (asprintf(&r, "%s/libpvtrace.so", self) >= 0 &&
			    access(r, R_OK) == 0)
				return (r);
		}
	}
	if (asprintf(&r, "%s/libpvtrace.so", PVT_PKGLIBDIR) < 0)
		pvt_die("out of memory");
	if (access(r, R_OK) != 0)
		pvt_die("%s: %s (set PVTRACE_AGENT to the agent's path)", r,
		    strerror(errno));
	return (r);
}

/* Lay the plan out in the shared memory for the agents. */
static void
pvt_shm_plan(struct pvt_shm *shm, const struct pvt_plan *p)
{
	char		*base = (char *)shm;
	uint64_t	 off = (sizeof *shm + 63) & ~(uint64_t)63;

	shm->nmod = (uint32_t)p->nmod;
	shm->nfn = (uint32_t)p->nfn;
	shm->mod_off = off;
	memcpy(base + off, p->mod, p->nmod * sizeof *p->mod);
	off = (off + p->nmod * sizeof *p->mod + 63) & ~(uint64_t)63;
	shm->fn_off = off;
	memcpy(base + off, p->fn, p->nfn * sizeof *p->fn);
	off = (off + p->nfn * sizeof *p->fn + 63) & ~(uint64_t)63;
	shm->str_off = off;
	shm->str_len = p->nstr;
	memcpy(base + off, p->str, p->nstr);
	off = (off + p->nstr + 63) & ~(uint64_t)63;
	shm->fn_state_off = off;
	off = (off + p->nfn + 2 + 63) & ~(uint64_t)63;
	shm->brk = off;
}

static void
pvt_forward(int sig)
{
	if (pvt_child > 0)
		kill(pvt_child, sig);
	else if (sig == SIGTERM || sig == SIGHUP)
		pvt_stop = 1;	/* the program has ended: see the wait */
}

/* Die as the program died, or exit with its status. */
static void __attribute__((noreturn))
pvt_pass_on(int status)
{
	struct rlimit	 no = { 0, 0 };
	sigset_t	 all;

	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	if (WIFSIGNALED(status)) {
		/* The program already left its core, if any. */
		setrlimit(RLIMIT_CORE, &no);
		signal(WTERMSIG(status), SIG_DFL);
		sigfillset(&all);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		raise(WTERMSIG(status));
		exit(128 + WTERMSIG(status));
	}
	exit(EXIT_TOOL);
}

static int
pvt_cmd_run(int argc, char **argv)
{
	struct pvt_plan	 p;
	struct pvt_run	 run;
	struct pvt_shm	*shm;
	struct sigaction sa, ign, old_int, old_quit;
	const char	*out = NULL, *plan = NULL, *libs[64];
	char		*prog, *pdt, *mon, *cause, *agent, *pre, env[128];
	sigset_t	 all, mask;
	uint64_t	 m0, t0, m_start, m_end = 0, mn, tn;
	size_t		 cap = 0, i;
	pid_t		 pid, w;
	struct pvt_opts	 o;
	int		 fd, status = 0, st, have = 0, replan = 0, mono;

	memset(&run, 0, sizeof run);
	pvt_options(argc, argv, "+ao:p:vhV", &o);
	run.accumulate = o.accumulate;
	out = o.out;
	plan = o.plan;
	if (optind >= argc)
		pvt_usage();
	pvt_check_command(argv[optind]);
	prog = pvt_find_prog(argv[optind]);
	pvt_check_secure(prog);

	/* p1's plan: the one given, the one beside, or a new one. */
	pdt = plan != NULL ? strdup(plan) : pvt_beside(prog, "pdt");
	if (access(pdt, F_OK) == 0) {
		if (pvt_pdt_read(&p, pdt, &cause) != 0) {
			if (plan != NULL)
				pvt_die("%s", cause);
			pvt_warn("%s; planning again", cause);
			free(cause);
			replan = 1;
		} else if (strcmp(p.str + p.mod[0].path, prog) != 0) {
			if (plan != NULL)
				pvt_die("%s is a plan for %s", pdt,
				    p.str + p.mod[0].path);
			pvt_warn("%s is a plan for %s; planning again", pdt,
			    p.str + p.mod[0].path);
			pvt_plan_free(&p);
			replan = 1;
		} else if (pvt_plan_stale(&p, &cause)) {
			pvt_warn("%s; planning again", cause);
			free(cause);
			pvt_plan_free(&p);
			replan = 1;
		} else if ((pvt_nlibs > 0 && pvt_nlibs + 1 != p.nmod) ||
		    pvt_plan_libcalls(&p) != !(pvt_plan_flags &
		    PVT_PLAN_NOLIB) || p.leaves == -2 ||
		    (p.leaves == -1) != !!(pvt_plan_flags & PVT_PLAN_NOLEAF)) {
			/*
			 * Other libraries, library calls or leaves on or
			 * off, or a plan from before leaves.
			 */
			pvt_plan_free(&p);
			replan = 1;
		} else
			have = 1;
	}
	if (!have) {
		pvt_resolve_libs(prog, libs);
		if (pvt_plan_make(&p, prog, libs, pvt_nlibs, pvt_plan_flags,
	    &cause) != 0)
			pvt_die("%s", cause);
		if (pvt_pdt_write(&p, pdt, &cause) != 0) {
			pvt_warn("%s (the plan is used, not kept)", cause);
			free(cause);
		} else if (pvt_verbose || replan)
			pvt_warn("planned %s: %zu patched, %zu trapped, %zu"
			    " left out, %zu library functions", pdt,
			    p.counts[PVT_JUMP], p.counts[PVT_TRAP],
			    p.counts[PVT_OUT], p.counts[PVT_PLT]);
	}
	pvt_check_symbols(&p, prog, 1);
	mon = out != NULL ? strdup(out) : pvt_beside(prog, "mon");
	agent = pvt_agent();

	/* The shared memory, inherited by the program and its children. */
	if ((fd = memfd_create("pvtrace", 0)) < 0)
		pvt_die("memfd_create: %s", strerror(errno));
	if (ftruncate(fd, (off_t)PVT_SHM_RESERVE) != 0)
		pvt_die("ftruncate: %s", strerror(errno));
	shm = mmap(NULL, PVT_SHM_RESERVE, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (shm == MAP_FAILED)
		pvt_die("mmap: %s", strerror(errno));
	shm->version = PVT_VERSION;
	shm->runner_pid = (uint32_t)getpid();
	shm->size = PVT_SHM_RESERVE;
	if ((sizeof *shm + 64 * (p.nmod + p.nfn + 2) + p.nfn * sizeof *p.fn +
	    p.nstr) >= PVT_SHM_RESERVE / 2)
		pvt_die("the plan is too big for the shared memory");
	pvt_shm_plan(shm, &p);
	shm->samp_hz = (uint32_t)o.rate;

	/* The clock, and the TSC's rate: a short spin, then the whole run. */
	mono = pvt_clock_mono();
	shm->clock_mono = mono;
	m0 = pvt_mono();
	t0 = pvt_clock(mono);
	while (!mono && (mn = pvt_mono()) - m0 < 5000000)
		;
	if (mono)
		shm->tsc_hz = 1e9;
	else {
		tn = pvt_clock(mono);
		shm->tsc_hz = (double)(tn - t0) * 1e9 / (double)(mn - m0);
	}
	shm->tsc_per_ns_q32 = (uint64_t)(shm->tsc_hz / 1e9 * 4294967296.0);
	__atomic_store_n(&shm->magic, PVT_SHM_MAGIC, __ATOMIC_RELEASE);

	snprintf(env, sizeof env, "%d:%d:%llu", fd, (int)getpid(),
	    (unsigned long long)PVT_SHM_RESERVE);
	setenv("PVTRACE_SHM", env, 1);
	if ((pre = getenv("LD_PRELOAD")) != NULL && *pre != '\0') {
		if (asprintf(&pre, "%s:%s", agent, pre) < 0)
			pvt_die("out of memory");
	} else
		pre = agent;
	setenv("LD_PRELOAD", pre, 1);
	/* Every GOT slot bound before the agent points it elsewhere. */
	if (p.counts[PVT_PLT] > 0)
		setenv("LD_BIND_NOW", "1", 1);

	/* Orphans come to us, so we wait for every process it starts. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &mask);
	m_start = pvt_mono();
	if ((pid = fork()) < 0)
		pvt_die("fork: %s", strerror(errno));
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		execv(prog, argv + optind);
		fprintf(stderr, "pvtrace: %s: %s\n", prog, strerror(errno));
		_exit(EXIT_TOOL);
	}
	pvt_child = pid;
	/* Terminal signals reach the program itself (same process group). */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	/* No SA_RESTART: the wait must see a stop come (pvt_stop). */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = pvt_forward;
	for (i = 0; i < sizeof pvt_forwarded / sizeof pvt_forwarded[0]; i++)
		sigaction(pvt_forwarded[i], &sa, NULL);
	sigprocmask(SIG_SETMASK, &mask, NULL);

	for (;;) {
		/*
		 * Once the program has ended, its orphans are waited for
		 * (their counts are the profile's too) until a SIGTERM or
		 * SIGHUP says to stop: the profile is then written
		 * with what they counted so far, rather than the signal
		 * going to a program long gone while pvtrace waits on.
		 */
		if (pvt_stop)
			break;
		w = waitpid(-1, &st, 0);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (run.ndeaths == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			run.deaths = reallocarray(run.deaths, cap,
			    sizeof *run.deaths);
			if (run.deaths == NULL)
				pvt_die("out of memory");
		}
		run.deaths[run.ndeaths].pid = w;
		run.deaths[run.ndeaths++].tsc = pvt_clock(mono);
		if (w == pid) {
			status = st;
			m_end = pvt_mono();
			pvt_child = 0;
		}
	}
	/* Writing the profile (to a FIFO, say) is not cut short by one. */
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof pvt_forwarded / sizeof pvt_forwarded[0]; i++)
		sigaction(pvt_forwarded[i], &sa, NULL);
	mn = pvt_mono();
	tn = pvt_clock(mono);
	if (m_end == 0)
		m_end = mn;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (!mono && mn - m0 > 20000000)
		shm->tsc_hz = (double)(tn - t0) * 1e9 / (double)(mn - m0);

	run.prog = prog;
	run.argv = argv + optind;
	run.real_ns = m_end - m_start;
	run.status = status;
	if (pvt_mon_write(shm, &p, &run, mon, &cause) != 0) {
		pvt_warn("%s", cause);
		free(cause);
	} else if (pvt_verbose)
		pvt_warn("wrote %s: %" PRIu64 " processes, %" PRIu64
		    " threads, %.3f s", mon, shm->stat[PVT_ST_PROCESSES],
		    shm->stat[PVT_ST_THREADS], run.real_ns / 1e9);
	munmap(shm, PVT_SHM_RESERVE);
	close(fd);
	pvt_plan_free(&p);
	if (pre != agent)
		free(pre);
	free(agent);
	free(mon);
	free(pdt);
	free(prog);
	free(run.deaths);
	for (i = 0; i < pvt_nlibs && !have; i++)
		free((char *)libs[i]);
	pvt_pass_on(status);
}

int
main(int argc, char **argv)
{
	/* -h, -V and the rest are each command's options. */
	if (argc >= 2 && strcmp(argv[1], "plan") == 0)
		return (pvt_cmd_plan(argc - 1, argv + 1));
	return (pvt_cmd_run(argc, argv));
}
