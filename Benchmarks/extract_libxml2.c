/*
 * libxml2's HTML parser alone, on the same bytes `searchlight extract` reads: the baseline of
 * Benchmarks/extract.sh. Compiled at run time:
 *
 *     gcc -O2 -o extract_libxml2 extract_libxml2.c $(pkg-config --cflags --libs libxml-2.0)
 *     ./extract_libxml2 [--walk] PATH...
 *
 * A PATH that is a directory is walked (nftw, not following symlinks) and every *.html / *.htm file
 * in it is a page, as `searchlight extract DIR` does; a PATH that is a file is one page. Pages are
 * parsed in sorted path order. For each page: read the whole file, make a parser context, parse with
 * htmlCtxtReadMemory and exactly the options and encoding Searchlight uses
 * (Sources/Markup/HTML/HTMLDocument.swift), free the document and the context. Searchlight first
 * decodes the page's charset to UTF-8; this harness hands libxml2 the file's bytes as they are (for a
 * page that is not UTF-8 libxml2 then recovers from the invalid bytes on its own).
 *
 * --walk also visits every node of each tree once (elements, their attributes, text, comments), as
 * any extractor must at least do; it is an extra column, the target compares against the parse alone.
 *
 * Prints one line of JSON to stdout: pages, bytes, documents that failed to parse, and (--walk)
 * nodes and attributes visited. Exit status 0, or 1 when a file could not be read or parsed.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

static const int OPTIONS = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                           HTML_PARSE_COMPACT | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NODEFDTD;

static char **paths;
static size_t npaths, cappaths;

static int is_page(const char *path) {
    const char *dot = strrchr(path, '.');
    return dot && (strcasecmp(dot, ".html") == 0 || strcasecmp(dot, ".htm") == 0);
}

static void add_path(const char *path) {
    if (npaths == cappaths) {
        cappaths = cappaths ? 2 * cappaths : 256;
        paths = realloc(paths, cappaths * sizeof *paths);
        if (!paths) { perror("realloc"); exit(2); }
    }
    paths[npaths++] = strdup(path);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st; (void)ftw;
    if (type == FTW_F && is_page(path)) add_path(path);
    return 0;
}

static int compare(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static unsigned long long nodes, attributes;

static void walk(xmlNodePtr node) {
    for (; node; node = node->next) {
        nodes++;
        if (node->type == XML_ELEMENT_NODE) {
            for (xmlAttrPtr a = node->properties; a; a = a->next) {
                attributes++;
                if (a->children) nodes++;
            }
            walk(node->children);
        }
    }
}

int main(int argc, char **argv) {
    int do_walk = 0, first = 1;
    if (argc > 1 && strcmp(argv[1], "--walk") == 0) { do_walk = 1; first = 2; }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [--walk] PATH...\n", argv[0]);
        return 2;
    }
    for (int i = first; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) { perror(argv[i]); return 2; }
        if (S_ISDIR(st.st_mode)) {
            if (nftw(argv[i], visit, 32, FTW_PHYS) != 0) { perror(argv[i]); return 2; }
        } else {
            add_path(argv[i]);
        }
    }
    qsort(paths, npaths, sizeof *paths, compare);

    xmlInitParser();
    unsigned long long total = 0;
    size_t failed = 0, cap = 0;
    char *buffer = NULL;
    for (size_t i = 0; i < npaths; i++) {
        FILE *f = fopen(paths[i], "rb");
        if (!f) { perror(paths[i]); failed++; continue; }
        struct stat st;
        if (fstat(fileno(f), &st) != 0) { perror(paths[i]); fclose(f); failed++; continue; }
        size_t size = (size_t)st.st_size;
        if (size + 1 > cap) {
            cap = size + 1;
            free(buffer);
            buffer = malloc(cap);
            if (!buffer) { perror("malloc"); return 2; }
        }
        size_t got = fread(buffer, 1, size, f);
        fclose(f);
        if (got != size) { fprintf(stderr, "%s: short read\n", paths[i]); failed++; continue; }
        total += size;
        htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
        if (!ctxt) { fprintf(stderr, "htmlNewParserCtxt failed\n"); return 2; }
        htmlDocPtr doc = htmlCtxtReadMemory(ctxt, buffer, (int)size, paths[i], "UTF-8", OPTIONS);
        if (!doc) {
            fprintf(stderr, "%s: no document\n", paths[i]);
            failed++;
        } else {
            if (do_walk) walk(doc->children);
            xmlFreeDoc(doc);
        }
        htmlFreeParserCtxt(ctxt);
    }
    free(buffer);
    printf("{\"pages\":%zu,\"bytes\":%llu,\"failed\":%zu,\"walk\":%s,\"nodes\":%llu,\"attributes\":%llu,\"libxml2\":\"%s\"}\n",
           npaths, total, failed, do_walk ? "true" : "false", nodes, attributes, xmlParserVersion);
    for (size_t i = 0; i < npaths; i++) free(paths[i]);
    free(paths);
    xmlCleanupParser();
    return failed ? 1 : 0;
}
