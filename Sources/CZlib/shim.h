// Helpers for the zlib entry points Swift cannot call directly.
// https://zlib.net/manual.html
#ifndef SEARCHLIGHT_CZLIB_SHIM_H
#define SEARCHLIGHT_CZLIB_SHIM_H

#include <zlib.h>

// `inflateInit2` is a macro (it passes ZLIB_VERSION and sizeof(z_stream) to `inflateInit2_`),
// and macros with arguments do not import into Swift.
static inline int sl_inflate_init2(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

#endif
