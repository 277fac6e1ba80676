/*
 * trace-plt.sh's --lib case: library functions of libpvtplt.so (libplt.c)
 * called through the PLT, N times each: lib_work(i % 7), which calls
 * lib_step i % 7 times, lib_step itself and lib_again, its other name.
 */
#include <stdio.h>
#include <stdlib.h>

int	lib_step(int);
int	lib_again(int);
int	lib_work(int);

int
main(int argc, char **argv)
{
	long	sum = 0;
	int	i, n = argc > 1 ? atoi(argv[1]) : 100;

	for (i = 0; i < n; i++)
		sum += lib_work(i % 7) + lib_step(i) + lib_again(i);
	printf("%ld\n", sum);
	return (0);
}
