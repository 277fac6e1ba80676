/*
 * The ingest framework: map the file, hash it, pick a reader, and run the
 * reader inside one transaction so that a failed file leaves no rows.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xmalloc.h"
#include "kind.h"
#include "vis.h"
#include "ingest/ingest.h"

/* Warnings an ingest prints before it only counts them. */
#define INGEST_WARN_SHOWN	20

/*
 * Record the one error of this ingest: "file: offset N: field: detail".
 * Returns -1 so readers can "return (ingest_fail(...))".
 */
int
ingest_fail(struct ingest_ctx *ctx, size_t offset, const char *field,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*detail;

	if (ctx->cause != NULL)
		return (-1);
	va_start(ap, fmt);
	detail = xvasprintf(fmt, ap);
	va_end(ap);
	ctx->cause = xasprintf("%s: offset %zu: %s: %s", ctx->path, offset,
	    field, detail != NULL ? detail : "?");
	free(detail);
	return (-1);
}

/* A store write failed inside a reader. */
int
ingest_store_fail(struct ingest_ctx *ctx, const char *what)
{
	if (ctx->cause == NULL)
		ctx->cause = xasprintf("%s: store: %s: %s", ctx->path, what,
		    store_error(ctx->st));
	return (-1);
}

/*
 * Open a module a profile names (its program, a library it saw) to read
 * its symbols or debug information: at the path the profile recorded,
 * else, when the profile has a build-id to check it by (by_id), a file
 * of that name beside the profile: a profile copied with its program to
 * another folder or machine, as the examples are.  Read-only and never
 * blocking on a FIFO; the caller checks the build-id and the file type.
 * A descriptor, or -1 with the recorded path's errno; *beside is the file
 * opened there (the caller frees it), NULL when it was path.
 */
int
ingest_module_open(const struct ingest_ctx *ctx, const char *path,
    int by_id, char **beside)
{
	const char	*base, *slash;
	char		*alt;
	int		 fd, saved;

	*beside = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) != -1 ||
	    !by_id || ctx->path == NULL)
		return (fd);
	saved = errno;
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	if (*base != '\0') {
		slash = strrchr(ctx->path, '/');
		alt = slash != NULL ? xasprintf("%.*s/%s",
		    (int)(slash - ctx->path), ctx->path, base) :
		    xstrdup(base);
		if (strcmp(alt, path) != 0 &&
		    (fd = open(alt, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) != -1) {
			*beside = alt;
			return (fd);
		}
		free(alt);
	}
	errno = saved;
	return (-1);
}

/*
 * Give option name (a kind's, kind.c) the value value, replacing one
 * given before: the last on a command line wins, as getopt's did.
 */
void
ingest_opts_set(struct ingest_opts *o, const char *name, const char *value)
{
	size_t	i;

	for (i = 0; i < o->noptions; i++) {
		if (strcmp(o->options[i].name, name) == 0) {
			o->options[i].value = value;
			return;
		}
	}
	if (o->noptions == INGEST_OPTIONS_MAX)
		fatal("too many ingest options");
	o->options[o->noptions].name = name;
	o->options[o->noptions++].value = value;
}

/* Option name's value, NULL if it was not given (or o is NULL). */
const char *
ingest_opts_get(const struct ingest_opts *o, const char *name)
{
	size_t	i;

	for (i = 0; o != NULL && i < o->noptions; i++) {
		if (strcmp(o->options[i].name, name) == 0)
			return (o->options[i].value);
	}
	return (NULL);
}

/* What a reader asks: option name's value for this ingest, or NULL. */
const char *
ingest_option(const struct ingest_ctx *ctx, const char *name)
{
	return (ingest_opts_get(ctx->opts, name));
}

/* A readable-but-odd file: keep the note with the session and say it. */
void
ingest_warn(struct ingest_ctx *ctx, size_t offset, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *line;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (msg == NULL)
		return;
	/* A warning the store cannot keep fails the ingest (ingest_run). */
	if (store_warning_add(ctx->st, ctx->session, (int64_t)offset,
	    msg) != 0)
		ingest_store_fail(ctx, "warning");
	/*
	 * The first few on stderr, the rest only counted (ingest_run says
	 * how many): an odd file can have a warning per line, and thousands
	 * of lines would bury the one that matters and the shell's prompt.
	 */
	if (ctx->warnings < INGEST_WARN_SHOWN) {
		/* The path and the message may hold anything: vis.c. */
		line = xasprintf("%s: offset %zu: %s", ctx->path, offset, msg);
		fputs("profview: warning: ", stderr);
		vis_fputs(line, stderr);
		fputc('\n', stderr);
		free(line);
	}
	ctx->warnings++;
	free(msg);
}

/* After the load: how many warnings stderr did not show, and where. */
static void
ingest_warn_rest(const struct ingest_ctx *ctx, int kept)
{
	char	*line;

	if (ctx->warnings <= INGEST_WARN_SHOWN)
		return;
	if (kept)
		line = xasprintf("%s: %d more warnings (%d in all), kept with"
		    " session %lld in the store's warning table", ctx->path,
		    ctx->warnings - INGEST_WARN_SHOWN, ctx->warnings,
		    (long long)ctx->session);
	else
		line = xasprintf("%s: %d more warnings (%d in all)", ctx->path,
		    ctx->warnings - INGEST_WARN_SHOWN, ctx->warnings);
	fputs("profview: warning: ", stderr);
	vis_fputs(line, stderr);
	fputc('\n', stderr);
	free(line);
}

/* Draw a progress bar on stderr for long files, at most every 1 %. */
void
ingest_progress(struct ingest_ctx *ctx, size_t offset)
{
	static int	last = -1;
	int		pct, i;

	if (ctx->opts == NULL || !ctx->opts->progress || ctx->len < (1 << 22))
		return;
	pct = (int)((double)offset * 100 / ctx->len);
	if (pct == last)
		return;
	last = pct;
	fputc('\r', stderr);
	vis_fputs(ctx->path, stderr);
	fputs(" [", stderr);
	for (i = 0; i < 40; i++)
		fputc(i < pct * 40 / 100 ? '#' : '.', stderr);
	fprintf(stderr, "] %3d%%%s", pct, pct >= 100 ? "\n" : "");
	if (pct >= 100)
		last = -1;
}

/* The kind whose reader is surest it knows these bytes, or NULL. */
const struct kind *
ingest_detect(const uint8_t *buf, size_t len, const char *name)
{
	const struct kind	*best = NULL;
	int			 score, top = 0;
	size_t			 i;

	for (i = 0; i < kind_count; i++) {
		score = kind_table[i].reader->detect(buf, len, name);
		if (score > top) {
			top = score;
			best = &kind_table[i];
		}
	}
	return (best);
}

/* The program's name: the file name without folder and extension. */
static char *
ingest_program(const char *path)
{
	const char	*base = strrchr(path, '/');
	char		*s, *dot;

	base = base != NULL ? base + 1 : path;
	if ((s = strdup(base)) != NULL && (dot = strrchr(s, '.')) != NULL &&
	    dot != s)
		*dot = '\0';
	return (s);
}

static int
ingest_run(struct store *st, const char *path, const uint8_t *buf,
    size_t len, const struct ingest_opts *opts, time_t mtime,
    int64_t *session, const char **kind, char **cause)
{
	static const uint8_t	 empty[1];
	const struct kind	*k;
	struct ingest_ctx	 ctx;
	const struct kind_option *o;
	char			 sha[65], captured[32], *source, *prog, *names;
	struct tm		 tm;
	size_t			 i;
	int			 reread, rc;

	if (buf == NULL)
		buf = empty;
	if ((k = ingest_detect(buf, len, path)) == NULL) {
		names = kind_names(", ");
		*cause = xasprintf("%s: not a profile profview knows (%zu"
		    " bytes; formats: %s)", path, len, names);
		free(names);
		return (-1);
	}
	*kind = k->name;
	ingest_sha256(buf, len, sha);
	/*
	 * A file already there is its session, unless an option says how to
	 * read what is derived from it (--map, --load: its symbols), so it is
	 * read again into the same session.
	 */
	reread = 0;
	for (i = 0; opts != NULL && i < opts->noptions; i++) {
		if (opts->options[i].value == NULL)
			continue;
		o = kind_option_find(opts->options[i].name);
		reread |= (o != NULL && o->reread);
	}
	if ((*session = store_session_find(st, sha)) > 0 && !reread)
		return (1);

	/* Bytes from memory have no file time: captured stays NULL. */
	if (mtime != (time_t)-1 && gmtime_r(&mtime, &tm) != NULL)
		strftime(captured, sizeof captured, "%Y-%m-%dT%H:%M:%SZ", &tm);
	else
		captured[0] = '\0';
	if ((source = realpath(path, NULL)) == NULL)
		source = strdup(path);
	prog = ingest_program(path);

	memset(&ctx, 0, sizeof ctx);
	ctx.st = st;
	ctx.path = path;
	ctx.buf = buf;
	ctx.len = len;
	ctx.opts = opts;
	if (store_begin(st, cause) != 0)
		goto fail;
	/* Another profview may have added it while this one waited. */
	if ((ctx.session = store_session_find(st, sha)) > 0 && !reread) {
		store_rollback(st);
		*session = ctx.session;
		rc = 1;
		goto done;
	}
	if (ctx.session > 0) {
		if (store_session_reread(st, k->name, ctx.session, source,
		    (int64_t)len, prog, captured[0] != '\0' ? captured : NULL,
		    cause) != 0)
			goto rollback;
	} else
		ctx.session = store_session_add(st, k->name, source, sha,
		    (int64_t)len, prog, captured[0] != '\0' ? captured : NULL,
		    cause);
	if (ctx.session < 0)
		goto rollback;
	if (k->reader->load(&ctx) != 0 || ctx.cause != NULL) {
		*cause = ctx.cause != NULL ? ctx.cause :
		    xasprintf("%s: %s reader failed", path, k->name);
		ctx.cause = NULL;
		goto rollback;
	}
	if (store_session_set(st, ctx.session, ctx.program,
	    ctx.captured) != 0 ||
	    store_session_summarize(st, ctx.session, k->name) != 0) {
		*cause = xasprintf("%s: store: session: %s", path,
		    store_error(st));
		goto rollback;
	}
	if (store_commit(st, cause) != 0)
		goto rollback;
	ingest_warn_rest(&ctx, 1);
	*session = ctx.session;
	rc = 0;
done:
	free(source);
	free(prog);
	free(ctx.program);
	free(ctx.captured);
	return (rc);
rollback:
	store_rollback(st);
	ingest_warn_rest(&ctx, 0);
fail:
	free(ctx.cause);
	free(ctx.program);
	free(ctx.captured);
	free(source);
	free(prog);
	return (-1);
}

/*
 * Load len bytes named name (for messages, the program name and the map
 * search).  Returns 0 with a new session, 1 when an identical file was
 * already there (same sha256), -1 with *cause set.
 */
int
ingest_bytes(struct store *st, const char *name, const uint8_t *buf,
    size_t len, const struct ingest_opts *opts, int64_t *session,
    const char **kind, int *reused, char **cause)
{
	int	rc;

	*reused = 0;
	*kind = "?";
	rc = ingest_run(st, name, buf, len, opts,
	    (time_t)-1, session, kind, cause);
	if (rc == 1) {
		*reused = 1;
		rc = 0;
	}
	return (rc);
}

/*
 * Inputs (and their maps) are mapped, not copied.  If a file shrinks while
 * it is being read, touching the lost pages raises SIGBUS: say which file
 * in one line and exit.  The ingest's transaction is not committed, so
 * SQLite drops it and the store keeps nothing of the file.
 */
static char	ingest_bus_msg[PATH_MAX + 64];
static size_t	ingest_bus_len;

static void
ingest_bus(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, ingest_bus_msg, ingest_bus_len) < 0)
		_exit(1);
	_exit(1);
}

static void
ingest_guard(const char *path, struct sigaction *old)
{
	struct sigaction	sa;
	int			n;

	n = snprintf(ingest_bus_msg, sizeof ingest_bus_msg, "profview: %s:"
	    " the file (or its map) shrank while being read\n", path);
	ingest_bus_len = n < 0 ? 0 : (size_t)n < sizeof ingest_bus_msg ?
	    (size_t)n : sizeof ingest_bus_msg - 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ingest_bus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, old);
}

/* Load one file; see ingest_bytes. */
int
ingest_file(struct store *st, const char *path, const struct ingest_opts *opts,
    int64_t *session, const char **kind, int *reused, char **cause)
{
	struct stat		 sb;
	struct sigaction	 old;
	void			*map = NULL;
	int			 fd, rc;

	*reused = 0;
	*kind = "?";
	/* Not blocking: a FIFO would wait for a writer until the end. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		close(fd);
		return (-1);
	}
	if (sb.st_size > 0) {
		map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd,
		    0);
		if (map == MAP_FAILED) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			close(fd);
			return (-1);
		}
	}
	close(fd);
	ingest_guard(path, &old);
	rc = ingest_run(st, path, map, (size_t)sb.st_size, opts, sb.st_mtime,
	    session, kind, cause);
	sigaction(SIGBUS, &old, NULL);
	if (map != NULL)
		munmap(map, (size_t)sb.st_size);
	if (rc == 1) {
		*reused = 1;
		rc = 0;
	}
	return (rc);
}
