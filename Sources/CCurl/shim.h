// Typed, non-variadic entry points for the libcurl calls Swift cannot import.
//
// `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are C variadic
// functions, which Swift marks "unavailable". Each helper below forwards exactly one
// argument type and holds no logic: all policy lives in the Swift `Fetching` module.
// https://curl.se/libcurl/c/curl_easy_setopt.html
#ifndef SEARCHLIGHT_CCURL_SHIM_H
#define SEARCHLIGHT_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode sl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode sl_easy_setopt_opensocket_function(CURL *handle, curl_opensocket_callback value) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, value);
}

static inline CURLcode sl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode sl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

// CURL_SOCKET_BAD is a macro; Swift does not import it.
static inline curl_socket_t sl_socket_bad(void) {
    return CURL_SOCKET_BAD;
}

// CURLVERSION_NOW is a macro; Swift does not import it.
static inline curl_version_info_data *sl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

#endif
