/* tests/prfd/modlib.c: the module truth test's library. */
#ifndef TESTS_PRFD_MODLIB_H
#define TESTS_PRFD_MODLIB_H

void	lib_five(void);
void	lib_three(void);

#endif
