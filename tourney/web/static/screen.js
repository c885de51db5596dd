// The venue screen (templates/screen): shows one slide at a time, moving on every
// data-rotation seconds, keeps its place when live.js/htmx swap in a newer region, and
// counts the round clocks down each second. No inline script: the policy forbids it.
(function () {
  "use strict";
  var index = 0;
  var timer = null;

  function frame() { return document.querySelector("#live .screen-frame"); }
  function slides() { return document.querySelectorAll("#live .slide"); }
  function rotation() {
    var f = frame();
    var seconds = f ? parseInt(f.getAttribute("data-rotation"), 10) : 20;
    return seconds >= 5 ? seconds : 20;
  }

  function show(wanted) {
    var all = slides();
    if (!all.length) { return; }
    index = ((wanted % all.length) + all.length) % all.length;
    all.forEach(function (el, k) { el.hidden = k !== index; });
    document.querySelectorAll("#live [data-dot]").forEach(function (dot, k) {
      dot.classList.toggle("on", k === index);
    });
    document.documentElement.setAttribute("data-panel", all[index].getAttribute("data-panel"));
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(function () { show(index + 1); schedule(); }, rotation() * 1000);
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    document.querySelectorAll("#live [data-until]").forEach(function (el) {
      var left = Math.round((new Date(el.getAttribute("data-until")) - Date.now()) / 1000);
      if (isNaN(left)) { return; }
      var over = left < 0;
      left = Math.abs(left);
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = (over ? "+" : "") + (h ? h + ":" + two(m) : String(m)) + ":" + two(s);
      el.classList.toggle("over", over);
    });
    var now = document.querySelector("#live [data-now]");
    if (now) { now.textContent = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
  }

  function clockTimes() {
    document.querySelectorAll("#live time[data-hhmm]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) { el.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    show(0);
    schedule();
    clockTimes();
    tick();
    setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSettle", function () {
    show(index);
    clockTimes();
    tick();
  });
})();
