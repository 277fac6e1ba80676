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

/*
 * The options of a kind's reader (--map FILE ...) are the kind's: kind.c
 * declares which a kind takes, main parses them from that, and a reader
 * asks for one by name (ingest_option).  This struct names none, so a
 * new kind's option edits no shared struct.
 */
#define INGEST_OPTIONS_MAX	16
struct ingest_option {
	const char	*name;
	const char	*value;
};
struct ingest_opts {
	int			 progress;	/* a progress bar on stderr */
	struct ingest_option	 options[INGEST_OPTIONS_MAX];
	size_t			 noptions;
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


/*
 * Code to keep (code.c): [lo, hi) of the process, from module (checked
 * by build_id unless NULL), at load bias bias, or when !have_bias the one
 * that puts its executable segment at the mapping [map, map + map_size).
 */
struct ingest_code_req {
	const char	*module;
	const char	*build_id;
	int		 have_bias;
	uint64_t	 bias;
	uint64_t	 map;
	uint64_t	 map_size;
	uint64_t	 lo;
	uint64_t	 hi;
};

struct kind;
const struct kind *ingest_detect(const uint8_t *, size_t, const char *);
int		 ingest_file(struct store *, const char *,
		    const struct ingest_opts *, int64_t *, const char **,
		    int *, char **);
int		 ingest_bytes(struct store *, const char *, const uint8_t *,
		    size_t, const struct ingest_opts *, int64_t *,
		    const char **, int *, char **);
void		 ingest_opts_set(struct ingest_opts *, const char *,
		     const char *);
const char	*ingest_opts_get(const struct ingest_opts *, const char *);
const char	*ingest_option(const struct ingest_ctx *, const char *);
int		 ingest_fail(struct ingest_ctx *, size_t, const char *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
void		 ingest_warn(struct ingest_ctx *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
int		 ingest_store_fail(struct ingest_ctx *, const char *);
int		 ingest_module_open(const struct ingest_ctx *, const char *,
		    int, char **);
void		 ingest_progress(struct ingest_ctx *, size_t);
int		 ingest_code_keep(struct store *, int64_t,
		     const struct ingest_code_req *, char **);
struct Elf;	/* libelf's */
int		 ingest_elf_bias(struct Elf *, uint64_t, uint64_t, uint64_t *);

/* Separate debug files (debug.c): what the caller wants of one. */
#define INGEST_DEBUG_SYMTAB	1
#define INGEST_DEBUG_DWARF	2
void		 ingest_debug_dirs_set(const char *);
struct Elf	*ingest_debug_open(struct Elf *, const char *, const char *,
		    int, int *, char **);
char		*ingest_elf_build_id(struct Elf *);

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

/* SHA-256 (sha256.c), hex-encoded into 65 bytes. */
void		 ingest_sha256(const uint8_t *, size_t, char *);

#endif
