/*
 * profview: argument parsing and dispatch only.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "kind.h"
#include "analyze/analyze.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "store/store.h"
#include "tui/tui.h"

/* Exit statuses, documented in profview.1. */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* a file, query or export failed */
#define EXIT_USAGE	2	/* bad command line */

struct main_args {
	const char		*db;
	int			 writable;
	int			 format;
	const char		*output;
	struct ingest_opts	 ingest;
};

/* The usage; the formats and kinds come from kind_table (kind.c). */
static void
main_usage_exit(int status)
{
	FILE	*f = status == EXIT_OK ? stdout : stderr;
	char	*bar = kind_formats(NULL, "|"), *list = kind_formats(NULL, ", ");
	size_t	 i;

	fprintf(f,
"usage: profview [options] FILE...           ingest, then browse\n"
"       profview [options] ingest FILE...    load files, print their ids\n"
"       profview [options] sessions          list the stored sessions\n"
"       profview [options] delete ID...      delete sessions\n"
"       profview [options] sql [--csv|--json] QUERY\n"
"       profview [options] export [-f %s] [-o OUT] ID|FILE\n"
"       profview [options] browse [ID...]    browse stored sessions\n"
"\n"
"options:\n"
"  --db PATH         the store (default $PROFVIEW_DB, else\n"
"                    $XDG_DATA_HOME/profview/profview.db); :memory: keeps nothing\n"
"  --map FILE        linker map for the symbols (default NAME.MAP beside FILE)\n"
"  --load com|exe    how the DOS program was loaded (default: from the map)\n"
"  --program FILE    the profiled DOS program, kept for its code\n"
"                    (default NAME.COM or NAME.EXE beside FILE)\n"
"  --listing FILE    the program's NASM listing (nasm -l), for source lines\n"
"                    (default NAME.LST beside the program)\n"
"  --writable        let sql and :sql change the store\n"
"  -f, --format FMT  report format for export (%s)\n"
"  -o, --output OUT  write the report to OUT instead of standard output\n"
"      --csv, --json sql output format (default: aligned text)\n"
"  -h, --help        this text\n"
"  -V, --version     the version\n"
"\n"
"files read (session kinds):\n", bar, list);
	for (i = 0; i < kind_count; i++) {
		fprintf(f, "  %-16s  %s\n", kind_table[i].name,
		    kind_table[i].what);
	}
	fputs("\nexit status: 0 success, 1 a file, query or export failed,"
	    " 2 usage\n", f);
	free(bar);
	free(list);
	exit(status);
}

static struct store *
main_open(struct main_args *a, int flags)
{
	struct store	*st;
	char		*path, *cause = NULL;

	path = a->db != NULL ? strdup(a->db) : store_default_path();
	if (path == NULL) {
		fprintf(stderr, "profview: out of memory\n");
		exit(EXIT_FAIL);
	}
	if ((st = store_open(path, flags, &cause)) == NULL) {
		fprintf(stderr, "profview: %s\n", cause);
		exit(EXIT_FAIL);
	}
	free(path);
	return (st);
}

/* Ingest every file; ids[] gets each good file's session. */
static int
main_ingest_files(struct store *st, struct main_args *a, char **files,
    int n, int64_t *ids, size_t *nids, int quiet)
{
	const char	*kind;
	char		*cause = NULL;
	int64_t		 id;
	int		 i, reused, failed = 0;

	a->ingest.progress = isatty(STDERR_FILENO);
	for (i = 0; i < n; i++) {
		if (ingest_file(st, files[i], &a->ingest, &id, &kind, &reused,
		    &cause) != 0) {
			fprintf(stderr, "profview: %s\n", cause);
			free(cause);
			cause = NULL;
			failed++;
			continue;
		}
		if (!quiet)
			printf("%lld\t%s\t%s\n", (long long)id, kind, files[i]);
		if (ids != NULL)
			ids[(*nids)++] = id;
	}
	return (failed != 0 ? EXIT_FAIL : EXIT_OK);
}

static int
main_sessions(struct store *st)
{
	struct store_session	*v;
	size_t			 n, i;

	if (store_sessions(st, &v, &n) != 0) {
		fprintf(stderr, "profview: %s\n", store_error(st));
		return (EXIT_FAIL);
	}
	for (i = 0; i < n; i++) {
		printf("%lld\t%s\t%s\t%s\t%s%s\n", (long long)v[i].id,
		    v[i].kind, v[i].ingested != NULL ? v[i].ingested : "",
		    v[i].source, v[i].summary != NULL ? v[i].summary : "",
		    v[i].warnings != 0 ? " (warnings)" : "");
	}
	store_sessions_free(v, n);
	return (EXIT_OK);
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
			fprintf(stderr, "profview: %s: not a session id\n",
			    argv[i]);
			rc = EXIT_FAIL;
			continue;
		}
		if (store_session_delete(st, id, &cause) != 0) {
			fprintf(stderr, "profview: %s\n", cause);
			free(cause);
			cause = NULL;
			rc = EXIT_FAIL;
		}
	}
	return (rc);
}

/* Run every statement of sql, printing each result in format. */
static int
main_sql(struct store *st, const char *sql, int format, int writable)
{
	struct store_query	*q;
	char			*cause = NULL;

	for (;;) {
		if ((q = store_query_open(st, &sql, &cause)) == NULL) {
			if (cause == NULL)	/* only blanks and comments */
				return (EXIT_OK);
			fprintf(stderr, "profview: sql: %s\n", cause);
			free(cause);
			return (EXIT_FAIL);
		}
		if (!writable && !store_query_readonly(q)) {
			fprintf(stderr, "profview: sql: the store is read-only"
			    " here (use --writable to change it)\n");
			store_query_close(q);
			return (EXIT_FAIL);
		}
		if (report_query(q, format, stdout, &cause) != 0) {
			fprintf(stderr, "profview: sql: %s\n", cause);
			free(cause);
			store_query_close(q);
			return (EXIT_FAIL);
		}
		store_query_close(q);
	}
}

static int
main_export(struct store *st, struct main_args *a, const char *what)
{
	FILE		*out = stdout;
	char		*cause = NULL;
	int64_t		 id;
	size_t		 n = 0;
	int		 rc;

	if (main_parse_id(what, &id) != 0) {
		if (access(what, F_OK) != 0) {
			fprintf(stderr, "profview: %s: neither a session id nor"
			    " a file\n", what);
			return (EXIT_FAIL);
		}
		if (main_ingest_files(st, a, (char **)&what, 1, &id, &n, 1) !=
		    EXIT_OK)
			return (EXIT_FAIL);
	}
	if (a->output != NULL && (out = fopen(a->output, "w")) == NULL) {
		fprintf(stderr, "profview: %s: %s\n", a->output,
		    strerror(errno));
		return (EXIT_FAIL);
	}
	rc = report_session(st, id, a->format, out, &cause);
	if (rc != 0) {
		fprintf(stderr, "profview: export: %s\n", cause);
		free(cause);
	}
	if (out != stdout && fclose(out) != 0 && rc == 0) {
		fprintf(stderr, "profview: %s: %s\n", a->output,
		    strerror(errno));
		rc = -1;
	}
	if (rc != 0 && out != stdout)
		unlink(a->output);
	return (rc == 0 ? EXIT_OK : EXIT_FAIL);
}

static int
main_browse(struct store *st, struct main_args *a, const int64_t *ids,
    size_t n)
{
	struct tui_opts	 opts = { a->writable };
	char		*cause = NULL;
	size_t		 i;

	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
		return (tui_main(st, ids, n, &opts) == 0 ? EXIT_OK : EXIT_FAIL);
	/* Not a terminal: print what the browser would open on. */
	for (i = 0; i < n; i++) {
		if (report_session(st, ids[i], REPORT_TEXT, stdout,
		    &cause) != 0) {
			fprintf(stderr, "profview: %s\n", cause);
			free(cause);
			return (EXIT_FAIL);
		}
	}
	return (EXIT_OK);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "map", required_argument, NULL, 'm' },
		{ "load", required_argument, NULL, 'l' },
		{ "program", required_argument, NULL, 'p' },
		{ "listing", required_argument, NULL, 'L' },
		{ "writable", no_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct main_args	 a;
	struct store		*st;
	const char		*cmd;
	char			*list;
	int64_t			*ids;
	size_t			 nids = 0;
	int			 c, rc, i, sqlfmt = REPORT_TEXT;

	memset(&a, 0, sizeof a);
	a.format = REPORT_TEXT;
	while ((c = getopt_long(argc, argv, "f:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			a.db = optarg;
			break;
		case 'm':
			a.ingest.map = optarg;
			break;
		case 'l':
			if (strcmp(optarg, "com") == 0)
				a.ingest.load = INGEST_LOAD_COM;
			else if (strcmp(optarg, "exe") == 0)
				a.ingest.load = INGEST_LOAD_EXE;
			else {
				fprintf(stderr, "profview: --load takes com or"
				    " exe\n");
				return (EXIT_USAGE);
			}
			break;
		case 'p':
			a.ingest.program = optarg;
			break;
		case 'L':
			a.ingest.listing = optarg;
			break;
		case 'w':
			a.writable = 1;
			break;
		case 'f':
			if ((a.format = report_format_parse(optarg)) < 0) {
				list = kind_formats(NULL, ", ");
				fprintf(stderr, "profview: unknown format %s"
				    " (formats: %s)\n", optarg, list);
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
		case 'V':
			printf("profview %s\n", PACKAGE_VERSION);
			return (EXIT_OK);
		default:
			main_usage_exit(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		main_usage_exit(EXIT_USAGE);
	cmd = argv[0];

	if (strcmp(cmd, "sql") == 0) {
		if (argc != 2)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, a.writable ? 0 : STORE_READONLY);
		rc = main_sql(st, argv[1], sqlfmt, a.writable);
	} else if (strcmp(cmd, "ingest") == 0) {
		if (argc < 2)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, 0);
		rc = main_ingest_files(st, &a, argv + 1, argc - 1, NULL, NULL,
		    0);
	} else if (strcmp(cmd, "sessions") == 0) {
		st = main_open(&a, 0);
		rc = main_sessions(st);
	} else if (strcmp(cmd, "delete") == 0) {
		if (argc < 2)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, 0);
		rc = main_delete(st, argv + 1, argc - 1);
	} else if (strcmp(cmd, "export") == 0) {
		if (argc != 2)
			main_usage_exit(EXIT_USAGE);
		st = main_open(&a, 0);
		rc = main_export(st, &a, argv[1]);
	} else {
		st = main_open(&a, 0);
		if ((ids = calloc((size_t)argc, sizeof *ids)) == NULL) {
			fprintf(stderr, "profview: out of memory\n");
			return (EXIT_FAIL);
		}
		if (strcmp(cmd, "browse") == 0) {
			rc = EXIT_OK;
			for (i = 1; i < argc; i++) {
				if (main_parse_id(argv[i], &ids[nids]) != 0) {
					fprintf(stderr, "profview: %s: not a"
					    " session id\n", argv[i]);
					rc = EXIT_USAGE;
				} else
					nids++;
			}
		} else
			rc = main_ingest_files(st, &a, argv, argc, ids, &nids,
			    1);
		if (rc == EXIT_OK || nids != 0) {
			c = main_browse(st, &a, ids, nids);
			if (rc == EXIT_OK)
				rc = c;
		}
		free(ids);
	}
	store_close(st);
	return (rc);
}
