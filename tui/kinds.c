/*
 * The browser's side of the kind registry (kind.h): the view that opens a
 * session of each kind.  A kind with a view is one line here; a kind not
 * listed opens in no view (its sessions are still there for :sql and
 * :export from the sessions view).  Nothing else in tui/ knows a kind's
 * name.
 */
#include <stddef.h>
#include <string.h>

#include "tui/tui.h"

static const struct tui_kind kinds_table[] = {
	{ "prf", tui_hist_new },
	{ "ovd", tui_timeline_new },
	{ "heap", tui_heapmap_new },
	{ "mon", tui_calls_new },
	{ "prfd", tui_slots_new },
};

/* The view of kind name, or NULL when it has none. */
const struct tui_kind *
tui_kind_find(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof kinds_table / sizeof kinds_table[0]; i++) {
		if (strcmp(kinds_table[i].name, name) == 0)
			return (&kinds_table[i]);
	}
	return (NULL);
}
