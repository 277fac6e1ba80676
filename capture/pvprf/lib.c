/*
 * libpvprf: Dos32Profile() as a client of the per-user daemon pvprfd.
 * What can only be checked here (the caller's pointers) is checked here;
 * everything else is the daemon's, which holds the profiles between
 * calls and between callers.  The daemon is started when it is not
 * running: two callers that both find no daemon both start one, and the
 * daemon's lock lets one of them live (pvprfd.c).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/pvprf/pvprf.h"
#include "capture/pvprf/prfd.h"

#ifndef PVPRF_BINDIR
#define PVPRF_BINDIR	"/usr/local/bin"
#endif

#define PRF_EXPORT	__attribute__((visibility("default")))

/* Why this thread's last call failed, in words (Dos32ProfileError). */
static __thread char	 why[PRFD_WHY_MAX + 1];
/* The daemon that answered this program last, to tell it went away. */
static int		 last_daemon;

static int
connect_sock(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd;

	if ((fd = prfd_socket(path, &sun)) < 0)
		return (-1);
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		close(fd);
		return (-1);
	}
	return (fd);
}

/*
 * The daemon: $PVPRFD, else beside this library when that is a build
 * tree (a pvprfd there), else where it is installed.  Not $PVPRFD in a
 * setuid or setgid program (secure_getenv): its caller would choose
 * what it runs.
 */
static void
daemon_path(char *buf, size_t len)
{
	const char	*e = secure_getenv("PVPRFD");
	Dl_info		 dli;
	char		*p;

	if (e != NULL && *e != '\0') {
		snprintf(buf, len, "%s", e);
		return;
	}
	if (dladdr((void *)daemon_path, &dli) != 0 && dli.dli_fname != NULL &&
	    strchr(dli.dli_fname, '/') != NULL) {
		snprintf(buf, len, "%s", dli.dli_fname);
		if ((p = strrchr(buf, '/')) != NULL &&
		    (size_t)(p - buf) + sizeof "/pvprfd" <= len) {
			strcpy(p, "/pvprfd");
			if (access(buf, X_OK) == 0)
				return;
		}
	}
	snprintf(buf, len, "%s/pvprfd", PVPRF_BINDIR);
}

/*
 * Start the daemon detached (its own session, a grandchild so that no
 * caller has to reap it), with nothing of the caller's but the
 * environment: no descriptor (a pipe of the caller's it kept open, its
 * standard error say, left the caller's reader waiting as long as the
 * daemon lived), and the caller's real ids, not a setuid program's
 * effective ones.  Only async-signal-safe calls after the fork: the
 * caller may have threads.
 */
static int
start_daemon(void)
{
	char		 path[PATH_MAX];
	char		*argv[] = { path, NULL };
	extern char	**environ;
	char		**envp = environ;
	struct rlimit	 rl;
	pid_t		 pid;
	uid_t		 uid = getuid();
	gid_t		 gid = getgid();
	int		 status, fd, i, n;

	daemon_path(path, sizeof path);
	if (access(path, X_OK) != 0)
		return (-1);
	/*
	 * Where secure_getenv hid $XDG_RUNTIME_DIR from the library, the
	 * daemon must not listen there either: made before the fork.
	 */
	if (getauxval(AT_SECURE) != 0) {
		for (n = 0; environ[n] != NULL; n++)
			;
		if ((envp = calloc(n + 1, sizeof *envp)) == NULL)
			return (-1);
		for (i = n = 0; environ[i] != NULL; i++) {
			if (strncmp(environ[i], "XDG_RUNTIME_DIR=", 16) != 0)
				envp[n++] = environ[i];
		}
	}
	if ((pid = fork()) < 0) {
		if (envp != environ)
			free(envp);
		return (-1);
	}
	if (pid == 0) {
		if (fork() != 0)
			_exit(0);
		setsid();
		if ((fd = open("/dev/null", O_RDWR)) < 0)
			_exit(127);
		if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
#ifdef SYS_close_range
		if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
		{
			if (getrlimit(RLIMIT_NOFILE, &rl) != 0 ||
			    rl.rlim_cur > 65536)
				rl.rlim_cur = 65536;
			for (i = 3; i < (int)rl.rlim_cur; i++)
				close(i);
		}
		/* The raw calls: this thread is the child's only one. */
		if (syscall(SYS_setresgid, gid, gid, gid) != 0 ||
		    syscall(SYS_setresuid, uid, uid, uid) != 0)
			_exit(127);
		execve(path, argv, envp);
		_exit(127);
	}
	if (envp != environ)
		free(envp);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return (0);
}

/*
 * A connection to the daemon, starting it if need be (*started then).
 * It takes a moment to bind: try for up to five seconds.
 */
static int
open_daemon(int *started)
{
	struct timespec	 ts = { 0, 20 * 1000 * 1000 };
	struct stat	 sb;
	char		 path[PATH_MAX], dir[PATH_MAX];
	int		 fd, i;

	if (prfd_sock_dir(dir, sizeof dir) != 0 ||
	    prfd_sock_path(path, sizeof path) != 0) {
		snprintf(why, sizeof why, "the daemon's socket path is too"
		    " long");
		return (-1);
	}
	/*
	 * Another user's folder (made first, in /tmp, by anyone) could
	 * hold another user's daemon: said, with the folder's name, rather
	 * than used.
	 */
	if (lstat(dir, &sb) == 0 && (!S_ISDIR(sb.st_mode) ||
	    sb.st_uid != getuid() || (sb.st_mode & 077) != 0)) {
		snprintf(why, sizeof why, "%.150s: owned by uid %u, mode %04o,"
		    " %s: the daemon's folder must be this user's (uid %u)"
		    " and mode 0700", dir, (unsigned)sb.st_uid,
		    (unsigned)sb.st_mode & 07777, S_ISDIR(sb.st_mode) ?
		    "a folder" : "not a folder", (unsigned)getuid());
		errno = EPERM;
		return (-1);
	}
	if ((fd = connect_sock(path)) >= 0)
		return (fd);
	if (errno != ENOENT && errno != ECONNREFUSED)
		return (-1);
	if (start_daemon() != 0) {
		snprintf(why, sizeof why, "no daemon runs and none could be"
		    " started");
		return (-1);
	}
	*started = 1;
	for (i = 0; i < 250; i++) {
		if ((fd = connect_sock(path)) >= 0)
			return (fd);
		nanosleep(&ts, NULL);
	}
	snprintf(why, sizeof why, "%.150s: the daemon started did not"
	    " listen", path);
	return (-1);
}

/*
 * One request and its reply, and the daemon's pid; -1 when the daemon
 * could not be asked.  A failure's reply may say why (the daemon's
 * words, made printable).
 */
static int
ask(struct prfd_req *rq, const void *body, struct prfd_reply *rp,
    PRFRET *ret, pid_t *daemon, int *started)
{
	struct ucred	 uc;
	socklen_t	 ulen = sizeof uc;
	size_t		 i;
	int		 fd, e, wrote;

	if ((fd = open_daemon(started)) < 0)
		return (-1);
	*daemon = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &ulen) == 0)
		*daemon = uc.pid;
	rq->magic = PRFD_MAGIC;
	rq->width = sizeof (ULONG);
	/* A daemon that refused us said why before it closed: read on. */
	wrote = prfd_write_full(fd, rq, sizeof *rq) == 0 &&
	    (rq->len == 0 || prfd_write_full(fd, body, rq->len) == 0);
	if (prfd_read_full(fd, rp, sizeof *rp) != 0 ||
	    rp->magic != PRFD_MAGIC || (!wrote && rp->rc == NO_ERROR))
		goto fail;
	if (rp->rc == NO_ERROR && rp->size > 0) {
		/* The daemon sends no more than was asked for. */
		if (ret == NULL || rp->size > ret->us_bufsz)
			goto fail;
		if (prfd_read_full(fd, ret->us_buf, rp->size) != 0)
			goto fail;
	} else if (rp->rc != NO_ERROR && rp->rc != ERROR_BUFFER_OVERFLOW &&
	    rp->size > 0) {
		if (rp->size > PRFD_WHY_MAX ||
		    prfd_read_full(fd, why, rp->size) != 0) {
			why[0] = '\0';
			goto fail;
		}
		why[rp->size] = '\0';
		for (i = 0; i < rp->size; i++) {
			if ((unsigned char)why[i] < 0x20 || why[i] == 0x7f)
				why[i] = '?';
		}
	}
	close(fd);
	return (0);
fail:
	e = errno;
	close(fd);
	errno = e;
	return (-1);
}

/*
 * After an answer of no profile (303, 543) to anything but INIT: was it
 * another daemon than the one that answered this program before, or one
 * started just now?  Then the profile went with its daemon: said, and
 * 543 (no profile) rather than the new daemon's 303 for a process that
 * ended meanwhile, when this program knows it had one.
 */
static APIRET
gone(ULONG func, APIRET rc, pid_t daemon, int started)
{
	int	before;

	before = __atomic_exchange_n(&last_daemon, (int)daemon,
	    __ATOMIC_RELAXED);
	if (func == PRF_CM_INIT || (rc != ERROR_INVALID_PROCID &&
	    rc != ERROR_PRF_NOT_INITIALIZED))
		return (rc);
	if (before != 0 && daemon != 0 && before != (int)daemon) {
		snprintf(why, sizeof why, "pvprfd (pid %d), which answered"
		    " this program before, has ended: the profiles it held"
		    " are lost", before);
		return (ERROR_PRF_NOT_INITIALIZED);
	}
	if (started)
		snprintf(why, sizeof why, "no pvprfd was running (one was"
		    " started now): a profile made before is lost if its"
		    " daemon ended");
	return (rc);
}

PRF_EXPORT const char *
Dos32ProfileError(void)
{
	return (why[0] != '\0' ? why : NULL);
}

PRF_EXPORT APIRET
Dos32Profile(ULONG func, PID pid, PRFCMD *profcmd, PRFRET *profret)
{
	struct prfd_req		 rq;
	struct prfd_reply	 rp;
	struct prfd_init	*in;
	struct prfd_slot	*sl;
	struct prfd_dump	 du;
	unsigned char		 body[PRFD_BODY_MAX];
	size_t			 len = 0, i;
	pid_t			 daemon;
	int			 started = 0;
	APIRET			 rc;

	why[0] = '\0';
	if (func > PRF_CM_EXIT)
		return (ERROR_INVALID_PARAMETER);
	memset(&rq, 0, sizeof rq);
	rq.func = func;
	rq.pid = pid;
	if (func == PRF_CM_INIT) {
		if (profcmd == NULL)
			return (ERROR_INVALID_PARAMETER);
		/* Dos32Profile's limit, which the daemon checks as well. */
		if (profcmd->cm_nslots >= 256 ||
		    (profcmd->cm_nslots > 0 && profcmd->cm_slots == NULL))
			return (ERROR_INVALID_PARAMETER);
		if ((profcmd->cm_flags & PRF_FLGBITS) &&
		    profcmd->cm_nflgs > 0 && profcmd->cm_flgbits == NULL)
			return (ERROR_INVALID_PARAMETER);
		in = (struct prfd_init *)body;
		memset(in, 0, sizeof *in);
		in->bufsz = profcmd->cm_bufsz;
		in->flags = profcmd->cm_flags;
		in->nslots = profcmd->cm_nslots;
		in->timval = profcmd->cm_timval;
		len = sizeof *in;
		if (profcmd->cm_flags & PRF_FLGBITS) {
			in->nflgs = profcmd->cm_nflgs;
			memcpy(body + len, profcmd->cm_flgbits, in->nflgs);
			len += in->nflgs;
		}
		for (i = 0; i < profcmd->cm_nslots; i++) {
			sl = (struct prfd_slot *)(body + len);
			sl->vaddr = profcmd->cm_slots[i].sl_vaddr;
			sl->size = profcmd->cm_slots[i].sl_size;
			sl->mode = profcmd->cm_slots[i].sl_mode;
			len += sizeof *sl;
		}
	} else if (func == PRF_CM_DUMP) {
		if (profret == NULL)
			return (ERROR_INVALID_PARAMETER);
		/* No buffer and no size: the caller asks for the size. */
		if (profret->us_buf == NULL && profret->us_bufsz != 0)
			return (ERROR_PROTECTION_VIOLATION);
		memset(&du, 0, sizeof du);
		du.cmd = profret->us_cmd;
		du.thrdno = profret->us_thrdno;
		du.vaddr = profret->us_vaddr;
		du.bufsz = profret->us_bufsz;
		memcpy(body, &du, sizeof du);
		len = sizeof du;
	}
	rq.len = len;
	/*
	 * A connection closed before any reply was one queued on a daemon
	 * that was leaving (pvprfd.c): never read, so asked once more.
	 */
	if (ask(&rq, body, &rp, profret, &daemon, &started) != 0 &&
	    ((errno != 0 && errno != ECONNRESET) ||
	    ask(&rq, body, &rp, profret, &daemon, &started) != 0))
		return (ERROR_SYS_INTERNAL);
	if (func == PRF_CM_DUMP && (rp.rc == NO_ERROR ||
	    rp.rc == ERROR_BUFFER_OVERFLOW))
		profret->us_bufsz = rp.size;
	rc = gone(func, rp.rc, daemon, started);
	return (rc);
}
