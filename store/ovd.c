/*
 * The ovd kind's tables.
 */
#include <stddef.h>

#include "store/store.h"

const struct store_schema store_ovd_schema = { "ovd", NULL, 0, NULL };
