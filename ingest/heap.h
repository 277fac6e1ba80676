/*
 * ingest/heap.h: the pvheap snapshot reader's checked file and the DWARF
 * its modules carry (heap.c, heapdwarf.c), for the heap kind's reader and
 * its tests.
 */
#ifndef INGEST_HEAP_H
#define INGEST_HEAP_H

#include <sys/types.h>

#include <limits.h>

#include "ingest/ingest.h"

extern const struct ingest_reader ingest_heap_reader;

/*
 * pvheap snapshots (heap.c): the checked file as views into its bytes.
 * A section's records are count records of size bytes (size may exceed
 * this version's: fields it does not know are ignored); read them with
 * ingest_heap_u32/u64 at the HF_* offsets of capture/pvheap/heapfmt.h.
 * The blocks and their pointers, most of a snapshot, are read out into
 * the arrays below, from version 1's BLKS and EDGS or version 2's BLKV
 * alike, so that each reader of a field reads that field alone;
 * ingest_heap_free frees them.
 */
struct ingest_heap_sec {
	const uint8_t	*p;		/* NULL: the file has no such section */
	uint64_t	 count;
	uint32_t	 size;
	uint64_t	 off;		/* in the file */
	size_t		 at;		/* its section table entry */
	const char	*tag;
	/* Version 2's BLKS and EDGS (p NULL): the BLKV they are read from. */
	const struct ingest_heap_sec *packed;
};

/* The blocks by index, which is address order. */
struct ingest_heap_blocks {
	uint64_t	 count;
	uint64_t	*addr;
	uint64_t	*size;		/* bytes asked for */
	uint64_t	*seq;
	uint64_t	*word0, *word1;	/* ingest_heap_word's */
	uint32_t	*slack;		/* usable size - size */
	uint32_t	*site, *type, *region;	/* or HEAPFMT_NONE */
	uint32_t	*tid;
	uint32_t	*flags;		/* HEAPFMT_BLK_* */
	/*
	 * HEAPFMT_V_W0_EDGE, _W1_EDGE: word 0 or 1 is its pointer's there,
	 * and not in word0 or word1 (version 2).
	 */
	uint8_t		*wptr;
};

/*
 * The pointers between blocks by source block, then word, as a CSR:
 * block b's are first[b] to first[b + 1], the order the store's runs and
 * the heap graph keep them in.
 */
struct ingest_heap_ptrs {
	uint64_t	 count;
	uint32_t	*first;		/* per block, and one past the last */
	uint32_t	*dst;		/* a block */
	uint32_t	*word;		/* which 8-byte word of the source */
	uint32_t	*dst_off;	/* HEAPFMT_OFF_* */
};

struct ingest_heap {
	const uint8_t		*buf;
	size_t			 len;
	uint16_t		 major, minor;
	uint64_t		 contents;	/* INFO.contents */
	uint64_t		 text;		/* bytes of the strings named */
	struct ingest_heap_sec	 info, strs, cntr, mods, imps, thrs, regn;
	struct ingest_heap_sec	 locs, frms, site, type, blks, edgs, root;
	struct ingest_heap_sec	 data, blkv;
	struct ingest_heap_blocks b;
	struct ingest_heap_ptrs	 e;
	void			*arrays;	/* b's and e's, one allocation */
	uint64_t		*words;		/* but b's word0 and word1 */
	uint32_t		*esrc;	/* version 1, while checked: EDGS.src */
};

/* Block states by memcheck's rules (ingest_heap_states). */
#define INGEST_HEAP_REACHABLE	1
#define INGEST_HEAP_POSSIBLE	2
#define INGEST_HEAP_DEFINITE	3	/* collectable, a clique's leader */
#define INGEST_HEAP_INDIRECT	4	/* collectable, reached from one */

static inline uint32_t
ingest_heap_u32(const struct ingest_heap_sec *s, uint64_t i, unsigned off)
{
	const uint8_t	*p = s->p + i * s->size + off;

	return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24);
}

static inline uint64_t
ingest_heap_u64(const struct ingest_heap_sec *s, uint64_t i, unsigned off)
{
	return ((uint64_t)ingest_heap_u32(s, i, off) |
	    (uint64_t)ingest_heap_u32(s, i, off + 4) << 32);
}

int		 ingest_heap_parse(struct ingest_ctx *, struct ingest_heap *);
void		 ingest_heap_free(struct ingest_heap *);
const char	*ingest_heap_str(const struct ingest_heap *, uint32_t);
uint64_t	 ingest_heap_data_at(const struct ingest_heap *, uint64_t);
uint64_t	 ingest_heap_word(const struct ingest_heap *, uint64_t,
		    unsigned);
void		 ingest_heap_states(struct ingest_heap *, uint8_t *);

/*
 * What the modules' debug information says of a snapshot (heapdwarf.c):
 * type layouts (typedefs, const and volatile looked through), the
 * modules' variables, each LOCS address's source line and each block's
 * type by the typed pointers that reach it.  Indices are into types[];
 * INGEST_DT_NONE is none (void, or not known).
 */
#define INGEST_DT_NONE		0xffffffffu
#define INGEST_DT_OTHER		0	/* a function, or unknown */
#define INGEST_DT_STRUCT	1	/* struct or class */
#define INGEST_DT_UNION		2
#define INGEST_DT_POINTER	3	/* pointers and references */
#define INGEST_DT_ARRAY		4
#define INGEST_DT_BASE		5	/* int, double, enums */

struct ingest_dtype {
	char		*name;		/* "struct node", "ns::Foo", "int *" */
	char		*tdname;	/* the typedef that reached it, or NULL */
	int		 kind;		/* INGEST_DT_* */
	int		 declared;	/* an aggregate declared, not defined */
	int		 chars;		/* a character type */
	int		 derived;	/* a C++ class others derive from */
	uint32_t	 module;	/* that defines it */
	uint64_t	 size;
	uint32_t	 target;	/* pointee, element */
	uint64_t	 count;		/* elements; 0 unknown */
	uint32_t	 first, nfields;	/* members, in fields[] */
	uint32_t	 name_id;	/* equal for equal (module, name) */
	uint32_t	 def;		/* the defined type for a declared one */
	uint64_t	 die;		/* while reading: its DIE */
};

struct ingest_dfield {
	uint32_t	 owner;
	char		*name;		/* "" for an anonymous member */
	uint64_t	 offset;
	uint32_t	 type;
	int		 base;		/* a base class (C++ inheritance) */
};

struct ingest_dvar {
	uint32_t	 module;
	char		*name;		/* "head", "ns::head" */
	uint64_t	 addr;		/* in the process */
	uint32_t	 type;
};

/* A module's _ZTV symbol: a class's vtable, in the process. */
struct ingest_vtable {
	uint32_t	 module;
	char		*name;		/* the class, demangled */
	uint64_t	 addr;
	uint64_t	 size;
};

struct ingest_heap_dwarf {
	struct ingest_dtype	*types;
	size_t			 ntypes;
	struct ingest_dfield	*fields;	/* by owner, then offset */
	size_t			 nfields;
	struct ingest_dvar	*vars;		/* by module, then address */
	size_t			 nvars;
	size_t			 nnames;
	uint8_t			*has;		/* per module: DWARF was read */
	char			**loc_file;	/* per LOCS record, or NULL */
	uint32_t		*loc_line;
	char			**loc_text;	/* with inlined frames, or NULL */
	uint32_t		*btype;		/* per block, or INGEST_DT_NONE */
	uint64_t		*vtsize;	/* per TYPE: its vtable's bytes,
						   0 if not known */
	struct ingest_vtable	*vt;		/* every module's read */
	size_t			 nvt, vtcap;
	uint64_t		 conflicts;	/* typed pointers that disagreed */
};

void		 ingest_heap_dwarf(struct ingest_ctx *, const struct ingest_heap *,
		    struct ingest_heap_dwarf *);
void		 ingest_heap_dwarf_free(struct ingest_heap_dwarf *, uint64_t);
uint32_t	 ingest_dtype_pointer_at(const struct ingest_heap_dwarf *,
		    uint32_t, uint64_t);


/*
 * pvheap's socket (heapsock.c): connect (the program's pid in *pid), ask
 * for a snapshot, read the answer as it comes (1 once the line is whole),
 * its file; or the whole of it at once, waiting: the heap kind's live
 * source (kind.c).
 */
#define INGEST_HEAPSOCK_REPLY_MAX	(PATH_MAX + 64)
int		 ingest_heapsock_connect(const char *, pid_t *, char **);
int		 ingest_heapsock_ask(int, const char *, char **);
int		 ingest_heapsock_read(int, char *, size_t *, const char *,
		    char **);
int		 ingest_heapsock_answer(char *, size_t, const char *, char **,
		    char **);
int		 ingest_heapsock_snapshot(const char *, char **, char **);

#endif
