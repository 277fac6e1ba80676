/*
 * Fuzz the whole ingest path from files on disk: the data file mapped,
 * its map found beside it (NAME.MAP, name.map) or named with --map, the
 * load rule, OVD units named from the map; then the model the views draw
 * from, and, with FUZZ_AGAIN, the same file ingested again with other
 * options (read again into the same session).  The input's layout is in
 * files.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "tests/fuzz/files.h"
#include "tests/fuzz/fuzz.h"

/* The one integer a query returns. */
static long long
fuzz_count(struct store *st, const char *sql)
{
	struct store_query	*q;
	struct store_value	 v;
	char			*cause = NULL;
	long long		 n = -1;

	if ((q = store_query_open(st, &sql, &cause)) == NULL)
		abort();
	if (store_query_step(q, &v) == 1 && v.type == STORE_INT)
		n = v.i;
	store_query_close(q);
	return (n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store		*st = fuzz_store();
	struct fuzz_files	 ff;
	struct ingest_opts	 again;
	const struct kind	*k;
	const char		*kind, *load;
	char			*cause = NULL;
	void			*model;
	int64_t			 id, id2;
	int			 reused;

	if (fuzz_files_ingest(&ff, data, size, &id, &k) != 0)
		return (0);
	if ((model = k->model_load(st, id, &cause)) != NULL)
		k->model_free(model);
	else
		free(cause);
	cause = NULL;
	if (ff.flags & FUZZ_AGAIN) {
		/* The other load rule, and the map named, not found. */
		again = ff.opts;
		load = ingest_opts_get(&ff.opts, "load");
		ingest_opts_set(&again, "load", load != NULL &&
		    strcmp(load, "com") == 0 ? "exe" : "com");
		ingest_opts_set(&again, "map", ff.map[0] != '\0' ? ff.map :
		    NULL);
		if (ingest_file(st, ff.data, &again, &id2, &kind, &reused,
		    &cause) == 0) {
			if (id2 != id)
				abort();
		} else if (cause == NULL)
			abort();
		free(cause);
		cause = NULL;
		if (fuzz_count(st, "SELECT count(*) FROM session") != 1)
			abort();
	}
	if (store_session_delete(st, id, &cause) != 0)
		abort();
	/* Nothing of it is left behind. */
	if (fuzz_count(st, "SELECT (SELECT count(*) FROM symbol) +"
	    " (SELECT count(*) FROM bucket) + (SELECT count(*) FROM"
	    " ovr_unit) + (SELECT count(*) FROM ovr_event) + (SELECT"
	    " count(*) FROM ovr_loaded) + (SELECT count(*) FROM warning)") !=
	    0)
		abort();
	return (0);
}
