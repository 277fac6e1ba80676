/*
 * suggest: the command a mistyped word most likely meant, as git says
 * "did you mean".  The capture tools do not link the profview core, so
 * this is a file of its own that each tool's SOURCES names (as outfile.c).
 * It allocates nothing and reads no more of the word than it must: the
 * word is whatever argument a user (or a script) gave.
 */
#ifndef SUGGEST_H
#define SUGGEST_H

#include <stddef.h>

const char	*suggest(const char *, const char *const *, size_t);

#endif
