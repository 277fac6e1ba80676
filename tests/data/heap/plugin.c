/* A module dlopen'd by the dlopen test program: it allocates a list
 * that outlives it (the program keeps it after dlclose). */
#include <stdlib.h>

struct item {
	struct item	*next;
	int		 v;
};

__attribute__((noinline)) void *
plugin_make(int n)
{
	struct item	*head = NULL, *x;

	while (n-- > 0) {
		x = calloc(1, sizeof *x);
		x->next = head;
		x->v = n;
		head = x;
	}
	return (head);
}
