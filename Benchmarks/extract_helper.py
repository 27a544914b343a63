#!/usr/bin/env python3
"""Helper for Benchmarks/extract.sh: checks each measured run, then writes the Markdown report.

Subcommands:
  pages DIR                      print "PAGES BYTES" of the *.html/*.htm files under DIR (what every tool reads)
  check RUN.json --tool T --pages N --bytes B [--label L] [--machine-ticks "BUSY TOTAL" "BUSY TOTAL" --clock-ticks HZ]
                                 check one run (fetch_helper.py `measure` output plus its .stdout/.stderr) and
                                 record tool, label, pages, bytes, ok, problems and notes in RUN.json
  report --set RUN.json... [--linear RUN.json...] [--targets ...]
                                 print the Markdown tables (and write the verdicts to --verdict-file)

What `check` verifies, per tool:
- searchlight (`extract DIR --json`): exit 0; exactly one JSON line per page, each an object with a
  `url`, all URLs different; nothing on stderr (a page that could not be read is named there). Pages
  whose extraction reports notes (`errors`: repaired or invalid JSON-LD and the like) are counted,
  not failed: they are the quirks the page set is built with.
- libxml2 / libxml2-walk (Benchmarks/extract_libxml2.c): exit 0, its summary line counts every page
  and byte, no document failed.
- extruct (Benchmarks/extract_extruct.py): exit 0, its summary counts every page and byte. Syntax
  failures (extruct gives up on a page's JSON-LD when one block is not strict JSON, for example) are
  counted and named, not failed.
Any tool: not timed out.
"""
import argparse
import json
import os
import sys

# bench_common.py sits next to this file; importing it must not leave a __pycache__ in the repository.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import load_runs, median as med, other_load_cores, other_load_note, pair_ratios, table_head  # noqa: E402

LABELS = {
    "searchlight": "searchlight extract",
    "libxml2": "libxml2 parse",
    "libxml2-walk": "libxml2 parse + walk",
    "extruct": "extruct (4 syntaxes)",
}
MB = 1e6
ORDER = ["searchlight", "libxml2", "libxml2-walk", "extruct"]


def page_files(root):
    out = []
    for base, dirs, files in os.walk(root):
        for name in files:
            if name.lower().endswith((".html", ".htm")):
                out.append(os.path.join(base, name))
    return out


def cmd_pages(args):
    files = page_files(args.dir)
    print(len(files), sum(os.path.getsize(f) for f in files))


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def summary_line(stdout):
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def cmd_check(args):
    with open(args.json) as f:
        run = json.load(f)
    stdout = read(args.json + ".stdout")
    stderr = read(args.json + ".stderr")
    problems, notes, extra = [], [], {}
    if run.get("timed_out"):
        problems.append("timed out")
    if run.get("exit") != 0:
        problems.append(f"exit status {run.get('exit')}")
    if args.tool == "searchlight":
        lines = [line for line in stdout.split("\n") if line.strip()]
        urls, bad, noted, kinds = set(), 0, [], {}
        for line in lines:
            try:
                obj = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if not isinstance(obj, dict) or "url" not in obj:
                bad += 1
                continue
            urls.add(obj["url"])
            messages = obj.get("errors") or []
            if messages:
                noted.append(obj["url"])
                for m in messages:
                    kind = m.get("kind", "?") if isinstance(m, dict) else "?"
                    kinds[kind] = kinds.get(kind, 0) + 1
        if len(lines) != args.pages:
            problems.append(f"{len(lines)} JSON lines for {args.pages} pages")
        if bad:
            problems.append(f"{bad} lines are not a JSON object with a url")
        if len(urls) != len(lines) - bad:
            problems.append(f"{len(lines) - bad - len(urls)} repeated URLs")
        err_lines = [line for line in stderr.splitlines() if line.strip()]
        if err_lines:
            problems.append(f"{len(err_lines)} lines on stderr, first: {err_lines[0][:200]}")
        extra.update(tool_pages=len(lines), noted_pages=len(noted), note_kinds=kinds, noted_urls=noted[:50])
        if noted:
            notes.append(f"{len(noted)} pages with extraction notes ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})")
    else:
        s = summary_line(stdout)
        if s is None:
            problems.append("no summary line on stdout")
            s = {}
        if s.get("pages") != args.pages:
            problems.append(f"{s.get('pages')} pages read for {args.pages}")
        if s.get("bytes") != args.bytes:
            problems.append(f"{s.get('bytes')} bytes read for {args.bytes}")
        extra["summary"] = s
        extra["tool_pages"] = s.get("pages")
        if args.tool.startswith("libxml2") and s.get("failed"):
            problems.append(f"{s['failed']} pages did not parse")
        if args.tool == "extruct":
            if s.get("unreadable"):
                problems.append(f"{s['unreadable']} pages unreadable")
            if s.get("syntax_failures"):
                pages = sorted({f["page"] for f in s.get("failures", [])})
                notes.append(f"{s['syntax_failures']} syntax failures on {len(pages)} pages (extruct drops that syntax for the page)")
        if stderr.strip() and args.tool.startswith("libxml2"):
            problems.append("stderr: " + stderr.strip().splitlines()[0][:200])
    if args.machine_ticks and args.clock_ticks:
        # What else the machine did during the run, in cores: all busy time less the tool's own CPU.
        cores = other_load_cores(args.machine_ticks, args.clock_ticks, run["cpu_s"])
        if cores is not None:
            run["other_load_cores"] = cores
            if other_load_note(cores):
                notes.append(other_load_note(cores))
    run.update(tool=args.tool, label=args.label or args.tool, pages=args.pages, bytes=args.bytes,
               ok=not problems, problems=problems, notes=notes, **extra)
    with open(args.json, "w") as f:
        json.dump(run, f, indent=1)
    status = "ok" if not problems else "FAILED: " + "; ".join(problems)
    if notes:
        status += " (" + "; ".join(notes) + ")"
    print(f"  {args.label or args.tool:<22} CPU {run['cpu_s']:7.3f} s (user {run['user_s']:.3f}, sys {run['sys_s']:.3f})  "
          f"wall {run['wall_s']:7.3f} s  RSS {run['max_rss_kib'] / 1024:6.1f} MiB  {args.pages} pages  {status}")
    return 0 if not problems else 1


VERDICT = {True: "met", False: "NOT met", None: "not judged, runs failed"}


def fmt_ratio(x):
    return f"{x:.2f}×" if x < 100 else f"{x:.0f}×"


def cmd_report(args):
    runs = load_runs(args.set)
    tools = sorted({r["tool"] for r in runs}, key=ORDER.index)
    rows = {}
    for t in tools:
        mine = [r for r in runs if r["tool"] == t]
        rows[t] = {
            "runs": len(mine), "ok": all(r["ok"] for r in mine), "pages": mine[0]["pages"], "bytes": mine[0]["bytes"],
            "cpu": med(r["cpu_s"] for r in mine), "cpu_min": min(r["cpu_s"] for r in mine), "cpu_max": max(r["cpu_s"] for r in mine),
            "user": med(r["user_s"] for r in mine), "sys": med(r["sys_s"] for r in mine), "wall": med(r["wall_s"] for r in mine),
            "rss": max(r["max_rss_kib"] for r in mine) / 1024, "other": med(r.get("other_load_cores") for r in mine),
            "notes": sorted({n for r in mine for n in r.get("notes", []) if not n.startswith("other work")}),
            "problems": sorted({p for r in mine for p in r.get("problems", [])}),
        }
    lines = table_head(["tool", "pages", "MB", "CPU s (median, user+sys)", "user s", "sys s", "wall s", "pages/s (CPU)",
                        "MB/s (CPU)", "CPU ÷ libxml2 parse", "peak RSS MiB", "other load (cores)"], "lrrrrrrrrrrr")
    base = rows.get("libxml2")
    for t in tools:
        r = rows[t]
        ratio = fmt_ratio(r["cpu"] / base["cpu"]) if base and base["cpu"] > 0 else "n/a"
        pages = f"{r['pages']}" + ("" if r["ok"] else " (FAILED)")
        other = f"{r['other']:.2f}" if r["other"] is not None else "n/a"
        lines.append(
            f"| {LABELS.get(t, t)} | {pages} | {r['bytes'] / MB:.1f} | {r['cpu']:.3f} | {r['user']:.3f} | {r['sys']:.3f} | {r['wall']:.3f} "
            f"| {r['pages'] / r['cpu']:.1f} | {r['bytes'] / MB / r['cpu']:.1f} | {ratio} | {r['rss']:.1f} | {other} |")
    lines.append("")
    counts = ", ".join(f"{rows[t]['runs']} for {LABELS.get(t, t)}" for t in tools)
    lines.append(f"Medians of the measured runs ({counts}), after {args.warmup} warm-up run(s) each; the order of the tools "
                 "rotates from run to run. CPU is user+sys of the whole process (start-up, reading the files, output "
                 "included) from wait4(2); MB are 10^6 bytes of HTML as stored; user s and sys s are medians of their own. "
                 "Other load: what the rest of the machine used during a run, in cores (median).")
    spread = "; ".join(f"{LABELS.get(t, t)} {rows[t]['cpu_min']:.3f}–{rows[t]['cpu_max']:.3f} s" for t in tools)
    lines.append(f"CPU range over the runs: {spread}.")
    lines.append("")
    verdicts = {}
    sl = rows.get("searchlight")
    def judged(*rs):
        return all(r["ok"] for r in rs)

    if sl and base:
        x = sl["cpu"] / base["cpu"]
        ok = x <= args.target_libxml2 if judged(sl, base) else None
        verdicts["libxml2"] = ok
        pairs = pair_ratios(runs, "searchlight", "libxml2")
        pr = f"; side by side {fmt_ratio(pairs[0])}–{fmt_ratio(pairs[-1])} over {len(pairs)} pairs" if pairs else ""
        lines.append(f"- **searchlight ÷ libxml2's parse alone: {fmt_ratio(x)}** (target ≤ {args.target_libxml2:g}×: "
                     f"{VERDICT[ok]}; {sl['cpu']:.3f} s vs {base['cpu']:.3f} s{pr}).")
    walk = rows.get("libxml2-walk")
    if sl and walk:
        lines.append(f"- searchlight ÷ libxml2 parse + one walk over every node: {fmt_ratio(sl['cpu'] / walk['cpu'])} (no target; "
                     f"parse + walk {walk['cpu']:.3f} s against the parse alone {base['cpu'] if base else float('nan'):.3f} s).")
    ex = rows.get("extruct")
    if sl and ex:
        x = ex["cpu"] / sl["cpu"]
        ok = x >= args.target_extruct if judged(sl, ex) else None
        verdicts["extruct"] = ok
        pairs = pair_ratios(runs, "extruct", "searchlight")
        pr = f"; side by side {fmt_ratio(pairs[0])}–{fmt_ratio(pairs[-1])} over {len(pairs)} pairs" if pairs else ""
        lines.append(f"- **extruct ÷ searchlight: {fmt_ratio(x)}**, i.e. searchlight does {fmt_ratio(x)} extruct's pages per "
                     f"CPU-second (target ≥ {args.target_extruct:g}×: {VERDICT[ok]}; {ex['cpu']:.3f} s vs {sl['cpu']:.3f} s{pr}).")
    ex_runs = [r for r in runs if r["tool"] == "extruct" and r.get("summary")]
    if ex_runs and ex_runs[0]["summary"].get("failures"):
        fs = ex_runs[0]["summary"]["failures"]
        shown = "; ".join(f"{f['page']}: {f['error'].replace('Failed to extract ', '').replace('|', '/')[:120]}" for f in fs[:12])
        more = f"; and {len(fs) - 12} more" if len(fs) > 12 else ""
        lines.append(f"- extruct's syntax failures (first measured run): {shown}{more}.")
    for t in tools:
        r = rows[t]
        if r["problems"]:
            lines.append(f"- {LABELS.get(t, t)} FAILED: {'; '.join(r['problems'])}.")
        if r["notes"]:
            lines.append(f"- {LABELS.get(t, t)}: {'; '.join(r['notes'])}.")
    # Linearity.
    if args.linear:
        lin = load_runs(args.linear)
        sizes = []
        for r in lin:
            if r["label"] not in [s[0] for s in sizes]:
                sizes.append((r["label"], r["bytes"]))
        sizes.sort(key=lambda s: s[1])
        ltools = sorted({r["tool"] for r in lin}, key=ORDER.index)
        cell = {}
        for t in ltools:
            for label, _ in sizes:
                mine = [r for r in lin if r["tool"] == t and r["label"] == label]
                if mine:
                    cell[t, label] = (med(r["cpu_s"] for r in mine), all(r["ok"] for r in mine), len(mine))
        lin_ok = {t: all(cell[k][1] for k in cell if k[0] == t) for t in ltools}
        lines += ["", "Linearity: one long page at 1/8, 1/2 and full size (each alone in its own process):", ""]
        head = "| page | bytes | MB |" + "".join(f" {LABELS.get(t, t)} CPU s | s/MB |" for t in ltools)
        lines += [head, "| --- | ---: | ---: |" + " ---: | ---: |" * len(ltools)]
        for label, nbytes in sizes:
            row = f"| {label} | {nbytes:,} | {nbytes / MB:.2f} |"
            for t in ltools:
                c = cell.get((t, label))
                if c:
                    row += f" {c[0]:.3f}{'' if c[1] else ' (FAILED)'} | {c[0] / (nbytes / MB):.4f} |"
                else:
                    row += " n/a | n/a |"
            lines.append(row)
        lines.append("")
        nruns = max((c[2] for c in cell.values()), default=0)
        lines.append(f"Medians of {nruns} run(s) each, the tools alternating. s/MB includes the process's start-up; the "
                     "marginal cost between two sizes leaves it out.")
        if len(sizes) >= 3:
            (l0, b0), (l1, b1), (l2, b2) = sizes[0], sizes[len(sizes) // 2], sizes[-1]
            for t in ltools:
                if all((t, lb) in cell for lb in (l0, l1, l2)):
                    c0, c1, c2 = (cell[t, lb][0] for lb in (l0, l1, l2))
                    s01 = (c1 - c0) / ((b1 - b0) / MB)
                    s12 = (c2 - c1) / ((b2 - b1) / MB)
                    growth = s12 / s01 if s01 > 0 else float("inf")
                    linear = growth <= args.linear_slope if lin_ok[t] else None
                    line = (f"- {LABELS.get(t, t)}: marginal {s01:.4f} s/MB from {l0} to {l1}, {s12:.4f} s/MB from {l1} to {l2} "
                            f"(× {growth:.2f}; linear if ≤ {args.linear_slope:g}×: {VERDICT[linear]})")
                    if t == "searchlight":
                        verdicts["linear"] = linear
                        fast = c2 < args.linear_seconds if lin_ok[t] else None
                        verdicts["big-page"] = fast
                        line += (f"; the {b2 / MB:.1f} MB page in {c2:.3f} CPU s (target < {args.linear_seconds:g} s: "
                                 f"{VERDICT[fast]})")
                    lines.append(line + ".")
        for t in ltools:
            for label, _ in sizes:
                mine = [r for r in lin if r["tool"] == t and r["label"] == label]
                problems = sorted({p for r in mine for p in r.get("problems", [])})
                notes = sorted({n for r in mine for n in r.get("notes", []) if not n.startswith("other work")})
                if problems:
                    lines.append(f"- {LABELS.get(t, t)} on {label} FAILED: {'; '.join(problems)}.")
                if notes:
                    lines.append(f"- {LABELS.get(t, t)} on {label}: {'; '.join(notes)}.")
    print("\n".join(lines))
    if args.verdict_file:
        with open(args.verdict_file, "w") as f:
            for k, v in verdicts.items():
                f.write(f"{k} {'met' if v else 'missed' if v is False else 'failed'}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pages")
    p.add_argument("dir")
    c = sub.add_parser("check")
    c.add_argument("json")
    c.add_argument("--tool", required=True, choices=sorted(LABELS))
    c.add_argument("--label")
    c.add_argument("--pages", type=int, required=True)
    c.add_argument("--bytes", type=int, required=True)
    c.add_argument("--machine-ticks", nargs=2, metavar=("BEFORE", "AFTER"), help='"busy total" from /proc/stat')
    c.add_argument("--clock-ticks", type=int)
    r = sub.add_parser("report")
    r.add_argument("--set", nargs="+", required=True)
    r.add_argument("--linear", nargs="*", default=[])
    r.add_argument("--warmup", type=int, default=1)
    r.add_argument("--target-libxml2", type=float, default=2.0)
    r.add_argument("--target-extruct", type=float, default=20.0)
    r.add_argument("--linear-seconds", type=float, default=1.0)
    r.add_argument("--linear-slope", type=float, default=1.5)
    r.add_argument("--verdict-file")
    args = parser.parse_args()
    handler = {"pages": cmd_pages, "check": cmd_check, "report": cmd_report}[args.cmd]
    sys.exit(handler(args) or 0)


if __name__ == "__main__":
    main()
