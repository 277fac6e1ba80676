/* The libFuzzer entry point every harness defines. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#endif
