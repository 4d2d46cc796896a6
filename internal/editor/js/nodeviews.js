// Node views for the blocks that carry controls besides their text: the
// task item's checkbox, the hint's style, the code block's language and
// title, and the image itself. The controls live outside the editable
// content (contenteditable=false) and change the node's attributes.
import { TextSelection } from "prosemirror-state";
import { hintStyles, schema } from "./schema.js";

function el(tag, attrs, children) {
  const e = document.createElement(tag);
  for (const k of Object.keys(attrs || {})) {
    if (k === "text") e.textContent = attrs[k];
    else e.setAttribute(k, attrs[k]);
  }
  for (const c of children || []) e.appendChild(c);
  return e;
}

let uid = 0;

// ControlledView is a node view with a control bar and a content element.
class ControlledView {
  constructor(editor, node, getPos) {
    this.editor = editor;
    this.node = node;
    this.getPos = getPos;
  }

  setAttrs(attrs) {
    const pos = this.getPos();
    if (pos === undefined || this.editor.readOnly) return;
    const view = this.editor.view;
    view.dispatch(view.state.tr.setNodeMarkup(pos, null, Object.assign({}, this.node.attrs, attrs)));
  }

  stopEvent(event) {
    return !!(this.controls && this.controls.contains(event.target));
  }

  ignoreMutation(mutation) {
    return !!(this.controls && this.controls.contains(mutation.target)) || (mutation.type === "attributes" && mutation.target === this.dom);
  }

  setKey(node) {
    if (node.attrs.key) this.dom.setAttribute("data-key", node.attrs.key);
    else this.dom.removeAttribute("data-key");
  }
}

class TaskItemView extends ControlledView {
  constructor(editor, node, getPos) {
    super(editor, node, getPos);
    this.box = el("input", { type: "checkbox", "aria-label": "Done" });
    this.controls = el("span", { class: "fe-task-check", contenteditable: "false" }, [this.box]);
    this.contentDOM = el("div", { class: "fe-task-body" });
    this.dom = el("li", { class: "fe-task" }, [this.controls, this.contentDOM]);
    this.box.addEventListener("change", () => this.setAttrs({ checked: this.box.checked }));
    this.update(node);
  }

  update(node) {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.box.checked = !!node.attrs.checked;
    this.box.disabled = this.editor.readOnly;
    this.dom.setAttribute("data-checked", String(!!node.attrs.checked));
    this.setKey(node);
    return true;
  }
}

class HintView extends ControlledView {
  constructor(editor, node, getPos) {
    super(editor, node, getPos);
    const id = "fe-hint-style-" + ++uid;
    this.select = el(
      "select",
      { id },
      hintStyles.map((s) => el("option", { value: s, text: s[0].toUpperCase() + s.slice(1) })),
    );
    this.controls = el("div", { class: "fe-controls", contenteditable: "false" }, [
      el("label", { for: id, text: "Hint style" }),
      this.select,
    ]);
    this.contentDOM = el("div", { class: "fe-hint-body" });
    this.dom = el("div", {}, [this.controls, this.contentDOM]);
    this.select.addEventListener("change", () => this.setAttrs({ style: this.select.value }));
    this.update(node);
  }

  update(node) {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.select.value = node.attrs.style;
    this.select.disabled = this.editor.readOnly;
    this.dom.className = "fe-hint fe-hint-" + node.attrs.style;
    this.setKey(node);
    return true;
  }
}

class CodeView extends ControlledView {
  constructor(editor, node, getPos) {
    super(editor, node, getPos);
    const lang = "fe-code-lang-" + ++uid;
    const title = "fe-code-title-" + uid;
    this.lang = el("input", { id: lang, type: "text", spellcheck: "false", placeholder: "plain text" });
    this.title = el("input", { id: title, type: "text", placeholder: "none" });
    this.controls = el("div", { class: "fe-controls", contenteditable: "false" }, [
      el("label", { for: lang, text: "Language" }),
      this.lang,
      el("label", { for: title, text: "Title" }),
      this.title,
    ]);
    this.contentDOM = el("code");
    this.dom = el("div", { class: "fe-codeblock" }, [this.controls, el("pre", { class: "fe-code" }, [this.contentDOM])]);
    const field = (input, name) =>
      input.addEventListener("change", () => {
        const data = Object.assign({}, this.node.attrs.data || {});
        if (input.value) data[name] = input.value;
        else delete data[name];
        this.setAttrs({ data });
      });
    field(this.lang, "syntax");
    field(this.title, "title");
    this.update(node);
  }

  update(node) {
    if (node.type !== this.node.type) return false;
    this.node = node;
    const d = node.attrs.data || {};
    if (document.activeElement !== this.lang) this.lang.value = d.syntax || "";
    if (document.activeElement !== this.title) this.title.value = d.title || "";
    this.lang.disabled = this.title.disabled = this.editor.readOnly;
    this.setKey(node);
    return true;
  }
}

// ImageView shows the image, an "Alt text" field (data.alt, what screen
// readers and the published page say for it) and the caption, its content.
class ImageView extends ControlledView {
  constructor(editor, node, getPos) {
    super(editor, node, getPos);
    this.img = el("img", { draggable: "false" });
    this.missing = el("span", { class: "fe-image-missing" });
    const altID = "fe-image-alt-" + ++uid;
    this.alt = el("input", { id: altID, type: "text", placeholder: "Describe the image" });
    this.controls = el("div", { class: "fe-image-frame", contenteditable: "false" }, [
      this.img,
      this.missing,
      el("div", { class: "fe-controls fe-image-alt" }, [el("label", { for: altID, text: "Alt text" }), this.alt]),
    ]);
    this.contentDOM = el("figcaption", { "data-placeholder": "Caption" });
    this.dom = el("figure", { class: "fe-image" }, [this.controls, this.contentDOM]);
    // An image that does not load shows its reference instead.
    this.img.addEventListener("error", () => this.showMissing());
    this.alt.addEventListener("change", () => {
      const data = Object.assign({}, this.node.attrs.data || {});
      const alt = this.alt.value.trim();
      if (alt) data.alt = alt;
      else delete data.alt;
      this.setAttrs({ data });
    });
    // Enter or Escape goes back to the text (after the change above).
    this.alt.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== "Escape") return;
      e.preventDefault();
      this.alt.dispatchEvent(new Event("change"));
      editor.view.focus();
    });
    this.update(node);
  }

  update(node) {
    if (node.type !== this.node.type) return false;
    this.node = node;
    const d = node.attrs.data || {};
    const ref = d.ref || {};
    let src = "";
    if (ref.kind === "url") src = ref.url;
    else if (ref.kind === "file" && this.editor.options.fileURL) src = this.editor.options.fileURL(ref.file) || "";
    if (src && /^(https?:|\/|blob:|data:image\/)/.test(src)) {
      if (this.img.getAttribute("src") !== src) this.img.src = src;
      this.img.hidden = false;
      this.missing.hidden = true;
    } else {
      this.showMissing();
    }
    this.img.alt = d.alt || "";
    if (document.activeElement !== this.alt) this.alt.value = d.alt || "";
    this.alt.disabled = this.editor.readOnly;
    this.contentDOM.classList.toggle("fe-empty", node.content.size === 0);
    this.setKey(node);
    return true;
  }
}

ImageView.prototype.showMissing = function () {
  const ref = (this.node.attrs.data && this.node.attrs.data.ref) || {};
  this.img.hidden = true;
  this.missing.hidden = false;
  this.missing.textContent = "Image not shown: " + (ref.kind === "file" ? "file " + ref.file : ref.url || "no source");
};

// TabsView holds the tabs, one under the other, and an "Add tab" button.
class TabsView extends ControlledView {
  constructor(editor, node, getPos) {
    super(editor, node, getPos);
    this.add = el("button", { type: "button", class: "fe-tab-add", text: "Add tab" });
    this.controls = el("div", { class: "fe-controls fe-tabs-controls", contenteditable: "false" }, [this.add]);
    this.contentDOM = el("div", { class: "fe-tabs-items" });
    this.dom = el("div", { class: "fe-tabs", role: "group", "aria-label": "Tabs" }, [this.contentDOM, this.controls]);
    this.add.addEventListener("click", () => {
      const pos = this.getPos();
      if (pos === undefined || this.editor.readOnly) return;
      const view = this.editor.view;
      const at = pos + this.node.nodeSize - 1;
      const item = schema.nodes.tabs_item.create({ data: { title: "Tab " + (this.node.childCount + 1) } }, schema.nodes.paragraph.create());
      const tr = view.state.tr.insert(at, item);
      tr.setSelection(TextSelection.near(tr.doc.resolve(at + 1)));
      view.dispatch(tr.scrollIntoView());
      // The new tab's title field, to name it.
      const dom = view.nodeDOM(at);
      const input = dom && dom.querySelector && dom.querySelector(".fe-tab-title input");
      if (input) {
        input.focus();
        input.select();
      } else view.focus();
    });
    this.update(node);
  }

  update(node) {
    if (node.type !== this.node.type) return false;
    this.node = node;
    this.add.disabled = this.editor.readOnly;
    this.setKey(node);
    return true;
  }
}

// TabItemView shows a tab's title (data.title) as a labelled field, a
// "Remove tab" button, and the tab's content.
class TabItemView extends ControlledView {
  constructor(editor, node, getPos) {
    super(editor, node, getPos);
    const id = "fe-tab-title-" + ++uid;
    this.title = el("input", { id, type: "text", placeholder: "Tab title" });
    this.remove = el("button", { type: "button", class: "fe-tab-remove", text: "Remove tab" });
    this.controls = el("div", { class: "fe-controls fe-tab-title", contenteditable: "false" }, [
      el("label", { for: id, text: "Tab title" }),
      this.title,
      this.remove,
    ]);
    this.contentDOM = el("div", { class: "fe-tab-body" });
    this.dom = el("section", { class: "fe-tab" }, [this.controls, this.contentDOM]);
    this.title.addEventListener("input", () => {
      const data = Object.assign({}, this.node.attrs.data || {}, { title: this.title.value });
      this.setAttrs({ data });
    });
    this.title.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== "Escape") return;
      e.preventDefault();
      const pos = this.getPos();
      const view = editor.view;
      if (pos !== undefined) view.dispatch(view.state.tr.setSelection(TextSelection.near(view.state.doc.resolve(pos + 1))));
      view.focus();
    });
    // Removing the last tab removes the tabs block.
    this.remove.addEventListener("click", () => {
      const pos = this.getPos();
      if (pos === undefined || this.editor.readOnly) return;
      const view = editor.view;
      const $pos = view.state.doc.resolve(pos);
      const tabs = $pos.parent;
      const tr = tabs.childCount > 1 ? view.state.tr.delete(pos, pos + this.node.nodeSize) : view.state.tr.delete($pos.before(), $pos.after());
      view.dispatch(tr.scrollIntoView());
      view.focus();
    });
    this.update(node);
  }

  update(node) {
    if (node.type !== this.node.type) return false;
    this.node = node;
    const title = (node.attrs.data && node.attrs.data.title) || "";
    if (document.activeElement !== this.title) this.title.value = title;
    this.remove.setAttribute("aria-label", "Remove tab " + (title || "without title"));
    this.title.disabled = this.remove.disabled = this.editor.readOnly;
    this.setKey(node);
    return true;
  }
}

export function nodeViews(editor) {
  return {
    task_item: (node, view, getPos) => new TaskItemView(editor, node, getPos),
    hint: (node, view, getPos) => new HintView(editor, node, getPos),
    code_block: (node, view, getPos) => new CodeView(editor, node, getPos),
    image: (node, view, getPos) => new ImageView(editor, node, getPos),
    tabs: (node, view, getPos) => new TabsView(editor, node, getPos),
    tabs_item: (node, view, getPos) => new TabItemView(editor, node, getPos),
  };
}
