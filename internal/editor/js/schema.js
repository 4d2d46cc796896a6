// The editor's ProseMirror schema: one node or mark type per GitBook
// document construct the editor can edit, plus opaque atoms that carry the
// JSON of everything else untouched (see convert.js for the mapping).
//
// Every block type carries the attributes "key" (the GitBook block key,
// null for blocks made in the editor), "data" (the block's data object, as
// loaded) and "rest" (the block's other properties, such as meta or
// unknown ones), so that a block written back keeps everything it came with.
// toDOM never writes a style attribute: the page's CSP forbids them.
import { Schema } from "prosemirror-model";

const blockAttrs = { key: { default: null }, data: { default: null }, rest: { default: null } };

function withBlockAttrs(extra) {
  return Object.assign({}, blockAttrs, extra || {});
}

// keyAttr exposes the block key in the DOM, so the host can anchor
// comments to a block.
function keyAttr(node, more) {
  const a = Object.assign({}, more || {});
  if (node.attrs.key) a["data-key"] = node.attrs.key;
  return a;
}

export const hintStyles = ["info", "success", "warning", "danger"];

const nodes = {
  // Tabs and expandables are top-level blocks only (GitBook's schema):
  // their group is "top", which only the document and nothing else holds.
  doc: { content: "(block | top)+", attrs: { data: { default: null }, rest: { default: null } } },

  paragraph: {
    group: "block",
    content: "inline*",
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "p" }],
    toDOM: (node) => ["p", keyAttr(node), 0],
  },

  heading: {
    group: "block",
    content: "inline*",
    defining: true,
    attrs: withBlockAttrs({ level: { default: 1 } }),
    parseDOM: [1, 2, 3, 4, 5, 6].map((l) => ({ tag: "h" + l, attrs: { level: Math.min(l, 3) } })),
    // The editor's headings sit one level below the page title, which the
    // host shows as the page's h1.
    toDOM: (node) => ["h" + (node.attrs.level + 1), keyAttr(node, { class: "fe-h" + node.attrs.level }), 0],
  },

  blockquote: {
    group: "block",
    content: "block+",
    defining: true,
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "blockquote" }],
    toDOM: (node) => ["blockquote", keyAttr(node), 0],
  },

  hint: {
    group: "block",
    content: "block+",
    defining: true,
    attrs: withBlockAttrs({ style: { default: "info" } }),
    parseDOM: [{ tag: "div.fe-hint", getAttrs: (dom) => ({ style: dom.getAttribute("data-style") || "info" }) }],
    toDOM: (node) => ["div", keyAttr(node, { class: "fe-hint fe-hint-" + node.attrs.style, "data-style": node.attrs.style }), 0],
  },

  code_block: {
    group: "block",
    content: "text*",
    marks: "",
    code: true,
    defining: true,
    // lines: the code-line blocks as loaded, without their text, so their
    // keys survive edits (convert.js matches them to the edited lines).
    attrs: withBlockAttrs({ lines: { default: null } }),
    parseDOM: [{ tag: "pre", preserveWhitespace: "full" }],
    toDOM: (node) => ["pre", keyAttr(node, { class: "fe-code" }), ["code", 0]],
  },

  horizontal_rule: {
    group: "block",
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "hr" }],
    toDOM: (node) => ["hr", keyAttr(node)],
  },

  bullet_list: {
    group: "block",
    content: "list_item+",
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "ul:not(.fe-tasks)" }],
    toDOM: (node) => ["ul", keyAttr(node), 0],
  },

  ordered_list: {
    group: "block",
    content: "list_item+",
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "ol" }],
    toDOM: (node) => {
      const start = node.attrs.data && typeof node.attrs.data.start === "number" ? node.attrs.data.start : 1;
      return ["ol", keyAttr(node, start === 1 ? {} : { start: String(start) }), 0];
    },
  },

  task_list: {
    group: "block",
    content: "task_item+",
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "ul.fe-tasks", priority: 60 }],
    toDOM: (node) => ["ul", keyAttr(node, { class: "fe-tasks" }), 0],
  },

  list_item: {
    content: "block+",
    defining: true,
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "li:not(.fe-task)" }],
    toDOM: (node) => ["li", keyAttr(node), 0],
  },

  task_item: {
    content: "block+",
    defining: true,
    // checked is null when the loaded item had no data.checked.
    attrs: withBlockAttrs({ checked: { default: false } }),
    parseDOM: [{ tag: "li.fe-task", priority: 60, getAttrs: (dom) => ({ checked: dom.getAttribute("data-checked") === "true" }) }],
    toDOM: (node) => ["li", keyAttr(node, { class: "fe-task", "data-checked": String(!!node.attrs.checked) }), 0],
  },

  images: {
    group: "block",
    content: "image+",
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "div.fe-images" }],
    toDOM: (node) => ["div", keyAttr(node, { class: "fe-images" }), 0],
  },

  // image's content is its caption. caption and captionPara keep the
  // caption fragment and its paragraph as loaded (without nodes); caption
  // is null when the image had no caption fragment.
  image: {
    content: "inline*",
    marks: "bold italic strikethrough code link opaque_mark",
    defining: true,
    isolating: true,
    attrs: withBlockAttrs({ caption: { default: null }, captionPara: { default: null } }),
    parseDOM: [{ tag: "figure.fe-image" }],
    toDOM: (node) => ["figure", keyAttr(node, { class: "fe-image" }), ["figcaption", 0]],
  },

  // table keeps the GitBook table's data (view, definition, records) and
  // its fragments' order; rows and cells carry the record and fragment
  // they came from.
  table: {
    group: "block",
    content: "table_row+",
    tableRole: "table",
    isolating: true,
    attrs: withBlockAttrs({ definition: { default: null }, fragmentOrder: { default: null } }),
    parseDOM: [{ tag: "table" }],
    toDOM: (node) => ["table", keyAttr(node, { class: "fe-table" }), ["tbody", 0]],
  },

  table_row: {
    content: "(table_cell | table_header)*",
    tableRole: "row",
    attrs: { record: { default: null }, recordId: { default: null } },
    parseDOM: [{ tag: "tr" }],
    toDOM: () => ["tr", 0],
  },

  table_header: {
    content: "text*",
    marks: "",
    tableRole: "header_cell",
    isolating: true,
    attrs: { colspan: { default: 1 }, rowspan: { default: 1 }, colwidth: { default: null }, column: { default: null } },
    parseDOM: [{ tag: "th" }],
    toDOM: () => ["th", { scope: "col" }, 0],
  },

  table_cell: {
    content: "block+",
    tableRole: "cell",
    isolating: true,
    attrs: { colspan: { default: 1 }, rowspan: { default: 1 }, colwidth: { default: null }, fragment: { default: null } },
    parseDOM: [{ tag: "td" }],
    toDOM: () => ["td", 0],
  },

  // tabs holds tabs_item blocks; each item's title is its data.title,
  // edited in a field of its node view.
  tabs: {
    group: "top",
    content: "tabs_item+",
    defining: true,
    isolating: true,
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "div.fe-tabs" }],
    toDOM: (node) => ["div", keyAttr(node, { class: "fe-tabs" }), 0],
  },

  // tabs_item holds what GitBook's tabs-item may hold.
  tabs_item: {
    content: "(paragraph | heading | bullet_list | ordered_list | task_list | horizontal_rule | code_block | images | hint | blockquote | opaque)+",
    defining: true,
    isolating: true,
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "section.fe-tab" }],
    toDOM: (node) => ["section", keyAttr(node, { class: "fe-tab" }), 0],
  },

  // expandable is GitBook's expandable: a title fragment of one paragraph
  // (expandable_title, a textblock) and a body fragment. titleFrag and
  // bodyFrag keep the fragments as loaded (without nodes); fragmentOrder
  // their order.
  expandable: {
    group: "top",
    content: "expandable_title expandable_body",
    defining: true,
    isolating: true,
    attrs: withBlockAttrs({ titleFrag: { default: null }, bodyFrag: { default: null }, bodyFirst: { default: false } }),
    parseDOM: [{ tag: "div.fe-expandable" }],
    toDOM: (node) => ["div", keyAttr(node, { class: "fe-expandable" }), 0],
  },

  // expandable_title is the title fragment's paragraph (its key, data and
  // rest are the paragraph's).
  expandable_title: {
    content: "inline*",
    defining: true,
    isolating: true,
    attrs: withBlockAttrs(),
    parseDOM: [{ tag: "div.fe-expandable-title" }],
    toDOM: (node) => ["div", keyAttr(node, { class: "fe-expandable-title" }), 0],
  },

  expandable_body: {
    content: "(paragraph | heading | bullet_list | ordered_list | task_list | horizontal_rule | code_block | images | table | hint | blockquote | opaque)+",
    isolating: true,
    parseDOM: [{ tag: "div.fe-expandable-body" }],
    toDOM: () => ["div", { class: "fe-expandable-body" }, 0],
  },

  // opaque holds a block the editor does not edit, as loaded.
  opaque: {
    group: "block",
    atom: true,
    selectable: true,
    draggable: true,
    attrs: { json: { default: null } },
    toDOM: (node) => {
      const j = node.attrs.json || {};
      const a = { class: "fe-opaque", contenteditable: "false" };
      if (j.key) a["data-key"] = j.key;
      return ["div", a, ["span", { class: "fe-opaque-label" }, "Block kept as is: " + String(j.type || "unknown")]];
    },
  },

  opaque_inline: {
    group: "inline",
    inline: true,
    atom: true,
    attrs: { json: { default: null } },
    toDOM: (node) => {
      const j = node.attrs.json || {};
      return ["span", { class: "fe-opaque-inline", contenteditable: "false" }, String(j.type || "inline")];
    },
  },

  text: { group: "inline" },

};

const marks = {
  // link keeps the GitBook link inline's key, data (data.ref) and rest.
  link: {
    attrs: { key: { default: null }, data: { default: null }, rest: { default: null } },
    inclusive: false,
    parseDOM: [{ tag: "a[href]", getAttrs: (dom) => ({ data: { ref: { kind: "url", url: dom.getAttribute("href") } } }) }],
    toDOM: (mark) => {
      const ref = (mark.attrs.data && mark.attrs.data.ref) || {};
      const href = ref.kind === "url" ? ref.url : "#";
      return ["a", { href, class: "fe-link-" + (ref.kind || "url"), title: linkLabel(ref), rel: "noopener noreferrer nofollow" }, 0];
    },
  },
  bold: {
    attrs: { rest: { default: null } },
    parseDOM: [{ tag: "strong" }, { tag: "b" }],
    toDOM: () => ["strong", 0],
  },
  italic: {
    attrs: { rest: { default: null } },
    parseDOM: [{ tag: "em" }, { tag: "i" }],
    toDOM: () => ["em", 0],
  },
  strikethrough: {
    attrs: { rest: { default: null } },
    parseDOM: [{ tag: "s" }, { tag: "del" }],
    toDOM: () => ["s", 0],
  },
  code: {
    attrs: { rest: { default: null } },
    parseDOM: [{ tag: "code" }],
    toDOM: () => ["code", 0],
  },
  // opaque_mark keeps marks the editor does not edit (colour, keyboard,
  // superscript...) on the text they cover; several may apply at once.
  opaque_mark: {
    attrs: { json: { default: null } },
    excludes: "",
    toDOM: (mark) => ["span", { class: "fe-mark-" + String((mark.attrs.json || {}).type || "other") }, 0],
  },
};

// linkLabel describes a link's target for its tooltip.
export function linkLabel(ref) {
  switch (ref.kind) {
    case "url":
      return ref.url;
    case "page":
      return "Page " + ref.page + (ref.anchor ? "#" + ref.anchor : "");
    case "anchor":
      return "#" + ref.anchor;
    case "file":
      return "File " + ref.file;
    default:
      return ref.kind || "";
  }
}

export const schema = new Schema({ nodes, marks });
