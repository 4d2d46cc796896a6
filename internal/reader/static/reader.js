// Folio reader: small enhancements. Every page works without this file:
// the theme switch is a form that sets a cookie and comes back, and the
// search box is a form too.
(function () {
  "use strict";
  var root = document.documentElement;

  // The theme switch applies a choice at once, without leaving the page,
  // and keeps it in the same cookie the form would set.
  var form = document.querySelector("form.theme-switch");
  if (form) {
    form.addEventListener("click", function (e) {
      var b = e.target.closest("button[name=theme]");
      if (!b) {
        return;
      }
      e.preventDefault();
      root.setAttribute("data-theme", b.value);
      document.cookie = "folio_theme=" + encodeURIComponent(b.value) +
        "; path=" + form.getAttribute("data-cookie-path") +
        "; max-age=31536000; samesite=lax" +
        (location.protocol === "https:" ? "; secure" : "");
      form.querySelectorAll("button[name=theme]").forEach(function (x) {
        x.setAttribute("aria-pressed", String(x === b));
      });
    });
  }

  // "/" moves to the search box, as on most documentation sites.
  var box = document.querySelector("form.search input[name=q]");
  if (box) {
    document.addEventListener("keydown", function (e) {
      var a = document.activeElement;
      if (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey &&
          !(a && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName)) && !(a && a.isContentEditable)) {
        e.preventDefault();
        box.focus();
      }
    });
  }
})();
