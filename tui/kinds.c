/*
 * The browser's side of the kind registry (kind.h): the view that opens a
 * session of each kind, with what it brings (struct tui_mode: its keys,
 * its commands, a live source).  A kind with a view is one line here; a
 * kind not listed opens in no view (its sessions are still there for
 * :sql and :export from the sessions view).  Nothing else in tui/ knows a
 * kind's name.
 */
#include <stddef.h>
#include <string.h>

#include "tui/tui.h"

/* Each kind's mode, defined in its view's file. */
extern const struct tui_mode tui_mode_hist;
extern const struct tui_mode tui_mode_timeline;
extern const struct tui_mode tui_mode_heapmap;
extern const struct tui_mode tui_mode_calls;
extern const struct tui_mode tui_mode_slots;

static const struct tui_kind kinds_table[] = {
	{ "prf", &tui_mode_hist },
	{ "ovd", &tui_mode_timeline },
	{ "heap", &tui_mode_heapmap },
	{ "mon", &tui_mode_calls },
	{ "prfd", &tui_mode_slots },
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

/* The i-th kind with a view, or NULL past the last. */
const struct tui_kind *
tui_kind_at(size_t i)
{
	if (i >= sizeof kinds_table / sizeof kinds_table[0])
		return (NULL);
	return (&kinds_table[i]);
}
