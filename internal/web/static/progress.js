// Live progress of long work (git syncs, OpenAPI processing, translation
// runs): every element with data-progress polls that JSON status route
// ({state, text, done, total, ended, error}) once a second while the work
// is not over, and shows what it answers. Without this script the page
// shows the state when it loaded, with a Refresh link.
"use strict";
(function () {
  function show(el, p) {
    el.dataset.state = p.state;
    var text = el.querySelector(".progress-text");
    if (text) text.textContent = p.text;
    var bar = el.querySelector("progress");
    if (bar) {
      if (p.total > 0) {
        bar.max = p.total;
        bar.value = p.done;
      } else if (p.ended) {
        bar.max = 1;
        bar.value = 1;
      } else {
        bar.removeAttribute("value");
      }
      bar.hidden = p.ended && !p.total;
    }
    var err = el.querySelector(".progress-error");
    if (err) {
      err.textContent = p.error || "";
      err.hidden = !p.error;
    }
    var refresh = el.querySelector(".progress-refresh");
    if (refresh) {
      refresh.hidden = !p.ended;
      // Once the work is over, the link offers what it changed.
      if (p.ended && refresh.lastChild) refresh.lastChild.textContent = " the page to see what it changed.";
    }
    if (p.ended) {
      el.dataset.ended = "true";
      // A heading that says the work is running (data-ended-text) now says
      // it is over.
      var section = el.closest("section");
      var heading = section && section.querySelector("[data-ended-text]");
      if (heading) heading.textContent = heading.dataset.endedText;
    }
  }
  function poll(el) {
    fetch(el.dataset.progress, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (p) {
        show(el, p);
        if (!p.ended) setTimeout(function () { poll(el); }, 1000);
      })
      .catch(function () { setTimeout(function () { poll(el); }, 5000); });
  }
  document.querySelectorAll("[data-progress]").forEach(function (el) {
    if (el.dataset.ended === "true") return;
    var refresh = el.querySelector(".progress-refresh");
    if (refresh) refresh.hidden = true;
    poll(el);
  });
  // A file chosen for a textarea (data-file-into) is read into it.
  document.querySelectorAll("input[type=file][data-file-into]").forEach(function (input) {
    input.hidden = false;
    var label = document.querySelector('label[for="' + input.id + '"]');
    if (label) label.hidden = false;
    input.addEventListener("change", function () {
      var f = input.files && input.files[0];
      if (!f) return;
      f.text().then(function (t) { document.getElementById(input.dataset.fileInto).value = t; });
    });
  });
})();
