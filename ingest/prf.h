/*
 * ingest/prf.h: the MS-DOS PROFIL bucket file reader (prf.c), for kind.c
 * and its tests.
 */
#ifndef INGEST_PRF_H
#define INGEST_PRF_H

#include "ingest/ingest.h"

extern const struct ingest_reader ingest_prf_reader;

#endif
