// Drag and drop in a site's structure: it posts the same move form as the
// Up and Down buttons, with the item dropped on and which side of it.
// (Copy buttons are copy.js's.)
"use strict";
(() => {
  const tree = document.querySelector(".site-tree[data-href]");
  const csrf = document.querySelector('input[name="csrf"]');
  if (!tree || !csrf) return;
  let dragged = null;
  const itemOf = (e) => e.target instanceof Element ? e.target.closest(".site-item") : null;
  tree.addEventListener("dragstart", (e) => {
    const it = itemOf(e);
    if (!it || !it.draggable) return;
    dragged = it;
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", it.dataset.id);
    it.classList.add("dragging");
  });
  tree.addEventListener("dragend", () => {
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
    for (const el of tree.querySelectorAll(".drop-before, .drop-after")) el.classList.remove("drop-before", "drop-after");
  });
  // A site space moves among site spaces, a section or group among
  // sections and groups; the server checks the rest.
  const fits = (target) => target && dragged && target !== dragged && !dragged.contains(target) &&
    (target.dataset.kind === "site-space") === (dragged.dataset.kind === "site-space");
  const place = (e, target) => {
    const r = target.querySelector(".site-item-head").getBoundingClientRect();
    return e.clientY < r.top + r.height / 2 ? "before" : "after";
  };
  tree.addEventListener("dragover", (e) => {
    const target = itemOf(e);
    if (!fits(target)) return;
    e.preventDefault();
    e.stopPropagation();
    const p = place(e, target);
    target.classList.toggle("drop-before", p === "before");
    target.classList.toggle("drop-after", p === "after");
  });
  tree.addEventListener("dragleave", (e) => {
    const target = itemOf(e);
    if (target) target.classList.remove("drop-before", "drop-after");
  });
  tree.addEventListener("drop", (e) => {
    const target = itemOf(e);
    if (!fits(target)) return;
    e.preventDefault();
    const f = document.createElement("form");
    f.method = "post";
    f.action = tree.dataset.href + "/move";
    const fields = {csrf: csrf.value, kind: dragged.dataset.kind, id: dragged.dataset.id,
      place: place(e, target), "target-kind": target.dataset.kind, target: target.dataset.id};
    for (const [name, value] of Object.entries(fields)) {
      const i = document.createElement("input");
      i.type = "hidden";
      i.name = name;
      i.value = value;
      f.append(i);
    }
    document.body.append(f);
    f.submit();
  });
})();
