/*
 * tui/timeline.h: the ovd kind's second view, the overlaid units as a
 * table, which the timeline opens (units.c).
 */
#ifndef TUI_TIMELINE_H
#define TUI_TIMELINE_H

#include "tui/tui.h"

struct tui_view	*tui_units_new(struct tui_view *);

#endif
