// loadgen compare's page: per operation type, each run's percentile distribution side by side on the same axes
// (baseline left, candidate right), and the comparison's rows with their verdicts coloured. ComparePage.java
// embeds the curves (x = 1/(1-p), y in ns) and the rows (#loadgen-data).
(function () {
  'use strict';

  var DATA = JSON.parse(document.getElementById('loadgen-data').textContent);
  // The views' colours from Java (io.loadgen.plot.Palette), as the explorer and the PNG charts draw them.
  var COLORS = DATA.palette;
  var human = window.loadgenFormat.human;
  var unitFor = window.loadgenFormat.unitFor;
  var percentLabel = window.loadgenFormat.percentLabel;

  function el(name, attrs, text) {
    var e = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) {
      e.setAttribute(k, attrs[k]);
    });
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  function maxOf(curves, index) {
    var m = 0;
    curves.forEach(function (c) {
      c[index].forEach(function (v) {
        if (v !== null && v > m) {
          m = v;
        }
      });
    });
    return m;
  }

  /** One run's chart: its views' curves on the shared x and y ranges. */
  function chart(target, curves, xMax, yMax, unit, width) {
    if (curves.length === 0) {
      target.appendChild(el('p', {'class': 'empty'}, 'No latency views.'));
      return;
    }
    var xs = Array.from(new Set([].concat.apply([], curves.map(function (c) {
      return c.x;
    })))).sort(function (a, b) {
      return a - b;
    });
    var data = [xs];
    var series = [{label: 'percentile', value: function (u, v) {
      return v === null ? '' : percentLabel(v, 4);
    }}];
    curves.forEach(function (c) {
      var at = new Map(c.x.map(function (x, i) {
        return [x, c.y[i]];
      }));
      data.push(xs.map(function (x) {
        return at.has(x) ? at.get(x) : null;
      }));
      series.push({label: c.view, stroke: COLORS[c.view] || '#444', width: 2, spanGaps: true,
        points: {show: c.x.length < 20}, value: function (u, v) {
          return v === null ? '' : human(v);
        }});
    });
    var ticks = [];
    for (var t = 1; t <= xMax; t *= 10) {
      ticks.push(t);
    }
    new uPlot({
      width: width,
      height: 300,
      padding: [12, 36, 0, 0],
      scales: {x: {time: false, distr: 3, log: 10, range: [1, xMax]}, y: {range: [0, yMax * 1.05]}},
      axes: [{
        label: 'percentile', splits: function () {
          return ticks;
        }, values: function (u, splits) {
          return splits.map(function (v) {
            return percentLabel(v, 0);
          });
        }
      }, {
        label: 'latency (' + unit[0] + ')', size: 70, values: function (u, splits) {
          return splits.map(function (v) {
            return String(+(v / unit[1]).toPrecision(6));
          });
        }
      }],
      series: series
    }, data, target);
  }

  function table(rows) {
    var t = el('table', {'class': 'comparison'});
    var head = el('tr');
    ['view', 'stat', 'baseline', 'candidate', 'change', '95 % CI', 'verdict'].forEach(function (h) {
      head.appendChild(el('th', h === 'verdict' ? {'class': 'verdict'} : {}, h));
    });
    t.appendChild(el('thead')).appendChild(head);
    var body = el('tbody');
    rows.forEach(function (r) {
      var tr = el('tr', {'class': r.verdict, 'data-stat': r.stat, 'data-view': r.view, 'data-verdict': r.verdict});
      [r.view, r.stat, r.baseline, r.candidate, r.change, r.ci].forEach(function (c) {
        tr.appendChild(el('td', {}, c));
      });
      tr.appendChild(el('td', {'class': 'verdict'}, r.text));
      body.appendChild(tr);
    });
    t.appendChild(body);
    return t;
  }

  document.getElementById('summary').textContent = DATA.summary + '.';
  document.getElementById('method').textContent = DATA.method;
  var main = document.getElementById('ops');
  DATA.ops.forEach(function (op) {
    var section = el('section', {'data-op': op.op});
    section.appendChild(el('h2', {}, op.op));
    var all = op.baseline.concat(op.candidate);
    var xMax = Math.max.apply(null, all.map(function (c) {
      return c.x[c.x.length - 1];
    }).concat([100]));
    var yMax = Math.max(1, maxOf(all, 'y'));
    var unit = unitFor(yMax);
    var pair = el('div', {'class': 'pair'});
    section.appendChild(pair);
    main.appendChild(section);
    var width = Math.max(300, Math.floor((Math.min(document.body.clientWidth, 1280) - 48) / 2));
    [['baseline', DATA.baseline], ['candidate', DATA.candidate]].forEach(function (side) {
      var box = el('div', {'class': 'run ' + side[0]});
      box.appendChild(el('h3', {}, side[0] + ': ' + side[1]));
      var target = el('div', {'class': 'chart', id: 'chart-' + op.op + '-' + side[0]});
      box.appendChild(target);
      pair.appendChild(box);
      chart(target, op[side[0]], xMax, yMax, unit, width);
    });
    section.appendChild(table(op.rows));
  });
  document.body.setAttribute('data-ready', 'true');
})();
