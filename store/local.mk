libprofview_a_SOURCES += store/store.h store/store.c store/core.c \
	store/query.c store/prf.c store/ovd.c store/heap.c store/mon.c \
	store/prfd.c
