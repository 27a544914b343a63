#!/usr/bin/env python3
"""Helper for Benchmarks/fetch.sh: page generation, a free port, precise measurement, the report.

Subcommands:
  pages DIR COUNT SEED         write COUNT HTML pages (2-5 KB each) to DIR/p/, print their total bytes
  port                         print a free TCP port on 127.0.0.1
  measure JSON TIMEOUT -- CMD  run CMD under GNU time (stdin /dev/null; stdout/stderr to JSON.stdout/.stderr)
                               and write wall seconds, user/sys CPU seconds and peak RSS to JSON
  annotate JSON ...            check a run's output (pages, body bytes, exit) and record the verdict in JSON
  report ...                   see `report --help`

Measurement: wall time is time.perf_counter() around fork/exec and the wait. CPU comes from the
kernel's rusage as returned by os.wait4() (microsecond resolution; user+sys of every thread of the
child and of the children it waited for). The command runs under GNU time (`time -f %M`), which
waits for it and reports its own peak RSS in KiB; GNU time's own CPU, about a millisecond, is in the
CPU figure for every tool alike.
"""
import argparse
import json
import os
import re
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

# bench_common.py sits next to this file; importing it must not leave a __pycache__ in the repository.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import load_runs, pair_ratios, run_figures, table_head, tools_in_order  # noqa: E402

WORDS = (
    "searchlight crawler fetch page link index query ranking robots sitemap anchor text title "
    "header footer article section paragraph content server client socket transfer response request "
    "cache latency throughput bandwidth loopback keepalive connection thread event loop timer "
    "alpha beta gamma delta epsilon zeta theta lambda sigma omega river mountain forest ocean "
    "city village market garden library museum harbour bridge tower station engine signal"
).split()


def sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
    return " ".join(words).capitalize() + "."


def make_page(rng, index, count, target):
    title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 5))).title()
    head = (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{title} ({index})</title>\n"
        f"<meta name=\"description\" content=\"{sentence(rng)}\">\n</head>\n<body>\n"
        f"<h1>{title}</h1>\n"
    )
    tail = "</body>\n</html>\n"
    parts = [head]
    size = len(head) + len(tail)
    while size < target:
        kind = rng.random()
        if kind < 0.55:
            chunk = "<p>" + " ".join(sentence(rng) for _ in range(rng.randint(1, 4))) + "</p>\n"
        elif kind < 0.85:
            links = "".join(
                f"<li><a href=\"/p/{rng.randrange(count):05d}.html\">{rng.choice(WORDS)} {rng.choice(WORDS)}</a></li>"
                for _ in range(rng.randint(2, 6))
            )
            chunk = f"<ul>{links}</ul>\n"
        else:
            chunk = f"<h2>{rng.choice(WORDS).title()} {rng.choice(WORDS)}</h2>\n"
        parts.append(chunk)
        size += len(chunk)
    parts.append(tail)
    return "".join(parts)


def cmd_pages(args):
    rng = random.Random(args.seed)
    out = os.path.join(args.dir, "p")
    os.makedirs(out, exist_ok=True)
    total = 0
    for index in range(args.count):
        page = make_page(rng, index, args.count, rng.randint(2048, 5000)).encode()
        with open(os.path.join(out, f"{index:05d}.html"), "wb") as f:
            f.write(page)
        total += len(page)
    print(total)


def cmd_port(_args):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def cmd_measure(args):
    command = args.command[1:] if args.command and args.command[0] == "--" else args.command
    if not command:
        sys.exit("measure: no command")
    rss_file = args.json + ".rss"
    # The tool runs under GNU time, which reports only the tool's own peak RSS. Taken from our own
    # wait4(), ru_maxrss would start at this Python process's RSS: Linux carries the high-water
    # mark of the memory a process had before exec over to what it runs next, and a child forked
    # from Python starts with Python's (~15 MiB). Under GNU time that floor is time's (~1 MiB).
    wrapped = [args.time_bin, "-f", "%M", "-o", rss_file, "--", *command]
    with open(args.json + ".stdout", "wb") as out, open(args.json + ".stderr", "wb") as err, open(os.devnull, "rb") as devnull:
        started = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdin=devnull, stdout=out, stderr=err, start_new_session=True)
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        def interrupted(signum, _frame):
            # The tool runs in its own session, out of reach of a Ctrl-C or of the TERM a script sends
            # this process: it must not outlive the measurement.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os._exit(128 + signum)  # at once: no result to write, no timer thread to wait for

        timer = threading.Timer(args.timeout, kill)
        timer.start()
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, interrupted)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # keep Popen from waiting again
    max_rss_kib = None
    try:
        with open(rss_file) as f:
            max_rss_kib = int(f.read().split()[-1])
    except (OSError, ValueError, IndexError):
        pass
    result = {
        "command": command,
        "exit": proc.returncode,
        "timed_out": timed_out.is_set(),
        "wall_s": wall,
        # wait4() on GNU time: its own CPU (about a millisecond) plus the tool's, every thread.
        "user_s": usage.ru_utime,
        "sys_s": usage.ru_stime,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "max_rss_kib": max_rss_kib if max_rss_kib is not None else usage.ru_maxrss,
        "voluntary_ctx_switches": usage.ru_nvcsw,
        "involuntary_ctx_switches": usage.ru_nivcsw,
    }
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    return 124 if timed_out.is_set() else 0


SUMMARY = re.compile(r"fetched (\d+) URLs .*?: (\d+) responses, (\d+) failed, (\d+) body bytes")


def cmd_annotate(args):
    """Checks one run's output against what the server holds and records the verdict in its JSON."""
    with open(args.json) as f:
        run = json.load(f)
    with open(args.json + ".stdout", errors="replace") as f:
        stdout = f.read()
    with open(args.json + ".stderr", errors="replace") as f:
        stderr = f.read()
    problems = []
    if args.tool == "searchlight":
        match = SUMMARY.search(stderr)
        if not match:
            problems.append("no summary line on stderr")
            pages = body = 0
        else:
            urls, pages, failed, body = (int(x) for x in match.groups())
            if failed:
                problems.append(f"{failed} failed")
        client_conns = None
    else:  # curl -w '%{http_code} %{size_download} %{num_connects}\n'
        pages = body = 0
        client_conns = 0
        for line in stdout.splitlines():
            fields = line.split()
            if len(fields) != 3:
                continue
            if fields[0] == "200":
                pages += 1
            body += int(fields[1])
            client_conns += int(fields[2])
    if run["exit"] != 0:
        problems.append(f"exit status {run['exit']}")
    if run["timed_out"]:
        problems.append("timed out")
    if pages != args.expected_pages:
        problems.append(f"{pages} of {args.expected_pages} pages")
    if body != args.expected_bytes:
        problems.append(f"{body} body bytes, expected {args.expected_bytes}")
    if args.server_requests is not None and args.server_requests != args.expected_pages:
        problems.append(f"server counted {args.server_requests} requests")
    run.update(
        tool=args.tool, pages=pages, body_bytes=body, ok=not problems, problems=problems,
        connections=args.server_connections, client_connections=client_conns, server_requests=args.server_requests,
    )
    with open(args.json, "w") as f:
        json.dump(run, f, indent=1)
    status = "ok" if not problems else "FAILED: " + "; ".join(problems)
    conns = f", {args.server_connections} connections" if args.server_connections is not None else ""
    print(
        f"  {args.tool:<12} wall {run['wall_s']:.3f} s  CPU {run['cpu_s']:.3f} s (user {run['user_s']:.3f}, "
        f"sys {run['sys_s']:.3f})  RSS {run['max_rss_kib'] / 1024:.1f} MiB  {pages} pages{conns}  {status}"
    )
    return 0 if not problems else 1


def cmd_report(args):
    """Reads per-run JSON files (already annotated with 'tool', 'pages', 'ok', 'connections') and prints Markdown."""
    runs = load_runs(args.runs)
    tools = tools_in_order(runs)
    rows = {}
    for tool in tools:
        mine = [r for r in runs if r["tool"] == tool]
        rows[tool] = {
            **run_figures(mine),
            "pages": min(r["pages"] for r in mine),
            "ok": all(r["ok"] for r in mine),
            "conns": sorted({r.get("connections") for r in mine if r.get("connections") is not None}),
        }
    base = rows.get(args.baseline)
    lines = table_head(["tool", "pages", "wall s (median)", "pages/s", "CPU s (median, user+sys)", "user s", "sys s",
                        "CPU ratio vs curl", "peak RSS MiB", "TCP connections"], "lrrrrrrrrr")
    for tool in tools:
        row = rows[tool]
        ratio = f"{row['cpu'] / base['cpu']:.2f}×" if base and base["cpu"] > 0 else "n/a"
        conns = ", ".join(str(c) for c in row["conns"]) if row["conns"] else "n/a"
        pages = f"{row['pages']}" + ("" if row["ok"] else " (FAILED)")
        lines.append(
            f"| {tool} | {pages} | {row['wall']:.3f} | {row['pages'] / row['wall']:.0f} | {row['cpu']:.3f} "
            f"| {row['user']:.3f} | {row['sys']:.3f} | {ratio} | {row['rss']:.1f} | {conns} |"
        )
    lines.append("")
    counts = ", ".join(f"{rows[t]['runs']} for {t}" for t in tools)
    lines.append(
        f"Medians of the measured runs ({counts}), after one warm-up run each; runs alternate between "
        "the tools. user s and sys s are medians of their own, so they need not add up to CPU s. "
        "Peak RSS is the highest of the runs; TCP connections are those nginx accepted during a run."
    )
    spread = "; ".join(
        f"{t}: wall {rows[t]['wall_min']:.3f}–{rows[t]['wall_max']:.3f} s, CPU {rows[t]['cpu_min']:.3f}–{rows[t]['cpu_max']:.3f} s"
        for t in tools
    )
    lines.append(f"Range over the runs: {spread}.")
    if base and args.subject in rows:
        pairs = pair_ratios(runs, args.subject, args.baseline)
        if pairs:
            lines.append(
                f"CPU ratio of side-by-side runs ({len(pairs)} pairs): min {pairs[0]:.2f}×, "
                f"median {statistics.median(pairs):.2f}×, max {pairs[-1]:.2f}×."
            )
    if base and args.target and args.subject in rows:
        ratio = rows[args.subject]["cpu"] / base["cpu"]
        verdict = "met" if ratio <= args.target else "NOT met"
        lines.append(
            f"Target: {args.subject} CPU ≤ {args.target}× {args.baseline}'s — {verdict} "
            f"({rows[args.subject]['cpu']:.3f} s vs {base['cpu']:.3f} s = {ratio:.2f}×)."
        )
    print("\n".join(lines))
    if args.verdict_file and base and args.subject in rows:
        with open(args.verdict_file, "w") as f:
            f.write("met\n" if rows[args.subject]["cpu"] / base["cpu"] <= args.target else "missed\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pages")
    p.add_argument("dir")
    p.add_argument("count", type=int)
    p.add_argument("seed", type=int)
    sub.add_parser("port")
    m = sub.add_parser("measure")
    m.add_argument("--time-bin", default="/usr/bin/time", help="GNU time")
    m.add_argument("json")
    m.add_argument("timeout", type=float)
    m.add_argument("command", nargs=argparse.REMAINDER)
    a = sub.add_parser("annotate")
    a.add_argument("json")
    a.add_argument("--tool", required=True, choices=["searchlight", "curl"])
    a.add_argument("--expected-pages", type=int, required=True)
    a.add_argument("--expected-bytes", type=int, required=True)
    a.add_argument("--server-requests", type=int)
    a.add_argument("--server-connections", type=int)
    r = sub.add_parser("report")
    r.add_argument("--baseline", default="curl")
    r.add_argument("--subject", default="searchlight")
    r.add_argument("--target", type=float, default=1.5)
    r.add_argument("--verdict-file")
    r.add_argument("runs", nargs="+")
    args = parser.parse_args()
    handler = {
        "pages": cmd_pages, "port": cmd_port, "measure": cmd_measure, "annotate": cmd_annotate, "report": cmd_report,
    }[args.cmd]
    sys.exit(handler(args) or 0)


if __name__ == "__main__":
    main()
