#!/usr/bin/env python3
"""Measures `searchlight serve` under the loads its limits are for (Benchmarks/serve-limits.sh runs it).

  serve_limits.py SCENARIO --url URL --pid PID [--token TOKEN] [--mix FILE] [--json OUT]

Scenarios (one server each run; the figures are printed as JSON and written to --json):
  imports    search p50/p99/max from 4 closed-loop clients, alone and while two 472 KB donation lines are
             posted at once and imported (20 rounds); the posts' statuses and times.
  readers    64 clients ask for /api/report and never read: the server's RSS before, at its highest over
             10 s, and 3 s after they close.
  burst      8 concurrent 10 MiB donation bodies while 4 clients search: statuses, search p99/max, and the
             server's RSS before, at its highest, and 3 s after the last answer.
  trickle    a token holder trickles a 1 MB body at 50 B/s; after 2 s the server gets SIGTERM: the seconds
             from the signal to its exit.

The server's memory is VmRSS from /proc/PID/status, sampled every 50 ms. Search latency is measured by
the client (Python's own overhead, about 0.2 ms a request, included).
"""
import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import threading
import sys
import time
import urllib.parse

# bench_common.py sits next to this file; importing it must not leave a __pycache__ in the repository.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import percentile_floor as percentile  # noqa: E402


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class RSSSampler(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0.0, True

    def run(self):
        while self.running:
            try:
                self.peak = max(self.peak, rss_mb(self.pid))
            except OSError:
                return
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.join()
        return self.peak


class Searchers:
    """Closed-loop search clients on kept-alive connections; each search is (start, seconds, status)."""

    def __init__(self, host, port, paths, clients=4):
        self.host, self.port, self.paths = host, port, paths
        self.samples, self.lock, self.running = [], threading.Lock(), True
        self.threads = [threading.Thread(target=self.loop, args=(n,), daemon=True) for n in range(clients)]

    def loop(self, number):
        rng = random.Random(number)
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        while self.running:
            path = rng.choice(self.paths)
            start = time.monotonic()
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = 0
                connection.close()
                connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            with self.lock:
                self.samples.append((start, time.monotonic() - start, status))

    def start(self):
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.running = False
        for thread in self.threads:
            thread.join()

    def latencies(self, start, end):
        with self.lock:
            return [seconds * 1000 for began, seconds, _ in self.samples if start <= began <= end]

    def failures(self):
        with self.lock:
            return sum(1 for _, _, status in self.samples if status != 200)


def post(host, port, token, body, results, index):
    start = time.monotonic()
    try:
        connection = http.client.HTTPConnection(host, port, timeout=600)
        connection.request("POST", "/api/donations", body=body, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        answer = response.read()
        imported = json.loads(answer).get("imported") if response.status == 200 else None
        results[index] = (response.status, time.monotonic() - start, imported)
    except (OSError, http.client.HTTPException) as error:
        results[index] = (f"error {error}", time.monotonic() - start, None)


def post_all(host, port, token, bodies):
    """Posts every body at once; returns each post's (status, seconds, imported) and the window's ends."""
    results = [None] * len(bodies)
    start = time.monotonic()
    posts = [threading.Thread(target=post, args=(host, port, token, body, results, n))
             for n, body in enumerate(bodies)]
    for thread in posts:
        thread.start()
    for thread in posts:
        thread.join()
    return results, start, time.monotonic()


def big_line(tag, size=472_000):
    """One userActivity line of about `size` bytes: 1,000 long keywords (the most a record may have)."""
    width = max(1, (size - 600) // 1000 - 4)
    record = {
        "type": "userActivity", "bundleIdentifier": "com.bench.stream", "donor": f"donor-{tag}",
        "activityType": "com.bench.stream.view", "title": f"Large donation {tag}",
        "keywords": [f"k{n}-" + "x" * width for n in range(1000)],
        "userInfo": {"id": tag}, "requiredUserInfoKeys": ["id"], "isEligibleForSearch": True,
        "isEligibleForPublicIndexing": True,
    }
    return json.dumps(record, separators=(",", ":"))


def small_lines(tag, total):
    lines, size, n = [], 0, 0
    while size < total - 2048:
        line = json.dumps({
            "type": "userActivity", "bundleIdentifier": "com.bench.stream", "donor": f"burst-{tag}-{n}",
            "activityType": "com.bench.stream.view", "title": f"Burst {tag} record {n}",
            "keywords": ["burst", tag], "userInfo": {"id": f"{tag}-{n}"}, "requiredUserInfoKeys": ["id"],
            "isEligibleForSearch": True, "isEligibleForPublicIndexing": True,
            "contentAttributeSet": {"contentDescription": "x" * 900},
        }, separators=(",", ":"))
        lines.append(line)
        size += len(line) + 1
        n += 1
    return "\n".join(lines).encode()


def summary(values):
    if not values:
        return {"count": 0}
    return {"count": len(values), "p50_ms": round(percentile(values, 0.5), 2),
            "p99_ms": round(percentile(values, 0.99), 2), "max_ms": round(max(values), 2)}


ROUNDS = 20


def imports(args, host, port, paths):
    searchers = Searchers(host, port, paths)
    searchers.start()
    time.sleep(3)
    rounds, during, alone = [], [], []
    for round_number in range(ROUNDS):
        quiet_start = time.monotonic()
        time.sleep(2)
        alone += searchers.latencies(quiet_start, time.monotonic())
        bodies = [big_line(f"r{round_number}-{n}-{random.random()}").encode() for n in range(2)]
        results, start, end = post_all(host, port, args.token, bodies)
        during += searchers.latencies(start, end)
        rounds.append({"posts": [{"status": s, "seconds": round(t, 3), "imported": n} for s, t, n in results],
                       "window_s": round(end - start, 3)})
    searchers.stop()
    return {"line_bytes": len(bodies[0]), "alone": summary(alone), "during_imports": summary(during),
            "rounds": rounds, "failed_searches": searchers.failures()}


def readers(args, host, port):
    # The first request after a publish writes the report file: read it whole once.
    connection = http.client.HTTPConnection(host, port, timeout=120)
    connection.request("GET", "/api/report")
    report_bytes = len(connection.getresponse().read())
    connection.close()
    time.sleep(1)
    before = rss_mb(args.pid)
    sampler = RSSSampler(args.pid)
    sampler.start()
    sockets = []
    for _ in range(64):
        client = socket.create_connection((host, port))
        client.sendall(b"GET /api/report HTTP/1.1\r\nHost: bench\r\n\r\n")
        sockets.append(client)
    time.sleep(10)
    held = rss_mb(args.pid)
    peak = sampler.stop()
    for client in sockets:
        client.close()
    time.sleep(3)
    return {"report_bytes": report_bytes, "clients": 64, "rss_before_mb": round(before, 1),
            "rss_peak_mb": round(peak, 1), "rss_at_10s_mb": round(held, 1), "growth_mb": round(peak - before, 1),
            "rss_after_close_mb": round(rss_mb(args.pid), 1)}


def burst(args, host, port, paths):
    bodies = [small_lines(f"b{n}-{random.random()}", 10 * 1024 * 1024 - 1024) for n in range(8)]
    searchers = Searchers(host, port, paths)
    searchers.start()
    time.sleep(2)
    before = rss_mb(args.pid)
    sampler = RSSSampler(args.pid)
    sampler.start()
    results, start, end = post_all(host, port, args.token, bodies)
    during = searchers.latencies(start, end)
    time.sleep(3)
    searchers.stop()
    peak = sampler.stop()
    return {"bodies": 8, "body_bytes": len(bodies[0]), "statuses": [s for s, _, _ in results],
            "seconds": [round(t, 2) for _, t, _ in results], "imported": [n for _, _, n in results],
            "searches_during": summary(during),
            "failed_searches": searchers.failures(), "rss_before_mb": round(before, 1),
            "rss_peak_mb": round(peak, 1), "rss_3s_after_mb": round(rss_mb(args.pid), 1)}


def trickle(args, host, port):
    client = socket.create_connection((host, port))
    client.sendall(f"POST /api/donations HTTP/1.1\r\nHost: bench\r\nContent-Length: 1000000\r\n"
                   f"Authorization: Bearer {args.token}\r\n\r\n".encode())
    stop = threading.Event()

    def send():
        while not stop.is_set():
            try:
                client.sendall(b" " * 5)
            except OSError:
                return
            time.sleep(0.1)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    time.sleep(2)
    signalled = time.monotonic()
    os.kill(args.pid, signal.SIGTERM)
    while os.path.exists(f"/proc/{args.pid}") and time.monotonic() - signalled < 300:
        try:
            with open(f"/proc/{args.pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
        except OSError:
            break
        time.sleep(0.05)
    stop.set()
    return {"seconds_from_sigterm_to_exit": round(time.monotonic() - signalled, 2)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["imports", "readers", "burst", "trickle"])
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--token")
    parser.add_argument("--mix")
    parser.add_argument("--json")
    args = parser.parse_args()
    parsed = urllib.parse.urlparse(args.url)
    host, port = parsed.hostname, parsed.port
    paths = ["/api/search?q=lemon"]
    if args.mix:
        with open(args.mix) as mix:
            paths = [line.strip() for line in mix if line.startswith("/api/search")]
    if args.scenario == "imports":
        result = imports(args, host, port, paths)
    elif args.scenario == "readers":
        result = readers(args, host, port)
    elif args.scenario == "burst":
        result = burst(args, host, port, paths)
    else:
        result = trickle(args, host, port)
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
