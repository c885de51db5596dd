// The event form: show only the chosen variant's options, and no variant at all for a
// match of several variants in turn (progressive enhancement; without this script every
// set is shown, and the server ignores the options of other variants).
(function () {
  "use strict";
  function update(form) {
    var select = form.querySelector("select[name=variant]");
    if (!select) { return; }
    var matches = form.querySelector(".match-form");
    var formSelect = form.querySelector("select[name=match_form]");
    var oneVariant = !matches || !formSelect ||
      formSelect.value === matches.getAttribute("data-one-variant");
    form.querySelectorAll(".one-variant").forEach(function (part) { part.hidden = !oneVariant; });
    form.querySelectorAll(".variant-options[data-variants]").forEach(function (group) {
      var shown = group.getAttribute("data-variants").split(" ").indexOf(select.value) >= 0;
      group.hidden = !(shown && oneVariant);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form").forEach(function (form) {
      if (!form.querySelector(".variant-options")) { return; }
      update(form);
      form.addEventListener("change", function () { update(form); });
    });
  });
})();
