/*
 * A stripped module's separate debug file, found where gdb and perf
 * find one: under each debug directory by build-id
 * (DIR/.build-id/xx/rest.debug), then by the module's .gnu_debuglink
 * name (beside the module, in its .debug/, under each debug directory
 * followed by the module's own folder), then in the debuginfod client's
 * cache (ID/debuginfo), which gdb and perf fill; nothing is fetched.
 *
 * The debug directories are --debug-dir's list, else
 * $PROFVIEW_DEBUG_DIR's, else /usr/lib/debug, as gdb's
 * debug-file-directory.  A debug file is input like any other: it is
 * used only when its own build-id note is the module's (a module with
 * none: when its CRC is the one the debuglink records, gdb's check), else
 * it is refused and the caller names it; its symbols and DWARF would be
 * another program's, attributed to this one.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <libelf.h>

#include "xmalloc.h"
#include "ingest/ingest.h"

#define DEBUG_DEFAULT	"/usr/lib/debug"

/* --debug-dir's list; NULL: the environment's, else the default. */
static char	*debug_dirs;

void
ingest_debug_dirs_set(const char *list)
{
	free(debug_dirs);
	debug_dirs = list != NULL ? xstrdup(list) : NULL;
}

static const char *
debug_dirs_get(void)
{
	const char	*env;

	if (debug_dirs != NULL)
		return (debug_dirs);
	if ((env = secure_getenv("PROFVIEW_DEBUG_DIR")) != NULL)
		return (env);
	return (DEBUG_DEFAULT);
}

/* The debuginfod client's cache, as libdebuginfod picks it, or NULL. */
static char *
debug_cache(void)
{
	const char	*v;

	if ((v = secure_getenv("DEBUGINFOD_CACHE_PATH")) != NULL && *v != '\0')
		return (xstrdup(v));
	if ((v = secure_getenv("XDG_CACHE_HOME")) != NULL && *v != '\0')
		return (xasprintf("%s/debuginfod_client", v));
	if ((v = secure_getenv("HOME")) != NULL && *v != '\0')
		return (xasprintf("%s/.cache/debuginfod_client", v));
	return (NULL);
}

/* The GNU build-id of elf in hex, or NULL if it has none. */
char *
ingest_elf_build_id(struct Elf *elf)
{
	const void	*id;
	const uint8_t	*p;
	ssize_t		 n, i;
	char		*hex;

	if ((n = dwelf_elf_gnu_build_id(elf, &id)) <= 0)
		return (NULL);
	hex = xmalloc(2 * (size_t)n + 1);
	for (i = 0, p = id; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", p[i]);
	return (hex);
}

/*
 * The name elf's .gnu_debuglink gives and the CRC it records of that
 * file, or NULL: a name with a slash would leave the folders searched.
 */
static const char *
debug_link(Elf *elf, uint32_t *crc)
{
	Elf_Scn		*scn = NULL;
	GElf_Shdr	 sh;
	Elf_Data	*d, src, dst;
	const char	*name;
	size_t		 strndx, at;

	if (elf_getshdrstrndx(elf, &strndx) != 0)
		return (NULL);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(elf, strndx, sh.sh_name)) == NULL ||
		    strcmp(name, ".gnu_debuglink") != 0 ||
		    (d = elf_getdata(scn, NULL)) == NULL || d->d_size == 0 ||
		    memchr(d->d_buf, '\0', d->d_size) == NULL)
			continue;
		name = d->d_buf;
		at = (strlen(name) + 4) & ~(size_t)3;
		if (*name == '\0' || strchr(name, '/') != NULL ||
		    at + 4 > d->d_size)
			return (NULL);
		/* The CRC is a word in the file's byte order. */
		memset(&src, 0, sizeof src);
		src.d_buf = (char *)d->d_buf + at;
		src.d_size = 4;
		src.d_type = ELF_T_WORD;
		src.d_version = EV_CURRENT;
		dst = src;
		dst.d_buf = crc;
		if (gelf_xlatetom(elf, &dst, &src,
		    elf_getident(elf, NULL)[EI_DATA]) == NULL)
			return (NULL);
		return (name);
	}
	return (NULL);
}

/* The CRC-32 (ISO 3309, as gdb's debuglink check) of len bytes at p. */
static uint32_t
debug_crc32(const uint8_t *p, size_t len)
{
	uint32_t	 table[256], c;
	size_t		 i, k;

	/* Made per call, not kept: no state shared between threads. */
	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	c = 0xffffffffu;
	for (i = 0; i < len; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return (c ^ 0xffffffffu);
}

/* Whether elf has what is wanted of a debug file. */
static int
debug_has(Elf *elf, int want)
{
	Elf_Scn		*scn = NULL;
	GElf_Shdr	 sh;
	const char	*name;
	size_t		 strndx;

	if (elf_getshdrstrndx(elf, &strndx) != 0)
		return (0);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		if (want == INGEST_DEBUG_SYMTAB && sh.sh_type == SHT_SYMTAB)
			return (1);
		if (want == INGEST_DEBUG_DWARF &&
		    (name = elf_strptr(elf, strndx, sh.sh_name)) != NULL &&
		    strcmp(name, ".debug_info") == 0)
			return (1);
	}
	return (0);
}

struct debug_find {
	const char	*id;	/* the module's build-id, or NULL */
	int		 crc_ok;	/* when id is NULL: crc can be checked */
	uint32_t	 crc;
	int		 want;
	char		*refused;
	Elf		*elf;
	int		 fd;
};

/* Refuse the candidate at path, saying why in f->refused. */
static void
debug_refuse(struct debug_find *f, const char *path, const char *why)
{
	char	*old = f->refused;

	f->refused = old != NULL ? xasprintf("%s; %s (%s)", old, path, why) :
	    xasprintf("%s (%s)", path, why);
	free(old);
}

/* Try the file at path; 1 when it is the one, in f. */
static int
debug_try(struct debug_find *f, const char *path, int by_link)
{
	struct stat	 sb;
	Elf		*elf;
	char		*id, *why = NULL;
	void		*map;
	int		 fd, ok = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1)
		return (0);
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return (0);
	}
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(elf) != ELF_K_ELF) {
		debug_refuse(f, path, "not an ELF file");
		goto out;
	}
	id = ingest_elf_build_id(elf);
	if (f->id != NULL && (id == NULL || strcmp(id, f->id) != 0))
		why = xasprintf("build-id %s, the module's %s",
		    id != NULL ? id : "none", f->id);
	else if (f->id == NULL && id != NULL)
		why = xasprintf("build-id %s, the module has none",
		    id);
	free(id);
	if (why == NULL && f->id == NULL) {
		/* Only a debuglink's CRC can vouch for it. */
		if (!by_link || !f->crc_ok)
			why = xstrdup("no build-id to check it by");
		else if (sb.st_size == 0 || (map = mmap(NULL,
		    (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) ==
		    MAP_FAILED)
			why = xstrdup("cannot read it");
		else {
			if (debug_crc32(map, (size_t)sb.st_size) != f->crc)
				why = xstrdup("not the CRC its debuglink"
				    " records");
			munmap(map, (size_t)sb.st_size);
		}
	}
	if (why != NULL) {
		debug_refuse(f, path, why);
		free(why);
		goto out;
	}
	/* The module itself, stripped, is found beside it by its link. */
	if (!debug_has(elf, f->want))
		goto out;
	f->elf = elf;
	f->fd = fd;
	ok = 1;
out:
	if (!ok) {
		if (elf != NULL)
			elf_end(elf);
		close(fd);
	}
	return (ok);
}

/* Try path (xasprintf'd; freed here). */
static int
debug_try_free(struct debug_find *f, char *path, int by_link)
{
	int	found = debug_try(f, path, by_link);

	free(path);
	return (found);
}

/*
 * The debug file of the module elf, read from path (its build-id id,
 * NULL if none), with want (INGEST_DEBUG_SYMTAB, _DWARF): an Elf on *fd
 * (the caller closes both), or NULL.  The candidates refused (another
 * build-id, not ELF) are in *refused, "PATH (why); ...", for the
 * caller's warning (it frees it), else NULL.
 */
struct Elf *
ingest_debug_open(struct Elf *elf, const char *path, const char *id,
    int want, int *fd, char **refused)
{
	struct debug_find	 f;
	const char		*dirs, *p, *end, *link, *slash;
	char			*dir, *cache;
	size_t			 len;
	int			 found = 0, pass;

	memset(&f, 0, sizeof f);
	f.id = id != NULL && strlen(id) > 2 ? id : NULL;
	f.want = want;
	f.fd = -1;
	link = debug_link(elf, &f.crc);
	f.crc_ok = link != NULL;
	slash = strrchr(path, '/');
	dirs = debug_dirs_get();
	/* Each directory by build-id, then by the link (gdb's order). */
	for (pass = 0; pass < 2 && !found; pass++) {
		if (pass == 1 && link != NULL && slash != NULL) {
			found = debug_try_free(&f, xasprintf("%.*s/%s",
			    (int)(slash - path), path, link), 1) ||
			    debug_try_free(&f, xasprintf("%.*s/.debug/%s",
			    (int)(slash - path), path, link), 1);
		}
		for (p = dirs; !found && *p != '\0'; p = *end != '\0' ?
		    end + 1 : end) {
			if ((end = strchr(p, ':')) == NULL)
				end = p + strlen(p);
			if ((len = (size_t)(end - p)) == 0)
				continue;
			dir = xasprintf("%.*s", (int)len, p);
			if (pass == 0 && f.id != NULL)
				found = debug_try_free(&f, xasprintf(
				    "%s/.build-id/%.2s/%s.debug", dir, f.id,
				    f.id + 2), 0);
			else if (pass == 1 && link != NULL && *path == '/')
				found = debug_try_free(&f, xasprintf(
				    "%s%.*s/%s", dir, (int)(slash - path),
				    path, link), 1);
			free(dir);
		}
	}
	if (!found && f.id != NULL && (cache = debug_cache()) != NULL) {
		found = debug_try_free(&f, xasprintf("%s/%s/debuginfo", cache,
		    f.id), 0);
		free(cache);
	}
	*refused = f.refused;
	*fd = f.fd;
	return (f.elf);
}
