#include "tui/tui.h"

int
tui_main(struct store *st, const int64_t *ids, size_t n,
    const struct tui_opts *opts)
{
	return (-1);
}
