libprofview_a_SOURCES += ingest/ingest.h ingest/bytes.h ingest/ingest.c \
	ingest/sha256.c ingest/prf.c ingest/map.c ingest/image.c \
	ingest/ovd.c ingest/listing.c ingest/heap.c ingest/heapdwarf.c \
	ingest/mon.c ingest/prfd.c ingest/heapsock.c
