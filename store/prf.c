/*
 * The prf kind's tables.
 */
#include <stddef.h>

#include "store/store.h"

const struct store_schema store_prf_schema = { "prf", NULL, 0, NULL };
