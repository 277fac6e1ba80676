/*
 * analyze/hist.h: the PROFIL histogram at every zoom level (hist.c) and the
 * annotated code under it (annotate.c): the prf kind's analyses, which the
 * prfd kind's slots view borrows for a slot's histogram.
 */
#ifndef ANALYZE_HIST_H
#define ANALYZE_HIST_H

#include "analyze/analyze.h"
#include "store/prf.h"

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
	/*
	 * A linear histogram (prfd's detail counters): addresses are in
	 * hex, and the model's are offsets from base (bucket rows keep 32
	 * bits, and a slot of a 64-bit address space is far from 0).
	 */
	int			 linear;
	uint64_t		 base;
	/*
	 * A linear histogram's code (annotate.c): x86-64, kept from its
	 * module's file (checked by build-id, NULL: none recorded) whose
	 * executable segment is mapped at [base, base + map_size).
	 */
	char			*module;
	char			*build_id;
	uint64_t		 map_size;
	int			 bias_known;	/* else from the mapping */
	uint64_t		 bias;
	/* A call profile's code (mon): no sample is of an instruction. */
	int			 nosamples;
};

int		 analyze_hist_load(struct store *, int64_t,
		    struct analyze_hist *, char **);
void		 analyze_hist_free(struct analyze_hist *);
void		 analyze_hist_build(struct analyze_hist *);
void		*analyze_hist_model(struct store *, int64_t, char **);
char		*analyze_hist_segoff(const struct analyze_hist *, uint64_t);
uint64_t	 analyze_hist_seg(const struct analyze_hist *, uint64_t);
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

size_t		 analyze_hit_at(const struct analyze_hist *, uint64_t);
uint64_t	 analyze_hit_sum(const struct analyze_hist *, uint64_t,
		    uint64_t);
double		 analyze_bucket_part(const struct analyze_hist *,
		    const struct analyze_bucket *, uint64_t, uint64_t);

/*
 * An annotated address range (annotate.c): its instructions decoded from
 * the stored image, each with the hit table's samples, the raw buckets
 * over it, and the listing's lines.  Rows cover the range without gaps:
 * bytes outside the image are one row, a byte capstone cannot decode is
 * a row of its own.
 */
#define ANALYZE_ANNOTATE_MAX	0x10000	/* bytes: one real-mode segment */

#define ANALYZE_INSN_BAD	0x1	/* not an instruction: one byte */
#define ANALYZE_INSN_MID	0x2	/* samples inside it, not at the start */
#define ANALYZE_INSN_GAP	0x4	/* bytes the image does not hold */

struct analyze_insn {
	uint64_t	 addr;		/* linear */
	uint64_t	 hits;		/* the hit table's samples in it */
	uint64_t	 mid;		/* of them, not at its start */
	uint32_t	 len;		/* bytes */
	uint32_t	 text;		/* "mov cx, 0x3e8", in the text arena */
	uint32_t	 bucket;	/* in buckets, or UINT32_MAX */
	uint32_t	 src;		/* its first listing line, in src */
	uint16_t	 nsrc;		/* listing lines at addresses in it */
	uint8_t		 flags;		/* ANALYZE_INSN_* */
};

/* A raw bucket over the range. */
struct analyze_ann_bucket {
	uint64_t	 lo;
	uint64_t	 hi;
	uint64_t	 hits;		/* all its samples */
	uint64_t	 exact;		/* the table's, in the range */
	uint64_t	 unplaced;	/* its samples no table entry places */
	double		 part;		/* its samples in the range, estimated
					   as the flat profile does */
	int		 whole;		/* the range holds all of it */
};

struct analyze_src_line {
	uint64_t	 addr;
	int64_t		 line;		/* in the listing */
	uint32_t	 text;		/* in the text arena */
};

struct analyze_annotate {
	int64_t			 session;
	uint64_t		 lo;		/* the range annotated */
	uint64_t		 hi;
	uint64_t		 dlo;		/* its part in the image */
	uint64_t		 dhi;
	int			 cut;		/* asked for more than MAX */
	int			 table;		/* the session has a hit table */
	int			 exact;		/* it places every sample of the
						   buckets: hits are exact */
	struct analyze_insn	*insn;		/* by address */
	size_t			 ninsn;
	uint8_t			*bytes;		/* the image's [dlo, dhi) */
	struct analyze_ann_bucket *buckets;	/* by address */
	size_t			 nbuckets;
	struct analyze_src_line	*src;		/* by address, then line */
	size_t			 nsrc;
	char			*text;
	uint64_t		 hits;		/* placed by the table */
	uint64_t		 mid;		/* of them, inside instructions */
	double			 estimated;	/* samples the table does not
						   place, the range's part */
	size_t			*hot;		/* rows with hits, hottest
						   first (ties by address) */
	size_t			 nhot;
};

int		 analyze_annotate_load(struct store *,
		    const struct analyze_hist *, uint64_t, uint64_t,
		    struct analyze_annotate *, char **);
void		 analyze_annotate_free(struct analyze_annotate *);
const char	*analyze_insn_text(const struct analyze_annotate *, size_t);
const char	*analyze_src_text(const struct analyze_annotate *, size_t);
size_t		 analyze_annotate_row(const struct analyze_annotate *,
		    uint64_t);
void		 analyze_annotate_sym_range(const struct analyze_hist *, size_t,
		    uint64_t *, uint64_t *);
int		 analyze_insn_target(const struct analyze_hist *,
		    const struct analyze_annotate *, size_t, uint64_t *);

/* The kind's diff hook (analyze/prfdiff.c, kind.h). */
struct analyze_diff;
int		 analyze_prf_diff(struct store *, void *, void *,
		    struct analyze_diff *, char **);

#endif
