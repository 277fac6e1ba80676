/*
 * intern: strings to small integers.  Linear probing over a table kept
 * at most half full, FNV-1a to place a key.
 */
#include <stdlib.h>
#include <string.h>

#include "intern.h"
#include "xmalloc.h"

static uint64_t
intern_hash(const char *s)
{
	uint64_t	h = 0xcbf29ce484222325ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return (h);
}

/* Twice the room, every key placed again. */
static void
intern_grow(struct intern *t)
{
	char		**okey = t->key;
	uint32_t	 *oval = t->val;
	size_t		  i, k, ncap = t->cap != 0 ? t->cap * 2 : 64;

	t->key = xcalloc(ncap, sizeof *t->key);
	t->val = xcalloc(ncap, sizeof *t->val);
	for (k = 0; k < t->cap; k++) {
		if (okey[k] == NULL)
			continue;
		for (i = intern_hash(okey[k]) & (ncap - 1); t->key[i] != NULL;
		    i = (i + 1) & (ncap - 1))
			/* nothing */;
		t->key[i] = okey[k];
		t->val[i] = oval[k];
	}
	free(okey);
	free(oval);
	t->cap = ncap;
}

/*
 * The value of key: the one it was given, or, if the key is new, value
 * (*made says which).  The table (zeroed to start) copies the key.
 */
uint32_t
intern(struct intern *t, const char *key, uint32_t value, int *made)
{
	size_t	i;

	if ((t->n + 1) * 2 > t->cap)
		intern_grow(t);
	for (i = intern_hash(key) & (t->cap - 1); t->key[i] != NULL;
	    i = (i + 1) & (t->cap - 1)) {
		if (strcmp(t->key[i], key) == 0) {
			*made = 0;
			return (t->val[i]);
		}
	}
	t->key[i] = xstrdup(key);
	t->val[i] = value;
	t->n++;
	*made = 1;
	return (value);
}

void
intern_free(struct intern *t)
{
	size_t	i;

	for (i = 0; i < t->cap; i++)
		free(t->key[i]);
	free(t->key);
	free(t->val);
	memset(t, 0, sizeof *t);
}
