/*
 * Checks on output (check.h); abort() is how a harness says it found
 * something.
 */
#include <stdlib.h>
#include <string.h>

#include "vis.h"
#include "tests/fuzz/check.h"

/*
 * Valid UTF-8 without a C0 control but those in allow; strict (text for
 * people) also without any other character vis.c escapes: C1 controls,
 * bidi overrides.
 */
void
fuzz_check(const char *s, size_t len, const char *allow, int strict)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, adv;
	int			 cp, bad;

	while (i < len) {
		if ((cp = vis_utf8(p + i, len - i, &adv)) < 0)
			abort();
		bad = strict ? vis_unsafe(cp) : cp < 0x20;
		if (bad && (cp == 0 || cp > 0x7f || strchr(allow, cp) == NULL))
			abort();
		i += adv;
	}
}
