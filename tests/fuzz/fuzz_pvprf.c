/*
 * libFuzzer harness for pvprf's reader of dump files (capture/pvprf/
 * dumpfile.c, compiled in here so that tests/fuzz/run.sh builds it like
 * the others): any bytes are printed or refused with a cause, never read
 * past their end.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture/pvprf/dumpfile.c"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct dfile	 d;
	char		 path[64], *cause = NULL;
	FILE		*out;
	int		 fd;

	if ((fd = memfd_create("pvprf", MFD_CLOEXEC)) < 0)
		abort();
	if (len > 0 && write(fd, data, len) != (ssize_t)len)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if ((out = fopen("/dev/null", "w")) == NULL)
		abort();
	if (dfile_read(path, &d, &cause) == 0)
		dfile_print(&d, out, &cause);
	free(cause);
	dfile_free(&d);
	fclose(out);
	close(fd);
	return (0);
}
