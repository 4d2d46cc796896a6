// The slash menu: typing "/" at the start of a paragraph or after a space
// opens a list of block types, filtered by what follows ("/tab"). It
// follows the WAI-ARIA combobox pattern with the editor's text as the
// input: the text keeps the focus and points at the listbox
// (aria-controls) and at the highlighted option (aria-activedescendant);
// arrow keys move, Enter or Tab inserts, Escape closes. The mouse works
// too. Choosing an item deletes "/query" and runs the toolbar's command.
import { Plugin } from "prosemirror-state";

// items: [command, label, description, extra search words].
export const slashItems = [
  ["paragraph", "Text", "Plain paragraph", "paragraph"],
  ["heading1", "Heading 1", "Large section heading", "h1 title"],
  ["heading2", "Heading 2", "Medium section heading", "h2"],
  ["heading3", "Heading 3", "Small section heading", "h3"],
  ["bulletList", "Bulleted list", "A list with bullets", "unordered ul"],
  ["orderedList", "Numbered list", "A list with numbers", "ordered ol"],
  ["taskList", "Task list", "A checklist", "todo checkbox checklist"],
  ["quote", "Quote", "A quotation", "blockquote"],
  ["hint", "Hint", "An info, success, warning or danger box", "callout info warning note"],
  ["codeBlock", "Code block", "Code with a language and title", "pre snippet"],
  ["table", "Table", "A table of rows and columns", "grid"],
  ["image", "Image", "Upload an image", "picture photo file"],
  ["divider", "Divider", "A horizontal rule", "hr line separator"],
  ["tabs", "Tabs", "Content in tabs", "tabbed"],
  ["expandable", "Expandable", "A title that opens to show more", "details collapse toggle accordion"],
];

let uid = 0;

// find returns the "/query" before the cursor, or null.
function find(state) {
  const sel = state.selection;
  if (!sel.empty) return null;
  const $f = sel.$from;
  if ($f.parent.type.name !== "paragraph") return null;
  const before = $f.parent.textBetween(0, $f.parentOffset, null, "\ufffc");
  const m = /(^|\s)\/([^\s/]{0,24})$/.exec(before);
  if (!m) return null;
  return { from: $f.pos - m[2].length - 1, to: $f.pos, query: m[2].toLowerCase() };
}

function matches(item, query) {
  if (!query) return true;
  const words = (item[1] + " " + item[3]).toLowerCase();
  return words.split(/\s+/).some((w) => w.startsWith(query)) || words.replace(/\s+/g, "").includes(query);
}

// slashMenu builds the plugin; run(command) runs a toolbar command.
export function slashMenu(editor, run) {
  const id = "fe-slash-" + ++uid;
  const menu = document.createElement("ul");
  menu.id = id;
  menu.className = "fe-slash";
  menu.setAttribute("role", "listbox");
  menu.setAttribute("aria-label", "Insert a block");
  menu.hidden = true;
  let view = null;
  let open = null; // {from, to, query, items}
  let index = 0;
  let dismissed = -1; // the position of a "/" closed with Escape

  function close() {
    open = null;
    menu.hidden = true;
    if (view) {
      view.dom.removeAttribute("aria-controls");
      view.dom.removeAttribute("aria-activedescendant");
    }
  }

  function highlight(i) {
    index = i;
    const opts = menu.children;
    for (let k = 0; k < opts.length; k++) opts[k].setAttribute("aria-selected", String(k === i));
    if (opts[i]) {
      view.dom.setAttribute("aria-activedescendant", opts[i].id);
      if (opts[i].scrollIntoView) opts[i].scrollIntoView({ block: "nearest" });
    }
  }

  function choose(i) {
    const item = open && open.items[i];
    if (!item) return;
    const { from, to } = open;
    close();
    view.dispatch(view.state.tr.delete(from, to));
    run(item[0]);
  }

  function render(found) {
    const items = slashItems.filter((it) => matches(it, found.query));
    if (!items.length) return close();
    const same = open && open.items.length === items.length && open.items.every((it, i) => it === items[i]);
    open = { from: found.from, to: found.to, query: found.query, items };
    if (!same) {
      menu.textContent = "";
      items.forEach((it, i) => {
        const li = document.createElement("li");
        li.id = id + "-" + it[0];
        li.setAttribute("role", "option");
        li.className = "fe-slash-item";
        const name = document.createElement("span");
        name.className = "fe-slash-name";
        name.textContent = it[1];
        const desc = document.createElement("span");
        desc.className = "fe-slash-desc";
        desc.textContent = it[2];
        li.append(name, desc);
        li.addEventListener("mousedown", (e) => e.preventDefault());
        li.addEventListener("click", () => choose(i));
        menu.appendChild(li);
      });
      index = 0;
    }
    menu.hidden = false;
    view.dom.setAttribute("aria-controls", id);
    highlight(Math.min(index, items.length - 1));
    // Under the "/", inside the editor's box.
    const at = view.coordsAtPos(found.from);
    const box = editor.root.getBoundingClientRect();
    const left = Math.max(0, Math.min(at.left - box.left, box.width - menu.offsetWidth));
    menu.style.left = left + "px";
    menu.style.top = at.bottom - box.top + 4 + "px";
  }

  function update(v) {
    const found = editor.readOnly || !v.hasFocus() ? null : find(v.state);
    if (!found || found.from === dismissed) {
      if (!found) dismissed = -1;
      if (open) close();
      return;
    }
    render(found);
  }

  return new Plugin({
    view(v) {
      view = v;
      editor.root.appendChild(menu);
      v.dom.setAttribute("aria-haspopup", "listbox");
      return { update, destroy: () => menu.remove() };
    },
    props: {
      handleKeyDown(v, e) {
        if (!open) return false;
        const n = open.items.length;
        switch (e.key) {
          case "ArrowDown":
            highlight((index + 1) % n);
            return true;
          case "ArrowUp":
            highlight((index - 1 + n) % n);
            return true;
          case "Home":
          case "End":
            highlight(e.key === "Home" ? 0 : n - 1);
            return true;
          case "Enter":
          case "Tab":
            choose(index);
            return true;
          case "Escape":
            dismissed = open.from;
            close();
            return true;
        }
        return false;
      },
      handleDOMEvents: {
        blur() {
          if (open) close();
          return false;
        },
        focus(v) {
          setTimeout(() => update(v), 0);
          return false;
        },
      },
    },
  });
}
