/*
 * One Dos32Profile call without a profile's structures, FUNC on PID, as
 * any program linked with libpvprf makes it: its code and, if any, why
 * (tests/prfd/errors.sh runs it setuid root, where pvprf itself cannot
 * be: the loader ignores its $ORIGIN rpath there).
 */
#include <stdio.h>
#include <stdlib.h>

#include "capture/pvprf/pvprf.h"

int
main(int argc, char **argv)
{
	const char	*why;
	APIRET		 rc;

	if (argc != 3) {
		fprintf(stderr, "usage: call FUNC PID\n");
		return (2);
	}
	rc = Dos32Profile(strtoul(argv[1], NULL, 0), strtoul(argv[2], NULL, 0),
	    NULL, NULL);
	why = Dos32ProfileError();
	printf("%lu%s%s\n", rc, why != NULL ? " " : "", why != NULL ? why : "");
	return (0);
}
