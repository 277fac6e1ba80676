/*
 * The code of a function a session annotates, kept in the store (the
 * code and code_line tables) the first time it is annotated: its bytes
 * read from its module's file, and the DWARF lines of its addresses with
 * their source text when the module has them.  A session's dump keeps
 * addresses only; once kept, the function annotates the same after its
 * module is rebuilt, moved or gone.
 *
 * The file is read only when it is the one profiled: its GNU build-id
 * must be the one the session recorded, else nothing is kept and the
 * caller says why (the bytes would be other code, decoded as if it were
 * this).  Addresses are the process's: the file's plus the load bias.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include "xmalloc.h"
#include "ingest/ingest.h"
#include "store/store.h"

/*
 * A source file's lines, read once for all the lines that name it; a few
 * files at a time, as a function's lines alternate between its file and
 * the headers whose code was inlined into it.
 */
struct code_src {
	char	*path;
	char	*text;		/* NULL: not readable */
	char   **line;		/* line[i]: line i + 1, in text */
	size_t	 nline;
};
#define CODE_SRCS	8

struct code_srcs {
	struct code_src	 f[CODE_SRCS];
	size_t		 next;		/* the one to read over next */
};

/*
 * The load bias of a module whose executable mapping is [map, map +
 * size): the PT_LOAD with PF_X whose pages are the mapping's, else the
 * first with PF_X; -1 when the file has none.  The prfd reader names a
 * slot's symbols by it too.
 */
int
ingest_elf_bias(struct Elf *elf, uint64_t map, uint64_t size, uint64_t *bias)
{
	GElf_Phdr	ph;
	size_t		nph, i;
	uint64_t	lo, hi, page = 4096;
	int		found = 0;

	if (elf_getphdrnum(elf, &nph) != 0)
		return (-1);
	for (i = 0; i < nph; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) == NULL ||
		    ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		lo = ph.p_vaddr & ~(page - 1);
		hi = (ph.p_vaddr + ph.p_memsz + page - 1) & ~(page - 1);
		if (!found || hi - lo == size) {
			*bias = map - lo;
			found = 1;
			if (hi - lo == size)
				break;
		}
	}
	return (found ? 0 : -1);
}

/*
 * Where file address v is in the file: the PT_LOAD holding it, and how
 * many of the bytes from v the file holds (*n, at most want).
 */
static int
code_offset(Elf *elf, uint64_t v, uint64_t want, off_t *off, size_t *n)
{
	GElf_Phdr	ph;
	size_t		nph, i;

	if (elf_getphdrnum(elf, &nph) != 0)
		return (-1);
	for (i = 0; i < nph; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) == NULL ||
		    ph.p_type != PT_LOAD || v < ph.p_vaddr ||
		    v - ph.p_vaddr >= ph.p_filesz)
			continue;
		*off = (off_t)(ph.p_offset + (v - ph.p_vaddr));
		*n = (size_t)(ph.p_filesz - (v - ph.p_vaddr));
		if (*n > want)
			*n = (size_t)want;
		return (0);
	}
	return (-1);
}

static void
code_srcs_free(struct code_srcs *c)
{
	size_t	i;

	for (i = 0; i < CODE_SRCS; i++) {
		free(c->f[i].path);
		free(c->f[i].text);
		free(c->f[i].line);
	}
}

/* The text of line n of path (from 1), NULL when it cannot be read. */
static const char *
code_src_line(struct code_srcs *c, const char *path, int n)
{
	struct code_src	*s = NULL;
	struct stat	 sb;
	char		*p;
	ssize_t		 got;
	size_t		 i, cap = 0;
	int		 fd;

	for (i = 0; i < CODE_SRCS && s == NULL; i++) {
		if (c->f[i].path != NULL && strcmp(c->f[i].path, path) == 0)
			s = &c->f[i];
	}
	if (s == NULL) {
		s = &c->f[c->next];
		c->next = (c->next + 1) % CODE_SRCS;
		free(s->path);
		free(s->text);
		free(s->line);
		memset(s, 0, sizeof *s);
		s->path = xstrdup(path);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd != -1 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    sb.st_size < (64 << 20)) {
			s->text = xmalloc((size_t)sb.st_size + 1);
			got = read(fd, s->text, (size_t)sb.st_size);
			if (got < 0)
				got = 0;
			s->text[got] = '\0';
			for (p = s->text; *p != '\0';) {
				if (s->nline == cap) {
					cap = cap != 0 ? cap * 2 : 256;
					s->line = xreallocarray(s->line, cap,
					    sizeof *s->line);
				}
				s->line[s->nline++] = p;
				if ((p = strchr(p, '\n')) == NULL)
					break;
				*p++ = '\0';
			}
		}
		if (fd != -1)
			close(fd);
	}
	if (s->text == NULL || n < 1 || (size_t)n > s->nline)
		return (NULL);
	return (s->line[n - 1]);
}

/* Whether compile unit cu has code in [lo, hi). */
static int
code_cu_in(Dwarf_Die *cu, uint64_t lo, uint64_t hi)
{
	Dwarf_Addr	base, s, e;
	ptrdiff_t	off = 0;

	while ((off = dwarf_ranges(cu, off, &base, &s, &e)) > 0) {
		if (s < hi && e > lo)
			return (1);
	}
	return (0);
}

/* The lines of compile unit cu at file addresses [v, v + len). */
static int
code_cu_lines(struct store *st, int64_t session, Dwarf_Die *cu, uint64_t v,
    uint64_t len, uint64_t bias, struct code_srcs *src)
{
	Dwarf_Lines	*lines;
	Dwarf_Line	*l;
	Dwarf_Attribute	 at;
	Dwarf_Addr	 a;
	const char	*file, *lastfile = NULL, *dir;
	char		*path;
	size_t		 n, i;
	int		 no, lastno = 0, rc = 0;
	bool		 end;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return (0);
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at));
	for (i = 0; i < n && rc == 0; i++) {
		if ((l = dwarf_onesrcline(lines, i)) == NULL ||
		    dwarf_lineaddr(l, &a) != 0 || a < v || a >= v + len ||
		    dwarf_lineendsequence(l, &end) != 0 || end ||
		    dwarf_lineno(l, &no) != 0 || no <= 0 ||
		    (file = dwarf_linesrc(l, NULL, NULL)) == NULL)
			continue;
		/* A line's run of rows (views, columns) is one line here. */
		if (lastfile != NULL && no == lastno &&
		    strcmp(file, lastfile) == 0)
			continue;
		lastfile = file;
		lastno = no;
		/* A relative name is the compiler's folder's. */
		if (*file != '/' && dir != NULL)
			path = xasprintf("%s/%s", dir, file);
		else
			path = xstrdup(file);
		rc = store_code_line_add(st, session, a + bias, path, no,
		    code_src_line(src, path, no));
		free(path);
	}
	return (rc);
}

/*
 * The DWARF lines of file addresses [v, v + len), moved by bias, into
 * the store: of every compile unit with code there (a range may span
 * units, and link-time optimisation mixes them).  A module without DWARF
 * has none: not an error.
 */
static int
code_lines(struct store *st, int64_t session, Elf *elf, uint64_t v,
    uint64_t len, uint64_t bias)
{
	struct code_srcs	 src;
	Dwarf			*dw;
	Dwarf_CU		*cu = NULL;
	Dwarf_Die		 die;
	int			 rc = 0;

	if ((dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)) == NULL)
		return (0);
	memset(&src, 0, sizeof src);
	while (rc == 0 && dwarf_get_units(dw, cu, &cu, NULL, NULL, &die,
	    NULL) == 0) {
		if (code_cu_in(&die, v, v + len))
			rc = code_cu_lines(st, session, &die, v, len, bias,
			    &src);
	}
	code_srcs_free(&src);
	dwarf_end(dw);
	return (rc);
}

/*
 * Whether one run the store keeps holds all of [lo, hi) of the session
 * (the annotation reads one): 1, or 0 with [*ulo, *uhi) the range with
 * the runs overlapping it, to be kept again as one; -1 on error.
 */
static int
code_kept(struct store *st, int64_t session, uint64_t lo, uint64_t hi,
    uint64_t *ulo, uint64_t *uhi)
{
	struct store_cursor	*c;
	struct store_code	 e;
	int			 rc, whole = 0;

	*ulo = lo;
	*uhi = hi;
	if ((c = store_codes(st, session, lo, hi)) == NULL)
		return (-1);
	while ((rc = store_code_next(c, &e)) == 1) {
		if (e.addr <= lo && e.addr + e.len >= hi)
			whole = 1;
		if (e.addr < *ulo)
			*ulo = e.addr;
		if (e.addr + e.len > *uhi)
			*uhi = e.addr + e.len;
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : whole);
}

/*
 * Keep [q->lo, q->hi) of session's module q->module in the store, unless
 * it is there, as one run with the runs kept before that overlap it: 0,
 * or -1 with *cause (the file is not there or not the one profiled, the
 * store cannot be written).
 */
int
ingest_code_keep(struct store *st, int64_t session,
    const struct ingest_code_req *q, char **cause)
{
	struct stat	 sb;
	Elf		*elf = NULL;
	char		*id = NULL, *err = NULL;
	uint8_t		*buf = NULL;
	uint64_t	 bias = q->bias, v, lo, hi;
	off_t		 off;
	size_t		 n;
	ssize_t		 got;
	int		 fd = -1, rc = -1, kept;

	*cause = NULL;
	if (q->hi <= q->lo)
		return (0);
	if ((kept = code_kept(st, session, q->lo, q->hi, &lo, &hi)) != 0) {
		if (kept < 0)
			*cause = xasprintf("%s: %s", store_path(st),
			    store_error(st));
		return (kept < 0 ? -1 : 0);
	}
	if (q->module == NULL || *q->module == '\0') {
		*cause = xstrdup("the profile names no module file for this"
		    " code");
		return (-1);
	}
	if ((fd = open(q->module, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1 ||
	    fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: %s: its code cannot be read",
		    q->module, fd == -1 ? strerror(errno) :
		    "not a regular file");
		goto out;
	}
	elf_version(EV_CURRENT);
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(elf) != ELF_K_ELF) {
		*cause = xasprintf("%s: not an ELF file", q->module);
		goto out;
	}
	id = ingest_elf_build_id(elf);
	if (q->build_id != NULL && (id == NULL ||
	    strcmp(id, q->build_id) != 0)) {
		*cause = xasprintf("%s changed since the profile (build-id %s,"
		    " the profile's %s): not decoded", q->module,
		    id != NULL ? id : "none", q->build_id);
		goto out;
	}
	if (!q->have_bias && ingest_elf_bias(elf, q->map, q->map_size, &bias) !=
	    0) {
		*cause = xasprintf("%s has no executable segment",
		    q->module);
		goto out;
	}
	v = lo - bias;
	if (code_offset(elf, v, hi - lo, &off, &n) != 0) {
		*cause = xasprintf("%s: no bytes at %#llx in the file",
		    q->module, (unsigned long long)v);
		goto out;
	}
	buf = xmalloc(n + 1);
	if ((got = pread(fd, buf, n, off)) < 0 || (size_t)got != n) {
		*cause = xasprintf("%s: %s", q->module, got < 0 ?
		    strerror(errno) : "cut short");
		goto out;
	}
	if (store_begin(st, &err) != 0) {
		*cause = xasprintf("%s: cannot keep the code: %s",
		    store_path(st), err != NULL ? err : store_error(st));
		free(err);
		goto out;
	}
	if (store_code_forget(st, session, lo, hi) != 0 ||
	    store_code_add(st, session, lo, q->module, id, buf, n) != 0 ||
	    code_lines(st, session, elf, v, n, bias) != 0 ||
	    store_commit(st, cause) != 0) {
		if (*cause == NULL)
			*cause = xasprintf("%s: %s", store_path(st),
			    store_error(st));
		store_rollback(st);
		goto out;
	}
	rc = 0;
out:
	free(buf);
	free(id);
	if (elf != NULL)
		elf_end(elf);
	if (fd != -1)
		close(fd);
	return (rc);
}
