// The report's stylesheet, inlined into the page. Outcome colours are the Okabe–Ito palette (safe for
// the common colour-vision deficiencies) and each outcome also has its own pattern and outline, so
// committed / aborted / open / unknown differ without colour: solid, hatched, dotted with a dashed border,
// white with a dotted border.
export const REPORT_CSS = `
:root { --committed: #0072b2; --aborted: #d55e00; --open: #e69f00; --plain: #b8b8b8; --lso: #cc79a7; --ink: #1a1a1a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0; background: #fafafa; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 12px; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 18px; margin: 24px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 4px; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
.meta { color: #555; margin: 0 0 8px; }
.controls { display: flex; flex-wrap: wrap; gap: 18px; align-items: center; margin: 8px 0; }
.legend { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; }
.legend span { display: inline-flex; align-items: center; gap: 5px; }
.legend svg { width: 30px; height: 14px; }
table { border-collapse: collapse; margin: 6px 0; background: #fff; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; white-space: nowrap; }
th { background: #f0f0f0; font-weight: 600; }
td.l, th.l { text-align: left; white-space: normal; }
tr.total td { font-weight: 600; background: #f6f6f6; }
.partition { background: #fff; border: 1px solid #e2e2e2; border-radius: 6px; padding: 8px 12px 10px; margin: 12px 0; }
.partition .summary { margin: 2px 0 6px; color: #333; }
svg.lane { width: 100%; height: auto; display: block; background: #fff; overflow: visible; }
.axis { display: flex; justify-content: space-between; color: #555; font-size: 12px; }
body.time .ax-o, body:not(.time) .ax-t { display: none; }
.bar.txn { stroke: #222; stroke-width: 0.8; }
.txn.committed, .bucket.committed, .sw-committed { fill: var(--committed); }
.txn.aborted, .bucket.aborted, .sw-aborted { fill: url(#p-aborted); }
.txn.open, .sw-open { fill: url(#p-open); stroke: #000; stroke-width: 1.6; stroke-dasharray: 4 2; }
.txn.unknown, .sw-unknown { fill: #fff; stroke: #000; stroke-width: 1.6; stroke-dasharray: 1 2; }
.bar.plain, .bucket.plain, .sw-plain { fill: var(--plain); }
.bar.blocking { stroke: #000; stroke-width: 3.5; stroke-dasharray: none; }
.tick.commit { fill: var(--committed); }
.tick.abort { fill: var(--aborted); }
.tick.control { fill: #555; }
.bar-label { font: 600 10.5px system-ui, sans-serif; fill: #fff; paint-order: stroke; stroke: rgba(0,0,0,.55); stroke-width: 2.2px; pointer-events: none; }
.bar.plain + .bar-label { fill: #111; stroke: rgba(255,255,255,.8); }
body.time .bar-label { display: none; }
.tick-letter { font: bold 11px system-ui, sans-serif; fill: var(--ink); }
.vline { stroke-width: 2; }
.vline.hw { stroke: var(--ink); }
.vline.lso { stroke: var(--lso); stroke-dasharray: 5 3; stroke-width: 2.5; }
.vlabel { font: bold 10px system-ui, sans-serif; }
.vlabel.lso { fill: #a0527f; text-anchor: end; transform: translateX(-3px); }
.vlabel.hw { fill: var(--ink); transform: translateX(3px); }
[data-kind]:focus { outline: none; stroke: #000; stroke-width: 3; }
.blocked { border-left: 5px solid var(--aborted); background: #fff6ef; padding: 6px 10px; margin: 8px 0; }
.blocked.hanging { border-left-color: #8b0000; }
.blocked pre { background: #1e1e1e; color: #f0f0f0; padding: 6px 8px; overflow-x: auto; margin: 4px 0; border-radius: 4px; }
.ok { color: #2d6a2d; }
.sev-error { color: #a40000; font-weight: 600; }
.sev-warning { color: #8a5a00; font-weight: 600; }
.sev-info { color: #555; }
details { margin: 6px 0; }
#detail { position: fixed; right: 12px; bottom: 12px; max-width: 440px; background: #fff; border: 1px solid #888; border-radius: 6px;
  box-shadow: 0 2px 10px rgba(0,0,0,.2); padding: 8px 12px; font-size: 13px; z-index: 10; }
#detail dl { display: grid; grid-template-columns: auto 1fr; gap: 1px 10px; margin: 4px 0 0; }
#detail dt { color: #555; }
#detail dd { margin: 0; font-family: ui-monospace, Menlo, Consolas, monospace; word-break: break-all; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
ol.doctor { padding-left: 0; list-style: none; }
ol.doctor > li { background: #fff; border: 1px solid #ddd; border-left-width: 4px; margin: 6px 0; padding: 4px 10px; }
ol.doctor > li.sev-error { border-left-color: #a40000; font-weight: normal; color: var(--ink); }
ol.doctor > li.sev-warning { border-left-color: #8a5a00; font-weight: normal; color: var(--ink); }
ol.doctor .cmd code { white-space: pre-wrap; word-break: break-all; }
.doctor-summary { background: #fff; border: 1px solid #ddd; padding: 6px 10px; white-space: pre-wrap; }
.axis-bar .clean { fill: var(--committed); } .axis-bar .dirty { fill: var(--open); } .axis-bar .uncleanable, .axis-bar .plain { fill: var(--plain); }
.axis-bar .diverged { fill: var(--aborted); } .axis-bar .tick { stroke: var(--ink); stroke-width: 2; }
`

/** patterns referenced by the CSS above; one hidden <svg> per page */
export const REPORT_PATTERNS =
  '<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs>' +
  '<pattern id="p-aborted" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
  '<rect width="6" height="6" fill="#f7c6a3"/><rect width="3" height="6" fill="#d55e00"/></pattern>' +
  '<pattern id="p-open" width="6" height="6" patternUnits="userSpaceOnUse">' +
  '<rect width="6" height="6" fill="#ffe9b8"/><circle cx="3" cy="3" r="1.6" fill="#8a5a00"/></pattern>' +
  '</defs></svg>'
