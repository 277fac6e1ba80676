/*
 * ingest/prfd.h: the Dos32Profile dump reader (prfd.c), for kind.c and its
 * tests.
 */
#ifndef INGEST_PRFD_H
#define INGEST_PRFD_H

#include "ingest/ingest.h"

extern const struct ingest_reader ingest_prfd_reader;

#endif
