#include "report/page_assets.h"

namespace databox::report {

std::string_view PageStyle() {
  return R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d2430; background: #fafbfc; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #d0d7de; }
table { border-collapse: collapse; margin: .4em 0; }
th, td { border: 1px solid #d0d7de; padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: #eef1f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 .5em; border-radius: .6em; font-size: .85em; }
.fresh .badge, .ok > .badge, .badge.ok { background: #dafbe1; color: #116329; }
.stale .badge, .never .badge, .badge.failed, .failed > header .badge { background: #ffebe9; color: #a40e26; }
.on_demand .badge, .badge.not_started, .badge.not_run, .badge.skipped { background: #eef1f4; color: #57606a; }
.disabled { color: #8c959f; text-decoration: line-through; }
section.run { border: 1px solid #d0d7de; border-radius: 6px; padding: .4em .8em; margin: .6em 0; background: #fff; }
section.run.failed { border-color: #cf222e; }
section.run header { font-weight: 600; }
pre { background: #f6f8fa; padding: .5em; overflow-x: auto; white-space: pre-wrap; max-height: 24em; }
.error { color: #a40e26; white-space: pre-wrap; overflow-wrap: break-word; }
td { overflow-wrap: break-word; }
.nowrap, time { white-space: nowrap; }
#attention { border: 1px solid #d0d7de; border-radius: 6px; padding: .2em .8em; margin: .8em 0; background: #fff; }
#attention.failed { border: 2px solid #cf222e; background: #fff8f7; } #attention h2 { margin-top: .3em; border: 0; }
#attention pre, td.error pre, .transform-error pre { margin: .2em 0; max-height: 10em; }
tr.model-health.failed td { background: #fff8f7; } tr.model-health.failed td:first-child { color: #a40e26; font-weight: 600; }
.badge.unknown { background: #eef1f4; color: #57606a; }
#timeline .timeline-row { display: flex; align-items: center; gap: .6em; margin: .15em 0; }
#timeline .timeline-label { width: 22em; overflow: hidden; text-overflow: ellipsis; }
#timeline .track { position: relative; flex: 1; height: 1.3em; background: #eef1f4; border-radius: 3px; }
#timeline .bar { position: absolute; top: 0; height: 100%; overflow: hidden; white-space: nowrap; font-size: .75em; padding: 0 .2em; border-radius: 3px; background: #8dd6a0; box-sizing: border-box; }
#timeline .bar.failed, #timeline .bar.interrupted { background: #ff8182; } #timeline .bar.not_started { background: #d0d7de; }
#timeline .bar.transform { background: #d8b9ff; } #timeline .bar.transform.failed { background: #ff8182; }
svg .node.failed rect { fill: #ffebe9; stroke: #cf222e; stroke-width: 2; } svg .node.ok rect, svg .node.fresh rect { stroke: #1a7f37; }
svg .node.stale rect, svg .node.never rect { stroke: #bf8700; }
svg .edge.failed { stroke: #cf222e; stroke-width: 2; } svg .edge.ok, svg .edge.fresh { stroke: #1a7f37; }
#summary ul { margin: .3em 0; padding-left: 1.2em; }
#runs.failed-only section.run:not(.failed) { display: none; }
svg .node rect { fill: #fff; stroke: #57606a; } svg .node.source rect { fill: #ddf4ff; }
svg .node.model:not(.failed) rect { fill: #fbefff; } svg .node.disabled text { fill: #8c959f; }
svg text { font: 12px system-ui, sans-serif; } svg .heading { font-weight: 600; }
svg .edge { fill: none; stroke: #8c959f; stroke-width: 1.2; }
.muted { color: #57606a; }
)css";
}

std::string_view PageScript() {
  return R"js(
(function () {
  'use strict';
  var now = Date.now();
  var body = document.body;
  var staleAfterMs = Number(body.getAttribute('data-stale-after-ms'));

  function ago(millis) {
    var s = Math.max(0, Math.round((now - millis) / 1000));
    if (s < 120) return s + ' s ago';
    var m = Math.round(s / 60);
    if (m < 120) return m + ' min ago';
    var h = Math.round(m / 60);
    if (h < 48) return h + ' h ago';
    return Math.round(h / 24) + ' days ago';
  }

  // Ages as of now, not as of when the page was written; routine sources judged again.
  document.querySelectorAll('[data-at-millis]').forEach(function (cell) {
    var at = Number(cell.getAttribute('data-at-millis'));
    cell.textContent = ago(at);
    cell.setAttribute('title', 'as of ' + new Date(now).toISOString());
    var row = cell.closest('tr.source');
    if (row && row.getAttribute('data-routine') === 'true' && staleAfterMs > 0) {
      var state = now - at > staleAfterMs ? 'stale' : 'fresh';
      row.classList.remove('fresh', 'stale');
      row.classList.add(state);
      row.setAttribute('data-freshness', state);
      var badge = row.querySelector('.freshness .badge');
      if (badge) badge.textContent = state;
    }
  });

  function count(selector) { return document.querySelectorAll(selector).length; }
  function item(list, kind, text) {
    var li = document.createElement('li');
    li.className = 'summary-item';
    li.setAttribute('data-kind', kind);
    li.textContent = text;
    list.appendChild(li);
  }

  var summary = document.getElementById('summary');
  var list = document.createElement('ul');
  item(list, 'sources', count('tr.source') + ' sources: ' + count('tr.source.fresh') +
       ' fresh, ' + count('tr.source.stale') + ' stale, ' + count('tr.source.never') +
       ' never loaded, ' + count('tr.source.on_demand') + ' on demand');
  var newest = document.querySelector('section.run');
  item(list, 'runs', count('section.run') + ' runs shown, ' + count('section.run.failed') +
       ' failed' + (newest ? '; newest run ' + newest.getAttribute('data-status') : ''));
  item(list, 'models', count('tr.model-health') + ' models: ' +
       count('tr.model-health.failed') + ' failed, ' + count('tr.model-health.skipped') +
       ' skipped');
  item(list, 'tables', count('tr.table') + ' tables');
  summary.appendChild(list);
  summary.setAttribute('data-ready', 'true');

  var runs = document.getElementById('runs');
  if (runs && newest) {
    var label = document.createElement('label');
    var box = document.createElement('input');
    box.type = 'checkbox';
    box.id = 'failed-only';
    box.addEventListener('change', function () { runs.classList.toggle('failed-only', box.checked); });
    label.appendChild(box);
    label.appendChild(document.createTextNode(' failed runs only'));
    runs.insertBefore(label, runs.querySelector('section.run'));
  }
})();
)js";
}

}  // namespace databox::report
