/*
 * heapmap-model [BLOCKS]: the heap map's model (analyze/heapmap.c) on a
 * heap of BLOCKS blocks (1M by default): a main heap of glibc-sized
 * blocks with holes, two arenas, and mmap'd chunks of one big block each.
 * For every zoom from the finest to the one that shows the whole heap in
 * a 200 x 100 map (a 200 x 50 terminal with half blocks): the first
 * frame after the marks changed (it makes the runs it shows, from 256
 * bytes a cell on), the time to make the rest of the level's runs, then
 * a frame's cells and the legend's counts in view, each the mean over
 * frames at random places;
 * and, as the peer in the same run, the same frame made by one sweep
 * over every block (what "never scan per frame" rules out).  Then what a
 * key that changes the overlays costs: new marks counted, the level made
 * again, a frame.  Budget (DESIGN.md section 9): a key in < 16 ms; the
 * model's share here must leave room, so a frame or an overlay change
 * over 8 ms fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"

#define HB_COLS		200
#define HB_ROWS		100
#define HB_FRAMES	20
#define HB_BUDGET_MS	8.0

static uint64_t	hb_seed = 0x2545f4914f6cdd1dULL;

static uint64_t
hb_rnd(uint64_t n)
{
	hb_seed ^= hb_seed << 13;
	hb_seed ^= hb_seed >> 7;
	hb_seed ^= hb_seed << 17;
	return (n == 0 ? 0 : hb_seed % n);
}

static double
hb_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6);
}

/*
 * The peer: the frame's cells by one pass over every block, adding each
 * one's bytes by mark to the cells of the frame's span it covers, then
 * the same rule (the cost of a frame made that way; rows are not laid
 * out as the model does, so its cells are not compared).
 */
static void
hb_naive(struct analyze_heapmap *m, const struct analyze_heapmap_view *v,
    struct analyze_heapmap_cell *out, uint64_t (*acc)[ANALYZE_HEAPMAP_NMARKS])
{
	uint64_t	lo, hi, B = analyze_heapmap_cell_bytes(v->zoom), s, e;
	uint64_t	c, best;
	size_t		i, ncell = (size_t)v->rows * v->cols, j;
	int		k;

	/* The frame's span, one stretch of address space per row here. */
	memset(acc, 0, ncell * sizeof *acc);
	if (analyze_heapmap_span(m, v, &lo, &hi) != 0)
		return;
	for (i = 0; i < m->nblocks; i++) {
		e = m->addr[i] + (m->size[i] ? m->size[i] : 1);
		if (e <= lo || m->addr[i] >= hi || m->mark[i] >=
		    ANALYZE_HEAPMAP_NMARKS)
			continue;
		for (s = m->addr[i] > lo ? m->addr[i] : lo; s < e && s < hi;
		    s = (s / B + 1) * B) {
			c = ((s - lo) / B) % ncell;
			acc[c][m->mark[i]] += ((s / B + 1) * B < e ? (s / B +
			    1) * B : e) - s;
		}
	}
	for (j = 0; j < ncell; j++) {
		best = 0;
		out[j].mark = ANALYZE_HEAPMAP_NONE;
		for (k = ANALYZE_HEAPMAP_NMARKS - 1; k >= 0; k--) {
			if (acc[j][k] > best) {
				best = acc[j][k];
				out[j].mark = (uint8_t)k;
			}
		}
	}
}

static void
hb_marks(struct analyze_heapmap *m, int overlay)
{
	size_t	i;
	uint64_t x;

	for (i = 0; i < m->nblocks; i++) {
		x = hb_rnd(100);
		m->mark[i] = x < 30 ? (uint8_t)(ANALYZE_HEAPMAP_TYPE1 + x % 8) :
		    ANALYZE_HEAPMAP_PLAIN;
		if (overlay && hb_rnd(20) == 0)
			m->mark[i] = ANALYZE_HEAPMAP_COLLECTABLE;
	}
}

int
main(int argc, char **argv)
{
	struct analyze_heapmap_region	 reg[3 + 256];
	struct analyze_heapmap		 m;
	struct analyze_heapmap_view	 v;
	struct analyze_heapmap_cell	*cells, *peer;
	struct analyze_heapmap_count	 cnt[ANALYZE_HEAPMAP_NMARKS];
	uint64_t			(*acc)[ANALYZE_HEAPMAP_NMARKS];
	uint64_t			*addr, *size, a, n, nrows, bytes = 0;
	size_t				 nblocks, nb = 0, nreg = 0, r, i;
	double				 t0, t1, build, frame, counts, naive;
	double				 worst = 0, ov, first;
	uint64_t			 runs;
	char				*cause = NULL;
	int				 z, fit, f, failed = 0;
	static const uint64_t		 sizes[] = { 24, 24, 40, 40, 56,
					    72, 104, 136, 264, 520 };

	nblocks = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	if (nblocks < 1000)
		nblocks = 1000;
	addr = xreallocarray(NULL, nblocks + 1, sizeof *addr);
	size = xreallocarray(NULL, nblocks + 1, sizeof *size);
	/* 4 % in each of two arenas, 256 mmap'd, the rest the main heap. */
	reg[nreg].lo = 0x555555560000ULL;
	reg[nreg].name = "main heap";
	a = reg[nreg].lo + 16;
	for (; nb < nblocks - 2 * (nblocks * 4 / 100) - 256; nb++) {
		if (hb_rnd(10) == 0)
			a += 16 * (1 + hb_rnd(hb_rnd(50) == 0 ? 4096 : 8));
		addr[nb] = a;
		size[nb] = sizes[hb_rnd(10)];
		a += size[nb] + 8;
	}
	reg[nreg].hi = (a + 4095) & ~4095ULL;
	nreg++;
	for (r = 0; r < 2; r++) {
		reg[nreg].lo = 0x7f0000000000ULL + r * 0x4000000ULL;
		reg[nreg].name = r == 0 ? "arena 2" : "arena 3";
		a = reg[nreg].lo + 0x8a0;
		for (i = 0; i < nblocks * 4 / 100; i++, nb++) {
			if (hb_rnd(10) == 0)
				a += 16 * (1 + hb_rnd(8));
			addr[nb] = a;
			size[nb] = sizes[hb_rnd(10)];
			a += size[nb] + 8;
		}
		reg[nreg].hi = (a + 4095) & ~4095ULL;
		nreg++;
	}
	a = 0x7f8000000000ULL;
	for (r = 0; r < 256 && nb < nblocks; r++) {
		n = (128 << 10) + hb_rnd(4 << 20);
		reg[nreg].lo = a;
		reg[nreg].hi = a + ((n + 16 + 4095) & ~4095ULL);
		reg[nreg].name = "mmap";
		addr[nb] = a + 16;
		size[nb++] = n;
		a = reg[nreg++].hi + 0x1000;
	}
	for (i = 0; i < nb; i++)
		bytes += size[i];
	t0 = hb_now();
	if (analyze_heapmap_build(&m, reg, nreg, addr, size, nb, &cause) != 0) {
		fprintf(stderr, "heapmap-model: %s\n", cause);
		return (1);
	}
	t1 = hb_now();
	printf("heap map model: %zu blocks (%.1f MiB), %zu regions; built in"
	    " %.1f ms\n", m.nblocks, (double)bytes / (1 << 20), m.nregions,
	    t1 - t0);
	hb_marks(&m, 0);
	t0 = hb_now();
	analyze_heapmap_marks_changed(&m);
	printf("marks counted in %.2f ms\n", hb_now() - t0);

	cells = xcalloc(HB_COLS * HB_ROWS, sizeof *cells);
	peer = xcalloc(HB_COLS * HB_ROWS, sizeof *peer);
	acc = xcalloc(HB_COLS * HB_ROWS, sizeof *acc);
	memset(&v, 0, sizeof v);
	v.cols = HB_COLS;
	v.rows = HB_ROWS;
	fit = analyze_heapmap_fit(&m, &v);
	printf("%4s %10s %8s %9s %9s %9s %9s %9s %8s %6s\n", "zoom",
	    "bytes/cell", "rows", "runs", "level ms", "first ms", "frame ms",
	    "counts ms", "peer ms", "ratio");
	for (z = ANALYZE_HEAPMAP_ZMIN; z <= fit; z++) {
		memset(&v, 0, sizeof v);
		v.cols = HB_COLS;
		v.rows = HB_ROWS;
		v.zoom = z;
		nrows = analyze_heapmap_nrows(&m, &v);
		/* The first frame after new marks makes what it shows. */
		v.top = hb_rnd(nrows);
		analyze_heapmap_clamp(&m, &v);
		analyze_heapmap_marks_changed(&m);
		t0 = hb_now();
		analyze_heapmap_frame(&m, &v, cells);
		first = hb_now() - t0;
		t0 = hb_now();
		runs = analyze_heapmap_level_build(&m, z);
		build = hb_now() - t0;
		frame = counts = naive = 0;
		for (f = 0; f < HB_FRAMES; f++) {
			v.top = hb_rnd(nrows);
			analyze_heapmap_clamp(&m, &v);
			t0 = hb_now();
			analyze_heapmap_frame(&m, &v, cells);
			t1 = hb_now();
			frame += t1 - t0;
			analyze_heapmap_counts(&m, &v, cnt);
			counts += hb_now() - t1;
			if (f < 3) {
				t0 = hb_now();
				hb_naive(&m, &v, peer, acc);
				naive += hb_now() - t0;
			}
		}
		frame /= HB_FRAMES;
		counts /= HB_FRAMES;
		naive /= 3;
		printf("%4d %10llu %8llu %9llu %9.2f %9.3f %9.3f %9.3f %8.2f"
		    " %5.0fx\n", z,
		    (unsigned long long)analyze_heapmap_cell_bytes(z),
		    (unsigned long long)nrows, (unsigned long long)runs, build,
		    first, frame, counts, naive, naive / (frame + counts));
		if (frame + counts > worst)
			worst = frame + counts;
		if (first + counts > worst)
			worst = first + counts;
	}
	/* An overlay toggled, at each zoom: marks, first frame, counts. */
	hb_marks(&m, 1);
	ov = 0;
	for (z = ANALYZE_HEAPMAP_ZMIN; z <= fit; z++) {
		v.zoom = z;
		v.top = 0;
		analyze_heapmap_clamp(&m, &v);
		t0 = hb_now();
		analyze_heapmap_marks_changed(&m);
		analyze_heapmap_frame(&m, &v, cells);
		analyze_heapmap_counts(&m, &v, cnt);
		if (hb_now() - t0 > ov)
			ov = hb_now() - t0;
	}
	printf("worst frame + counts: %.2f ms (the first after new marks"
	    " included); worst overlay change (marks counted, frame, counts):"
	    " %.2f ms; budget %.0f ms each\n", worst, ov, HB_BUDGET_MS);
	if (worst > HB_BUDGET_MS || ov > HB_BUDGET_MS) {
		printf("heapmap-model: over budget\n");
		failed = 1;
	}
	analyze_heapmap_free(&m);
	free(cells);
	free(peer);
	free(acc);
	free(addr);
	free(size);
	return (failed);
}
