/*
 * The heap map's info tables as numbers (analyze/heapinfo.c), through its
 * API without a terminal, against brute force on random module graphs
 * (repeated imports, imports of itself, cycles): direct and indirect
 * imports and importers, ModuleHierarchy's levels and cycles,
 * TestUnloadModules' marks and classes, the importers an unload takes
 * with it (as analyze_heapview_unload's fixpoint over the imports found
 * them), and FreeBlocks' gaps; the leaks by allocation stack
 * (analyze/heapleaks.c) on random stacks and states: the records, both
 * trees and their marks.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "analyze/heap.h"

#define NONE	ANALYZE_HEAPVIEW_NONE
#define MAXM	24

static uint64_t	seed;

static uint64_t
rnd(uint64_t n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (n == 0 ? 0 : (seed >> 33) % n);
}

/* A snapshot of n modules with random imports, blocks in two regions. */
static struct analyze_heapview *
snap(size_t n)
{
	struct analyze_heapview	*s = calloc(1, sizeof *s);
	struct analyze_heapview_module *m;
	char			*cause = NULL;
	size_t			 i, j, k;
	uint64_t		 a;

	s->nmodules = n;
	s->modules = calloc(n + 1, sizeof *s->modules);
	for (i = 0; i < n; i++) {
		m = &s->modules[i];
		m->name = calloc(1, 8);
		snprintf(m->name, 8, "m%u", (unsigned)i % 100);
		k = rnd(4) == 0 ? 0 : rnd(4);
		m->imports = calloc(k + 1, sizeof *m->imports);
		for (j = 0; j < k; j++) {
			/* Mostly to later modules (a DAG), some back. */
			m->imports[j] = (uint32_t)(rnd(5) == 0 || i + 1 >= n ?
			    rnd(n) : i + 1 + rnd(n - i - 1));
		}
		m->nimports = (uint32_t)k;
	}
	s->ntypes = n + 1;
	s->types = calloc(s->ntypes, sizeof *s->types);
	for (i = 0; i < s->ntypes; i++)
		s->types[i].module = i < n ? (uint32_t)i : NONE;
	s->nregions = 2;
	s->regions = calloc(2, sizeof *s->regions);
	s->regions[0].lo = 0x10000;
	s->regions[0].hi = 0x14000;
	s->regions[1].lo = 0x40000;
	s->regions[1].hi = 0x42000;
	s->addr = calloc(400, sizeof *s->addr);
	s->size = calloc(400, sizeof *s->size);
	s->usable = calloc(400, sizeof *s->usable);
	s->type = calloc(400, sizeof *s->type);
	for (k = 0; k < 2; k++) {
		a = s->regions[k].lo + 16 * rnd(4);
		while (s->nblocks < 400) {
			i = s->nblocks;
			s->usable[i] = 24 + 16 * rnd(8);
			s->size[i] = s->usable[i] - rnd(8);
			if (a + s->usable[i] > s->regions[k].hi)
				break;
			s->addr[i] = a;
			s->type[i] = (uint32_t)rnd(s->ntypes + 1);
			if (s->type[i] == s->ntypes)
				s->type[i] = NONE;
			s->nblocks++;
			a += s->usable[i] + 16 * (rnd(3) == 0 ? rnd(40) : 0);
		}
	}
	ck_assert_int_eq(analyze_heapmap_build(&s->map, s->regions, 2,
	    s->addr, s->usable, s->nblocks, &cause), 0);
	return (s);
}

static void
snap_free(struct analyze_heapview *s)
{
	size_t	i;

	for (i = 0; i < s->nmodules; i++) {
		free(s->modules[i].name);
		free(s->modules[i].imports);
	}
	free(s->modules);
	free(s->types);
	free(s->regions);
	free(s->addr);
	free(s->size);
	free(s->usable);
	free(s->type);
	analyze_heapmap_free(&s->map);
	free(s);
}

/*
 * r[a][b]: b reachable from a by one import or more, an import of itself
 * not counted (a module reaches itself only through a cycle).
 */
static void
reach(const struct analyze_heapview *s, uint8_t r[MAXM][MAXM])
{
	size_t	i, j, k, n = s->nmodules;

	memset(r, 0, MAXM * MAXM);
	for (i = 0; i < n; i++) {
		for (j = 0; j < s->modules[i].nimports; j++) {
			if (s->modules[i].imports[j] != i)
				r[i][s->modules[i].imports[j]] = 1;
		}
	}
	for (k = 0; k < n; k++)
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				r[i][j] |= r[i][k] && r[k][j];
}

/* Whether i imports j directly (self imports do not count). */
static int
imports(const struct analyze_heapview *s, size_t i, size_t j)
{
	size_t	k;

	for (k = 0; i != j && k < s->modules[i].nimports; k++) {
		if (s->modules[i].imports[k] == j)
			return (1);
	}
	return (0);
}

START_TEST(modules)
{
	struct analyze_heapview	*s;
	struct analyze_heapinfo	 hi;
	uint8_t			 r[MAXM][MAXM], cyc[MAXM];
	uint32_t		 lvl[MAXM], want, imp, by, imp_all, by_all;
	size_t			 n, i, j, changed;

	seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(_i + 1);
	n = _i < 2 ? (size_t)_i : 1 + rnd(MAXM - 1);
	s = snap(n);
	analyze_heapinfo_make(&hi, s);
	reach(s, r);
	for (i = 0; i < n; i++) {
		imp = by = imp_all = by_all = 0;
		for (j = 0; j < n; j++) {
			imp += imports(s, i, j);
			by += imports(s, j, i);
			/* Itself only through a cycle. */
			imp_all += r[i][j];
			by_all += r[j][i] && j != i;
		}
		ck_assert_uint_eq(hi.mod[i].imp, imp);
		ck_assert_uint_eq(hi.mod[i].by, by);
		ck_assert_uint_eq(hi.mod[i].imp_all, imp_all);
		ck_assert_uint_eq(hi.mod[i].by_all, by_all);
		cyc[i] = 0;
		for (j = 0; j < n; j++)
			cyc[i] |= j != i && r[i][j] && r[j][i];
		ck_assert_int_eq(hi.mod[i].cycle, cyc[i]);
		ck_assert_str_eq(hi.mod[i].mark, "");
		ck_assert_int_eq(hi.mod[i].hier, by == 0 ?
		    ANALYZE_HEAPINFO_TOP : ANALYZE_HEAPINFO_PLAIN);
	}
	/*
	 * Levels: 0 for a module that imports nothing outside its cycle
	 * and is in none, at least 1 in a cycle, else one more than the
	 * highest of what it imports outside its cycle; a cycle's modules
	 * share it.  Made by going over them until nothing changes.
	 */
	for (i = 0; i < n; i++)
		lvl[i] = cyc[i];
	do {
		changed = 0;
		for (i = 0; i < n; i++) {
			want = cyc[i];
			for (j = 0; j < n; j++) {
				if (r[i][j] && r[j][i] && lvl[j] > want)
					want = lvl[j];	/* its cycle's */
				else if (imports(s, i, j) && !r[j][i] &&
				    lvl[j] + 1 > want)
					want = lvl[j] + 1;
			}
			if (want != lvl[i]) {
				lvl[i] = want;
				changed = 1;
			}
		}
	} while (changed);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(hi.mod[i].level, lvl[i]);
	analyze_heapinfo_free(&hi);
	snap_free(s);
}
END_TEST

/*
 * Unloading: what imports a dropped module, directly or not, goes too
 * (the fixpoint analyze_heapview_unload ran before); the marks.
 */
START_TEST(unload)
{
	struct analyze_heapview	*s;
	struct analyze_heapinfo	 hi;
	uint8_t			 r[MAXM][MAXM], named[MAXM], un[MAXM];
	uint8_t			 fix[MAXM], need[MAXM], freed[MAXM];
	size_t			 n, i, j, k, nnamed, one = 0, more;
	const char		*mark;

	seed = 0x2545f4914f6cdd1dULL * (uint64_t)(_i + 7);
	n = 1 + rnd(MAXM - 1);
	s = snap(n);
	analyze_heapinfo_make(&hi, s);
	reach(s, r);
	nnamed = 0;
	for (i = 0; i < n; i++) {
		named[i] = rnd(n) < (_i % 3 == 0 ? 1 : 2);
		if (named[i]) {
			nnamed++;
			one = i;
		}
	}
	if (_i % 4 == 1) {
		/* One module nothing imports: System.Free M*'s case. */
		memset(named, 0, sizeof named);
		for (one = 0; one < n && hi.mod[one].by != 0; one++)
			/* nothing */;
		if (one == n)
			one = 0;
		named[one] = 1;
		nnamed = 1;
	}
	memcpy(un, named, n);
	analyze_heapinfo_importers(s, un);
	memcpy(fix, named, n);
	do {
		more = 0;
		for (i = 0; i < n; i++) {
			for (j = 0; !fix[i] && j < s->modules[i].nimports;
			    j++) {
				if (fix[s->modules[i].imports[j]])
					fix[i] = more = 1;
			}
		}
	} while (more);
	ck_assert_mem_eq(un, fix, n);
	analyze_heapinfo_unload(&hi, named, un);
	/* Needed: imported, directly or not, by an unloaded module. */
	for (j = 0; j < n; j++) {
		need[j] = 0;
		for (i = 0; i < n; i++)
			need[j] |= un[i] && r[i][j];
	}
	/* Freed: one named at the top, and what all whose importers are. */
	memset(freed, 0, sizeof freed);
	if (nnamed == 1 && hi.mod[one].by == 0) {
		freed[one] = 1;
		do {
			more = 0;
			for (j = 0; j < n; j++) {
				if (freed[j] || hi.mod[j].by == 0)
					continue;
				for (k = 0; k < n; k++) {
					if (imports(s, k, j) && !freed[k])
						break;
				}
				if (k == n)
					freed[j] = more = 1;
			}
		} while (more);
	}
	for (i = 0; i < n; i++) {
		mark = named[i] ? "++" : un[i] ? "+" : freed[i] ? "*" :
		    need[i] ? "#" : "";
		ck_assert_str_eq(hi.mod[i].mark, mark);
		ck_assert_int_eq(hi.mod[i].hier, un[i] ?
		    ANALYZE_HEAPINFO_UNLOAD : hi.mod[i].by != 0 && (need[i] ||
		    freed[i]) ? ANALYZE_HEAPINFO_NEEDED : hi.mod[i].by == 0 ?
		    ANALYZE_HEAPINFO_TOP : ANALYZE_HEAPINFO_PLAIN);
	}
	/* No test unload: the marks go. */
	analyze_heapinfo_unload(&hi, NULL, NULL);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(hi.mod[i].mark, "");
	analyze_heapinfo_free(&hi);
	snap_free(s);
}
END_TEST

/* FreeBlocks: every gap over a granule between blocks in a region. */
START_TEST(gaps)
{
	struct analyze_heapview	*s;
	struct analyze_heapinfo	 hi;
	size_t			 b, r, g = 0;
	uint64_t		 end, a;

	seed = 0x71d67fffeda60000ULL * (uint64_t)(_i + 3);
	s = snap(3);
	analyze_heapinfo_make(&hi, s);
	for (r = 0, b = 0; r < s->nregions; r++) {
		end = s->regions[r].lo;
		for (;; b++) {
			a = b < s->nblocks && s->addr[b] < s->regions[r].hi ?
			    s->addr[b] : s->regions[r].hi;
			if (a - end > ANALYZE_HEAPMAP_GRANULE) {
				ck_assert_uint_lt(g, hi.ngaps);
				ck_assert_uint_eq(hi.gap_addr[g], end);
				ck_assert_uint_eq(hi.gap_size[g], a - end);
				ck_assert_uint_eq(hi.gap_region[g], r);
				g++;
			}
			if (a == s->regions[r].hi)
				break;
			end = s->addr[b] + s->usable[b];
		}
	}
	ck_assert_uint_eq(hi.ngaps, g);
	ck_assert_ptr_nonnull(strstr(hi.gap_what, " gaps between objects"));
	analyze_heapinfo_free(&hi);
	snap_free(s);
}
END_TEST

/*
 * Random stacks of 1-5 frames over 6 frames (two of them lines of one
 * function, f1) for s's blocks, random states; the leak records against
 * a count by (site, state), and in each shape every row's records and
 * marks: flat the records by bytes, bottom-up a function's records all
 * allocated in it, top-down a row's records sharing the path to it.
 */
START_TEST(leaks)
{
	static const char *const fn[6] = { "f0", "f1", "f1", "f2", "main",
	    "_start" };
	struct analyze_heapview		*s;
	struct analyze_heapleaks	 l;
	const struct analyze_heapleak_row *r;
	uint64_t			 blocks[64][ANALYZE_HEAP_NSTATES];
	uint64_t			 bytes[64][ANALYZE_HEAP_NSTATES];
	uint64_t			 nb, nby, tb, tby;
	uint32_t			 path[32], rec, site, nf, k;
	uint8_t				*sel;
	size_t				 i, j, b, nsites = 1 + rnd(40), nrec;
	int				 all, shape;

	seed = 0x3c6ef372fe94f82bULL * (uint64_t)(_i + 5);
	s = snap(2);
	s->nframes = 6;
	s->frames = calloc(6, sizeof *s->frames);
	for (i = 0; i < 6; i++) {
		s->frames[i].function = (char *)fn[i];
		s->frames[i].file = (char *)"t.c";
		s->frames[i].line = (uint32_t)i + 1;
	}
	s->nsites = nsites;
	s->site_first = calloc(nsites + 1, sizeof *s->site_first);
	s->site_frame = calloc(nsites * 5 + 1, sizeof *s->site_frame);
	for (i = 0; i < nsites; i++) {
		nf = 1 + (uint32_t)rnd(5);
		for (k = 0; k < nf; k++)
			s->site_frame[s->nsite_frames++] = (uint32_t)rnd(6);
		s->site_first[i + 1] = (uint32_t)s->nsite_frames;
	}
	s->site = calloc(s->nblocks + 1, sizeof *s->site);
	s->graph.state = calloc(s->nblocks + 1, 1);
	memset(blocks, 0, sizeof blocks);
	memset(bytes, 0, sizeof bytes);
	for (b = 0; b < s->nblocks; b++) {
		s->site[b] = rnd(10) == 0 ? NONE : (uint32_t)rnd(nsites);
		s->graph.state[b] = (uint8_t)(1 + rnd(4));
		site = s->site[b] == NONE ? (uint32_t)nsites : s->site[b];
		blocks[site][s->graph.state[b]]++;
		bytes[site][s->graph.state[b]] += s->size[b];
	}
	sel = calloc(s->nblocks + 1, 1);
	for (all = 0; all < 2; all++)
	for (shape = 0; shape < 3; shape++) {
		analyze_heapleaks_make(&l, s, all, shape);
		/* The records: one a (site, state), by bytes. */
		nrec = 0;
		tb = tby = 0;
		for (i = 0; i <= nsites; i++) {
			for (k = 1; k < ANALYZE_HEAP_NSTATES; k++) {
				if (blocks[i][k] == 0 || (!all &&
				    k == ANALYZE_HEAP_REACHABLE))
					continue;
				nrec++;
				tb += blocks[i][k];
				tby += bytes[i][k];
			}
		}
		ck_assert_uint_eq(l.nrecs, nrec);
		ck_assert_uint_eq(l.blocks, tb);
		ck_assert_uint_eq(l.bytes, tby);
		for (i = 0; i < l.nrecs; i++) {
			site = l.recs[i].site == NONE ? (uint32_t)nsites :
			    l.recs[i].site;
			ck_assert_uint_eq(l.recs[i].blocks,
			    blocks[site][l.recs[i].state]);
			ck_assert_uint_eq(l.recs[i].bytes,
			    bytes[site][l.recs[i].state]);
			if (i > 0)
				ck_assert_uint_le(l.recs[i].bytes,
				    l.recs[i - 1].bytes);
		}
		for (b = 0; b < s->nblocks; b++) {
			rec = l.block_rec[b];
			if (rec == NONE) {
				ck_assert(!all && s->graph.state[b] ==
				    ANALYZE_HEAP_REACHABLE);
				continue;
			}
			ck_assert_uint_eq(l.recs[rec].site, s->site[b]);
			ck_assert_uint_eq(l.recs[rec].state,
			    s->graph.state[b]);
		}
		/* Rows: depth 0 covers every record once; marks add up. */
		nb = nby = 0;
		for (i = 0; i < l.nrows; i++) {
			r = &l.rows[i];
			ck_assert_uint_eq(analyze_heapleaks_mark(&l, s, i, sel),
			    r->blocks);
			if (r->depth == 0) {
				nb += r->blocks;
				nby += r->bytes;
			}
			ck_assert_uint_lt(r->depth, 32);
			if (shape == ANALYZE_HEAPLEAKS_TOP_DOWN)
				path[r->depth] = r->frame;
			for (j = 0; j < r->n; j++) {
				rec = l.row_recs[r->first + j];
				site = l.recs[rec].site;
				if (shape == ANALYZE_HEAPLEAKS_FLAT) {
					ck_assert_uint_eq(rec, i);
					continue;
				}
				if (site == NONE) {
					ck_assert_uint_eq(r->frame, NONE);
					continue;
				}
				nf = s->site_first[site + 1] -
				    s->site_first[site];
				if (shape == ANALYZE_HEAPLEAKS_BOTTOM_UP) {
					ck_assert_str_eq(s->frames[
					    s->site_frame[s->site_first[site]]]
					    .function, s->frames[r->frame]
					    .function);
					continue;
				}
				/* Its path, outermost first, is the row's. */
				ck_assert_uint_gt(nf, r->depth);
				for (k = 0; k <= r->depth; k++)
					ck_assert_uint_eq(s->site_frame[
					    s->site_first[site] + nf - 1 - k],
					    path[k]);
			}
		}
		ck_assert_uint_eq(nb, tb);
		ck_assert_uint_eq(nby, tby);
		analyze_heapleaks_free(&l);
	}
	free(sel);
	free(s->frames);
	free(s->site_first);
	free(s->site_frame);
	free(s->site);
	free(s->graph.state);
	snap_free(s);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("heapinfo");
	TCase	*tc = tcase_create("heapinfo");
	SRunner	*sr;
	int	 failed;

	tcase_add_loop_test(tc, modules, 0, 60);
	tcase_add_loop_test(tc, unload, 0, 60);
	tcase_add_loop_test(tc, gaps, 0, 10);
	tcase_add_loop_test(tc, leaks, 0, 40);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
