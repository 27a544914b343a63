extension DedupReport {
    /// The HTML page's only style sheet, inlined so the page needs nothing else (SPEC §7
    /// `report --format html` works offline). Light and dark schemes; print keeps badges and
    /// avoids splitting a cluster across pages. No fonts or images are loaded.
    static let htmlStyleSheet = """
        :root {
          color-scheme: light dark;
          --text: #1d1d1f; --muted: #5f6368; --background: #ffffff; --panel: #f5f5f7; --line: #d2d2d7;
          --published: #1a7f37; --published-background: #dafbe1;
          --withheld: #9a3412; --withheld-background: #ffedd5; --link: #0b57d0;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --text: #f5f5f7; --muted: #a1a1a6; --background: #111113; --panel: #1c1c1f; --line: #3a3a3c;
            --published: #7ee2a0; --published-background: #12361f;
            --withheld: #fdba74; --withheld-background: #3b1d0b; --link: #8ab4f8;
          }
        }
        * { box-sizing: border-box; }
        body {
          margin: 0 auto; max-width: 72rem; padding: 1.5rem; background: var(--background); color: var(--text);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
        }
        h1 { font-size: 1.6rem; margin: 0 0 0.25rem; }
        h2 { font-size: 1.2rem; margin: 2rem 0 0.75rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
        h3 { font-size: 1rem; margin: 0 0 0.5rem; display: flex; gap: 0.5rem; align-items: baseline; }
        .meta, .note, .more { color: var(--muted); margin: 0.25rem 0; }
        code, .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
        td { overflow-wrap: break-word; }
        .id { overflow-wrap: anywhere; }
        a { color: var(--link); }
        .cards {
          list-style: none; padding: 0; margin: 0;
          display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: 0.75rem;
        }
        .card { background: var(--panel); border: 1px solid var(--line); border-radius: 0.6rem; padding: 0.75rem 1rem; }
        .card .value { display: block; font-size: 1.6rem; font-weight: 600; font-variant-numeric: tabular-nums; }
        .card .label { color: var(--muted); }
        table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; }
        th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); }
        th { font-weight: 600; color: var(--muted); font-size: 0.85rem; }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        .cluster { border: 1px solid var(--line); border-radius: 0.6rem; padding: 0.9rem 1rem; margin: 0.9rem 0; }
        .cluster.withheld { border-left: 4px solid var(--withheld); }
        .cluster.published { border-left: 4px solid var(--published); }
        .badge {
          display: inline-block; border-radius: 999px; padding: 0.05rem 0.6rem; font-size: 0.8rem; font-weight: 600;
          border: 1px solid currentColor; white-space: nowrap;
        }
        .badge.published { color: var(--published); background: var(--published-background); }
        .badge.withheld { color: var(--withheld); background: var(--withheld-background); }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0.25rem 0 0.5rem; }
        dt { color: var(--muted); }
        dd { margin: 0; overflow-wrap: break-word; }
        .status-public { color: var(--published); }
        .status-other { color: var(--withheld); }
        @media print {
          body { max-width: none; padding: 0; font-size: 10pt; }
          * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
          .cluster, .card, tr { break-inside: avoid; }
          h2, h3 { break-after: avoid; }
          a { color: inherit; text-decoration: none; }
        }
        """
}
