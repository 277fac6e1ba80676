/*
 * store: the SQLite file every session lives in.
 *
 * Table and column names are a public interface (users type :sql queries
 * against them, profview-formats.5 documents them): change them only with a
 * migration in store.c.
 */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#define STORE_SCHEMA_VERSION	1

#define STORE_READONLY	0x1	/* open the file read-only (:sql default) */

struct store;

/* One row of the session table. */
struct store_session {
	int64_t		 id;
	char		 kind[8];
	char		*source;
	char		 sha256[65];
	int64_t		 bytes;
	char		*program;
	char		*captured;
	char		*ingested;
	char		*summary;	/* one line, built by store_sessions */
	int		 warnings;
};

/* The PRF header as stored (seed names; counts are the winning ones). */
struct store_prf {
	uint32_t	clock_grain;
	uint32_t	bucket_num;
	uint32_t	bucket_siz;
	uint32_t	prog_low_pa;
	uint32_t	prog_high_pa;
	uint32_t	dos_pa;
	uint64_t	hit_io;
	uint64_t	hit_dos;
	uint64_t	hit_high;
	int		pv32;		/* counts came from the PV32 trailer */
	int		saturated;	/* a 16-bit count hit 65535 */
};

/* An OVRACT session (.OVD): header and what the reader found. */
struct store_ovd {
	int		version;
	uint16_t	prefix_seg;
	int		truncated;	/* the file ends inside an event */
	int64_t		wraps;		/* BIOS midnight wraps of the clock */
};

/* One overlaid unit of the code list (seed names, lower case). */
struct store_ovr_unit {
	uint16_t	 stat_seg;
	uint32_t	 file_ofs;
	uint16_t	 code_size;
	uint16_t	 fixup_size;
	uint16_t	 entry_pts;
	const char	*name;		/* unit name from the map, or NULL */
};

struct store_ovr_event {
	int64_t		seq;
	int64_t		ticks;		/* Time, plus 1800B0h per midnight wrap */
	int		reprieve;	/* else a load */
	uint16_t	ovr_seg;
	uint16_t	ovr_ofs;
	uint16_t	heap_org;
	uint16_t	heap_end;
};

/*
 * A kind's part of the schema (store/KIND.c): its migrations, each taking
 * the kind's tables from version N to N + 1 (kept in kind_schema), and
 * its one-line session summary.
 */
struct store_schema {
	const char		 *kind;
	const char *const	 *migrations;
	size_t			  nmigrations;
	const char		 *summary;	/* SQL: one text value for ?1 */
};
extern const struct store_schema	store_prf_schema;
extern const struct store_schema	store_ovd_schema;

char		*store_default_path(void);
struct store	*store_open(const char *, int, char **);
void		 store_close(struct store *);
sqlite3		*store_db(struct store *);
const char	*store_path(struct store *);
int		 store_exec(struct store *, const char *, char **);
int		 store_begin(struct store *, char **);
int		 store_commit(struct store *, char **);
void		 store_rollback(struct store *);

/* Writing: only ingest/ calls these, inside store_begin/store_commit. */
int64_t		 store_session_find(struct store *, const char *);
int64_t		 store_session_add(struct store *, const char *, const char *,
		     const char *, int64_t, const char *, const char *, char **);
int		 store_session_delete(struct store *, int64_t, char **);
int		 store_symbol_add(struct store *, int64_t, const char *,
		     const char *, uint64_t, uint64_t);
int		 store_counter_add(struct store *, int64_t, const char *,
		     int64_t);
int		 store_bucket_add(struct store *, int64_t, uint32_t, uint64_t,
		     uint64_t, uint64_t);
int		 store_prf_add(struct store *, int64_t,
		     const struct store_prf *);
int		 store_warning_add(struct store *, int64_t, int64_t,
		     const char *);
int		 store_ovd_add(struct store *, int64_t,
		     const struct store_ovd *);
int		 store_ovr_unit_add(struct store *, int64_t,
		     const struct store_ovr_unit *);
int		 store_ovr_event_add(struct store *, int64_t,
		     const struct store_ovr_event *);
int		 store_ovr_loaded_add(struct store *, int64_t, uint16_t,
		     uint16_t, int64_t, int64_t);
const char	*store_error(struct store *);

/* Reading: for tui/, report/ and analyze/. */
int		 store_session_get(struct store *, int64_t,
		     struct store_session *);
int		 store_sessions(struct store *, struct store_session **,
		     size_t *);
void		 store_session_free(struct store_session *);
void		 store_sessions_free(struct store_session *, size_t);
int		 store_prf_get(struct store *, int64_t, struct store_prf *);
int		 store_warnings(struct store *, int64_t, char ***, size_t *);

#endif
