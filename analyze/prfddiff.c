/*
 * The prfd kind's diff hook (kind.h, analyze/diff.h): two Dos32Profile
 * dumps by function, module!function with the module's file name only
 * (a library moves between systems, its name stays), from the flat
 * profile the report and the slots view show: the slots' hit tables and
 * every module's samples (a version 2 dump's libraries, the program
 * outside its slots, the vDSO, the kernel).  Shares are of the run time,
 * the report's base, so that a row's delta % is the difference of the
 * two reports' "of run %": every sample taken while the process ran, not
 * the idle counter, which a busy machine swells (time the program
 * waited for a CPU) and which would shrink every share of a run it
 * slowed.
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
	d->note = "Samples by module!function of the hit tables and every"
	    " module; shares are of each dump's run time (its samples but"
	    " idle), as its report's.";
	for (side = 0; side < 2; side++) {
		for (i = 0; i < m[side]->nflat; i++) {
			name = prfd_diff_name(m[side], &m[side]->flat[i]);
			v = (double)m[side]->flat[i].hits;
			analyze_diff_add(t, side, name, i, &v);
			free(name);
		}
		v = (double)m[side]->run;
		analyze_diff_totals(t, side, &v);
	}
	return (0);
}
