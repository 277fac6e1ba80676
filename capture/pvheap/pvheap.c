/*
 * pvheap: run a program with libpvheap.so preloaded, so that it writes
 * heap snapshots (pvheap(1)), and end as the program ended.  The options
 * reach the agent through the environment; the program's own output,
 * input and exit status are untouched, and a death by a signal is told
 * the way a shell tells it.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "execprog.h"
#include "capture/pvheap/heapfmt.h"

#ifndef PVHEAP_LIBDIR
#define PVHEAP_LIBDIR	"/usr/local/lib/profview"
#endif

static pid_t	child;
static int	snap_sig;
/* Kept for the whole run (leak checkers see them from here). */
static char	*out, *lib, *env;

#define SYNOPSIS \
	"usage: pvheap [-q] [-o FILE] [--at-exit] [--signal SIG] [--every" \
	" SECS]\n\t[--socket PATH] [--contents N|all] [--depth N] -- PROG" \
	" [ARGS]\n"

/* A bad command line: the synopsis, on standard error. */
static void
usage(void)
{
	fputs(SYNOPSIS "(pvheap --help for the options)\n", stderr);
	exit(2);
}

/* --help: all of it, on standard output, which must take it whole. */
static void
help(void)
{
	fputs(SYNOPSIS
	    "\n"
	    "Runs PROG with the heap agent preloaded; it writes heap snapshots"
	    " for\n"
	    "profview (by default one, PROG.heap, when the program ends).\n"
	    "\n"
	    "options:\n"
	    "  -o, --output FILE    the snapshot file (default PROG.heap here)\n"
	    "  --at-exit            a snapshot when the program ends (the"
	    " default when\n"
	    "                       no other is asked for)\n"
	    "  --signal SIG         a snapshot on each SIG (USR2, or a"
	    " number)\n"
	    "  --every SECS         a snapshot every SECS seconds\n"
	    "  --socket PATH        a snapshot for each client of this Unix"
	    " socket\n"
	    "                       (profview --attach PATH)\n"
	    "  --contents N|all     keep the first N bytes of every block, or"
	    " all\n"
	    "  --depth N            keep up to N frames (1 to 64) of each"
	    " stack\n"
	    "  -q, --quiet          the agent says nothing on standard"
	    " error\n"
	    "  -h, --help           this text\n"
	    "  -V, --version        the version\n"
	    "\n"
	    "exit status: the program's, 128 + its signal; 127 not found, 126"
	    " cannot\n"
	    "run; 1 when no snapshot could be taken of it; 2 usage\n", stdout);
	exit(fflush(stdout) != 0 || ferror(stdout) ? 1 : 0);
}

static int
sig_number(const char *s)
{
	static const struct { const char *name; int sig; } names[] = {
		{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "HUP", SIGHUP },
		{ "INT", SIGINT }, { "QUIT", SIGQUIT }, { "TERM", SIGTERM },
		{ "ALRM", SIGALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH },
		{ "URG", SIGURG }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
	};
	char	*end;
	long	 v;
	size_t	 i;

	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcasecmp(s, names[i].name) == 0)
			return (names[i].sig);
	}
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 1 || v >= SIGRTMAX - 3 ||
	    v == SIGKILL || v == SIGSTOP)
		return (-1);
	return ((int)v);
}

/* The agent: beside this binary in a build tree, else where installed. */
static char *
agent_path(void)
{
	char		 self[PATH_MAX], *p, *s;
	struct stat	 sb;
	ssize_t		 n;

	if ((s = getenv("PVHEAP_LIB")) != NULL)
		return (strdup(s));
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		if ((p = strrchr(self, '/')) != NULL) {
			*p = '\0';
			if (asprintf(&s, "%s/libpvheap.so", self) != -1) {
				if (stat(s, &sb) == 0)
					return (s);
				free(s);
			}
		}
	}
	return (strdup(PVHEAP_LIBDIR "/libpvheap.so"));
}

/*
 * Whether the loader will preload the agent into the program at path:
 * not into a program exec runs with other credentials (secure execution,
 * execprog.c: LD_PRELOAD is ignored), nor into a program with no dynamic
 * loader (static).  0, or -1 after saying why.  A file that
 * is not a 64-bit ELF program (a script, an object file) is the
 * kernel's to judge.
 */
static int
prog_check(const char *prog, const char *path)
{
	Elf64_Ehdr	 eh;
	Elf64_Phdr	 ph;
	struct stat	 sb;
	off_t		 off;
	int		 fd, i, why;

	/* What exec would run, readable or not (a setuid file may not be). */
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return (0);
	if ((why = execprog_secure(path, &sb)) != EXECPROG_OK) {
		fprintf(stderr, "pvheap: %s: %s: the loader does not preload"
		    " the agent into it (LD_PRELOAD is ignored), no snapshot"
		    " could be taken\n", prog, why == EXECPROG_SETUID ?
		    "set-user-ID program" : why == EXECPROG_SETGID ?
		    "set-group-ID program" : "a program with file"
		    " capabilities");
		return (-1);
	}
	/* Never blocks: a FIFO put there meanwhile is not a program. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return (0);
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return (0);
	}
	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
		close(fd);
		return (0);
	}
	if (eh.e_phentsize != sizeof ph) {
		fprintf(stderr, "pvheap: %s: offset %zu: e_phentsize %u, not"
		    " %zu\n", prog, offsetof(Elf64_Ehdr, e_phentsize),
		    (unsigned)eh.e_phentsize, sizeof ph);
		close(fd);
		return (-1);
	}
	if (eh.e_phoff > (uint64_t)sb.st_size || (uint64_t)eh.e_phnum *
	    sizeof ph > (uint64_t)sb.st_size - eh.e_phoff) {
		fprintf(stderr, "pvheap: %s: offset %zu: e_phoff %llu: %u"
		    " program headers past the end of the file (%lld"
		    " bytes)\n", prog, offsetof(Elf64_Ehdr, e_phoff),
		    (unsigned long long)eh.e_phoff, (unsigned)eh.e_phnum,
		    (long long)sb.st_size);
		close(fd);
		return (-1);
	}
	for (i = 0; i < eh.e_phnum; i++) {
		off = (off_t)(eh.e_phoff + (uint64_t)i * sizeof ph);
		if (pread(fd, &ph, sizeof ph, off) != (ssize_t)sizeof ph)
			break;
		if (ph.p_type == PT_INTERP) {
			close(fd);
			return (0);
		}
	}
	close(fd);
	fprintf(stderr, "pvheap: %s: statically linked: no dynamic loader"
	    " to preload the agent, no snapshot could be taken\n", prog);
	return (-1);
}

/* Pass what is meant for the program on to it. */
static void
forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "at-exit", no_argument, NULL, 'x' },
		{ "signal", required_argument, NULL, 's' },
		{ "every", required_argument, NULL, 'e' },
		{ "socket", required_argument, NULL, 'S' },
		{ "contents", required_argument, NULL, 'c' },
		{ "depth", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static const int fwd[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2,
	    SIGALRM, SIGCONT, SIGWINCH };
	struct sigaction sa;
	struct stat	 sb;
	char		 opts[512], cwd[PATH_MAX], *pre, *end, *prog, *base;
	char		 file[PATH_MAX];
	const char	*sock = NULL, *contents = NULL;
	int		 c, at_exit = 0, depth = 0, quiet = 0, status;
	double		 every = 0;
	size_t		 i;

	while ((c = getopt_long(argc, argv, "+o:qhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'o':
			out = strdup(optarg);
			break;
		case 'x':
			at_exit = 1;
			break;
		case 's':
			if ((snap_sig = sig_number(optarg)) < 0) {
				fprintf(stderr, "pvheap: --signal %s: not a"
				    " signal pvheap can use\n", optarg);
				return (2);
			}
			break;
		case 'e':
			every = strtod(optarg, &end);
			if (*end != '\0' || !(every >= 0.001) ||
			    every > 86400 * 365) {
				fprintf(stderr, "pvheap: --every %s: seconds,"
				    " at least 0.001\n", optarg);
				return (2);
			}
			break;
		case 'S':
			sock = optarg;
			if (strlen(sock) >= 108) {
				fprintf(stderr, "pvheap: --socket: path too"
				    " long\n");
				return (2);
			}
			break;
		case 'c':
			contents = optarg;
			if (strcmp(optarg, "all") != 0 && (strtoull(optarg,
			    &end, 10) == 0 || *end != '\0')) {
				fprintf(stderr, "pvheap: --contents %s: a"
				    " number of bytes or \"all\"\n", optarg);
				return (2);
			}
			break;
		case 'd':
			depth = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || depth < 1 ||
			    depth > HEAPFMT_DEPTH_MAX) {
				fprintf(stderr, "pvheap: --depth %s: 1 to 64"
				    " frames\n", optarg);
				return (2);
			}
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			help();
			break;
		case 'V':
			printf("pvheap (profview) %s\n", PACKAGE_VERSION);
			return (fflush(stdout) != 0 || ferror(stdout) ? 1 : 0);
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	prog = argv[optind];
	/*
	 * Refused rather than replaced: the path may be any file of the
	 * user's (the agent checks again when it makes the socket).
	 */
	if (sock != NULL && lstat(sock, &sb) == 0 && !S_ISSOCK(sb.st_mode)) {
		fprintf(stderr, "pvheap: --socket %s: exists and is not a"
		    " socket\n", sock);
		return (2);
	}
	/* Better said now than found out from a run with no snapshot. */
	if (execprog_find(prog, file, sizeof file) && prog_check(prog, file) != 0)
		return (1);
	/* Without another trigger, a snapshot is taken at exit. */
	if (!snap_sig && every == 0 && sock == NULL)
		at_exit = 1;
	snprintf(opts, sizeof opts, "%s%s", at_exit ? "exit;" : "",
	    quiet ? "quiet;" : "");
	if (snap_sig)
		snprintf(opts + strlen(opts), sizeof opts - strlen(opts),
		    "signal=%d;", snap_sig);
	if (every != 0)
		snprintf(opts + strlen(opts), sizeof opts - strlen(opts),
		    "every=%llu;", (unsigned long long)(every * 1000 + 0.5));
	if (contents != NULL)
		snprintf(opts + strlen(opts), sizeof opts - strlen(opts),
		    "contents=%s;", contents);
	if (depth != 0)
		snprintf(opts + strlen(opts), sizeof opts - strlen(opts),
		    "depth=%d;", depth);
	if (getcwd(cwd, sizeof cwd) == NULL) {
		fprintf(stderr, "pvheap: getcwd: %s\n", strerror(errno));
		return (1);
	}
	base = strrchr(prog, '/') != NULL ? strrchr(prog, '/') + 1 : prog;
	if (out == NULL) {
		if (asprintf(&out, "%s/%s.heap", cwd, base) == -1)
			return (1);
	} else if (out[0] != '/') {
		/* The program may chdir: the name is fixed now. */
		pre = out;
		if (asprintf(&out, "%s/%s", cwd, pre) == -1)
			return (1);
		free(pre);
	}
	lib = agent_path();
	pre = getenv("LD_PRELOAD");
	if (pre != NULL && *pre != '\0') {
		if (asprintf(&env, "%s:%s", lib, pre) == -1)
			return (1);
	} else
		env = strdup(lib);
	if (setenv("LD_PRELOAD", env, 1) != 0 ||
	    setenv("PVHEAP_OUT", out, 1) != 0 ||
	    setenv("PVHEAP_OPTS", opts, 1) != 0 ||
	    (sock != NULL && setenv("PVHEAP_SOCKET", sock, 1) != 0)) {
		fprintf(stderr, "pvheap: setenv: %s\n", strerror(errno));
		return (1);
	}
	unsetenv("PVHEAP_PID");

	/* Like system(): the terminal's keys are for the program. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = forward;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof fwd / sizeof fwd[0]; i++)
		sigaction(fwd[i], &sa, NULL);
	if (snap_sig)
		sigaction(snap_sig, &sa, NULL);

	fflush(NULL);
	if ((child = fork()) == -1) {
		fprintf(stderr, "pvheap: fork: %s\n", strerror(errno));
		return (1);
	}
	if (child == 0) {
		char	pid[24];

		snprintf(pid, sizeof pid, "%d", (int)getpid());
		setenv("PVHEAP_PID", pid, 1);
		sa.sa_handler = SIG_DFL;
		sa.sa_flags = 0;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGQUIT, &sa, NULL);
		for (i = 0; i < sizeof fwd / sizeof fwd[0]; i++)
			sigaction(fwd[i], &sa, NULL);
		if (snap_sig)
			sigaction(snap_sig, &sa, NULL);
		execvp(prog, argv + optind);
		/* As a shell says it, with its statuses. */
		fprintf(stderr, "pvheap: %s: %s\n", prog, strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(child, &status, 0) == -1) {
		if (errno != EINTR) {
			fprintf(stderr, "pvheap: waitpid: %s\n",
			    strerror(errno));
			return (1);
		}
	}
	if (WIFEXITED(status))
		return (WEXITSTATUS(status));
	if (WIFSIGNALED(status)) {
		c = WTERMSIG(status);
		/* bash is silent about these two. */
		if (c != SIGINT && c != SIGPIPE)
			fprintf(stderr, "pvheap: %s: %s%s\n", prog,
			    strsignal(c), WCOREDUMP(status) ?
			    " (core dumped)" : "");
		return (128 + c);
	}
	return (1);
}
