/*
 * Naming, once the threads run again: modules and their imports, roots
 * by variable and register, threads, sites with their stacks' functions,
 * types (a vtable's class, else the allocation site's caller), the
 * process, all into one string table.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"

static uint64_t
snap_str_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ull;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return (h);
}

uint32_t
snap_str_add(struct snap_strtab *t, const char *s)
{
	size_t	 i, len, k;
	uint32_t *ns, off;
	char	*p;

	if (s == NULL || *s == '\0')
		return (0);
	if ((t->n + 1) * 2 > t->mask + 1) {
		k = t->mask != 0 ? (t->mask + 1) * 2 : 4096;
		if ((ns = agent_alloc(k * sizeof *ns)) == NULL)
			return (0);
		memset(ns, 0, k * sizeof *ns);
		for (i = 0; t->slot != NULL && i <= t->mask; i++) {
			if (t->slot[i] == 0)
				continue;
			off = t->slot[i] - 1;
			len = snap_str_hash((const char *)t->b.p + off) &
			    (k - 1);
			while (ns[len] != 0)
				len = (len + 1) & (k - 1);
			ns[len] = t->slot[i];
		}
		agent_free(t->slot);
		t->slot = ns;
		t->mask = k - 1;
	}
	for (i = snap_str_hash(s) & t->mask; t->slot[i] != 0;
	    i = (i + 1) & t->mask) {
		if (strcmp((const char *)t->b.p + t->slot[i] - 1, s) == 0)
			return (t->slot[i] - 1);
	}
	len = strlen(s) + 1;
	if (t->b.len + len > UINT32_MAX || (p = abuf_grow(&t->b, len)) ==
	    NULL)
		return (0);
	memcpy(p, s, len);
	off = (uint32_t)(p - (char *)t->b.p);
	t->slot[i] = off + 1;
	t->n++;
	return (off);
}

/* Function and module names of the stacks' code addresses. */
struct locs {
	uint64_t	*pc;
	uint32_t	*slot;		/* index + 1, by pc */
	size_t		 n, cap, mask;
};

static uint32_t
snap_loc_add(struct locs *l, uint64_t pc)
{
	uint64_t	*npc;
	uint32_t	*ns;
	size_t		 i, k;

	if ((l->n + 1) * 2 > l->mask + 1) {
		k = l->mask != 0 ? (l->mask + 1) * 2 : 4096;
		if ((ns = agent_alloc(k * sizeof *ns)) == NULL)
			return (0);
		memset(ns, 0, k * sizeof *ns);
		for (i = 0; i < l->n; i++) {
			size_t	j = (l->pc[i] * 0x9e3779b97f4a7c15ull) >>
			    32 & (k - 1);

			while (ns[j] != 0)
				j = (j + 1) & (k - 1);
			ns[j] = (uint32_t)i + 1;
		}
		agent_free(l->slot);
		l->slot = ns;
		l->mask = k - 1;
	}
	for (i = (pc * 0x9e3779b97f4a7c15ull) >> 32 & l->mask;
	    l->slot[i] != 0; i = (i + 1) & l->mask) {
		if (l->pc[l->slot[i] - 1] == pc)
			return (l->slot[i] - 1);
	}
	if (l->n == l->cap) {
		k = l->cap != 0 ? l->cap * 2 : 4096;
		if ((npc = agent_alloc(k * sizeof *npc)) == NULL)
			return (0);
		if (l->pc != NULL)
			memcpy(npc, l->pc, l->n * sizeof *npc);
		agent_free(l->pc);
		l->pc = npc;
		l->cap = k;
	}
	l->pc[l->n] = pc;
	l->slot[i] = (uint32_t)l->n + 1;
	return ((uint32_t)l->n++);
}

/* A function's name for people: demangled when it is C++. */
static uint32_t
snap_str_func(struct snap_strtab *t, const char *name)
{
	char		*d;
	uint32_t	 off;

	if ((d = elf_demangle(name)) == NULL)
		return (snap_str_add(t, name));
	off = snap_str_add(t, d);
	agent_free(d);
	return (off);
}

static const char *
snap_base_name(const char *path)
{
	const char	*p = strrchr(path, '/');

	return (p != NULL ? p + 1 : path);
}

void
snap_cntr_add(struct snap_out *o, const char *name, uint64_t v)
{
	uint8_t	*r;

	if ((r = snap_grow(&o->cntr, HEAPFMT_CNTR_SIZE)) != NULL) {
		snap_put32(r, snap_str_add(&o->st, name));
		snap_put64(r + 8, v);
	}
}

void
snap_name_modules(struct snap *s, struct snap_out *o)
{
	struct elf_mod	*m;
	uint8_t		*r;
	size_t		 i, k, j;
	uint32_t	 target;
	const char	*want;

	for (i = 0; i < s->nmods; i++)
		elf_mod_load(&s->mods[i]);
	for (i = 0; i < s->nmods; i++) {
		m = &s->mods[i];
		if ((r = snap_grow(&o->mods, HEAPFMT_MODS_SIZE)) == NULL)
			return;
		snap_put64(r, m->base);
		snap_put64(r + 8, m->lo);
		snap_put64(r + 16, m->hi);
		snap_put64(r + 24, m->code);
		snap_put64(r + 32, m->data);
		snap_put32(r + 40, snap_str_add(&o->st, m->path));
		snap_put32(r + 44, snap_str_add(&o->st, m->build_id));
		snap_put32(r + 48, snap_str_add(&o->st, m->soname));
		snap_put32(r + 52, m->flags);
		snap_put32(r + 56, (uint32_t)(o->imps.len / HEAPFMT_IMPS_SIZE));
		snap_put32(r + 60, (uint32_t)m->nneeded);
		for (k = 0; k < m->nneeded; k++) {
			want = m->needed[k];
			target = HEAPFMT_NONE;
			for (j = 0; j < s->nmods; j++) {
				if (s->mods[j].flags & HEAPFMT_MOD_UNLOADED)
					continue;
				if ((s->mods[j].soname != NULL &&
				    strcmp(s->mods[j].soname, want) == 0) ||
				    strcmp(snap_base_name(s->mods[j].path),
				    want) == 0) {
					target = (uint32_t)j;
					break;
				}
			}
			if ((r = snap_grow(&o->imps, HEAPFMT_IMPS_SIZE)) ==
			    NULL)
				return;
			snap_put32(r, (uint32_t)i);
			snap_put32(r + 4, snap_str_add(&o->st, want));
			snap_put32(r + 8, target);
		}
	}
}

/* Roots in module data by variable; registers by name; regions too. */
void
snap_name_roots(struct snap *s, struct snap_out *o)
{
	const struct elf_sym	*sym;
	const struct elf_mod	*m;
	uint8_t			*r, *g;
	size_t			 i, n = s->roots.len / HEAPFMT_ROOT_SIZE;
	uint32_t		 reg, kind, mod;
	uint64_t		 a;
	char			 buf[64];

	for (i = 0; i < snap_nregions(s); i++) {
		g = s->regions.p + i * HEAPFMT_REGN_SIZE;
		kind = snap_get32(g + 16);
		mod = snap_get32(g + 24);
		if (kind == HEAPFMT_RGN_HEAP)
			snap_put32(g + 20, snap_str_add(&o->st, "[heap]"));
		else if (kind == HEAPFMT_RGN_ARENA)
			snap_put32(g + 20, snap_str_add(&o->st, "[arena]"));
		else if (kind == HEAPFMT_RGN_MMAP)
			snap_put32(g + 20, snap_str_add(&o->st, "[mmap]"));
		else if (kind == HEAPFMT_RGN_DATA && mod < s->nmods)
			snap_put32(g + 20, snap_str_add(&o->st,
			    snap_base_name(s->mods[mod].path)));
		else if (kind == HEAPFMT_RGN_STACK ||
		    kind == HEAPFMT_RGN_REGS) {
			snprintf(buf, sizeof buf, "%s %u", kind ==
			    HEAPFMT_RGN_STACK ? "[stack]" : "[registers]",
			    snap_get32(s->threads.p + snap_get32(g + 28) *
			    HEAPFMT_THRS_SIZE));
			snap_put32(g + 20, snap_str_add(&o->st, buf));
		} else if (kind == HEAPFMT_RGN_FILE) {
			const struct snap_map	*mp;

			mp = snap_map_find(s->maps, s->nmaps, snap_get64(g));
			snap_put32(g + 20, snap_str_add(&o->st, mp != NULL ?
			    mp->path : ""));
		} else
			snap_put32(g + 20, snap_str_add(&o->st, "[anon]"));
	}
	for (i = 0; i < n; i++) {
		r = s->roots.p + i * HEAPFMT_ROOT_SIZE;
		reg = snap_get32(r + 8);
		g = s->regions.p + reg * HEAPFMT_REGN_SIZE;
		kind = snap_get32(g + 16);
		a = snap_get64(r);
		if (kind == HEAPFMT_RGN_REGS && a < SNAP_NREGS) {
			snap_put32(r + 20, snap_str_add(&o->st,
			    snap_reg_names[a]));
			continue;
		}
		if (kind != HEAPFMT_RGN_DATA || (mod = snap_get32(g + 24)) >=
		    s->nmods)
			continue;
		m = &s->mods[mod];
		if ((sym = elf_find(m->objs, m->nobjs, a)) == NULL ||
		    sym->size == 0)
			continue;
		snap_put32(r + 20, snap_str_add(&o->st, sym->name));
		snap_put32(r + 24, (uint32_t)(a - sym->addr));
	}
}

/*
 * A small map from a 64-bit key to a type index, for making each type
 * once (the agent's memory; keys are never 0).
 */
struct tmap {
	uint64_t	*key;
	uint32_t	*val;
	size_t		 mask, n;
};

static uint32_t *
snap_tmap_slot(struct tmap *m, uint64_t k)
{
	uint64_t	*nk;
	uint32_t	*nv;
	size_t		 i, j, cap;

	if ((m->n + 1) * 2 > m->mask + 1) {
		cap = m->mask != 0 ? (m->mask + 1) * 2 : 1024;
		nk = agent_alloc(cap * sizeof *nk);
		nv = agent_alloc(cap * sizeof *nv);
		if (nk == NULL || nv == NULL) {
			agent_free(nk);
			agent_free(nv);
			return (NULL);
		}
		memset(nk, 0, cap * sizeof *nk);
		for (i = 0; m->key != NULL && i <= m->mask; i++) {
			if (m->key[i] == 0)
				continue;
			j = (m->key[i] * 0x9e3779b97f4a7c15ull >> 20) &
			    (cap - 1);
			while (nk[j] != 0)
				j = (j + 1) & (cap - 1);
			nk[j] = m->key[i];
			nv[j] = m->val[i];
		}
		agent_free(m->key);
		agent_free(m->val);
		m->key = nk;
		m->val = nv;
		m->mask = cap - 1;
	}
	for (i = (k * 0x9e3779b97f4a7c15ull >> 20) & m->mask; m->key[i] != 0;
	    i = (i + 1) & m->mask) {
		if (m->key[i] == k)
			return (&m->val[i]);
	}
	m->key[i] = k;
	m->val[i] = HEAPFMT_NONE;
	m->n++;
	return (&m->val[i]);
}

static void
snap_tmap_free(struct tmap *m)
{
	agent_free(m->key);
	agent_free(m->val);
}

/*
 * Types: a block whose word 0 points into a _ZTV symbol is of that
 * class (one type per vtable symbol); any other block is of its
 * allocation site's type.
 */
void
snap_name_types(struct snap *s, struct snap_out *o, const uint32_t *site_type)
{
	const struct elf_sym	*sym;
	const struct elf_mod	*m;
	struct tmap		 byword, bysym;
	uint8_t			*b, *t;
	char			*d;
	const char		*cls;
	size_t			 i, k, nb = s->blks.len / HEAPFMT_BLKS_SIZE;
	uint64_t		 w;
	uint32_t		 ty, site, *vw, *vs;

	memset(&byword, 0, sizeof byword);
	memset(&bysym, 0, sizeof bysym);
	for (i = 0; i < nb; i++) {
		b = s->blks.p + i * HEAPFMT_BLKS_SIZE;
		w = snap_get64(b + 24);
		site = snap_get32(b + 44);
		ty = site < agent_nsites() ? site_type[site] : HEAPFMT_NONE;
		if (w == 0 || snap_get64(b + 8) < 8 ||
		    (k = elf_mod_find(s->mods, s->nmods, w)) >= s->nmods ||
		    (vw = snap_tmap_slot(&byword, w)) == NULL) {
			snap_put32(b + 52, ty);
			continue;
		}
		if (*vw == HEAPFMT_NONE) {
			*vw = HEAPFMT_NONE - 1;		/* looked: none */
			m = &s->mods[k];
			sym = elf_find(m->objs, m->nobjs, w);
			if (sym != NULL && sym->size != 0 &&
			    strncmp(sym->name, "_ZTV", 4) == 0 &&
			    (vs = snap_tmap_slot(&bysym, sym->addr)) != NULL) {
				if (*vs == HEAPFMT_NONE &&
				    (t = snap_grow(&o->types,
				    HEAPFMT_TYPE_SIZE)) != NULL) {
					d = elf_demangle(sym->name);
					cls = d != NULL ? d : sym->name;
					if (strncmp(cls, "vtable for ",
					    11) == 0)
						cls += 11;
					snap_put32(t, snap_str_add(&o->st,
					    cls));
					snap_put32(t + 4, (uint32_t)k);
					snap_put32(t + 8, HEAPFMT_TYPE_VTABLE);
					snap_put32(t + 12, HEAPFMT_NONE);
					snap_put64(t + 16, sym->addr);
					agent_free(d);
					*vs = (uint32_t)(o->types.len /
					    HEAPFMT_TYPE_SIZE) - 1;
				}
				*vw = *vs;
			}
		}
		if (*vw < HEAPFMT_NONE - 1) {
			ty = *vw;
			snap_put32(b + 56, snap_get32(b + 56) |
			    HEAPFMT_BLK_VTABLE);
		}
		snap_put32(b + 52, ty);
	}
	snap_tmap_free(&byword);
	snap_tmap_free(&bysym);
}

/* Sites, their stacks' code addresses, and one type per first frame. */
uint32_t *
snap_name_sites(struct snap *s, struct snap_out *o)
{
	const struct agent_site	*st;
	const struct elf_sym	*sym;
	const struct elf_mod	*m;
	struct locs		 l;
	uint32_t		 ns = agent_nsites(), i, k, first, *site_type;
	uint32_t		*loc_type, name, *vt;
	struct tmap		 byname;
	uint8_t			*r;
	char			 buf[PATH_MAX];
	size_t			 mod;

	memset(&l, 0, sizeof l);
	if ((site_type = agent_alloc((ns + 1) * sizeof *site_type)) == NULL)
		return (NULL);
	for (i = 0; i < ns; i++) {
		st = agent_site(i);
		if ((r = snap_grow(&o->sites, HEAPFMT_SITE_SIZE)) == NULL)
			break;
		first = (uint32_t)(o->frms.len / HEAPFMT_FRMS_SIZE);
		snap_put32(r, first);
		snap_put32(r + 4, st->nframes);
		snap_put64(r + 8, st->allocs);
		snap_put64(r + 16, st->frees);
		snap_put64(r + 24, st->bytes);
		snap_put64(r + 32, st->peak);
		snap_put64(r + 40, st->live);
		snap_put64(r + 48, st->nlive);
		for (k = 0; k < st->nframes; k++) {
			uint8_t	*f = snap_grow(&o->frms, HEAPFMT_FRMS_SIZE);

			if (f != NULL)
				snap_put32(f, snap_loc_add(&l, st->frames[k]));
		}
		site_type[i] = st->nframes != 0 ? snap_get32(o->frms.p + first *
		    HEAPFMT_FRMS_SIZE) : HEAPFMT_NONE;
	}
	/* Locations, and a type for each that begins a stack. */
	if ((loc_type = agent_alloc((l.n + 1) * sizeof *loc_type)) == NULL)
		return (site_type);
	for (i = 0; i < l.n; i++)
		loc_type[i] = HEAPFMT_NONE;
	for (i = 0; i < ns; i++) {
		if (site_type[i] != HEAPFMT_NONE)
			loc_type[site_type[i]] = 0;
	}
	memset(&byname, 0, sizeof byname);
	for (i = 0; i < l.n; i++) {
		if ((r = snap_grow(&o->locs, HEAPFMT_LOCS_SIZE)) == NULL)
			break;
		snap_put64(r, l.pc[i]);
		mod = elf_mod_find(s->mods, s->nmods, l.pc[i]);
		snap_put32(r + 8, mod < s->nmods ? (uint32_t)mod :
		    HEAPFMT_NONE);
		sym = NULL;
		if (mod < s->nmods) {
			m = &s->mods[mod];
			/* A return address: the call is the byte before. */
			sym = elf_find(m->funcs, m->nfuncs, l.pc[i] - 1);
			if (sym != NULL)
				snap_put32(r + 12, snap_str_func(&o->st,
				    sym->name));
		}
		if (loc_type[i] == HEAPFMT_NONE)
			continue;
		/* One type per function (per module): the site's caller. */
		if (sym != NULL)
			name = snap_str_func(&o->st, sym->name);
		else if (mod < s->nmods) {
			snprintf(buf, sizeof buf, "%.200s+0x%llx",
			    snap_base_name(s->mods[mod].path), (unsigned long
			    long)(l.pc[i] - s->mods[mod].base));
			name = snap_str_add(&o->st, buf);
		} else {
			snprintf(buf, sizeof buf, "0x%llx",
			    (unsigned long long)l.pc[i]);
			name = snap_str_add(&o->st, buf);
		}
		if ((vt = snap_tmap_slot(&byname, ((uint64_t)(mod &
		    0xffffffff) << 32 | name) + 1)) == NULL)
			break;
		if (*vt == HEAPFMT_NONE) {
			if ((r = snap_grow(&o->types, HEAPFMT_TYPE_SIZE)) ==
			    NULL)
				break;
			snap_put32(r, name);
			snap_put32(r + 4, mod < s->nmods ? (uint32_t)mod :
			    HEAPFMT_NONE);
			snap_put32(r + 8, HEAPFMT_TYPE_SITE);
			snap_put32(r + 12, HEAPFMT_NONE);
			*vt = (uint32_t)(o->types.len / HEAPFMT_TYPE_SIZE) - 1;
		}
		loc_type[i] = *vt;
	}
	snap_tmap_free(&byname);
	for (i = 0; i < ns; i++) {
		if (site_type[i] == HEAPFMT_NONE)
			continue;
		site_type[i] = loc_type[site_type[i]];
		r = o->sites.p + (size_t)i * HEAPFMT_SITE_SIZE;
		snap_put32(r + 56, site_type[i]);
		/* The type's site: the first site that made it. */
		if (snap_get32(o->types.p + site_type[i] * HEAPFMT_TYPE_SIZE +
		    12) == HEAPFMT_NONE)
			snap_put32(o->types.p + site_type[i] *
			    HEAPFMT_TYPE_SIZE + 12, i);
	}
	for (i = 0; i < ns; i++) {
		if (site_type[i] == HEAPFMT_NONE)
			snap_put32(o->sites.p + (size_t)i * HEAPFMT_SITE_SIZE +
			    56, HEAPFMT_NONE);
	}
	agent_free(loc_type);
	agent_free(l.pc);
	agent_free(l.slot);
	return (site_type);
}

void
snap_name_threads(struct snap *s, struct snap_out *o)
{
	struct abuf	 b = { NULL, 0, 0 };
	char		 path[64], *nl;
	size_t		 i, n = s->threads.len / HEAPFMT_THRS_SIZE;
	uint8_t		*r;

	for (i = 0; i < n; i++) {
		r = s->threads.p + i * HEAPFMT_THRS_SIZE;
		snprintf(path, sizeof path, "/proc/self/task/%u/comm",
		    snap_get32(r));
		if (snap_slurp(path, &b) <= 0)
			continue;
		if ((nl = strchr((char *)b.p, '\n')) != NULL)
			*nl = '\0';
		snap_put32(r + 32, snap_str_add(&o->st, (char *)b.p));
	}
	abuf_free(&b);
}

void
snap_info(struct snap *s, struct snap_out *o)
{
	struct abuf	 b = { NULL, 0, 0 };
	char		 path[PATH_MAX];
	uint8_t		*r;
	ssize_t		 n, i;

	if ((r = snap_grow(&o->info, HEAPFMT_INFO_SIZE)) == NULL)
		return;
	snap_put32(r, (uint32_t)getpid());
	snap_put32(r + 4, (uint32_t)getppid());
	snap_put32(r + 8, (uint32_t)s->trigger);
	snap_put32(r + 12, s->trigger == HEAPFMT_AT_EXIT ? 0 :
	    agent_next_serial());
	snap_put64(r + 16, s->t_wall);
	snap_put64(r + 24, s->t_resume - s->t_stop);
	snap_put64(r + 32, __atomic_load_n(&agent_seq, __ATOMIC_RELAXED));
	snap_put64(r + 40, agent_opts.contents);
	if ((n = readlink("/proc/self/exe", path, sizeof path - 1)) > 0) {
		path[n] = '\0';
		snap_put32(r + 48, snap_str_add(&o->st, path));
	}
	if ((n = snap_slurp("/proc/self/cmdline", &b)) > 0) {
		for (i = 0; i < n - 1; i++) {
			if (b.p[i] == '\0')
				b.p[i] = ' ';
		}
		snap_put32(r + 52, snap_str_add(&o->st, (char *)b.p));
	}
	abuf_free(&b);
	if (getcwd(path, sizeof path) != NULL)
		snap_put32(r + 56, snap_str_add(&o->st, path));
	snap_put32(r + 60, (uint32_t)agent_opts.depth);
	snap_put32(r + 64, (uint32_t)sysconf(_SC_PAGESIZE));
	snap_put32(r + 68, (uint32_t)s->signo);
	snap_put32(r + 72, 8);
	snap_put64(r + HF_INFO_STARTED_NS, agent_started_ns);
}
