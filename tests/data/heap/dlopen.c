/*
 * dlopen and dlclose: a module makes a list and is closed; the list
 * stays, kept by a global, and its allocation stacks point into the
 * closed module, which the snapshot still names.  argv[1]: the module.
 */
#include <dlfcn.h>
#include <stdio.h>
#include "heaptest.h"

void	*kept;

int
main(int argc, char **argv)
{
	void	*h, *(*make)(int);

	if (argc < 2 || (h = dlopen(argv[1], RTLD_NOW)) == NULL) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return (1);
	}
	if ((make = (void *(*)(int))dlsym(h, "plugin_make")) == NULL)
		return (1);
	kept = make(5);
	dlclose(h);
	heaptest_scrub();
	printf("dlopen: %d\n", kept != NULL);
	return (0);
}
