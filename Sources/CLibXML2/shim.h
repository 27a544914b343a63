// Helpers for the libxml2 entry points Swift 6 cannot call directly.
// https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-globals.html
#ifndef SEARCHLIGHT_CLIBXML2_SHIM_H
#define SEARCHLIGHT_CLIBXML2_SHIM_H

#include <libxml/HTMLparser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlmemory.h>

// `xmlFree` is a global function-pointer variable, which strict concurrency rejects
// as "not concurrency-safe"; calling it through a function is fine.
static inline void sl_xml_free(void *pointer) {
    xmlFree(pointer);
}

#endif
