/*
 * report: every session kind, and any query result, written as a report.
 * The same code serves "profview export" and the browser's :export.
 *
 * A report is a document: a list of tables of typed cells.  A per-kind
 * writer (prf.c; ovd and the others plug into report.c's table) decides
 * what the tables hold; a per-format driver (text.c, csv.c, json.c,
 * html.c) decides how they look.  So a new kind gets every format, and a
 * new format serves every kind.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

#include "analyze/analyze.h"
#include "store/store.h"

enum report_format {
	REPORT_TEXT,
	REPORT_CSV,
	REPORT_JSON,
	REPORT_HTML,
	REPORT_CHROME,
	REPORT_FORMATS
};

/* report_hist flags: which rows the browser is showing. */
#define REPORT_HIST_FLAT	0x1	/* the flat profile, not the buckets */
#define REPORT_HIST_NONZERO	0x2	/* leave out buckets without hits */

/* Rows of text output buffered (to align columns) before falling back to
 * tab-separated lines. */
#define REPORT_TEXT_MAX_ROWS	10000

int		 report_format_parse(const char *);
int		 report_tabular(int);
int		 report_traced(int);
const char	*report_format_name(int);
int		 report_session(struct store *, int64_t, int, FILE *, char **);
int		 report_hist(const struct analyze_hist *, size_t, int, int,
		     FILE *, char **);
int		 report_stmt(sqlite3_stmt *, int, FILE *, char **);
int		 report_query(struct store_query *, int, FILE *, char **);

/* The kinds' reports (kind.h). */
int		 report_prf(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);
int		 report_ovd(struct store *, const struct store_session *,
		     const void *, int, FILE *, char **);
int		 report_ovd_id(struct store *, int64_t, int, FILE *, char **);

/*
 * Below: the interface between the files of report/, not for callers.
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

/* Column and table flags. */
#define REPORT_HUMAN	0x01	/* only in text and html */
#define REPORT_MACHINE	0x02	/* only in csv and json */
#define REPORT_HEX	0x04	/* integers in hex for humans */
#define REPORT_NOHEAD	0x08	/* table: no heading line for humans */

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
int		 report_utf8(const unsigned char *, size_t, size_t *);
size_t		 report_width(const char *);

struct report_cell report_int(int64_t);
struct report_cell report_real(double);
struct report_cell report_str(const char *);
struct report_cell report_null(void);

/* prf.c: the PRF session writer. */
int		 report_prf_session(struct store *,
		     const struct store_session *, int, FILE *, char **);

#endif
