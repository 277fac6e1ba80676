/*
 * profview: argument parsing and dispatch only.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "kind.h"
#include "outfile.h"
#include "analyze/analyze.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "store/store.h"
#include "suggest.h"
#include "tui/tui.h"
#include "vis.h"
#include "xmalloc.h"

/* Exit statuses, documented in profview.1. */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* a file, query or export failed */
#define EXIT_USAGE	2	/* bad command line */

/*
 * --attach's sessions kept by default: the minutes before with --every
 * of a few seconds, and a bound on the disk a forgotten one can fill.
 */
#define MAIN_KEEP	10

struct main_args {
	const char		*db;
	int			 writable;
	int			 format;
	const char		*output;
	struct ingest_opts	 ingest;
	const char		*attach;	/* pvheap's socket */
	double			 every;		/* --every, seconds */
	long			 keep;		/* --keep; -1: not given */
	const char		*attach_file;	/* the first snapshot */
};

/*
 * A message on stderr, made safe first (vis.c): it may hold a file name
 * or a name from a file, and no byte of those may reach a terminal raw.
 */
static void __attribute__((format(printf, 1, 2)))
main_error(const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	fputs("profview: ", stderr);
	vis_fputs(msg, stderr);
	fputc('\n', stderr);
	free(msg);
}

/*
 * Whatever a command wrote must have reached standard output: a full
 * disk or a closed pipe is a failure like any other.
 */
static int
main_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (rc == EXIT_OK)
			main_error("standard output: %s", strerror(errno != 0 ?
			    errno : EIO));
		return (EXIT_FAIL);
	}
	return (rc);
}

/*
 * The options of the kinds' readers (kind.c), each once, in the order
 * the kinds list them: main_options_make fills them, getopt gets them
 * as MAIN_KIND_OPTION + their index.
 */
#define MAIN_KIND_OPTION	0x100
static const struct kind_option	*main_kind_options[INGEST_OPTIONS_MAX];
static size_t			 main_nkind_options;

static void
main_options_make(void)
{
	const struct kind_option *const	*o;
	size_t				 i, j;

	for (i = 0; i < kind_count; i++) {
		for (o = kind_table[i].options; o != NULL && *o != NULL; o++) {
			for (j = 0; j < main_nkind_options; j++) {
				if (strcmp(main_kind_options[j]->name,
				    (*o)->name) == 0)
					break;
			}
			if (j == main_nkind_options &&
			    main_nkind_options < INGEST_OPTIONS_MAX)
				main_kind_options[main_nkind_options++] = *o;
		}
	}
}

/* A kind's option in --help: "  --NAME ARG" and its text, a line each. */
static void
main_usage_option(FILE *f, const struct kind_option *o)
{
	const char	*p, *nl, *indent = "";
	char		*head;

	head = xasprintf("--%s %s", o->name, o->arg);
	fprintf(f, "  %-17s ", head);
	free(head);
	for (p = o->help; p != NULL; p = nl != NULL ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		fprintf(f, "%s%.*s\n", indent, nl != NULL ? (int)(nl - p) :
		    (int)strlen(p), p);
		indent = "                    ";
	}
}

/* A choice option's values for a message: "com|exe" is "com or exe". */
static char *
main_choices(const char *arg)
{
	const char	*p, *bar;
	char		*s = xstrdup(""), *t;

	for (p = arg; p != NULL; p = bar != NULL ? bar + 1 : NULL) {
		bar = strchr(p, '|');
		t = xasprintf("%s%s%.*s", s, p == arg ? "" : bar != NULL ?
		    ", " : " or ", bar != NULL ? (int)(bar - p) :
		    (int)strlen(p), p);
		free(s);
		s = t;
	}
	return (s);
}

/* Give a kind's option o value: any, or with choice one arg lists. */
static int
main_kind_option(struct main_args *a, const struct kind_option *o,
    const char *value)
{
	const char	*p, *bar;
	char		*said;
	size_t		 len;

	for (p = o->arg; o->choice; p = bar + 1) {
		bar = strchr(p, '|');
		len = bar != NULL ? (size_t)(bar - p) : strlen(p);
		if (strlen(value) == len && strncmp(p, value, len) == 0)
			break;
		if (bar == NULL) {
			said = main_choices(o->arg);
			main_error("--%s takes %s", o->name, said);
			free(said);
			return (EXIT_USAGE);
		}
	}
	ingest_opts_set(&a->ingest, o->name, value);
	return (EXIT_OK);
}

/*
 * The usage; the formats and kinds come from kind_table (kind.c).  Asked
 * for (--help), all of it on standard output; after a bad command line,
 * the commands alone on standard error, where they do not bury the error
 * that came before them.
 */
static void
main_usage_exit(int status)
{
	const struct kind_question	*q;
	FILE				*f;
	char				*bar, *list;
	size_t				 i;

	f = status == EXIT_OK ? stdout : stderr;
	bar = report_formats(NULL, "|");
	list = report_formats(NULL, ", ");

	fprintf(f,
"usage: profview [options] FILE...           ingest, then browse\n"
"       profview [options] ingest FILE...    load files, print their ids\n"
"       profview [options] sessions [--csv|--json]   list the sessions\n"
"       profview [options] delete ID...      delete sessions\n"
"       profview [options] sql [--csv|--json] QUERY\n"
"       profview [options] export [-f %s] [-o OUT] ID|FILE\n"
"       profview [options] diff [-f FMT] [-o OUT] A B\n"
"           two sessions of one kind compared (ids or files), A the baseline\n"
"       profview [options] browse [ID...]    browse stored sessions\n"
"       profview [options] --attach PATH [--every SECS] [--keep N]\n"
"           the heap map of a program under pvheap --socket PATH, live\n",
	    bar);
	for (i = 0; i < kind_count; i++) {
		if ((q = kind_table[i].question) == NULL)
			continue;
		fprintf(f, "       profview [options] %s [--csv|--json] ID"
		    " QUESTION [ARGS]\n%s", q->verb, q->usage);
	}
	if (status != EXIT_OK) {
		fputs("(profview --help for the options and the files it"
		    " reads)\n", f);
		free(bar);
		free(list);
		exit(status);
	}
	fputs(
"\n"
"options:\n"
"  --db PATH         the store (default $PROFVIEW_DB, else\n"
"                    $XDG_DATA_HOME/profview/profview.db); :memory: keeps nothing\n",
	    f);
	for (i = 0; i < main_nkind_options; i++)
		main_usage_option(f, main_kind_options[i]);
	fputs(
"  --debug-dir DIR[:DIR...]\n"
"                    where stripped modules' debug files are looked for\n"
"                    (default $PROFVIEW_DEBUG_DIR, else /usr/lib/debug)\n",
	    f);
	fprintf(f,
"  --writable        let sql and :sql change the store\n"
"  --attach PATH     take a snapshot over pvheap's socket PATH, store it,\n"
"                    and open its heap map, which u and :update renew\n"
"  --every SECS      with --attach: a new snapshot every SECS seconds\n"
"  --keep N          with --attach: keep its newest N sessions and their\n"
"                    snapshot files, delete older ones (default %d, 0 all)\n"
"  -f, --format FMT  report format for export and diff (%s)\n"
"  -o, --output OUT  write the report to OUT instead of standard output\n"
"      --csv, --json sql, sessions and heap output (default: aligned text)\n"
"  -h, --help        this text\n"
"  -V, --version     the version\n"
"\n"
"files read (session kinds):\n", MAIN_KEEP, list);
	for (i = 0; i < kind_count; i++) {
		fprintf(f, "  %-16s  %s\n", kind_table[i].name,
		    kind_table[i].what);
	}
	fputs("\nexit status: 0 success, 1 a file, query or export failed,"
	    " 2 usage\n", f);
	free(bar);
	free(list);
	exit(status == EXIT_OK ? main_stdout(status) : status);
}

/*
 * The commands, the likelier meant first (suggest takes the first); the
 * kinds' questions (kind.c) come after them.
 */
static const char *const main_commands[] = {
	"sessions", "export", "diff", "ingest", "browse", "sql", "delete"
};
#define MAIN_NCOMMANDS	(sizeof main_commands / sizeof main_commands[0])

/*
 * A first argument that is no command is a file to ingest; one that is
 * no file either is most often a mistyped command ("sesions"), which the
 * file's error ("No such file or directory") left the user to guess.
 * EXIT_OK if arg is there (or cannot be told: ingest says why), else
 * said, with what it was near or that it was neither, before the store
 * is opened (and maybe made) for nothing.
 */
static int
main_not_command(const char *arg)
{
	const char	*near, **all;
	size_t		 i, n = MAIN_NCOMMANDS;

	if (access(arg, F_OK) == 0 || errno != ENOENT)
		return (EXIT_OK);
	all = xreallocarray(NULL, MAIN_NCOMMANDS + kind_count, sizeof *all);
	memcpy(all, main_commands, sizeof main_commands);
	for (i = 0; i < kind_count; i++) {
		if (kind_table[i].question != NULL)
			all[n++] = kind_table[i].question->verb;
	}
	near = suggest(arg, all, n);
	free(all);
	if (near != NULL) {
		main_error("unknown command '%s' (did you mean '%s'?)", arg,
		    near);
		return (EXIT_USAGE);
	}
	main_error("%s: no such file, and not a command (see profview"
	    " --help)", arg);
	return (EXIT_FAIL);
}

/*
 * An ingest waits for another process's lock on the store: say so, and
 * who holds it, before the wait (which may be minutes) begins.  Before
 * the browser starts, nothing else is on the terminal to say it.
 */
static void
main_waiting(void *arg, const char *path, long pid)
{
	(void)arg;
	if (pid > 0)
		main_error("%s: waiting for process %ld, which is writing to"
		    " the store (another ingest), to finish; ^C gives up",
		    path, pid);
	else
		main_error("%s: waiting for another process writing to the"
		    " store (another ingest) to finish; ^C gives up", path);
}

/*
 * Open the store for a command.  Commands that only read open it
 * read-only (no lock, no new file).  With fallback, a store that cannot
 * be written is opened read-only (browsing a store one may only read).
 */
static struct store *
main_open(struct main_args *a, int flags, int fallback)
{
	struct store	*st;
	char		*path, *cause = NULL, *again = NULL;

	path = a->db != NULL ? strdup(a->db) : store_default_path();
	if (path == NULL) {
		main_error("out of memory");
		exit(EXIT_FAIL);
	}
	st = store_open(path, flags, kind_store(), &cause);
	if (st == NULL && fallback && (st = store_open(path, STORE_READONLY,
	    kind_store(), &again)) != NULL) {
		free(cause);
		cause = NULL;
	}
	free(again);
	if (st == NULL) {
		main_error("%s", cause);
		exit(EXIT_FAIL);
	}
	free(path);
	store_waiting_hook(st, main_waiting, NULL);
	return (st);
}

/* Ingest every file; ids[] gets each good file's session. */
static int
main_ingest_files(struct store *st, struct main_args *a, char **files,
    int n, int64_t *ids, size_t *nids, int quiet)
{
	const char	*kind;
	char		*cause = NULL, *name;
	int64_t		 id;
	int		 i, reused, failed = 0;

	a->ingest.progress = isatty(STDERR_FILENO);
	for (i = 0; i < n; i++) {
		if (ingest_file(st, files[i], &a->ingest, &id, &kind, &reused,
		    &cause) != 0) {
			main_error("%s", cause);
			free(cause);
			cause = NULL;
			failed++;
			continue;
		}
		if (!quiet) {
			/* One line a file: its name may hold a newline. */
			name = vis(files[i]);
			printf("%lld\t%s\t%s\n", (long long)id, kind, name);
			free(name);
		}
		if (ids != NULL)
			ids[(*nids)++] = id;
	}
	return (failed != 0 ? EXIT_FAIL : EXIT_OK);
}

static int
main_sessions(struct store *st, int format)
{
	char	*cause = NULL;

	if (report_sessions(st, format, stdout, &cause) != 0) {
		main_error("sessions: %s", cause);
		free(cause);
		return (EXIT_FAIL);
	}
	return (EXIT_OK);
}

static int
main_parse_id(const char *s, int64_t *id);

/* profview VERB SESSION QUESTION [ARGS]: the kind's question answers. */
static int
main_question(struct store *st, const struct kind_question *q, char **argv,
    int argc, int format)
{
	char	*cause = NULL;
	int64_t	 id;

	if (main_parse_id(argv[0], &id) != 0) {
		main_error("%s: not a session id", argv[0]);
		return (EXIT_USAGE);
	}
	if (q->ask(st, id, argv + 1, argc - 1, format, stdout, &cause) != 0) {
		main_error("%s: %s", q->verb, cause);
		free(cause);
		return (EXIT_FAIL);
	}
	return (main_stdout(EXIT_OK));
}

static int
main_parse_id(const char *s, int64_t *id)
{
	char		*end;
	long long	 v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v <= 0)
		return (-1);
	*id = v;
	return (0);
}

static int
main_delete(struct store *st, char **argv, int argc)
{
	char	*cause = NULL;
	int64_t	 id;
	int	 i, rc = EXIT_OK;

	for (i = 0; i < argc; i++) {
		if (main_parse_id(argv[i], &id) != 0) {
			main_error("%s: not a session id", argv[i]);
			rc = EXIT_FAIL;
			continue;
		}
		if (store_session_delete(st, id, &cause) != 0) {
			main_error("%s", cause);
			free(cause);
			cause = NULL;
			rc = EXIT_FAIL;
		}
	}
	return (rc);
}

/* The signal that stops profview sql, or 0: see main_sql. */
static volatile sig_atomic_t	main_signal;

static void
main_catch(int sig)
{
	main_signal = sig;
}

static int
main_stopped(void *arg)
{
	(void)arg;
	return (main_signal != 0);
}

/*
 * Run every statement of sql, printing each result in format.  SIGINT
 * or SIGTERM stops the statement running (a progress handler, so even
 * an aggregate that returns no row for hours stops at once); the rows
 * written so far stay written, and profview then dies of the signal.
 */
static int
main_sql(struct store *st, const char *sql, int format, int writable)
{
	struct sigaction	 sa, oldint, oldterm;
	struct store_query	*q;
	char			*cause = NULL;
	int			 rc = EXIT_OK;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = main_catch;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oldint);
	sigaction(SIGTERM, &sa, &oldterm);
	store_query_writes(st, writable);
	while (rc == EXIT_OK && main_signal == 0) {
		if ((q = store_query_open(st, &sql, &cause)) == NULL) {
			if (cause == NULL)	/* only blanks and comments */
				break;
			main_error("sql: %s", cause);
			free(cause);
			rc = EXIT_FAIL;
			break;
		}
		store_query_watch(q, main_stopped, NULL);
		if (!writable && !store_query_readonly(q)) {
			main_error("sql: the store is read-only here (use"
			    " --writable to change it)");
			rc = EXIT_FAIL;
		} else if (report_query(q, format, stdout, &cause) != 0) {
			if (!store_query_stopped(q))
				main_error("sql: %s", cause);
			free(cause);
			cause = NULL;
			rc = EXIT_FAIL;
		}
		store_query_close(q);
	}
	sigaction(SIGINT, &oldint, NULL);
	sigaction(SIGTERM, &oldterm, NULL);
	if (main_signal != 0)
		main_error("sql: interrupted");
	return (rc);
}

/* Where export and diff write: report_file_open (report.c). */
static int
main_out_open(const char *path, struct report_file *o)
{
	char	*cause = NULL;

	if (report_file_open(o, path, &cause) != 0) {
		main_error("%s", cause);
		free(cause);
		return (-1);
	}
	return (0);
}

static int
main_out_close(const char *path, struct report_file *o, int rc)
{
	char	*cause = NULL;

	if (report_file_close(o, path, rc, &cause) != 0) {
		if (cause != NULL)
			main_error("%s", cause);
		free(cause);
		return (-1);
	}
	return (0);
}

static int
main_export(struct store *st, struct main_args *a, const char *what)
{
	struct report_file out;
	char		*cause = NULL;
	int64_t		 id;
	size_t		 n = 0;
	int		 rc;

	if (main_parse_id(what, &id) != 0 && access(what, F_OK) != 0) {
		main_error("%s: neither a session id nor a file", what);
		return (EXIT_FAIL);
	}
	/* As gzip, compressed data is not written to a terminal. */
	if (a->format == REPORT_PPROF && a->output == NULL && isatty(1)) {
		main_error("export: pprof's format is gzip'd binary: name a"
		    " file with -o, or redirect the output");
		return (EXIT_FAIL);
	}
	if (a->output != NULL && main_out_open(a->output, &out) != 0)
		return (EXIT_FAIL);
	rc = 0;
	if (main_parse_id(what, &id) != 0 && main_ingest_files(st, a,
	    (char **)&what, 1, &id, &n, 1) != EXIT_OK)
		rc = -1;
	if (rc == 0 && (rc = report_session(st, id, a->format,
	    a->output != NULL ? out.f : stdout, &cause)) != 0) {
		main_error("export: %s", cause);
		free(cause);
	}
	if (a->output != NULL)
		rc = main_out_close(a->output, &out, rc);
	return (rc == 0 ? EXIT_OK : EXIT_FAIL);
}

/*
 * profview diff A B: two sessions compared, each an id or a file that is
 * ingested first, as export takes one.
 */
static int
main_diff(struct store *st, struct main_args *a, char **what)
{
	struct report_file out;
	char		*cause = NULL;
	int64_t		 id[2];
	size_t		 n;
	int		 i, rc;

	for (i = 0; i < 2; i++) {
		if (main_parse_id(what[i], &id[i]) != 0 &&
		    access(what[i], F_OK) != 0) {
			main_error("%s: neither a session id nor a file",
			    what[i]);
			return (EXIT_FAIL);
		}
	}
	/* As export's: the output is made before anything is ingested. */
	if (a->output != NULL && main_out_open(a->output, &out) != 0)
		return (EXIT_FAIL);
	rc = 0;
	for (i = 0; i < 2 && rc == 0; i++) {
		n = 0;
		if (main_parse_id(what[i], &id[i]) != 0 &&
		    main_ingest_files(st, a, &what[i], 1, &id[i], &n, 1) !=
		    EXIT_OK)
			rc = -1;
	}
	if (rc == 0 && (rc = report_diff(st, id[0], id[1], a->format,
	    a->output != NULL ? out.f : stdout, &cause)) != 0) {
		main_error("diff: %s", cause);
		free(cause);
	}
	if (a->output != NULL)
		rc = main_out_close(a->output, &out, rc);
	return (rc == 0 ? EXIT_OK : EXIT_FAIL);
}

static int
main_browse(struct store *st, struct main_args *a, const int64_t *ids,
    size_t n)
{
	struct tui_opts	 opts = { .writable = a->writable,
			    .live = a->attach, .every = a->every,
			    .keep = (unsigned)(a->keep >= 0 ? a->keep :
			    MAIN_KEEP), .live_file = a->attach_file };

	if (a->attach != NULL)
		opts.live_session = ids[0];
	char		*cause = NULL;
	size_t		 i;

	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		return (tui_main(st, ids, n, &opts) == 0 ? EXIT_OK : EXIT_FAIL);
	/* Not a terminal: print what the browser would open on. */
	for (i = 0; i < n; i++) {
		if (report_session(st, ids[i], REPORT_TEXT, stdout,
		    &cause) != 0) {
			main_error("%s", cause);
			free(cause);
			return (EXIT_FAIL);
		}
	}
	return (EXIT_OK);
}

/*
 * profview --attach PATH: a snapshot from the live source PATH (a kind's
 * live hook, kind.h: the program under pvheap --socket PATH), stored,
 * and its view, following the source.  A source that is not there or
 * that no kind knows fails here, before the terminal is touched: the
 * first kind with a live hook that takes it, else the first one's cause.
 */
static int
main_attach(struct store *st, struct main_args *a)
{
	char	*file = NULL, *cause = NULL, *other;
	int64_t	 id;
	size_t	 n = 0, i;
	int	 rc = -1;

	if (isatty(STDERR_FILENO))
		fprintf(stderr, "profview: taking a snapshot over %s\n",
		    a->attach);
	for (i = 0; i < kind_count && rc != 0; i++) {
		if (kind_table[i].live == NULL)
			continue;
		other = NULL;
		rc = kind_table[i].live(a->attach, &file, cause == NULL ?
		    &cause : &other);
		free(other);
	}
	if (rc != 0) {
		main_error("--attach %s", cause != NULL ? cause :
		    "no kind has a live source");
		free(cause);
		return (EXIT_FAIL);
	}
	free(cause);
	rc = main_ingest_files(st, a, &file, 1, &id, &n, 1);
	if (rc == EXIT_OK) {
		a->attach_file = file;
		rc = main_browse(st, a, &id, 1);
	}
	free(file);
	return (rc);
}

int
main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "writable", no_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "attach", required_argument, NULL, 'A' },
		{ "every", required_argument, NULL, 'E' },
		{ "keep", required_argument, NULL, 'K' },
		{ "debug-dir", required_argument, NULL, 'D' },
	};
	struct option		 longopts[sizeof options / sizeof options[0] +
				    INGEST_OPTIONS_MAX + 1];
	struct main_args	 a;
	struct store		*st;
	const struct kind_question *q;
	const char		*cmd;
	char			*list;
	int64_t			*ids, ids_one;
	size_t			 nids = 0;
	int			 c, rc, i, skip, sqlfmt = REPORT_TEXT;
	char			*end;

	memset(&a, 0, sizeof a);
	a.format = REPORT_TEXT;
	a.keep = -1;
	main_options_make();
	memset(longopts, 0, sizeof longopts);
	memcpy(longopts, options, sizeof options);
	for (i = 0; i < (int)main_nkind_options; i++) {
		longopts[sizeof options / sizeof options[0] + i] =
		    (struct option){ main_kind_options[i]->name,
		    required_argument, NULL, MAIN_KIND_OPTION + i };
	}
	while ((c = getopt_long(argc, argv, "f:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			a.db = optarg;
			break;
		case 'w':
			a.writable = 1;
			break;
		case 'f':
			if ((a.format = report_format_parse(optarg)) < 0) {
				list = report_formats(NULL, ", ");
				main_error("unknown format %s (formats: %s)",
				    optarg, list);
				free(list);
				return (EXIT_USAGE);
			}
			break;
		case 'o':
			a.output = optarg;
			break;
		case 'C':
			sqlfmt = REPORT_CSV;
			break;
		case 'J':
			sqlfmt = REPORT_JSON;
			break;
		case 'h':
			main_usage_exit(EXIT_OK);
			break;
		case 'D':
			ingest_debug_dirs_set(optarg);
			break;
		case 'A':
			a.attach = optarg;
			break;
		case 'E':
			a.every = strtod(optarg, &end);
			if (end == optarg || *end != '\0' ||
			    !(a.every >= 0.1) || a.every > 86400) {
				main_error("--every %s: seconds, 0.1 to 86400",
				    optarg);
				return (EXIT_USAGE);
			}
			break;
		case 'K':
			errno = 0;
			a.keep = strtol(optarg, &end, 10);
			if (end == optarg || *end != '\0' || errno != 0 ||
			    a.keep < 0 || a.keep > 1000000) {
				main_error("--keep %s: sessions, 0 (all) to"
				    " 1000000", optarg);
				return (EXIT_USAGE);
			}
			break;
		case 'V':
			printf("profview %s\n", PACKAGE_VERSION);
			return (main_stdout(EXIT_OK));
		default:
			if (c >= MAIN_KIND_OPTION && c < MAIN_KIND_OPTION +
			    (int)main_nkind_options) {
				if (main_kind_option(&a, main_kind_options[c -
				    MAIN_KIND_OPTION], optarg) != EXIT_OK)
					return (EXIT_USAGE);
				break;
			}
			main_usage_exit(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (a.every != 0 && a.attach == NULL) {
		main_error("--every needs --attach");
		return (EXIT_USAGE);
	}
	if (a.keep >= 0 && a.attach == NULL) {
		main_error("--keep needs --attach");
		return (EXIT_USAGE);
	}
	if (a.attach != NULL) {
		if (argc != 0)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, 0, 0);
		rc = main_attach(st, &a);
		store_close(st);
		return (main_stdout(rc));
	}
	if (argc == 0)
		main_usage_exit(EXIT_USAGE);
	cmd = argv[0];

	if (strcmp(cmd, "sql") == 0) {
		if (argc != 2)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, a.writable ? STORE_NOCREATE :
		    STORE_READONLY, 0);
		rc = main_sql(st, argv[1], sqlfmt, a.writable);
	} else if (strcmp(cmd, "ingest") == 0) {
		if (argc < 2)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, 0, 0);
		rc = main_ingest_files(st, &a, argv + 1, argc - 1, NULL, NULL,
		    0);
	} else if (strcmp(cmd, "sessions") == 0) {
		if (argc != 1)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, STORE_READONLY, 0);
		rc = main_sessions(st, sqlfmt);
	} else if (strcmp(cmd, "delete") == 0) {
		if (argc < 2)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, STORE_NOCREATE, 0);
		rc = main_delete(st, argv + 1, argc - 1);
	} else if ((q = kind_question_find(cmd)) != NULL) {
		if (argc < 3)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, STORE_READONLY, 0);
		rc = main_question(st, q, argv + 1, argc - 1,
		    sqlfmt != REPORT_TEXT ? sqlfmt : a.format);
	} else if (strcmp(cmd, "export") == 0) {
		if (argc != 2)
			main_usage_exit(EXIT_USAGE);
		/* A session id only reads; a file may be ingested. */
		st = main_open(&a, main_parse_id(argv[1], &ids_one) == 0 ?
		    STORE_READONLY : 0, 0);
		rc = main_export(st, &a, argv[1]);
	} else if (strcmp(cmd, "diff") == 0) {
		if (argc != 3)
			main_usage_exit(EXIT_USAGE);
		/* Two session ids only read; a file may be ingested. */
		st = main_open(&a, main_parse_id(argv[1], &ids_one) == 0 &&
		    main_parse_id(argv[2], &ids_one) == 0 ? STORE_READONLY :
		    0, 0);
		rc = main_diff(st, &a, argv + 1);
	} else {
		skip = 0;
		if (strcmp(cmd, "browse") != 0 &&
		    (rc = main_not_command(cmd)) != EXIT_OK) {
			if (rc == EXIT_USAGE || argc == 1)
				return (rc);
			skip = 1;	/* said; the other files still load */
		}
		st = main_open(&a, 0, strcmp(cmd, "browse") == 0);
		if ((ids = calloc((size_t)argc, sizeof *ids)) == NULL) {
			main_error("out of memory");
			return (EXIT_FAIL);
		}
		if (strcmp(cmd, "browse") == 0) {
			rc = EXIT_OK;
			for (i = 1; i < argc; i++) {
				if (main_parse_id(argv[i], &ids[nids]) != 0) {
					main_error("%s: not a session id",
					    argv[i]);
					rc = EXIT_USAGE;
				} else
					nids++;
			}
		} else {
			rc = main_ingest_files(st, &a, argv + skip, argc - skip,
			    ids, &nids, 1);
			if (skip)
				rc = EXIT_FAIL;
		}
		if (rc == EXIT_OK || nids != 0) {
			c = main_browse(st, &a, ids, nids);
			if (rc == EXIT_OK)
				rc = c;
		}
		free(ids);
	}
	store_close(st);
	rc = main_stdout(rc);
	if (main_signal != 0) {
		/* Die of it, so that a shell loop running us stops too. */
		signal(main_signal, SIG_DFL);
		raise(main_signal);
	}
	return (rc);
}
