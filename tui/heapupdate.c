/*
 * The heap map of a running program and of two snapshots: an update's
 * steps on the view's work op (heaplive.c does the asking and the
 * loading), the new snapshot swapped in with place, zoom, marks and
 * selection carried over, :compare with another session of the run,
 * and HeapInspector's Remain.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "report/report.h"
#include "tui/tui.h"
#include "tui/heap.h"

/* The next time the view wants its work op: an update due, or a look. */
void
hm_live_arm(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	uint64_t	 due, look;

	/* Updates from files (no program) come only when asked. */
	if (hm->live == NULL || tui_heaplive_socket(hm->live) == NULL) {
		tui_wake(tv, 0);
		return;
	}
	/*
	 * Ended: at once, to say so (hm_live_work), if not said yet; in a
	 * second while --keep's delete runs, to see it end.
	 */
	if (tui_heaplive_ended(hm->live)) {
		tui_wake(tv, !hm->live_ended ? tui_now_ns() :
		    tui_heaplive_deleting(hm->live) ? tui_now_ns() +
		    1000000000 : 0);
		return;
	}
	/* Once a second, whether the program is still there. */
	look = tui_now_ns() + 1000000000;
	due = tui_heaplive_due(hm->live);
	tui_wake(tv, due != 0 && due < look ? due : look);
}

/* Remain's hidden objects, for the snapshot now shown. */
static void
hm_remain_apply(struct heapmap *hm)
{
	long	n;

	free(hm->hidden);
	hm->hidden = NULL;
	if (hm->remain_base == NULL)
		return;
	hm->hidden = xcalloc_populated(hm->s->nblocks + 1, 1);
	if ((n = analyze_heapdiff_remain_hide(hm->remain_base, hm->s,
	    hm->hidden)) < 0) {
		analyze_heapdiff_remain_free(hm->remain_base);
		hm->remain_base = NULL;
		hm->remain = 0;
		tui_message("error: remain off: the snapshots are not in"
		    " address order");
	}
	hm->dirty = 1;
}

/* Block b of the new snapshot, from block ob of the old one via c. */
static size_t
hm_carry(const struct analyze_heapdiff_cmp *c,
    const struct analyze_heapview *ns, const struct analyze_heapview *os,
    size_t ob)
{
	size_t	lo;

	if (ob == SIZE_MAX || c == NULL)
		return (SIZE_MAX);
	BSEARCH_FIRST(lo, 0, ns->nblocks, ns->addr[lo] < os->addr[ob]);
	if (lo < ns->nblocks && analyze_heapdiff_cmp_was(c, lo) == ob)
		return (lo);
	return (SIZE_MAX);
}

/*
 * Show snapshot ns (session id) in place of the one shown, compared with
 * it: the same place in the heap at the same zoom, the same overlays and
 * :mark specs, the selected object and the :select set where their
 * blocks still exist (same address and allocation number).
 */
static void
hm_replace(struct tui_view *tv, struct analyze_heapview *ns, int64_t id,
    struct analyze_heapdiff_cmp *c, struct tui_heapinfo *hi)
{
	struct heapmap		*hm = tv->data;
	struct analyze_heapview	*os = hm->s;
	uint8_t			*oldset = hm->selset, *tm;
	char			*bb, *fb;
	uint64_t		 top = 0, row, born_b, freed_b;
	uint32_t		 col;
	size_t			 sel, cur, b, w, k, i, born, freed;
	int			 at_top, gone;

	at_top = analyze_heapmap_row_addr(hm->m, &hm->v, hm->v.top,
	    &top) >= 0;
	sel = hm_carry(c, ns, os, hm->sel);
	cur = hm_carry(c, ns, os, hm->cur);
	gone = hm->sel != SIZE_MAX && sel == SIZE_MAX;
	/* A :compare reads the snapshot that goes now. */
	hm_compare_stop(hm);
	analyze_heapdiff_cmp_free(hm->cmp);
	hm->cmp = c;

	/* What was made for the old snapshot goes with it. */
	free(hm->typemark);
	free(hm->unloaded);
	free(hm->reach);
	free(hm->rfrom);
	free(hm->lost);
	hm->reach = hm->rfrom = hm->lost = NULL;
	hm->nlost = 0;
	/* A search over the old graph; the old snapshot's info tables. */
	hm_walk_abort(hm);
	hm_focus(tv, 0);
	tui_heapinfo_free(hm->hi);
	hm->hi = hi != NULL ? hi : tui_heapinfo_new(ns);
	/* The descriptors chosen were the old snapshot's. */
	hm_desc_off(hm);
	hm->reach_of = hm->rfrom_of = SIZE_MAX;
	free(ns->program);
	ns->program = tui_session_name(id);
	hm->s = ns;
	tv->session = id;
	hm->session = id;
	hm_ready(tv);

	/* The :select set, block by block; the :mark specs, type by type. */
	hm->nselset = 0;
	for (b = 0; c != NULL && oldset != NULL && b < ns->nblocks; b++) {
		w = analyze_heapdiff_cmp_was(c, b);
		hm->selset[b] = w != ANALYZE_HEAPVIEW_NONE && oldset[w];
		hm->nselset += hm->selset[b];
	}
	free(oldset);
	tm = xcalloc(ns->ntypes + 1, 1);
	for (k = 0; k < hm->nspecs; k++) {
		hm_bases(hm, hm->specs[k]);
		analyze_heapview_types(ns, hm->specs[k], tm);
		for (i = 0; i < ns->ntypes; i++) {
			if (tm[i] && hm->typemark[i] == 0)
				hm->typemark[i] = (uint8_t)(k + 1);
		}
	}
	free(tm);
	analyze_heapview_free(os);
	free(os);

	/* The same place: the address that was top left, at the zoom. */
	hm->fit = 0;
	hm->sel = sel;
	hm->cur = sel != SIZE_MAX ? sel : cur;
	if (at_top && analyze_heapmap_locate(hm->m, &hm->v, top, &row,
	    &col) == 0)
		hm->v.top = hm->v.align > 1 ? row - row % hm->v.align : row;
	analyze_heapmap_clamp(hm->m, &hm->v);
	hm_remain_apply(hm);
	hm->dirty = 1;
	if (c == NULL)
		return;
	analyze_heapdiff_cmp_counts(c, &born, &born_b, &freed, &freed_b);
	bb = hm_size(born_b);
	fb = hm_size(freed_b);
	tui_message("since session %lld: %zu born (%s), %zu freed (%s);"
	    " now session %lld%s", (long long)analyze_heapdiff_cmp_against(c), born,
	    bb, freed, fb, (long long)id, gone ? ", the selected object was"
	    " freed" : "");
	free(bb);
	free(fb);
}

/*
 * Whether name is one of stem's snapshots as pvheap names them: stem,
 * then any ".NUMBER" (a process's pid, a snapshot's serial), then ".heap".
 */
static int
hm_snapshot_of(const char *name, const char *stem)
{
	size_t	n = strlen(stem);

	if (strncmp(name, stem, n) != 0)
		return (0);
	name += n;
	while (name[0] == '.' && isdigit((unsigned char)name[1])) {
		name++;
		while (isdigit((unsigned char)*name))
			name++;
	}
	return (strcmp(name, ".heap") == 0);
}

/*
 * A stored snapshot's Update: the newest plain file in the directory of
 * source (the file the session was made from) that pvheap would have
 * named for the same program, newer than source; NULL and *why if none.
 */
static char *
hm_newest(const char *source, char **why)
{
	struct stat	 sb, best;
	struct dirent	*d;
	DIR		*dp;
	const char	*slash = strrchr(source, '/');
	char		*dir, *stem, *e, *path, *found = NULL;
	size_t		 n;

	dir = slash != NULL ? xasprintf("%.*s", (int)(slash - source +
	    (slash == source)), source) : xstrdup(".");
	stem = xstrdup(slash != NULL ? slash + 1 : source);
	/* The stem: without ".heap" and the numbers before it. */
	n = strlen(stem);
	if (n > 5 && strcmp(stem + n - 5, ".heap") == 0)
		stem[n - 5] = '\0';
	while ((e = strrchr(stem, '.')) != NULL && e[1] != '\0' &&
	    strspn(e + 1, "0123456789") == strlen(e + 1))
		*e = '\0';
	if (stat(source, &best) != 0)
		memset(&best, 0, sizeof best);
	if ((dp = opendir(dir)) == NULL) {
		*why = xasprintf("%s: %s", dir, strerror(errno));
		free(dir);
		free(stem);
		return (NULL);
	}
	while ((d = readdir(dp)) != NULL) {
		if (!hm_snapshot_of(d->d_name, stem))
			continue;
		path = xasprintf("%s/%s", dir, d->d_name);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) ||
		    sb.st_mtim.tv_sec < best.st_mtim.tv_sec ||
		    (sb.st_mtim.tv_sec == best.st_mtim.tv_sec &&
		    sb.st_mtim.tv_nsec <= best.st_mtim.tv_nsec)) {
			free(path);
			continue;
		}
		best = sb;
		free(found);
		found = path;
	}
	closedir(dp);
	if (found == NULL)
		*why = xasprintf("no snapshot of %s newer than %s in %s",
		    stem, slash != NULL ? slash + 1 : source, dir);
	free(dir);
	free(stem);
	return (found);
}

/* HeapInspector's Update of a stored snapshot: the newest file beside it. */
static int
hm_update_file(struct tui_view *tv)
{
	struct heapmap		*hm = tv->data;
	struct store_session	 ss;
	char			*file, *cause = NULL;

	if (store_session_get(tui_store(), tv->session, &ss) != 0) {
		tui_message("error: update: session %lld: %s",
		    (long long)tv->session, store_error(tui_store()));
		return (TUI_R_DRAW);
	}
	file = ss.source != NULL ? hm_newest(ss.source, &cause) : NULL;
	if (ss.source == NULL)
		cause = xstrdup("the session names no file");
	store_session_free(&ss);
	if (file == NULL) {
		tui_message("update: %s; session %lld stays", cause,
		    (long long)tv->session);
		free(cause);
		return (TUI_R_DRAW);
	}
	if (hm->live == NULL)
		hm->live = tui_heaplive_new_file();
	if (tui_heaplive_start_file(hm->live, hm->s, tv->session, file,
	    &cause) != 0) {
		tui_message("error: update: %s", cause);
		free(cause);
		free(file);
		return (TUI_R_DRAW);
	}
	tui_message("update: reading %s", file);
	free(file);
	tv->busy = 1;
	return (TUI_R_DRAW);
}

/* Whether heap sessions a and b are snapshots of one run of a program. */
static int
hm_same_run(int64_t a, int64_t b)
{
	struct store_heap	ha, hb;

	if (store_heap_get(tui_store(), a, &ha) != 0 ||
	    store_heap_get(tui_store(), b, &hb) != 0)
		return (0);
	return (ha.pid == hb.pid && ha.started_ns == hb.started_ns &&
	    ha.started_ns != 0);
}

/* Start an update; say why not. */
int
hm_update(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	char		*cause = NULL;

	if (hm->live == NULL || tui_heaplive_socket(hm->live) == NULL)
		return (hm_update_file(tv));
	if (tui_heaplive_start(hm->live, hm->s, tv->session, &cause) != 0) {
		tui_message("%s%s", tui_heaplive_ended(hm->live) ? "" :
		    "error: ", cause);
		free(cause);
		hm_live_arm(tv);
		return (TUI_R_DRAW);
	}
	tui_message("update: taking a snapshot of pid %ld",
	    (long)tui_heaplive_pid(hm->live));
	tv->busy = 1;
	return (TUI_R_DRAW);
}

/*
 * A live map's background work: an update's steps, one due by itself,
 * or a look whether the program is still there.  A deadline of 0
 * cancels an update (the map keeps the snapshot it shows).
 */
int
hm_live_work(struct tui_view *tv, uint64_t deadline)
{
	struct heapmap		*hm = tv->data;
	struct analyze_heapview	*ns;
	struct analyze_heapdiff_cmp	*c;
	const char		*before;
	char			*cause = NULL;
	int64_t			 id = 0;
	uint64_t		 due, a, i, l, d, t0;
	int			 r, other;

	tui_heaplive_tidy(hm->live);
	if (!tui_heaplive_busy(hm->live)) {
		if (deadline == 0)
			return (0);
		due = tui_heaplive_due(hm->live);
		if (due != 0 && tui_now_ns() >= due) {
			hm_update(tv);
			return (tui_heaplive_busy(hm->live));
		}
		if (tui_heaplive_ended(hm->live) && !hm->live_ended) {
			hm->live_ended = 1;
			tui_message("the program (pid %ld) has ended: session"
			    " %lld, its last snapshot, stays",
			    (long)tui_heaplive_pid(hm->live),
			    (long long)tv->session);
		}
		return (0);
	}
	before = tui_heaplive_doing(hm->live);
	r = tui_heaplive_step(hm->live, deadline, &ns, &id, &c, &cause);
	if (r == 1) {
		if (tui_heaplive_doing(hm->live) != before)
			tui_message("update: %s", tui_heaplive_doing(
			    hm->live));
		return (1);
	}
	if (deadline == 0)
		tui_message("update cancelled: the map shows session %lld",
		    (long long)tv->session);
	else if (ns != NULL) {
		tui_heaplive_times(hm->live, &a, &i, &l, &d);
		t0 = tui_now_ns();
		other = tui_heaplive_socket(hm->live) == NULL &&
		    !hm_same_run(tv->session, id);
		/* Another process's addresses: born and freed mean nothing. */
		if (other) {
			analyze_heapdiff_cmp_free(c);
			c = NULL;
		}
		hm_replace(tv, ns, id, c, tui_heaplive_info(hm->live));
		hm->swapped = tui_now_ns();
		/* --keep: the oldest go once the new one is shown. */
		tui_heaplive_prune(hm->live, id);
		if (other)
			tui_message("update: session %lld, another run of the"
			    " program: not compared (its addresses are another"
			    " process's)", (long long)id);
		else if (c == NULL)
			tui_message("error: update: session %lld shown, not"
			    " compared: %s", (long long)id, cause);
		/* For bench/heaplive: the parts of one update. */
		tui_trace("update_us snapshot %llu ingest %llu load %llu"
		    " compare %llu replace %llu", (unsigned long long)a,
		    (unsigned long long)i, (unsigned long long)l,
		    (unsigned long long)d, (unsigned long long)
		    (hm->swapped - t0) / 1000);
	} else if (cause != NULL) {
		if (tui_heaplive_ended(hm->live)) {
			hm->live_ended = 1;
			tui_message("%s: session %lld stays", cause,
			    (long long)tv->session);
		} else
			tui_message("error: update: %s", cause);
	}
	free(cause);
	return (0);
}

int
hm_cmd_update(struct tui_view *tv, const char *args)
{
	struct heapmap	*hm = tv->data;
	char		 w[16], *end;
	double		 secs;

	if (*args == '\0')
		return (hm_update(tv));
	if (hm->live == NULL || tui_heaplive_socket(hm->live) == NULL) {
		tui_message("error: :update %s: updates by themselves need a"
		    " live program (profview --attach)", args);
		return (TUI_R_DRAW);
	}
	if (!hm_word(&args, w, sizeof w) || (strcasecmp(w, "off") == 0 &&
	    *args != '\0') || (strcasecmp(w, "every") != 0 &&
	    strcasecmp(w, "off") != 0)) {
		tui_message("error: usage: :update [every SECS|off]");
		return (TUI_R_DRAW);
	}
	if (strcasecmp(w, "off") == 0 || strcasecmp(args, "off") == 0) {
		tui_heaplive_every(hm->live, 0);
		tui_message("updates only when asked (u, :update)");
		hm_live_arm(tv);
		return (TUI_R_DRAW);
	}
	secs = strtod(args, &end);
	if (end == args || *end != '\0' || !(secs >= 0.1) ||
	    secs > 86400) {
		tui_message("error: :update every SECS: seconds, 0.1 to"
		    " 86400");
		return (TUI_R_DRAW);
	}
	tui_heaplive_every(hm->live, secs);
	tui_message("an update every %g s", secs);
	hm_live_arm(tv);
	return (TUI_R_DRAW);
}

/* Session id's loaded modules' paths (their count in *n), or NULL. */
static char **
hm_modules_of(int64_t id, size_t *n)
{
	struct store_cursor	*c;
	struct store_heap_module m;
	char			**v = NULL;
	int			 rc;

	*n = 0;
	if ((c = store_heap_modules(tui_store(), id)) == NULL)
		return (NULL);
	while ((rc = store_heap_module_next(c, &m)) == 1) {
		if (m.unloaded)
			continue;
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = xstrdup(m.path != NULL ? m.path : "?");
	}
	store_cursor_close(c);
	return (v);
}

/* The names in a not in b, after what, as "+name" or "-name". */
static char *
hm_modules_diff(char *what, char **a, size_t na, char **b, size_t nb,
    char sign, size_t *count)
{
	const char	*base;
	char		*t;
	size_t		 i, j;

	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && strcmp(a[i], b[j]) != 0; j++)
			/* nothing */;
		if (j < nb)
			continue;
		base = strrchr(a[i], '/') != NULL ? strrchr(a[i], '/') + 1 :
		    a[i];
		t = xasprintf("%s %c%s", what, sign, base);
		free(what);
		what = t;
		(*count)++;
	}
	return (what);
}

/*
 * HeapInspector's UpdateModules: the loaded modules of this snapshot
 * (a snapshot lists them; :update takes a new one), and those loaded or
 * unloaded since the run's snapshot before it.
 */
int
hm_cmd_updatemodules(struct tui_view *tv)
{
	struct store_heap	 h;
	char			**now, **was, *what = xstrdup("");
	size_t			 nnow, nwas = 0, i, changed = 0;
	int64_t			 prev;

	if (tv->session == 0 || store_heap_get(tui_store(), tv->session,
	    &h) != 0) {
		tui_message("error: :updatemodules needs a stored snapshot");
		free(what);
		return (TUI_R_DRAW);
	}
	now = hm_modules_of(tv->session, &nnow);
	prev = store_heap_previous(tui_store(), tv->session);
	if (prev <= 0)
		tui_message("%zu modules loaded in session %lld; no earlier"
		    " snapshot of this run (pid %lld) to compare", nnow,
		    (long long)tv->session, (long long)h.pid);
	else {
		was = hm_modules_of(prev, &nwas);
		what = hm_modules_diff(what, now, nnow, was, nwas, '+',
		    &changed);
		what = hm_modules_diff(what, was, nwas, now, nnow, '-',
		    &changed);
		if (changed == 0)
			tui_message("%zu modules loaded in session %lld, as in"
			    " session %lld", nnow, (long long)tv->session,
			    (long long)prev);
		else
			tui_message("%zu modules loaded in session %lld; since"
			    " session %lld:%s", nnow, (long long)tv->session,
			    (long long)prev, what);
		for (i = 0; i < nwas; i++)
			free(was[i]);
		free(was);
	}
	for (i = 0; i < nnow; i++)
		free(now[i]);
	free(now);
	free(what);
	return (TUI_R_DRAW);
}

int
hm_cmd_remain(struct heapmap *hm, const char *args)
{
	if (strcasecmp(args, "on") != 0 && strcasecmp(args, "off") != 0) {
		tui_message("error: usage: :remain on|off");
		return (TUI_R_DRAW);
	}
	analyze_heapdiff_remain_free(hm->remain_base);
	hm->remain_base = NULL;
	hm->remain = strcasecmp(args, "on") == 0;
	if (hm->remain)
		hm->remain_base = analyze_heapdiff_remain_new(hm->s);
	hm_remain_apply(hm);
	hm->dirty = 1;
	if (hm->remain)
		tui_message("remain on: only the %zu objects there now are"
		    " shown, after updates too", hm->s->nblocks);
	else
		tui_message("remain off: every object is shown");
	return (TUI_R_DRAW);
}

/* On the loader's thread: the snapshot read, compared with the shown. */
static void
hm_compare_after(void *arg, struct analyze_heapview *other)
{
	struct hm_compare	*hc = arg;

	hc->cmp = analyze_heapdiff_cmp_new(other, hc->id, hc->shown, &hc->cause);
}

/* Give up a :compare under way (Esc, ^C, an update, the view closing). */
void
hm_compare_stop(struct heapmap *hm)
{
	struct hm_compare	*hc = hm->comparing;

	if (hc == NULL)
		return;
	if (hc->load != NULL)
		tui_heapload_stop(hc->load);
	analyze_heapview_free(hc->other);
	free(hc->other);
	analyze_heapdiff_cmp_free(hc->cmp);
	free(hc->cause);
	free(hc);
	hm->comparing = NULL;
}

/* A slice of :compare: 1 while it loads, 0 once shown (or failed). */
int
hm_compare_work(struct heapmap *hm, uint64_t deadline)
{
	struct hm_compare	*hc = hm->comparing;
	struct analyze_heapdiff_cmp	*c;
	char			*cause, *bb, *fb;
	uint64_t		 rows, total, born_b, freed_b;
	size_t			 born, freed;

	if (tui_heapload_wait(hc->load, deadline)) {
		tui_heapload_progress(hc->load, &rows, &total);
		tui_message("comparing with session %lld: %llu of %llu rows"
		    " read (Esc cancels)", (long long)hc->id,
		    (unsigned long long)rows, (unsigned long long)total);
		return (1);
	}
	if (tui_heapload_end(hc->load, &cause) != 0 || hc->cmp == NULL) {
		hc->load = NULL;
		tui_message("error: %s", cause != NULL ? cause : hc->cause);
		free(cause);
		hm_compare_stop(hm);
		return (0);
	}
	hc->load = NULL;
	c = hc->cmp;
	hc->cmp = NULL;
	analyze_heapdiff_cmp_free(hm->cmp);
	hm->cmp = c;
	hm->dirty = 1;
	analyze_heapdiff_cmp_counts(c, &born, &born_b, &freed, &freed_b);
	bb = hm_size(born_b);
	fb = hm_size(freed_b);
	tui_message("since session %lld: %zu born (%s), %zu freed (%s), in"
	    " %llu ms", (long long)hc->id, born, bb, freed, fb,
	    (unsigned long long)(tui_now_ns() - hc->t0) / 1000000);
	free(bb);
	free(fb);
	hm_compare_stop(hm);
	return (0);
}

/*
 * :compare [ID|off]: born and freed since session ID, an earlier
 * snapshot of the same run (by default the one before this one).
 */
int
hm_cmd_compare(struct tui_view *tv, const char *args)
{
	struct heapmap		*hm = tv->data;
	struct hm_compare	*hc;
	char			*end;
	long long		 id;
	struct store_heap	 h, o;

	if (strcasecmp(args, "off") == 0) {
		hm_compare_stop(hm);
		analyze_heapdiff_cmp_free(hm->cmp);
		hm->cmp = NULL;
		hm->dirty = 1;
		tui_message("compare off: no born or freed objects shown");
		return (TUI_R_DRAW);
	}
	if (tv->session == 0 || store_heap_get(tui_store(), tv->session,
	    &h) != 0) {
		tui_message("error: :compare needs a stored heap session");
		return (TUI_R_DRAW);
	}
	if (*args == '\0') {
		id = store_heap_previous(tui_store(), tv->session);
		if (id <= 0) {
			tui_message("error: no earlier snapshot of this run"
			    " (pid %lld) is stored", (long long)h.pid);
			return (TUI_R_DRAW);
		}
	} else {
		id = strtoll(args, &end, 10);
		if (*end != '\0' || id <= 0) {
			tui_message("error: usage: :compare [ID|off]");
			return (TUI_R_DRAW);
		}
	}
	if (store_heap_get(tui_store(), id, &o) != 0) {
		tui_message("error: session %lld is not a heap snapshot", id);
		return (TUI_R_DRAW);
	}
	if (o.pid != h.pid || o.started_ns != h.started_ns ||
	    h.started_ns == 0) {
		tui_message("error: session %lld is not of this run (pid %lld"
		    " started at %lld): its blocks' numbers mean other"
		    " things", id, (long long)h.pid, (long long)h.started_ns);
		return (TUI_R_DRAW);
	}
	if (o.time_ns > h.time_ns) {
		tui_message("error: session %lld was taken after this one:"
		    " open it (:open %lld) and compare with %lld", id, id,
		    (long long)tv->session);
		return (TUI_R_DRAW);
	}
	/* Read and compared on a thread; hm_work shows it when done. */
	hm_compare_stop(hm);
	hc = xcalloc(1, sizeof *hc);
	hc->other = xcalloc(1, sizeof *hc->other);
	hc->shown = hm->s;
	hc->id = id;
	hc->t0 = tui_now_ns();
	hm->comparing = hc;
	hc->load = tui_heapload_start(id, hc->other, 0, hm_compare_after,
	    hc);
	tv->busy = 1;
	tui_message("comparing with session %lld (Esc cancels)", id);
	return (TUI_R_DRAW);
}
