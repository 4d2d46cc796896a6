// The edit view: mounts the editor (internal/editor) on the page's
// document and saves it as JSON with the session's CSRF token. Loaded
// deferred after the editor's script; no inline script (CSP).
"use strict";
(function () {
  const mount = document.getElementById("editor");
  if (!mount || typeof FolioEditor === "undefined") return;
  const d = mount.dataset;
  const status = document.getElementById("editor-status");
  const save = document.getElementById("editor-save");
  const bar = document.getElementById("editor-bar");
  let dirty = false;
  let saving = false;
  // The URLs of the files the document shows, and of those uploaded since.
  const fileURLs = JSON.parse(d.files || "{}");

  // uploadFile posts a pasted, dropped or picked image to the space's files
  // (or the change request's) and answers the reference the editor inserts.
  async function uploadFile(file) {
    say("Uploading " + (file.name || "the image") + "…");
    const res = await fetch(d.upload + "?name=" + encodeURIComponent(file.name || ""), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json", "X-CSRF-Token": d.csrf },
      body: file,
    });
    let body = null;
    try {
      body = await res.json();
    } catch (e) {
      body = null;
    }
    if (!res.ok || !body || !body.ref) {
      const msg = body && body.error ? body.error.message : "the upload failed (" + res.status + ").";
      say("Image not added: " + msg, "error");
      throw new Error(msg);
    }
    fileURLs[body.ref.file] = body.url;
    say("Image added: save to keep it in the page.", "ok");
    return body.ref;
  }

  function mountEditor(doc) {
    return FolioEditor.mount(mount, {
      document: doc,
      pages: JSON.parse(d.pages || "[]"),
      label: d.label,
      uploadFile: d.upload ? uploadFile : undefined,
      fileURL: (id) => fileURLs[id] || "",
      onChange: () => {
        dirty = true;
        draftSoon();
        // A conflict's explanation stays until the next save.
        if (!theirs) status.textContent = "";
      },
    });
  }
  let theirs = null; // the read-only editor of their version, after a conflict
  let editor = mountEditor(JSON.parse(d.document));
  window.folioEditor = editor; // for the browser tests and the console

  // showConflict shows both versions after someone else changed the same
  // parts of the page: the editor now holds the merge (their changes
  // elsewhere, the writer's text where both changed), their version is
  // shown read-only below, and the next save builds on their revision, so
  // it keeps both sides' other changes.
  function showConflict(body) {
    const cur = body.current;
    Object.assign(fileURLs, cur.files || {});
    editor.destroy();
    editor = mountEditor(body.merged);
    window.folioEditor = editor;
    if (theirs) theirs.destroy();
    theirs = FolioEditor.mount(document.getElementById("editor-theirs-doc"), {
      document: cur.document,
      readOnly: true,
      label: "Their version of the page",
      fileURL: (id) => fileURLs[id] || "",
    });
    document.getElementById("editor-theirs").hidden = false;
    d.since = cur.revision;
    dirty = true;
  }
  document.getElementById("editor-nojs").hidden = true;
  bar.hidden = false;
  // The ready marker: the editor is mounted and takes input (the browser
  // tests and bench/editor-ready wait for it).
  mount.dataset.ready = "true";
  if (window.performance && performance.mark) performance.mark("folio-editor-ready");

  function say(text, kind) {
    status.textContent = text;
    status.className = "edit-status" + (kind ? " edit-status-" + kind : "");
  }

  // Drafts: the unsaved document is kept in the browser's localStorage,
  // under the page's save URL (its space, page and change request), with
  // the revision it started from; written a second after the last change
  // and removed once saved. A draft found when the view opens is offered
  // for restoring: it goes into the editor with its revision, so saving
  // merges it with what others saved since (the server's three-way merge).
  const draftKey = "folio-draft:" + d.save;
  let draftTimer = 0;
  function storage() {
    try {
      return window.localStorage;
    } catch (e) {
      return null;
    }
  }
  function writeDraft() {
    draftTimer = 0;
    const ls = storage();
    if (!ls || !dirty) return;
    const draft = { since: d.since, time: new Date().toISOString() };
    if (mdMode) draft.markdown = mdText.value;
    else draft.document = editor.getDocument();
    try {
      ls.setItem(draftKey, JSON.stringify(draft));
    } catch (e) {
      // Full or refused: the draft is not kept; the editor still works.
    }
  }
  function draftSoon() {
    if (draftTimer) clearTimeout(draftTimer);
    draftTimer = setTimeout(writeDraft, 1000);
  }
  function clearDraft() {
    if (draftTimer) clearTimeout(draftTimer);
    draftTimer = 0;
    const ls = storage();
    if (ls) ls.removeItem(draftKey);
  }
  function readDraft() {
    const ls = storage();
    try {
      const v = ls && JSON.parse(ls.getItem(draftKey) || "null");
      return v && typeof v === "object" && (v.document || typeof v.markdown === "string") ? v : null;
    } catch (e) {
      return null;
    }
  }
  const draftBox = document.getElementById("editor-draft");
  const found = readDraft();
  if (found) {
    const when = new Date(found.time);
    const text = isNaN(when) ? "" : " from " + when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    document.getElementById("editor-draft-text").textContent =
      "You have an unsaved draft of this page" + text + (found.since !== d.since ? ", started before the page was last saved: saving it merges it with the newer version." : ".");
    draftBox.hidden = false;
    document.getElementById("editor-draft-restore").addEventListener("click", () => {
      draftBox.hidden = true;
      let ok = true;
      if (typeof found.markdown === "string") showMarkdown(found.markdown);
      else if (mdMode) ok = showEditor(found.document);
      else ok = replaceDocument(found.document);
      if (!ok) return;
      if (found.since) d.since = found.since;
      dirty = true;
      say("Draft restored: save to keep it.", "ok");
    });
    document.getElementById("editor-draft-discard").addEventListener("click", () => {
      draftBox.hidden = true;
      clearDraft();
      say("Draft discarded.");
      editor.focus();
    });
  }

  // replaceDocument puts doc in a new editor; a document the editor cannot
  // read (a damaged draft) leaves the current one in place.
  function replaceDocument(doc) {
    let next;
    try {
      next = mountEditor(doc);
    } catch (e) {
      say("That document could not be opened in the editor.", "error");
      return false;
    }
    editor.destroy();
    editor = next;
    window.folioEditor = editor;
    return true;
  }

  // The Markdown view: the server writes the document as Markdown for a
  // textarea, and reads it back when the writer returns to the editor or
  // saves. Blocks the writer left alone get their keys back on save (the
  // app carries keys over from the replaced document).
  const mdBox = document.getElementById("editor-md");
  const mdText = document.getElementById("editor-md-text");
  const modeButton = document.getElementById("editor-mode");
  let mdMode = false;
  async function convert(body) {
    const res = await fetch(d.markdown, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": d.csrf },
      body: JSON.stringify(body),
    });
    let out = null;
    try {
      out = await res.json();
    } catch (e) {
      out = null;
    }
    if (!res.ok || !out || out.error) throw new Error(out && out.error ? out.error.message : "the server answered " + res.status);
    return out;
  }
  function showMarkdown(text) {
    mdText.value = text;
    mount.hidden = true;
    mdBox.hidden = false;
    mdMode = true;
    modeButton.textContent = "Back to the editor";
    modeButton.setAttribute("aria-expanded", "true");
    mdText.focus();
  }
  function showEditor(doc) {
    if (!replaceDocument(doc)) return false;
    mdBox.hidden = true;
    mount.hidden = false;
    mdMode = false;
    modeButton.textContent = "Markdown";
    modeButton.setAttribute("aria-expanded", "false");
    editor.focus();
    return true;
  }
  modeButton.setAttribute("aria-expanded", "false");
  mdText.addEventListener("input", () => {
    dirty = true;
    draftSoon();
  });
  modeButton.addEventListener("click", async () => {
    if (modeButton.disabled) return;
    modeButton.disabled = true;
    try {
      if (mdMode) {
        const out = await convert({ markdown: mdText.value });
        showEditor(out.document);
        say("");
      } else {
        const out = await convert({ document: editor.getDocument() });
        showMarkdown(out.markdown);
        say("");
      }
    } catch (e) {
      say("Not converted: " + e.message, "error");
    }
    modeButton.disabled = false;
  });

  save.addEventListener("click", async () => {
    if (saving) return;
    saving = true;
    save.disabled = true;
    say("Saving…");
    try {
      let doc;
      if (mdMode) {
        try {
          doc = (await convert({ markdown: mdText.value })).document;
        } catch (e) {
          say("Not saved: " + e.message, "error");
          saving = false;
          save.disabled = false;
          return;
        }
      } else {
        doc = editor.getDocument();
      }
      const res = await fetch(d.save, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": d.csrf },
        body: JSON.stringify({ document: doc, since: d.since }),
      });
      let body = null;
      try {
        body = await res.json();
      } catch (e) {
        body = null;
      }
      if (res.ok) {
        dirty = false;
        clearDraft();
        say("Saved.", "ok");
        window.location.assign((body && body.location) || d.done);
        return;
      }
      const msg = body && body.error ? body.error.message : "Saving failed (" + res.status + ").";
      if (res.status === 409 && body && body.current && body.merged) {
        if (mdMode) showEditor(doc);
        showConflict(body);
        say("Not saved: " + msg + ". Your text is kept in those places and their other changes are now in it; their version is shown below. Compare, change what you need, then save again.", "error");
      } else if (res.status === 409) {
        say("Not saved: " + msg + " Your text is still here: copy what you need before reloading.", "error");
      } else {
        say("Not saved: " + msg, "error");
      }
    } catch (e) {
      say("Not saved: the server could not be reached. Your text is still here; try again.", "error");
    }
    saving = false;
    save.disabled = false;
  });

  window.addEventListener("beforeunload", (e) => {
    if (dirty && !saving) e.preventDefault();
  });
  editor.focus();
})();
