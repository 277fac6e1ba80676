/*
 * Report dispatch: pick the writer for a session kind and format.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/report.h"

static const char *report_names[REPORT_FORMATS] = {
	"text", "csv", "json", "html", "chrome"
};

int
report_format_parse(const char *s)
{
	int	i;

	for (i = 0; i < REPORT_FORMATS; i++) {
		if (strcasecmp(s, report_names[i]) == 0)
			return (i);
	}
	return (-1);
}

const char *
report_format_name(int f)
{
	return (f >= 0 && f < REPORT_FORMATS ? report_names[f] : "?");
}

int
report_session(struct store *st, int64_t id, int format, FILE *out,
    char **cause)
{
	struct store_session	ss;
	int			ovd;

	if (store_session_get(st, id, &ss) != 0) {
		*cause = strdup("no such session");
		return (-1);
	}
	ovd = (strcmp(ss.kind, "ovd") == 0);
	store_session_free(&ss);
	if (ovd)
		return (report_ovd(st, id, format, out, cause));
	*cause = strdup("reports are not written yet");
	return (-1);
}

int
report_stmt(sqlite3_stmt *s, int format, FILE *out, char **cause)
{
	*cause = strdup("reports are not written yet");
	return (-1);
}
