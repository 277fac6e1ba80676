/*
 * Fuzz inputs as files (files.h): one folder for the run, made on first
 * use and removed with what is in it at exit, so a harness leaves
 * nothing in /tmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kind.h"
#include "store/store.h"
#include "tests/fuzz/files.h"

static char	fuzz_dir[32];

static void
fuzz_files_clean(void)
{
	static const char	*names[] = { "NAME.PRF", "NAME.OVD", "NAME.MAP",
				    "name.map" };
	char			 path[80];
	size_t			 i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", fuzz_dir, names[i]);
		unlink(path);
	}
	rmdir(fuzz_dir);
}

static int
fuzz_write(const char *path, const uint8_t *p, size_t n)
{
	FILE	*f;

	if ((f = fopen(path, "wb")) == NULL)
		return (-1);
	if (n != 0 && fwrite(p, 1, n, f) != n) {
		fclose(f);
		return (-1);
	}
	return (fclose(f));
}

/* Write the input's files; -1 if it is too short to hold its map. */
int
fuzz_files_write(struct fuzz_files *ff, const uint8_t *data, size_t size)
{
	size_t	mlen;

	if (fuzz_dir[0] == '\0') {
		strcpy(fuzz_dir, "/tmp/pvfuzzXXXXXX");
		if (mkdtemp(fuzz_dir) == NULL)
			abort();
		atexit(fuzz_files_clean);
	}
	memset(ff, 0, sizeof *ff);
	if (size < 3)
		return (-1);
	ff->flags = data[0];
	mlen = (size_t)data[1] | (size_t)data[2] << 8;
	if (mlen > size - 3)
		return (-1);
	/* No file of an earlier input may be found beside this one. */
	fuzz_files_clean();
	if (mkdir(fuzz_dir, 0700) != 0)
		abort();
	snprintf(ff->data, sizeof ff->data, "%s/NAME.%s", fuzz_dir,
	    (ff->flags & FUZZ_OVD) ? "OVD" : "PRF");
	if (fuzz_write(ff->data, data + 3 + mlen, size - 3 - mlen) != 0)
		abort();
	if (ff->flags & FUZZ_MAP) {
		snprintf(ff->map, sizeof ff->map, "%s/%s", fuzz_dir,
		    (ff->flags & FUZZ_LOWER) ? "name.map" : "NAME.MAP");
		if (fuzz_write(ff->map, data + 3, mlen) != 0)
			abort();
	}
	if ((ff->flags & FUZZ_MAP) && (ff->flags & FUZZ_GIVEN))
		ingest_opts_set(&ff->opts, "map", ff->map);
	switch ((ff->flags & FUZZ_LOAD) >> 4) {
	case 1:
		ingest_opts_set(&ff->opts, "load", "com");
		break;
	case 2:
		ingest_opts_set(&ff->opts, "load", "exe");
		break;
	}
	return (0);
}

/* The harnesses' store, in memory, made on first use. */
struct store *
fuzz_store(void)
{
	static struct store	*st;
	char			*cause = NULL;

	if (st == NULL && (st = store_open(":memory:", 0, kind_store(),
	    &cause)) == NULL)
		abort();
	return (st);
}

/*
 * Write the input's files and ingest the data file: 0 with its session
 * and kind, -1 if the input is too short or the file does not load (a
 * failure must say why).
 */
int
fuzz_files_ingest(struct fuzz_files *ff, const uint8_t *data, size_t size,
    int64_t *id, const struct kind **k)
{
	const char	*kind;
	char		*cause = NULL;
	int		 reused;

	if (fuzz_files_write(ff, data, size) != 0)
		return (-1);
	if (ingest_file(fuzz_store(), ff->data, &ff->opts, id, &kind,
	    &reused, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return (-1);
	}
	if ((*k = kind_find(kind)) == NULL)
		abort();
	return (0);
}
