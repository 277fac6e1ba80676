/*
 * ingest/ovd.h: the OVRACT overlay log reader (ovd.c), for kind.c and its
 * tests.
 */
#ifndef INGEST_OVD_H
#define INGEST_OVD_H

#include "ingest/ingest.h"

extern const struct ingest_reader ingest_ovd_reader;

#endif
