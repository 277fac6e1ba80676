/*
 * The closest of a few command names to a mistyped word (suggest.h).
 *
 * Close means within two edits (an insertion, a deletion, a substitution
 * or two neighbours swapped: "recrd", "sesions", "plna"), or the start of
 * the name ("sess").  Two edits of a word of two letters are no longer a
 * typo of it, so the edits must leave more of the word than they change.
 */
#include <string.h>

#include "suggest.h"

/* Longer names are matched by their start only. */
#define SUGGEST_NAME_MAX	32
#define SUGGEST_EDITS		2

/*
 * The optimal string alignment distance of a and b (b no longer than
 * SUGGEST_NAME_MAX), or SUGGEST_EDITS + 1 if it is more than that: a is
 * never read past the length of b plus the edits allowed.
 */
static size_t
suggest_distance(const char *a, const char *b)
{
	size_t	 row[3][SUGGEST_NAME_MAX + 1], *pp, *p, *c, *t;
	size_t	 la, lb, i, j, v;

	lb = strlen(b);
	la = strnlen(a, lb + SUGGEST_EDITS + 1);
	if (la > lb + SUGGEST_EDITS)
		return (SUGGEST_EDITS + 1);
	pp = row[0];
	p = row[1];
	c = row[2];
	for (j = 0; j <= lb; j++)
		p[j] = j;
	for (i = 1; i <= la; i++) {
		c[0] = i;
		for (j = 1; j <= lb; j++) {
			v = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		/* The rows move up: the oldest is written next. */
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return (p[lb] > SUGGEST_EDITS ? SUGGEST_EDITS + 1 : p[lb]);
}

/*
 * The name of names[0..n) closest to word, or NULL if none is close.  The
 * first of equally close names is taken: list the likelier first.
 */
const char *
suggest(const char *word, const char *const *names, size_t n)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = SUGGEST_EDITS + 1, len, wl;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		wl = strnlen(word, len + 1);
		if (wl != 0 && wl < len && strncmp(word, names[i], wl) == 0)
			d = 0;		/* its start */
		else if (len > SUGGEST_NAME_MAX)
			continue;
		else
			d = suggest_distance(word, names[i]);
		if (d > SUGGEST_EDITS || (d != 0 && (d >= wl || d >= len)))
			continue;
		if (best == NULL || d < bestd) {
			best = names[i];
			bestd = d;
		}
	}
	return (best);
}
