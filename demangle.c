/*
 * demangle: C++ symbols as the programmer wrote them.  libstdc++'s
 * demangler is the one pvheap's agent calls in the program (the classes
 * of vtables come demangled by it), so a variable named here reads as its
 * class does there; libstdc++ comes with g++, which builds the C++ test
 * programs anyway, where libiberty's would be one more package.
 */
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

char	*__cxa_demangle(const char *, char *, size_t *, int *);

/*
 * name demangled, without the ABI tags ("g_shapes[abi:cxx11]": the
 * source says g_shapes, and a tag is no part of what anyone types);
 * NULL when name is no C++ symbol.  The caller frees it.
 */
char *
demangle(const char *name)
{
	char	*d, *r, *w, *end;
	int	 status = -1;

	if (name == NULL || strncmp(name, "_Z", 2) != 0)
		return (NULL);
	d = __cxa_demangle(name, NULL, NULL, &status);
	if (d == NULL || status != 0) {
		free(d);
		return (NULL);
	}
	for (r = w = d; *r != '\0'; ) {
		if (strncmp(r, "[abi:", 5) == 0 &&
		    (end = strchr(r, ']')) != NULL) {
			r = end + 1;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
	return (d);
}
