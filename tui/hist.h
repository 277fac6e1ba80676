/*
 * tui/hist.h: the prf kind's views, which the prfd kind's slots view
 * opens too: the histogram over a model another view built, and a
 * symbol's or a bucket's code annotated (hist.c, annotate.c).
 */
#ifndef TUI_HIST_H
#define TUI_HIST_H

#include "tui/tui.h"

struct analyze_hist;
struct tui_view	*tui_hist_open(struct analyze_hist *, int64_t, const char *,
		    const char *, char *, char *, uint64_t);
struct tui_view	*tui_annotate_new(struct tui_view *, uint64_t, uint64_t,
		    uint64_t, uint64_t, const char *, char **);
int		 tui_annotate_own(struct tui_view *, struct analyze_hist *,
		    uint64_t);

#endif
