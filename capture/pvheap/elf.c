/*
 * The program's modules: where each is loaded (dl_iterate_phdr, taken
 * before the threads stop, since a stopped thread may hold the loader's
 * lock), and, once they run again, what its file says: function and
 * object symbols (.symtab, else a separate debug file by build-id, else
 * .dynsym), its soname and its DT_NEEDED imports.  Files are read through
 * read-only mappings, which are never roots.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bsearch.h"
#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

struct elf_walk {
	struct abuf	 mods;
	uint64_t	 self_lo;
	int		 first;
};

#define ELF_BUILD_ID_SIZE	sizeof ((struct elf_mod *)0)->build_id

static void
elf_build_id(char *out, const unsigned char *p, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i;

	if (len > (ELF_BUILD_ID_SIZE - 1) / 2)
		len = (ELF_BUILD_ID_SIZE - 1) / 2;
	for (i = 0; i < len; i++) {
		out[2 * i] = hex[p[i] >> 4];
		out[2 * i + 1] = hex[p[i] & 15];
	}
	out[2 * len] = '\0';
}

/* The GNU build-id note among n bytes of notes at p, in hex into out. */
static void
elf_notes(char *out, const unsigned char *p, size_t n)
{
	const ElfW(Nhdr)	*nh;
	size_t			 off = 0, nsz, dsz;

	while (off + sizeof *nh <= n) {
		nh = (const ElfW(Nhdr) *)(p + off);
		nsz = (nh->n_namesz + 3) & ~(size_t)3;
		dsz = (nh->n_descsz + 3) & ~(size_t)3;
		if (off + sizeof *nh + nsz + dsz > n)
			return;
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
		    memcmp(p + off + sizeof *nh, "GNU", 4) == 0) {
			elf_build_id(out, p + off + sizeof *nh + nsz,
			    nh->n_descsz);
			return;
		}
		off += sizeof *nh + nsz + dsz;
	}
}

static int
elf_walk_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct elf_walk	*w = arg;
	struct elf_mod	*m;
	const ElfW(Phdr) *ph;
	uint64_t	 lo, hi;
	ssize_t		 n;
	int		 i;

	(void)size;
	if ((m = abuf_grow(&w->mods, sizeof *m)) == NULL)
		return (1);
	memset(m, 0, sizeof *m);
	m->base = info->dlpi_addr;
	m->lo = UINT64_MAX;
	if (w->first && (info->dlpi_name == NULL ||
	    info->dlpi_name[0] == '\0')) {
		m->flags |= HEAPFMT_MOD_MAIN;
		n = readlink("/proc/self/exe", m->path, sizeof m->path - 1);
		m->path[n > 0 ? n : 0] = '\0';
	} else if (info->dlpi_name != NULL)
		snprintf(m->path, sizeof m->path, "%s", info->dlpi_name);
	if (m->path[0] != '/' && strncmp(m->path, "linux-vdso", 10) == 0)
		m->flags |= HEAPFMT_MOD_VDSO;
	w->first = 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_NOTE && m->build_id[0] == '\0')
			elf_notes(m->build_id, (const unsigned char *)(m->base +
			    ph->p_vaddr), ph->p_memsz);
		if (ph->p_type != PT_LOAD)
			continue;
		lo = (m->base + ph->p_vaddr) & ~(uint64_t)4095;
		hi = m->base + ph->p_vaddr + ph->p_memsz;
		if (lo < m->lo)
			m->lo = lo;
		if (hi > m->hi)
			m->hi = hi;
		if (ph->p_flags & PF_X)
			m->code += ph->p_memsz;
		if (ph->p_flags & PF_W) {
			m->data += ph->p_memsz;
			if (m->nrw < 4) {
				m->rw_lo[m->nrw] = m->base + ph->p_vaddr;
				m->rw_hi[m->nrw] = hi;
				m->nrw++;
			}
		}
	}
	if (m->lo == UINT64_MAX)
		m->lo = m->hi = m->base;
	if (w->self_lo >= m->lo && w->self_lo < m->hi)
		m->flags |= HEAPFMT_MOD_AGENT;
	return (0);
}

/*
 * The loaded modules, then those dlclose'd, as an array in *out; the
 * count.  Not while threads are stopped.
 */
size_t
elf_modules(struct abuf *out)
{
	struct elf_walk	w;
	uint64_t	hi;

	memset(&w, 0, sizeof w);
	w.first = 1;
	agent_self_range(&w.self_lo, &hi);
	dl_iterate_phdr(elf_walk_one, &w);
	agent_modules_unloaded(&w.mods);
	*out = w.mods;
	return (w.mods.len / sizeof (struct elf_mod));
}

static int
elf_sym_cmp(const void *a, const void *b)
{
	const struct elf_sym	*x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	/* Of symbols at one address, the sized one first. */
	if (x->size != y->size)
		return (x->size > y->size ? -1 : 1);
	return (0);
}

/* Map path read-only; NULL if it cannot be read as an ELF file. */
static const ElfW(Ehdr) *
elf_open(const char *path, size_t *len)
{
	struct stat	 sb;
	void		*p;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (NULL);
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (size_t)sb.st_size < sizeof (ElfW(Ehdr))) {
		close(fd);
		return (NULL);
	}
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return (NULL);
	*len = (size_t)sb.st_size;
	if (memcmp(p, ELFMAG, SELFMAG) != 0 ||
	    ((unsigned char *)p)[EI_CLASS] != ELFCLASS64) {
		munmap(p, *len);
		return (NULL);
	}
	return (p);
}

/* Section i's header, if the table and the section lie in the file. */
static const ElfW(Shdr) *
elf_shdr(const ElfW(Ehdr) *eh, size_t len, size_t i)
{
	const ElfW(Shdr)	*sh;

	if (eh->e_shoff == 0 || i >= eh->e_shnum ||
	    eh->e_shentsize != sizeof *sh ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof *sh > len)
		return (NULL);
	sh = (const ElfW(Shdr) *)((const char *)eh + eh->e_shoff) + i;
	if (sh->sh_type != SHT_NOBITS && sh->sh_offset + sh->sh_size > len)
		return (NULL);
	return (sh);
}

static const ElfW(Shdr) *
elf_section(const ElfW(Ehdr) *eh, size_t len, uint32_t type)
{
	const ElfW(Shdr)	*sh;
	size_t			 i;

	for (i = 0; i < eh->e_shnum; i++) {
		if ((sh = elf_shdr(eh, len, i)) != NULL && sh->sh_type == type)
			return (sh);
	}
	return (NULL);
}

/* Read the symbols of one symbol table into m's sorted arrays. */
static void
elf_symbols(struct elf_mod *m, const ElfW(Ehdr) *eh, size_t len,
    const ElfW(Shdr) *sh)
{
	const ElfW(Shdr)	*st;
	const ElfW(Sym)		*sym;
	const char		*str;
	struct elf_sym		*f, *o;
	size_t			 n, i, nf = 0, no = 0;
	uint64_t		 bias;
	int			 type;

	if ((st = elf_shdr(eh, len, sh->sh_link)) == NULL ||
	    sh->sh_entsize != sizeof *sym || st->sh_size == 0)
		return;
	sym = (const ElfW(Sym) *)((const char *)eh + sh->sh_offset);
	str = (const char *)eh + st->sh_offset;
	n = sh->sh_size / sizeof *sym;
	/* An executable (not PIE) is linked at its addresses: base 0. */
	bias = eh->e_type == ET_DYN ? m->base : 0;
	f = agent_alloc((n + 1) * sizeof *f);
	o = agent_alloc((n + 1) * sizeof *o);
	if (f == NULL || o == NULL) {
		agent_free(f);
		agent_free(o);
		return;
	}
	for (i = 0; i < n; i++) {
		type = ELF64_ST_TYPE(sym[i].st_info);
		if (sym[i].st_shndx == SHN_UNDEF || sym[i].st_value == 0 ||
		    sym[i].st_name >= st->sh_size || (type != STT_FUNC &&
		    type != STT_GNU_IFUNC && type != STT_OBJECT))
			continue;
		if (memchr(str + sym[i].st_name, '\0', st->sh_size -
		    sym[i].st_name) == NULL)
			continue;
		if (type == STT_OBJECT) {
			o[no].addr = sym[i].st_value + bias;
			o[no].size = sym[i].st_size;
			o[no++].name = str + sym[i].st_name;
		} else {
			f[nf].addr = sym[i].st_value + bias;
			f[nf].size = sym[i].st_size;
			f[nf++].name = str + sym[i].st_name;
		}
	}
	qsort(f, nf, sizeof *f, elf_sym_cmp);
	qsort(o, no, sizeof *o, elf_sym_cmp);
	m->funcs = f;
	m->nfuncs = nf;
	m->objs = o;
	m->nobjs = no;
}

/* The soname and DT_NEEDED names from the file's dynamic section. */
static void
elf_dynamic(struct elf_mod *m, const ElfW(Ehdr) *eh, size_t len)
{
	const ElfW(Shdr)	*sh, *st;
	const ElfW(Dyn)		*d;
	const char		*str;
	size_t			 n, i, k = 0;

	if ((sh = elf_section(eh, len, SHT_DYNAMIC)) == NULL ||
	    (st = elf_shdr(eh, len, sh->sh_link)) == NULL || st->sh_size == 0)
		return;
	d = (const ElfW(Dyn) *)((const char *)eh + sh->sh_offset);
	n = sh->sh_size / sizeof *d;
	str = (const char *)eh + st->sh_offset;
	if ((m->needed = agent_alloc((n + 1) * sizeof *m->needed)) == NULL)
		return;
	for (i = 0; i < n && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_un.d_val >= st->sh_size ||
		    memchr(str + d[i].d_un.d_val, '\0', st->sh_size -
		    d[i].d_un.d_val) == NULL)
			continue;
		if (d[i].d_tag == DT_NEEDED)
			m->needed[k++] = str + d[i].d_un.d_val;
		else if (d[i].d_tag == DT_SONAME)
			m->soname = str + d[i].d_un.d_val;
	}
	m->nneeded = k;
}

/* An unloaded module's range, from its file's program headers. */
static void
elf_range(struct elf_mod *m, const ElfW(Ehdr) *eh, size_t len)
{
	const ElfW(Phdr)	*ph;
	uint64_t		 lo = UINT64_MAX, hi = 0, bias;
	size_t			 i;

	if (eh->e_phoff == 0 || eh->e_phentsize != sizeof *ph ||
	    eh->e_phoff + (uint64_t)eh->e_phnum * sizeof *ph > len)
		return;
	bias = eh->e_type == ET_DYN ? m->base : 0;
	ph = (const ElfW(Phdr) *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_NOTE && m->build_id[0] == '\0' &&
		    ph[i].p_offset + ph[i].p_filesz <= len)
			elf_notes(m->build_id, (const unsigned char *)eh +
			    ph[i].p_offset, ph[i].p_filesz);
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (bias + ph[i].p_vaddr < lo)
			lo = (bias + ph[i].p_vaddr) & ~(uint64_t)4095;
		if (bias + ph[i].p_vaddr + ph[i].p_memsz > hi)
			hi = bias + ph[i].p_vaddr + ph[i].p_memsz;
		if (ph[i].p_flags & PF_X)
			m->code += ph[i].p_memsz;
		if (ph[i].p_flags & PF_W)
			m->data += ph[i].p_memsz;
	}
	if (lo != UINT64_MAX) {
		m->lo = lo;
		m->hi = hi;
	}
}

/*
 * Whether the debug file eh has m's build-id: another build's symbols
 * would name m's roots wrongly.
 */
static int
elf_same_build(const struct elf_mod *m, const ElfW(Ehdr) *eh, size_t len)
{
	const ElfW(Shdr)	*sh;
	char			 id[ELF_BUILD_ID_SIZE] = "";
	size_t			 i;

	for (i = 0; i < eh->e_shnum && id[0] == '\0'; i++) {
		if ((sh = elf_shdr(eh, len, i)) != NULL &&
		    sh->sh_type == SHT_NOTE)
			elf_notes(id, (const unsigned char *)eh +
			    sh->sh_offset, sh->sh_size);
	}
	return (strcmp(id, m->build_id) == 0);
}

/* Read what m's file says: symbols, soname, imports. */
void
elf_mod_load(struct elf_mod *m)
{
	const ElfW(Ehdr)	*eh, *dh;
	const ElfW(Shdr)	*sh;
	char			 dbg[PATH_MAX];
	size_t			 len, dlen;

	m->loaded = 1;
	if (m->path[0] != '/' || (eh = elf_open(m->path, &len)) == NULL)
		return;
	m->map = (void *)eh;
	m->maplen = len;
	if (m->flags & HEAPFMT_MOD_UNLOADED)
		elf_range(m, eh, len);
	elf_dynamic(m, eh, len);
	if ((sh = elf_section(eh, len, SHT_SYMTAB)) != NULL) {
		elf_symbols(m, eh, len, sh);
		return;
	}
	/*
	 * Stripped: Debian's -dbg packages keep .symtab by build-id, and
	 * the debug file's own note must say so.
	 */
	if (strlen(m->build_id) > 2) {
		snprintf(dbg, sizeof dbg, "/usr/lib/debug/.build-id/%.2s/%s"
		    ".debug", m->build_id, m->build_id + 2);
		if ((dh = elf_open(dbg, &dlen)) != NULL) {
			if (elf_same_build(m, dh, dlen) &&
			    (sh = elf_section(dh, dlen, SHT_SYMTAB)) != NULL) {
				m->dmap = (void *)dh;
				m->dmaplen = dlen;
				elf_symbols(m, dh, dlen, sh);
				return;
			}
			munmap((void *)dh, dlen);
		}
	}
	if ((sh = elf_section(eh, len, SHT_DYNSYM)) != NULL)
		elf_symbols(m, eh, len, sh);
}

void
elf_mods_free(struct elf_mod *m, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		agent_free(m[i].funcs);
		agent_free(m[i].objs);
		agent_free(m[i].needed);
		if (m[i].map != NULL)
			munmap(m[i].map, m[i].maplen);
		if (m[i].dmap != NULL)
			munmap(m[i].dmap, m[i].dmaplen);
	}
}

/*
 * The symbol holding addr: the last at or below it, if addr is inside it;
 * a symbol of size 0 (hand-written code) holds what follows it.
 */
const struct elf_sym *
elf_find(const struct elf_sym *s, size_t n, uint64_t addr)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, n, s[i].addr <= addr);
	if (i == 0)
		return (NULL);
	s += i - 1;
	if (s->size != 0 && addr >= s->addr + s->size)
		return (NULL);
	return (s);
}

/* The module whose mapped range holds addr: an index, or n. */
size_t
elf_mod_find(const struct elf_mod *m, size_t n, uint64_t addr)
{
	size_t	i;

	/* Loaded modules first: an unloaded one's range may be reused. */
	for (i = 0; i < n; i++) {
		if (!(m[i].flags & HEAPFMT_MOD_UNLOADED) && addr >= m[i].lo &&
		    addr < m[i].hi)
			return (i);
	}
	for (i = 0; i < n; i++) {
		if ((m[i].flags & HEAPFMT_MOD_UNLOADED) && addr >= m[i].lo &&
		    addr < m[i].hi)
			return (i);
	}
	return (n);
}

/*
 * A C++ name demangled by the program's own libstdc++ (only a C++
 * program has vtables to name); NULL if there is none or it fails.
 * The result is the agent's memory (agent_free).
 */
char *
elf_demangle(const char *name)
{
	static char	*(*fn)(const char *, char *, size_t *, int *);
	static int	 looked;
	int		 status = -1;
	char		*s;

	if (!looked) {
		fn = (char *(*)(const char *, char *, size_t *, int *))
		    dlsym(RTLD_DEFAULT, "__cxa_demangle");
		looked = 1;
	}
	if (fn == NULL || strncmp(name, "_Z", 2) != 0)
		return (NULL);
	s = fn(name, NULL, NULL, &status);
	if (status != 0) {
		/* It came from our malloc, untracked: glibc frees it. */
		agent_free(s);
		return (NULL);
	}
	return (s);
}
