// The site customization page: reloads the preview frame with the form's
// unsaved settings as they change (the preview endpoint reads them from
// its query), and says at once when a primary colour fails WCAG AA
// against the reader's background (the server says the same on load).
// Without it, saving reloads the page and the preview with it.
"use strict";
(function () {
  const form = document.getElementById("customize-form");
  const frame = document.getElementById("preview");
  if (!form || !frame) return;
  const base = form.dataset.preview;
  // The reader's page backgrounds (internal/reader/assets.go).
  const backgrounds = { light: "#ffffff", dark: "#0d1117" };

  function rgb(hex) {
    const m = /^#([0-9a-f]{6})$/i.exec(hex || "");
    if (!m) return null;
    const n = parseInt(m[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  function luminance(c) {
    const l = c.map(function (v) {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  }
  function contrast(a, b) {
    let x = luminance(a), y = luminance(b);
    if (x < y) [x, y] = [y, x];
    return (x + 0.05) / (y + 0.05);
  }

  function warnings() {
    const out = [];
    for (const theme of ["light", "dark"]) {
      const input = form.elements["primary_" + theme];
      const fg = rgb(input && input.value);
      if (!fg) continue;
      const r = contrast(fg, rgb(backgrounds[theme]));
      if (r < 4.5) {
        out.push("The primary colour for the " + theme + " theme (" + input.value + ") has a contrast of " +
          (Math.floor(r * 10) / 10).toFixed(1) + ":1 with the " + theme + " background (" + backgrounds[theme] +
          "): WCAG AA asks 4.5:1 for text. The reader will adjust it for links and text.");
      }
    }
    const box = document.getElementById("contrast");
    const now = Array.from(box.querySelectorAll("p")).map(function (p) { return p.textContent; });
    if (now.join("\n") === out.join("\n")) return;
    box.replaceChildren.apply(box, out.map(function (text) {
      const p = document.createElement("p");
      p.className = "notice";
      p.textContent = text;
      return p;
    }));
  }

  function previewURL() {
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) {
      if (k === "csrf" || typeof v !== "string") continue;
      q.append(k, v);
    }
    return base + "?" + q.toString();
  }

  let timer = 0;
  function changed(e) {
    if (e.target && e.target.type === "file") return;
    warnings();
    clearTimeout(timer);
    timer = setTimeout(function () {
      // A half-typed address would only show an error in the frame.
      if (form.checkValidity()) frame.src = previewURL();
    }, 400);
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
})();
