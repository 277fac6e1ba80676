/*
 * store/prf.h: the prf kind's tables (prf.c): the PROFIL header, its hit
 * table, the program's image and its NASM listing's lines.
 */
#ifndef STORE_PRF_H
#define STORE_PRF_H

#include "store/store.h"

extern const struct store_schema	store_prf_schema;

/* The PRF header as stored (PROFIL's names; counts: the winning ones). */
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
	/* The HITS section (prf migration 2): zeros when there is none. */
	int		hit_table;	/* prf_hit holds the file's hit table */
	int		hit_table_full;	/* a sample found no free entry */
	uint32_t	hit_table_capacity;	/* entries it had room for */
	uint64_t	hit_missed;	/* in-program samples in no entry */
};

/* One entry of a PRF hit table: a distinct CS:IP and its samples. */
struct store_prf_hit {
	uint64_t	addr;		/* cs * 16 + ip */
	uint16_t	cs;
	uint16_t	ip;
	uint64_t	hits;
};

/* A line of the program's NASM listing (text valid until the cursor moves). */
struct store_prf_source {
	uint64_t	 addr;		/* linear */
	int64_t		 line;		/* in the listing file, from 1 */
	const char	*text;
};

/* prf.c */
int		 store_prf_add(struct store *, int64_t,
		     const struct store_prf *);
int		 store_prf_get(struct store *, int64_t, struct store_prf *);
int		 store_prf_hit_add(struct store *, int64_t,
		     const struct store_prf_hit *);
struct store_cursor *store_prf_hits(struct store *, int64_t);
int		 store_prf_hit_next(struct store_cursor *,
		     struct store_prf_hit *);
int		 store_prf_image_add(struct store *, int64_t, uint64_t,
		     const uint8_t *, size_t);
int		 store_prf_image_get(struct store *, int64_t, uint64_t *,
		     uint8_t **, size_t *);
int		 store_prf_source_add(struct store *, int64_t, uint64_t,
		     int64_t, const char *);
struct store_cursor *store_prf_sources(struct store *, int64_t, uint64_t,
		     uint64_t);
int		 store_prf_source_next(struct store_cursor *,
		     struct store_prf_source *);

#endif
