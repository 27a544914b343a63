#!/usr/bin/env python3
"""Helper for Benchmarks/crawl.sh: checks each crawl against nginx's access log, and the reports.

Measurement itself (GNU time + wait4 rusage, a free port) is Benchmarks/fetch_helper.py's.

Subcommands:
  annotate JSON --tool T --site DIR --log LOG --log-from A --log-to B [--store PATH]
      Checks one run: the slice [A, B) of nginx's access log (format `$status $request_method
      $request_uri $body_bytes_sent`) must hold every path of DIR/expected-paths.txt with a 200 (an
      expected entry with a `?query` is a page of its own, matched on the whole request URI),
      nothing under /private/; the tool's own count must match (searchlight: counters.pagesFetched
      of its --json summary on stdout; Scrapy: the lines of its JSON Lines feed). Records the
      verdict and the counts in JSON.
  report --subject searchlight --baseline scrapy --target 5 RUN.json...
      The Markdown table of the comparison.
  memory --target 1.5 SMALL.json LARGE.json
      The Markdown table of peak RSS at two crawl sizes.
"""
import argparse
import collections
import json
import os
import re
import statistics
import sys

# bench_common.py sits next to this file; importing it must not leave a __pycache__ in the repository.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import (  # noqa: E402
    load_runs, median_of, other_load_cores, other_load_note, pair_ratios, run_figures, table_head, tools_in_order,
)

SITEMAP = re.compile(r"^/sitemaps?[/.]")


def read_log_slice(path, start, end):
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(max(0, end - start))
    requests = []
    for line in data.decode("utf-8", "replace").splitlines():
        fields = line.split(" ")
        if len(fields) < 4:
            continue
        status, method, uri, sent = fields[0], fields[1], fields[2], fields[3]
        requests.append((int(status) if status.isdigit() else 0, method, uri, int(sent) if sent.isdigit() else 0))
    return requests


def find_counters(value):
    """The `counters` object anywhere in searchlight's --json summary."""
    if isinstance(value, dict):
        if isinstance(value.get("counters"), dict):
            return value["counters"]
        for child in value.values():
            found = find_counters(child)
            if found is not None:
                return found
    elif isinstance(value, list):
        for child in value:
            found = find_counters(child)
            if found is not None:
                return found
    return None


def searchlight_summary(stdout):
    """The last JSON document on stdout (the summary), or None."""
    text = stdout.strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    for line in reversed(text.splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return None


SCRAPY_STAT = re.compile(r"'([a-z_/0-9.]+)': (\d+)")


def scrapy_stats(log_text):
    """The integer stats of the final 'Dumping Scrapy stats' block."""
    at = log_text.rfind("Dumping Scrapy stats")
    if at < 0:
        return {}
    return {k: int(v) for k, v in SCRAPY_STAT.findall(log_text[at:])}


def cmd_annotate(args):
    with open(args.json) as f:
        run = json.load(f)
    with open(os.path.join(args.site, "expected-paths.txt")) as f:
        expected = f.read().split()
    with open(os.path.join(args.site, "manifest.json")) as f:
        manifest = json.load(f)
    expected_set = set(expected)
    requests = read_log_slice(args.log, args.log_from, args.log_to)
    problems, notes = [], []

    fetched = collections.Counter()
    private, robots, sitemaps, other = 0, 0, 0, collections.Counter()
    body_bytes = 0
    for status, method, uri, sent in requests:
        body_bytes += sent
        path = uri.split("?", 1)[0]
        if path.startswith("/private/"):
            private += 1
        elif path == "/robots.txt":
            robots += 1
        elif SITEMAP.match(path):
            sitemaps += 1
        elif uri in expected_set and status == 200 and method == "GET":
            # A URL with a query that the site lists as a page of its own (SITE=extract's PATH?page=2).
            fetched[uri] += 1
        elif path in expected_set and status == 200 and method == "GET":
            fetched[path] += 1
        else:
            other[f"{method} {uri} {status}"] += 1
    missing = [p for p in expected if p not in fetched]
    repeated = sum(n - 1 for n in fetched.values())
    if missing:
        problems.append(f"{len(missing)} of {len(expected)} pages never requested (e.g. {', '.join(missing[:3])})")
    if private:
        problems.append(f"{private} requests under /private/ (robots.txt disallows it)")
    if robots == 0:
        problems.append("robots.txt never requested")
    if repeated:
        notes.append(f"{repeated} repeated page requests")
    if other:
        notes.append(f"{sum(other.values())} other requests ({', '.join(f'{k} ×{v}' for k, v in other.most_common(3))})")
    sitemaps_expected = len(manifest["sitemaps"])
    if sitemaps != sitemaps_expected:
        notes.append(f"{sitemaps} sitemap requests (the site has {sitemaps_expected})")

    with open(args.json + ".stdout", errors="replace") as f:
        stdout = f.read()
    tool_pages = None
    extra = {}
    if args.tool == "searchlight":
        summary = searchlight_summary(stdout)
        counters = find_counters(summary) if summary is not None else None
        if counters is None:
            problems.append("no JSON summary with counters on stdout")
        else:
            extra["counters"] = counters
            tool_pages = counters.get("pagesFetched")
            if tool_pages != len(expected):
                problems.append(f"counters.pagesFetched is {tool_pages}, expected {len(expected)}")
    else:
        feed = args.json + ".items.jsonl"
        try:
            with open(feed, errors="replace") as f:
                tool_pages = sum(1 for line in f if line.strip())
        except OSError:
            tool_pages = 0
        try:
            with open(args.json + ".scrapy.log", errors="replace") as f:
                stats = scrapy_stats(f.read())
        except OSError:
            stats = {}
        extra["scrapy_stats"] = {k: v for k, v in stats.items() if k.startswith(("item_", "downloader/request_count",
                                 "downloader/response_count", "robotstxt/", "response_received", "log_count/ERROR",
                                 "memusage/max", "dupefilter/", "offsite/"))}
        if tool_pages != len(expected):
            problems.append(f"{tool_pages} items in the feed, expected {len(expected)}")
        if stats.get("log_count/ERROR"):
            notes.append(f"{stats['log_count/ERROR']} errors in Scrapy's log")
    if run["exit"] != 0:
        problems.append(f"exit status {run['exit']}")
    if run["timed_out"]:
        problems.append("timed out")
    if args.store:
        size = 0
        for suffix in ("", "-wal", "-shm"):
            try:
                size += os.path.getsize(args.store + suffix)
            except OSError:
                pass
        run["store_bytes"] = size

    if args.machine_ticks and args.clock_ticks:
        # What else the machine did during the run, in cores: all busy time on the machine less the
        # tool's CPU and nginx's. A check on the figures, not part of them.
        nginx = (args.nginx_ticks or 0) / args.clock_ticks
        cores = other_load_cores(args.machine_ticks, args.clock_ticks, run["cpu_s"], nginx)
        if cores is not None:
            run["nginx_cpu_s"] = nginx
            run["other_load_cores"] = cores
            if other_load_note(cores):
                notes.append(other_load_note(cores))
    run.update(
        tool=args.tool, label=args.label, pages=len(expected), site_html_bytes=manifest["html_bytes"], tool_pages=tool_pages,
        requests=len(requests), page_requests=sum(fetched.values()), robots_requests=robots,
        sitemap_requests=sitemaps, private_requests=private, other_requests=sum(other.values()),
        body_bytes=body_bytes, ok=not problems, problems=problems, notes=notes, **extra,
    )
    with open(args.json, "w") as f:
        json.dump(run, f, indent=1)
    status = "ok" if not problems else "FAILED: " + "; ".join(problems)
    if notes:
        status += " (" + "; ".join(notes) + ")"
    pages_per_cpu = len(expected) / run["cpu_s"] if run["cpu_s"] > 0 else 0
    print(
        f"  {args.tool:<12} wall {run['wall_s']:.2f} s  CPU {run['cpu_s']:.2f} s (user {run['user_s']:.2f}, "
        f"sys {run['sys_s']:.2f})  {pages_per_cpu:.0f} pages/CPU-s  RSS {run['max_rss_kib'] / 1024:.1f} MiB  "
        f"{len(requests)} requests  nginx CPU {run.get('nginx_cpu_s', 0):.2f} s  {status}"
    )
    return 0 if not problems else 1


def summarize(mine):
    return {
        **run_figures(mine),
        "pages": mine[0]["pages"], "ok": all(r["ok"] for r in mine),
        "requests": sorted({r["requests"] for r in mine}),
        "store": max((r.get("store_bytes") or 0) for r in mine),
        "nginx": median_of(mine, "nginx_cpu_s"),
        "other": median_of(mine, "other_load_cores"),
        "other_max": max((r.get("other_load_cores") or 0) for r in mine),
    }


def cmd_report(args):
    runs = load_runs(args.runs)
    tools = tools_in_order(runs)
    rows = {tool: summarize([r for r in runs if r["tool"] == tool]) for tool in tools}
    lines = table_head(["tool", "pages", "wall s (median)", "pages/s", "CPU s (median, user+sys)", "user s", "sys s",
                        "CPU s per 1,000 pages", "pages per CPU-second", "peak RSS MiB", "requests nginx saw"],
                       "lrrrrrrrrrr")
    for tool in tools:
        row = rows[tool]
        pages = f"{row['pages']}" + ("" if row["ok"] else " (FAILED)")
        lines.append(
            f"| {tool} | {pages} | {row['wall']:.2f} | {row['pages'] / row['wall']:.0f} | {row['cpu']:.2f} "
            f"| {row['user']:.2f} | {row['sys']:.2f} | {1000 * row['cpu'] / row['pages']:.3f} "
            f"| {row['pages'] / row['cpu']:.0f} | {row['rss']:.1f} | {', '.join(str(n) for n in row['requests'])} |"
        )
    lines.append("")
    counts = ", ".join(f"{rows[t]['runs']} for {t}" for t in tools)
    lines.append(
        f"Medians of the measured runs ({counts}), after one warm-up run each; runs alternate between the tools. "
        "CPU is user+sys of the whole process tree (every thread), from wait4(2); peak RSS is the highest of the runs "
        "(GNU time's %M). \"requests nginx saw\" counts every request of a run in the access log: pages, robots.txt, "
        "sitemaps and anything else."
    )
    spread = "; ".join(
        f"{t}: wall {rows[t]['wall_min']:.2f}–{rows[t]['wall_max']:.2f} s, "
        f"CPU {rows[t]['cpu_min']:.2f}–{rows[t]['cpu_max']:.2f} s"
        for t in tools
    )
    lines.append(f"Range over the runs: {spread}.")
    if all(rows[t]["other"] is not None for t in tools):
        lines.append(
            "Serving it took nginx "
            + ", ".join(f"{rows[t]['nginx']:.2f} CPU s per {t} run" for t in tools)
            + " (median). Other work on the machine during the runs, in cores (median, max): "
            + ", ".join(f"{t} {rows[t]['other']:.2f}, {rows[t]['other_max']:.2f}" for t in tools)
            + "."
        )
    for tool in tools:
        if rows[tool]["store"]:
            lines.append(f"{tool}'s store after a crawl: {rows[tool]['store'] / 1048576:.1f} MiB (database, WAL and shared memory files).")
    verdict = None
    if args.subject in rows and args.baseline in rows:
        subject, base = rows[args.subject], rows[args.baseline]
        ratio = (subject["pages"] / subject["cpu"]) / (base["pages"] / base["cpu"])
        # Pages per CPU-second: the baseline's CPU over the subject's.
        pairs = pair_ratios(runs, args.baseline, args.subject)
        if pairs:
            lines.append(
                f"Pages per CPU-second, {args.subject} ÷ {args.baseline}, in side-by-side runs ({len(pairs)} pairs): "
                f"min {pairs[0]:.2f}×, median {statistics.median(pairs):.2f}×, max {pairs[-1]:.2f}×."
            )
        verdict = "met" if ratio >= args.target else "NOT met"
        lines.append(
            f"Target: {args.subject} ≥ {args.target:g}× {args.baseline}'s pages per CPU-second — {verdict} "
            f"({subject['pages'] / subject['cpu']:.0f} vs {base['pages'] / base['cpu']:.0f} pages per CPU-second = {ratio:.2f}×)."
        )
    print("\n".join(lines))
    if args.verdict_file and verdict:
        with open(args.verdict_file, "w") as f:
            f.write("met\n" if verdict == "met" else "missed\n")


def cmd_memory(args):
    runs = load_runs(args.runs)
    lines = table_head(["site", "pages", "wall s", "pages/s", "CPU s", "CPU s per 1,000 pages", "peak RSS MiB",
                        "store MiB", "other load (cores)"], "lrrrrrrrr")
    for run in runs:
        ok = "" if run["ok"] else " (FAILED)"
        lines.append(
            f"| {run.get('label', '?')} | {run['pages']}{ok} | {run['wall_s']:.1f} | {run['pages'] / run['wall_s']:.0f} "
            f"| {run['cpu_s']:.1f} | {1000 * run['cpu_s'] / run['pages']:.3f} | {run['max_rss_kib'] / 1024:.1f} "
            f"| {(run.get('store_bytes') or 0) / 1048576:.0f} | {run.get('other_load_cores') or 0:.2f} |"
        )
    lines.append("")
    small, large = runs[0], runs[-1]
    ratio = large["max_rss_kib"] / small["max_rss_kib"]
    verdict = "met" if ratio <= args.target else "NOT met"
    lines.append(
        f"Target: peak RSS at {large['pages']:,} pages ≤ {args.target:g}× peak RSS at {small['pages']:,} — {verdict} "
        f"({large['max_rss_kib'] / 1024:.1f} MiB vs {small['max_rss_kib'] / 1024:.1f} MiB = {ratio:.2f}×)."
    )
    print("\n".join(lines))
    if args.verdict_file:
        with open(args.verdict_file, "w") as f:
            f.write("met\n" if verdict == "met" else "missed\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("annotate")
    a.add_argument("json")
    a.add_argument("--tool", required=True, choices=["searchlight", "scrapy"])
    a.add_argument("--site", required=True)
    a.add_argument("--log", required=True)
    a.add_argument("--log-from", type=int, required=True)
    a.add_argument("--log-to", type=int, required=True)
    a.add_argument("--store")
    a.add_argument("--label")
    a.add_argument("--machine-ticks", nargs=2, metavar=("BEFORE", "AFTER"), help='"busy total" from /proc/stat')
    a.add_argument("--nginx-ticks", type=int, help="clock ticks nginx's workers used during the run")
    a.add_argument("--clock-ticks", type=int, help="clock ticks per second (getconf CLK_TCK)")
    r = sub.add_parser("report")
    r.add_argument("--subject", default="searchlight")
    r.add_argument("--baseline", default="scrapy")
    r.add_argument("--target", type=float, default=5.0)
    r.add_argument("--verdict-file")
    r.add_argument("runs", nargs="+")
    m = sub.add_parser("memory")
    m.add_argument("--target", type=float, default=1.5)
    m.add_argument("--verdict-file")
    m.add_argument("runs", nargs="+")
    args = parser.parse_args()
    handler = {"annotate": cmd_annotate, "report": cmd_report, "memory": cmd_memory}[args.cmd]
    sys.exit(handler(args) or 0)


if __name__ == "__main__":
    main()
