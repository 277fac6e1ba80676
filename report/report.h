/*
 * report: every session kind, and any query result, written as a report.
 * The same code serves "profview export" and the browser's :export.
 *
 * A report is a document: a list of tables of typed cells.  A per-kind
 * writer (report/NAME.c, reached through the kind table, kind.h) decides
 * what the tables hold; a per-format driver (text.c, csv.c, json.c,
 * html.c) decides how they look.  So a new kind gets every format, and a
 * new format serves every kind.  Timeline formats (chrome.c) are drivers
 * of a second, smaller model: tracks of spans and instants (struct
 * report_trace below), fed by a kind's optional trace writer.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "outfile.h"
#include "analyze/analyze.h"
#include "store/store.h"

enum report_format {
	REPORT_TEXT,
	REPORT_CSV,
	REPORT_JSON,
	REPORT_HTML,
	REPORT_CHROME,
	REPORT_HEAPSNAPSHOT,	/* heap: Chrome DevTools' heap snapshot */
	REPORT_COLLAPSED,	/* folded stacks: flamegraph.pl, speedscope */
	REPORT_CALLGRIND,	/* call profiles: KCachegrind's format */
	REPORT_SPEEDSCOPE,	/* speedscope's JSON */
	REPORT_PPROF,		/* pprof's profile.proto, gzip'd */
	REPORT_FORMATS
};

/* Rows (and bytes of them) of text output buffered, to align columns,
 * before falling back to tab-separated lines. */
#define REPORT_TEXT_MAX_ROWS	10000
#define REPORT_TEXT_MAX_BYTES	((size_t)64 << 20)

/*
 * A cell: one typed value.  Every format writes NULL and blobs its one
 * way: text and html NULL and x'00ff', csv an empty field and 00ff (the
 * empty string is ""), json null and "00ff".
 */
enum report_type {
	REPORT_NULL,
	REPORT_INT,
	REPORT_REAL,
	REPORT_STR,
	REPORT_BLOB
};

struct report_cell {
	int		 type;
	int64_t		 i;
	double		 r;
	const char	*s;	/* REPORT_STR (NUL-terminated), REPORT_BLOB */
	size_t		 len;	/* bytes of s */
};

/* An export's output file (report.c): 0600, whole or not at all. */
struct report_file {
	FILE		*f;
	int		 direct;	/* the FIFO or device itself */
	struct outfile	 of;
};
int		 report_file_open(struct report_file *, const char *,
		     char **);
int		 report_file_close(struct report_file *, const char *, int,
		     char **);
int		 report_format_parse(const char *);
int		 report_tabular(int);
int		 report_traced(int);
int		 report_profiled(int);
const char	*report_format_name(int);
struct kind;
int		 report_exports(const struct kind *, int);
char		*report_formats(const struct kind *, const char *);
int		 report_session(struct store *, int64_t, int, FILE *, char **);
int		 report_write(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);
int		 report_query(struct store_query *, int, FILE *, char **);
int		 report_sessions(struct store *, int, FILE *, char **);
struct analyze_diff;
int		 report_diff(struct store *, int64_t, int64_t, int, FILE *,
		     char **);
int		 report_diff_write(const struct analyze_diff *, int, FILE *,
		     char **);
struct report_cell report_value_cell(const struct store_value *);
char		*report_cell_show(const struct report_cell *);
char		*report_cell_brief(const struct report_cell *, size_t, size_t);

/*
 * Below: the interface between the files of report/, not for callers.
 */

/* Column and table flags. */
#define REPORT_HUMAN	0x01	/* only in text and html */
#define REPORT_MACHINE	0x02	/* only in csv and json */
#define REPORT_HEX	0x04	/* unsigned (addresses): hex for humans */
#define REPORT_NOHEAD	0x08	/* table: no heading line for humans */
/* What a NULL cell says to humans (report_none); a dash by default. */
#define REPORT_SQLNULL	0x10	/* NULL, as SQL says it: query results */
#define REPORT_ROOTNULL	0x20	/* <spontaneous>: no caller (gprof's word) */

struct report_col {
	const char	*name;	/* csv header, json key */
	const char	*title;	/* text and html heading */
	int		 flags;
	int		 prec;	/* reals: digits after the point for humans
				   (machines get two more); hex: digits */
	int		 max;	/* text: widest it may be, 0 = any */
};

enum report_shape {
	REPORT_ROWS,	/* json: array of objects */
	REPORT_OBJECT,	/* key, value rows; json: one object */
	REPORT_KEYED,	/* json: object of objects keyed by the first column */
	REPORT_LIST	/* one column; json: array of values */
};

struct report_table {
	const char		*name;		/* json key, csv section */
	const char		*title;		/* heading for humans */
	int			 shape;
	int			 flags;
	const struct report_col	*cols;
	size_t			 ncols;
	const char		*empty;		/* humans, when no rows */
	int			 bar;		/* html: column drawn as a bar
						   (a percentage), or -1 */
	size_t			 max_rows;	/* text buffering, 0 = any */
};

struct report_doc {
	const char			 *title;
	int				  bare;	/* one table, unwrapped */
	const struct report_table	**tables;
	size_t				  ntables;
};

struct report_out;

struct report_ops {
	void	(*begin)(struct report_out *);
	void	(*table_begin)(struct report_out *);
	void	(*row)(struct report_out *, const struct report_cell *);
	void	(*table_end)(struct report_out *);
	void	(*end)(struct report_out *);
};

struct report_out {
	const struct report_ops		*ops;
	FILE				*f;
	int				 format;
	int				 human;	/* text or html */
	const struct report_doc		*doc;
	const struct report_table	*table;	/* the one being written */
	size_t				 ntable;	/* its index in doc */
	size_t				 nrows;	/* rows written to it so far */
	void				*data;	/* the driver's */
};

extern const struct report_ops report_text_ops;
extern const struct report_ops report_csv_ops;
extern const struct report_ops report_json_ops;
extern const struct report_ops report_html_ops;

/* report.c: running a document. */
void		 report_begin(struct report_out *, FILE *, int,
		     const struct report_doc *);
void		 report_table(struct report_out *, const struct report_table *);
void		 report_row(struct report_out *, const struct report_cell *);
void		 report_table_end(struct report_out *);
int		 report_end(struct report_out *, char **);
int		 report_visible(const struct report_out *,
		     const struct report_col *);
char		*report_number(const struct report_col *,
		     const struct report_cell *, int);
char		*report_hex(const void *, size_t);
char		*report_blob_show(const struct report_cell *);
const char	*report_none(const struct report_col *);
int		 report_utf8(const unsigned char *, size_t, size_t *);
size_t		 report_width(const char *);
void		 report_put_name(FILE *, const char *, size_t, int);

struct report_cell report_int(int64_t);
struct report_cell report_real(double);
struct report_cell report_str(const char *);
struct report_cell report_null(void);

/*
 * report.c: the tables every kind's report shares, so every report has
 * one shape: the session first, the kind's header next (a key, value
 * table named after the kind), the warnings among the kind's tables.
 */
#define REPORT_KV_COLS	4	/* key, value (machines), shown, note */
extern const struct report_col		report_kv_cols[REPORT_KV_COLS];
extern const struct report_table	report_tab_session;
extern const struct report_table	report_tab_warnings;
extern const struct report_table	report_tab_legend;
void		 report_lines(struct report_out *, const struct report_table *,
		     const char *const *, size_t);

void		 report_kv(struct report_out *, const char *,
		     struct report_cell, const char *, const char *);
void		 report_kv_int(struct report_out *, const char *, int64_t,
		     const char *, const char *);

/* report.c: a session's report, as every kind writes one. */
struct report_session {
	struct report_out	 out;
	struct report_doc	 doc;
	char			*title;
	char			**warn;
	size_t			 nwarn;
};
int		 report_session_begin(struct report_session *, struct store *,
		     const struct store_session *, FILE *, int,
		     const struct report_table **, size_t, char **);
void		 report_session_warnings(struct report_session *);
int		 report_session_end(struct report_session *, char **);

/* json.c: the one JSON escaper, for every format that writes JSON. */
void		 report_json_string(FILE *, const char *, size_t);
void		 report_json_value(FILE *, const struct report_col *,
		     const struct report_cell *);

/*
 * pprof.c: a profile in pprof's format (REPORT_PPROF), which a kind's
 * report writer fills (types, then samples of location stacks) and
 * hands to report_pprof_write, which frees it.
 */
struct report_pprof;
struct report_pprof *report_pprof_new(void);
void		 report_pprof_type(struct report_pprof *, const char *,
		     const char *);
void		 report_pprof_period(struct report_pprof *, const char *,
		     const char *, int64_t);
void		 report_pprof_default(struct report_pprof *, const char *);
void		 report_pprof_time(struct report_pprof *, int64_t, int64_t);
void		 report_pprof_comment(struct report_pprof *, const char *);
uint64_t	 report_pprof_mapping(struct report_pprof *, const char *,
		     uint64_t, uint64_t, int);
uint64_t	 report_pprof_module(struct report_pprof *, const char *,
		     const char *, uint64_t, uint64_t, uint64_t, int);
uint64_t	 report_pprof_location(struct report_pprof *, uint64_t,
		     uint64_t, const char *, const char *, int64_t);
void		 report_pprof_sample(struct report_pprof *,
		     const uint64_t *, size_t, const int64_t *);
void		 report_pprof_label(struct report_pprof *, const char *,
		     const char *);
void		 report_pprof_label_num(struct report_pprof *, const char *,
		     int64_t, const char *);
int		 report_pprof_write(struct report_pprof *, FILE *, char **);
void		 report_pprof_free(struct report_pprof *);

/*
 * Timelines.  A kind's trace writer (kind.h) tells a report_trace its
 * session as numbered tracks (a row each in Perfetto; Chrome calls them
 * threads) with spans and instants on them; a driver per timeline
 * format writes them (chrome.c: trace-event JSON).
 *
 * Spans may nest within a track: two spans of a track are either
 * disjoint or one lies inside the other, and a track's spans come in
 * order of start, an enclosing span before those it encloses (at equal
 * starts the longer first).  That is what the timeline formats still to
 * come need, so they are drivers of this same interface: collapsed
 * stacks (flame graphs: each span's path of names from the outermost,
 * with its self time) and callgrind (inclusive and self cost per name)
 * fold nested spans with one stack per track, never sorting.  Chrome
 * needs no folding: it stacks nested complete events itself.
 *
 * Times are microseconds from the session's origin; tracks are numbered
 * from 1 by the writer and drawn in the order they are declared, before
 * any span or instant on them.
 */
struct report_arg {
	const char		*name;
	struct report_cell	 v;
};

struct report_span {
	unsigned		 track;
	const char		*name;
	const char		*cat;		/* a category, for filtering */
	double			 start_us;
	double			 dur_us;	/* >= 0 */
	const struct report_arg	*args;
	size_t			 nargs;
};

struct report_instant {
	unsigned		 track;
	const char		*name;
	const char		*cat;
	double			 ts_us;
	const struct report_arg	*args;
	size_t			 nargs;
};

struct report_trace;

struct report_trace_ops {
	void	(*begin)(struct report_trace *);
	void	(*name)(struct report_trace *, const char *);
	void	(*track)(struct report_trace *, unsigned, const char *);
	void	(*span)(struct report_trace *, const struct report_span *);
	void	(*instant)(struct report_trace *,
		    const struct report_instant *);
	void	(*end)(struct report_trace *);
};

struct report_trace {
	const struct report_trace_ops	*ops;
	FILE				*f;
	int				 format;
	void				*data;	/* the driver's */
};

extern const struct report_trace_ops report_chrome_ops;

/* report.c: running a timeline. */
void		 report_trace_begin(struct report_trace *, FILE *, int);
void		 report_trace_name(struct report_trace *, const char *);
void		 report_trace_track(struct report_trace *, unsigned,
		     const char *);
void		 report_trace_span(struct report_trace *,
		     const struct report_span *);
void		 report_trace_instant(struct report_trace *,
		     const struct report_instant *);
int		 report_trace_end(struct report_trace *, char **);

#endif
