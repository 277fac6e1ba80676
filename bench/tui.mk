# bench/tui.mk
