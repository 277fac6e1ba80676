/*
 * analyze/ovd.h: an OVRACT session's model and the timeline's index over it
 * (the ovd kind's: analyze/ovd.c), shared by its views and its report.
 */
#ifndef ANALYZE_OVD_H
#define ANALYZE_OVD_H

#include "analyze/analyze.h"

/* Overlay sessions (ovd.c). */
#define ANALYZE_OVD_TICKS_PER_S	18.2065	/* the PC's 1193182 / 65536 Hz clock */

struct analyze_ovd_unit {
	uint16_t	 stat_seg;
	uint32_t	 file_ofs;
	uint16_t	 code_size;
	uint16_t	 fixup_size;
	uint16_t	 entry_pts;
	char		*name;		/* from the map, or "seg XXXXh" */
	uint64_t	 loads;
	uint64_t	 reprieves;
	int64_t		 resident_ticks;
	double		 resident_share;	/* of the first to last event */
	double		 mean_reload_ticks;	/* between loads; < 0: fewer than 2 */
	int64_t		 first_load;		/* ticks, or -1 */
	int64_t		 last_load;
};

/*
 * An event; its index in events is its seq (the loader checks they are
 * 0..n-1).  16 bytes: a 10M-event session is held whole, so nothing is
 * kept that another field gives (the seq, the buffer's limits per event).
 */
struct analyze_ovd_event {
	int64_t		 ticks;
	uint16_t	 unit;		/* index into units */
	uint16_t	 ovr_ofs;
	uint32_t	 buffer : 31;	/* index into buffers */
	uint32_t	 reprieve : 1;
};

/* The overlay buffer's limits: one entry a change. */
struct analyze_ovd_buffer {
	uint16_t	 heap_org;
	uint16_t	 heap_end;
};

/*
 * A residency: unit at load_seg in the load lists of events first to
 * last (their seqs).  It starts at first's time and ends at the next
 * event's, whose list leaves it out (analyze_ovd_span_start, _end).
 */
struct analyze_ovd_span {
	uint16_t	 unit;
	uint16_t	 load_seg;
	uint32_t	 first;
	uint32_t	 last;
};

/* What happened to one unit in one window of time. */
struct analyze_ovd_cell {
	uint32_t	 loads;
	uint32_t	 reprieves;
	int64_t		 resident_ticks;
};

struct analyze_ovd {
	int64_t			 session;
	int			 version;
	uint16_t		 prefix_seg;
	int			 truncated;
	int64_t			 wraps;
	int64_t			 t_first;
	int64_t			 t_last;
	struct analyze_ovd_unit	*units;		/* by stat_seg */
	size_t			 nunits;
	struct analyze_ovd_event *events;	/* by seq */
	size_t			 nevents;
	struct analyze_ovd_buffer *buffers;	/* as the events changed them */
	size_t			 nbuffers;
	struct analyze_ovd_span	*spans;		/* by first_seq, then stat_seg */
	size_t			 nspans;
	struct analyze_sym	*syms;		/* by addr: seg * 16 + off */
	size_t			 nsyms;
};

int		 analyze_ovd_load(struct store *, int64_t, struct analyze_ovd *,
		    char **);
/* The same load in steps of about n rows: begin, step until <= 0, end. */
struct analyze_ovd_loader;
struct analyze_ovd_loader *analyze_ovd_begin(struct store *, int64_t,
		    struct analyze_ovd *, char **);
int		 analyze_ovd_step(struct analyze_ovd_loader *, size_t, char **);
int		 analyze_ovd_progress(const struct analyze_ovd_loader *,
		    const char **);
void		 analyze_ovd_end(struct analyze_ovd_loader *);
void		 analyze_ovd_free(struct analyze_ovd *);
void		*analyze_ovd_model(struct store *, int64_t, char **);
void		 analyze_ovd_model_free(void *);
char		*analyze_ovd_site(const struct analyze_ovd *, uint32_t,
		    uint16_t);
int64_t		 analyze_ovd_span_start(const struct analyze_ovd *,
		    const struct analyze_ovd_span *);
int64_t		 analyze_ovd_span_end(const struct analyze_ovd *,
		    const struct analyze_ovd_span *);
const struct analyze_ovd_buffer *analyze_ovd_buffer_of(
		    const struct analyze_ovd *, const struct analyze_ovd_event *);
double		 analyze_ovd_seconds(int64_t);

/*
 * The timeline's index over a loaded session (ovd.c): each unit's events
 * and stays as sorted arrays with prefix sums, so what any window of time
 * holds is a few binary searches, exact at any width and origin.
 */

/* A sorted key (a field of an array) with every 32nd value copied out. */
/*
 * A sorted key read through the model, not copied: key i is the time of
 * event idx[i] (ANALYZE_OVD_KEY_EVENT; of event i when idx is NULL), the
 * start of stay idx[i] (_START), or the first event of stay idx[i]
 * (_FIRST).  Every 32nd key is copied out, so a search touches the model
 * a few times, not twenty.
 */
#define ANALYZE_OVD_KEY_EVENT	0
#define ANALYZE_OVD_KEY_START	1
#define ANALYZE_OVD_KEY_FIRST	2
struct analyze_ovd_key {
	const struct analyze_ovd *o;
	const uint32_t	*idx;
	int		 what;
	size_t		 n;
	int64_t		*s;		/* key i * 32, ns of them */
	size_t		 ns;
};

/* One unit's events and stays, by time: indices into the model. */
struct analyze_ovd_lane {
	size_t			 nev;
	uint32_t		*ev;		/* indices into events */
	uint32_t		*loads;		/* loads in ev[0..i), nev + 1 */
	size_t			 nsp;
	uint32_t		*sp;		/* indices into spans */
	int64_t			*sp_cum;	/* ticks in [0..i), nsp + 1 */
	uint16_t		 paras;		/* its size in the buffer */
	struct analyze_ovd_key	 ev_key;
	struct analyze_ovd_key	 start_key;
	struct analyze_ovd_key	 first_key;
};

struct analyze_ovd_index {
	const struct analyze_ovd *o;
	struct analyze_ovd_lane	*lanes;		/* [nunits] */
	uint64_t		 nloads;
	uint16_t		 porg;		/* lowest OvrHeapOrg */
	uint16_t		 pend;		/* highest OvrHeapEnd */
	struct analyze_ovd_key	 ev_key;	/* events by ticks */
	int			 phase;		/* of the build */
	size_t			 at;
};

/* A unit in the buffer: an entry of a load list. */
struct analyze_ovd_slot {
	uint32_t	 unit;
	uint16_t	 load_seg;
};

/* Rows of a window's buffer band: outside the buffer, free, unit + 2. */
#define ANALYZE_OVD_BAND_OUT	0
#define ANALYZE_OVD_BAND_FREE	1

struct analyze_ovd_index *analyze_ovd_index_begin(const struct analyze_ovd *,
		    char **);
int		 analyze_ovd_index_step(struct analyze_ovd_index *, size_t);
struct analyze_ovd_index *analyze_ovd_index_build(const struct analyze_ovd *,
		    char **);
void		 analyze_ovd_index_free(struct analyze_ovd_index *);
size_t		 analyze_ovd_event_at(const struct analyze_ovd_index *,
		    int64_t);
size_t		 analyze_ovd_lane_at(const struct analyze_ovd_index *,
		    uint32_t, int64_t);
size_t		 analyze_ovd_lane_pos(const struct analyze_ovd_index *,
		    size_t);
long		 analyze_ovd_stay(const struct analyze_ovd_index *, uint32_t,
		    size_t);
int64_t		 analyze_ovd_resident(const struct analyze_ovd_index *,
		    uint32_t, int64_t);
void		 analyze_ovd_window(const struct analyze_ovd_index *, uint32_t,
		    int64_t, int64_t, struct analyze_ovd_cell *);
void		 analyze_ovd_windows(const struct analyze_ovd_index *, int64_t,
		    int64_t, size_t, struct analyze_ovd_cell *);
void		 analyze_ovd_band(const struct analyze_ovd_index *, int64_t,
		    int64_t, uint32_t *, size_t);
size_t		 analyze_ovd_load_list(const struct analyze_ovd_index *,
		    size_t, struct analyze_ovd_slot *);

/* The kind's diff hook (analyze/ovddiff.c, kind.h). */
struct analyze_diff;
int		 analyze_ovd_diff(struct store *, void *, void *,
		    struct analyze_diff *, char **);

#endif
