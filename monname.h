/*
 * The names in pvtrace's text files (.pdt, .mon), written by pvtrace and
 * read back by it and by profview's reader (ingest/mon.c): one codec, so
 * the two never disagree on what a name is.
 */
#ifndef MONNAME_H
#define MONNAME_H

#include <stddef.h>
#include <stdio.h>

/* A .mon field: ';' joins a call path and '@' qualifies a name there. */
#define MONNAME_FIELD	0x1

void	 monname_put(FILE *, const char *);
int	 monname_decode(const char *, size_t, char *, int);

#endif
