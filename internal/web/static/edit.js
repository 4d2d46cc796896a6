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

  save.addEventListener("click", async () => {
    if (saving) return;
    saving = true;
    save.disabled = true;
    say("Saving…");
    try {
      const res = await fetch(d.save, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": d.csrf },
        body: JSON.stringify({ document: editor.getDocument(), since: d.since }),
      });
      let body = null;
      try {
        body = await res.json();
      } catch (e) {
        body = null;
      }
      if (res.ok) {
        dirty = false;
        say("Saved.", "ok");
        window.location.assign((body && body.location) || d.done);
        return;
      }
      const msg = body && body.error ? body.error.message : "Saving failed (" + res.status + ").";
      if (res.status === 409 && body && body.current && body.merged) {
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
