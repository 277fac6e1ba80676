/*
 * What the harnesses assert of their output (check.c): valid UTF-8, and
 * no control character (or, strict, nothing vis.c escapes) but those
 * allowed.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stddef.h>

void	fuzz_check(const char *, size_t, const char *, int);

#endif
