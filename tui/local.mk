# The browser: linked into the profview binary only (the core library and
# the unit tests stay free of curses).  Each kind's view is in its block
# of kinds.mk.
TUI_SOURCES = tui/tui.h tui/loop.c tui/keymap.c tui/list.c tui/draw.c \
	tui/prompt.c tui/cmd.c tui/kinds.c tui/sessions.c tui/table.c \
	tui/help.c tui/state.c tui/diff.c
