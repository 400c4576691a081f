// Numbers as loadgen's pages print them (the explorer's and compare's), shared by both: window.loadgenFormat.
(function () {
  'use strict';

  /** 1234567 as 1,234,567. */
  function grouped(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  /**
   * A latency as a person reads it: 3 significant digits (rounded half up) in the largest unit reached, trailing
   * zeros dropped: 4.91 ms, 812 µs, 1.23 s, 5 ms. LatencyUnit.human in Java (core's Units.latency with the micro
   * sign): the same text for the same number (the browser test holds them to each other).
   */
  function human(ns) {
    if (ns === 0) {
      return '0 ns';
    }
    var r = Number(ns.toPrecision(3));
    var a = Math.abs(r);
    var u = a < 1e3 ? ['ns', 1] : a < 1e6 ? ['µs', 1e3] : a < 1e9 ? ['ms', 1e6] : ['s', 1e9];
    return String(r / u[1]) + ' ' + u[0];
  }

  /** An axis's unit for values up to maxNs, [label, ns per unit]: LatencyUnit.fit's rule (ms from 1 ms to 10 s). */
  function unitFor(maxNs) {
    if (maxNs >= 1e10) {
      return ['s', 1e9];
    }
    if (maxNs >= 1e6) {
      return ['ms', 1e6];
    }
    return maxNs >= 1e3 ? ['µs', 1e3] : ['ns', 1];
  }

  /** 1/(1-p) as a percentage: 1 is 0%, 10 is 90%, 1000 is 99.9%. */
  function percentLabel(x, decimals) {
    if (decimals === 0) {
      var nines = Math.round(Math.log10(x));
      return nines === 0 ? '0%' : nines === 1 ? '90%' : '99' + (nines > 2 ? '.' + '9'.repeat(nines - 2) : '') + '%';
    }
    return (100 * (1 - 1 / x)).toFixed(decimals) + '%';
  }

  window.loadgenFormat = {grouped: grouped, human: human, unitFor: unitFor, percentLabel: percentLabel};
})();
