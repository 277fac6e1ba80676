/*
 * Linker maps: NASM [map all], Microsoft LINK / Borland TLINK, Turbo
 * Pascal.  The parsers turn a map into image-relative symbols; attaching
 * relocates them by the DOS load rule and stores them.
 *
 * What the symbol table gets, per flavour:
 *  - NASM: every label of every section at its virtual address (where the
 *    CPU runs it), module = section name; "No Section" equ values are not
 *    addresses and are left out.  The map is a .COM's (offsets include
 *    100h) when its origin is 100h, or, without the origin block, when no
 *    label loads below 100h.
 *  - LINK/TLINK: "Publics by Value" (else "Publics by Name"), module = the
 *    segment whose Start..Stop holds the address; "Abs" and "Imp" publics
 *    are values, not code, and are left out.
 *  - Turbo Pascal: as LINK, but module = the unit (its CODE segment; data
 *    symbols have none) and a unit's main block "@" is named "UNIT.@".
 *
 * A symbol also learns where its section ends (NASM: the section's vstart
 * plus its length; LINK, TLINK, TP: the segment's Stop + 1), so that its
 * size stops there: bytes between sections (alignment, stack) and the
 * next section's data belong to no symbol.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "bsearch.h"
#include "hex.h"
#include "xmalloc.h"
#include "vis.h"
#include "ingest/ingest.h"

#define MAP_MAX_BYTES	(256u << 20)
#define MAP_DOS_LIMIT	0x100000u	/* 1 MiB: no real-mode address beyond */

/* One line of the map, without its end-of-line and trailing blanks. */
struct map_line {
	const char	*p;
	size_t		 len;
	size_t		 no;
};

/*
 * A map's memory.  The names, NUL-terminated, live in blocks that never
 * move: one allocation per block rather than one per string.  Blocks and
 * the big arrays (publics, symbols) are mapped pages populated in the same
 * call: a 1M-public map touches some 60 MB, and faulting that in a page at
 * a time cost more than parsing it.
 */
#define MAP_ARENA_BLOCK	(1u << 20)
#define MAP_PAGES_MIN	(64u << 10)

struct map_arena {
	struct map_arena	*next;
	size_t			 used;
	size_t			 size;	/* of data */
	size_t			 mapped;
	char			 data[];
};

/* What ingest_map.arena points at. */
struct map_mem {
	struct map_arena	*blocks;
	size_t			 syms_size;	/* mapped at syms */
};


/*
 * A public before its module is known: address and where its name is in
 * the text (copied into the arena only if its table is the one used).
 */
struct map_pub {
	uint16_t	 seg;
	uint16_t	 off;
	uint32_t	 len;
	const char	*name;
};

struct map_pubs {
	struct map_pub	*v;
	size_t		 n;
	size_t		 size;	/* bytes mapped at v */
	int		 seen;	/* the table's header was there */
};

struct map_parser {
	const char		*name;
	const char		*text;
	size_t			 len;
	size_t			 pos;
	size_t			 lineno;
	struct ingest_map	*map;
	char			**cause;
};

/* size bytes (a multiple of the page size) of zeroed, populated memory. */
static void *
map_pages(size_t size)
{
	void	*p;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		fatal("mmap %zu bytes: %s", size, strerror(errno));
	return (p);
}

/* Grow pages p of *size bytes to hold at least need bytes. */
static void *
map_pages_grow(void *p, size_t *size, size_t need)
{
	size_t	n = *size != 0 ? *size : MAP_PAGES_MIN;

	while (n < need) {
		if (n > SIZE_MAX / 2)
			fatal("map too big");
		n *= 2;
	}
	if (p == NULL)
		p = map_pages(n);
	else if (n != *size) {
		if ((p = mremap(p, *size, n, MREMAP_MAYMOVE)) == MAP_FAILED)
			fatal("mremap %zu bytes: %s", n, strerror(errno));
		/* Only a hint: where it fails the pages fault in as used. */
		madvise((char *)p + *size, n - *size, MADV_POPULATE_WRITE);
	}
	*size = n;
	return (p);
}

static struct map_mem *
map_mem(struct ingest_map *map)
{
	if (map->arena == NULL)
		map->arena = xcalloc(1, sizeof (struct map_mem));
	return (map->arena);
}

/* Room for n bytes in the map's arena. */
static char *
map_alloc(struct ingest_map *map, size_t n)
{
	struct map_mem		*mem = map_mem(map);
	struct map_arena	*a = mem->blocks;
	size_t			 size;

	if (a == NULL || a->size - a->used < n) {
		size = n > MAP_ARENA_BLOCK ? n : MAP_ARENA_BLOCK;
		if (size > SIZE_MAX - sizeof *a - MAP_PAGES_MIN)
			fatal("map too big");
		size = (sizeof *a + size + MAP_PAGES_MIN - 1) &
		    ~(size_t)(MAP_PAGES_MIN - 1);
		a = map_pages(size);
		a->mapped = size;
		a->size = size - sizeof *a;
		a->used = 0;
		a->next = mem->blocks;
		mem->blocks = a;
	}
	a->used += n;
	return (a->data + a->used - n);
}

/* Room for n symbols; *nsyms are kept. */
static void
map_syms_grow(struct ingest_map *map, size_t n)
{
	struct map_mem	*mem = map_mem(map);

	if (n > SIZE_MAX / sizeof *map->syms)
		fatal("map too big");
	map->syms = map_pages_grow(map->syms, &mem->syms_size,
	    n * sizeof *map->syms);
}

/* A NUL-terminated copy of p[0..len) in the map's arena. */
static char *
map_strndup(struct ingest_map *map, const char *p, size_t len)
{
	char	*s = map_alloc(map, len + 1);

	memcpy(s, p, len);
	s[len] = '\0';
	return (s);
}

/*
 * The next line, CRLF and trailing blanks dropped.  (A ^Z ends the text the
 * way it ends a DOS text file: ingest_map_parse cut mp->len there.)
 */
static int
map_next(struct map_parser *mp, struct map_line *l)
{
	const char	*p, *nl;
	size_t		 n;

	if (mp->pos >= mp->len)
		return (0);
	p = mp->text + mp->pos;
	nl = memchr(p, '\n', mp->len - mp->pos);
	n = nl != NULL ? (size_t)(nl - p) : mp->len - mp->pos;
	mp->pos += n + (nl != NULL);
	l->p = p;
	l->no = ++mp->lineno;
	while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' ' ||
	    p[n - 1] == '\t'))
		n--;
	l->len = n;
	return (1);
}

/* Trailing blanks are gone, so a blank line is an empty one. */
static int
map_blank(const struct map_line *l)
{
	return (l->len == 0);
}

static int
map_error(struct map_parser *mp, const struct map_line *l, const char *field,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int
map_error(struct map_parser *mp, const struct map_line *l, const char *field,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*detail;

	va_start(ap, fmt);
	detail = xvasprintf(fmt, ap);
	va_end(ap);
	*mp->cause = xasprintf("%s: line %zu: %s: %s", mp->name,
	    l != NULL ? l->no : mp->lineno, field, detail);
	free(detail);
	return (-1);
}

/* Split a line into at most max blank-separated tokens; the count. */
struct map_tok {
	const char	*p;
	size_t		 len;
};

static size_t
map_split(const struct map_line *l, struct map_tok *t, size_t max)
{
	size_t	i = 0, n = 0, s;

	for (;;) {
		while (i < l->len && (l->p[i] == ' ' || l->p[i] == '\t'))
			i++;
		if (i == l->len)
			return (n);
		s = i;
		while (i < l->len && l->p[i] != ' ' && l->p[i] != '\t')
			i++;
		if (n == max)
			return (max + 1);	/* more than asked for */
		t[n].p = l->p + s;
		t[n].len = i - s;
		n++;
	}
}

static int
map_tok_is(const struct map_tok *t, const char *s)
{
	return (t->len == strlen(s) && strncasecmp(t->p, s, t->len) == 0);
}

/*
 * Whether the line contains s: memchr for its first byte, then compare.
 * The needles are short and most lines are shorter than or about as long
 * as them, so this beats a general memmem.
 */
static int
map_has(const struct map_line *l, const char *s)
{
	size_t		 n = strlen(s);
	const char	*p = l->p, *last;

	if (l->len < n)
		return (0);
	last = l->p + (l->len - n);
	while ((p = memchr(p, s[0], (size_t)(last - p) + 1)) != NULL) {
		if (memcmp(p, s, n) == 0)
			return (1);
		if (p++ == last)
			break;
	}
	return (0);
}

static int
map_starts(const struct map_line *l, const char *s)
{
	size_t	n = strlen(s);

	return (l->len >= n && memcmp(l->p, s, n) == 0);
}

/* Hex digits p[0..len) into *v, at most max. */
static int
map_hex(const char *p, size_t len, uint64_t max, uint32_t *v)
{
	uint64_t	x;

	if (len == 0 || len > 16 || hex_scan(p, len, &x) != len || x > max)
		return (-1);
	*v = (uint32_t)x;
	return (0);
}

/* "SSSS:OOOO", each part at most 16 bits. */
static int
map_segoff(const struct map_tok *t, uint32_t *seg, uint32_t *off)
{
	const char	*colon = memchr(t->p, ':', t->len);
	size_t		 n;

	if (colon == NULL)
		return (-1);
	n = (size_t)(colon - t->p);
	if (n > 4 || t->len - n - 1 > 4)
		return (-1);
	if (map_hex(t->p, n, 0xffff, seg) != 0 ||
	    map_hex(colon + 1, t->len - n - 1, 0xffff, off) != 0)
		return (-1);
	return (0);
}

static char *
map_tokdup(struct map_parser *mp, const struct map_tok *t)
{
	return (map_strndup(mp->map, t->p, t->len));
}

/* Whether every byte of the token is in set. */
static int
map_tok_all(const struct map_tok *t, const char *set)
{
	size_t	i;

	for (i = 0; i < t->len; i++) {
		if (t->p[i] == '\0' || strchr(set, t->p[i]) == NULL)
			return (0);
	}
	return (1);
}

/*
 * Whether a name may be kept: no control characters, C0 or C1, and no
 * bidi overrides (vis.c), which would reorder whatever a view or report
 * shows after the name.  Bytes that are not UTF-8 (a DOS code page) are
 * fine: every output escapes those.
 */
static int
map_printable(const struct map_tok *t)
{
	const unsigned char	*p = (const unsigned char *)t->p;
	size_t			 i, adv;
	int			 cp;

	for (i = 0; i < t->len; i += adv) {
		cp = vis_utf8(p + i, t->len - i, &adv);
		if (p[i] < 0x20 || (cp >= 0 && vis_unsafe(cp)))
			return (0);
	}
	return (1);
}

static void
map_add(struct map_parser *mp, char *module, char *name, uint32_t seg,
    uint32_t off, uint32_t end)
{
	struct ingest_map	*map = mp->map;
	struct ingest_sym	*s;

	if (map->arena == NULL || (map->nsyms + 1) * sizeof *map->syms >
	    ((struct map_mem *)map->arena)->syms_size)
		map_syms_grow(map, map->nsyms + 1);
	s = &map->syms[map->nsyms++];
	s->module = module;
	s->name = name;
	s->seg = seg;
	s->off = off;
	s->size = 0;
	s->end = end;
}

/*
 * NASM [map] output.  The symbol tables give each label's real (load) and
 * virtual (run) address; the CPU samples the virtual one.  "No Section"
 * values are equ constants, not addresses, and are left out.
 */
enum map_nasm_state {
	NASM_OTHER,		/* header, source/output names, details */
	NASM_ORIGIN,
	NASM_SUMMARY,
	NASM_SYMBOLS,
	NASM_SYMTAB,		/* inside "Real Virtual Name" rows */
	NASM_CONSTTAB		/* inside "Value Name" rows */
};

/* A NASM section from the summary: where it ends, in virtual bytes. */
struct map_nasm_sect {
	const char	*name;		/* in the map's text */
	size_t		 len;
	uint32_t	 vend;
};

/* The end of section name (t), or 0 when the summary did not list it. */
static uint32_t
map_nasm_end(const struct map_nasm_sect *v, size_t n, const struct map_tok *t)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i].len == t->len && memcmp(v[i].name, t->p, t->len) == 0)
			return (v[i].vend);
	}
	return (0);
}

static int
map_nasm(struct map_parser *mp)
{
	struct map_line		 l;
	struct map_tok		 t[8];
	enum map_nasm_state	 state = NASM_OTHER;
	struct map_nasm_sect	*sects = NULL;
	size_t			 nsects = 0;
	char			*section = NULL;
	uint32_t		 origin = 0, real, virt, v, vstart, length;
	uint32_t		 send = 0;
	uint64_t		 lowest = UINT64_MAX;
	int			 have_origin = 0, rc = -1;
	size_t			 n;

	while (map_next(mp, &l)) {
		if (map_blank(&l))
			continue;
		if (map_starts(&l, "-- ")) {
			if (map_has(&l, "-- Program origin "))
				state = NASM_ORIGIN;
			else if (map_has(&l, "-- Sections (summary) "))
				state = NASM_SUMMARY;
			else if (map_has(&l, "-- Symbols "))
				state = NASM_SYMBOLS;
			else
				state = NASM_OTHER;
			continue;
		}
		switch (state) {
		case NASM_OTHER:
			break;
		case NASM_ORIGIN:
			n = map_split(&l, t, 1);
			if (n != 1 || map_hex(t[0].p, t[0].len, UINT32_MAX,
			    &origin) != 0) {
				map_error(mp, &l, "origin", "\"%.*s\" is not"
				    " a hex address", (int)l.len, l.p);
				goto out;
			}
			have_origin = 1;
			state = NASM_OTHER;
			break;
		case NASM_SUMMARY:
			n = map_split(&l, t, 6);
			if (n == 6 && map_tok_is(&t[0], "Vstart"))
				break;
			if (n != 6 || map_hex(t[0].p, t[0].len, UINT32_MAX,
			    &vstart) != 0 || map_hex(t[1].p, t[1].len,
			    UINT32_MAX, &v) != 0 || map_hex(t[2].p, t[2].len,
			    UINT32_MAX, &v) != 0 || map_hex(t[3].p, t[3].len,
			    UINT32_MAX, &length) != 0) {
				map_error(mp, &l, "section", "expected vstart,"
				    " start, stop, length, class and name");
				goto out;
			}
			/* Sections are few: one allocation each is fine. */
			sects = xreallocarray(sects, nsects + 1,
			    sizeof *sects);
			sects[nsects].name = t[5].p;
			sects[nsects].len = t[5].len;
			sects[nsects].vend = (uint64_t)vstart + length >
			    UINT32_MAX ? UINT32_MAX : vstart + length;
			nsects++;
			break;
		case NASM_SYMBOLS:
		case NASM_SYMTAB:
		case NASM_CONSTTAB:
			if (map_starts(&l, "---- Section ")) {
				n = map_split(&l, t, 4);
				if (n < 3 || n > 4 || (n == 4 &&
				    !map_tok_all(&t[3], "-")) ||
				    !map_printable(&t[2])) {
					map_error(mp, &l, "section", "bad"
					    " section heading");
					goto out;
				}
				section = map_tokdup(mp, &t[2]);
				send = map_nasm_end(sects, nsects, &t[2]);
				state = NASM_SYMBOLS;
				break;
			}
			if (map_starts(&l, "---- No Section ")) {
				section = NULL;
				state = NASM_SYMBOLS;
				break;
			}
			n = map_split(&l, t, 3);
			if (n == 3 && map_tok_is(&t[0], "Real") &&
			    map_tok_is(&t[1], "Virtual") &&
			    map_tok_is(&t[2], "Name")) {
				if (section == NULL) {
					map_error(mp, &l, "section", "symbol"
					    " table outside a section");
					goto out;
				}
				state = NASM_SYMTAB;
				break;
			}
			if (n == 2 && map_tok_is(&t[0], "Value") &&
			    map_tok_is(&t[1], "Name")) {
				state = NASM_CONSTTAB;
				break;
			}
			if (state == NASM_CONSTTAB) {
				if (n != 2 || map_hex(t[0].p, t[0].len,
				    UINT64_MAX, &v) != 0) {
					map_error(mp, &l, "value", "expected"
					    " a hex value and a name");
					goto out;
				}
				break;
			}
			if (state != NASM_SYMTAB) {
				map_error(mp, &l, "symbols", "expected a"
				    " section heading or a table heading");
				goto out;
			}
			if (n != 3) {
				map_error(mp, &l, "symbol", "expected real"
				    " address, virtual address and name");
				goto out;
			}
			if (map_hex(t[0].p, t[0].len, UINT32_MAX, &real) != 0) {
				map_error(mp, &l, "real", "\"%.*s\" is not a"
				    " 32-bit hex address", (int)t[0].len,
				    t[0].p);
				goto out;
			}
			if (map_hex(t[1].p, t[1].len, UINT32_MAX, &virt) != 0) {
				map_error(mp, &l, "virtual", "\"%.*s\" is not"
				    " a 32-bit hex address", (int)t[1].len,
				    t[1].p);
				goto out;
			}
			if (!map_printable(&t[2])) {
				map_error(mp, &l, "name", "control characters"
				    " in the name");
				goto out;
			}
			if (real < lowest)
				lowest = real;
			/* Every label of a section shares its name. */
			map_add(mp, section, map_tokdup(mp, &t[2]), 0, virt,
			    send);
			break;
		}
	}
	/*
	 * A .COM is assembled with org 100h.  Without the origin block
	 * ([map symbols]) the lowest load address is the best evidence.
	 */
	if (have_origin)
		mp->map->com = (origin == 0x100);
	else
		mp->map->com = (lowest != UINT64_MAX && lowest >= 0x100);
	rc = 0;
out:
	free(sects);
	return (rc);
}

/*
 * MS LINK, Borland TLINK and Turbo Pascal maps share one layout: a segment
 * table, optional group and detailed segment tables, publics by name and/or
 * by value, line numbers, and the entry point.
 */
enum map_link_state {
	LINK_NONE,
	LINK_SEGS,
	LINK_GROUPS,
	LINK_DETAIL,
	LINK_PUB_NAME,
	LINK_PUB_VALUE,
	LINK_LINES
};

static void
map_pubs_free(struct map_pubs *p)
{
	if (p->v != NULL)
		munmap(p->v, p->size);
}

/*
 * Split for a LINK line: at most 6 tokens (7 when there are more), enough
 * for every heading and every kept row; other rows split again.
 */
#define MAP_LINK_TOKS	6

/*
 * The phrases searched for anywhere in a line have three blanks between
 * their words (and the line no trailing blank), so a line holding one
 * has four tokens or more: public rows, the bulk of a map, never need the
 * search.
 */
#define MAP_PHRASE_TOKS	4

/* The heading that starts a table, or LINK_NONE. */
static enum map_link_state
map_link_heading(const struct map_line *l, const struct map_tok *t, size_t n)
{
	if (n == 5 && map_tok_is(&t[0], "Start") &&
	    map_tok_is(&t[1], "Stop") && map_tok_is(&t[2], "Length") &&
	    map_tok_is(&t[3], "Name") && map_tok_is(&t[4], "Class"))
		return (LINK_SEGS);
	if (n == 2 && map_tok_is(&t[0], "Origin") &&
	    map_tok_is(&t[1], "Group"))
		return (LINK_GROUPS);
	if (n >= MAP_PHRASE_TOKS && map_has(l, "Detailed map of segments"))
		return (LINK_DETAIL);
	if (n == 4 && map_tok_is(&t[0], "Address") &&
	    map_tok_is(&t[1], "Publics") && map_tok_is(&t[2], "by")) {
		if (map_tok_is(&t[3], "Name"))
			return (LINK_PUB_NAME);
		if (map_tok_is(&t[3], "Value"))
			return (LINK_PUB_VALUE);
	}
	if (n >= MAP_PHRASE_TOKS && map_has(l, "Line numbers for "))
		return (LINK_LINES);
	return (LINK_NONE);
}

/* " 00000H 0001FH 00020H _TEXT CODE" */
static int
map_link_seg(struct map_parser *mp, const struct map_line *l,
    const struct map_tok *t, size_t n, struct ingest_seg **segs, size_t *nsegs,
    size_t *cap)
{
	static const char	*what[3] = { "start", "stop", "length" };
	struct ingest_seg		*s;
	uint32_t		 v[3];
	size_t			 i;

	if (n < 4 || n > 6)
		return (map_error(mp, l, "segment", "expected start, stop,"
		    " length, name and class"));
	for (i = 0; i < 3; i++) {
		if (t[i].len < 2 || (t[i].p[t[i].len - 1] != 'H' &&
		    t[i].p[t[i].len - 1] != 'h') ||
		    map_hex(t[i].p, t[i].len - 1, MAP_DOS_LIMIT - 1,
		    &v[i]) != 0)
			return (map_error(mp, l, what[i], "\"%.*s\" is not a"
			    " hex address below 1 MiB ending in H",
			    (int)t[i].len, t[i].p));
	}
	if (v[1] < v[0] && v[2] != 0)
		return (map_error(mp, l, "stop", "%05XH is below start %05XH",
		    v[1], v[0]));
	if (!map_printable(&t[3]) || (n >= 5 && !map_printable(&t[4])))
		return (map_error(mp, l, "name", "control characters in the"
		    " name"));
	if (*nsegs == *cap) {
		*cap = *cap != 0 ? *cap * 2 : 16;
		*segs = xreallocarray(*segs, *cap, sizeof **segs);
	}
	s = &(*segs)[(*nsegs)++];
	s->start = v[0];
	s->stop = v[1];
	s->length = v[2];
	s->name = map_tokdup(mp, &t[3]);
	s->class = n >= 5 ? map_tokdup(mp, &t[4]) : map_strndup(mp->map, "", 0);
	return (0);
}

/*
 * " 0000:0010       _main", maybe with a marker between: "Abs" for
 * absolute values and "Imp" for imports are not code addresses.
 */
static int
map_link_pub(struct map_parser *mp, const struct map_line *l,
    const struct map_tok *t, size_t n, struct map_pubs *p)
{
	const struct map_tok	*name = &t[1];
	struct map_pub		*pub;
	uint32_t		 seg, off;

	if (n < 2 || n > 3)
		return (map_error(mp, l, "public", "expected an address and"
		    " a name"));
	if (map_segoff(&t[0], &seg, &off) != 0)
		return (map_error(mp, l, "address", "\"%.*s\" is not"
		    " SSSS:OOOO", (int)t[0].len, t[0].p));
	if (n == 3) {
		if (map_tok_is(&t[1], "Abs") || map_tok_is(&t[1], "Imp"))
			return (0);
		if (!map_tok_is(&t[1], "Res") && !map_tok_is(&t[1], "Unr"))
			return (map_error(mp, l, "name", "unexpected text"
			    " after \"%.*s\"", (int)t[1].len, t[1].p));
		name = &t[2];
	}
	if (!map_printable(name))
		return (map_error(mp, l, "name", "control characters in the"
		    " name"));
	if (name->len > UINT32_MAX)
		return (map_error(mp, l, "name", "%zu bytes long", name->len));
	if ((p->n + 1) * sizeof *p->v > p->size)
		p->v = map_pages_grow(p->v, &p->size, (p->n + 1) *
		    sizeof *p->v);
	pub = &p->v[p->n++];
	pub->seg = (uint16_t)seg;
	pub->off = (uint16_t)off;
	pub->name = name->p;
	pub->len = (uint32_t)name->len;
	return (0);
}

/* Rows that are checked but not kept. */
static int
map_link_other(struct map_parser *mp, const struct map_line *l,
    const struct map_tok *t6, size_t n6, enum map_link_state state)
{
	struct map_tok	t[64];
	uint32_t	seg, off, v;
	size_t		n, i;

	switch (state) {
	case LINK_GROUPS:
		/* " 0002:0   DGROUP" */
		if (n6 != 2 || map_segoff(&t6[0], &seg, &off) != 0)
			return (map_error(mp, l, "group", "expected an origin"
			    " and a group name"));
		return (0);
	case LINK_DETAIL:
		/* " 0000:0000 0010 C=CODE S=_TEXT G=(none) M=X.ASM ..." */
		if (n6 < 2 || map_segoff(&t6[0], &seg, &off) != 0 ||
		    map_hex(t6[1].p, t6[1].len, UINT32_MAX, &v) != 0)
			return (map_error(mp, l, "segment", "expected an"
			    " address and a length"));
		return (0);
	case LINK_LINES:
		/* "    12 0000:0000    13 0000:0005" */
		n = map_split(l, t, 63);
		if (n == 0 || n > 63 || n % 2 != 0)
			return (map_error(mp, l, "line", "expected pairs of"
			    " line number and address"));
		for (i = 0; i < n; i += 2) {
			if (!map_tok_all(&t[i], "0123456789") ||
			    t[i].len > 9)
				return (map_error(mp, l, "line", "\"%.*s\" is"
				    " not a line number", (int)t[i].len,
				    t[i].p));
			if (map_segoff(&t[i + 1], &seg, &off) != 0)
				return (map_error(mp, l, "address", "\"%.*s\""
				    " is not SSSS:OOOO", (int)t[i + 1].len,
				    t[i + 1].p));
		}
		return (0);
	default:
		return (0);
	}
}

/* The segment whose Start..Stop holds linear address a, or NULL. */
static const struct ingest_seg *
map_seg_of(const struct ingest_seg *segs, size_t nsegs, uint32_t a)
{
	size_t	i;

	for (i = 0; i < nsegs; i++) {
		if (segs[i].length != 0 && a >= segs[i].start &&
		    a <= segs[i].stop)
			return (&segs[i]);
	}
	return (NULL);
}

static int
map_seg_start_cmp(const void *x, const void *y)
{
	const struct ingest_seg	*a = *(const struct ingest_seg * const *)x;
	const struct ingest_seg	*b = *(const struct ingest_seg * const *)y;

	if (a->start != b->start)
		return (a->start < b->start ? -1 : 1);
	return (a < b ? -1 : a > b);
}

/*
 * The segments that hold addresses (length not 0) by start, when no two
 * of them overlap: then the one holding an address is found by bisection
 * instead of a scan per public.  NULL (scan) when they overlap, as the
 * first in table order must win.
 */
static const struct ingest_seg **
map_seg_index(const struct ingest_seg *segs, size_t nsegs, size_t *n)
{
	const struct ingest_seg	**v;
	size_t			  i;

	*n = 0;
	if (nsegs < 8)
		return (NULL);
	v = xreallocarray(NULL, nsegs, sizeof *v);
	for (i = 0; i < nsegs; i++) {
		if (segs[i].length != 0)
			v[(*n)++] = &segs[i];
	}
	qsort(v, *n, sizeof *v, map_seg_start_cmp);
	for (i = 1; i < *n; i++) {
		if (v[i]->start <= v[i - 1]->stop) {
			free(v);
			return (NULL);
		}
	}
	return (v);
}

/*
 * When segments overlap, the first in table order that holds an address
 * wins, and a scan of the table per public costs publics x segments (1M
 * by 50k: minutes).  Instead every address below 1 MiB gets its owner
 * once: the segments paint, in table order, only the addresses no
 * segment before them took, skipping painted runs by a union-find of the
 * next unpainted address.  Linear in the addresses, whatever the overlap.
 * Worth its 8 MiB only when the scan would be long (MAP_SCAN_MAX).
 */
#define MAP_SCAN_MAX	(1u << 20)

/* The first unpainted address at or after a; next[MAP_DOS_LIMIT] stays. */
static uint32_t
map_unpainted(uint32_t *next, uint32_t a)
{
	uint32_t	r = a, t;

	while (next[r] != r)
		r = next[r];
	while (next[a] != r) {
		t = next[a];
		next[a] = r;
		a = t;
	}
	return (r);
}

/* owner[a]: 1 + the index of the segment holding a, or 0. */
static uint32_t *
map_seg_paint(const struct ingest_seg *segs, size_t nsegs)
{
	uint32_t	*owner, *next, a;
	size_t		 i;

	if (nsegs >= UINT32_MAX)
		return (NULL);
	owner = xcalloc(MAP_DOS_LIMIT, sizeof *owner);
	next = xreallocarray(NULL, MAP_DOS_LIMIT + 1, sizeof *next);
	for (a = 0; a <= MAP_DOS_LIMIT; a++)
		next[a] = a;
	for (i = 0; i < nsegs; i++) {
		/* map_link_seg keeps start <= stop < 1 MiB when length != 0. */
		if (segs[i].length == 0)
			continue;
		a = map_unpainted(next, segs[i].start);
		while (a <= segs[i].stop) {
			owner[a] = (uint32_t)i + 1;
			next[a] = a + 1;
			a = map_unpainted(next, a + 1);
		}
	}
	free(next);
	return (owner);
}

static const struct ingest_seg *
map_seg_find(const struct ingest_seg **v, size_t n, uint32_t a)
{
	size_t	i;

	/* The last segment starting at or below a. */
	BSEARCH_FIRST(i, 0, n, v[i]->start <= a);
	if (i == 0 || a > v[i - 1]->stop)
		return (NULL);
	return (v[i - 1]);
}

static int
map_link(struct map_parser *mp)
{
	struct map_line		 l;
	struct map_tok		 t[MAP_LINK_TOKS];
	struct ingest_seg		*segs = NULL;
	const struct ingest_seg	*sg = NULL, **segv = NULL;
	uint32_t		*owner = NULL;
	struct map_pubs		 byname, byvalue, *use, *cur = NULL;
	struct map_pub		*pub;
	struct ingest_sym	*s;
	enum map_link_state	 state = LINK_NONE, next;
	size_t			 nsegs = 0, segcap = 0, rows = 0, i, n;
	size_t			 nsegv;
	uint32_t		 seg, off, a, end;
	int			 rc = -1, tp = 0;
	char			*module, *name;

	memset(&byname, 0, sizeof byname);
	memset(&byvalue, 0, sizeof byvalue);
	while (map_next(mp, &l)) {
		if (map_blank(&l)) {
			/* A blank line before the first row is spacing. */
			if (rows != 0)
				state = LINK_NONE;
			continue;
		}
		n = map_split(&l, t, MAP_LINK_TOKS);
		if ((next = map_link_heading(&l, t, n)) != LINK_NONE) {
			state = next;
			rows = 0;
			if (state == LINK_PUB_NAME)
				cur = &byname;
			else if (state == LINK_PUB_VALUE)
				cur = &byvalue;
			if (cur != NULL)
				cur->seen = 1;
			continue;
		}
		if (n >= MAP_PHRASE_TOKS &&
		    map_has(&l, "Program entry point at")) {
			if (n != 5 || map_segoff(&t[4], &seg, &off) != 0) {
				map_error(mp, &l, "entry", "expected"
				    " \"Program entry point at SSSS:OOOO\"");
				goto out;
			}
			state = LINK_NONE;
			continue;
		}
		switch (state) {
		case LINK_NONE:
			/* Banners, warnings, "Stack allocation": not ours. */
			continue;
		case LINK_SEGS:
			if (map_link_seg(mp, &l, t, n, &segs, &nsegs,
			    &segcap) != 0)
				goto out;
			break;
		case LINK_PUB_NAME:
		case LINK_PUB_VALUE:
			if (map_link_pub(mp, &l, t, n, cur) != 0)
				goto out;
			break;
		default:
			if (map_link_other(mp, &l, t, n, state) != 0)
				goto out;
			break;
		}
		rows++;
	}

	use = byvalue.seen ? &byvalue : &byname;
	if (!byvalue.seen && !byname.seen && nsegs == 0) {
		map_error(mp, NULL, "map", "no segment table and no publics:"
		    " not a NASM, LINK, TLINK or Turbo Pascal map");
		goto out;
	}
	/*
	 * Turbo Pascal names every unit's main block "@" and has a HEAP
	 * segment; LINK and TLINK maps have neither.
	 */
	for (i = 0; i < use->n && !tp; i++)
		tp = (use->v[i].len == 1 && use->v[i].name[0] == '@');
	for (i = 0; i < nsegs && !tp; i++)
		tp = (strcmp(segs[i].name, "HEAP") == 0 &&
		    strcmp(segs[i].class, "HEAP") == 0);
	mp->map->flavour = tp ? INGEST_MAP_TP : INGEST_MAP_LINK;
	mp->map->com = 0;

	segv = map_seg_index(segs, nsegs, &nsegv);
	if (segv == NULL && (uint64_t)nsegs * use->n > MAP_SCAN_MAX)
		owner = map_seg_paint(segs, nsegs);
	/* One array of the right size; modules are the segments' names. */
	if (use->n != 0)
		map_syms_grow(mp->map, use->n);
	for (i = 0; i < use->n; i++) {
		pub = &use->v[i];
		a = (uint32_t)pub->seg * 16 + pub->off;
		if (segv != NULL)
			sg = map_seg_find(segv, nsegv, a);
		else if (owner != NULL)
			sg = a < MAP_DOS_LIMIT && owner[a] != 0 ?
			    &segs[owner[a] - 1] : NULL;
		else
			sg = map_seg_of(segs, nsegs, a);
		/* Whatever its class, the segment bounds the symbol. */
		end = sg != NULL ? sg->stop + 1 : 0;
		/* TP: a unit is a CODE segment; DATA, STACK are not units. */
		if (sg != NULL && tp && strcasecmp(sg->class, "CODE") != 0)
			sg = NULL;
		module = sg != NULL ? sg->name : NULL;
		if (tp && pub->len == 1 && pub->name[0] == '@' &&
		    module != NULL) {
			n = strlen(module);
			name = map_alloc(mp->map, n + 3);
			memcpy(name, module, n);
			memcpy(name + n, ".@", 3);
		} else
			name = map_strndup(mp->map, pub->name, pub->len);
		s = &mp->map->syms[mp->map->nsyms++];
		s->module = module;
		s->name = name;
		s->seg = pub->seg;
		s->off = pub->off;
		s->size = 0;
		s->end = end;
	}
	/* The segments stay with the map: OVD units are named by them. */
	mp->map->segs = segs;
	mp->map->nsegs = nsegs;
	segs = NULL;
	rc = 0;
out:
	free(owner);
	free(segv);
	free(segs);
	map_pubs_free(&byname);
	map_pubs_free(&byvalue);
	return (rc);
}

/*
 * Parse a map's text (len bytes, not necessarily NUL-terminated) into
 * image-relative symbols.  The flavour comes from the content: NASM maps
 * announce themselves; LINK/TLINK and Turbo Pascal share a layout and
 * differ in what is in it.
 */
int
ingest_map_parse(const char *text, size_t len, const char *name,
    struct ingest_map *map, char **cause)
{
	struct map_parser	 mp;
	struct map_line		 l;
	const char		*eof;
	int			 nasm = 0, rc;

	memset(map, 0, sizeof *map);
	memset(&mp, 0, sizeof mp);
	mp.name = name;
	mp.text = text;
	/* A ^Z ends the text the way it ends a DOS text file. */
	if ((eof = memchr(text, '\032', len)) != NULL)
		len = (size_t)(eof - text);
	mp.len = len;
	mp.map = map;
	mp.cause = cause;

	/* NASM's banner comes first, after at most a few blank lines. */
	while (map_next(&mp, &l)) {
		if (map_blank(&l))
			continue;
		nasm = map_starts(&l, "- NASM Map file");
		break;
	}
	mp.pos = 0;
	mp.lineno = 0;
	if (nasm) {
		map->flavour = INGEST_MAP_NASM;
		rc = map_nasm(&mp);
	} else
		rc = map_link(&mp);
	if (rc != 0)
		ingest_map_free(map);
	return (rc);
}

void
ingest_map_free(struct ingest_map *map)
{
	struct map_mem		*mem = map->arena;
	struct map_arena	*a, *next;

	if (mem != NULL) {
		for (a = mem->blocks; a != NULL; a = next) {
			next = a->next;
			munmap(a, a->mapped);
		}
		if (map->syms != NULL)
			munmap(map->syms, mem->syms_size);
		free(mem);
	}
	free(map->segs);
	memset(map, 0, sizeof *map);
}

static int
map_exists(const char *path)
{
	struct stat	sb;

	return (stat(path, &sb) == 0 && S_ISREG(sb.st_mode));
}

/* The map next to a data file: NAME.MAP or name.map, or NULL. */
char *
ingest_map_find(const char *path)
{
	const char	*slash = strrchr(path, '/'), *dot;
	char		*try, *p;
	size_t		 stem, i;
	int		 pass;

	dot = strrchr(path, '.');
	if (dot == NULL || (slash != NULL && dot < slash))
		dot = path + strlen(path);
	stem = (size_t)(dot - path);
	for (pass = 0; pass < 4; pass++) {
		if ((try = xasprintf("%.*s%s", (int)stem, path,
		    (pass & 1) ? ".map" : ".MAP")) == NULL)
			return (NULL);
		/* Passes 2, 3: the stem in the other case (FOO.PRF, foo.map). */
		p = try + (slash != NULL ? (size_t)(slash - path) + 1 : 0);
		for (i = 0; pass >= 2 && p + i < try + stem; i++)
			p[i] = (pass & 1) ? tolower((unsigned char)p[i]) :
			    toupper((unsigned char)p[i]);
		if (map_exists(try))
			return (try);
		free(try);
	}
	return (NULL);
}

/*
 * Map a text file read-only (a map, a listing) of at most max bytes: the
 * parsers copy out only what they keep, so reading it into a buffer of
 * its own would copy it all for nothing.
 */
int
ingest_text_read(const char *path, size_t max, const char **text,
    size_t *len, char **cause)
{
	struct stat	 sb;
	void		*p;
	int		 fd;

	/* Not blocking: a FIFO would wait for a writer until the end. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size > max) {
		*cause = xasprintf("%s: not a regular file under %zu MiB", path,
		    max >> 20);
		close(fd);
		return (-1);
	}
	*len = (size_t)sb.st_size;
	if (*len == 0) {
		*text = "";
		close(fd);
		return (0);
	}
	p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	madvise(p, *len, MADV_SEQUENTIAL);
	*text = p;
	return (0);
}

void
ingest_text_unread(const char *text, size_t len)
{
	if (len != 0)
		munmap((void *)(uintptr_t)text, len);
}

/*
 * The map for the data file ctx is reading: the one named with --map, or
 * NAME.MAP beside the file.  A map named with --map must be good (-1 with
 * ctx->cause set); one found by name only earns a warning when it is not.
 * Returns 1 with *map and *path filled, 0 when there is no usable map.
 */
int
ingest_map_open(struct ingest_ctx *ctx, struct ingest_map *map, char **path)
{
	const char	*text;
	char		*cause = NULL;
	size_t		 len;
	int		 given, rc;

	memset(map, 0, sizeof *map);
	given = (ingest_option(ctx, "map") != NULL);
	*path = given ? xstrdup(ingest_option(ctx, "map")) :
	    ingest_map_find(ctx->path);
	if (*path == NULL)
		return (0);
	if (ingest_text_read(*path, MAP_MAX_BYTES, &text, &len, &cause) ==
	    0) {
		rc = ingest_map_parse(text, len, *path, map, &cause);
		ingest_text_unread(text, len);
		if (rc == 0)
			return (1);
	}
	if (given) {
		ctx->cause = cause;
		rc = -1;
	} else {
		ingest_warn(ctx, 0, "map ignored: %s", cause);
		free(cause);
		rc = 0;
	}
	free(*path);
	*path = NULL;
	return (rc);
}

/* A symbol's place in memory, for sorting only when out of order. */
struct map_placed {
	uint64_t	 addr;
	size_t		 i;		/* map order among aliases */
};

static int
map_placed_cmp(const void *a, const void *b)
{
	const struct map_placed	*x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	return (x->i < y->i ? -1 : x->i > y->i);
}

static uint64_t
map_sym_addr(const struct ingest_sym *s, uint64_t base)
{
	return (base + (uint64_t)s->seg * 16 + s->off);
}

/*
 * Relocate the map for a DOS program whose PSP is at paragraph psp and
 * whose image ends at paragraph high, and store its symbols.
 */
int
ingest_map_attach(struct ingest_ctx *ctx, uint32_t psp, uint32_t high)
{
	struct ingest_map	 map;
	struct map_placed	*v = NULL;
	const struct ingest_sym	*s;
	char			*path;
	size_t			 i, n, outside = 0;
	uint64_t		 base, end = (uint64_t)high * 16, addr, next;
	uint64_t		 prev = 0, size;
	const char		*load;
	int			 com, rc, sorted = 1;

	if ((rc = ingest_map_open(ctx, &map, &path)) <= 0)
		return (rc);
	rc = -1;
	com = map.com;
	if ((load = ingest_option(ctx, "load")) != NULL)
		com = (strcmp(load, "com") == 0);
	/* COM: PSP:0000 is the origin (offsets carry the 100h); EXE: PSP+10h. */
	base = ((uint64_t)psp + (com ? 0 : 0x10)) * 16;
	n = map.nsyms;
	for (i = 0; i < n; i++) {
		addr = map_sym_addr(&map.syms[i], base);
		/* A label at the very end (image_end:) marks it; not outside. */
		if (addr < (uint64_t)psp * 16 || addr > end)
			outside++;
		if (i != 0 && addr < prev)
			sorted = 0;
		prev = addr;
	}
	/* Publics by value and NASM's tables mostly come sorted already. */
	if (!sorted) {
		v = xreallocarray(NULL, n, sizeof *v);
		for (i = 0; i < n; i++) {
			v[i].addr = map_sym_addr(&map.syms[i], base);
			v[i].i = i;
		}
		qsort(v, n, sizeof *v, map_placed_cmp);
	}
	/*
	 * A public runs to the next address that has one, and never past
	 * its section's end or the image's; aliases before the last at an
	 * address get 0 so that a bucket's hits are not counted twice.
	 */
	for (i = 0; i < n; i++) {
		s = &map.syms[v != NULL ? v[i].i : i];
		addr = v != NULL ? v[i].addr : map_sym_addr(s, base);
		if ((size = s->size) == 0) {
			if (i + 1 < n) {
				next = v != NULL ? v[i + 1].addr :
				    map_sym_addr(&map.syms[i + 1], base);
				if (next > addr)
					size = next - addr;
			} else if (end > addr)
				size = end - addr;
			if (addr < end && addr + size > end)
				size = end - addr;
			/* A label at its section's end labels nothing. */
			if (s->end != 0 && addr + size > base + s->end)
				size = addr < base + s->end ? base + s->end -
				    addr : 0;
		}
		if (store_symbol_add(ctx->st, ctx->session, s->module, s->name,
		    addr, size) != 0) {
			ingest_store_fail(ctx, "symbol");
			goto free_map;
		}
	}
	if (outside != 0)
		ingest_warn(ctx, 0, "%s: %zu of %zu symbols lie outside the"
		    " program (%s load rule)", path, outside, n,
		    com ? "COM" : "EXE");
	rc = 0;
free_map:
	free(v);
	ingest_map_free(&map);
	free(path);
	return (rc);
}
