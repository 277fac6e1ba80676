/*
 * The prf kind's diff hook (kind.h, analyze/diff.h): two PROFIL
 * histograms by symbol, or by bucket when neither has a map (the
 * buckets' addresses are then all either has to go by).  Shares are of
 * every sample, outside the program too, as the flat profile's are.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/diff.h"
#include "analyze/hist.h"

static const struct analyze_diff_measure prf_diff_m[] = {
	{ "samples", "samples", 0 },
};

static void
prf_diff_side(struct analyze_diff_table *t, int side,
    const struct analyze_hist *h, int buckets)
{
	const struct analyze_level	*l = &h->levels[0];
	char				*lo, *hi, *name;
	double				 v, total = (double)h->total;
	size_t				 i;

	if (buckets) {
		for (i = 0; i < l->n; i++) {
			if (l->b[i].hits == 0)
				continue;
			lo = analyze_hist_segoff(h, l->b[i].lo);
			hi = analyze_hist_segoff(h, l->b[i].hi);
			name = xasprintf("%s-%s", lo, hi);
			v = (double)l->b[i].hits;
			analyze_diff_add(t, side, name, i, &v);
			free(name);
			free(hi);
			free(lo);
		}
	} else {
		for (i = 0; i < h->nsyms; i++) {
			if (h->syms[i].hits == 0)
				continue;
			analyze_diff_add(t, side, h->syms[i].name, i,
			    &h->syms[i].hits);
		}
		if (h->unattributed > 0) {
			analyze_diff_add(t, side, "(outside symbols)",
			    SIZE_MAX, &h->unattributed);
		}
	}
	analyze_diff_totals(t, side, &total);
}

int
analyze_prf_diff(struct store *st, void *a, void *b, struct analyze_diff *d,
    char **cause)
{
	struct analyze_hist		*h[2] = { a, b };
	struct analyze_diff_table	*t;
	int				 buckets, i;

	(void)st;
	(void)cause;
	buckets = h[0]->nsyms == 0 && h[1]->nsyms == 0;
	if (buckets) {
		t = analyze_diff_table(d, "buckets", "Samples by bucket",
		    "bucket", prf_diff_m, 1);
		d->note = "Neither session has a map: buckets are matched"
		    " by address.";
	} else {
		t = analyze_diff_table(d, "symbols", "Samples by symbol",
		    "symbol", prf_diff_m, 1);
		d->note = "Samples by symbol, matched by name; a bucket"
		    " over several symbols is shared as the flat profile"
		    " shares it.";
	}
	for (i = 0; i < 2; i++)
		prf_diff_side(t, i, h[i], buckets);
	return (0);
}
