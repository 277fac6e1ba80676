/*
 * kind: the session kinds, described once.
 *
 * A kind (prf, ovd; heap, mon and prfd to come) is one entry of
 * kind_table[] in kind.c, as a tmux command is one cmd_entry of
 * cmd_table[]: its name, its reader, its tables, its one-line summary,
 * the model its views draw and its reports are written from, and the
 * formats it exports.  Nothing else in the core compares kind names, and
 * every list of kinds or formats a user sees is made from this table.
 * The browser has the one other table, mapping a kind to its view
 * (tui/kinds.c).  HACKING.md lists the files a new kind adds.
 */
#ifndef KIND_H
#define KIND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct store;
struct store_kind;
struct store_schema;
struct store_session;
struct ingest_reader;
struct report_trace;
struct kind_question;
struct kind_option;
struct analyze_diff;

struct kind {
	const char			*name;	/* session.kind, the files' */
	const char			*what;	/* one line for --help */
	const struct ingest_reader	*reader;	/* ingest/NAME.c */
	const struct store_schema	*schema;	/* store/NAME.c */

	/*
	 * analyze/NAME.c: the in-memory model of one session, which the
	 * kind's views draw and its reports are written from.
	 */
	void	*(*model_load)(struct store *, int64_t, char **);
	void	 (*model_free)(void *);

	/*
	 * report/NAME.c: the session's report as tables, in any table
	 * format (text, csv, json, html) from one document model.
	 */
	int	 (*report)(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);
	/*
	 * Optional, report/NAME.c: the session as tracks of spans and
	 * instants, for the timeline formats (Chrome trace events).
	 */
	int	 (*trace)(const struct store_session *, const void *,
		     struct report_trace *);
	/*
	 * The formats beyond the tables it exports, a bit (KIND_F) each:
	 * the timeline formats its trace writer feeds, the call-profile
	 * formats its profile writer writes, and those its report writer
	 * writes itself (heap's heapsnapshot and collapsed).
	 */
	unsigned	 formats;
	/*
	 * Optional, report/NAME.c: the session as a call profile, in a
	 * call-profile format (callgrind, collapsed stacks, speedscope).
	 */
	int	 (*profile)(const struct store_session *, const void *, int,
		     FILE *, char **);
	/*
	 * Optional: a question asked of one session on the command line,
	 * profview VERB ID QUESTION [ARGS], answered in report/NAME.c.
	 */
	const struct kind_question	*question;
	/*
	 * Optional: the options its reader takes, NULL-ended; main makes
	 * --NAME VALUE and --help's lines of them, the reader asks for one
	 * with ingest_option.  Kinds share one by pointing to the same.
	 */
	const struct kind_option *const	*options;
	/*
	 * Optional, ingest/: a live source (profview --attach SOURCE), a
	 * snapshot taken from it now, as a file of the kind's format: its
	 * name, or -1 and a cause.  The browser's side is the kind's
	 * tui_mode live hook (tui/kinds.c).
	 */
	int	 (*live)(const char *, char **, char **);
	/*
	 * Optional, analyze/: two sessions' models compared (profview diff,
	 * :compare), rows matched by name, filled into an analyze_diff
	 * (analyze/diff.h): the first the baseline.  0, or -1 and a cause.
	 */
	int	 (*diff)(struct store *, void *, void *, struct analyze_diff *,
		     char **);
};

/* An option of a kind's reader: --NAME ARG on the command line. */
struct kind_option {
	const char	*name;
	const char	*arg;	/* in --help; with choice, the values "a|b" */
	int		 choice;	/* only a value of arg is taken */
	/*
	 * Given, a file already stored is read again: what the option
	 * says is derived from the file with it (--map: the symbols).
	 */
	int		 reread;
	const char	*help;	/* --help's text, "\n" between lines */
};

/*
 * A kind's command-line question: main dispatches its verb, and its
 * usage lines and the list of commands a mistyped one is matched
 * against come from here.
 */
struct kind_question {
	const char	*verb;
	const char	*usage;	/* the lines under "profview VERB ID ..." */
	/* Answer argv (the question and its arguments) in a table format. */
	int		 (*ask)(struct store *, int64_t, char **, int, int,
			     FILE *, char **);
};

#define KIND_F(format)	(1u << (format))

extern const struct kind	kind_table[];
extern const size_t		kind_count;

const struct kind	*kind_find(const char *);
char			*kind_names(const char *);
const struct kind_question *kind_question_find(const char *);
const struct kind_option *kind_option_find(const char *);
const struct store_kind	*kind_store(void);

#endif
