/*
 * intern: strings to small integers (open addressing, keys copied), for
 * the readers that group by name: a heap snapshot's roots, DWARF's types.
 */
#ifndef INTERN_H
#define INTERN_H

#include <stddef.h>
#include <stdint.h>

struct intern {
	char		**key;
	uint32_t	 *val;
	size_t		  cap;
	size_t		  n;		/* keys held */
};

uint32_t	 intern(struct intern *, const char *, uint32_t, int *);
void		 intern_free(struct intern *);

#endif
