/*
 * Linker maps: NASM [map all], Microsoft LINK / Borland TLINK, Turbo
 * Pascal.  The parsers turn a map into image-relative symbols; attaching
 * relocates them by the DOS load rule and stores them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xmalloc.h"
#include "ingest/ingest.h"

#define MAP_MAX_BYTES	(256u << 20)

int
ingest_map_parse(const char *text, size_t len, const char *name,
    struct ingest_map *map, char **cause)
{
	memset(map, 0, sizeof *map);
	*cause = xasprintf("%s: map parsing is not written yet", name);
	return (-1);
}

void
ingest_map_free(struct ingest_map *map)
{
	size_t	i;

	for (i = 0; i < map->nsyms; i++) {
		free(map->syms[i].module);
		free(map->syms[i].name);
	}
	free(map->syms);
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

static int
map_read(const char *path, char **text, size_t *len, char **cause)
{
	FILE		*f;
	struct stat	 sb;

	if ((f = fopen(path, "rb")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size > MAP_MAX_BYTES) {
		*cause = xasprintf("%s: not a regular file under %u MiB", path,
		    MAP_MAX_BYTES >> 20);
		fclose(f);
		return (-1);
	}
	if ((*text = malloc((size_t)sb.st_size + 1)) == NULL) {
		*cause = xasprintf("%s: out of memory", path);
		fclose(f);
		return (-1);
	}
	*len = fread(*text, 1, (size_t)sb.st_size, f);
	(*text)[*len] = '\0';
	fclose(f);
	return (0);
}

struct map_placed {
	uint64_t		 addr;
	uint64_t		 size;
	const struct ingest_sym	*sym;
};

static int
map_placed_cmp(const void *a, const void *b)
{
	const struct map_placed	*x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	return (x < y ? -1 : x > y);
}

/*
 * Find, read and relocate the map for a DOS program whose PSP is at
 * paragraph psp and whose image ends at paragraph high, and store its
 * symbols.  A map named with --map must be good; one found by name only
 * earns a warning when it is not.
 */
int
ingest_map_attach(struct ingest_ctx *ctx, uint32_t psp, uint32_t high)
{
	struct ingest_map	 map;
	struct map_placed	*v = NULL;
	char			*path, *text = NULL, *cause = NULL;
	size_t			 len, i, n = 0, outside = 0;
	uint64_t		 base, end = (uint64_t)high * 16;
	int			 given, com, rc = -1;

	given = (ctx->opts != NULL && ctx->opts->map != NULL);
	path = given ? strdup(ctx->opts->map) : ingest_map_find(ctx->path);
	if (path == NULL)
		return (0);
	if (map_read(path, &text, &len, &cause) != 0 ||
	    ingest_map_parse(text, len, path, &map, &cause) != 0) {
		if (given) {
			ctx->cause = cause;
			cause = NULL;
			goto out;
		}
		ingest_warn(ctx, 0, "map ignored: %s", cause);
		rc = 0;
		goto out;
	}
	com = map.com;
	if (ctx->opts != NULL && ctx->opts->load == INGEST_LOAD_COM)
		com = 1;
	else if (ctx->opts != NULL && ctx->opts->load == INGEST_LOAD_EXE)
		com = 0;
	/* COM: PSP:0000 is the origin (offsets carry the 100h); EXE: PSP+10h. */
	base = ((uint64_t)psp + (com ? 0 : 0x10)) * 16;
	if (map.nsyms != 0 && (v = calloc(map.nsyms, sizeof *v)) == NULL) {
		ctx->cause = xasprintf("%s: out of memory", path);
		goto free_map;
	}
	for (i = 0; i < map.nsyms; i++) {
		v[n].addr = base + (uint64_t)map.syms[i].seg * 16 +
		    map.syms[i].off;
		v[n].size = map.syms[i].size;
		v[n].sym = &map.syms[i];
		if (v[n].addr < (uint64_t)psp * 16 || v[n].addr >= end)
			outside++;
		n++;
	}
	qsort(v, n, sizeof *v, map_placed_cmp);
	/* A public runs to the next one, the last to the image's end. */
	for (i = 0; i < n; i++) {
		if (v[i].size != 0)
			continue;
		if (i + 1 < n && v[i + 1].addr > v[i].addr)
			v[i].size = v[i + 1].addr - v[i].addr;
		else if (i + 1 == n && end > v[i].addr)
			v[i].size = end - v[i].addr;
	}
	for (i = 0; i < n; i++) {
		if (store_symbol_add(ctx->st, ctx->session, v[i].sym->module,
		    v[i].sym->name, v[i].addr, v[i].size) != 0) {
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
out:
	free(cause);
	free(text);
	free(path);
	return (rc);
}
