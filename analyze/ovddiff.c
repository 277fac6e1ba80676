/*
 * The ovd kind's diff hook (kind.h, analyze/diff.h): two overlay logs by
 * unit name (a relink moves every stub segment).  A discard is a load's
 * residency ended (the manager made room over the unit): every load but
 * that of a unit still resident at the log's end; a reprieve moves a
 * unit, which ends a span but is no discard.  Time resident's shares are of each log's first to last event, as
 * the units view gives them (so they add up past 100 %); the counts' are
 * of all units'.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/diff.h"
#include "analyze/ovd.h"

static const struct analyze_diff_measure ovd_diff_m[] = {
	{ "loads", "loads", 0 },
	{ "discards", "discards", 0 },
	{ "reprieves", "reprieves", 0 },
	{ "resident_ticks", "resident", 0 },
};
#define OVD_DIFF_M	(sizeof ovd_diff_m / sizeof ovd_diff_m[0])

static void
ovd_diff_side(struct analyze_diff_table *t, int side,
    const struct analyze_ovd *m)
{
	const struct analyze_ovd_span	*sp;
	uint8_t				*resident;
	double				 v[OVD_DIFF_M], tot[OVD_DIFF_M];
	size_t				 i, k;

	/* Each load ends in a discard but one still resident at the end. */
	resident = xcalloc(m->nunits + 1, 1);
	for (i = 0; i < m->nspans; i++) {
		sp = &m->spans[i];
		if (sp->unit < m->nunits && (size_t)sp->last + 1 >= m->nevents)
			resident[sp->unit] = 1;
	}
	memset(tot, 0, sizeof tot);
	for (i = 0; i < m->nunits; i++) {
		v[0] = (double)m->units[i].loads;
		v[1] = (double)(m->units[i].loads - (m->units[i].loads != 0 ?
		    resident[i] : 0));
		v[2] = (double)m->units[i].reprieves;
		v[3] = (double)m->units[i].resident_ticks;
		for (k = 0; k < 3; k++)
			tot[k] += v[k];
		analyze_diff_add(t, side, m->units[i].name, i, v);
	}
	tot[3] = (double)(m->t_last - m->t_first);
	analyze_diff_totals(t, side, tot);
	free(resident);
}

int
analyze_ovd_diff(struct store *st, void *a, void *b, struct analyze_diff *d,
    char **cause)
{
	struct analyze_diff_table	*t;

	(void)st;
	(void)cause;
	t = analyze_diff_table(d, "units", "Overlay units", "unit",
	    ovd_diff_m, OVD_DIFF_M);
	d->note = "Units by name; discards: loads whose residency ended"
	    " within the log; resident time in ticks, its share of the"
	    " log's first to last event.";
	ovd_diff_side(t, ANALYZE_DIFF_BASE, a);
	ovd_diff_side(t, ANALYZE_DIFF_NEW, b);
	return (0);
}
