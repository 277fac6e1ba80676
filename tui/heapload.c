/*
 * A stored heap session loaded for the map off the browser's thread: the
 * store's rows into arrays and the map made of them take seconds on a
 * million blocks, so they are made on a thread with a read-only
 * connection of its own to the store, while the browser answers keys.
 * The map's first load and the live map's updates both load so; an
 * update also compares the new snapshot with the one shown, on the same
 * thread (the after hook).  A store only the browser's connection has
 * (in memory) loads at once, in the caller.
 *
 * The snapshot is the caller's, filled by the thread: the caller reads it
 * only once tui_heapload_end has joined the thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"
#include "kind.h"
#include "tui/tui.h"
#include "tui/heap.h"

struct tui_heapload {
	pthread_t			 thread;
	int				 threaded;
	pthread_mutex_t			 lock;
	pthread_cond_t			 cond;
	int				 done;		/* under lock */
	int				 rc;
	char				*cause;
	char				*path;
	int64_t				 session;
	struct analyze_heapview		*s;
	int				 map;		/* make s's map too */
	struct analyze_heap_watch	 watch;
	void				(*after)(void *,
					    struct analyze_heapview *);
	void				*arg;
};

/* The load is over: rc and cause for tui_heapload_end, the waiter woken. */
static void
hl_done(struct tui_heapload *l, int rc, char *cause)
{
	pthread_mutex_lock(&l->lock);
	l->rc = rc;
	l->cause = cause;
	l->done = 1;
	pthread_cond_signal(&l->cond);
	pthread_mutex_unlock(&l->lock);
}

/* The load itself, on st (the thread's connection, or the browser's). */
static void
hl_run(struct tui_heapload *l, struct store *st)
{
	char	*cause = NULL;
	int	 rc;

	rc = analyze_heapview_load_watched(st, l->session, l->s, &l->watch,
	    &cause);
	if (rc == 0 && l->map && (rc = analyze_heapview_map(l->s,
	    &cause)) != 0)
		analyze_heapview_free(l->s);
	if (rc == 0 && l->after != NULL)
		l->after(l->arg, l->s);
	hl_done(l, rc, cause);
}

static void *
hl_main(void *arg)
{
	struct tui_heapload	*l = arg;
	struct store		*st;
	char			*cause = NULL;

	if ((st = store_open(l->path, STORE_READONLY, kind_store(),
	    &cause)) == NULL) {
		hl_done(l, -1, cause);
		return (NULL);
	}
	hl_run(l, st);
	store_close(st);
	return (NULL);
}

/*
 * Begin loading session into s (zeroed by the caller), with its map if
 * map (a snapshot only compared needs none), then after(arg, s) on the
 * same thread if the load worked.
 */
struct tui_heapload *
tui_heapload_start(int64_t session, struct analyze_heapview *s, int map,
    void (*after)(void *, struct analyze_heapview *), void *arg)
{
	struct tui_heapload	*l = xcalloc(1, sizeof *l);
	const char		*path = store_path(tui_store());

	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->cond, NULL);
	l->session = session;
	l->s = s;
	l->map = map;
	l->after = after;
	l->arg = arg;
	if (path != NULL && strcmp(path, ":memory:") != 0) {
		l->path = xstrdup(path);
		if (pthread_create(&l->thread, NULL, hl_main, l) == 0) {
			l->threaded = 1;
			return (l);
		}
	}
	/* No second connection sees the store (or no thread): at once. */
	hl_run(l, tui_store());
	return (l);
}

/*
 * Wait for the load until the deadline (tui_now_ns), asleep, not
 * spinning: 1 while it goes on, 0 once it is done.
 */
int
tui_heapload_wait(struct tui_heapload *l, uint64_t deadline)
{
	struct timespec	ts;
	uint64_t	now = tui_now_ns(), wait;
	int		done;

	wait = deadline > now ? deadline - now : 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)(wait / 1000000000);
	ts.tv_nsec += (long)(wait % 1000000000);
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&l->lock);
	while (!l->done && pthread_cond_timedwait(&l->cond, &l->lock,
	    &ts) != ETIMEDOUT)
		continue;
	done = l->done;
	pthread_mutex_unlock(&l->lock);
	return (!done);
}

/* Rows read so far, of all (0 of 0 before the loader knows). */
void
tui_heapload_progress(struct tui_heapload *l, uint64_t *rows,
    uint64_t *total)
{
	*rows = atomic_load(&l->watch.rows);
	*total = atomic_load(&l->watch.total);
}

static void
hl_free(struct tui_heapload *l)
{
	if (l->threaded)
		pthread_join(l->thread, NULL);
	pthread_mutex_destroy(&l->lock);
	pthread_cond_destroy(&l->cond);
	free(l->cause);
	free(l->path);
	free(l);
}

/*
 * A load that is done (tui_heapload_wait said 0): 0 and the snapshot
 * filled, or -1 and *cause (the caller's).  The loader is freed.
 */
int
tui_heapload_end(struct tui_heapload *l, char **cause)
{
	int	rc = l->rc;

	if (l->threaded)
		pthread_join(l->thread, NULL);
	l->threaded = 0;
	*cause = NULL;
	if (rc != 0) {
		*cause = l->cause;
		l->cause = NULL;
	}
	hl_free(l);
	return (rc);
}

/*
 * Give up a load (^C, the view closing): the thread stops at its next
 * look (every 4096 rows), the snapshot is left empty, the loader freed.
 * What the after hook made is the caller's to free.
 */
void
tui_heapload_stop(struct tui_heapload *l)
{
	if (l == NULL)
		return;
	atomic_store(&l->watch.stop, 1);
	if (l->threaded)
		pthread_join(l->thread, NULL);
	l->threaded = 0;
	if (l->rc == 0)
		analyze_heapview_free(l->s);
	hl_free(l);
}
