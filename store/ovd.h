/*
 * store/ovd.h: the ovd kind's tables (ovd.c): an OVRACT log's header, its
 * overlaid units, events and stays in the buffer.
 */
#ifndef STORE_OVD_H
#define STORE_OVD_H

#include "store/store.h"

extern const struct store_schema	store_ovd_schema;

/* An OVRACT session (.OVD): header and what the reader found. */
struct store_ovd {
	int		version;
	uint16_t	prefix_seg;
	int		truncated;	/* the file ends inside an event */
	int64_t		wraps;		/* BIOS midnight wraps of the clock */
	int64_t		stays;		/* ovr_loaded rows the reader wrote */
};

/* One overlaid unit of the code list (OVRACT's names, lower case). */
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

/* A stay in the overlay buffer, with its rowid (rows are in stay order). */
struct store_ovr_loaded {
	int64_t		rowid;
	uint16_t	stat_seg;
	uint16_t	load_seg;
	int64_t		first_seq;
	int64_t		last_seq;
};

/* ovd.c */
int		 store_ovd_add(struct store *, int64_t,
		     const struct store_ovd *);
int		 store_ovd_get(struct store *, int64_t, struct store_ovd *);
int		 store_ovr_unit_add(struct store *, int64_t,
		     const struct store_ovr_unit *);
struct store_cursor *store_ovr_units(struct store *, int64_t);
int		 store_ovr_unit_next(struct store_cursor *,
		     struct store_ovr_unit *);
int		 store_ovr_event_add(struct store *, int64_t,
		     const struct store_ovr_event *);
int64_t		 store_ovr_event_count(struct store *, int64_t);
struct store_cursor *store_ovr_events(struct store *, int64_t);
int		 store_ovr_event_next(struct store_cursor *,
		     struct store_ovr_event *);
int		 store_ovr_loaded_add(struct store *, int64_t, uint16_t,
		     uint16_t, int64_t, int64_t);
void		 store_ovr_loaded_range(struct store *, int64_t, int64_t *,
		     int64_t *);
struct store_cursor *store_ovr_loaded(struct store *, int64_t);
int		 store_ovr_loaded_next(struct store_cursor *,
		     struct store_ovr_loaded *);

#endif
