// loadgen's HTML latency explorer: draws the data that HtmlExplorer embedded (#loadgen-data) with uPlot,
// and recomputes the distribution, summary and harness health for a window chosen by dragging across a
// chart or given in the address (#start=5&end=10&tags=READ.intended). Percentiles are HdrHistogram's:
// Stats below is BucketCounts.java, step for step, and the page checks itself against the figures Java
// embedded for the whole range.
(function () {
  'use strict';

  var reportError = window.loadgenReportError;
  var DATA = JSON.parse(document.getElementById('loadgen-data').textContent);
  // Colours come from Java (io.loadgen.plot.Palette), the PNG charts' palette: each tag's own, and by name.
  var PALETTE = DATA.palette;
  var grouped = window.loadgenFormat.grouped;
  var human = window.loadgenFormat.human;
  var unitFor = window.loadgenFormat.unitFor;
  var percentLabel = window.loadgenFormat.percentLabel;
  // As the over-time PNG draws them (OverTimeChart.STROKES): p50 dotted, p99 thick, max thin.
  var STAT_DASH = {p50: [2, 3], p99: [], max: []};
  var STAT_WIDTH = {p50: 1.5, p99: 2.5, max: 1};
  var TABLE_COLUMNS = [['min', null], ['mean', null], ['p50', 50], ['p90', 90], ['p99', 99], ['p99.9', 99.9],
    ['max', null]];
  var CHECKED = ['50', '90', '99', '99.9'];
  var MAX_DEFAULT_TAGS = 6;

  // ---- HdrHistogram's arithmetic ------------------------------------------------------------------

  var bits = new DataView(new ArrayBuffer(8));

  /** Math.nextAfter(x, -Infinity), for x >= 0. */
  function nextDown(x) {
    if (x === 0) {
      return -Number.MIN_VALUE;
    }
    bits.setFloat64(0, x);
    var high = bits.getUint32(0);
    var low = bits.getUint32(4);
    if (low === 0) {
      high -= 1;
      low = 0xffffffff;
    } else {
      low -= 1;
    }
    bits.setUint32(0, high);
    bits.setUint32(4, low);
    return bits.getFloat64(0);
  }

  /** Counts per bucket (sparse: ascending dictionary indexes and their counts) and what HdrHistogram reads from them. */
  function Stats(tag, index, count) {
    this.lo = tag.lo;
    this.hi = tag.hi;
    this.index = index;
    this.count = count;
    var total = 0;
    for (var i = 0; i < count.length; i++) {
      total += count[i];
    }
    this.total = total;
  }

  /** AbstractHistogram.getValueAtPercentile. */
  Stats.prototype.valueAtPercentile = function (percentile) {
    var requested = Math.min(Math.max(nextDown(percentile), 0.0), 100.0);
    var countAtPercentile = Math.max(Math.ceil(requested * this.total / 100.0), 1);
    var running = 0;
    for (var i = 0; i < this.count.length; i++) {
      running += this.count[i];
      if (running >= countAtPercentile) {
        return percentile === 0 ? this.lo[this.index[i]] : this.hi[this.index[i]];
      }
    }
    return 0;
  };

  /** getMinValue: the lowest equivalent value of the first bucket with a count. */
  Stats.prototype.min = function () {
    return this.count.length === 0 ? 0 : this.lo[this.index[0]];
  };

  /** getMaxValue: the highest equivalent value of the last bucket with a count. */
  Stats.prototype.max = function () {
    return this.count.length === 0 ? 0 : this.hi[this.index[this.count.length - 1]];
  };

  /** getMean: median equivalent value times count, summed in bucket order. */
  Stats.prototype.mean = function () {
    if (this.total === 0) {
      return 0.0;
    }
    var sum = 0;
    for (var i = 0; i < this.count.length; i++) {
      var lo = this.lo[this.index[i]];
      var hi = this.hi[this.index[i]];
      sum += (lo + Math.floor((hi - lo + 1) / 2)) * this.count[i];
    }
    return sum * 1.0 / this.total;
  };

  /** The count at value v (a status ordinal). */
  Stats.prototype.countAt = function (v) {
    for (var i = 0; i < this.count.length; i++) {
      if (this.lo[this.index[i]] <= v && v <= this.hi[this.index[i]]) {
        return this.count[i];
      }
    }
    return 0;
  };

  // ---- Tags and windows ----------------------------------------------------------------------------

  function Tag(t, position) {
    this.name = t.name;
    this.kind = t.kind;
    var dictionary = unpack(t.d);
    this.hi = new Float64Array(dictionary.length / 2);
    this.lo = new Float64Array(dictionary.length / 2);
    for (var b = 0, high = 0; b < this.hi.length; b++) {
      high += dictionary[2 * b];
      this.hi[b] = high;
      this.lo[b] = high - dictionary[2 * b + 1];
    }
    this.s = t.s;
    this.e = t.e;
    this.pm = t.pm || t.s;
    this.check = t.check;
    this.color = t.color;
    this.f = t.f; // per interval: count, p50, p99, max (Java's BucketCounts)
    var whole = sparse(t.w);
    this.whole = new Stats(this, whole.index, whole.count);
    this.bz = t.bz;
    this.b = null; // each interval's packed buckets, once inflated (inflate())
    this.index = null; // ... and decoded, when a window first needs them (decode())
    this.count = null;
  }

  /** Inflates the intervals' buckets ("bz": gzip, base64) after the first paint; resolves when done. */
  Tag.prototype.inflate = function () {
    var tag = this;
    var binary = atob(this.bz);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) {
      bytes[i] = binary.charCodeAt(i);
    }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text().then(function (text) {
      tag.b = text.split(',');
      tag.bz = null;
    });
  };

  /** Decodes every interval's buckets: the page opens without them, on the figures Java embedded. */
  Tag.prototype.decode = function () {
    if (this.index !== null) {
      return;
    }
    if (this.b === null) {
      throw new Error('the intervals of ' + this.name + ' are needed before they are inflated');
    }
    this.index = [];
    this.count = [];
    for (var k = 0; k < this.b.length; k++) {
      var s = sparse(this.b[k]);
      this.index.push(s.index);
      this.count.push(s.count);
    }
  };

  /** Pairs (index delta, count) back into ascending dictionary indexes and their counts. */
  function sparse(text) {
    var numbers = unpack(text);
    var n = numbers.length / 2;
    var index = new Int32Array(n);
    var count = new Float64Array(n);
    var at = -1;
    for (var i = 0; i < n; i++) {
      at += numbers[2 * i];
      index[i] = at;
      count[i] = numbers[2 * i + 1];
    }
    return {index: index, count: count};
  }

  var DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  var DIGIT = new Int8Array(128);
  for (var c = 0; c < DIGITS.length; c++) {
    DIGIT[DIGITS.charCodeAt(c)] = c;
  }

  /** PageData.pack's numbers back: 5 bits a digit, least significant first, digits from 32 on continue. */
  function unpack(text) {
    var numbers = [];
    var value = 0;
    var scale = 1;
    for (var i = 0; i < text.length; i++) {
      var d = DIGIT[text.charCodeAt(i)];
      value += (d & 31) * scale;
      if (d < 32) {
        numbers.push(value);
        value = 0;
        scale = 1;
      } else {
        scale *= 32;
      }
    }
    return numbers;
  }

  /** Intervals k of the window [S, E], by report's rule: start >= S, and no line up to k started after E. */
  Tag.prototype.inWindow = function (k, S, E) {
    return this.s[k] >= S && this.pm[k] <= E;
  };

  /** The intervals ks merged, as Histogram.add merges them. */
  Tag.prototype.merge = function (ks) {
    return ks.length === this.s.length ? this.whole : this.mergeIntervals(ks); // all: Java embedded their sum
  };

  /** The intervals ks merged from their own buckets. */
  Tag.prototype.mergeIntervals = function (ks) {
    this.decode();
    if (ks.length === 1) {
      return new Stats(this, this.index[ks[0]], this.count[ks[0]]);
    }
    var dense = new Float64Array(this.hi.length);
    ks.forEach(function (k) {
      for (var i = 0; i < this.index[k].length; i++) {
        dense[this.index[k][i]] += this.count[k][i];
      }
    }, this);
    var index = [];
    var count = [];
    for (var b = 0; b < dense.length; b++) {
      if (dense[b] > 0) {
        index.push(b);
        count.push(dense[b]);
      }
    }
    return new Stats(this, index, count);
  };

  /** How many intervals the window [S, E] holds (no decoding). */
  Tag.prototype.intervalsIn = function (S, E) {
    var n = 0;
    for (var k = 0; k < this.s.length; k++) {
      n += this.inWindow(k, S, E) ? 1 : 0;
    }
    return n;
  };

  Tag.prototype.window = function (S, E) {
    var ks = [];
    for (var k = 0; k < this.s.length; k++) {
      if (this.inWindow(k, S, E)) {
        ks.push(k);
      }
    }
    return {intervals: ks.length, stats: this.merge(ks)};
  };

  var tags = DATA.tags.map(function (t, i) {
    return new Tag(t, i);
  });
  var charted = tags.filter(function (t) {
    return t.kind !== 'status';
  });

  function tagNamed(name) {
    for (var i = 0; i < tags.length; i++) {
      if (tags[i].name === name) {
        return tags[i];
      }
    }
    return null;
  }

  // ---- Formatting ----------------------------------------------------------------------------------

  function el(name, attrs, text) {
    var e = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) {
      e.setAttribute(k, attrs[k]);
    });
    if (text !== undefined && text !== null) {
      e.textContent = text;
    }
    return e;
  }

  function row(cells, header) {
    var tr = el('tr');
    cells.forEach(function (c) {
      tr.appendChild(typeof c === 'object' ? c : el(header ? 'th' : 'td', null, c));
    });
    return tr;
  }

  function seconds(v) {
    return v === Infinity ? 'the end' : v + ' s';
  }

  // ---- State ---------------------------------------------------------------------------------------

  var wholeStart = DATA.range[0];
  var wholeEnd = DATA.range[1] === null ? Infinity : DATA.range[1];
  var state = {S: wholeStart, E: wholeEnd, stats: {p50: true, p99: true, max: true}, logY: false, events: true,
    tags: {}};
  var charts = {time: null, rate: null, dist: null};

  function defaultTags() {
    var on = charted.filter(function (t) {
      return t.kind === 'latency' && t.check.count > 0;
    }).slice(0, MAX_DEFAULT_TAGS);
    if (on.length === 0) {
      on = charted.slice(0, 1);
    }
    var enabled = {};
    on.forEach(function (t) {
      enabled[t.name] = true;
    });
    return enabled;
  }

  function note(text) {
    document.getElementById('notes').appendChild(el('div', null, text));
  }

  /** #start=S&end=E&tags=A,B: the window and tags in the address. */
  function readAddress() {
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    var S = wholeStart;
    var E = wholeEnd;
    if (params.has('start')) {
      S = Number(params.get('start'));
    }
    if (params.has('end')) {
      E = Number(params.get('end'));
    }
    if (isNaN(S) || isNaN(E) || S > E) {
      note('The address asks for start=' + params.get('start') + ' end=' + params.get('end')
        + ', which is not a window (seconds, start at or before end); showing the whole run.');
      S = wholeStart;
      E = wholeEnd;
    }
    state.S = S;
    state.E = E;
    state.tags = defaultTags();
    if (params.has('tags')) {
      state.tags = {};
      params.get('tags').split(',').forEach(function (name) {
        if (tagNamed(name)) {
          state.tags[name] = true;
        } else if (name) {
          note('The address names tag ' + name + ', which this page does not hold.');
        }
      });
    }
  }

  function writeAddress() {
    var parts = [];
    if (state.S !== wholeStart || state.E !== wholeEnd) {
      parts.push('start=' + state.S);
      if (state.E !== Infinity) {
        parts.push('end=' + state.E);
      }
    }
    parts.push('tags=' + charted.filter(isOn).map(function (t) {
      return t.name;
    }).join(','));
    try {
      window.history.replaceState(null, '', '#' + parts.join('&'));
    } catch (e) {
      // A browser that keeps file pages from changing their address: the window still applies.
    }
  }

  function isOn(tag) {
    return state.tags[tag.name] === true;
  }

  // ---- Over-time charts ----------------------------------------------------------------------------

  /** Each charted tag's per-interval figures on one shared time axis (interval starts). */
  function overTime() {
    var starts = [];
    tags.forEach(function (t) {
      starts = starts.concat(t.s);
    });
    starts = Array.from(new Set(starts)).sort(function (a, b) {
      return a - b;
    });
    var position = new Map(starts.map(function (s, i) {
      return [s, i];
    }));
    var series = tags.map(function (t) {
      var groups = starts.map(function () {
        return [];
      });
      t.s.forEach(function (s, k) {
        groups[position.get(s)].push(k);
      });
      var figures = {p50: [], p99: [], max: [], rate: []};
      groups.forEach(function (ks) {
        var length = ks.length ? Math.max.apply(null, ks.map(function (k) {
          return t.e[k] - t.s[k];
        })) : 0;
        var f = null; // count, p50, p99, max
        if (ks.length === 1) {
          f = t.f[ks[0]];
        } else if (ks.length > 1) { // intervals of several logs starting together: merged here
          var stats = t.merge(ks);
          f = [stats.total, stats.valueAtPercentile(50), stats.valueAtPercentile(99), stats.max()];
        }
        var has = f !== null && f[0] > 0 && t.kind !== 'status';
        figures.p50.push(has ? f[1] : null);
        figures.p99.push(has ? f[2] : null);
        figures.max.push(has ? f[3] : null);
        figures.rate.push(f !== null && length > 0 ? f[0] / length : null);
      });
      return figures;
    });
    return {starts: starts, series: series};
  }

  var timeline = overTime();

  /** Each operation type's throughput: from OP.status (every completion, whatever its status), else its first tag. */
  function operations() {
    var ops = [];
    charted.forEach(function (t) {
      if (t.kind !== 'latency') {
        return; // harness tags are the harness's latencies, not operations
      }
      var dot = t.name.indexOf('.');
      var op = dot > 0 ? t.name.slice(0, dot) : t.name;
      var existing = ops.filter(function (o) {
        return o.op === op;
      })[0];
      if (!existing) {
        var status = tagNamed(op + '.status');
        existing = {op: op, source: status || t, tags: []};
        ops.push(existing);
      }
      existing.tags.push(t);
    });
    return ops;
  }

  var ops = operations();

  function chartWidth(id) {
    return Math.max(400, document.getElementById(id).clientWidth || 900);
  }

  function positive(v) {
    return v === null || v > 0 ? v : null;
  }

  function onSelect(u) {
    if (u.select.width < 3) {
      return;
    }
    var S = Math.round(u.posToVal(u.select.left, 'x') * 1000) / 1000;
    var E = Math.round(u.posToVal(u.select.left + u.select.width, 'x') * 1000) / 1000;
    setWindow(S, E, u);
  }

  /** The pauses (#[event] lines) as bands over a time chart's plot, under its lines. */
  function drawEvents(u) {
    if (!state.events || DATA.events.length === 0) {
      return;
    }
    var ctx = u.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    DATA.events.forEach(function (e) {
      var x0 = u.valToPos(e.start, 'x', true);
      var x1 = u.valToPos(e.start + e.length, 'x', true);
      ctx.globalAlpha = 0.22;
      ctx.fillStyle = eventColor(e.kind);
      ctx.fillRect(x0, u.bbox.top, Math.max(x1 - x0, uPlot.pxRatio), u.bbox.height);
      ctx.globalAlpha = 0.8;
      ctx.fillRect(x0, u.bbox.top, uPlot.pxRatio, u.bbox.height);
    });
    ctx.restore();
  }

  function eventColor(kind) {
    return PALETTE[kind] || PALETTE.event;
  }

  /** Under the charts: each kind of pause, its colour and count, as the PNG's legend names them. */
  function eventLegend() {
    var box = document.getElementById('event-legend');
    var kinds = [];
    DATA.events.forEach(function (e) {
      var key = e.kind + ' (' + e.source + (e.rate !== undefined ? ', to ' + e.rate + ' ops/s' : '') + ')';
      var k = kinds.filter(function (x) {
        return x.key === key;
      })[0];
      if (!k) {
        k = {key: key, kind: e.kind, count: 0, longest: 0};
        kinds.push(k);
      }
      k.count++;
      k.longest = Math.max(k.longest, e.length);
    });
    if (kinds.length === 0) {
      box.appendChild(el('span', {'class': 'empty'}, 'No pauses (#[event] lines) during these intervals.'));
      return;
    }
    var rates = DATA.events.some(function (e) {
      return e.rate !== undefined;
    });
    box.appendChild(document.createTextNode(rates ? 'Pauses, shaded over their length, and rate changes: '
        : 'Pauses, shaded over their length: '));
    kinds.forEach(function (k) {
      var item = el('span', {'class': 'event-kind', 'data-kind': k.kind, 'data-count': k.count});
      var swatch = el('span', {'class': 'swatch'});
      swatch.style.background = eventColor(k.kind);
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(k.key + ': ' + k.count + ' (longest ' + human(k.longest * 1e9) + ')'));
      box.appendChild(item);
    });
  }

  /** A chart over the shared time axis of the series specs given ({label, stroke, width, dash, values, value}). */
  function timeChart(id, yLabel, unit, specs) {
    var series = [{label: 'start (s)', value: function (u, v) {
      return v === null ? '' : v.toFixed(3);
    }}];
    var data = [timeline.starts];
    specs.forEach(function (spec) {
      series.push({
        label: spec.label,
        stroke: spec.stroke,
        width: spec.width,
        dash: spec.dash,
        paths: uPlot.paths.stepped({align: 1}),
        value: spec.value
      });
      data.push(state.logY && unit[0] !== 'ops/s' ? spec.values.map(positive) : spec.values);
    });
    var target = document.getElementById(id);
    target.textContent = '';
    return new uPlot({
      width: chartWidth(id),
      height: 300,
      scales: {x: {time: false}, y: {distr: state.logY && unit[0] !== 'ops/s' ? 3 : 1}},
      cursor: {drag: {x: true, y: false, setScale: false}},
      axes: [{label: 'seconds since the log\'s start'}, {
        label: yLabel, size: 70,
        values: function (u, splits) {
          return splits.map(function (v) {
            return v === null ? '' : String(+(v / unit[1]).toPrecision(6));
          });
        }
      }],
      series: series,
      hooks: {setSelect: [onSelect], ready: [markWindow], drawClear: [drawEvents]}
    }, data, target);
  }

  function latencyValue(u, v) {
    return v === null ? '' : human(v);
  }

  function maxOf(columns) {
    var max = 0;
    tags.forEach(function (t, i) {
      if (!isOn(t)) {
        return;
      }
      columns.forEach(function (stat) {
        timeline.series[i][stat].forEach(function (v) {
          max = v !== null && v > max ? v : max;
        });
      });
    });
    return max;
  }

  function drawTimeCharts() {
    var unit = unitFor(maxOf(['max']));
    if (charts.time) {
      charts.time.destroy();
      charts.rate.destroy();
    }
    var latency = [];
    tags.forEach(function (t, i) {
      if (t.kind === 'status' || !isOn(t)) {
        return;
      }
      ['p50', 'p99', 'max'].filter(function (stat) {
        return state.stats[stat];
      }).forEach(function (stat) {
        latency.push({label: t.name + ' ' + stat, stroke: t.color, width: STAT_WIDTH[stat],
          dash: STAT_DASH[stat], values: timeline.series[i][stat], value: latencyValue});
      });
    });
    charts.time = timeChart('chart-time', 'latency (' + unit[0] + ')', unit, latency);
    var shown = ops.filter(function (o) {
      return o.tags.some(isOn);
    });
    var rate = (shown.length ? shown : ops).map(function (o, n) {
      return {label: o.op + ' ops/s', stroke: DATA.throughputColors[n % DATA.throughputColors.length], width: 2,
        dash: [],
        values: timeline.series[tags.indexOf(o.source)].rate, value: function (u, v) {
          return v === null ? '' : grouped(Math.round(v)) + ' ops/s';
        }};
    });
    charts.rate = timeChart('chart-rate', 'operations per second', ['ops/s', 1], rate);
  }

  /** Shows the window as a selection on an over-time chart. */
  function markWindow(u) {
    var whole = state.S === wholeStart && state.E === wholeEnd;
    var left = u.valToPos(Math.max(state.S, u.scales.x.min), 'x');
    var right = u.valToPos(Math.min(state.E, u.scales.x.max), 'x');
    u.setSelect({left: left, width: whole || !(right > left) ? 0 : right - left, top: 0,
      height: u.bbox.height / uPlot.pxRatio}, false);
  }

  // ---- The window's distribution, summary and health -------------------------------------------------

  function distributionChart() {
    var target = document.getElementById('chart-dist');
    if (charts.dist) {
      charts.dist.destroy();
      charts.dist = null;
    }
    target.textContent = '';
    var shown = charted.filter(isOn).map(function (t) {
      return {tag: t, stats: t.window(state.S, state.E).stats};
    }).filter(function (x) {
      return x.stats.total > 0;
    });
    if (shown.length === 0) {
      target.appendChild(el('p', {'class': 'empty'}, 'No operations of the chosen tags in this window.'));
      return;
    }
    var most = Math.max.apply(null, shown.map(function (x) {
      return x.stats.total;
    }));
    var xMax = Math.min(1e7, Math.max(1e5, Math.pow(10, Math.ceil(Math.log10(most)))));
    var xs = [];
    for (var k = 0; Math.pow(2, k / 10) < xMax; k++) {
      xs.push(Math.pow(2, k / 10));
    }
    xs.push(xMax);
    var unit = unitFor(Math.max.apply(null, shown.map(function (x) {
      return x.stats.max();
    })));
    var series = [{label: 'percentile', value: function (u, v) {
      return v === null ? '' : percentLabel(v, 4);
    }}];
    var data = [xs];
    shown.forEach(function (x) {
      series.push({label: x.tag.name, stroke: x.tag.color, width: 2, value: latencyValue});
      data.push(xs.map(function (v) {
        var value = x.stats.valueAtPercentile(100 * (1 - 1 / v));
        return state.logY ? positive(value) : value;
      }));
    });
    var ticks = [];
    for (var t = 1; t <= xMax; t *= 10) {
      ticks.push(t);
    }
    charts.dist = new uPlot({
      width: chartWidth('chart-dist'),
      height: 320,
      padding: [12, 36, 0, 0],
      scales: {x: {time: false, distr: 3, log: 10}, y: {distr: state.logY ? 3 : 1}},
      axes: [{
        label: 'percentile', splits: function () {
          return ticks;
        },
        values: function (u, splits) {
          return splits.map(function (v) {
            return percentLabel(v, 0);
          });
        }
      }, {
        label: 'latency (' + unit[0] + ')', size: 70, values: function (u, splits) {
          return splits.map(function (v) {
            return v === null ? '' : String(+(v / unit[1]).toPrecision(6));
          });
        }
      }],
      series: series
    }, data, target);
  }

  function statCells(tag, stats, columns) {
    var cells = [el('td', {'data-tag': tag.name, 'data-stat': 'count', 'data-value': stats.total},
      grouped(stats.total))];
    columns.forEach(function (c) {
      var name = c[0];
      var ns = name === 'min' ? stats.min() : name === 'max' ? stats.max() : name === 'mean' ? stats.mean()
        : stats.valueAtPercentile(c[1]);
      cells.push(el('td', {'data-tag': tag.name, 'data-stat': name, 'data-ns': ns}, stats.total ? human(ns) : '-'));
    });
    return cells;
  }

  function summaryTable() {
    var table = document.getElementById('summary');
    table.textContent = '';
    var head = el('thead');
    head.appendChild(row(['tag', 'count'].concat(TABLE_COLUMNS.map(function (c) {
      return c[0];
    })), true));
    table.appendChild(head);
    var body = el('tbody');
    charted.forEach(function (t) {
      var w = t.window(state.S, state.E);
      var tr = row([el('td', null, t.name)].concat(statCells(t, w.stats, TABLE_COLUMNS)));
      tr.setAttribute('data-intervals', w.intervals);
      if (!isOn(t)) {
        tr.className = 'off';
      }
      body.appendChild(tr);
    });
    table.appendChild(body);
  }

  function operationOf(tag, suffix) {
    return tag.name.slice(0, tag.name.length - suffix.length);
  }

  /** Heads a part of the health panel; returns the tags of that kind, having said so when there are none. */
  function section(box, kind, heading, none) {
    var found = tags.filter(function (t) {
      return t.kind === kind;
    });
    box.appendChild(el('h3', null, heading));
    if (found.length === 0) {
      box.appendChild(el('p', {'class': 'empty'}, none));
    }
    return found;
  }

  function healthPanel() {
    var box = document.getElementById('health');
    box.textContent = '';
    var lag = section(box, 'harness', 'The harness\'s own latencies (harness.lag, harness.hiccup)', 'No harness.lag'
      + ' in this log: without a target rate there is no schedule, so no lag.');
    if (lag.length > 0) {
      var columns = [['p50', 50], ['p99', 99], ['p99.9', 99.9], ['max', null]];
      var table = el('table', {id: 'lag'});
      table.appendChild(row(['tag', 'count'].concat(columns.map(function (c) {
        return c[0];
      })), true));
      lag.forEach(function (t) {
        table.appendChild(row([el('td', null, t.name)].concat(statCells(t, t.window(state.S, state.E).stats,
          columns))));
      });
      box.appendChild(table);
      box.appendChild(el('p', {'class': 'hint'}, 'harness.lag is the harness\'s own delay in starting operations; when'
        + ' it is large next to the latencies, the load generator, not the target, held the load back.'
        + ' harness.hiccup is how late a sleeping thread of the harness woke (the machine\'s and JVM\'s stalls).'
        + ' Both are latencies of the harness, not of operations: off in the charts until ticked, never throughput.'));
    }
    statusTable(box);
  }

  function statusTable(box) {
    var statusTags = section(box, 'status', 'Operations by status, and failed operations', 'No OP.status lines'
      + ' in this log (written by loadgen since status counts were logged).');
    if (statusTags.length === 0) {
      return;
    }
    var windows = statusTags.map(function (t) {
      return t.window(state.S, state.E).stats;
    });
    var names = DATA.statusNames.filter(function (name, ordinal) {
      return windows.some(function (w) {
        return w.countAt(ordinal) > 0;
      });
    });
    var table = el('table', {id: 'status'});
    table.appendChild(row(['operation', 'operations'].concat(names, ['failed', 'failed (%)']), true));
    statusTags.forEach(function (t, i) {
      var w = windows[i];
      var op = operationOf(t, '.status');
      var ok = w.countAt(0);
      var cells = [el('td', null, op), el('td', {'data-op': op, 'data-stat': 'operations'}, grouped(w.total))];
      names.forEach(function (name) {
        var n = w.countAt(DATA.statusNames.indexOf(name));
        cells.push(el('td', {'data-op': op, 'data-stat': name}, grouped(n)));
      });
      cells.push(el('td', {'data-op': op, 'data-stat': 'failed'}, grouped(w.total - ok)));
      cells.push(el('td', null, w.total ? (100 * (w.total - ok) / w.total).toFixed(2) : '-'));
      table.appendChild(row(cells));
    });
    box.appendChild(table);
    box.appendChild(el('p', {'class': 'hint'}, 'Failed operations are kept out of OP.intended and OP.service;'
      + ' their latencies are the OP.failed.* tags in the summary.'));
    harnessFromSummary(box);
  }

  function harnessFromSummary(box) {
    var h = DATA.summary && DATA.summary.harness;
    if (!h || typeof h !== 'object') {
      return;
    }
    var table = el('table', {id: 'harness-summary'});
    Object.keys(h).forEach(function (k) {
      if (h[k] === null || typeof h[k] !== 'object') {
        table.appendChild(row([k, String(h[k])]));
      }
    });
    box.appendChild(el('h3', null, 'Harness, whole run (from the JSON summary)'));
    box.appendChild(table);
  }

  // ---- Run parameters ------------------------------------------------------------------------------

  function paramsPanel() {
    var box = document.getElementById('params');
    DATA.headers.forEach(function (h) {
      box.appendChild(el('h3', null, h.source));
      var table = el('table');
      h.entries.forEach(function (e) {
        if (e.name === 'StartTime' || e.name === 'BaseTime') {
          return;
        }
        if (e.kv) {
          Object.keys(e.kv).forEach(function (k) {
            table.appendChild(row([e.name + ': ' + k, el('td', {'class': 'text'}, e.kv[k])]));
          });
        } else {
          table.appendChild(row([e.name, el('td', {'class': 'text'}, e.text)]));
        }
      });
      box.appendChild(table);
    });
    if (DATA.summary && typeof DATA.summary === 'object') {
      box.appendChild(el('h3', null, 'JSON summary'));
      var table = el('table', {id: 'summary-params'});
      Object.keys(DATA.summary).forEach(function (k) {
        var v = DATA.summary[k];
        if (v === null || typeof v !== 'object') {
          table.appendChild(row([k, el('td', {'class': 'text'}, String(v))]));
        }
      });
      box.appendChild(table);
    }
  }

  // ---- Putting it together -------------------------------------------------------------------------

  function windowText() {
    var whole = state.S === wholeStart && state.E === wholeEnd;
    var label = whole ? '(whole run)' : '(' + state.S + ' s to ' + seconds(state.E) + ')';
    document.querySelectorAll('.window-label').forEach(function (e) {
      e.textContent = label;
    });
    var n = Math.max.apply(null, charted.map(function (t) {
      return t.intervalsIn(state.S, state.E);
    }));
    document.getElementById('window-text').textContent = whole
      ? 'Window: the whole run (' + n + ' intervals)'
      : 'Window: intervals starting from ' + state.S + ' s to ' + seconds(state.E) + ' (' + n + ' intervals)';
    var command = 'loadgen report ' + DATA.sources.join(' ');
    if (!whole) {
      command += ' --start ' + state.S + (state.E === Infinity ? '' : ' --end ' + state.E);
    }
    document.getElementById('report-command').textContent = command + ' --json - --json-by tag';
    document.body.setAttribute('data-window', state.S + ',' + state.E);
  }

  var inflated = false;
  var waiting = false;

  function recompute() {
    if (!inflated && !(state.S === wholeStart && state.E === wholeEnd)) {
      waiting = true; // a window's intervals: drawn once inflated (a moment after the page opens)
      windowText();
      return;
    }
    windowText();
    distributionChart();
    summaryTable();
    healthPanel();
  }

  /** Applies the window [S, E]; fromChart is the chart it was drawn on, which shows it already. */
  function setWindow(S, E, fromChart) {
    state.S = S;
    state.E = E;
    writeAddress();
    [charts.time, charts.rate].forEach(function (u) {
      if (u && u !== fromChart) {
        markWindow(u);
      }
    });
    recompute();
  }

  function tagToggles() {
    var box = document.getElementById('tag-toggles');
    charted.forEach(function (t) {
      var input = el('input', {type: 'checkbox', 'data-tag': t.name});
      input.checked = isOn(t);
      input.addEventListener('change', function () {
        state.tags[t.name] = input.checked;
        writeAddress();
        drawTimeCharts();
        recompute();
      });
      var label = el('label');
      var swatch = el('span', {'class': 'swatch'});
      swatch.style.background = t.color;
      label.appendChild(input);
      label.appendChild(swatch);
      label.appendChild(document.createTextNode(t.name));
      box.appendChild(label);
    });
  }

  function controls() {
    document.querySelectorAll('#stat-toggles input[data-stat]').forEach(function (input) {
      input.addEventListener('change', function () {
        state.stats[input.getAttribute('data-stat')] = input.checked;
        drawTimeCharts();
      });
    });
    document.getElementById('log-y').addEventListener('change', function (e) {
      state.logY = e.target.checked;
      drawTimeCharts();
      distributionChart();
    });
    document.getElementById('show-events').addEventListener('change', function (e) {
      state.events = e.target.checked;
      charts.time.redraw(false);
      charts.rate.redraw(false);
    });
    document.getElementById('whole-run').addEventListener('click', function () {
      setWindow(wholeStart, wholeEnd, null);
    });
    window.addEventListener('hashchange', function () {
      readAddress();
      document.querySelectorAll('#tag-toggles input').forEach(function (input) {
        input.checked = state.tags[input.getAttribute('data-tag')] === true;
      });
      drawTimeCharts();
      recompute();
    });
    var resizing = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizing);
      resizing = setTimeout(function () {
        drawTimeCharts();
        distributionChart();
      }, 150);
    });
  }

  /**
   * The page's own arithmetic against the figures Java computed for the whole range: from the whole range's counts
   * on load, and, once decoded, from every interval merged here (fromIntervals).
   */
  function selfCheck(fromIntervals) {
    tags.forEach(function (t) {
      var s = t.whole;
      if (fromIntervals) {
        var all = [];
        for (var k = 0; k < t.s.length; k++) {
          all.push(k);
        }
        s = t.mergeIntervals(all);
      }
      var mine = {count: s.total, min: s.min(), mean: s.mean(), max: s.max()};
      CHECKED.forEach(function (p) {
        mine['p' + p] = s.valueAtPercentile(Number(p));
      });
      Object.keys(t.check).forEach(function (k) {
        if (mine[k] !== t.check[k]) {
          reportError('self-check' + (fromIntervals ? ' (intervals merged)' : '') + ': ' + t.name + ' ' + k + ' is '
            + mine[k] + ' here but ' + t.check[k] + ' in Java');
        }
      });
    });
  }

  document.getElementById('sources').textContent = DATA.sources.join(', ') + ' · StartTime '
    + new Date(DATA.startTimeSec * 1000).toISOString() + ' · ' + charted.length + ' tags';
  selfCheck(false);
  readAddress();
  tagToggles();
  controls();
  paramsPanel();
  eventLegend();
  drawTimeCharts();
  recompute();
  // How long the page took to open (navigation start to everything drawn), for bench/explorer-open.sh.
  document.body.setAttribute('data-ready-ms', String(Math.round(performance.now())));
  // Then, once drawn: every interval inflated and decoded (so a window chosen later is quick), checked against
  // Java's sums, and a window waiting for them drawn.
  setTimeout(function () {
    Promise.all(tags.map(function (t) {
      return t.inflate();
    })).then(function () {
      inflated = true;
      selfCheck(true);
      if (waiting) {
        waiting = false;
        recompute();
      }
      document.body.setAttribute('data-intervals-ms', String(Math.round(performance.now())));
      document.body.setAttribute('data-ready', 'true');
    }).catch(function (e) {
      reportError('the intervals could not be inflated (' + e + '); this page needs a browser with'
        + ' DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 or later)');
    });
  }, 0);
})();
