/*
 * ingest: the only way data enters the store.  One reader per format
 * behind one interface; every reader treats its input as hostile.
 */
#ifndef INGEST_H
#define INGEST_H

#include <sys/types.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* How a DOS program was laid out in memory (for map relocation). */
enum ingest_load {
	INGEST_LOAD_AUTO,	/* guess from the map flavour */
	INGEST_LOAD_COM,	/* image at PSP:0100, map offsets include 100h */
	INGEST_LOAD_EXE		/* image at PSP+10h:0000 */
};

struct ingest_opts {
	const char	*map;		/* --map FILE, or NULL to look nearby */
	enum ingest_load load;
	int		 progress;	/* draw a progress bar on stderr */
	const char	*program;	/* --program FILE; NULL: look nearby */
	const char	*listing;	/* --listing FILE; NULL: look nearby */
};

/* What a reader gets: the file's bytes and where its rows go. */
struct ingest_ctx {
	struct store			*st;
	int64_t				 session;
	const char			*path;	/* for messages */
	const uint8_t			*buf;
	size_t				 len;
	const struct ingest_opts	*opts;
	/*
	 * What the file says of itself, if a reader knows (xstrdup'd): set
	 * on the session before commit, over the file name and time.
	 */
	char				*program;
	char				*captured;	/* ISO 8601 UTC */
	char				*cause;	/* set by ingest_fail */
	int				 warnings;
};

/* A format's reader; kind.c names it and says what it reads. */
struct ingest_reader {
	/* 0 (not this format) to 100 (certain). */
	int		(*detect)(const uint8_t *, size_t, const char *);
	int		(*load)(struct ingest_ctx *);
};

/* One symbol from a linker map, before relocation. */
struct ingest_sym {
	char		*module;	/* unit / object / segment, may be NULL */
	char		*name;
	uint32_t	 seg;		/* paragraph, relative to the image */
	uint32_t	 off;
	uint32_t	 size;		/* 0 when the map does not say */
	/* Where its section ends, image-relative bytes; 0: not said. */
	uint32_t	 end;
};

/* A row of a LINK, TLINK or Turbo Pascal segment table (image-relative). */
struct ingest_seg {
	char		*name;
	char		*class;
	uint32_t	 start;		/* linear: paragraph * 16 + offset */
	uint32_t	 stop;		/* the last byte */
	uint32_t	 length;
};

enum ingest_map_flavour {
	INGEST_MAP_NASM,
	INGEST_MAP_LINK,	/* Microsoft LINK, Borland TLINK */
	INGEST_MAP_TP		/* Turbo Pascal */
};

struct ingest_map {
	enum ingest_map_flavour	 flavour;
	int			 com;	/* offsets include the 100h origin */
	struct ingest_sym	*syms;
	size_t			 nsyms;
	struct ingest_seg	*segs;	/* in table order; none in NASM maps */
	size_t			 nsegs;
	void			*arena;	/* where the names live (map.c) */
};

extern const struct ingest_reader ingest_prf_reader;
extern const struct ingest_reader ingest_ovd_reader;
extern const struct ingest_reader ingest_heap_reader;
extern const struct ingest_reader ingest_mon_reader;
extern const struct ingest_reader ingest_prfd_reader;

struct kind;
const struct kind *ingest_detect(const uint8_t *, size_t, const char *);
int		 ingest_file(struct store *, const char *,
		    const struct ingest_opts *, int64_t *, const char **,
		    int *, char **);
int		 ingest_bytes(struct store *, const char *, const uint8_t *,
		    size_t, const struct ingest_opts *, int64_t *,
		    const char **, int *, char **);
int		 ingest_fail(struct ingest_ctx *, size_t, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
void		 ingest_warn(struct ingest_ctx *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
int		 ingest_store_fail(struct ingest_ctx *, const char *);
int		 ingest_module_open(const struct ingest_ctx *, const char *,
		    int, char **);
void		 ingest_progress(struct ingest_ctx *, size_t);

/* Maps (map.c). */
int		 ingest_map_parse(const char *, size_t, const char *,
		    struct ingest_map *, char **);
void		 ingest_map_free(struct ingest_map *);
char		*ingest_map_find(const char *);
int		 ingest_map_open(struct ingest_ctx *, struct ingest_map *,
		    char **);
int		 ingest_map_attach(struct ingest_ctx *, uint32_t, uint32_t);
int		 ingest_text_read(const char *, size_t, const char **, size_t *,
		    char **);
void		 ingest_text_unread(const char *, size_t);

/* A DOS program's load image (image.c). */
struct ingest_image {
	char		*path;
	int		 exe;		/* else a COM */
	uint64_t	 addr;		/* linear, by the load rule */
	uint8_t		*bytes;
	size_t		 len;
};

char		*ingest_find_beside(const char *, const char *);
char		*ingest_image_find(const char *, int *);
int		 ingest_image_open(struct ingest_ctx *, uint32_t,
		    struct ingest_image *);
void		 ingest_image_free(struct ingest_image *);

/* The program's NASM listing (listing.c). */
int		 ingest_listing_attach(struct ingest_ctx *,
		    const struct ingest_image *);

/*
 * pvheap snapshots (heap.c): the checked file as views into its bytes.
 * A section's records are count records of size bytes (size may exceed
 * this version's: fields it does not know are ignored); read them with
 * ingest_heap_u32/u64 at the HF_* offsets of capture/oberon/heapfmt.h.
 */
struct ingest_heap_sec {
	const uint8_t	*p;		/* NULL: the file has no such section */
	uint64_t	 count;
	uint32_t	 size;
	uint64_t	 off;		/* in the file */
	size_t		 at;		/* its section table entry */
	const char	*tag;
};

struct ingest_heap {
	const uint8_t		*buf;
	size_t			 len;
	uint16_t		 major, minor;
	uint64_t		 contents;	/* INFO.contents */
	uint64_t		 text;		/* bytes of the strings named */
	struct ingest_heap_sec	 info, strs, cntr, mods, imps, thrs, regn;
	struct ingest_heap_sec	 locs, frms, site, type, blks, edgs, root;
	struct ingest_heap_sec	 data;
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
const char	*ingest_heap_str(const struct ingest_heap *, uint32_t);
uint64_t	 ingest_heap_data_at(const struct ingest_heap *, uint64_t);
void		 ingest_heap_states(const struct ingest_heap *, uint8_t *);

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
 * its file; or the whole of it at once, waiting.
 */
#define INGEST_HEAPSOCK_REPLY_MAX	(PATH_MAX + 64)
int		 ingest_heapsock_connect(const char *, pid_t *, char **);
int		 ingest_heapsock_ask(int, const char *, char **);
int		 ingest_heapsock_read(int, char *, size_t *, const char *,
		    char **);
int		 ingest_heapsock_answer(char *, size_t, const char *, char **,
		    char **);
int		 ingest_heapsock_snapshot(const char *, char **, char **);

/* SHA-256 (sha256.c), hex-encoded into 65 bytes. */
void		 ingest_sha256(const uint8_t *, size_t, char *);

#endif
