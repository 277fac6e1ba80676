/*
 * analyze: what SQL does badly, as plain C over arrays loaded once from
 * the store and shared by tui/ and report/.
 */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct analyze_sym {
	char		*module;
	char		*name;
	uint64_t	 addr;
	uint64_t	 size;
	/*
	 * Its samples: the hit table's entries inside it, exactly, plus its
	 * share of each bucket's samples the table does not place (all of
	 * them without a table), split by instruction starts or bytes.
	 */
	double		 hits;
	/*
	 * What the hits rest on: lo counts the unplaced samples of only the
	 * buckets the symbol has to itself, hi those of every bucket it
	 * touches.  lo == hi: exact; else hits is an estimate in [lo, hi].
	 */
	double		 hits_lo;
	double		 hits_hi;
};

/* How a bucket's samples that no hit-table entry places are shared. */
enum analyze_split {
	ANALYZE_SPLIT_NONE,	/* the table places every sample */
	ANALYZE_SPLIT_BYTES,	/* by the bytes each symbol has there */
	ANALYZE_SPLIT_STARTS	/* by the instructions starting there */
};

/* A bucket, or a run of merged buckets at a coarser zoom level. */
/*
 * 32 bytes: a 65535-bucket session's rows are made at every open, and
 * on a VM every page of them is a dear fault.  DOS linear addresses fit
 * 32 bits; hits do not (PV32 buckets count to 2^32 - 1, and rows add
 * them up).
 */
struct analyze_bucket {
	uint32_t	 idx;		/* first raw bucket */
	uint32_t	 lo;
	uint32_t	 hi;
	uint32_t	 sym_first;	/* candidate symbols, sorted by addr */
	uint32_t	 sym_count;
	uint64_t	 hits;
};

struct analyze_level {
	uint32_t		 factor;	/* raw buckets per row */
	size_t			 n;
	struct analyze_bucket	*b;
};

struct analyze_hist {
	int64_t			 session;
	struct store_prf	 prf;
	uint64_t		 in_program;	/* sum of bucket hits */
	uint64_t		 total;		/* plus io, dos, high */
	double			 unattributed;	/* bucket hits outside symbols */
	int			 split;		/* ANALYZE_SPLIT_* */
	/* The hit table (prf_hit), when the file had one, by address. */
	uint64_t		*hit_addr;
	uint64_t		*hit_cum;	/* hits of [0, i): nhit + 1 */
	size_t			 nhit;
	/* Instruction starts in the stored image: a bit per byte. */
	uint64_t		 image_lo;
	uint64_t		 image_hi;
	uint64_t		*starts;
	struct analyze_sym	*syms;		/* by address */
	size_t			 nsyms;
	size_t			*flat;		/* syms by hits, descending */
	struct analyze_level	*levels;	/* [0] the raw buckets; the rest
						   by analyze_hist_level */
	size_t			 nlevels;
};

int		 analyze_syms_load(struct store *, int64_t,
		    struct analyze_sym **, size_t *);
void		 analyze_syms_free(struct analyze_sym *, size_t);
int		 analyze_hist_load(struct store *, int64_t,
		    struct analyze_hist *, char **);
void		 analyze_hist_free(struct analyze_hist *);
void		*analyze_hist_model(struct store *, int64_t, char **);
char		*analyze_hist_segoff(const struct analyze_hist *, uint64_t);
void		 analyze_hist_model_free(void *);
uint64_t	 analyze_overlap(const struct analyze_bucket *,
		    const struct analyze_sym *);
double		 analyze_hist_pct(const struct analyze_hist *, double);
const struct analyze_level
		*analyze_hist_level(struct analyze_hist *, size_t);
size_t		*analyze_level_by_hits(const struct analyze_level *);
size_t		 analyze_level_at(const struct analyze_level *, uint64_t);
size_t		 analyze_bucket_sym(const struct analyze_hist *,
		    const struct analyze_bucket *, size_t);
char		*analyze_bucket_names(const struct analyze_hist *,
		    const struct analyze_bucket *);
size_t		 analyze_bucket_names_fit(const struct analyze_hist *,
		    const struct analyze_bucket *, size_t, char *, size_t);

/* A symbol's part of a bucket's bytes and hits. */
struct analyze_share {
	size_t		 sym;		/* SIZE_MAX: bytes outside symbols */
	uint64_t	 bytes;
	double		 hits;
};

double		 analyze_bucket_share(const struct analyze_hist *,
		    const struct analyze_bucket *, size_t);
double		 analyze_bucket_pct(const struct analyze_bucket *, double);
size_t		 analyze_bucket_shares(const struct analyze_hist *,
		    const struct analyze_bucket *, struct analyze_share **);

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

/*
 * The heap graph (heapgraph.c).  Nodes: 0 for all roots together, then
 * 1 + r for root r, then 1 + nroots + b for block b (blocks in address
 * order, as memcheck takes them).
 */
#define ANALYZE_HEAP_E_ROOT	0x1	/* src is a root, not a block */
#define ANALYZE_HEAP_E_INTERIOR	0x2	/* points inside dst, not at it */
#define ANALYZE_HEAP_E_EXCUSED	0x4	/* ... as a memcheck heuristic allows */

struct analyze_heap_edge {
	uint32_t	 src;
	uint32_t	 dst;
	uint32_t	 flags;
};

/* A block's leak kind, memcheck's. */
enum analyze_heap_state {
	ANALYZE_HEAP_UNREACHED,		/* only while computing */
	ANALYZE_HEAP_REACHABLE,
	ANALYZE_HEAP_POSSIBLE,
	ANALYZE_HEAP_DEFINITE,		/* definitely lost */
	ANALYZE_HEAP_INDIRECT,		/* indirectly lost */
	ANALYZE_HEAP_NSTATES
};

struct analyze_heap {
	uint32_t	 nroots;
	uint32_t	 nblocks;
	uint32_t	 nnodes;
	size_t		 nedges;
	uint32_t	*out_off;	/* CSR: nnodes + 1 offsets */
	uint32_t	*out;		/* targets (top bit: interior) */
	uint32_t	*in_off;
	uint32_t	*in;
	uint64_t	*size;		/* per node; roots 0 */
	/* analyze_heap_states */
	uint8_t		*state;		/* per block */
	uint64_t	 counts[ANALYZE_HEAP_NSTATES];
	uint64_t	 bytes[ANALYZE_HEAP_NSTATES];
	/* analyze_heap_dominators */
	uint32_t	*idom;		/* per node, UINT32_MAX unreached */
	uint64_t	*retained;	/* per node */
	uint32_t	*dom_in;	/* per node, its span in dom_order */
	uint32_t	*dom_out;
	uint32_t	*dom_order;	/* the tree in preorder */
	uint32_t	 ndom;
};

int		 analyze_heap_build(struct analyze_heap *, uint32_t, uint32_t,
		    const uint64_t *, const struct analyze_heap_edge *, size_t,
		    char **);
void		 analyze_heap_free(struct analyze_heap *);
void		 analyze_heap_states(struct analyze_heap *);
size_t		 analyze_heap_reach(const struct analyze_heap *,
		    const uint32_t *, size_t, int, const uint8_t *, uint8_t *);
void		 analyze_heap_dominators(struct analyze_heap *);
size_t		 analyze_heap_anchored(const struct analyze_heap *, uint32_t,
		    const uint32_t **);
size_t		 analyze_heap_anchored_by(const struct analyze_heap *,
		    uint32_t, uint8_t *);
size_t		 analyze_heap_unload(const struct analyze_heap *,
		    const uint8_t *, uint8_t *);

/*
 * mon.c: a pvtrace profile (the mon kind's model): its header, functions
 * by self time, call edges by time, call paths depth first (parents
 * before children).  Strings are the model's own.
 */
struct analyze_mon {
	struct store_mon	 hdr;
	int			 cpu;		/* CPU times were kept */
	struct store_func	*fn;
	size_t			 nfn;
	struct store_call	*calls_;
	size_t			 ncalls;
	struct store_callpath	*paths;
	size_t			 npaths;
	int64_t			 self_ns;	/* every function's self */
	uint64_t		 calls;		/* every function's calls */
	int64_t			 real_ns;	/* the top paths' totals */
};

void		*analyze_mon_model(struct store *, int64_t, char **);
void		 analyze_mon_model_free(void *);

#endif
