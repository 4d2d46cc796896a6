// Folio reader: small enhancements, one file per concern, joined into one
// script (assets.go). Every page works without them: the theme switch and
// the search box are forms, tabs show all their panels, the phone menu's
// content follows the article.

// Theme: the switch applies a choice at once, without leaving the page,
// and keeps it in the same cookie the form would set.
(function () {
  "use strict";
  var root = document.documentElement;
  var form = document.querySelector("form.theme-switch");
  if (!form) {
    return;
  }
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
})();
