# The browser: linked into the profview binary only (the core library and
# the unit tests stay free of curses).
TUI_SOURCES = tui/tui.h tui/loop.c tui/keymap.c tui/list.c tui/draw.c \
	tui/prompt.c tui/cmd.c tui/kinds.c tui/sessions.c tui/hist.c \
	tui/table.c tui/help.c tui/timeline.c tui/units.c tui/state.c \
	tui/heap.h tui/heapmap.c tui/heapdraw.c tui/heapcmd.c \
	tui/heapupdate.c tui/heapinfo.c tui/heapload.c tui/heaplive.c \
	tui/annotate.c tui/calls.c tui/slots.c
