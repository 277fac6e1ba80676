/*
 * Fuzz the map parsers with the bytes as a map (in a buffer exactly as
 * long, so reading past the text is caught), and when a map parses, attach
 * it to a small PRF session to run the relocation code too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "kind.h"
#include "store/store.h"
#include "tests/fuzz/fuzz.h"

/* A 16-bucket PRF for a program at PSP 1000h. */
static const uint8_t fuzz_prf[18 + 32] = {
	55, 0, 16, 0, 1, 0, 0x00, 0x10, 0x10, 0x10, 0x00, 0x08,
	1, 0, 2, 0, 3, 0,
	1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0,
	9, 0, 10, 0, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0, 16, 0
};

static char	fuzz_path[] = "/tmp/pvfuzzmapXXXXXX";

static void
fuzz_cleanup(void)
{
	unlink(fuzz_path);
}

static void
fuzz_attach(const uint8_t *data, size_t size)
{
	static struct store	*st;
	struct ingest_opts	 opts = { .options = { { "map", fuzz_path } },
	    .noptions = 1 };
	const char		*kind;
	char			*cause = NULL;
	int64_t			 id;
	int			 reused, fd;
	FILE			*f;

	if (st == NULL) {
		if ((st = store_open(":memory:", 0, kind_store(),
		    &cause)) == NULL ||
		    (fd = mkstemp(fuzz_path)) == -1)
			abort();
		close(fd);
		atexit(fuzz_cleanup);
	}
	if ((f = fopen(fuzz_path, "wb")) == NULL)
		abort();
	if (size != 0)
		fwrite(data, 1, size, f);
	fclose(f);
	if (ingest_bytes(st, "/nonexistent/fuzz.prf", fuzz_prf,
	    sizeof fuzz_prf, &opts, &id, &kind, &reused, &cause) == 0) {
		if (store_session_delete(st, id, &cause) != 0)
			abort();
	} else if (cause == NULL)
		abort();
	free(cause);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ingest_map	 map;
	char			*text, *cause = NULL;
	size_t			 i;

	if ((text = malloc(size != 0 ? size : 1)) == NULL)
		return (0);
	if (size != 0)
		memcpy(text, data, size);
	if (ingest_map_parse(text, size, "fuzz.map", &map, &cause) == 0) {
		for (i = 0; i < map.nsyms; i++) {
			if (map.syms[i].name == NULL ||
			    map.syms[i].name[0] == '\0')
				abort();
		}
		ingest_map_free(&map);
		fuzz_attach(data, size);
	} else if (cause == NULL || map.syms != NULL)
		abort();
	free(cause);
	free(text);
	return (0);
}
