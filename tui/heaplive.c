/*
 * The heap map on a running program: HeapInspector's Update and UpdateAfterGC
 * over pvheap's socket (pvheap(1) --socket, ingest/heapsock.c's client).
 * An update asks the agent for a snapshot, ingests the file as a new
 * session of the same run, and loads it for the map; each part is a step
 * of the view's background work, so the map on screen stays browsable
 * meanwhile.  The ingest, which takes
 * longest, runs in a process of its own (profview ingest on the same
 * store), so a hostile or huge file never stops the browser and a
 * cancelled one leaves nothing in the store (the ingest is one
 * transaction).  It ends with the browser however the browser ends
 * (killed at a quit or on SIGTERM, SIGHUP or SIGINT, and by the kernel,
 * PR_SET_PDEATHSIG, when the browser is killed outright): an ingest left
 * behind stored a session after profview had gone.
 *
 * The sessions an attach makes are kept to --keep (the oldest go, each
 * with the snapshot file it was made from, by a "profview delete" of
 * their own: deleting a million blocks takes seconds the map must not
 * stop for), so --every never fills the disk.
 *
 * The new snapshot is compared with the one shown on the loader's
 * thread (analyze/heapdiff.c's comparison, which the map draws).
 */
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xmalloc.h"
#include "vis.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"
#include "tui/tui.h"
#include "tui/heap.h"


enum hl_state {
	HL_IDLE,
	HL_ASKING,		/* the request sent, the answer awaited */
	HL_INGESTING,		/* the ingest process runs */
	HL_LOADING,		/* the session is loaded for the map */
	HL_ENDED		/* the program is gone */
};

/* A session this attach made, oldest first: deleted past --keep. */
struct hl_kept {
	int64_t		 session;
	char		*file;		/* the snapshot it was made from */
	int		 owned;		/* file is ours, dev and ino its */
	dev_t		 dev;
	ino_t		 ino;
	int		 deleting;	/* in the deleter's list */
};

struct tui_heaplive {
	char		*sock;
	uint64_t	 every_ns;	/* 0: only when asked */
	uint64_t	 next_ns;	/* the next update by itself */
	enum hl_state	 state;
	pid_t		 pid;		/* the program, from the socket */
	int		 pidfd;		/* readable when it has ended */
	int		 fd;		/* the socket, while asking */
	char		 reply[INGEST_HEAPSOCK_REPLY_MAX];
	size_t		 got;
	char		*file;
	pid_t		 child;		/* the ingest */
	int		 out;		/* its output */
	char		 text[1024];
	size_t		 ntext;
	char		 waiting[256];	/* what the ingest waits for */
	int64_t		 session;
	uint64_t	 t0, t_ask, t_ingest;
	char		*error;
	struct hl_kept	 answered;	/* the file, as the answer named it */

	unsigned	 keep;		/* --keep: sessions kept, 0 all */
	struct hl_kept	*kept;
	size_t		 nkept;
	pid_t		 deleter;	/* profview delete, of those deleting */

	/* The load, on a thread with a connection of its own (heapload.c). */
	struct tui_heapload *load;
	struct analyze_heapview	*s;
	/* The snapshot shown, to compare the new one with (read only). */
	const struct analyze_heapview *old;
	int64_t		 old_session;
	struct analyze_heapdiff_cmp *cmp;
	struct tui_heapinfo *info;	/* the new snapshot's info tables */
	char		*cmp_cause;
	uint64_t	 cmp_ns;	/* how long it took */
};

static int	hl_ingest_start(struct tui_heaplive *, char **);

/* ---- an update, step by step ---------------------------------------- */

/*
 * The snapshot file of a session to be: deleted with it only if it is
 * still the very file (device, inode) it was when the agent named it, a
 * plain file of this user's.  The name comes from the program's socket,
 * and a hostile one could name any file.
 */
/* A plain file of this user's, not followed through a link: its stat. */
static int
hl_own_file(const char *file, struct stat *sb)
{
	return (lstat(file, sb) == 0 && S_ISREG(sb->st_mode) &&
	    sb->st_uid == geteuid());
}

static void
hl_kept_file(struct hl_kept *k, const char *file)
{
	struct stat	sb;

	free(k->file);
	k->file = file != NULL ? xstrdup(file) : NULL;
	k->owned = file != NULL && hl_own_file(file, &sb);
	k->dev = k->owned ? sb.st_dev : 0;
	k->ino = k->owned ? sb.st_ino : 0;
	k->deleting = 0;
}

/* Session id, made from the file in k, is the attach's newest. */
static void
hl_kept_add(struct tui_heaplive *hl, int64_t id, struct hl_kept *k)
{
	size_t	i;

	/* The same bytes again are the same session (ingest's reuse). */
	for (i = 0; i < hl->nkept; i++) {
		if (hl->kept[i].session == id) {
			free(k->file);
			memset(k, 0, sizeof *k);
			return;
		}
	}
	hl->kept = xreallocarray(hl->kept, hl->nkept + 1, sizeof *hl->kept);
	hl->kept[hl->nkept] = *k;
	hl->kept[hl->nkept++].session = id;
	memset(k, 0, sizeof *k);
}

/*
 * Live on sock, every seconds apart (0: when asked), keeping keep
 * sessions (0: all); session first, made from file, is the first.
 */
struct tui_heaplive *
tui_heaplive_new(const char *sock, double every, unsigned keep,
    int64_t first, const char *file)
{
	struct tui_heaplive	*hl = xcalloc(1, sizeof *hl);
	struct hl_kept		 k;
	pid_t			 pid;
	char			*cause = NULL;
	int			 fd;

	hl->sock = xstrdup(sock);
	hl->keep = keep;
	memset(&k, 0, sizeof k);
	hl_kept_file(&k, file);
	hl_kept_add(hl, first, &k);
	tui_heaplive_every(hl, every);
	hl->fd = hl->out = hl->pidfd = -1;
	hl->state = HL_IDLE;
	/*
	 * The program, so its end is seen at once: the peer of a connection
	 * made without a request (the agent answers "error unknown
	 * request" and goes on).
	 */
	if ((fd = ingest_heapsock_connect(sock, &pid, &cause)) != -1) {
		shutdown(fd, SHUT_WR);
		close(fd);
		hl->pid = pid;
#ifdef SYS_pidfd_open
		if (pid > 0)
			hl->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	}
	free(cause);
	return (hl);
}

/*
 * Updates of a stored snapshot from files beside it, no program to ask
 * (HeapInspector's Update without --attach): no socket, nothing kept or
 * deleted, never ended.
 */
struct tui_heaplive *
tui_heaplive_new_file(void)
{
	struct tui_heaplive	*hl = xcalloc(1, sizeof *hl);

	hl->fd = hl->out = hl->pidfd = -1;
	hl->state = HL_IDLE;
	return (hl);
}

/*
 * Start an update from file, a snapshot to ingest, compared with old
 * (session old_session) when loaded: -1 and a cause when one runs.
 */
int
tui_heaplive_start_file(struct tui_heaplive *hl,
    const struct analyze_heapview *old, int64_t old_session, const char *file,
    char **cause)
{
	if (tui_heaplive_busy(hl)) {
		*cause = xasprintf("an update is already %s",
		    tui_heaplive_doing(hl));
		return (-1);
	}
	hl->t0 = hl->t_ask = tui_now_ns();
	free(hl->file);
	hl->file = xstrdup(file);
	/* Named by the user's directory, not by an agent: never deleted. */
	free(hl->answered.file);
	memset(&hl->answered, 0, sizeof hl->answered);
	hl->answered.file = xstrdup(file);
	hl->old = old;
	hl->old_session = old_session;
	if (hl_ingest_start(hl, cause) != 0)
		return (-1);
	hl->state = HL_INGESTING;
	return (0);
}

/*
 * After the new snapshot's load, on the loader's thread: its comparison
 * with the one shown, which the browser only reads meanwhile, and its
 * info tables (tens of milliseconds of sums and sorts on a million
 * blocks that the browser would otherwise spend swapping it in).
 */
static void
hl_compare(void *arg, struct analyze_heapview *s)
{
	struct tui_heaplive	*hl = arg;

	hl->cmp_ns = tui_now_ns();
	if (hl->old != NULL)
		hl->cmp = analyze_heapdiff_cmp_new(hl->old, hl->old_session, s,
		    &hl->cmp_cause);
	hl->cmp_ns = tui_now_ns() - hl->cmp_ns;
	hl->info = tui_heapinfo_new(s);
	if (s->graph_ready)
		tui_heapinfo_make(hl->info);
}

/* The info tables of the snapshot the last update gave (the caller's). */
struct tui_heapinfo *
tui_heaplive_info(struct tui_heaplive *hl)
{
	struct tui_heapinfo	*hi = hl->info;

	hl->info = NULL;
	return (hi);
}

static void
hl_stop(struct tui_heaplive *hl)
{
	int	st;

	/* A load stops at its next look; what it made goes. */
	if (hl->load != NULL) {
		tui_heapload_stop(hl->load);
		hl->load = NULL;
		free(hl->s);
		hl->s = NULL;
		analyze_heapdiff_cmp_free(hl->cmp);
		hl->cmp = NULL;
		free(hl->cmp_cause);
		hl->cmp_cause = NULL;
	}
	tui_heapinfo_free(hl->info);
	hl->info = NULL;

	if (hl->fd != -1)
		close(hl->fd);
	hl->fd = -1;
	if (hl->child > 0) {
		kill(hl->child, SIGKILL);
		while (waitpid(hl->child, &st, 0) == -1 && errno == EINTR)
			/* nothing */;
	}
	hl->child = 0;
	if (hl->out != -1)
		close(hl->out);
	hl->out = -1;
}

void
tui_heaplive_free(struct tui_heaplive *hl)
{
	size_t	i;
	int	st;

	if (hl == NULL)
		return;
	hl_stop(hl);
	/* A delete cut short rolls back: its sessions stay, and their files. */
	if (hl->deleter > 0) {
		kill(hl->deleter, SIGKILL);
		while (waitpid(hl->deleter, &st, 0) == -1 && errno == EINTR)
			/* nothing */;
	}
	for (i = 0; i < hl->nkept; i++)
		free(hl->kept[i].file);
	free(hl->kept);
	free(hl->answered.file);
	if (hl->pidfd != -1)
		close(hl->pidfd);
	free(hl->sock);
	free(hl->file);
	free(hl->error);
	free(hl);
}

const char *
tui_heaplive_socket(const struct tui_heaplive *hl)
{
	return (hl->sock);
}

/* Whether the program has ended (its pid's descriptor says so). */
int
tui_heaplive_ended(struct tui_heaplive *hl)
{
	struct pollfd	p;

	if (hl->state == HL_ENDED)
		return (1);
	if (hl->pidfd == -1)
		return (0);
	p.fd = hl->pidfd;
	p.events = POLLIN;
	if (poll(&p, 1, 0) == 1) {
		hl_stop(hl);
		hl->state = HL_ENDED;
		return (1);
	}
	return (0);
}

pid_t
tui_heaplive_pid(const struct tui_heaplive *hl)
{
	return (hl->pid);
}

/* --every: 0 off; the next update by itself is due that long after now. */
void
tui_heaplive_every(struct tui_heaplive *hl, double secs)
{
	hl->every_ns = (uint64_t)(secs * 1e9);
	hl->next_ns = hl->every_ns != 0 ? tui_now_ns() + hl->every_ns : 0;
}

double
tui_heaplive_every_secs(const struct tui_heaplive *hl)
{
	return ((double)hl->every_ns / 1e9);
}

/* When the next update is due by itself (0: none). */
uint64_t
tui_heaplive_due(const struct tui_heaplive *hl)
{
	return (hl->state == HL_IDLE && hl->every_ns != 0 ? hl->next_ns : 0);
}

int
tui_heaplive_busy(const struct tui_heaplive *hl)
{
	return (hl->state == HL_ASKING || hl->state == HL_INGESTING ||
	    hl->state == HL_LOADING);
}

/* What an update is doing, for the status line; NULL when none runs. */
const char *
tui_heaplive_doing(const struct tui_heaplive *hl)
{
	switch (hl->state) {
	case HL_ASKING:
		return ("taking a snapshot");
	case HL_INGESTING:
		return (hl->waiting[0] != '\0' ? hl->waiting :
		    "storing the snapshot");
	case HL_LOADING:
		return ("loading the snapshot");
	default:
		return (NULL);
	}
}

/*
 * Start an update, to be compared with old (session old_session), which
 * must stay as it is until the update ends: -1 and a cause when one runs
 * or the program has ended.
 */
int
tui_heaplive_start(struct tui_heaplive *hl, const struct analyze_heapview *old,
    int64_t old_session, char **cause)
{
	pid_t	pid;
	int	fd, e;

	if (tui_heaplive_busy(hl)) {
		*cause = xasprintf("an update is already %s",
		    tui_heaplive_doing(hl));
		return (-1);
	}
	if (tui_heaplive_ended(hl)) {
		*cause = xasprintf("the program has ended: this is its last"
		    " snapshot");
		return (-1);
	}
	hl->t0 = tui_now_ns();
	hl->next_ns = hl->every_ns != 0 ? hl->t0 + hl->every_ns : 0;
	if ((fd = ingest_heapsock_connect(hl->sock, &pid, cause)) == -1 ||
	    ingest_heapsock_ask(fd, hl->sock, cause) != 0) {
		e = errno;
		if (fd != -1)
			close(fd);
		/* A socket gone, refused or closed: the program has ended. */
		if (e == ENOENT || e == ECONNREFUSED || e == EPIPE ||
		    e == ECONNRESET) {
			free(*cause);
			*cause = xasprintf("the program has ended (%s is gone):"
			    " this is its last snapshot", hl->sock);
			hl->state = HL_ENDED;
		}
		return (-1);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	hl->fd = fd;
	hl->got = 0;
	hl->old = old;
	hl->old_session = old_session;
	hl->state = HL_ASKING;
	return (0);
}

/*
 * This program again on the store, in a process of its own: "profview
 * --db STORE" and the arguments in argv (argv[0] and argv[2], the store,
 * are filled in here), its output and errors to out (-1: none).  The
 * process ends with this one: the kernel kills it when the browser
 * dies, however it dies.  0 if the store is only this process's
 * (:memory:), or -1 and a cause.
 */
static pid_t
hl_spawn(const char **argv, int out, char **cause)
{
	const char	*path = store_path(tui_store());
	char		 self[PATH_MAX];
	ssize_t		 n;
	pid_t		 pid, parent = getpid();
	sigset_t	 none;
	int		 devnull;

	if (path == NULL || strcmp(path, ":memory:") == 0 ||
	    (n = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0)
		return (0);
	self[n] = '\0';
	argv[0] = "profview";
	argv[2] = path;
	if ((pid = fork()) == -1) {
		*cause = xasprintf("fork: %s", strerror(errno));
		return (-1);
	}
	if (pid != 0)
		return (pid);
	/* Dead with the browser, even if it died before this line. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(127);
	/* The browser blocks its signals for its signalfd. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	devnull = open("/dev/null", O_RDWR);
	if (devnull == -1 || dup2(devnull, STDIN_FILENO) == -1 ||
	    dup2(out != -1 ? out : devnull, STDOUT_FILENO) == -1 ||
	    dup2(out != -1 ? out : devnull, STDERR_FILENO) == -1)
		_exit(127);
	execv(self, (char *const *)argv);
	dprintf(STDOUT_FILENO, "profview: %s: %s\n", self, strerror(errno));
	_exit(127);
}

/*
 * Ingest file as a session: in a process of its own (this program again,
 * "ingest" on the same store), whose output says the session; a store
 * only this process has (:memory:) is written here, while the map waits.
 */
static int
hl_ingest_start(struct tui_heaplive *hl, char **cause)
{
	struct ingest_opts	 io;
	const char		*kind;
	const char		*argv[] = { NULL, "--db", NULL, "ingest",
				    hl->file, NULL };
	int			 p[2], reused;

	if (pipe2(p, O_CLOEXEC) != 0) {
		*cause = xasprintf("pipe: %s", strerror(errno));
		return (-1);
	}
	hl->child = hl_spawn(argv, p[1], cause);
	if (hl->child <= 0) {
		close(p[0]);
		close(p[1]);
	}
	if (hl->child == -1) {
		hl->child = 0;
		return (-1);
	}
	if (hl->child == 0) {
		memset(&io, 0, sizeof io);
		return (ingest_file(tui_store(), hl->file, &io, &hl->session,
		    &kind, &reused, cause));
	}
	close(p[1]);
	hl->waiting[0] = '\0';
	hl->out = p[0];
	fcntl(hl->out, F_SETFL, fcntl(hl->out, F_GETFL) | O_NONBLOCK);
	hl->ntext = 0;
	return (0);
}

/*
 * What the ingest has said so far: that it waits for another process's
 * lock on the store (main.c's main_waiting), for the status line.
 */
static void
hl_ingest_waits(struct tui_heaplive *hl)
{
	const char	*w;
	char		*nl;
	size_t		 n;

	if ((w = strstr(hl->text, ": waiting for ")) == NULL)
		return;
	n = (nl = strchr(w, '\n')) != NULL ? (size_t)(nl - w) : strlen(w);
	snprintf(hl->waiting, sizeof hl->waiting, "storing the snapshot%.*s",
	    (int)n, w);
}

/*
 * The ingest's progress until deadline: 1 still running, 0 done (the
 * session set), -1 and a cause when it failed.
 */
static int
hl_ingest_poll(struct tui_heaplive *hl, uint64_t deadline, char **cause)
{
	struct pollfd	 p;
	ssize_t		 n;
	uint64_t	 now;
	char		*end, *nl, *line, *last;
	long long	 id = 0;
	int		 st, ms;

	if (hl->child == 0)
		return (0);		/* made in this process */
	p.fd = hl->out;
	p.events = POLLIN;
	for (;;) {
		now = tui_now_ns();
		ms = now < deadline ? (int)((deadline - now) / 1000000) : 0;
		if (poll(&p, 1, ms) != 1)
			return (1);
		n = read(hl->out, hl->text + hl->ntext, sizeof hl->text - 1 -
		    hl->ntext);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		hl->ntext += (size_t)n;
		if (hl->ntext == sizeof hl->text - 1)
			hl->ntext = 0;	/* only the end matters */
		hl->text[hl->ntext] = '\0';
		hl_ingest_waits(hl);
	}
	hl->text[hl->ntext] = '\0';
	close(hl->out);
	hl->out = -1;
	while (waitpid(hl->child, &st, 0) == -1 && errno == EINTR)
		/* nothing */;
	hl->child = 0;
	/*
	 * "ID\tkind\tfile" on success, after any messages (a wait for the
	 * lock, warnings); else its messages, the last of them the error.
	 */
	last = NULL;
	for (line = hl->text; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (*line != '\0')
			last = line;
		id = strtoll(line, &end, 10);
		if (end != line && *end == '\t' && id > 0)
			break;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && *line != '\0' &&
	    id > 0) {
		hl->session = id;
		return (0);
	}
	*cause = last != NULL ? xasprintf("%s", strncmp(last, "profview: ",
	    10) == 0 ? last + 10 : last) :
	    xasprintf("the ingest of %s ended with status %d", hl->file,
	    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return (-1);
}

/*
 * One step of an update until deadline (0 cancels it): 1 while it goes
 * on; 0 when it is over, with *out the new snapshot (its map made),
 * *session its session and *cmp its comparison with the old one (NULL
 * and *cause why, if they could not be compared); or *out NULL and
 * *cause why not (NULL too when it was cancelled).
 */
int
tui_heaplive_step(struct tui_heaplive *hl, uint64_t deadline,
    struct analyze_heapview **out, int64_t *session,
    struct analyze_heapdiff_cmp **cmp, char **cause)
{
	struct analyze_heapview	*s;
	struct pollfd		 p;
	uint64_t		 now;
	int			 r, ms;

	*out = NULL;
	*cmp = NULL;
	*cause = NULL;
	if (deadline == 0) {
		hl_stop(hl);
		if (hl->state != HL_ENDED)
			hl->state = HL_IDLE;
		return (0);
	}
	switch (hl->state) {
	case HL_ASKING:
		/* Wait in poll, not in the loop: the agent may take seconds. */
		p.fd = hl->fd;
		p.events = POLLIN;
		now = tui_now_ns();
		ms = now < deadline ? (int)((deadline - now) / 1000000) : 0;
		if (poll(&p, 1, ms) != 1)
			return (1);
		if ((r = ingest_heapsock_read(hl->fd, hl->reply, &hl->got,
		    hl->sock, cause)) == 0)
			return (1);
		close(hl->fd);
		hl->fd = -1;
		free(hl->file);
		hl->file = NULL;
		if (r < 0 || ingest_heapsock_answer(hl->reply, hl->got,
		    hl->sock, &hl->file, cause) != 0) {
			/* No answer at all: the program went. */
			if (hl->got == 0 || tui_heaplive_ended(hl)) {
				free(*cause);
				*cause = xasprintf("the program has ended"
				    " before it answered: this is its last"
				    " snapshot");
				hl->state = HL_ENDED;
			} else
				hl->state = HL_IDLE;
			return (0);
		}
		hl->t_ask = tui_now_ns();
		hl_kept_file(&hl->answered, hl->file);
		if (hl_ingest_start(hl, cause) != 0) {
			hl->state = HL_IDLE;
			return (0);
		}
		hl->state = HL_INGESTING;
		return (1);
	case HL_INGESTING:
		if ((r = hl_ingest_poll(hl, deadline, cause)) == 1)
			return (1);
		if (r < 0) {
			hl->state = HL_IDLE;
			return (0);
		}
		hl->t_ingest = tui_now_ns();
		hl_kept_add(hl, hl->session, &hl->answered);
		hl->state = HL_LOADING;
		hl->s = xcalloc(1, sizeof *hl->s);
		hl->cmp_ns = 0;
		hl->load = tui_heapload_start(hl->session, hl->s, 1, hl_compare,
		    hl);
		return (1);
	case HL_LOADING:
		if (tui_heapload_wait(hl->load, deadline))
			return (1);
		r = tui_heapload_end(hl->load, cause);
		hl->load = NULL;
		hl->state = HL_IDLE;
		s = hl->s;
		hl->s = NULL;
		if (r != 0) {
			free(s);
			return (0);
		}
		*out = s;
		*session = hl->session;
		*cmp = hl->cmp;
		hl->cmp = NULL;
		/* A comparison that failed: the update stands, said why. */
		*cause = hl->cmp_cause;
		hl->cmp_cause = NULL;
		return (0);
	default:
		return (0);
	}
}

/* Whether session id is still in the store. */
static int
hl_stored(int64_t id)
{
	struct store_session	ss;

	if (store_session_get(tui_store(), id, &ss) != 0)
		return (0);
	store_session_free(&ss);
	return (1);
}

/*
 * The sessions the deleter was given: those gone from the store leave
 * the list, each with its file if that is still the one ingested; those
 * still there (the delete failed: a lock held too long) are tried again
 * at the next prune.
 */
static void
hl_deleted(struct tui_heaplive *hl)
{
	struct hl_kept	*k;
	struct stat	 sb;
	size_t		 i, n = 0;

	for (i = 0; i < hl->nkept; i++) {
		k = &hl->kept[i];
		if (k->deleting && !hl_stored(k->session)) {
			if (k->owned && hl_own_file(k->file, &sb) &&
			    sb.st_dev == k->dev && sb.st_ino == k->ino)
				unlink(k->file);
			free(k->file);
			continue;
		}
		k->deleting = 0;
		hl->kept[n++] = *k;
	}
	hl->nkept = n;
}

/* Whether a delete of --keep's runs. */
int
tui_heaplive_deleting(const struct tui_heaplive *hl)
{
	return (hl->deleter > 0);
}

/* A delete that has ended: its sessions and files gone. */
void
tui_heaplive_tidy(struct tui_heaplive *hl)
{
	int	st;

	if (hl->deleter <= 0 || waitpid(hl->deleter, &st, WNOHANG) <= 0)
		return;
	hl->deleter = 0;
	hl_deleted(hl);
}

/*
 * --keep: the oldest sessions this attach made, past the newest keep,
 * deleted with their snapshot files (never shown, the one the map
 * shows): by a "profview delete" of its own, or here for a store only
 * this process has.  One delete at a time; what it leaves is tried
 * again at the next update.
 */
void
tui_heaplive_prune(struct tui_heaplive *hl, int64_t shown)
{
	const char	**argv;
	char		**ids, *cause = NULL;
	size_t		  i, n = 0, over;

	tui_heaplive_tidy(hl);
	if (hl->keep == 0 || hl->nkept <= hl->keep || hl->deleter > 0)
		return;
	over = hl->nkept - hl->keep;
	argv = xcalloc(over + 5, sizeof *argv);
	ids = xcalloc(over + 1, sizeof *ids);
	argv[1] = "--db";
	argv[3] = "delete";
	for (i = 0; i < hl->nkept && n < over; i++) {
		if (hl->kept[i].session == shown)
			continue;
		hl->kept[i].deleting = 1;
		ids[n] = xasprintf("%lld", (long long)hl->kept[i].session);
		argv[4 + n] = ids[n];
		n++;
	}
	if (n != 0) {
		hl->deleter = hl_spawn(argv, -1, &cause);
		if (hl->deleter == 0) {
			/* Only this process has the store: a small one. */
			for (i = 0; i < hl->nkept; i++) {
				if (hl->kept[i].deleting &&
				    store_session_delete(tui_store(),
				    hl->kept[i].session, &cause) != 0) {
					free(cause);
					cause = NULL;
				}
			}
		}
		if (hl->deleter <= 0) {
			hl->deleter = 0;
			hl_deleted(hl);
		}
	}
	free(cause);
	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	free(argv);
}

/*
 * How long the parts of the update just done took, in microseconds: the
 * load includes the comparison, also given alone.
 */
void
tui_heaplive_times(const struct tui_heaplive *hl, uint64_t *ask,
    uint64_t *ingest, uint64_t *load, uint64_t *cmp)
{
	uint64_t	now = tui_now_ns();

	*ask = (hl->t_ask - hl->t0) / 1000;
	*ingest = (hl->t_ingest - hl->t_ask) / 1000;
	*load = (now - hl->t_ingest) / 1000;
	*cmp = hl->cmp_ns / 1000;
}
