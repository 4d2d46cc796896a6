// Folio's page editor: a ProseMirror editor over GitBook's document model.
// main.js exposes mount() as FolioEditor.mount; see ../doc.go for the host
// contract.
import { EditorState, Plugin, TextSelection } from "prosemirror-state";
import { EditorView, Decoration, DecorationSet } from "prosemirror-view";
import { history, undo, redo } from "prosemirror-history";
import { keymap } from "prosemirror-keymap";
import { baseKeymap, toggleMark, setBlockType, wrapIn, chainCommands, exitCode, lift } from "prosemirror-commands";
import { wrapInList, splitListItem, liftListItem, sinkListItem } from "prosemirror-schema-list";
import { inputRules, textblockTypeInputRule, wrappingInputRule, InputRule, undoInputRule } from "prosemirror-inputrules";
import { dropCursor } from "prosemirror-dropcursor";
import { gapCursor } from "prosemirror-gapcursor";
import { tableEditing, goToNextCell, addRowAfter, addColumnAfter, deleteRow, deleteColumn, isInTable } from "prosemirror-tables";
import { schema, hintStyles } from "./schema.js";
import { Reader, Writer } from "./convert.js";
import { buildToolbar } from "./toolbar.js";
import { nodeViews } from "./nodeviews.js";
import { slashMenu } from "./slash.js";

const n = schema.nodes;
const m = schema.marks;

// headingLevels keeps the outline of the host page in order, as the reader
// does: when a document's top-level headings start below heading-1 (a page
// whose first section is a heading-2), they are announced one level up per
// missing level (aria-level), so that the page's h1 is followed by a level
// 2 heading rather than a level 3.
function headingLevels() {
  let lastDoc = null;
  let lastSet = DecorationSet.empty;
  return new Plugin({
    props: {
      decorations(state) {
        if (state.doc === lastDoc) return lastSet;
        lastDoc = state.doc;
        let top = 4;
        state.doc.forEach((node) => {
          if (node.type === n.heading) top = Math.min(top, node.attrs.level);
        });
        const decos = [];
        if (top > 1 && top < 4) {
          state.doc.forEach((node, pos) => {
            if (node.type === n.heading) {
              decos.push(Decoration.node(pos, pos + node.nodeSize, { "aria-level": String(node.attrs.level + 2 - top) }));
            }
          });
        }
        lastSet = DecorationSet.create(state.doc, decos);
        return lastSet;
      },
    },
  });
}

// inputRulesPlugin: Markdown-like shortcuts typed at the start of a block.
function inputRulesPlugin() {
  return inputRules({
    rules: [
      textblockTypeInputRule(/^(#{1,3})\s$/, n.heading, (match) => ({ level: match[1].length })),
      wrappingInputRule(/^\s*>\s$/, n.blockquote),
      wrappingInputRule(/^\s*\[([ xX]?)\]\s$/, n.task_list, null),
      wrappingInputRule(/^\s*([-+*])\s$/, n.bullet_list),
      wrappingInputRule(
        /^(\d+)\.\s$/,
        n.ordered_list,
        (match) => (+match[1] === 1 ? {} : { data: { start: +match[1] } }),
        (match, node) => node.childCount + ((node.attrs.data && node.attrs.data.start) || 1) === +match[1],
      ),
      textblockTypeInputRule(/^```$/, n.code_block),
      new InputRule(/^---$/, (state, match, start, end) => {
        const $start = state.doc.resolve(start);
        if ($start.parent.type !== n.paragraph || $start.parent.textContent !== "--") return null;
        const from = $start.before();
        const to = $start.after();
        const tr = state.tr.replaceWith(from, to, [n.horizontal_rule.create(), n.paragraph.create()]);
        return tr.setSelection(TextSelection.create(tr.doc, from + 2));
      }),
    ],
  });
}

// insertBlock inserts a block node after the selection's block, then puts
// the cursor in the block's first text position (or after it).
export function insertBlock(node) {
  return (state, dispatch) => {
    if (dispatch) {
      const tr = state.tr.replaceSelectionWith(node);
      const after = tr.selection.from;
      const $pos = tr.doc.resolve(Math.min(after, tr.doc.content.size));
      tr.setSelection(TextSelection.near($pos));
      // A block that ends up last (a table, a hint) gets an empty paragraph
      // after it, so the keyboard can always go on below it.
      if (!tr.doc.lastChild.isTextblock) tr.insert(tr.doc.content.size, n.paragraph.create());
      dispatch(tr.scrollIntoView());
    }
    return true;
  };
}

// insertTop inserts a top-level-only block (tabs, expandable): in place of
// an empty top-level paragraph at the cursor, else after the top-level
// block holding the cursor; the cursor goes to its first text position.
export function insertTop(make) {
  return (state, dispatch) => {
    if (dispatch) {
      const node = make();
      const $f = state.selection.$from;
      let at;
      let tr;
      if ($f.depth === 1 && $f.parent.type === n.paragraph && $f.parent.content.size === 0) {
        at = $f.before(1);
        tr = state.tr.replaceWith(at, $f.after(1), node);
      } else {
        at = $f.depth === 0 ? $f.pos : $f.after(1);
        tr = state.tr.insert(at, node);
      }
      tr.setSelection(TextSelection.near(tr.doc.resolve(at + 1)));
      dispatch(tr.scrollIntoView());
    }
    return true;
  };
}

export function newTab(title) {
  return n.tabs_item.create({ data: { title } }, n.paragraph.create());
}

export function newTabs() {
  return n.tabs.create(null, [newTab("Tab 1"), newTab("Tab 2")]);
}

export function newExpandable() {
  return n.expandable.create(null, [n.expandable_title.create(), n.expandable_body.create(null, n.paragraph.create())]);
}

export function newTable() {
  const header = n.table_row.create(null, [1, 2, 3].map(() => n.table_header.create()));
  const row = () => n.table_row.create(null, [1, 2, 3].map(() => n.table_cell.create(null, n.paragraph.create())));
  return n.table.create(null, [header, row(), row()]);
}

export function newHint() {
  return n.hint.create({ style: "info" }, n.paragraph.create());
}

export const commands = {
  bold: toggleMark(m.bold),
  italic: toggleMark(m.italic),
  strikethrough: toggleMark(m.strikethrough),
  code: toggleMark(m.code),
  paragraph: setBlockType(n.paragraph),
  heading1: setBlockType(n.heading, { level: 1 }),
  heading2: setBlockType(n.heading, { level: 2 }),
  heading3: setBlockType(n.heading, { level: 3 }),
  bulletList: wrapInList(n.bullet_list),
  orderedList: wrapInList(n.ordered_list),
  taskList: wrapInList(n.task_list),
  quote: wrapIn(n.blockquote),
  hint: (state, dispatch) => wrapIn(n.hint, { style: "info" })(state, dispatch) || insertBlock(newHint())(state, dispatch),
  codeBlock: setBlockType(n.code_block),
  divider: (state, dispatch) => {
    // An empty paragraph becomes the rule and a paragraph after it, as
    // "---" does, so writing goes on below.
    const $f = state.selection.$from;
    if (state.selection.empty && $f.depth >= 1 && $f.parent.type === n.paragraph && $f.parent.content.size === 0) {
      if (dispatch) {
        const from = $f.before();
        const tr = state.tr.replaceWith(from, $f.after(), [n.horizontal_rule.create(), n.paragraph.create()]);
        dispatch(tr.setSelection(TextSelection.create(tr.doc, from + 2)).scrollIntoView());
      }
      return true;
    }
    return insertBlock(n.horizontal_rule.create())(state, dispatch);
  },
  table: (state, dispatch) => !isInTable(state) && insertBlock(newTable())(state, dispatch),
  tabs: insertTop(newTabs),
  expandable: insertTop(newExpandable),
  addRow: addRowAfter,
  addColumn: addColumnAfter,
  deleteRow,
  deleteColumn,
  lift,
  undo,
  redo,
};

// titleToBody: Enter in an expandable's title goes to the start of its
// body (the title is one paragraph).
function titleToBody(state, dispatch) {
  const $f = state.selection.$from;
  if ($f.parent.type !== n.expandable_title) return false;
  if (dispatch) {
    const bodyStart = $f.after() + 1;
    dispatch(state.tr.setSelection(TextSelection.near(state.doc.resolve(bodyStart))).scrollIntoView());
  }
  return true;
}

function editorKeymap(editor) {
  const splitItem = chainCommands(splitListItem(n.list_item), splitListItem(n.task_item));
  const sink = chainCommands(sinkListItem(n.list_item), sinkListItem(n.task_item));
  const liftItem = chainCommands(liftListItem(n.list_item), liftListItem(n.task_item));
  return keymap({
    "Mod-z": undo,
    "Shift-Mod-z": redo,
    "Mod-y": redo,
    Backspace: undoInputRule,
    "Mod-b": commands.bold,
    "Mod-i": commands.italic,
    "Mod-Shift-x": commands.strikethrough,
    "Mod-e": commands.code,
    "Mod-k": () => {
      editor.toolbar.openLink();
      return true;
    },
    // Alt+F10 moves to the toolbar, as in other rich-text editors: Tab
    // and Shift+Tab indent list items and move between table cells.
    "Alt-F10": () => {
      editor.toolbar.focus();
      return true;
    },
    "Mod-Alt-0": commands.paragraph,
    "Mod-Alt-1": commands.heading1,
    "Mod-Alt-2": commands.heading2,
    "Mod-Alt-3": commands.heading3,
    "Mod-Shift-8": commands.bulletList,
    "Mod-Shift-7": commands.orderedList,
    "Mod-Shift-9": commands.taskList,
    "Mod-Enter": exitCode,
    Enter: chainCommands(titleToBody, splitItem),
    Tab: chainCommands(goToNextCell(1), sink),
    "Shift-Tab": chainCommands(goToNextCell(-1), liftItem),
  });
}

// uploadPlugin hands pasted and dropped image files to the host's
// uploadFile and inserts the images it answers with.
function uploadPlugin(editor) {
  const files = (list) => Array.from(list || []).filter((f) => /^image\//.test(f.type));
  return new Plugin({
    props: {
      handlePaste(view, event) {
        const fs = files(event.clipboardData && event.clipboardData.files);
        if (!fs.length || !editor.options.uploadFile) return false;
        event.preventDefault();
        editor.insertFiles(fs, null);
        return true;
      },
      handleDrop(view, event) {
        const fs = files(event.dataTransfer && event.dataTransfer.files);
        if (!fs.length || !editor.options.uploadFile) return false;
        event.preventDefault();
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
        editor.insertFiles(fs, at ? at.pos : null);
        return true;
      },
    },
  });
}

// Editor is what mount returns.
class Editor {
  constructor(element, options) {
    this.options = options || {};
    this.readOnly = !!this.options.readOnly;
    this.reader = new Reader(schema);
    const doc = this.reader.document(this.options.document || { object: "document", data: {}, nodes: [] });
    this.root = document.createElement("div");
    this.root.className = "folio-editor";
    this.toolbar = buildToolbar(this);
    this.root.appendChild(this.toolbar.dom);
    const mountPoint = document.createElement("div");
    mountPoint.className = "fe-body";
    this.root.appendChild(mountPoint);
    element.appendChild(this.root);
    const state = EditorState.create({
      doc,
      plugins: [
        slashMenu(this, (name) => this.toolbar.activate(name)),
        inputRulesPlugin(),
        editorKeymap(this),
        keymap(baseKeymap),
        dropCursor({ color: false, class: "fe-dropcursor" }),
        gapCursor(),
        history(),
        tableEditing(),
        uploadPlugin(this),
        headingLevels(),
      ],
    });
    this.view = new EditorView(mountPoint, {
      state,
      nodeViews: nodeViews(this),
      editable: () => !this.readOnly,
      attributes: {
        class: "fe-content",
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": this.options.label || "Page content",
      },
      dispatchTransaction: (tr) => {
        const st = this.view.state.apply(tr);
        this.view.updateState(st);
        this.toolbar.update(st);
        if (tr.docChanged && this.options.onChange) this.options.onChange(this);
      },
    });
    this.toolbar.update(this.view.state);
    this.setReadOnly(this.readOnly);
  }

  // getDocument returns the document as GitBook JSON. {canonical: true}
  // writes every paragraph from the editor's model, ignoring the loaded
  // JSON of unchanged ones (for tests of the mapping).
  getDocument(opts) {
    const canonical = !!(opts && opts.canonical);
    return new Writer(this.reader.cache, !canonical).document(this.view.state.doc);
  }

  setReadOnly(readOnly) {
    this.readOnly = !!readOnly;
    this.root.classList.toggle("fe-readonly", this.readOnly);
    this.toolbar.dom.hidden = this.readOnly;
    this.view.setProps({});
  }

  focus() {
    this.view.focus();
  }

  run(command) {
    if (this.readOnly) return false;
    const ok = command(this.view.state, this.view.dispatch, this.view);
    this.view.focus();
    return ok;
  }

  // insertFiles uploads files through the host and inserts one images
  // block holding them after the top-level block at pos (or the
  // selection's): images are a top-level block, not allowed in a list
  // item, a table cell or a hint.
  async insertFiles(files, pos) {
    const refs = [];
    for (const f of files) {
      try {
        const ref = await this.options.uploadFile(f);
        if (ref && typeof ref === "object" && ref.kind) refs.push(ref);
      } catch (e) {
        if (this.options.onError) this.options.onError(e);
      }
    }
    if (!refs.length || this.readOnly) return;
    const images = n.images.create(
      null,
      refs.map((ref) => n.image.create({ data: { ref } })),
    );
    const state = this.view.state;
    const $pos = pos !== null && pos !== undefined ? state.doc.resolve(pos) : state.selection.$from;
    let tr;
    let at;
    if ($pos.depth === 0) {
      at = $pos.pos;
      tr = state.tr.insert(at, images);
    } else if ($pos.node(1).type === n.paragraph && $pos.node(1).content.size === 0) {
      at = $pos.before(1);
      tr = state.tr.replaceWith(at, $pos.after(1), images); // an empty line becomes the images
    } else {
      at = $pos.after(1);
      tr = state.tr.insert(at, images);
    }
    this.view.dispatch(tr.scrollIntoView());
    // Ask for the first image's alt text: its field takes the focus
    // (Enter or Escape goes back to the text).
    const dom = this.view.nodeDOM(at);
    const alt = dom && dom.querySelector && dom.querySelector(".fe-image-alt input");
    if (alt) alt.focus();
  }

  destroy() {
    this.view.destroy();
    this.root.remove();
  }
}

// mount builds an editor inside element; see doc.go for the options.
export function mount(element, options) {
  if (!element) throw new Error("FolioEditor.mount: no element");
  return new Editor(element, options);
}

export { hintStyles };
