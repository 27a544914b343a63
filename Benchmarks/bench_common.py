"""What the Python helpers of Benchmarks/ share: run records, statistics, Markdown tables, /proc.

Imported by the helpers next to it (fetch_helper.py, crawl_helper.py, extract_helper.py,
refresh_helper.py, index_data.py, serve_limits.py) and by the inline Python of search.sh and
workers.sh; not a command. A run record is the JSON that fetch_helper.py `measure` writes (wall_s,
user_s, sys_s, cpu_s, max_rss_kib, exit, timed_out), which the helpers annotate (tool, ok, …).
"""
import json
import math
import os
import statistics
import time


# ---- run records -------------------------------------------------------------------------------

def load_runs(paths):
    """The run records (JSON files) at paths, in order."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    return runs


def tools_in_order(runs):
    """The runs' tools, in the order they first appear."""
    tools = []
    for run in runs:
        if run["tool"] not in tools:
            tools.append(run["tool"])
    return tools


def run_figures(runs):
    """Medians (user s and sys s each their own), ranges and the highest peak RSS (MiB) of some runs."""
    return {
        "runs": len(runs),
        "wall": statistics.median(r["wall_s"] for r in runs),
        "wall_min": min(r["wall_s"] for r in runs), "wall_max": max(r["wall_s"] for r in runs),
        "cpu": statistics.median(r["cpu_s"] for r in runs),
        "cpu_min": min(r["cpu_s"] for r in runs), "cpu_max": max(r["cpu_s"] for r in runs),
        "user": statistics.median(r["user_s"] for r in runs), "sys": statistics.median(r["sys_s"] for r in runs),
        "rss": max(r["max_rss_kib"] for r in runs) / 1024.0,
    }


def pair_ratios(runs, num, den, key="cpu_s"):
    """Ratio of the i-th run of tool `num` to the i-th run of tool `den` (where that is not 0), sorted:
    runs alternate between the tools, so these ran side by side and are less exposed to drift in the
    machine's speed than the ratio of medians."""
    a = [r[key] for r in runs if r["tool"] == num]
    b = [r[key] for r in runs if r["tool"] == den]
    return sorted(x / y for x, y in zip(a, b) if y > 0)


# ---- statistics --------------------------------------------------------------------------------

def median(values):
    """The median of the values that are not None; None when there are none."""
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def median_of(runs, key, missing=None):
    """The median of run[key] over the runs. A run without the key (or with None) is left out when
    `missing` is None, else counts as `missing`; None when no value is left."""
    values = [r.get(key) for r in runs]
    if missing is not None:
        values = [missing if v is None else v for v in values]
    return median(values)


def percentile(values, p):
    """Nearest-rank percentile (p from 0 to 1) of a non-empty sequence: the smallest value with at
    least p of all values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(p * len(ordered)) - 1))]


def percentile_floor(values, p):
    """The value at index floor(p × n) of the sorted values (one rank above nearest-rank when p × n is
    whole); None when there are none. serve_limits.py's definition, kept for its figures."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


# ---- Markdown ----------------------------------------------------------------------------------

def table_head(columns, align):
    """The header and separator lines of a Markdown table; align has one letter a column: l (---) or
    r (---:)."""
    return ["| " + " | ".join(columns) + " |",
            "| " + " | ".join("---:" if a == "r" else "---" for a in align) + " |"]


# ---- /proc -------------------------------------------------------------------------------------

def other_load_cores(machine_ticks, clock_ticks, *own_cpu_s):
    """What else the machine did during a run, in cores: all its busy time less the CPU seconds
    given (the tool's, nginx's…), over the run's wall time. machine_ticks: the two "busy total"
    strings read from /proc/stat before and after (lib.sh machine_ticks). None when no time passed."""
    (busy0, total0), (busy1, total1) = (tuple(int(x) for x in t.split()) for t in machine_ticks)
    cores = os.cpu_count() or 1
    wall_ticks = (total1 - total0) / cores
    if wall_ticks <= 0:
        return None
    rest = (busy1 - busy0) / clock_ticks
    for seconds in own_cpu_s:
        rest -= seconds
    return max(0.0, rest / (wall_ticks / clock_ticks))


OTHER_LOAD_NOTE = 0.25  # cores: above this, a run's notes say how busy the rest of the machine was


def other_load_note(cores):
    return f"other work on the machine used {cores:.2f} cores during the run" if cores > OTHER_LOAD_NOTE else None


def postgres_cpu_seconds(postmaster, settle=None):
    """User+sys seconds of a PostgreSQL cluster so far: the postmaster's own and its reaped children's
    (a backend's CPU moves there when its connection ends), plus its live children's. With settle (a
    database name), first waits (up to 10 s) for the backends of that database to end, so a step's
    connections count."""
    tick = os.sysconf("SC_CLK_TCK")
    pm = str(postmaster)

    def fields(pid):
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()

    def children():
        for pid in os.listdir("/proc"):
            if pid.isdigit() and pid != pm:
                try:
                    if fields(pid)[1] == pm:
                        yield pid
                except (OSError, IndexError):
                    continue

    if settle:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            busy = False
            for pid in children():
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        title = f.read().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                # A client backend's title: "postgres: USER DATABASE HOST(PORT) STATE".
                busy |= f" {settle} " in title and "(" in title
            if not busy:
                break
            time.sleep(0.05)
    f = fields(pm)
    total = sum(int(x) for x in f[11:15])  # utime stime cutime cstime of the postmaster
    for pid in children():
        try:
            f = fields(pid)
        except OSError:
            continue
        total += int(f[11]) + int(f[12])
    return total / tick
