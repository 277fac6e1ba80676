# The ingest registry and what several readers share (DOS maps and
# images, the code an annotation keeps, stripped modules' debug files);
# each kind's reader is in its block of kinds.mk.
libprofview_a_SOURCES += ingest/ingest.h ingest/bytes.h ingest/ingest.c \
	ingest/sha256.c ingest/map.c ingest/image.c ingest/code.c \
	ingest/debug.c
