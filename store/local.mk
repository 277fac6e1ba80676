# The store's engine and the tables every kind shares; each kind's own
# tables (store/KIND.c) are in its block of kinds.mk.
libprofview_a_SOURCES += store/store.h store/store.c store/core.c \
	store/query.c
