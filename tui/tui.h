/*
 * tui: the interactive browser.  The only module that includes curses or
 * termkey headers.
 */
#ifndef TUI_H
#define TUI_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct tui_opts {
	int	writable;	/* :sql may write */
};

int	tui_main(struct store *, const int64_t *, size_t,
	    const struct tui_opts *);

#endif
