// Drag and drop in a space's page tree: drop a page on the upper part of
// another to put it before, on the lower part to put it after, on the
// middle to move it into that page (at the end of its subpages). The drop
// posts the same kind of form as the page menu's move buttons
// (/~/pages/{page}/move), so the server decides and the page reloads; the
// menu keeps working without this script, and from the keyboard.
(function () {
  "use strict";
  var data = document.getElementById("tree-move");
  var nav = document.getElementById("pages");
  var csrf = document.querySelector('input[name="csrf"]');
  if (!data || !nav || !csrf) return;

  var ids = {};
  data.querySelectorAll("[data-id]").forEach(function (el) {
    ids[new URL(el.getAttribute("data-href"), location.href).pathname] = el.getAttribute("data-id");
  });

  var dragged = null;
  var marked = null;

  function clear() {
    if (marked) marked.classList.remove("drop-before", "drop-after", "drop-inside");
    marked = null;
  }

  function position(a, y) {
    var r = a.getBoundingClientRect();
    var f = r.height > 0 ? (y - r.top) / r.height : 0.5;
    if (f < 0.3) return "before";
    if (f > 0.7) return "after";
    return "inside";
  }

  // allowed says whether the dragged page may land on link a: not on
  // itself nor into its own subpages.
  function allowed(a) {
    return dragged && dragged !== a && !dragged.parentElement.contains(a);
  }

  function submit(page, target, where) {
    var f = document.createElement("form");
    f.method = "post";
    f.action = data.getAttribute("data-action") + encodeURIComponent(page) + "/move";
    f.hidden = true;
    [["csrf", csrf.value], ["target", target], ["position", where], ["current", data.getAttribute("data-current")]].forEach(function (kv) {
      var i = document.createElement("input");
      i.type = "hidden";
      i.name = kv[0];
      i.value = kv[1];
      f.appendChild(i);
    });
    document.body.appendChild(f);
    f.submit();
  }

  nav.querySelectorAll(".tree a").forEach(function (a) {
    var id = ids[new URL(a.href).pathname];
    if (!id) return;
    a.setAttribute("data-page-id", id);
    a.draggable = true;
    a.addEventListener("dragstart", function (e) {
      dragged = a;
      a.classList.add("dragging");
      if (e.dataTransfer) {
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", a.textContent.trim());
      }
    });
    a.addEventListener("dragend", function () {
      clear();
      if (dragged) dragged.classList.remove("dragging");
      dragged = null;
    });
    a.addEventListener("dragover", function (e) {
      if (!allowed(a)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
      var where = position(a, e.clientY);
      if (marked !== a || !a.classList.contains("drop-" + where)) {
        clear();
        marked = a;
        a.classList.add("drop-" + where);
      }
    });
    a.addEventListener("dragleave", function () {
      if (marked === a) clear();
    });
    a.addEventListener("drop", function (e) {
      if (!allowed(a)) return;
      e.preventDefault();
      var where = position(a, e.clientY);
      var page = dragged.getAttribute("data-page-id");
      clear();
      submit(page, id, where);
    });
  });
})();
