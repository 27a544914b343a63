// Helpers for the libxml2 entry points Swift 6 cannot call directly.
// https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-globals.html
#ifndef SEARCHLIGHT_CLIBXML2_SHIM_H
#define SEARCHLIGHT_CLIBXML2_SHIM_H

// libxml2 is built with ICU here, so <libxml/encoding.h> would include ICU's <unicode/ucnv.h>.
// Foundation brings its own ICU module (_FoundationICU) whose `UErrorCode` differs, and a Swift
// module importing both fails with "'UErrorCode' has different definitions in different modules".
// Nothing here uses ICU-backed encoders (pages reach libxml2 as UTF-8), and the only struct the
// macro changes, xmlCharEncodingHandler, is only ever used through pointers, so the ICU part of
// the headers is switched off before they are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/SAX2.h>
#include <libxml/xmlmemory.h>

// `xmlFree` is a global function-pointer variable, which strict concurrency rejects
// as "not concurrency-safe"; calling it through a function is fine.
static inline void sl_xml_free(void *pointer) {
    xmlFree(pointer);
}

#endif
