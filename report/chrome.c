/*
 * Chrome trace-event JSON (the "JSON Array Format" inside an object, as
 * Perfetto and chrome://tracing open it): the timeline as one process,
 * a thread per track (named, and sorted in the order declared), a
 * complete event ("X") per span and a thread-scoped instant ("i") per
 * instant.  Strings go through json.c's escaper, so a hostile name
 * cannot break the file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "report/report.h"

struct chrome_data {
	size_t		events;		/* written so far */
	unsigned	tracks;		/* declared so far */
};

/* Args keep every digit of a real: they are data, not display. */
static const struct report_col chrome_arg_col = { "", "", 0, -1, 0 };

/* The separator before the next event. */
static void
chrome_next(struct report_trace *tr)
{
	struct chrome_data	*d = tr->data;

	fputs(d->events++ != 0 ? ",\n" : "\n", tr->f);
}

static void
chrome_str(FILE *f, const char *s)
{
	report_json_string(f, s != NULL ? s : "", s != NULL ? strlen(s) : 0);
}

/* Microseconds with the nanoseconds Chrome's "ts" and "dur" allow. */
static void
chrome_us(FILE *f, const char *key, double us)
{
	fprintf(f, ",\"%s\":%.3f", key, isfinite(us) ? us : 0);
}

static void
chrome_args(FILE *f, const struct report_arg *args, size_t n)
{
	size_t	i;

	if (n == 0)
		return;
	fputs(",\"args\":{", f);
	for (i = 0; i < n; i++) {
		if (i != 0)
			fputc(',', f);
		chrome_str(f, args[i].name);
		fputc(':', f);
		report_json_value(f, &chrome_arg_col, &args[i].v);
	}
	fputc('}', f);
}

static void
chrome_begin(struct report_trace *tr)
{
	tr->data = xcalloc(1, sizeof (struct chrome_data));
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", tr->f);
}

static void
chrome_name(struct report_trace *tr, const char *name)
{
	chrome_next(tr);
	fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
	    "\"args\":{\"name\":", tr->f);
	chrome_str(tr->f, name);
	fputs("}}", tr->f);
}

static void
chrome_track(struct report_trace *tr, unsigned track, const char *name)
{
	struct chrome_data	*d = tr->data;

	chrome_next(tr);
	fprintf(tr->f, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
	    "\"tid\":%u,\"args\":{\"name\":", track);
	chrome_str(tr->f, name);
	fputs("}}", tr->f);
	chrome_next(tr);
	fprintf(tr->f, "{\"name\":\"thread_sort_index\",\"ph\":\"M\","
	    "\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}", track,
	    ++d->tracks);
}

static void
chrome_span(struct report_trace *tr, const struct report_span *s)
{
	chrome_next(tr);
	fputs("{\"name\":", tr->f);
	chrome_str(tr->f, s->name);
	fputs(",\"cat\":", tr->f);
	chrome_str(tr->f, s->cat);
	fprintf(tr->f, ",\"ph\":\"X\",\"pid\":1,\"tid\":%u", s->track);
	chrome_us(tr->f, "ts", s->start_us);
	chrome_us(tr->f, "dur", s->dur_us);
	chrome_args(tr->f, s->args, s->nargs);
	fputc('}', tr->f);
}

static void
chrome_instant(struct report_trace *tr, const struct report_instant *in)
{
	chrome_next(tr);
	fputs("{\"name\":", tr->f);
	chrome_str(tr->f, in->name);
	fputs(",\"cat\":", tr->f);
	chrome_str(tr->f, in->cat);
	fprintf(tr->f, ",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u",
	    in->track);
	chrome_us(tr->f, "ts", in->ts_us);
	chrome_args(tr->f, in->args, in->nargs);
	fputc('}', tr->f);
}

static void
chrome_end(struct report_trace *tr)
{
	fputs("\n]}\n", tr->f);
	free(tr->data);
	tr->data = NULL;
}

const struct report_trace_ops report_chrome_ops = {
	chrome_begin,
	chrome_name,
	chrome_track,
	chrome_span,
	chrome_instant,
	chrome_end,
};
