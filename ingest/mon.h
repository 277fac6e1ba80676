/*
 * ingest/mon.h: the pvtrace call profile reader (mon.c), for kind.c and its
 * tests.
 */
#ifndef INGEST_MON_H
#define INGEST_MON_H

#include "ingest/ingest.h"

extern const struct ingest_reader ingest_mon_reader;

#endif
