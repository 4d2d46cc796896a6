// Conversion between GitBook's JSON document (the shape of Folio's
// content.Document and of GitBook's API) and the editor's ProseMirror
// document.
//
// The mapping keeps everything: each supported block keeps its key, data
// and other properties in node attributes, and whatever the editor cannot
// edit (unknown block and inline types, marks such as colour, tables with
// non-text columns, code with annotations, multi-paragraph captions...)
// becomes an opaque atom holding the JSON as loaded, written back as is.
//
// Text is written in Slate's canonical form (one text node per run between
// inlines, one leaf per run of equal marks, an empty text node at either
// end of an inline and between two inlines). A paragraph the writer did not
// touch is written back exactly as loaded: the loaded inline JSON is
// remembered for the ProseMirror fragment it became, and ProseMirror keeps
// an unchanged fragment's identity across edits.
import { Fragment } from "prosemirror-model";

const editableMarks = { bold: true, italic: true, strikethrough: true, code: true };
const headingTypes = { "heading-1": 1, "heading-2": 2, "heading-3": 3 };
const listTypes = { "list-unordered": "bullet_list", "list-ordered": "ordered_list", "list-tasks": "task_list" };

function clone(v) {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

// without returns a copy of o without the named properties, or null when
// nothing is left.
function without(o, names) {
  const out = {};
  let any = false;
  for (const k of Object.keys(o)) {
    if (names.indexOf(k) < 0) {
      out[k] = clone(o[k]);
      any = true;
    }
  }
  return any ? out : null;
}

// Unsupported is thrown while reading a block the editor cannot map; the
// block then becomes an opaque atom.
class Unsupported extends Error {}

function need(cond) {
  if (!cond) throw new Unsupported();
}

// A Reader turns GitBook JSON into ProseMirror nodes and remembers the
// loaded inline JSON of each textblock in cache.
export class Reader {
  constructor(schema) {
    this.schema = schema;
    this.cache = new WeakMap();
  }

  document(json) {
    need(isObject(json));
    const blocks = (json.nodes || []).map((b) => this.block(b));
    if (blocks.length === 0) blocks.push(this.schema.nodes.paragraph.create());
    const data = json.data === undefined ? false : clone(json.data);
    return this.schema.nodes.doc.create({ data, rest: without(json, ["object", "data", "nodes"]) }, blocks);
  }

  // block reads one block, or an opaque atom for what the editor cannot
  // edit.
  block(json) {
    try {
      return this.supported(json);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      return this.schema.nodes.opaque.create({ json: clone(json) });
    }
  }

  attrs(json, extraOmit, more) {
    return Object.assign(
      {
        key: typeof json.key === "string" ? json.key : null,
        data: json.data === undefined ? false : clone(json.data),
        rest: without(json, ["object", "type", "key", "data", "nodes"].concat(extraOmit || [])),
      },
      more || {},
    );
  }

  blocks(list) {
    need(Array.isArray(list) && list.length > 0);
    return list.map((b) => this.block(b));
  }

  supported(json) {
    need(isObject(json) && json.object === "block");
    const n = this.schema.nodes;
    const data = isObject(json.data) ? json.data : {};
    switch (json.type) {
      case "paragraph":
        return this.textblock(n.paragraph, this.attrs(json), json.nodes);
      case "heading-1":
      case "heading-2":
      case "heading-3":
        return this.textblock(n.heading, this.attrs(json, [], { level: headingTypes[json.type] }), json.nodes);
      case "blockquote":
        return n.blockquote.create(this.attrs(json), this.blocks(json.nodes));
      case "hint":
        need(["info", "success", "warning", "danger"].indexOf(data.style) >= 0);
        return n.hint.create(this.attrs(json, [], { style: data.style }), this.blocks(json.nodes));
      case "divider":
        return n.horizontal_rule.create(this.attrs(json));
      case "list-unordered":
      case "list-ordered":
      case "list-tasks": {
        need(Array.isArray(json.nodes) && json.nodes.length > 0);
        const task = json.type === "list-tasks";
        const items = json.nodes.map((item) => {
          need(isObject(item) && item.type === "list-item");
          const d = isObject(item.data) ? item.data : {};
          const more = task ? { checked: typeof d.checked === "boolean" ? d.checked : null } : {};
          return (task ? n.task_item : n.list_item).create(this.attrs(item, [], more), this.blocks(item.nodes));
        });
        return n[listTypes[json.type]].create(this.attrs(json), items);
      }
      case "code":
        return this.code(json);
      case "images":
        return this.images(json);
      case "table":
        return this.table(json);
      case "tabs": {
        need(Array.isArray(json.nodes) && json.nodes.length > 0);
        const items = json.nodes.map((item) => {
          need(isObject(item) && item.object === "block" && item.type === "tabs-item");
          return n.tabs_item.create(this.attrs(item), this.blocks(item.nodes));
        });
        return n.tabs.create(this.attrs(json), items);
      }
      case "expandable":
        return this.expandable(json);
    }
    throw new Unsupported();
  }

  textblock(type, attrs, nodes) {
    need(Array.isArray(nodes));
    const content = Fragment.fromArray(this.inlines(nodes, []));
    if (content.size > 0) this.cache.set(content, nodes);
    return type.create(attrs, content);
  }

  // inlines reads text and inline nodes; marks are the marks of the
  // enclosing link, if any.
  inlines(nodes, marks) {
    const s = this.schema;
    const out = [];
    for (const node of nodes) {
      need(isObject(node));
      if (node.object === "text") {
        need(Array.isArray(node.leaves));
        for (const leaf of node.leaves) {
          need(isObject(leaf) && typeof leaf.text === "string");
          if (leaf.text === "") continue;
          let ms = marks;
          for (const m of leaf.marks || []) ms = this.mark(m).addToSet(ms);
          out.push(s.text(leaf.text, ms));
        }
      } else if (node.object === "inline" && node.type === "link" && isObject(node.data) && isObject(node.data.ref) && marks.length === 0) {
        const link = s.marks.link.create(this.attrs(node));
        const inner = this.inlines(node.nodes || [], [link]);
        need(inner.length > 0);
        out.push(...inner);
      } else {
        need(node.object === "inline");
        out.push(s.nodes.opaque_inline.create({ json: clone(node) }, null, marks));
      }
    }
    return out;
  }

  mark(json) {
    need(isObject(json));
    const s = this.schema;
    if (editableMarks[json.type]) return s.marks[json.type].create({ rest: without(json, ["object", "type"]) });
    return s.marks.opaque_mark.create({ json: clone(json) });
  }

  // code reads a code block whose lines hold plain text only.
  code(json) {
    need(Array.isArray(json.nodes));
    const lines = [];
    const texts = [];
    for (const line of json.nodes) {
      need(isObject(line) && line.type === "code-line" && Array.isArray(line.nodes));
      let text = "";
      for (const t of line.nodes) {
        need(isObject(t) && t.object === "text" && Array.isArray(t.leaves));
        for (const leaf of t.leaves) {
          need(typeof leaf.text === "string" && (!leaf.marks || leaf.marks.length === 0) && leaf.text.indexOf("\n") < 0);
          text += leaf.text;
        }
      }
      texts.push(text);
      lines.push({ meta: without(line, ["nodes"]), text });
    }
    const joined = texts.join("\n");
    const content = joined ? Fragment.from(this.schema.text(joined)) : Fragment.empty;
    if (content.size > 0) this.cache.set(content, json.nodes);
    return this.schema.nodes.code_block.create(this.attrs(json, [], { lines }), content);
  }

  images(json) {
    need(Array.isArray(json.nodes) && json.nodes.length > 0);
    const n = this.schema.nodes;
    const items = json.nodes.map((img) => {
      need(isObject(img) && img.type === "image" && isObject(img.data) && isObject(img.data.ref));
      const frags = img.fragments || [];
      need(Array.isArray(frags) && frags.length <= 1);
      let caption = null;
      let captionPara = null;
      let inline = [];
      if (frags.length === 1) {
        const f = frags[0];
        need(isObject(f) && f.fragment === "caption" && Array.isArray(f.nodes) && f.nodes.length === 1);
        const p = f.nodes[0];
        need(isObject(p) && p.type === "paragraph" && Array.isArray(p.nodes));
        caption = without(f, ["nodes"]);
        captionPara = without(p, ["nodes"]);
        inline = this.inlines(p.nodes, []);
      }
      const content = Fragment.fromArray(inline);
      if (content.size > 0) this.cache.set(content, frags[0].nodes[0].nodes);
      return n.image.create(this.attrs(img, ["fragments"], { caption, captionPara }), content);
    });
    return n.images.create(this.attrs(json), items);
  }

  // expandable reads an expandable whose fragments are one title (one
  // paragraph) and one body.
  expandable(json) {
    const frags = json.fragments;
    need(Array.isArray(frags) && frags.length === 2);
    const name = (f) => (isObject(f) ? f.fragment || f.type : null);
    const ti = frags.findIndex((f) => name(f) === "expandable-title");
    const bi = frags.findIndex((f) => name(f) === "expandable-body");
    need(ti >= 0 && bi >= 0 && ti !== bi);
    const tf = frags[ti];
    const bf = frags[bi];
    need(Array.isArray(tf.nodes) && tf.nodes.length === 1 && isObject(tf.nodes[0]) && tf.nodes[0].type === "paragraph");
    const n = this.schema.nodes;
    const p = tf.nodes[0];
    const title = this.textblock(n.expandable_title, this.attrs(p), p.nodes);
    const body = n.expandable_body.create(null, this.blocks(bf.nodes));
    const more = { titleFrag: without(tf, ["nodes"]), bodyFrag: without(bf, ["nodes"]), bodyFirst: bi < ti };
    return n.expandable.create(this.attrs(json, ["fragments"], more), [title, body]);
  }

  // table reads a simple grid: text columns only, each cell a fragment
  // named by its record's value.
  table(json) {
    const d = json.data;
    need(isObject(d) && isObject(d.view) && d.view.type === "grid" && Array.isArray(d.view.columns));
    need(isObject(d.definition) && isObject(d.records) && Array.isArray(json.fragments));
    const cols = d.view.columns;
    need(cols.length > 0 && Object.keys(d.definition).length === cols.length);
    for (const c of cols) need(isObject(d.definition[c]) && d.definition[c].type === "text" && typeof (d.definition[c].title || "") === "string");
    const frags = {};
    for (const f of json.fragments) {
      need(isObject(f) && typeof f.fragment === "string" && !frags[f.fragment] && Array.isArray(f.nodes) && f.nodes.length > 0);
      frags[f.fragment] = f;
    }
    const ids = Object.keys(d.records).sort((a, b) => {
      const oa = String(d.records[a].orderIndex), ob = String(d.records[b].orderIndex);
      return oa < ob ? -1 : oa > ob ? 1 : a < b ? -1 : a > b ? 1 : 0;
    });
    need(ids.length > 0 && ids.length * cols.length === json.fragments.length);
    const n = this.schema.nodes;
    const used = {};
    const header = n.table_row.create(
      {},
      cols.map((c) => {
        const title = d.definition[c].title || "";
        return n.table_header.create({ column: c }, title ? this.schema.text(title) : null);
      }),
    );
    const rows = ids.map((id) => {
      const rec = d.records[id];
      need(isObject(rec) && isObject(rec.values) && typeof rec.orderIndex === "string" && Object.keys(rec.values).length === cols.length);
      const cells = cols.map((c) => {
        const name = rec.values[c];
        need(typeof name === "string" && frags[name] && !used[name]);
        used[name] = true;
        return n.table_cell.create({ fragment: without(frags[name], ["nodes"]) }, this.blocks(frags[name].nodes));
      });
      return n.table_row.create({ recordId: id, record: without(rec, ["values"]) }, cells);
    });
    const data = clone(d);
    delete data.records;
    delete data.definition;
    return n.table.create(
      this.attrs(json, ["fragments"], { data, definition: clone(d.definition), fragmentOrder: json.fragments.map((f) => f.fragment) }),
      [header].concat(rows),
    );
  }
}

// Writer turns the editor's document back into GitBook JSON.
export class Writer {
  // cache is the Reader's; with useCache false every textblock is written
  // in canonical form (tests use this to check the mapping itself).
  constructor(cache, useCache) {
    this.cache = useCache ? cache : null;
    this.seen = new Set();
  }

  // key returns a block key the first time it is seen: copies made by
  // splitting or pasting a block lose it, and Folio gives them new keys.
  key(k) {
    if (typeof k !== "string" || this.seen.has(k)) return undefined;
    this.seen.add(k);
    return k;
  }

  document(doc) {
    const out = Object.assign({}, clone(doc.attrs.rest) || {}, { object: "document" });
    out.data = doc.attrs.data === false ? undefined : clone(doc.attrs.data) || {};
    if (out.data === undefined) delete out.data;
    out.nodes = this.blocks(doc);
    return out;
  }

  blocks(node) {
    const out = [];
    node.forEach((child) => out.push(this.block(child)));
    return out;
  }

  // base starts a block's JSON from its attributes; defaults are the
  // properties a new block of that type gets.
  base(node, type, defaults) {
    const a = node.attrs;
    const out = Object.assign({}, a.rest ? clone(a.rest) : defaults || {}, { object: "block", type });
    const k = this.key(a.key);
    if (k !== undefined) out.key = k;
    if (a.data !== false) out.data = clone(a.data) || {};
    return out;
  }

  block(node) {
    const t = node.type.name;
    let out;
    switch (t) {
      case "paragraph":
        out = this.base(node, "paragraph");
        out.nodes = this.inlineContent(node);
        return out;
      case "heading":
        out = this.base(node, "heading-" + node.attrs.level);
        out.nodes = this.inlineContent(node);
        return out;
      case "blockquote":
        out = this.base(node, "blockquote");
        out.nodes = this.blocks(node);
        return out;
      case "hint":
        out = this.base(node, "hint");
        out.data = Object.assign(out.data || {}, { style: node.attrs.style });
        out.nodes = this.blocks(node);
        return out;
      case "horizontal_rule":
        return this.base(node, "divider", { isVoid: true });
      case "bullet_list":
      case "ordered_list":
      case "task_list":
        out = this.base(node, t === "bullet_list" ? "list-unordered" : t === "ordered_list" ? "list-ordered" : "list-tasks");
        out.nodes = [];
        node.forEach((item) => {
          const li = this.base(item, "list-item");
          if (item.type.name === "task_item" && item.attrs.checked !== null) li.data = Object.assign(li.data || {}, { checked: !!item.attrs.checked });
          if (item.type.name === "list_item" && li.data && Object.keys(li.data).length === 0 && item.attrs.data === null) delete li.data;
          li.nodes = this.blocks(item);
          out.nodes.push(li);
        });
        return out;
      case "code_block":
        out = this.base(node, "code");
        out.nodes = this.codeLines(node);
        return out;
      case "images":
        out = this.base(node, "images", { isVoid: false });
        out.nodes = [];
        node.forEach((img) => out.nodes.push(this.image(img)));
        return out;
      case "table":
        return this.table(node);
      case "tabs":
        out = this.base(node, "tabs");
        out.nodes = [];
        node.forEach((item) => {
          const it = this.base(item, "tabs-item");
          it.nodes = this.blocks(item);
          out.nodes.push(it);
        });
        return out;
      case "expandable":
        return this.expandable(node);
      case "opaque":
        return this.opaque(node.attrs.json);
    }
    throw new Error("folio editor: no GitBook form for node " + t);
  }

  // opaque writes a kept node as loaded, dropping keys already used.
  opaque(json) {
    const out = clone(json);
    const visit = (n) => {
      if (!isObject(n)) return;
      if (typeof n.key === "string" && n.object !== "fragment" && this.key(n.key) === undefined) delete n.key;
      (n.nodes || []).forEach(visit);
      (n.fragments || []).forEach((f) => (f.nodes || []).forEach(visit));
    };
    visit(out);
    return out;
  }

  cached(content) {
    if (!this.cache || content.size === 0) return null;
    const nodes = this.cache.get(content);
    if (!nodes) return null;
    const out = clone(nodes);
    const visit = (n) => {
      if (!isObject(n)) return;
      if (typeof n.key === "string" && this.key(n.key) === undefined) delete n.key;
      (n.nodes || []).forEach(visit);
    };
    out.forEach(visit);
    return out;
  }

  inlineContent(node) {
    return this.cached(node.content) || this.inlines(node.content);
  }

  // inlines writes inline content: runs of text sharing one link mark
  // become a link inline, opaque inlines are written as loaded.
  inlines(content) {
    const children = [];
    content.forEach((c) => children.push(c));
    const out = [];
    let i = 0;
    while (i < children.length) {
      const link = children[i].marks.find((m) => m.type.name === "link");
      let j = i + 1;
      while (j < children.length && sameLink(link, children[j].marks.find((m) => m.type.name === "link"))) j++;
      const run = children.slice(i, j);
      if (link) {
        const a = link.attrs;
        const inl = Object.assign({}, clone(a.rest) || {}, { object: "inline", type: "link" });
        const k = this.key(a.key);
        if (k !== undefined) inl.key = k;
        inl.data = clone(a.data) || {};
        inl.nodes = pad(this.runs(run));
        out.push(inl);
      } else {
        out.push(...this.runs(run));
      }
      i = j;
    }
    return pad(out);
  }

  // runs writes text nodes (one leaf per run of equal marks) and opaque
  // inlines.
  runs(nodes) {
    const out = [];
    let leaves = null;
    for (const n of nodes) {
      if (n.isText) {
        if (!leaves) {
          leaves = [];
          out.push({ object: "text", leaves });
        }
        leaves.push({ object: "leaf", text: n.text, marks: this.marks(n.marks) });
      } else {
        leaves = null;
        out.push(this.opaque(n.attrs.json));
      }
    }
    return out;
  }

  marks(marks) {
    const out = [];
    for (const m of marks) {
      if (m.type.name === "link") continue;
      if (m.type.name === "opaque_mark") out.push(clone(m.attrs.json));
      else out.push(Object.assign({}, clone(m.attrs.rest) || {}, { object: "mark", type: m.type.name }));
    }
    return out;
  }

  // codeLines writes one code-line per line of text; lines equal to the
  // loaded ones at the start and at the end keep their keys and data, and
  // the lines between take the remaining loaded lines' in order.
  codeLines(node) {
    const cached = this.cached(node.content);
    if (cached) return cached;
    const texts = node.textContent.split("\n");
    const old = node.attrs.lines || [];
    const meta = new Array(texts.length).fill(null);
    let a = 0;
    while (a < texts.length && a < old.length && texts[a] === old[a].text) {
      meta[a] = old[a].meta;
      a++;
    }
    let b = 0;
    while (b < texts.length - a && b < old.length - a && texts[texts.length - 1 - b] === old[old.length - 1 - b].text) {
      meta[texts.length - 1 - b] = old[old.length - 1 - b].meta;
      b++;
    }
    for (let i = a, o = a; i < texts.length - b && o < old.length - b; i++, o++) meta[i] = old[o].meta;
    return texts.map((text, i) => {
      const m = meta[i] ? clone(meta[i]) : { data: {} };
      const line = Object.assign({}, m, { object: "block", type: "code-line" });
      delete line.key;
      const k = this.key(m.key);
      if (k !== undefined) line.key = k;
      line.nodes = [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }];
      return line;
    });
  }

  image(node) {
    const out = this.base(node, "image", { isVoid: true });
    const a = node.attrs;
    if (a.caption === null && node.content.size === 0) {
      out.fragments = [];
      return out;
    }
    const para = Object.assign({}, clone(a.captionPara) || { data: {} }, { object: "block", type: "paragraph" });
    delete para.key;
    const pk = this.key(a.captionPara && a.captionPara.key);
    if (pk !== undefined) para.key = pk;
    para.nodes = this.inlineContent(node);
    const frag = Object.assign({}, clone(a.caption) || { fragment: "caption", type: "caption" }, { object: "fragment" });
    frag.nodes = [para];
    out.fragments = [frag];
    return out;
  }

  // expandable writes the title and body fragments back in their loaded
  // order.
  expandable(node) {
    const out = this.base(node, "expandable", { isVoid: true });
    const a = node.attrs;
    const titleNode = node.child(0);
    const para = this.base(titleNode, "paragraph");
    para.nodes = this.inlineContent(titleNode);
    const title = Object.assign({}, clone(a.titleFrag) || { fragment: "expandable-title", type: "expandable-title" }, { object: "fragment" });
    title.nodes = [para];
    const body = Object.assign({}, clone(a.bodyFrag) || { fragment: "expandable-body", type: "expandable-body" }, { object: "fragment" });
    body.nodes = this.blocks(node.child(1));
    out.fragments = a.bodyFirst ? [body, title] : [title, body];
    return out;
  }

  // table writes the grid back: the header row's cells are the column
  // titles, each other row a record whose values name its cells'
  // fragments.
  table(node) {
    const out = this.base(node, "table", { isVoid: true });
    const data = out.data;
    const rows = [];
    node.forEach((r) => rows.push(r));
    const hasHeader = rows.length > 0 && rows[0].firstChild && rows[0].firstChild.type.name === "table_header";
    const header = hasHeader ? rows.shift() : null;
    const width = Math.max(header ? header.childCount : 0, ...rows.map((r) => r.childCount));
    const oldCols = (data.view && Array.isArray(data.view.columns) && data.view.columns) || [];
    // Column ids: the header cell's, else the loaded column at that
    // position, else a new one.
    const usedCols = new Set();
    const cols = [];
    for (let i = 0; i < width; i++) {
      let id = header && i < header.childCount ? header.child(i).attrs.column : null;
      if (!id || usedCols.has(id)) id = oldCols[i] && !usedCols.has(oldCols[i]) ? oldCols[i] : null;
      if (!id) {
        let n = i;
        while (usedCols.has("c" + n) || oldCols.indexOf("c" + n) >= 0) n++;
        id = "c" + n;
      }
      usedCols.add(id);
      cols.push(id);
    }
    const prevDefs = node.attrs.definition || {};
    const definition = {};
    cols.forEach((id, i) => {
      const title = header && i < header.childCount ? header.child(i).textContent : "";
      definition[id] = Object.assign({}, clone(prevDefs[id]) || { id, type: "text", textAlignment: "left" }, { title });
    });
    // Records keep their ids and order indexes while these still ascend.
    const oldIndexes = rows.map((r) => (r.attrs.record && r.attrs.record.orderIndex) || null);
    const ids = new Set();
    const ascending =
      oldIndexes.every((o, i) => o !== null && (i === 0 || oldIndexes[i - 1] < o)) &&
      rows.every((r) => r.attrs.recordId && !ids.has(r.attrs.recordId) && ids.add(r.attrs.recordId));
    const usedRecords = new Set();
    const records = {};
    const fragments = {};
    const names = new Set();
    rows.forEach((r) => {
      r.forEach((c) => {
        const name = c.attrs.fragment && c.attrs.fragment.fragment;
        if (name) names.add(name);
      });
    });
    const usedNames = new Set();
    rows.forEach((r, ri) => {
      let id = r.attrs.recordId;
      if (!id || usedRecords.has(id)) {
        let n = ri;
        while (usedRecords.has("r" + n) || rows.some((o) => o.attrs.recordId === "r" + n)) n++;
        id = "r" + n;
      }
      usedRecords.add(id);
      const rec = Object.assign({}, clone(r.attrs.record) || {});
      rec.orderIndex = ascending ? rec.orderIndex : "a" + String(ri).padStart(8, "0");
      rec.values = {};
      cols.forEach((col, ci) => {
        const cell = ci < r.childCount ? r.child(ci) : null;
        let frag = cell && cell.attrs.fragment ? clone(cell.attrs.fragment) : null;
        let name = frag && frag.fragment;
        if (!name || usedNames.has(name)) {
          let n = 0;
          do name = id + col + (n++ ? "-" + n : "");
          while (usedNames.has(name) || names.has(name));
          frag = Object.assign(frag || {}, { fragment: name });
        }
        usedNames.add(name);
        rec.values[col] = name;
        const f = Object.assign(frag, { object: "fragment" });
        f.nodes = cell ? this.blocks(cell) : [{ object: "block", type: "paragraph", data: {}, nodes: pad([]) }];
        fragments[name] = f;
      });
      records[id] = rec;
    });
    data.view = Object.assign({ type: "grid", hideHeader: false }, data.view || {}, { columns: cols });
    if (isObject(data.view.columnWidths)) {
      for (const k of Object.keys(data.view.columnWidths)) if (cols.indexOf(k) < 0) delete data.view.columnWidths[k];
    }
    data.records = records;
    data.definition = definition;
    const order = (node.attrs.fragmentOrder || []).filter((n) => fragments[n]);
    for (const n of Object.keys(fragments)) if (order.indexOf(n) < 0) order.push(n);
    out.fragments = order.map((n) => fragments[n]);
    return out;
  }
}

function sameLink(a, b) {
  if (!a || !b) return !a && !b;
  return a === b || a.eq(b);
}

function emptyText() {
  return { object: "text", leaves: [{ object: "leaf", text: "", marks: [] }] };
}

// pad puts an empty text node at either end of a run of inline nodes and
// between two inlines, as Slate normalizes them.
function pad(nodes) {
  const out = [];
  for (const n of nodes) {
    const prev = out.length ? out[out.length - 1] : null;
    if (n.object === "inline" && (!prev || prev.object === "inline")) out.push(emptyText());
    out.push(n);
  }
  if (!out.length || out[out.length - 1].object === "inline") out.push(emptyText());
  return out;
}
