#!/usr/bin/env python3
"""Helper for Benchmarks/refresh.sh: changes 1% of the generated site, checks each phase against
nginx's access log, and the report.

The site is Benchmarks/crawl_site.py's; measurement (GNU time + wait4) is Benchmarks/fetch_helper.py's;
the access log parser and searchlight's --json summary reader are Benchmarks/crawl_helper.py's.

Subcommands:
  mutate SITE --percent 1 --seed 4 --lastmod 2026-11-26T13:45:07Z
      Picks PERCENT% of the linked pages (seeded), gives each a new unique title wherever its old
      title stood (<title>, og:title, twitter:title, <h1>, JSON-LD…), writes it anew (new mtime and
      size: a new ETag and Last-Modified from nginx), and sets its <lastmod> in its sitemap file to
      LASTMOD. Writes SITE/changed.json (path, old and new title of each) and prints the count.
  probe SITE
      Prints the path and the new title of one changed page (tab-separated), for the search check.
  copy-store SRC DST
      Copies a SQLite store that no process has open: checkpoints its WAL into the database first,
      so the one file is the whole store (falls back to copying the -wal file along).
  check JSON --phase initial|refresh|full --site SITE --log LOG --log-from A --log-to B
      Counts the slice [A, B) of nginx's access log (`$status $request_method $request_uri
      $body_bytes_sent`) by kind and status, checks it for the phase, and records both in JSON:
        refresh: a 200 for every changed page; no request for any other page (robots.txt and
                 sitemaps only besides them); nothing else
        full:    every page of SITE/expected-paths.txt requested, the changed ones answered 200
        initial: counts only (crawl_helper.py annotate checks that crawl)
      and, for every phase: exit status 0, a JSON summary on stdout, nothing under /private/.
  found SEARCH_JSON --path PATH
      Checks `searchlight search --json` output: at least one result (exit 1 when none); says
      whether PATH is among the hits.
  report --target 5 [--initial JSON] RUN.json...
      The Markdown table: refresh and full re-crawl side by side, the ratios and the target.
"""
import argparse
import json
import os
import random
import re
import shutil
import sqlite3
import sys
from urllib.parse import urlsplit

# crawl_helper.py and bench_common.py sit next to this file; importing them must not leave a __pycache__
# in the repository.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import load_runs, median_of, table_head  # noqa: E402
from crawl_helper import SITEMAP, find_counters, read_log_slice, searchlight_summary  # noqa: E402

TITLE = re.compile(rb"<title>(.*?) \| Loopback Market</title>")
LOC = re.compile(rb"<url><loc>([^<]*)</loc><lastmod>[^<]*</lastmod></url>")
REFRESH_KEYS = ("due", "fetched", "unchanged", "changed", "gone")


def read_lines(path):
    with open(path) as f:
        return f.read().split()


def page_file(site, path):
    return os.path.join(site, "www", "index.html" if path == "/" else path.lstrip("/"))


def write_replacing(path, data):
    """Writes a new file and renames it over the old one: nginx never serves a half-written page."""
    temp = path + ".tmp"
    with open(temp, "wb") as f:
        f.write(data)
    os.replace(temp, path)


# ---- mutate ---------------------------------------------------------------------------------

def cmd_mutate(args):
    with open(os.path.join(args.site, "manifest.json")) as f:
        manifest = json.load(f)
    base = manifest["base"].encode()
    # The linked pages are the first linked_pages lines of expected-paths.txt (the sitemap-only
    # pages follow them).
    linked = read_lines(os.path.join(args.site, "expected-paths.txt"))[: manifest["linked_pages"]]
    count = max(1, round(len(linked) * args.percent / 100))
    # A generator of its own, apart from the site's: the choice depends on the seed and the site's
    # size only. Sorted so that changed.json reads in site order.
    chosen = sorted(random.Random(f"refresh-{args.seed}").sample(range(len(linked)), count))

    changed = []
    for number, node in enumerate(chosen):
        path = linked[node]
        file = page_file(args.site, path)
        with open(file, "rb") as f:
            html = f.read()
        match = TITLE.search(html)
        if not match:
            sys.exit(f"mutate: no <title> in {path}")
        old = match.group(1)
        # A token no generated page contains (the site's words are letters only), so that a search
        # for the new title finds this page and no other.
        new = old + b" Revised refresh%05d" % number
        # The title stands in <title>, og:title, twitter:title, <h1>, the breadcrumb and JSON-LD
        # (name, headline): a page whose title changed shows the new one everywhere.
        write_replacing(file, html.replace(old, new))
        changed.append({"path": path, "old_title": old.decode(), "new_title": new.decode()})

    # Each changed page's <lastmod> in the sitemap file that lists it.
    wanted = {base + c["path"].encode() for c in changed}
    seen = set()
    for sitemap in manifest["sitemaps"][1:]:  # [0] is the index, /sitemap.xml
        file = page_file(args.site, sitemap)
        with open(file, "rb") as f:
            text = f.read()

        def stamp(match):
            loc = match.group(1)
            if loc not in wanted:
                return match.group(0)
            seen.add(loc)
            return b"<url><loc>" + loc + b"</loc><lastmod>" + args.lastmod.encode() + b"</lastmod></url>"

        updated = LOC.sub(stamp, text)
        if updated != text:
            write_replacing(file, updated)
    if seen != wanted:
        sys.exit(f"mutate: {len(wanted - seen)} changed pages are in no sitemap (e.g. {sorted(wanted - seen)[:3]})")

    with open(os.path.join(args.site, "changed.json"), "w") as f:
        json.dump({"lastmod": args.lastmod, "percent": args.percent, "pages": changed}, f, indent=1)
    print(len(changed))


def load_changed(site):
    with open(os.path.join(site, "changed.json")) as f:
        return json.load(f)


def cmd_probe(args):
    page = load_changed(args.site)["pages"][0]
    print(f"{page['path']}\t{page['new_title']}")


# ---- copy-store ------------------------------------------------------------------------------

def cmd_copy_store(args):
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(args.dst + suffix)
        except FileNotFoundError:
            pass
    try:
        # The last connection to close checkpoints and removes the WAL: the database file alone is
        # then the whole store.
        connection = sqlite3.connect(args.src)
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        connection.close()
    except sqlite3.Error as error:
        print(f"copy-store: checkpoint failed ({error}); copying the WAL along", file=sys.stderr)
    shutil.copyfile(args.src, args.dst)
    # Whatever WAL is left holds committed pages the database file lacks; the -shm index is rebuilt
    # from it by the next process that opens the copy.
    if os.path.exists(args.src + "-wal") and os.path.getsize(args.src + "-wal") > 0:
        shutil.copyfile(args.src + "-wal", args.dst + "-wal")


# ---- check -----------------------------------------------------------------------------------

def classify(requests, expected, changed):
    """Counts one phase's requests by kind and status."""
    pages = {}  # path -> statuses, in order
    counts = dict(requests=len(requests), page_requests=0, page_200=0, page_304=0, page_other_status=0,
                  robots_requests=0, sitemap_requests=0, sitemap_200=0, sitemap_304=0, private_requests=0,
                  other_requests=0, body_bytes=0, page_body_bytes=0)
    others = []
    for status, method, uri, sent in requests:
        counts["body_bytes"] += sent
        path = uri.split("?", 1)[0]
        if path.startswith("/private/"):
            counts["private_requests"] += 1
        elif path == "/robots.txt":
            counts["robots_requests"] += 1
        elif SITEMAP.match(path):
            counts["sitemap_requests"] += 1
            if status in (200, 304):
                counts[f"sitemap_{status}"] += 1
        elif path in expected:
            pages.setdefault(path, []).append(status)
            counts["page_requests"] += 1
            counts["page_body_bytes"] += sent
            key = f"page_{status}" if status in (200, 304) else "page_other_status"
            counts[key] += 1
        else:
            counts["other_requests"] += 1
            others.append(f"{method} {uri} {status}")
    counts["changed_requested"] = sum(1 for p in changed if p in pages)
    counts["unchanged_requested"] = sum(1 for p in pages if p not in changed)
    unchanged_statuses = [s for p, statuses in pages.items() if p not in changed for s in statuses]
    counts["unchanged_200"] = unchanged_statuses.count(200)
    counts["unchanged_304"] = unchanged_statuses.count(304)
    return pages, counts, others


def first_line(path):
    try:
        with open(path, errors="replace") as f:
            for line in f:
                if line.strip():
                    return line.strip()
    except OSError:
        pass
    return ""


def some(paths, n=3):
    return ", ".join(sorted(paths)[:n])


def cmd_check(args):
    with open(args.json) as f:
        run = json.load(f)
    expected_list = read_lines(os.path.join(args.site, "expected-paths.txt"))
    expected = set(expected_list)
    changed = {c["path"] for c in load_changed(args.site)["pages"]} if args.phase != "initial" else set()
    pages, counts, others = classify(read_log_slice(args.log, args.log_from, args.log_to), expected, changed)
    problems, notes = [], []

    if run["timed_out"]:
        problems.append("timed out")
    if run["exit"] != 0:
        problems.append(f"exit status {run['exit']}: {first_line(args.json + '.stderr')[:200]}")
    with open(args.json + ".stdout", errors="replace") as f:
        summary = searchlight_summary(f.read())
    counters = find_counters(summary) if isinstance(summary, dict) else None
    if counters is None:
        problems.append("no JSON summary with counters on stdout")
    if counts["private_requests"]:
        problems.append(f"{counts['private_requests']} requests under /private/ (robots.txt disallows it)")

    if args.phase == "refresh":
        not_200 = [p for p in changed if 200 not in pages.get(p, [])]
        if not_200:
            problems.append(f"{len(not_200)} of {len(changed)} changed pages not answered 200 (e.g. {some(not_200)})")
        unchanged = [p for p in pages if p not in changed]
        if unchanged:
            problems.append(f"{len(unchanged)} unchanged pages requested (e.g. {some(unchanged)})")
    elif args.phase == "full":
        missing = [p for p in expected_list if p not in pages]
        if missing:
            problems.append(f"{len(missing)} of {len(expected_list)} pages never requested (e.g. {some(missing)})")
        not_200 = [p for p in changed if 200 not in pages.get(p, [])]
        if not_200:
            problems.append(f"{len(not_200)} of {len(changed)} changed pages not answered 200 (e.g. {some(not_200)})")
        notes.append(f"unchanged pages answered {counts['unchanged_304']}× 304, {counts['unchanged_200']}× 200")
    if others:
        message = f"{len(others)} requests for neither a page, robots.txt nor a sitemap (e.g. {', '.join(others[:3])})"
        (problems if args.phase == "refresh" else notes).append(message)
    repeated = counts["page_requests"] - len(pages)
    if repeated:
        notes.append(f"{repeated} repeated page requests")

    run.update(counts)
    run.update(phase=args.phase, label=args.label or args.phase, pages=len(expected_list), changed=len(changed),
               problems=problems, notes=notes, ok=not problems)
    if counters is not None:
        run["counters"] = counters
    if isinstance(summary, dict) and isinstance(summary.get("refresh"), dict):
        run["refresh"] = summary["refresh"]
    with open(args.json, "w") as f:
        json.dump(run, f, indent=1)

    status = "ok" if not problems else "FAILED: " + "; ".join(problems)
    if notes:
        status += " (" + "; ".join(notes) + ")"
    print(
        f"  {run['label']:<14} wall {run['wall_s']:.2f} s  CPU {run['cpu_s']:.2f} s  RSS {run['max_rss_kib'] / 1024:.1f} MiB  "
        f"{counts['requests']} requests ({counts['page_requests']} pages: {counts['page_200']}× 200, "
        f"{counts['page_304']}× 304)  {counts['body_bytes']} body bytes  {status}"
    )
    return 0 if not problems else 1


# ---- found -----------------------------------------------------------------------------------

def cmd_found(args):
    try:
        with open(args.search_json) as f:
            results = json.load(f)
    except (OSError, ValueError) as error:
        print(f"no search results to read ({error})")
        return 1
    total = results.get("total", 0)
    paths = [urlsplit(h.get("webpageURL") or "").path or "/" for h in results.get("results", [])]
    hit = args.path in paths
    titles = "; ".join(h.get("title", "") for h in results.get("results", [])[:3])
    print(f"{total} result(s){' (the changed page among them)' if hit else ''}: {titles}")
    if not total:
        return 1
    if not hit:
        print(f"note: {args.path} is not among the hits")
    return 0


# ---- report ----------------------------------------------------------------------------------

def median(runs, key):
    """The median of run[key], a run without it counting as 0."""
    return median_of(runs, key, missing=0)


def row(name, runs):
    failed = "" if all(r["ok"] for r in runs) else " (FAILED)"
    other = median(runs, "requests") - median(runs, "page_requests")
    return (
        f"| {name}{failed} | {median(runs, 'requests'):,.0f} | {median(runs, 'page_requests'):,.0f} "
        f"({median(runs, 'page_200'):,.0f} × 200, {median(runs, 'page_304'):,.0f} × 304) | {other:,.0f} "
        f"({median(runs, 'robots_requests'):,.0f} robots.txt, {median(runs, 'sitemap_requests'):,.0f} sitemaps) "
        f"| {median(runs, 'body_bytes'):,.0f} | {median(runs, 'cpu_s'):.2f} | {median(runs, 'wall_s'):.2f} "
        f"| {max(r['max_rss_kib'] for r in runs) / 1024:.1f} |"
    )


def percent(part, whole):
    return 100.0 * part / whole if whole else float("nan")


def cmd_report(args):
    runs = load_runs(args.runs)
    refresh = [r for r in runs if r["phase"] == "refresh"]
    full = [r for r in runs if r["phase"] == "full"]
    lines = table_head(["phase", "requests", "pages (200, 304)", "other requests", "body bytes", "CPU s (user+sys)",
                        "wall s", "peak RSS MiB"], "lrrrrrrr")
    if args.initial:
        lines.append(row("initial crawl (not compared)", load_runs([args.initial])))
    if refresh:
        lines.append(row("refresh", refresh))
    if full:
        lines.append(row("full re-crawl", full))
    lines.append("")
    lines.append(
        f"Medians of {len(refresh)} refresh and {len(full)} full re-crawl run(s), each from a copy of the same store; "
        "CPU is user+sys of searchlight's whole process tree from wait4(2), peak RSS GNU time's %M (highest run). "
        "Requests and body bytes are what nginx logged for the phase."
    )
    if len(refresh) > 1 or len(full) > 1:
        spread = "; ".join(
            f"{name}: CPU {min(r['cpu_s'] for r in group):.2f}–{max(r['cpu_s'] for r in group):.2f} s, "
            f"wall {min(r['wall_s'] for r in group):.2f}–{max(r['wall_s'] for r in group):.2f} s"
            for name, group in (("refresh", refresh), ("full re-crawl", full)) if group
        )
        lines.append(f"Range over the runs: {spread}.")

    for name, group in (("refresh", refresh), ("full re-crawl", full)):
        for r in group:
            if r["problems"]:
                lines.append(f"- {name} ({r['label']}) FAILED: {'; '.join(r['problems'])}")
    for r in refresh[:1]:
        block = r.get("refresh")
        if isinstance(block, dict):
            shown = [f"{k} {block[k]}" for k in REFRESH_KEYS if k in block]
            shown += [f"{k} {json.dumps(v)}" for k, v in sorted(block.items()) if k not in REFRESH_KEYS]
            lines.append(f"The refresh's own count (`refresh` in its --json): {', '.join(shown)}; "
                         f"{r['changed']} pages were changed.")
        elif r["ok"] or r.get("counters"):
            lines.append("The refresh's --json has no `refresh` object.")
    for name, group in (("refresh", refresh), ("full re-crawl", full)):
        counters = group[0].get("counters") if group else None
        if counters:
            lines.append(
                f"searchlight's counters, {name}: {counters.get('pagesFetched')} pages fetched, "
                f"{counters.get('pagesIndexed')} indexed, {counters.get('pagesUnchanged')} unchanged, "
                + (f"{counters['pagesChanged']} changed, " if "pagesChanged" in counters else "")
                + f"{counters.get('sitemapsRead')} sitemaps read, {counters.get('robotsFetched')} robots.txt fetched."
            )

    verdict = "failed"
    if refresh and full and all(r["ok"] for r in refresh + full):
        requests = percent(median(refresh, "requests"), median(full, "requests"))
        cpu = percent(median(refresh, "cpu_s"), median(full, "cpu_s"))
        body = percent(median(refresh, "body_bytes"), median(full, "body_bytes"))
        wall = percent(median(refresh, "wall_s"), median(full, "wall_s"))
        met = requests < args.target and cpu < args.target
        verdict = "met" if met else "missed"
        lines.append("")
        lines.append(
            f"Refresh ÷ full re-crawl: requests {requests:.2f}%, CPU {cpu:.2f}% "
            f"(body bytes {body:.2f}%, wall {wall:.2f}%)."
            + (" A 304 has no body: the full re-crawl's body bytes are mostly the changed pages and the "
               "sitemaps, as the refresh's are; its extra cost is in requests and CPU."
               if median(full, "page_304") else "")
        )
        lines.append(
            f"Target: the refresh costs under {args.target:g}% of the full re-crawl's requests and CPU — "
            f"{'met' if met else 'NOT met'}."
        )
    else:
        lines.append("")
        lines.append(f"Target: under {args.target:g}% of the full re-crawl's requests and CPU — not evaluated: "
                     "a run failed (see above).")
    print("\n".join(lines))
    if args.verdict_file:
        with open(args.verdict_file, "w") as f:
            f.write(verdict + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("mutate")
    m.add_argument("site")
    m.add_argument("--percent", type=float, default=1.0)
    m.add_argument("--seed", type=int, default=4)
    m.add_argument("--lastmod", required=True, help="the changed pages' new sitemap <lastmod>")
    p = sub.add_parser("probe")
    p.add_argument("site")
    c = sub.add_parser("copy-store")
    c.add_argument("src")
    c.add_argument("dst")
    k = sub.add_parser("check")
    k.add_argument("json")
    k.add_argument("--phase", required=True, choices=["initial", "refresh", "full"])
    k.add_argument("--site", required=True)
    k.add_argument("--log", required=True)
    k.add_argument("--log-from", type=int, required=True)
    k.add_argument("--log-to", type=int, required=True)
    k.add_argument("--label")
    f = sub.add_parser("found")
    f.add_argument("search_json")
    f.add_argument("--path", required=True)
    r = sub.add_parser("report")
    r.add_argument("--target", type=float, default=5.0, help="percent")
    r.add_argument("--initial")
    r.add_argument("--verdict-file")
    r.add_argument("runs", nargs="+")
    args = parser.parse_args()
    handler = {"mutate": cmd_mutate, "probe": cmd_probe, "copy-store": cmd_copy_store, "check": cmd_check,
               "found": cmd_found, "report": cmd_report}[args.cmd]
    sys.exit(handler(args) or 0)


if __name__ == "__main__":
    main()
