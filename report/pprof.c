/*
 * pprof's profile.proto, gzip-compressed, as go tool pprof, Pyroscope and
 * Parca read it.  A kind's writer declares its sample types and adds
 * samples, each a stack of locations (a function, its file and line, in a
 * mapping); this file keeps the string, function and location tables
 * pprof wants every name in once, and writes the message through
 * protobuf-c's encoder (report/pprof.proto, made into C at build time)
 * and zlib's gzip stream.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "intern.h"
#include "xmalloc.h"
#include "report/report.h"
#include "report/pprof.pb-c.h"

typedef Perftools__Profiles__Profile	pp_profile;
typedef Perftools__Profiles__ValueType	pp_type;
typedef Perftools__Profiles__Sample	pp_sample;
typedef Perftools__Profiles__Label	pp_label;
typedef Perftools__Profiles__Mapping	pp_mapping;
typedef Perftools__Profiles__Location	pp_location;
typedef Perftools__Profiles__Line	pp_line;
typedef Perftools__Profiles__Function	pp_function;

/* A grown array of n items of size each, room for cap. */
#define PP_GROW(v, n, cap) do {						\
	if ((n) >= (cap)) {						\
		(cap) = (cap) != 0 ? (cap) * 2 : 64;			\
		(v) = xreallocarray((v), (cap), sizeof *(v));		\
	}								\
} while (0)

struct report_pprof {
	struct intern	  strs;		/* string -> its index */
	char		**str;
	size_t		  nstr, strcap;

	pp_type		 *types;
	size_t		  ntypes, typecap;
	pp_type		  period_type;
	int		  has_period;
	int64_t		  period;
	int64_t		  duration_ns;
	int64_t		  time_ns;
	int64_t		  dflt;
	int64_t		 *comments;
	size_t		  ncomments, commentcap;

	pp_mapping	 *maps;
	size_t		  nmaps, mapcap;

	struct intern	  fnkeys;	/* "name\nfile" -> its index */
	pp_function	 *fns;
	size_t		  nfns, fncap;

	struct intern	  lockeys;	/* a location's parts -> index */
	pp_location	 *locs;
	pp_line		 *lines;	/* one per location */
	size_t		  nlocs, loccap;

	pp_sample	 *samples;
	size_t		  nsamples, samplecap;
};

/* The index of s in the string table, added if new. */
static int64_t
pp_string(struct report_pprof *p, const char *s)
{
	uint32_t	i;
	int		made;

	i = intern(&p->strs, s, (uint32_t)p->nstr, &made);
	if (made) {
		PP_GROW(p->str, p->nstr, p->strcap);
		p->str[p->nstr++] = xstrdup(s);
	}
	return (i);
}

struct report_pprof *
report_pprof_new(void)
{
	struct report_pprof	*p = xcalloc(1, sizeof *p);

	/* pprof's rule: string_table[0] is "". */
	pp_string(p, "");
	return (p);
}

/* A value every sample has, in the order declared: type and its unit. */
void
report_pprof_type(struct report_pprof *p, const char *type, const char *unit)
{
	pp_type	t = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;

	t.type = pp_string(p, type);
	t.unit = pp_string(p, unit);
	PP_GROW(p->types, p->ntypes, p->typecap);
	p->types[p->ntypes++] = t;
}

/* What happens between two samples, and how much of it. */
void
report_pprof_period(struct report_pprof *p, const char *type,
    const char *unit, int64_t period)
{
	perftools__profiles__value_type__init(&p->period_type);
	p->period_type.type = pp_string(p, type);
	p->period_type.unit = pp_string(p, unit);
	p->has_period = 1;
	p->period = period;
}

/* The value pprof shows unless asked for another (-sample_index). */
void
report_pprof_default(struct report_pprof *p, const char *type)
{
	p->dflt = pp_string(p, type);
}

/* How long the profile ran, and when it started (0: not known). */
void
report_pprof_time(struct report_pprof *p, int64_t start_ns,
    int64_t duration_ns)
{
	p->time_ns = start_ns;
	p->duration_ns = duration_ns;
}

/* A line for go tool pprof -comments: what a reader should know. */
void
report_pprof_comment(struct report_pprof *p, const char *s)
{
	PP_GROW(p->comments, p->ncomments, p->commentcap);
	p->comments[p->ncomments++] = pp_string(p, s);
}

/*
 * A mapping (a program or a module) over [start, limit): its id, for
 * the locations in it.  Names come from the symbols, never from a
 * reading of the file: has_functions says so, so pprof does not try.
 */
uint64_t
report_pprof_mapping(struct report_pprof *p, const char *file,
    uint64_t start, uint64_t limit, int lines)
{
	pp_mapping	m = PERFTOOLS__PROFILES__MAPPING__INIT;

	m.id = p->nmaps + 1;
	m.memory_start = start;
	m.memory_limit = limit;
	m.filename = pp_string(p, file != NULL ? file : "");
	m.has_functions = 1;
	m.has_filenames = lines;
	m.has_line_numbers = lines;
	PP_GROW(p->maps, p->nmaps, p->mapcap);
	p->maps[p->nmaps++] = m;
	return (m.id);
}

/* The id of the function called name in file (NULL: not known). */
static uint64_t
pp_function_id(struct report_pprof *p, const char *name, const char *file)
{
	pp_function	 f = PERFTOOLS__PROFILES__FUNCTION__INIT;
	char		*key;
	uint32_t	 i;
	int		 made;

	key = xasprintf("%s\n%s", name, file != NULL ? file : "");
	i = intern(&p->fnkeys, key, (uint32_t)p->nfns, &made);
	free(key);
	if (!made)
		return (p->fns[i].id);
	f.id = p->nfns + 1;
	f.name = pp_string(p, name);
	f.system_name = f.name;
	f.filename = pp_string(p, file != NULL ? file : "");
	PP_GROW(p->fns, p->nfns, p->fncap);
	p->fns[p->nfns++] = f;
	return (f.id);
}

/*
 * The id of a location: function (at line of file, 0 if not known) at
 * addr in mapping (0: none), the same id for the same place.
 */
uint64_t
report_pprof_location(struct report_pprof *p, uint64_t mapping,
    uint64_t addr, const char *function, const char *file, int64_t line)
{
	pp_location	 l = PERFTOOLS__PROFILES__LOCATION__INIT;
	pp_line		 ln = PERFTOOLS__PROFILES__LINE__INIT;
	char		*key;
	uint32_t	 i;
	int		 made;

	ln.function_id = pp_function_id(p, function, file);
	ln.line = line;
	key = xasprintf("%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64,
	    mapping, addr, ln.function_id, line);
	i = intern(&p->lockeys, key, (uint32_t)p->nlocs, &made);
	free(key);
	if (!made)
		return (p->locs[i].id);
	l.id = p->nlocs + 1;
	l.mapping_id = mapping;
	l.address = addr;
	if (p->nlocs >= p->loccap) {
		p->loccap = p->loccap != 0 ? p->loccap * 2 : 64;
		p->locs = xreallocarray(p->locs, p->loccap, sizeof *p->locs);
		p->lines = xreallocarray(p->lines, p->loccap,
		    sizeof *p->lines);
	}
	p->locs[p->nlocs] = l;
	p->lines[p->nlocs++] = ln;
	return (l.id);
}

/*
 * A sample: its stack (nloc location ids, the leaf first) and a value
 * for each type declared, in that order.
 */
void
report_pprof_sample(struct report_pprof *p, const uint64_t *loc,
    size_t nloc, const int64_t *value)
{
	pp_sample	s = PERFTOOLS__PROFILES__SAMPLE__INIT;

	s.n_location_id = nloc;
	s.location_id = xreallocarray(NULL, nloc + 1, sizeof *loc);
	if (nloc != 0)
		memcpy(s.location_id, loc, nloc * sizeof *loc);
	s.n_value = p->ntypes;
	s.value = xreallocarray(NULL, p->ntypes + 1, sizeof *value);
	if (p->ntypes != 0)
		memcpy(s.value, value, p->ntypes * sizeof *value);
	PP_GROW(p->samples, p->nsamples, p->samplecap);
	p->samples[p->nsamples++] = s;
}

static pp_label *
pp_label_add(struct report_pprof *p, const char *key)
{
	pp_sample	*s = &p->samples[p->nsamples - 1];
	pp_label	*l = xmalloc(sizeof *l);

	perftools__profiles__label__init(l);
	l->key = pp_string(p, key);
	s->label = xreallocarray(s->label, s->n_label + 1, sizeof *s->label);
	s->label[s->n_label++] = l;
	return (l);
}

/* A label of text on the last sample (pprof -tags, -tagfocus). */
void
report_pprof_label(struct report_pprof *p, const char *key, const char *s)
{
	pp_label_add(p, key)->str = pp_string(p, s);
}

/* A label of a number in unit on the last sample. */
void
report_pprof_label_num(struct report_pprof *p, const char *key, int64_t num,
    const char *unit)
{
	pp_label	*l = pp_label_add(p, key);

	l->num = num;
	l->num_unit = pp_string(p, unit);
}

/* Give up profile p unwritten. */
void
report_pprof_free(struct report_pprof *p)
{
	size_t	i, j;

	for (i = 0; i < p->nstr; i++)
		free(p->str[i]);
	free(p->str);
	intern_free(&p->strs);
	free(p->types);
	free(p->comments);
	free(p->maps);
	intern_free(&p->fnkeys);
	free(p->fns);
	intern_free(&p->lockeys);
	free(p->locs);
	free(p->lines);
	for (i = 0; i < p->nsamples; i++) {
		free(p->samples[i].location_id);
		free(p->samples[i].value);
		for (j = 0; j < p->samples[i].n_label; j++)
			free(p->samples[i].label[j]);
		free(p->samples[i].label);
	}
	free(p->samples);
	free(p);
}

/* buf's n bytes to f as one gzip member (what pprof's readers expect). */
static int
pp_gzip(const uint8_t *buf, size_t n, FILE *f, char **cause)
{
	z_stream	 z;
	uint8_t		 out[65536];
	size_t		 have;
	int		 zr, bad = 0;

	memset(&z, 0, sizeof z);
	/* 16 more window bits: a gzip header and trailer, not zlib's. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK) {
		*cause = xasprintf("zlib: %s", z.msg != NULL ? z.msg :
		    "cannot start the gzip stream");
		return (-1);
	}
	z.next_in = (uint8_t *)buf;
	do {
		/* avail_in is 32 bits: a profile over 4 GiB goes in parts. */
		if (z.avail_in == 0 && n != 0) {
			z.avail_in = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
			n -= z.avail_in;
		}
		z.next_out = out;
		z.avail_out = sizeof out;
		zr = deflate(&z, n == 0 ? Z_FINISH : Z_NO_FLUSH);
		have = sizeof out - z.avail_out;
		if (have != 0 && fwrite(out, 1, have, f) != have) {
			bad = 1;
			break;
		}
	} while (zr == Z_OK || zr == Z_BUF_ERROR);
	deflateEnd(&z);
	if (bad || fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("writing the profile: %s",
		    strerror(errno != 0 ? errno : EIO));
		return (-1);
	}
	if (zr != Z_STREAM_END) {
		*cause = xasprintf("zlib: deflate failed (%d)", zr);
		return (-1);
	}
	return (0);
}

/* Write profile p to f, gzip-compressed, and free it. */
int
report_pprof_write(struct report_pprof *p, FILE *f, char **cause)
{
	pp_profile	  m = PERFTOOLS__PROFILES__PROFILE__INIT;
	pp_type		**types;
	pp_sample	**samples;
	pp_mapping	**maps;
	pp_location	**locs;
	pp_line		**lines;
	pp_function	**fns;
	uint8_t		 *buf;
	size_t		  i, n;
	int		  rc;

	/* protobuf-c wants arrays of pointers to the messages. */
	types = xreallocarray(NULL, p->ntypes + 1, sizeof *types);
	for (i = 0; i < p->ntypes; i++)
		types[i] = &p->types[i];
	samples = xreallocarray(NULL, p->nsamples + 1, sizeof *samples);
	for (i = 0; i < p->nsamples; i++)
		samples[i] = &p->samples[i];
	maps = xreallocarray(NULL, p->nmaps + 1, sizeof *maps);
	for (i = 0; i < p->nmaps; i++)
		maps[i] = &p->maps[i];
	locs = xreallocarray(NULL, p->nlocs + 1, sizeof *locs);
	lines = xreallocarray(NULL, p->nlocs + 1, sizeof *lines);
	for (i = 0; i < p->nlocs; i++) {
		locs[i] = &p->locs[i];
		lines[i] = &p->lines[i];
		locs[i]->n_line = 1;
		locs[i]->line = &lines[i];
	}
	fns = xreallocarray(NULL, p->nfns + 1, sizeof *fns);
	for (i = 0; i < p->nfns; i++)
		fns[i] = &p->fns[i];

	m.n_sample_type = p->ntypes;
	m.sample_type = types;
	m.n_sample = p->nsamples;
	m.sample = samples;
	m.n_mapping = p->nmaps;
	m.mapping = maps;
	m.n_location = p->nlocs;
	m.location = locs;
	m.n_function = p->nfns;
	m.function = fns;
	m.n_string_table = p->nstr;
	m.string_table = p->str;
	m.time_nanos = p->time_ns;
	m.duration_nanos = p->duration_ns;
	if (p->has_period) {
		m.period_type = &p->period_type;
		m.period = p->period;
	}
	m.n_comment = p->ncomments;
	m.comment = p->comments;
	m.default_sample_type = p->dflt;

	n = perftools__profiles__profile__get_packed_size(&m);
	buf = xmalloc(n + 1);
	perftools__profiles__profile__pack(&m, buf);
	rc = pp_gzip(buf, n, f, cause);
	free(buf);
	free(types);
	free(samples);
	free(maps);
	free(locs);
	free(lines);
	free(fns);
	report_pprof_free(p);
	return (rc);
}
