/*
 * The library of trace-plt.sh's --lib case (libpvtplt.so): the program
 * calls lib_work and lib_step through its PLT, and lib_work calls
 * lib_step through the library's own (built -fPIC, lib_step may be
 * interposed, so the call is not inlined).  lib_again is another name of
 * lib_step, the program calls it too: the plan names the function by one
 * of them, and the other's slot, bound to the traced library, is left to
 * it.  Traced with --lib, each is one function counted at its entry,
 * whoever calls it and by whichever name.
 */
int	lib_step(int);
int	lib_again(int);
int	lib_work(int);

int __attribute__((noinline))
lib_step(int x)
{
	return (x * 3 + 1);
}

int	lib_again(int) __attribute__((alias("lib_step")));

int __attribute__((noinline))
lib_work(int n)
{
	int	i, sum = 0;

	for (i = 0; i < n; i++)
		sum += lib_step(i);
	return (sum);
}
