/*
 * demangle: C++ symbols as the programmer wrote them.
 */
#ifndef DEMANGLE_H
#define DEMANGLE_H

char	*demangle(const char *);

#endif
