// Live public pages: htmx polls the live region (see tourney/web/live.py). This file only
// adjusts htmx to the strict Content-Security-Policy and shows times in the reader's zone.
(function () {
  "use strict";
  if (window.htmx) {
    // No inline <style> (blocked by the policy) and no eval.
    htmx.config.includeIndicatorStyles = false;
    htmx.config.allowEval = false;
    htmx.config.historyEnabled = false;
  }
  function localTimes(root) {
    root.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      // In the visitor's time zone, written the way the page's language writes times.
      var language = document.documentElement.lang || undefined;
      if (!isNaN(when)) {
        el.textContent = when.toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
        el.title = when.toLocaleString(language);
      }
    });
  }
  // A running match's minutes (templates/_match_clock.html) count on between updates.
  function runningTimes(root) {
    root.querySelectorAll("[data-running-since]").forEach(function (el) {
      var since = new Date(el.getAttribute("data-running-since"));
      if (isNaN(since)) { return; }
      var minutes = Math.max(0, Math.floor((Date.now() - since) / 60000));
      el.textContent = String(minutes);
      var block = el.closest("[data-budget]");
      if (block) { block.classList.toggle("late", minutes > parseInt(block.getAttribute("data-budget"), 10)); }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    localTimes(document);
    runningTimes(document);
    setInterval(function () { runningTimes(document); }, 20000);
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    localTimes(e.target.parentNode || document);
    runningTimes(e.target.parentNode || document);
  });
})();
