// Anything that goes wrong on this page is written into #errors, where a reader (and the tests) see it.
(function () {
  var box = document.getElementById('errors');
  function report(text) {
    box.hidden = false;
    box.textContent += text + '\n';
  }
  window.loadgenReportError = report;
  window.addEventListener('error', function (e) {
    report('error: ' + e.message + (e.filename ? ' (' + e.filename + ':' + e.lineno + ')' : ''));
  });
  window.addEventListener('unhandledrejection', function (e) {
    report('unhandled rejection: ' + e.reason);
  });
  var consoleError = console.error;
  console.error = function () {
    report('console.error: ' + Array.prototype.join.call(arguments, ' '));
    consoleError.apply(console, arguments);
  };
})();
