/*
 * Dos32Profile's flag-bits clock divider ("if one of the bytes decrements
 * to 0"): the bytes count down from the last to the first and round
 * again, and a tick accumulates when the current byte reaches 0.  With
 * {5,6,7,8} the gaps are 8, 7, 6, 5, 8, ...: ticks 8, 15, 21, 26, 34, 41,
 * 47, 52, the sequence its documentation gives.
 */
#include <string.h>

#include "capture/pvprf/prfd.h"

void
prfd_flg_init(struct prfd_flg *f, const uint8_t *v, unsigned n)
{
	memset(f, 0, sizeof *f);
	if (n > sizeof f->v)
		n = sizeof f->v;
	memcpy(f->v, v, n);
	f->n = n;
	if (n > 0) {
		f->i = n - 1;
		f->left = f->v[f->i];
	}
}

/* Whether this tick accumulates. */
int
prfd_flg_tick(struct prfd_flg *f)
{
	if (f->n == 0)
		return (1);
	if (--f->left != 0)
		return (0);
	f->i = f->i == 0 ? f->n - 1 : f->i - 1;
	f->left = f->v[f->i];
	return (1);
}
