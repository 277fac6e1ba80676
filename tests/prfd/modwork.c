/*
 * The module truth test's program (tests/prfd/modtruth.sh), linked
 * against its own shared library (modlib.c): rounds of 5 ms of CPU in
 * the library's lib_five, 3 in its lib_three and 2 in the program's own
 * own_two, until CPU seconds (argv[1]) of CPU time.
 *
 *	modwork vdso CPU	clock_gettime(CLOCK_MONOTONIC) in a loop,
 *				the vDSO's, for CPU seconds
 *	modwork swap CPU	rounds of 5 ms in lib_five, 12 in lib_three
 *				(four calls) and 8 in own_two (four): the
 *				split 20:48:32 where the plain rounds' is
 *				50:30:20, for profview diff (diff.sh)
 *	modwork sys CPU		getppid(2) in a loop, the kernel's, for CPU
 *				seconds (pprof.sh's kernel mapping)
 *	modwork jit CPU		a loop in anonymous memory made executable
 *				(a JIT's code, no file's) where its own
 *				file was mapped, for CPU seconds
 *	modwork gate FIFO CPU	the plain rounds once it has written a
 *				line to FIFO and read it to its end: its
 *				library is mapped, and may be replaced on
 *				disk before it runs (modsyms.sh)
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/prfd/modlib.h"

static volatile unsigned long	sink;

static long long
cpu_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((long long)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

void	own_two(void);

void
own_two(void)
{
	long long	end = cpu_ns() + 2000000LL;
	unsigned long	i;

	do {
		for (i = 0; i < 200000; i++)
			sink += i;
	} while (cpu_ns() < end);
}

/*
 * Code written at run time, as a JIT writes it: mov $1000000, %ecx; 1:
 * dec %ecx; jnz 1b; ret, in an anonymous page made executable once
 * written, at an address where the program's own file was mapped
 * executable and unmapped (the kernel says nothing of an unmapping).
 * Called until CPU seconds have gone.
 */
static int
jit(double cpu)
{
	static const unsigned char	 code[] = { 0xb9, 0x40, 0x42, 0x0f,
					    0x00, 0xff, 0xc9, 0x75, 0xfc,
					    0xc3 };
	void				(*fn)(void);
	long long			 end;
	void				*p;
	int				 fd;

	if ((fd = open("/proc/self/exe", O_RDONLY)) < 0)
		return (1);
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED || munmap(p, 4096) != 0)
		return (1);
	p = mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return (1);
	memcpy(p, code, sizeof code);
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0)
		return (1);
	fn = (void (*)(void))p;
	end = cpu_ns() + (long long)(cpu * 1e9);
	while (cpu_ns() < end)
		fn();
	return (0);
}

/* Say it has started on the FIFO, then wait for the other side's end. */
static int
gate(const char *fifo)
{
	char	c;
	ssize_t	n;
	int	fd;

	if ((fd = open(fifo, O_WRONLY)) < 0)
		return (-1);
	n = write(fd, "started\n", 8);
	close(fd);
	if (n != 8 || (fd = open(fifo, O_RDONLY)) < 0)
		return (-1);
	while ((n = read(fd, &c, 1)) > 0)
		;
	close(fd);
	return (n == 0 ? 0 : -1);
}

int
main(int argc, char **argv)
{
	struct timespec	ts;
	long long	end;
	int		i, swap = 0;

	if (argc == 3 && strcmp(argv[1], "vdso") == 0) {
		end = cpu_ns() + (long long)(atof(argv[2]) * 1e9);
		while (cpu_ns() < end) {
			for (i = 0; i < 100000; i++)
				clock_gettime(CLOCK_MONOTONIC, &ts);
		}
		return (0);
	}
	if (argc == 3 && strcmp(argv[1], "sys") == 0) {
		end = cpu_ns() + (long long)(atof(argv[2]) * 1e9);
		while (cpu_ns() < end) {
			for (i = 0; i < 10000; i++)
				syscall(SYS_getppid);
		}
		return (0);
	}
	if (argc == 3 && strcmp(argv[1], "jit") == 0)
		return (jit(atof(argv[2])));
	if (argc == 4 && strcmp(argv[1], "gate") == 0) {
		if (gate(argv[2]) != 0)
			return (1);
		argv += 2;
	} else if (argc == 3 && strcmp(argv[1], "swap") == 0)
		swap = 1;
	else if (argc < 2)
		return (2);
	end = cpu_ns() + (long long)(atof(argv[1 + swap]) * 1e9);
	while (cpu_ns() < end) {
		lib_five();
		/* Four 3 + 2 ms: 12 and 8 of 25, swap's 48 and 32 %. */
		for (i = 0; i < (swap ? 4 : 1); i++) {
			lib_three();
			own_two();
		}
	}
	return (0);
}
