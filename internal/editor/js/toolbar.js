// The toolbar: one button per command, each with an accessible name and
// its shortcut in the tooltip, following the WAI-ARIA toolbar pattern (one
// tab stop, also reached from the text with Alt+F10; arrow keys, Home and
// End move between buttons; Escape goes back to the text). Buttons keep
// the editor's selection: a mouse press does not take the focus, and the
// editor gets it back after a command.
import { isInTable } from "prosemirror-tables";
import { commands } from "./editor.js";
import { schema } from "./schema.js";

const mac = typeof navigator !== "undefined" && /Mac|iP(hone|[oa]d)/.test(navigator.platform);
const mod = mac ? "⌘" : "Ctrl+";

// groups lists the buttons: [command, visible text, accessible name,
// shortcut, description]. The accessible name holds the visible text (so
// speech users can say what they see, WCAG 2.5.3); the tooltip gives the
// description (the name when absent) and the shortcut.
const groups = [
  [
    ["undo", "↶", "Undo", mod + "Z"],
    ["redo", "↷", "Redo", mac ? "⇧⌘Z" : "Ctrl+Y"],
  ],
  [
    ["paragraph", "Text", "Text", mod + "Alt+0"],
    ["heading1", "H1", "H1 heading", mod + "Alt+1", "Heading 1"],
    ["heading2", "H2", "H2 heading", mod + "Alt+2", "Heading 2"],
    ["heading3", "H3", "H3 heading", mod + "Alt+3", "Heading 3"],
  ],
  [
    ["bold", "B", "Bold", mod + "B"],
    ["italic", "I", "Italic", mod + "I"],
    ["strikethrough", "S", "Strikethrough", mod + "Shift+X"],
    ["code", "</>", "Inline code", mod + "E"],
    ["link", "Link", "Link", mod + "K"],
  ],
  [
    ["bulletList", "• List", "Bulleted list", mod + "Shift+8"],
    ["orderedList", "1. List", "1. List (numbered)", mod + "Shift+7", "Numbered list"],
    ["taskList", "☑ Tasks", "Tasks (checklist)", mod + "Shift+9", "Task list"],
    ["quote", "❝", "Quote", ""],
    ["hint", "Hint", "Hint", ""],
    ["codeBlock", "Code", "Code block", "```"],
  ],
  [
    ["image", "Image", "Image", ""],
    ["table", "Table", "Table", ""],
    ["divider", "—", "Divider", "---"],
    ["tabs", "Tabs", "Tabs", "/tabs"],
    ["expandable", "▸ Expandable", "Expandable", "/expandable"],
  ],
  [
    ["addRow", "+ Row", "Add row", ""],
    ["addColumn", "+ Column", "Add column", ""],
    ["deleteRow", "− Row", "Delete row", ""],
    ["deleteColumn", "− Column", "Delete column", ""],
  ],
];

const markButtons = { bold: "bold", italic: "italic", strikethrough: "strikethrough", code: "code", link: "link" };
const tableButtons = { addRow: true, addColumn: true, deleteRow: true, deleteColumn: true };

function markActive(state, type) {
  const { from, $from, to, empty } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks || $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

function blockActive(state, name) {
  const parent = state.selection.$from.parent;
  switch (name) {
    case "paragraph":
      return parent.type === schema.nodes.paragraph;
    case "heading1":
    case "heading2":
    case "heading3":
      return parent.type === schema.nodes.heading && parent.attrs.level === +name.slice(-1);
    case "codeBlock":
      return parent.type === schema.nodes.code_block;
  }
  return null;
}

let uid = 0;

export function buildToolbar(editor) {
  const dom = document.createElement("div");
  dom.className = "fe-toolbar";
  dom.setAttribute("role", "toolbar");
  dom.setAttribute("aria-label", "Formatting");
  const buttons = [];
  for (const group of groups) {
    const g = document.createElement("div");
    g.className = "fe-group";
    for (const [name, text, label, shortcut, description] of group) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "fe-button";
      b.textContent = text;
      b.setAttribute("aria-label", label);
      const tip = description || label;
      b.title = shortcut ? tip + " (" + shortcut + ")" : tip;
      b.dataset.command = name;
      b.tabIndex = buttons.length === 0 ? 0 : -1;
      b.addEventListener("mousedown", (e) => e.preventDefault());
      b.addEventListener("click", () => activate(name));
      g.appendChild(b);
      buttons.push(b);
    }
    dom.appendChild(g);
  }

  // The image picker: a hidden file input the Image button opens.
  const picker = document.createElement("input");
  picker.type = "file";
  picker.accept = "image/*";
  picker.multiple = true;
  picker.hidden = true;
  picker.setAttribute("aria-label", "Image files");
  picker.addEventListener("change", () => {
    const files = Array.from(picker.files || []);
    picker.value = "";
    if (files.length) editor.insertFiles(files, null);
  });
  dom.appendChild(picker);

  // The link form, shown under the toolbar.
  const id = "fe-link-" + ++uid;
  const form = document.createElement("form");
  form.className = "fe-linkform";
  form.hidden = true;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = "Link to (URL or page title)";
  const input = document.createElement("input");
  input.id = id;
  input.type = "text";
  input.autocomplete = "off";
  const pages = editor.options.pages || [];
  if (pages.length) {
    const list = document.createElement("datalist");
    list.id = id + "-pages";
    for (const p of pages) {
      const o = document.createElement("option");
      o.value = p.title;
      list.appendChild(o);
    }
    form.appendChild(list);
    input.setAttribute("list", list.id);
  }
  const apply = document.createElement("button");
  apply.type = "submit";
  apply.textContent = "Apply link";
  const remove = document.createElement("button");
  remove.type = "button";
  remove.textContent = "Remove link";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  form.append(label, input, apply, remove, cancel);
  dom.appendChild(form);

  const closeLink = () => {
    form.hidden = true;
    editor.view.focus();
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const value = input.value.trim();
    const page = pages.find((p) => p.title === value);
    const ref = page ? { kind: "page", page: page.id } : value ? { kind: "url", url: value } : null;
    const view = editor.view;
    const { from, to, empty } = view.state.selection;
    const type = schema.marks.link;
    let tr = view.state.tr.removeMark(from, to, type);
    if (ref) {
      if (empty) {
        const text = page ? page.title : value;
        tr = tr.insertText(text, from, to).addMark(from, from + text.length, type.create({ data: { ref } }));
      } else {
        tr = tr.addMark(from, to, type.create({ data: { ref } }));
      }
    }
    view.dispatch(tr);
    closeLink();
  });
  remove.addEventListener("click", () => {
    const view = editor.view;
    const { from, to } = view.state.selection;
    view.dispatch(view.state.tr.removeMark(from, to, schema.marks.link));
    closeLink();
  });
  cancel.addEventListener("click", closeLink);
  form.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      closeLink();
    }
  });

  function openLink() {
    if (editor.readOnly) return;
    const state = editor.view.state;
    const mark = schema.marks.link.isInSet(state.selection.$from.marks());
    const ref = (mark && mark.attrs.data && mark.attrs.data.ref) || {};
    const page = ref.kind === "page" && pages.find((p) => p.id === ref.page);
    input.value = ref.kind === "url" ? ref.url : page ? page.title : "";
    form.hidden = false;
    input.focus();
  }

  function activate(name) {
    if (name === "link") return openLink();
    if (name === "image") {
      if (editor.options.uploadFile) picker.click();
      return;
    }
    editor.run(commands[name]);
  }

  // Roving focus between the buttons.
  dom.addEventListener("keydown", (e) => {
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === "Escape") {
      e.preventDefault();
      editor.view.focus();
      return;
    }
    let j = -1;
    if (e.key === "ArrowRight") j = (i + 1) % buttons.length;
    else if (e.key === "ArrowLeft") j = (i - 1 + buttons.length) % buttons.length;
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = buttons.length - 1;
    if (j < 0) return;
    e.preventDefault();
    buttons[i].tabIndex = -1;
    buttons[j].tabIndex = 0;
    buttons[j].focus();
  });

  // Groups are set apart by a rule on their left, except a group that
  // starts a row when the toolbar wraps (narrow screens), marked
  // fe-row-start: measured after layout, again when the width changes.
  let marking = 0;
  function markRowStarts() {
    if (marking) return;
    marking = requestAnimationFrame(() => {
      marking = 0;
      const groups = Array.from(dom.querySelectorAll(".fe-group"));
      for (const g of groups) g.classList.remove("fe-row-start");
      let prev = null;
      for (const g of groups) {
        if (g.hidden) continue;
        if (prev !== null && g.offsetTop > prev.offsetTop + prev.offsetHeight / 2) g.classList.add("fe-row-start");
        prev = g;
      }
    });
  }
  if (typeof ResizeObserver !== "undefined") {
    let width = 0;
    new ResizeObserver((entries) => {
      const w = Math.round(entries[entries.length - 1].contentRect.width);
      if (w !== width) {
        width = w;
        markRowStarts();
      }
    }).observe(dom);
  }

  let wasInTable = null;
  function update(state) {
    const inTable = isInTable(state);
    for (const b of buttons) {
      const name = b.dataset.command;
      let enabled = true;
      if (name === "image") enabled = !!editor.options.uploadFile;
      else if (name !== "link") enabled = !!commands[name](state);
      if (tableButtons[name]) b.parentNode.hidden = !inTable;
      // aria-disabled keeps disabled buttons focusable in the toolbar.
      b.setAttribute("aria-disabled", String(!enabled));
      const mark = markButtons[name];
      const active = mark ? markActive(state, schema.marks[mark]) : blockActive(state, name);
      if (active === null) b.removeAttribute("aria-pressed");
      else b.setAttribute("aria-pressed", String(active));
    }
    // The table's buttons show or hide: the rows may change.
    if (inTable !== wasInTable) {
      wasInTable = inTable;
      markRowStarts();
    }
  }

  function focus() {
    (buttons.find((b) => b.tabIndex === 0) || buttons[0]).focus();
  }

  return { dom, update, openLink, focus, activate };
}
