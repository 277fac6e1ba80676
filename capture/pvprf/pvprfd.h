/*
 * pvprfd's own interface between its loop (pvprfd.c) and its profiles
 * (profile.c).
 */
#ifndef PVPRFD_H
#define PVPRFD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/pvprf/prfd.h"

struct prf;
struct pollfd;

struct prf	*prf_find(pid_t);
int		 prf_any(void);
uint32_t	 prf_init(pid_t, int, const struct prfd_init *,
		    const uint8_t *, const struct prfd_slot *);
uint32_t	 prf_start(struct prf *);
uint32_t	 prf_stop(struct prf *);
uint32_t	 prf_clear(struct prf *);
uint32_t	 prf_dump(struct prf *, const struct prfd_dump *, int,
		    unsigned char **, size_t *);
uint32_t	 prf_exit(struct prf *);
void		 prf_drain(struct prf *);
void		 prf_drain_all(void);
size_t		 prf_pollfds(struct pollfd **, size_t *, size_t);
void		 prf_polled(const struct pollfd *, size_t);
int		 prf_sampling(void);
const char	*prf_why(void);

void		 log_msg(const char *, ...)
		    __attribute__((format(printf, 1, 2)));
void		 pollfd_room(struct pollfd **, size_t *, size_t);

#endif
