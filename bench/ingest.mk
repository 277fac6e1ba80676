# bench/ingest.mk
