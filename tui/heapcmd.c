/*
 * The heap map's : commands, HeapInspector's (ZoomOut, Move, SetMapTo,
 * Show, Select, HeapMarkObjects as :mark, TestUnloadModules ...), and
 * Tab's candidates for their arguments; a live map's are heapupdate.c's.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "report/report.h"
#include "tui/tui.h"
#include "tui/heap.h"

/*
 * The map's commands, HeapInspector's names: they go to hm_command and
 * hm_complete (the view's ops), so the table has neither handler.
 */
const struct tui_command hm_commands[] = {
	TUI_COMMAND("zoomout", NULL, "[N%]", NULL, NULL,
	    "heap map: the whole heap in view, or zoom out by N %"),
	TUI_COMMAND("move", NULL, "up|down|left|right [N]", NULL, NULL,
	    "heap map: N rows, or the start N cells (a quarter, a sixth)"),
	TUI_COMMAND("setmapto", NULL, "bottom|top|center|ADDR", NULL, NULL,
	    "heap map: the heap's start, end, middle, or ADDR in the middle"),
	TUI_COMMAND("startmapat", NULL, "ADDR", NULL, NULL,
	    "heap map: start the map at ADDR, zooming in if it must"),
	TUI_COMMAND("resizemap", NULL, "double|half", NULL, NULL,
	    "heap map: twice or half the map's height"),
	TUI_COMMAND("show", NULL, "WHAT", NULL, NULL,
	    "heap map: turn a bitmap or list on or off (Tab lists them)"),
	TUI_COMMAND("select", NULL,
	    "off|trace|onlyanchoredby|object|typedescriptor|module ...",
	    NULL, NULL,
	    "heap map: select objects by root or string, a type's vtables or"
	    " a module's data, or their instances"),
	TUI_COMMAND("mark", NULL, "[SPEC...]", NULL, NULL,
	    "heap map: colour the objects of up to 8 Module.Type* (or"
	    " site:FUNCTION) specs"),
	TUI_COMMAND("heapmap", NULL, "[nosplash] [ROWS] [SPEC...]", NULL,
	    NULL, "heap map: anew, the whole heap in at most ROWS rows, the"
	    " specs its marks"),
	TUI_COMMAND("testunload", NULL, "[MODULE...]", NULL, NULL,
	    "heap map: what unloading the modules (and importers) frees"),
	TUI_COMMAND("update", NULL, "[every SECS|off]", NULL, NULL,
	    "heap map: a new snapshot of a live program, or a stored one's"
	    " newest file beside it; or every SECS"),
	TUI_COMMAND("updatemodules", NULL, "", NULL, NULL,
	    "heap map: the snapshot's loaded modules, and those loaded or"
	    " unloaded since the run's one before"),
	TUI_COMMAND("compare", NULL, "[ID|off]", NULL, NULL,
	    "heap map: objects born and freed since session ID of the run"),
	TUI_COMMAND("remain", NULL, "on|off", NULL, NULL,
	    "heap map: only the objects there now, after updates too"),
	TUI_COMMAND("index", NULL, "[N|show|next|previous|reset|using]", NULL,
	    NULL, "heap map: the index a :select trace PATH[index] takes"),
	TUI_COMMAND("store", NULL, "FILE", NULL, NULL,
	    "heap map: the map in view as FILE.ppm, its numbers as"
	    " FILE.json"),
	TUI_COMMAND("status", NULL, "", NULL, NULL,
	    "heap map: the Status table, the map's settings and the heap's"
	    " bytes"),
	TUI_COMMAND("typehierarchy", NULL, "[named|classes|all]", NULL, NULL,
	    "heap map: the DWARF's classes with bases, size, pointers,"
	    " vtable"),
	TUI_COMMAND("objectsbytype", NULL, "[named|classes|all]", NULL, NULL,
	    "heap map: objects by type, only named types or classes"),
	TUI_COMMAND("modulereachabletypes", NULL, "MODULE", NULL, NULL,
	    "heap map: by type, the objects a module's globals reach"),
	TUI_COMMAND("finalizers", NULL, "", NULL, NULL,
	    "heap map: the objects of classes with a destructor"),
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

/* The words of args: "ADDR" or the first word in lower case. */
int
hm_word(const char **args, char *buf, size_t len)
{
	size_t	n;

	*args += strspn(*args, " ");
	n = strcspn(*args, " ");
	if (n == 0)
		return (0);
	snprintf(buf, len, "%.*s", (int)n, *args);
	*args += n;
	*args += strspn(*args, " ");
	return (1);
}

/*
 * Before a type spec with a trailing *: which classes derive from which,
 * read from the store once a snapshot (none in a map of no session).
 */
void
hm_bases(struct heapmap *hm, const char *spec)
{
	if (hm->session != 0 && hm->s->classes == NULL &&
	    strchr(spec, '*') != NULL &&
	    analyze_heapview_bases(tui_store(), hm->session, hm->s) != 0)
		tui_message("error: the classes' bases: %s",
		    store_error(tui_store()));
}

static int
hm_addr(struct heapmap *hm, const char *text, uint64_t *a)
{
	char	*cause = NULL;
	int	 rel;

	if (analyze_heapmap_addr(hm->m, text, a, &rel, &cause) != 0) {
		tui_message("error: %s", cause);
		free(cause);
		return (-1);
	}
	if (rel)
		tui_message("%s: relative to the heap's start, %#llx", text,
		    (unsigned long long)*a);
	return (0);
}

static int
hm_cmd_zoomout(struct heapmap *hm, const char *args)
{
	char		*end, *b;
	double		 pct, was, now;
	uint32_t	 room = hm->room != 0 ? hm->room : hm->v.rows;

	if (*args == '\0') {
		/* HeapInspector's ZoomOut ~: all of it, from its start. */
		hm->zrows = 0;
		hm->v.rows = room;
		hm->v.zoom = analyze_heapmap_fit(hm->m, &hm->v);
		analyze_heapmap_move(hm->m, &hm->v, ANALYZE_HEAPMAP_HOME, 0);
		b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
		tui_message("the whole heap: %s a cell", b);
		free(b);
		hm_follow(hm);
		return (TUI_R_DRAW);
	}
	pct = strtod(args, &end);
	end += strspn(end, " ");
	if (*end == '%')
		end++;
	end += strspn(end, " ");
	if (end == args || *end != '\0' || !(pct > -100)) {
		tui_message("error: usage: :zoomout [N%%] (N above -100)");
		return (TUI_R_DRAW);
	}
	was = (double)hm->v.rows * (double)analyze_heapmap_cell_bytes(
	    hm->v.zoom);
	if (!analyze_heapmap_zoom_by(hm->m, &hm->v, 1 + pct / 100, room)) {
		tui_message("%g%%: the map already shows that (%s)", pct,
		    pct > 0 ? "the whole heap, or no line more" :
		    "no line less");
		return (TUI_R_DRAW);
	}
	hm->zrows = hm->v.rows < room ? hm->v.rows : 0;
	now = (double)hm->v.rows * (double)analyze_heapmap_cell_bytes(
	    hm->v.zoom);
	b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	/* The span comes in whole lines of cells: say what it became. */
	tui_message("zoomed %s %g%%: %s a cell, %u rows, the span %.3g times"
	    " what it was", pct >= 0 ? "out" : "in", pct < 0 ? -pct : pct,
	    b, hm->v.rows, now / was);
	free(b);
	hm_follow(hm);
	return (TUI_R_DRAW);
}

static int
hm_cmd_move(struct heapmap *hm, const char *args)
{
	char		 dir[16], *end;
	long long	 n = -1;
	int		 v;

	if (!hm_word(&args, dir, sizeof dir) || (strcasecmp(dir, "up") != 0 &&
	    strcasecmp(dir, "down") != 0 && strcasecmp(dir, "left") != 0 &&
	    strcasecmp(dir, "right") != 0)) {
		tui_message("error: usage: :move up|down|left|right [N]");
		return (TUI_R_DRAW);
	}
	if (*args != '\0') {
		n = strtoll(args, &end, 10);
		if (*end != '\0' || n < 0) {
			tui_message("error: :move: %s is not a count", args);
			return (TUI_R_DRAW);
		}
	}
	v = strcasecmp(dir, "up") == 0 || strcasecmp(dir, "down") == 0;
	/* HeapInspector's: a quarter of the height, a sixth of the width. */
	if (n < 0)
		n = v ? (hm->v.rows / 4 > 0 ? hm->v.rows / 4 : 1) :
		    (hm->v.cols / 6 > 0 ? hm->v.cols / 6 : 1);
	if (strcasecmp(dir, "up") == 0 || strcasecmp(dir, "left") == 0)
		n = -n;
	hm_move(hm, v ? ANALYZE_HEAPMAP_ROWS : ANALYZE_HEAPMAP_CELLS, n);
	return (TUI_R_DRAW);
}

static int
hm_cmd_setmapto(struct heapmap *hm, const char *args)
{
	uint64_t	a;

	/*
	 * HeapInspector's heap grew up from the bottom: Bottom is its start,
	 * Top its end (unlike Home and End, which go by the screen).
	 */
	if (strcasecmp(args, "bottom") == 0)
		analyze_heapmap_move(hm->m, &hm->v, ANALYZE_HEAPMAP_HOME, 0);
	else if (strcasecmp(args, "top") == 0)
		analyze_heapmap_move(hm->m, &hm->v, ANALYZE_HEAPMAP_END, 0);
	else if (strcasecmp(args, "center") == 0 ||
	    strcasecmp(args, "centre") == 0)
		analyze_heapmap_center(hm->m, &hm->v,
		    analyze_heapmap_middle(hm->m));
	else if (*args == '\0') {
		tui_message("error: usage: :setmapto bottom|top|center|ADDR");
		return (TUI_R_DRAW);
	} else {
		if (hm_addr(hm, args, &a) != 0)
			return (TUI_R_DRAW);
		analyze_heapmap_center(hm->m, &hm->v, a);
		hm->cur = analyze_heapmap_find(hm->m, a);
	}
	hm_follow(hm);
	return (TUI_R_DRAW);
}

static int
hm_cmd_startmapat(struct heapmap *hm, const char *args)
{
	uint64_t	a;
	int		z = hm->v.zoom;
	char		*b;

	if (*args == '\0') {
		tui_message("error: usage: :startmapat ADDR");
		return (TUI_R_DRAW);
	}
	if (hm_addr(hm, args, &a) != 0)
		return (TUI_R_DRAW);
	hm->zrows = 0;
	hm->v.rows = hm->room != 0 ? hm->room : hm->v.rows;
	analyze_heapmap_start_at(hm->m, &hm->v, a);
	if (hm->v.zoom != z) {
		b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
		tui_message("zoomed in to fill the map: %s a cell", b);
		free(b);
	}
	hm->cur = SIZE_MAX;
	hm_follow(hm);
	return (TUI_R_DRAW);
}

static int
hm_cmd_resizemap(struct heapmap *hm, const char *args)
{
	uint32_t	h = hm->maxh != 0 ? hm->maxh : hm->v.rows;

	if (strcasecmp(args, "double") == 0) {
		h *= 2;
		/* As high as the screen gives: no limit kept. */
		if (h >= (uint32_t)LINES * 2)
			h = 0;
	} else if (strcasecmp(args, "half") == 0) {
		h /= 2;
		if (h < HM_MIN_PIXELS)
			h = HM_MIN_PIXELS;
	} else {
		tui_message("error: usage: :resizemap double|half");
		return (TUI_R_DRAW);
	}
	hm->maxh = h;
	if (h == 0)
		tui_message("the map as high as the screen");
	else
		tui_message("the map at most %u rows of cells", h);
	return (TUI_R_DRAW);
}

static const char *hm_show_words = "map collectable notcollectable reachable"
    " reachedfrom reachedfrommodules reachedfromvariables markedonly"
    " objectsizes freezemap moduleless colorizedefaultblocks"
    " defaultblocks";

/*
 * Show ColorizeDefaultBlocks (hide 0) and DefaultBlocks (1): the C
 * library's and the loader's own blocks coloured apart, or not drawn.
 */
static void
hm_show_default(struct heapmap *hm, int hide)
{
	uint8_t		*def = xcalloc_populated(hm->s->nblocks + 1, 1);
	uint64_t	 bytes;
	size_t		 n;

	n = hm_default_blocks(hm, def, &bytes);
	free(def);
	if (hide) {
		hm->hide_default = !hm->hide_default;
		tui_message("DefaultBlocks %s: %zu objects, %llu bytes, that"
		    " libc or ld.so allocated %s", hm->hide_default ? "off" :
		    "on", n, (unsigned long long)bytes, hm->hide_default ?
		    "not drawn" : "drawn");
	} else {
		hm->colorize_default = !hm->colorize_default;
		tui_message("ColorizeDefaultBlocks %s: %zu objects, %llu"
		    " bytes, that libc or ld.so allocated", hm->colorize_default
		    ? "on" : "off", n, (unsigned long long)bytes);
	}
	hm->dirty = 1;
}

/*
 * Show Moduleless: the blocks no module's data reaches marked on the map
 * (the info tables' pick) and their table shown; again, neither.
 */
static void
hm_show_moduleless(struct heapmap *hm)
{
	const char	*name;
	size_t		 n;

	if (tui_heapinfo_picked(hm->hi, &name) != NULL &&
	    strcmp(name, "moduleless") == 0) {
		tui_heapinfo_unpick(hm->hi);
		if (hm->info == HM_INFO_MODULELESS)
			hm->info = HM_INFO_OFF;
		hm->dirty = 1;
		tui_message("Moduleless off");
		return;
	}
	n = tui_heapinfo_moduleless(hm->hi);
	hm->info = HM_INFO_MODULELESS;
	hm->dirty = 1;
	tui_message("Moduleless on: %zu objects no module's data reaches,"
	    " marked", n);
}

static int
hm_cmd_show(struct heapmap *hm, const char *args)
{
	enum hm_info	i;
	char		w[32];
	int		any = 0;

	while (hm_word(&args, w, sizeof w)) {
		any = 1;
		if (strcasecmp(w, "map") == 0)
			hm_toggle(hm, &hm->show_map, "Map", 0);
		else if (strcasecmp(w, "collectable") == 0)
			hm_toggle(hm, &hm->collectable, "Collectable", 0);
		else if (strcasecmp(w, "notcollectable") == 0)
			hm_toggle(hm, &hm->notcollectable, "NotCollectable",
			    0);
		else if (strcasecmp(w, "reachable") == 0)
			hm_toggle(hm, &hm->reachable, "Reachable", 1);
		else if (strcasecmp(w, "reachedfrom") == 0)
			hm_toggle(hm, &hm->reachedfrom, "ReachedFrom", 1);
		else if (strcasecmp(w, "reachedfrommodules") == 0 ||
		    strcasecmp(w, "reachedfromvariables") == 0) {
			i = strcasecmp(w, "reachedfrommodules") == 0 ?
			    HM_INFO_ROOTMODS : HM_INFO_ROOTS;
			hm->info = hm->info == i ? HM_INFO_OFF : i;
			tui_message("%s %s", tui_heapinfo_name(HM_TABLE(i)),
			    hm->info == i ? "shown" : "hidden");
		} else if (strcasecmp(w, "markedonly") == 0)
			hm_toggle(hm, &hm->markedonly, "MarkedOnly", 0);
		else if (strcasecmp(w, "objectsizes") == 0) {
			hm->info = hm->info == HM_INFO_SIZES ? HM_INFO_OFF :
			    HM_INFO_SIZES;
			tui_message("object sizes %s", hm->info ==
			    HM_INFO_SIZES ? "shown" : "hidden");
		} else if (strcasecmp(w, "freezemap") == 0 ||
		    strcasecmp(w, "freeze") == 0) {
			hm->freeze = !hm->freeze;
			hm->dirty = 1;
			tui_message("FreezeMap %s", hm->freeze ? "on" :
			    "off");
		} else if (strcasecmp(w, "moduleless") == 0)
			hm_show_moduleless(hm);
		else if (strcasecmp(w, "colorizedefaultblocks") == 0 ||
		    strcasecmp(w, "defaultblocks") == 0)
			hm_show_default(hm, strcasecmp(w, "defaultblocks") ==
			    0);
		else {
			tui_message("error: :show %s: not one of %s", w,
			    hm_show_words);
			return (TUI_R_DRAW);
		}
	}
	if (!any)
		tui_message("error: usage: :show WHAT (%s)", hm_show_words);
	return (TUI_R_DRAW);
}

/* Blocks whose type is picked in tm[] (a byte per type) into selset. */
static size_t
hm_select_types(struct heapmap *hm, const uint8_t *tm)
{
	size_t	b, n = 0;

	for (b = 0; b < hm->s->nblocks; b++) {
		hm->selset[b] = hm->s->type[b] != HM_SNONE &&
		    tm[hm->s->type[b]];
		n += hm->selset[b];
	}
	return (n);
}

/* A root by name or an object by address: its graph node. */
static int
hm_path(struct heapmap *hm, const char *path, uint32_t *node)
{
	uint32_t	r;
	uint64_t	a;
	size_t		b;
	char		*cause = NULL;
	int		rel, many;

	if ((r = analyze_heapview_root(hm->s, path, &many)) != HM_SNONE) {
		*node = 1 + r;
		return (0);
	}
	if (many) {
		tui_message("error: %s: more than one variable has that name:"
		    " say module:%s, or a C++ one's whole name", path, path);
		return (-1);
	}
	if (analyze_heapmap_addr(hm->m, path, &a, &rel, &cause) == 0 &&
	    (b = analyze_heapmap_find(hm->m, a)) != SIZE_MAX) {
		*node = hm_node(hm, b);
		return (0);
	}
	free(cause);
	tui_message("error: %s: no root of that name (module:variable)"
	    " and no object at that address (fields of a variable need the"
	    " program's DWARF, not in this snapshot)", path);
	return (-1);
}

static const char *hm_select_grammar = ":select = off | showcommands |"
    " trace [MODULE:]VAR{.FIELD|[N|index]} | onlyanchoredby MODULE:VAR|ADDR"
    " | object \"STRING\" [POS] | typedescriptor [MODULE].[TYPE][*] |"
    " module NAME | instances (typedescriptor [MODULE].[TYPE][*] |"
    " module NAME)";

/*
 * The types a typedescriptor spec names into tm[]: [MODULE].[TYPE][*],
 * an empty side any.
 */
static void
hm_spec_types(struct heapmap *hm, const char *args, uint8_t *tm)
{
	const char	*q = args;
	char		*str;
	uint32_t	 m;
	size_t		 i;

	if (*q == '.')
		q++;
	if (q[0] != '\0' && q[strlen(q) - 1] == '.') {
		str = xasprintf("%.*s", (int)strlen(q) - 1, q);
		m = analyze_heapview_module(hm->s, str);
		free(str);
		for (i = 0; i < hm->s->ntypes; i++)
			tm[i] = m != HM_SNONE && hm->s->types[i].module == m;
	} else {
		hm_bases(hm, q);
		analyze_heapview_types(hm->s, q, tm);
	}
}

/* The descriptors' map gone (another :select, a new snapshot). */
void
hm_desc_off(struct heapmap *hm)
{
	if (hm->dm != NULL)
		analyze_heapmap_free(hm->dm);
	free(hm->dm);
	free(hm->daddr);
	free(hm->dsize);
	free(hm->dcells);
	free(hm->desc_label);
	hm->dm = NULL;
	hm->daddr = hm->dsize = NULL;
	hm->dcells = NULL;
	hm->desc_label = NULL;
}

/* Descriptors by address, for the descriptors' map. */
static int
hm_desc_cmp(const void *a, const void *b, void *arg)
{
	const struct analyze_heapview_desc *d = arg;
	uint64_t	 x = d[*(const uint32_t *)a].addr;
	uint64_t	 y = d[*(const uint32_t *)b].addr;

	return (x < y ? -1 : x > y);
}

/* Vtables this far apart or nearer share a region of the map. */
#define HM_DESC_GAP	4096

/*
 * The descriptors' map: the regions holding a chosen descriptor (a data
 * region, or a run of the module's vtables no more than HM_DESC_GAP
 * apart) and every descriptor in them as a block, the chosen selected.
 * The vtables of unknown size are left out (nothing to draw).
 */
static void
hm_desc_map(struct heapmap *hm, const uint8_t *sel, const char *what)
{
	const struct analyze_heapview_desc *d = hm->s->descs;
	struct analyze_heapmap_region	*rg;
	uint32_t			*ord;
	uint8_t				 want;
	size_t				 i, k, n = 0, nr = 0, nb = 0;
	uint64_t			 lo, hi;
	char				*cause = NULL;

	hm_desc_off(hm);
	ord = xreallocarray(NULL, hm->s->ndescs + 1, sizeof *ord);
	for (i = 0; i < hm->s->ndescs; i++) {
		if (d[i].size != 0)
			ord[n++] = (uint32_t)i;
	}
	qsort_r(ord, n, sizeof *ord, hm_desc_cmp, (void *)d);
	rg = xreallocarray(NULL, n + 1, sizeof *rg);
	hm->daddr = xreallocarray(NULL, n + 1, sizeof *hm->daddr);
	hm->dsize = xreallocarray(NULL, n + 1, sizeof *hm->dsize);
	hm->dm = xcalloc(1, sizeof *hm->dm);
	/* A data region alone, or a run of one module's vtables. */
	for (i = 0; i < n; i = k) {
		lo = d[ord[i]].addr;
		hi = lo + d[ord[i]].size;
		want = sel[ord[i]];
		for (k = i + 1; !d[ord[i]].data && k < n &&
		    !d[ord[k]].data && d[ord[k]].module == d[ord[i]].module &&
		    d[ord[k]].addr >= hi && d[ord[k]].addr - hi <=
		    HM_DESC_GAP; k++) {
			hi = d[ord[k]].addr + d[ord[k]].size;
			want |= sel[ord[k]];
		}
		if (!want)
			continue;
		rg[nr].lo = lo & ~(uint64_t)(ANALYZE_HEAPMAP_GRANULE - 1);
		rg[nr].hi = (hi + ANALYZE_HEAPMAP_GRANULE - 1) &
		    ~(uint64_t)(ANALYZE_HEAPMAP_GRANULE - 1);
		rg[nr].name = d[ord[i]].module == HM_SNONE ? NULL :
		    hm->s->modules[d[ord[i]].module].name;
		nr++;
		/* ord's first nb become the blocks' descriptors. */
		for (; i < k; i++) {
			hm->daddr[nb] = d[ord[i]].addr;
			hm->dsize[nb] = d[ord[i]].size;
			ord[nb++] = ord[i];
		}
	}
	if (nr == 0 || analyze_heapmap_build(hm->dm, rg, nr, hm->daddr,
	    hm->dsize, nb, &cause) != 0) {
		free(cause);
		free(hm->dm);
		hm->dm = NULL;
		hm_desc_off(hm);
	} else {
		for (i = 0; i < nb; i++)
			hm->dm->mark[i] = sel[ord[i]] ?
			    ANALYZE_HEAPMAP_SELECTED : ANALYZE_HEAPMAP_PLAIN;
		analyze_heapmap_marks_changed(hm->dm);
		hm->desc_label = xstrdup(what);
	}
	free(rg);
	free(ord);
}

/*
 * HeapInspector's SelectTypedesc and SelectModuleDesc: the descriptor
 * objects themselves, a class's vtable or a module's data, which are not
 * on the heap: the Descriptors table lists them, the message counts them
 * and their bytes, and the descriptors' map below the heap's shows them
 * (no heap object stays selected).
 */
static int
hm_select_descs(struct heapmap *hm, int data, const char *args)
{
	const struct analyze_heapview_desc *d;
	uint8_t		*sel;
	uint32_t	 m = HM_SNONE;
	uint64_t	 bytes = 0;
	size_t		 i, n = 0, unknown = 0;
	char		*what, *b;

	if (*args == '\0') {
		tui_message("error: :select %s", data ? "module NAME" :
		    "typedescriptor [MODULE].[TYPE][*]");
		return (TUI_R_DRAW);
	}
	if (data && (m = analyze_heapview_module(hm->s, args)) == HM_SNONE) {
		tui_message("error: no module %s", args);
		return (TUI_R_DRAW);
	}
	if (hm->session == 0) {
		tui_message("error: the descriptors are not known: this map is"
		    " not of a stored session");
		return (TUI_R_DRAW);
	}
	if (analyze_heapview_descs(tui_store(), hm->session, hm->s) != 0) {
		tui_message("error: the descriptors: %s",
		    store_error(tui_store()));
		return (TUI_R_DRAW);
	}
	sel = xcalloc(hm->s->ndescs + 1, 1);
	if (!data) {
		hm_bases(hm, args);
		analyze_heapview_vtables(hm->s, args, sel);
	}
	for (i = 0; i < hm->s->ndescs; i++) {
		d = &hm->s->descs[i];
		if (data)
			sel[i] = d->data && d->module == m;
		if (!sel[i])
			continue;
		n++;
		bytes += d->size;
		unknown += d->size == 0;
	}
	b = hm_size(bytes);
	what = xasprintf("%zu %s (%s%s%s): %s %s", n, data ?
	    "moduledescriptors" : "typedescriptors", b, unknown == 0 ? "" :
	    unknown == n ? "; sizes not known" : "; some sizes not known",
	    unknown == 0 ? "" : ": ingested before vtable sizes were read,"
	    " or the module is gone", data ? "module" : "type", data ?
	    hm->s->modules[m].name : args);
	free(b);
	tui_heapinfo_descs(hm->hi, sel, what);
	hm_desc_map(hm, sel, what);
	free(sel);
	hm->info = (enum hm_info)(1 + TUI_HI_DESCS);
	if (n == 0 && !data)
		tui_message("selected no typedescriptor: %s (the vtables are"
		    " those of the modules' symbol tables ingest read, or of"
		    " live objects' classes)", args);
	else
		tui_message("selected %s", what);
	free(what);
	return (TUI_R_DRAW);
}

static int
hm_cmd_select(struct heapmap *hm, const char *args)
{
	const struct analyze_heap	*g = &hm->s->graph;
	struct analyze_heapview_hit	*hits;
	uint8_t				*tm, *mark;
	uint32_t			 node, m, base = 1 + hm->s->nroots;
	size_t				 n = 0, b, i;
	char				 w[32], *str, *end, *what;
	const char			*q;
	long long			 pos = 0;
	int				 rc = 1, instances = 0;

	if (!hm_word(&args, w, sizeof w)) {
		tui_message("error: usage: :select off|trace PATH|"
		    "onlyanchoredby PATH|object \"STRING\" [POS]|"
		    "typedescriptor [MODULE].[TYPE]|module NAME|"
		    "instances ...");
		return (TUI_R_DRAW);
	}
	/* The descriptors' words alone; after instances, their objects. */
	if (strcasecmp(w, "instances") == 0) {
		instances = 1;
		if (!hm_word(&args, w, sizeof w) ||
		    (strcasecmp(w, "typedescriptor") != 0 &&
		    strcasecmp(w, "module") != 0 &&
		    strcasecmp(w, "moduledescriptor") != 0)) {
			tui_message("error: :select instances typedescriptor"
			    " SPEC|module NAME");
			return (TUI_R_DRAW);
		}
	}
	if (strcasecmp(w, "moduledescriptor") == 0)
		snprintf(w, sizeof w, "module");
	/* HeapInspector's Select ShowCommands: the grammar; nothing changes. */
	if (strcasecmp(w, "showcommands") == 0) {
		tui_message("%s", hm_select_grammar);
		return (TUI_R_DRAW);
	}
	if (hm->walking == HM_WALK_ANCHORED)
		hm_walk_abort(hm);
	memset(hm->selset, 0, hm->s->nblocks);
	free(hm->selwhat);
	hm->selwhat = NULL;
	hm->nselset = 0;
	hm->dirty = 1;
	hm_desc_off(hm);
	if (strcasecmp(w, "off") == 0) {
		tui_message("selection off");
		return (TUI_R_DRAW);
	}
	if (!instances && (strcasecmp(w, "typedescriptor") == 0 ||
	    strcasecmp(w, "module") == 0))
		return (hm_select_descs(hm, strcasecmp(w, "module") == 0,
		    args));
	/* A path through the snapshot's DWARF: where it ends points. */
	if (strcasecmp(w, "trace") == 0 && *args != '\0' && hm->session != 0 &&
	    (rc = analyze_heapview_trace(tui_store(), hm->session, hm->s,
	    args, &hits, &n, &str)) <= 0) {
		if (rc < 0) {
			tui_message("error: %s", str);
			free(str);
			return (TUI_R_DRAW);
		}
		for (i = 0; i < n; i++)
			hm->selset[hits[i].block] = 1;
		/* A pointer: its value, as HeapInspector's Trace showed it. */
		if (n == 1)
			what = xasprintf("trace %s = %#llx", args,
			    (unsigned long long)(hm->s->addr[hits[0].block] +
			    hits[0].into));
		else
			what = xasprintf("trace %s", args);
		free(hits);
		for (b = n = 0; b < hm->s->nblocks; b++)
			n += hm->selset[b];
	} else if (strcasecmp(w, "trace") == 0 ||
	    strcasecmp(w, "onlyanchoredby") == 0) {
		if (*args == '\0' || hm_path(hm, args, &node) != 0) {
			if (*args == '\0')
				tui_message("error: :select %s PATH", w);
			return (TUI_R_DRAW);
		}
		mark = xcalloc_populated(g->nnodes + 1, 1);
		if (strcasecmp(w, "onlyanchoredby") == 0) {
			/* A search over the graph: in steps if it is long. */
			hm_walk_abort(hm);
			analyze_heap_anchored_begin(&hm->walk, g, node, mark);
			hm->walk_mark = mark;
			hm->walk_node = node;
			hm->walk_what = xasprintf("only anchored by %s", args);
			hm_walk_start(hm, HM_WALK_ANCHORED, SIZE_MAX);
			return (TUI_R_DRAW);
		}
		/* trace: what the root or object points to. */
		if (node >= base)
			mark[node] = 1;
		else
			for (i = g->out_off[node]; i < g->out_off[node + 1];
			    i++)
				mark[g->out[i] & 0x7fffffffu] = 1;
		for (b = 0; b < hm->s->nblocks; b++) {
			hm->selset[b] = mark[base + b];
			n += hm->selset[b];
		}
		free(mark);
		what = xasprintf("trace %s", args);
	} else if (strcasecmp(w, "object") == 0) {
		q = args;
		if (*q != '"' || (end = strchr(q + 1, '"')) == NULL) {
			tui_message("error: :select object \"STRING\" [POS]");
			return (TUI_R_DRAW);
		}
		str = xasprintf("%.*s", (int)(end - q - 1), q + 1);
		q = end + 1 + strspn(end + 1, " ");
		if (*q != '\0') {
			pos = strtoll(q, &end, 0);
			if (*end != '\0' || pos < 0) {
				free(str);
				tui_message("error: :select object: %s is not"
				    " a position", q);
				return (TUI_R_DRAW);
			}
		}
		if (hm->s->data_off == NULL) {
			free(str);
			tui_message("error: this snapshot kept no contents"
			    " (pvheap --contents)");
			return (TUI_R_DRAW);
		}
		n = analyze_heapview_find(hm->s, str, strlen(str),
		    (uint64_t)pos, hm->selset);
		what = xasprintf("\"%s\" at %lld", str, pos);
		free(str);
	} else if (strcasecmp(w, "typedescriptor") == 0) {
		tm = xcalloc(hm->s->ntypes + 1, 1);
		hm_spec_types(hm, args, tm);
		n = hm_select_types(hm, tm);
		free(tm);
		what = xasprintf("type %s", args);
	} else if (strcasecmp(w, "module") == 0) {
		if ((m = analyze_heapview_module(hm->s, args)) == HM_SNONE) {
			tui_message("error: no module %s", args);
			return (TUI_R_DRAW);
		}
		tm = xcalloc(hm->s->ntypes + 1, 1);
		for (i = 0; i < hm->s->ntypes; i++)
			tm[i] = hm->s->types[i].module == m;
		n = hm_select_types(hm, tm);
		free(tm);
		what = xasprintf("module %s", hm->s->modules[m].name);
	} else {
		tui_message("error: :select %s: not off, trace,"
		    " onlyanchoredby, object, typedescriptor, module or"
		    " instances", w);
		return (TUI_R_DRAW);
	}
	hm->nselset = n;
	hm->selwhat = what;
	tui_message("selected %zu objects: %s", n, what);
	return (TUI_R_DRAW);
}

/* path with each "[index]" (any case) as "[N]", N the index. */
static char *
hm_index_sub(const char *path, long long index)
{
	char	*out = xstrdup(""), *t;
	size_t	 k = strlen("[index]");

	while (*path != '\0') {
		if (strncasecmp(path, "[index]", k) == 0) {
			t = xasprintf("%s[%lld]", out, index);
			path += k;
		} else
			t = xasprintf("%s%c", out, *path++);
		free(out);
		out = t;
	}
	return (out);
}

/*
 * :select, with HeapInspector's index variable: a trace path's [index] is
 * :index's number, and the path is kept to run again when it changes;
 * any other selection forgets it.
 */
static int
hm_cmd_select_index(struct heapmap *hm, const char *args)
{
	const char	*p = args;
	char		 w[32], *sub, *full;
	int		 rc;

	if (!hm_word(&p, w, sizeof w) || strcasecmp(w, "trace") != 0 ||
	    strcasestr(p, "[index]") == NULL) {
		if (strcasecmp(args, "showcommands") != 0) {
			free(hm->index_path);
			hm->index_path = NULL;
		}
		return (hm_cmd_select(hm, args));
	}
	free(hm->index_path);
	hm->index_path = xstrdup(p);
	sub = hm_index_sub(p, hm->index);
	full = xasprintf("trace %s", sub);
	rc = hm_cmd_select(hm, full);
	free(full);
	free(sub);
	return (rc);
}

/*
 * HeapInspector's Index: N, show, next, previous, reset or using; a
 * change runs the trace that uses it again.
 */
static int
hm_cmd_index(struct heapmap *hm, const char *args)
{
	long long	 n = hm->index;
	char		*end, *full;
	int		 rc;

	if (*args == '\0' || strcasecmp(args, "show") == 0) {
		tui_message("index %lld", hm->index);
		return (TUI_R_DRAW);
	}
	if (strcasecmp(args, "using") == 0) {
		if (hm->index_path != NULL)
			tui_message("index %lld, used by :select trace %s",
			    hm->index, hm->index_path);
		else
			tui_message("index %lld; no selection uses it (:select"
			    " trace PATH[index])", hm->index);
		return (TUI_R_DRAW);
	}
	if (strcasecmp(args, "next") == 0)
		n++;
	else if (strcasecmp(args, "previous") == 0)
		n--;
	else if (strcasecmp(args, "reset") == 0)
		n = 0;
	else {
		n = strtoll(args, &end, 0);
		if (*end != '\0' || end == args) {
			tui_message("error: usage: :index [N|show|next|"
			    "previous|reset|using]");
			return (TUI_R_DRAW);
		}
	}
	if (n < 0) {
		tui_message("error: the index cannot go below 0");
		return (TUI_R_DRAW);
	}
	hm->index = n;
	if (hm->index_path == NULL) {
		tui_message("index %lld", n);
		return (TUI_R_DRAW);
	}
	if (!hm_graph(hm, ":index"))
		return (TUI_R_DRAW);
	full = xasprintf("trace %s", hm->index_path);
	rc = hm_cmd_select_index(hm, full);
	free(full);
	return (rc);
}

static int
hm_cmd_mark(struct heapmap *hm, const char *args)
{
	uint8_t	*tm;
	char	 w[256];
	size_t	 i, k, n[HM_MAX_SPECS];
	char	*msg, *t;

	for (k = 0; k < hm->nspecs; k++)
		free(hm->specs[k]);
	hm->nspecs = 0;
	memset(hm->typemark, 0, hm->s->ntypes);
	hm->dirty = 1;
	tm = xcalloc(hm->s->ntypes + 1, 1);
	while (hm_word(&args, w, sizeof w)) {
		if (hm->nspecs == HM_MAX_SPECS) {
			tui_message("error: at most %d marks"
			    " (HeapInspector had 5)", HM_MAX_SPECS);
			free(tm);
			return (TUI_R_DRAW);
		}
		hm_bases(hm, w);
		n[hm->nspecs] = analyze_heapview_types(hm->s, w, tm);
		/* An earlier spec keeps the types it took. */
		for (i = 0; i < hm->s->ntypes; i++) {
			if (tm[i] && hm->typemark[i] == 0)
				hm->typemark[i] = (uint8_t)(hm->nspecs + 1);
		}
		hm->specs[hm->nspecs++] = xstrdup(w);
	}
	free(tm);
	if (hm->nspecs == 0) {
		tui_message("marks off");
		return (TUI_R_DRAW);
	}
	msg = xstrdup("marked");
	for (k = 0; k < hm->nspecs; k++) {
		t = xasprintf("%s %s (%zu type%s)", msg, hm->specs[k], n[k],
		    n[k] == 1 ? "" : "s");
		free(msg);
		msg = t;
	}
	tui_message("%s", msg);
	free(msg);
	return (TUI_R_DRAW);
}

/*
 * HeapInspector's HeapMap ["NoSplash"] [Number] {TypeSpecification}: the
 * map anew, the whole heap, at most ROWS rows of cells (the screen's
 * without), the specs its only marks.  NoSplash is taken and changes
 * nothing: the map has no splash to leave out.
 */
static int
hm_cmd_heapmap(struct heapmap *hm, const char *args)
{
	char		 w[32], *end;
	const char	*p = args;
	long		 h = 0;

	if (hm_word(&p, w, sizeof w) && strcasecmp(w, "nosplash") == 0)
		args = p;
	p = args;
	if (hm_word(&p, w, sizeof w) && isdigit((unsigned char)w[0])) {
		h = strtol(w, &end, 10);
		if (*end != '\0' || h < 2 || h > 65536) {
			tui_message("error: :heapmap: %s rows: 2 to 65536", w);
			return (TUI_R_DRAW);
		}
		args = p;
	}
	hm->maxh = (uint32_t)h;
	hm->zrows = 0;
	hm->fit = 1;
	return (hm_cmd_mark(hm, args));
}

static int
hm_cmd_testunload(struct heapmap *hm, const char *args)
{
	uint8_t		*drop;
	uint32_t	 m;
	size_t		 i, nu = 0, len;
	char		 w[256];
	int		 star;

	memset(hm->lost, 0, hm->s->graph.nnodes);
	memset(hm->unloaded, 0, hm->s->nmodules);
	hm->nlost = 0;
	hm->dirty = 1;
	tui_heapinfo_unload(hm->hi, NULL, NULL);
	if (*args == '\0') {
		tui_message("test unload off");
		return (TUI_R_DRAW);
	}
	drop = xcalloc(hm->s->nmodules + 1, 1);
	while (hm_word(&args, w, sizeof w)) {
		len = strlen(w);
		if ((star = len > 1 && w[len - 1] == '*'))
			w[len - 1] = '\0';
		if ((m = analyze_heapview_module(hm->s, w)) == HM_SNONE) {
			tui_message("error: no module %s", w);
			free(drop);
			return (TUI_R_DRAW);
		}
		drop[m] = 1;
		/* M*: as System.Free M*, with what only M needed. */
		if (star)
			tui_heapinfo_freed(hm->hi, m, drop);
	}
	hm->nlost = analyze_heapview_unload(hm->s, drop, hm->unloaded,
	    hm->lost);
	tui_heapinfo_unload(hm->hi, drop, hm->unloaded);
	for (i = 0; i < hm->s->nmodules; i++)
		nu += hm->unloaded[i];
	free(drop);
	tui_message("test unload of %zu module%s (importers too): %zu"
	    " objects freed", nu, nu == 1 ? "" : "s", hm->nlost);
	return (TUI_R_DRAW);
}

/* HeapInspector's Store: FILE.ppm and FILE.json (a .ppm named is FILE). */
static int
hm_cmd_store(struct heapmap *hm, const char *args)
{
	char	*base, *cause = NULL;
	size_t	 n = strlen(args);

	if (n == 0) {
		tui_message("error: usage: :store FILE (FILE.ppm, FILE.json)");
		return (TUI_R_DRAW);
	}
	if (n > 4 && strcmp(args + n - 4, ".ppm") == 0)
		n -= 4;
	base = xasprintf("%.*s", (int)n, args);
	if (hm_store(hm, base, &cause) != 0) {
		tui_message("error: :store: %s", cause);
		free(cause);
	} else
		tui_message("stored %s.ppm (%u x %u cells) and %s.json", base,
		    hm->v.cols, hm->v.rows, base);
	free(base);
	return (TUI_R_DRAW);
}

/* A Status row: its name and value, the value made by printf. */
static void __attribute__((format(printf, 5, 6)))
hm_status_add(char ***name, char ***value, size_t *n, const char *what,
    const char *fmt, ...)
{
	va_list	ap;

	*name = xreallocarray(*name, *n + 1, sizeof **name);
	*value = xreallocarray(*value, *n + 1, sizeof **value);
	(*name)[*n] = xstrdup(what);
	va_start(ap, fmt);
	(*value)[*n] = xvasprintf(fmt, ap);
	va_end(ap);
	(*n)++;
}

#define HM_ONOFF(x)	((x) ? "on" : "off")

/*
 * HeapInspector.Status: the map's settings and the heap's numbers, the
 * Status table's rows.  The seed's Remain is a mode (only the objects
 * there when it was turned on); beside it, what remains for new
 * objects: the heap regions' bytes no object covers, which in glibc's
 * heaps are its free chunks and top (the snapshot has no free lists,
 * so "free" is this, chunk headers apart).
 */
void
hm_status_rows(struct heapmap *hm)
{
	const struct analyze_heapview	*s = hm->s;
	const struct analyze_heapinfo	*nb = tui_heapinfo_numbers(hm->hi);
	char				**name = NULL, **value = NULL, *cell;
	uint64_t			 rbytes = 0, asked = 0, usable = 0;
	size_t				 i, n = 0, hidden = 0;
	int				 k;

	for (i = 0; i < s->map.nregions; i++)
		rbytes += s->map.regions[i].hi - s->map.regions[i].lo;
	for (i = 0; i < s->nblocks; i++) {
		asked += s->size[i];
		usable += s->usable[i];
		hidden += hm->hidden != NULL && hm->hidden[i];
	}
	if (hm->live != NULL)
		hm_status_add(&name, &value, &n, "snapshot", "live: pid %ld"
		    " (%s)", (long)tui_heaplive_pid(hm->live), s->program);
	else
		hm_status_add(&name, &value, &n, "snapshot", "session %lld"
		    " (%s)", (long long)hm->session, s->program);
	hm_status_add(&name, &value, &n, "heap regions", "%zu, %llu bytes",
	    s->map.nregions, (unsigned long long)rbytes);
	hm_status_add(&name, &value, &n, "objects", "%zu, %llu bytes asked"
	    " for, %llu usable", s->nblocks, (unsigned long long)asked,
	    (unsigned long long)usable);
	if (nb != NULL) {
		hm_status_add(&name, &value, &n, "remain free", "%llu bytes"
		    " in %zu gaps between objects: the allocator's free"
		    " chunks and top", (unsigned long long)nb->gap_total,
		    nb->ngaps);
		hm_status_add(&name, &value, &n, "chunk headers", "%llu bytes"
		    " in gaps of %d bytes or less", (unsigned long long)
		    nb->gap_small, ANALYZE_HEAPMAP_GRANULE);
	}
	for (k = ANALYZE_HEAP_REACHABLE; s->graph_ready &&
	    k < ANALYZE_HEAP_NSTATES; k++)
		hm_status_add(&name, &value, &n, hm_state_name(k), "%llu"
		    " objects, %llu bytes", (unsigned long long)
		    s->graph.counts[k], (unsigned long long)s->graph.bytes[k]);
	if (hm->remain)
		hm_status_add(&name, &value, &n, "Remain", "on: %zu objects"
		    " born since hidden", hidden);
	else
		hm_status_add(&name, &value, &n, "Remain", "off");
	cell = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	hm_status_add(&name, &value, &n, "zoom", "%s a cell, %s", cell,
	    hm->halves ? "half blocks" : "a character a cell");
	free(cell);
	if (hm->maxh != 0)
		hm_status_add(&name, &value, &n, "map height", "at most %u"
		    " rows", hm->maxh);
	else
		hm_status_add(&name, &value, &n, "map height", "the screen's");
	hm_status_add(&name, &value, &n, "Map", "%s", HM_ONOFF(hm->show_map));
	hm_status_add(&name, &value, &n, "Collectable", "%s",
	    HM_ONOFF(hm->collectable));
	hm_status_add(&name, &value, &n, "NotCollectable", "%s",
	    HM_ONOFF(hm->notcollectable));
	hm_status_add(&name, &value, &n, "Reachable", "%s",
	    HM_ONOFF(hm->reachable));
	hm_status_add(&name, &value, &n, "ReachedFrom", "%s",
	    HM_ONOFF(hm->reachedfrom));
	hm_status_add(&name, &value, &n, "MarkedOnly", "%s",
	    HM_ONOFF(hm->markedonly));
	hm_status_add(&name, &value, &n, "FreezeMap", "%s",
	    HM_ONOFF(hm->freeze));
	hm_status_add(&name, &value, &n, "marks", "%zu specs", hm->nspecs);
	hm_status_add(&name, &value, &n, "selection", "%s", hm->selwhat !=
	    NULL ? hm->selwhat : "none");
	hm_status_add(&name, &value, &n, "index", "%lld", hm->index);
	hm_status_add(&name, &value, &n, "test unload", "%zu objects freed",
	    hm->nlost);
	tui_heapinfo_status(hm->hi, name, value, n);
}

/* Status: the table in the info pane (again: hidden). */
static int
hm_cmd_status(struct heapmap *hm)
{
	hm->info = hm->info == HM_INFO_STATUS ? HM_INFO_OFF : HM_INFO_STATUS;
	tui_message("Status %s", hm->info == HM_INFO_STATUS ? "shown" :
	    "hidden");
	return (TUI_R_DRAW);
}

/* ObjectsByType's and TypeHierarchy's word; -1 if it is none of them. */
static int
hm_filter(const char *args, enum tui_heapinfo_filter *f)
{
	if (*args == '\0' || strcasecmp(args, "all") == 0)
		*f = TUI_HI_ALL;
	else if (strcasecmp(args, "named") == 0)
		*f = TUI_HI_NAMED;
	else if (strcasecmp(args, "classes") == 0)
		*f = TUI_HI_CLASSES;
	else
		return (-1);
	return (0);
}

/* The snapshot's classes, read once; 0, or -1 (and said) if none. */
static int
hm_classes(struct heapmap *hm, const char *what)
{
	if (hm->s->classes == NULL && hm->session != 0 &&
	    analyze_heapview_bases(tui_store(), hm->session, hm->s) != 0) {
		tui_message("error: %s: the classes: %s", what,
		    store_error(tui_store()));
		return (-1);
	}
	if (hm->s->classes == NULL) {
		tui_message("error: %s: no stored snapshot to read the DWARF"
		    " of", what);
		return (-1);
	}
	return (0);
}

/*
 * HeapInspViewers.TypeHierarchy and ObjectsByType (hier 0), each with
 * Named or Classes.
 */
static int
hm_cmd_types(struct heapmap *hm, const char *args, int hier)
{
	enum tui_heapinfo_filter	 f;
	const char			*what = hier ? ":typehierarchy" :
					    ":objectsbytype";
	int				 n;

	if (hm_filter(args, &f) != 0) {
		tui_message("error: usage: %s [named|classes|all]", what);
		return (TUI_R_DRAW);
	}
	if ((hier || f == TUI_HI_CLASSES) && hm_classes(hm, what) != 0)
		return (TUI_R_DRAW);
	n = hier ? tui_heapinfo_classes(hm->hi, f) :
	    tui_heapinfo_bytype(hm->hi, f);
	hm->info = (enum hm_info)(1 + (hier ? TUI_HI_TYPEHIER :
	    TUI_HI_BYTYPE));
	tui_message("%s: %d %s%s", hier ? "TypeHierarchy" : "ObjectsByType",
	    n, f == TUI_HI_CLASSES ? (hier ? "classes" :
	    "types of classes") : f == TUI_HI_NAMED ? (hier ?
	    "named classes" : "named types") : hier ? "classes" : "types",
	    f == TUI_HI_CLASSES ? " with a vtable" : "");
	return (TUI_R_DRAW);
}

/* HeapInspViewers.ModuleReachableTypes Module. */
static int
hm_cmd_modtypes(struct heapmap *hm, const char *args)
{
	uint32_t	m;
	int		n;

	if (*args == '\0') {
		tui_message("error: usage: :modulereachabletypes MODULE");
		return (TUI_R_DRAW);
	}
	if ((m = analyze_heapview_module(hm->s, args)) == HM_SNONE) {
		tui_message("error: no module %s", args);
		return (TUI_R_DRAW);
	}
	n = tui_heapinfo_modtypes(hm->hi, m);
	hm->info = (enum hm_info)(1 + TUI_HI_MODTYPES);
	tui_message("ModuleReachableTypes %s: %d types",
	    hm->s->modules[m].name, n);
	return (TUI_R_DRAW);
}

/* HeapInspViewers.Finalizers. */
static int
hm_cmd_finalizers(struct heapmap *hm)
{
	int	n;

	if (hm_classes(hm, ":finalizers") != 0)
		return (TUI_R_DRAW);
	n = tui_heapinfo_finalizers(hm->hi);
	hm->info = (enum hm_info)(1 + TUI_HI_FINAL);
	tui_message("Finalizers: %d objects with a destructor", n);
	return (TUI_R_DRAW);
}

static int
hm_command_run(struct tui_view *tv, const char *name, const char *args)
{
	struct heapmap	*hm = tv->data;

	if (!hm_shown(hm) || hm->s->nregions == 0) {
		tui_message("error: %s", !hm_shown(hm) ? "the heap map is not"
		    " loaded" : "an empty heap");
		return (TUI_R_DRAW);
	}
	/* A command is the map's: it takes the keys back from a table. */
	hm_focus(tv, 0);
	if (strcasecmp(name, "zoomout") == 0)
		return (hm_cmd_zoomout(hm, args));
	if (strcasecmp(name, "move") == 0)
		return (hm_cmd_move(hm, args));
	if (strcasecmp(name, "setmapto") == 0)
		return (hm_cmd_setmapto(hm, args));
	if (strcasecmp(name, "startmapat") == 0)
		return (hm_cmd_startmapat(hm, args));
	if (strcasecmp(name, "resizemap") == 0)
		return (hm_cmd_resizemap(hm, args));
	/* (:show map and :mark need no graph; the rest of these do.) */
	if (strcasecmp(name, "show") == 0)
		return (strcasecmp(args, "map") == 0 || strcasecmp(args,
		    "markedonly") == 0 || strcasecmp(args, "objectsizes") ==
		    0 || hm_graph(hm, ":show") ? hm_cmd_show(hm, args) :
		    TUI_R_DRAW);
	if (strcasecmp(name, "select") == 0)
		return (strcasecmp(args, "showcommands") == 0 ||
		    hm_graph(hm, ":select") ? hm_cmd_select_index(hm, args) :
		    TUI_R_DRAW);
	if (strcasecmp(name, "index") == 0)
		return (hm_cmd_index(hm, args));
	if (strcasecmp(name, "mark") == 0)
		return (hm_cmd_mark(hm, args));
	if (strcasecmp(name, "heapmap") == 0)
		return (hm_cmd_heapmap(hm, args));
	if (strcasecmp(name, "testunload") == 0)
		return (hm_graph(hm, ":testunload") ? hm_cmd_testunload(hm,
		    args) : TUI_R_DRAW);
	if (strcasecmp(name, "status") == 0)
		return (hm_cmd_status(hm));
	if (strcasecmp(name, "store") == 0)
		return (hm_cmd_store(hm, args));
	if (strcasecmp(name, "remain") == 0)
		return (hm_cmd_remain(hm, args));
	if (strcasecmp(name, "update") == 0)
		return (hm_cmd_update(tv, args));
	if (strcasecmp(name, "updatemodules") == 0)
		return (hm_cmd_updatemodules(tv));
	if (strcasecmp(name, "compare") == 0)
		return (hm_cmd_compare(tv, args));
	if (strcasecmp(name, "typehierarchy") == 0)
		return (hm_graph(hm, ":typehierarchy") ?
		    hm_cmd_types(hm, args, 1) : TUI_R_DRAW);
	if (strcasecmp(name, "objectsbytype") == 0)
		return (hm_graph(hm, ":objectsbytype") ?
		    hm_cmd_types(hm, args, 0) : TUI_R_DRAW);
	if (strcasecmp(name, "finalizers") == 0)
		return (hm_graph(hm, ":finalizers") ?
		    hm_cmd_finalizers(hm) : TUI_R_DRAW);
	if (strcasecmp(name, "modulereachabletypes") == 0)
		return (hm_graph(hm, ":modulereachabletypes") ?
		    hm_cmd_modtypes(hm, args) : TUI_R_DRAW);
	tui_message("error: :%s is not a heap map command", name);
	return (TUI_R_DRAW);
}

int
hm_command(struct tui_view *tv, const char *name, const char *args)
{
	char	*a = xstrdup(args);
	size_t	 n = strlen(a);
	int	 rc;

	/* Tab ends a name it completes with a space; no name ends so. */
	while (n > 0 && a[n - 1] == ' ')
		a[--n] = '\0';
	rc = hm_command_run(tv, name, a);
	free(a);
	return (rc);
}

/* Word w after the words in *out (*len bytes of *cap). */
static void
hm_name_add(char **out, size_t *len, size_t *cap, const char *w)
{
	size_t	n = strlen(w);

	while (*len + n + 2 > *cap) {
		*cap = *cap != 0 ? *cap * 2 : 4096;
		*out = xreallocarray(*out, *cap, 1);
	}
	(*out)[(*len)++] = ' ';
	memcpy(*out + *len, w, n + 1);
	*len += n;
}

/*
 * Names of the modules, of the types and of the roots (module:variable
 * and the variable alone, C++ ones demangled), those without spaces, for
 * Tab.
 */
static char *
hm_names(struct heapmap *hm, int modules, int types, int roots)
{
	const struct analyze_heapview	*s = hm->s;
	char				*out = NULL;
	size_t				 i, len = 0, cap = 0;

	hm_name_add(&out, &len, &cap, "");
	for (i = 0; modules && i < s->nmodules; i++)
		hm_name_add(&out, &len, &cap, s->modules[i].name);
	for (i = 0; types && i < s->ntypes; i++) {
		if (!s->types[i].site && strchr(s->types[i].name, ' ') == NULL)
			hm_name_add(&out, &len, &cap, s->types[i].name);
	}
	for (i = 0; roots && i < s->nroots; i++) {
		if (s->roots[i].module == HM_SNONE ||
		    strchr(s->roots[i].name, ' ') != NULL)
			continue;
		hm_name_add(&out, &len, &cap, s->roots[i].name);
		hm_name_add(&out, &len, &cap,
		    analyze_heapview_root_var(s->roots[i].name));
	}
	return (out);
}

char *
hm_complete(struct tui_view *tv, const char *name, int arg)
{
	struct heapmap	*hm = tv->data;

	if (!hm_shown(hm))
		return (NULL);
	if (strcasecmp(name, "move") == 0)
		return (arg == 0 ? xstrdup("up down left right") : NULL);
	if (strcasecmp(name, "setmapto") == 0)
		return (arg == 0 ? xstrdup("bottom top center") : NULL);
	if (strcasecmp(name, "resizemap") == 0)
		return (arg == 0 ? xstrdup("double half") : NULL);
	if (strcasecmp(name, "remain") == 0)
		return (arg == 0 ? xstrdup("on off") : NULL);
	if (strcasecmp(name, "index") == 0)
		return (arg == 0 ? xstrdup("show next previous reset using") :
		    NULL);
	if (strcasecmp(name, "update") == 0)
		return (arg == 0 ? xstrdup("every off") : NULL);
	if (strcasecmp(name, "show") == 0)
		return (xstrdup(hm_show_words));
	if (strcasecmp(name, "select") == 0)
		return (arg == 0 ? xstrdup("off showcommands trace"
		    " onlyanchoredby object typedescriptor module"
		    " moduledescriptor instances") :
		    hm_names(hm, 1, 1, 1));
	if (strcasecmp(name, "mark") == 0 || strcasecmp(name, "heapmap") == 0)
		return (hm_names(hm, 1, 1, 0));
	if (strcasecmp(name, "testunload") == 0)
		return (hm_names(hm, 1, 0, 0));
	if (strcasecmp(name, "modulereachabletypes") == 0)
		return (arg == 0 ? hm_names(hm, 1, 0, 0) : NULL);
	if (strcasecmp(name, "typehierarchy") == 0 ||
	    strcasecmp(name, "objectsbytype") == 0)
		return (arg == 0 ? xstrdup("named classes all") : NULL);
	return (NULL);
}

/*
 * HeapInspector's names for :help NAME: each command, view and option of
 * the seed (HeapInspector.Text), what it did on Oberon's heap in our words
 * and what it is in a C or C++ program's; ours NULL where profview has
 * none.  keytable prints the table into profview.1 (make update-man-keys).
 */
const struct tui_topic hm_topics[] = {
	{ "close", "HeapInspector.Close", "q",
	    "Closed the HeapInspector viewer; with the last one closed, the"
	    " updates after each garbage collection stopped.",
	    "q closes the map (a live one stops following the program)." },
	{ "update", "HeapInspector.Update", ":update",
	    "Drew the bitmap and the statistics again from the heap as it was"
	    " then.",
	    "A live map (--attach) asks pvheap's agent for a new snapshot. A"
	    " map of a stored snapshot reads the newest snapshot of the same"
	    " program in the same directory, if there is a newer one, and says"
	    " when there is none." },
	{ "heapmap", "HeapInspector.HeapMap",
	    ":heapmap [nosplash] [ROWS] [SPEC...]",
	    "Opened a viewer with the heap's bitmap, with the settings of the"
	    " one before but no marks: NoSplash left out the splash window, a"
	    " number set the bitmap's maximum height (220 pixels without),"
	    " and type specifications coloured their objects.",
	    "The map anew: the whole heap in at most ROWS rows of cells (the"
	    " screen's without), the specs its only marks (as :mark). Opening"
	    " a heap session (profview FILE, :open ID) opens the map;"
	    " nosplash is taken and changes nothing: the map draws at once"
	    " and loads behind its first frame." },
	{ "heapmarkobjects", "HeapInspector.HeapMarkObjects",
	    ":mark [SPEC...]",
	    "Coloured the objects of up to five type specifications,"
	    " Module[.Type][*], in the open viewer.",
	    "Up to eight specs; a module is a loaded ELF object, a type a C++"
	    " class (from its vtable) or a DWARF type, and * adds the classes"
	    " derived from it by the DWARF." },
	{ "gconoff", "HeapInspector.GCOnOff", NULL,
	    "Turned Oberon's garbage collector on or off.",
	    "No sense in C or C++: nothing collects. malloc's memory comes back"
	    " only by free (or delete); the map's c shows what a collector"
	    " would take, the blocks no root reaches (memcheck's lost ones)." },
	{ "updateaftergc", "HeapInspector.UpdateAfterGC",
	    ":update every SECS",
	    "Turned on or off updating the bitmap after every garbage"
	    " collection.",
	    "No collection to follow: a live map updates every SECS seconds"
	    " instead (:update off stops)." },
	{ "collect", "System.Collect", NULL,
	    "Ran the garbage collector, if it was on.",
	    "No sense in C or C++: no collector runs. c marks what one would"
	    " free: the blocks no root reaches, possibly lost ones apart." },
	{ "modules", "HeapInspViewers.Modules", "Tab: the Modules table",
	    "Listed the loaded modules: code, data, references, types, total"
	    " memory, and how many import each and are imported, directly or"
	    " not, with TestUnloadModules' marks.",
	    "A module is a loaded ELF object: its objects and bytes, the bytes"
	    " of its executable and writable segments, its types, DT_NEEDED"
	    " imports and importers; ++ + * # as the seed's. References are"
	    " the pointers from its data into blocks; total memory is its"
	    " code, data and the usable bytes of the blocks only its data"
	    " reaches (anchors)." },
	{ "objectsbymodule", "HeapInspViewers.ObjectsByModule",
	    "Tab: the ObjectsByModule table",
	    "Listed each module's objects (those of its types) and their"
	    " memory.",
	    "Objects, bytes asked for and usable bytes by the module that"
	    " defines their type (or allocated them, for a block of no type)." },
	{ "objectsbytype", "HeapInspViewers.ObjectsByType",
	    ":objectsbytype [named|classes|all]",
	    "Listed each type's objects, their bytes and the bytes with"
	    " internal fragmentation (blocks were multiples of 32 bytes);"
	    " Named or Classes kept named types or those with methods.",
	    "Fragmentation is malloc's usable size beyond what was asked."
	    " Named drops the blocks of no type and anonymous structs;"
	    " Classes keeps the types of classes with a vtable pointer in"
	    " their DWARF (methods: virtual ones)." },
	{ "imports", "HeapInspViewers.Imports", "Tab: the Imports table",
	    "Listed each module's imports and the modules importing it.",
	    "A module's DT_NEEDED entries, each once, directly and through"
	    " those, and the modules whose DT_NEEDED entries resolved to it."
	    },
	{ "modulehierarchy", "HeapInspViewers.ModuleHierarchy",
	    "Tab: the ModuleHierarchy table",
	    "Gave each module a level, one more than its highest import's;"
	    " red for modules nothing imports, blue test-unloaded, green"
	    " imported by those.",
	    "The same over DT_NEEDED; an import cycle shares a level and says"
	    " cycle." },
	{ "typehierarchy", "HeapInspViewers.TypeHierarchy",
	    ":typehierarchy [named|classes|all]",
	    "Showed the base types with the types derived from them folded"
	    " under each, with size, methods and pointers.",
	    "The DWARF's C++ classes (and C structs): each one's bases, how"
	    " many derive from it, its objects, size, pointer members of its"
	    " own, whether it has a vtable and the methods it declares"
	    " virtual. Classes: those with a vtable." },
	{ "modulereachabletypes", "HeapInspViewers.ModuleReachableTypes",
	    ":modulereachabletypes MODULE",
	    "Listed by type the objects a module's globals reach.",
	    "A module is a loaded ELF object, its globals the roots in its"
	    " writable data: by type, what they reach through any path, as"
	    " ObjectsByType lists all." },
	{ "finalizers", "HeapInspViewers.Finalizers", ":finalizers",
	    "Listed the objects registered for finalization, with their"
	    " finalizer and mark bit.",
	    "The objects of C++ classes with a destructor in the DWARF (its"
	    " own, or a base's its implicit one runs), with their address,"
	    " leak state (the mark) and destructor. atexit and pthread key"
	    " destructors are not seen: a snapshot keeps not their lists." },
	{ "freeblocks", "HeapInspViewers.FreeBlocks",
	    "Tab: the FreeBlocks table",
	    "Listed the free blocks by size and position.",
	    "The gaps between objects in each region (16 bytes or less is"
	    " malloc's chunk header), and how many in each power of two." },
	{ "modulelessobjects", "HeapInspViewers.ModuleLessObjects",
	    "Tab: the ModuleLessObjects table",
	    "Listed the objects whose type's module was unloaded.",
	    "The objects held by no module: those no module's writable data"
	    " reaches, by any pointer, held only by a thread's stack or"
	    " registers or other memory, or by nothing (lost). A block's type"
	    " names its module loaded or not, so holding is what is kept of"
	    " the seed's sense." },
	{ "tasks", "HeapInspViewers.Tasks", "Tab: the Tasks table",
	    "Listed the installed tasks.",
	    "A task is a thread: its stack as scanned, the pointers from it"
	    " and from its registers (when pvheap stopped it and read them),"
	    " and the blocks only they reach; Enter marks those." },
	{ "zoomout", "HeapInspector.ZoomOut", ":zoomout [N%]",
	    "Zoomed out to the whole heap in the bitmap's height, or by N"
	    " percent about the middle, stopping at the heap's start or end.",
	    "The same; cells hold powers of two of bytes, so the map takes"
	    " the finest cells that show the span and the lines it needs." },
	{ "move", "HeapInspector.Move", ":move up|down|left|right [N]",
	    "Moved the bitmap a quarter of its height or a sixth of its"
	    " width, or N lines or blocks, until the heap's start or end.",
	    "The same, N rows or cells; left and right shift where rows"
	    " start, as the seed's." },
	{ "setmapto", "HeapInspector.SetMapTo",
	    ":setmapto bottom|top|center|ADDR",
	    "Moved the bitmap to the heap's start (Bottom) or end (Top), its"
	    " middle, or an address in the middle, at the same zoom.",
	    "The same; an address below the heap's size is an offset from"
	    " its start." },
	{ "startmapat", "HeapInspector.StartMapAt", ":startmapat ADDR",
	    "Started the bitmap at an address, zooming if it had to.",
	    "The same, zooming in when the heap from there would not fill the"
	    " map." },
	{ "resizemap", "HeapInspector.ResizeMap", ":resizemap double|half",
	    "Doubled the bitmap's maximum height (to the display's) or halved"
	    " it (to 16 pixels).",
	    "The same in rows of cells." },
	{ "show", "HeapInspector.Show", ":show WHAT",
	    "Toggled a bitmap or list: Map, Collectable, NotCollectable,"
	    " Reachable, ReachedFrom, ReachedFromModules,"
	    " ReachedFromVariables, Moduleless, FreezeMap, MarkedOnly,"
	    " ObjectSizes, ColorizeDefaultBlocks, DefaultBlocks.",
	    "Collectable is what no root reaches (memcheck's lost); the roots"
	    " are globals and thread stacks. ReachedFromModules and"
	    " ReachedFromVariables are two tables: the modules whose globals"
	    " reach the selected object, and the globals. FreezeMap keeps r"
	    " and R on the object they were of. Moduleless marks the objects"
	    " no module's data reaches and shows their table. Default blocks"
	    " are the C library's and the loader's own (allocated from libc.so"
	    " or ld.so: stdio buffers, locale, TLS; not strdup's or"
	    " getline's, which are the caller's): ColorizeDefaultBlocks"
	    " colours them apart, DefaultBlocks off leaves them out." },
	{ "select", "HeapInspector.Select", ":select ...",
	    "Selected objects: by tracing a global through fields and"
	    " indices, those only a pointer anchors, those holding a string,"
	    " a type's or module's descriptor; ShowCommands gave the grammar.",
	    "Trace follows the program's DWARF. Typedescriptor selects"
	    " the classes' vtables (their _ZTV symbols, sizes from the"
	    " module's symbol table at ingest) and module NAME (or"
	    " moduledescriptor NAME) the module's writable data, with count"
	    " and bytes, in the Descriptors table (address, bytes, the live"
	    " objects of the class or the data's pointers to the heap),"
	    " and drawn below the heap's map, labelled not heap, in a map"
	    " of the data or vtables around them. The vtables are every"
	    " _ZTV symbol of the modules ingest read, a live object's class"
	    " or not. Instances typedescriptor SPEC and instances module"
	    " NAME select the objects instead." },
	{ "index", "HeapInspector.Index",
	    ":index [N|show|next|previous|reset|using]",
	    "Set an index variable a Trace could use, and traced again when"
	    " it changed.",
	    "[index] in a :select trace path is its value." },
	{ "status", "HeapInspector.Status", ":status",
	    "Listed HeapInspector's settings in a viewer.",
	    "The Status table: the map's modes and Remain's, and the heap's"
	    " bytes: its regions, the objects, and what remains free between"
	    " them (glibc's free chunks and top; gaps of 16 bytes or less are"
	    " chunk headers), which add up to the regions'." },
	{ "remain", "HeapInspector.Remain", ":remain on|off",
	    "Showed only the objects there when it was turned on.",
	    "The same, across updates (an address freed and reused is a new"
	    " object)." },
	{ "updatemodules", "HeapInspector.UpdateModules", ":updatemodules",
	    "Read the list of loaded modules again, printing how many when"
	    " it changed.",
	    "A snapshot lists the loaded ELF objects (:update takes a new"
	    " one): how many are loaded in this one, and which were loaded"
	    " (+) or unloaded (-) since the run's snapshot before it." },
	{ "testunloadmodules", "HeapInspector.TestUnloadModules",
	    ":testunload [MODULE...|MODULE*]",
	    "Marked what unloading the modules (and their importers) would"
	    " free; M* as System.Free M*, with what only M needs.",
	    "A module's roots are its globals: what only they reach is"
	    " marked. A real dlclose would also run destructors, which this"
	    " does not." },
	{ "store", "Edit.Store", ":store FILE",
	    "Stored the bitmap with its statistics as a passive picture.",
	    "The map in view as FILE.ppm (each cell 4 pixels square in its"
	    " mark's colour, free cells black) and the legend's numbers and"
	    " the view as FILE.json; each file whole or not at all, 0600,"
	    " never written through a link. :export writes the session's"
	    " whole report." },
	{ "help", "HeapInspector.Help", ":help [COMMAND]",
	    "Opened the documentation, or a part of it.",
	    "This: a command's or a seed name's description." },
	{ NULL, NULL, NULL, NULL, NULL }
};
