// libpsl, the Public Suffix List library (https://rockdaboot.github.io/libpsl/).
//
// Every function Searchlight uses imports into Swift as it is (no variadics, no
// function-pointer globals): `psl_latest`, `psl_free`, `psl_registrable_domain`,
// `psl_str_to_utf8lower` and `psl_free_string`. `psl_ctx_t` is an incomplete struct and
// arrives as `OpaquePointer`. Nothing to wrap, so this header only includes libpsl's.
#ifndef SEARCHLIGHT_CPSL_SHIM_H
#define SEARCHLIGHT_CPSL_SHIM_H

#include <libpsl.h>

#endif
