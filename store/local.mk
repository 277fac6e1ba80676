libprofview_a_SOURCES += store/store.h store/store.c
