/*
 * The prfd kind's diff hook (kind.h, analyze/diff.h): two Dos32Profile
 * dumps by function, module!function with the module's file name only
 * (a library moves between systems, its name stays), from the slots'
 * hit tables.  Shares are of the hit table's samples, the program's, as
 * perf record's are of its samples: not of the idle and kernel counters,
 * which a busy machine swells (time the program waited for a CPU) and
 * which would shrink every share of a run it slowed.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/diff.h"
#include "analyze/prfd.h"

static const struct analyze_diff_measure prfd_diff_m[] = {
	{ "samples", "samples", 0 },
};

static char *
prfd_diff_name(const struct analyze_prfd *m, const struct analyze_prfd_flat *f)
{
	const struct analyze_sym	*y;
	const char			*mod;

	if (f->sym == SIZE_MAX)
		return (analyze_prfd_flat_name(m, f));
	y = &m->syms[f->sym];
	if (y->module == NULL || *y->module == '\0')
		return (xstrdup(y->name));
	mod = strrchr(y->module, '/');
	return (xasprintf("%s!%s", mod != NULL ? mod + 1 : y->module,
	    y->name));
}

int
analyze_prfd_diff(struct store *st, void *a, void *b, struct analyze_diff *d,
    char **cause)
{
	struct analyze_prfd		*m[2] = { a, b };
	struct analyze_diff_table	*t;
	char				*name;
	double				 v;
	size_t				 i;
	int				 side;

	for (side = 0; side < 2; side++) {
		if (!m[side]->table &&
		    analyze_prfd_table(st, m[side], cause) != 0)
			return (-1);
	}
	t = analyze_diff_table(d, "functions", "Samples by function",
	    "function", prfd_diff_m, 1);
	d->note = "Samples of the hit tables by module!function; shares"
	    " are of each dump's hit table, not of its idle or kernel"
	    " samples.";
	for (side = 0; side < 2; side++) {
		for (i = 0; i < m[side]->nflat; i++) {
			name = prfd_diff_name(m[side], &m[side]->flat[i]);
			v = (double)m[side]->flat[i].hits;
			analyze_diff_add(t, side, name, i, &v);
			free(name);
		}
	}
	return (0);
}
