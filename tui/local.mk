TUI_SOURCES = tui/tui.h tui/loop.c
