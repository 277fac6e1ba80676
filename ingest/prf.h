/*
 * ingest/prf.h: the MS-DOS PROFIL bucket file reader (prf.c) and the NASM
 * listing it attaches (listing.c), for kind.c and its tests.
 */
#ifndef INGEST_PRF_H
#define INGEST_PRF_H

#include "ingest/ingest.h"

extern const struct ingest_reader ingest_prf_reader;

/* The program's NASM listing (listing.c). */
int		 ingest_listing_attach(struct ingest_ctx *,
		    const struct ingest_image *);

#endif
